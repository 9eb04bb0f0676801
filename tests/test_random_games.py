"""Random legal play: 200 complete games keep the invariants and replay exactly; so do games
where the computer opponent plays one seat or both."""
import json
import random
from collections import Counter

import pytest

from engine import opponent
from engine.awaymissions import rules
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.state import from_json, to_json
from engine.errors import RuleError
from tests.conftest import two_player_config

GAMES = 200
SEEDS = random.Random(20261122).sample(range(10**9), GAMES)
LAYOUTS = [None, "standard", "borg-corridor", None, "cube"]


def check_invariants(state, events):
    teams = {p.seat: p.team for p in state.players}
    by_space = {}
    for c in state.characters.values():
        assert all(v >= 0 for v in c.ratings.values()), c
        assert c.stun <= 2
        if c.in_play:
            assert c.space in state_spaces(state)
            by_space.setdefault(c.space, []).append(c)
        else:
            assert c.status != "in_play"
    for space, here in by_space.items():
        assert len({teams[c.controller] for c in here}) == 1, f"hostiles share {space}"
        assert len(here) <= 2, f"three friendly characters in {space}"
    for event in events:
        if event["type"] == "rolled":
            assert len(event["dice"]) <= 6 and len(event["opposing"]) <= 6


def public_cards(state):
    """Card codes lying face up somewhere, so their names may appear in public."""
    seen = set()
    for p in state.players:
        seen.update(p.support_discard, p.mission_discard, p.scoring_area, p.permanents, p.table_missions)
        if p.core_mission:
            seen.add(p.core_mission)
    for c in state.characters.values():
        seen.update(c.equipment, c.traits)
    seen.update(item.data.get("card") for item in state.queue)  # cards being resolved are face up
    if state.roll is not None and state.roll.then:
        seen.add(state.roll.then.get("card"))
    for decision in state.pending:
        seen.add(decision.info.get("card"))
    return seen


def check_secrets(state, events):
    """No card held in a hand, nor the order of any deck, shows in a public view or event."""
    public_view = json.dumps(rules.view_for(state, None))
    public_events = json.dumps([{k: v for k, v in e.items() if k != "private"} for e in events])
    open_cards = public_cards(state) | {e.get("card") for e in events if e.get("card")}
    for player in state.players:
        for code in set(player.hand) - open_cards:
            assert f'"{code}"' not in public_view, code
            assert f'"{code}"' not in public_events, (code, events)
    assert "support_deck" not in public_view.replace("support_deck_count", "")


def state_spaces(state):
    from engine.awaymissions.context import Table
    return Table(state).geo.spaces


def play_checked(seed, layout, computers=None):
    """A complete game, checked after every command. `computers` maps seats to the level the
    computer opponent plays them at; the other seats play random legal commands."""
    config = two_player_config(layout=layout, cube=layout == "cube")
    if layout == "cube":
        config["layout"] = None
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat, command = random_command(state, rng)
        if computers and seat in computers:
            command = opponent.decide("awaymissions", state, seat, rules.view_for, opponent.level(computers[seat]),
                                      seed, timed=False).command
        before = to_json(state)
        if rng.random() < 0.02:
            with pytest.raises(RuleError):
                rules.apply(state, seat, "attack NOBODY NOWHERE")
            assert to_json(state) == before
        if rng.random() < 0.03:  # every listed command is really legal
            for other in rules.legal_commands(state, seat):
                rules.apply(state, seat, other)
        state, events = rules.apply(state, seat, command)
        assert to_json(state) != before
        check_invariants(state, events)
        check_secrets(state, events)
        log.append((seat, command))
        assert len(log) < 3000
    return config, state, log


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_keep_invariants_and_replay(chunk):
    verbs = Counter()
    for index in range(chunk * GAMES // 10, (chunk + 1) * GAMES // 10):
        seed, layout = SEEDS[index], LAYOUTS[index % len(LAYOUTS)]
        config, final, log = play_checked(seed, layout)
        assert final.result is not None and final.round == 3
        assert from_json(to_json(final)) == final
        replayed = rules.new_game(config, seed)
        for seat, command in log:
            replayed, _ = rules.apply(replayed, seat, command)
        assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"
        verbs.update(command.split()[0] for _, command in log)
    # the random games really exercise the rules, not just passing
    for verb in ("move", "attack", "reroll", "damage", "cover", "draw", "cycle", "bonus", "play"):
        assert verbs[verb] > 0, verb


COMPUTER_GAMES = [({"p1": "easy"}, None), ({"p2": "easy"}, "cube"), ({"p1": "easy", "p2": "easy"}, "standard"),
                  ({"p1": "easy", "p2": "easy"}, None), ({"p2": "easy"}, "borg-corridor")]


@pytest.mark.parametrize("computers, layout", COMPUTER_GAMES)
def test_games_with_computer_players_keep_invariants_and_replay(computers, layout):
    seed = SEEDS[COMPUTER_GAMES.index((computers, layout))]
    config, final, log = play_checked(seed, layout, computers)
    assert final.result is not None and final.round == 3
    replayed = rules.new_game(config, seed)
    for seat, command in log:
        replayed, _ = rules.apply(replayed, seat, command)
    assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"
