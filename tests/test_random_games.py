"""Random legal play: 200 two-player complete games, and 20 each of three players, four
players and 2 vs 2, keep the invariants and replay exactly; so do games where the computer
opponent plays one seat or more, at tables of two, three and four and in 2 vs 2.
benchmarks/random_games_bench.py plays 100 of each kind of table with the same checks."""
import random
from collections import Counter

import msgspec
import pytest

from engine import opponent
from engine.awaymissions import rules
from engine.awaymissions.autoplay import random_command
from engine.awaymissions.state import from_json, to_json
from engine.errors import RuleError
from tests.conftest import multi_config, two_player_config

GAMES = 200
SEEDS = random.Random(20261122).sample(range(10**9), GAMES)
LAYOUTS = [None, "standard", "borg-corridor", None, "cube"]
ALL_TABLE_GAMES = 100  # per kind of table below, in the benchmark
TABLE_GAMES = 20  # the first of them, in the tests: every layout, with and without annihilation
TABLES = {"three": (3, False), "four": (4, False), "teams": (4, True)}
TABLE_SEEDS = random.Random(20261124).sample(range(10**9), ALL_TABLE_GAMES)
TABLE_LAYOUTS = [None, None, "six", "borg-six"]


def check_invariants(state, events):
    teams = {p.seat: p.team for p in state.players}
    by_space = {}
    spaces = state_spaces(state)
    for c in state.characters.values():
        assert all(v >= 0 for v in c.ratings.values()), c
        assert c.stun <= 2
        if c.in_play:
            assert c.space in spaces
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


def check_secrets(state, events, viewers=()):
    """No card held in a hand, nor the order of any deck, shows in a public view or event;
    nor in the view of any seat in `viewers` unless it is the holder's or a teammate's."""
    public_view = _text(_without_deck_lists(rules.view_for(state, None)))
    public_events = _text([{k: v for k, v in e.items() if k != "private"} for e in events])
    open_cards = public_cards(state) | {e.get("card") for e in events if e.get("card")}
    views = {seat: _text(_others_part(state, rules.view_for(state, seat), seat)) for seat in viewers}
    for player in state.players:
        secret = set(player.hand) - open_cards
        for code in secret:
            assert f'"{code}"' not in public_view, code
            assert f'"{code}"' not in public_events, (code, events)
        for seat, view in views.items():
            if state.player(seat).team == player.team:
                continue
            for code in secret:
                assert f'"{code}"' not in view, (seat, player.seat, code)
    assert "support_deck" not in public_view.replace("support_deck_count", "")


def _text(value):
    """JSON text of a view or events, to search for card codes."""
    return msgspec.json.encode(value).decode()


def _without_deck_lists(view):
    """A view without the players' interrupt lists: deck lists are public (R95), so a card
    named there says nothing about the hand."""
    for player in view["players"]:
        player.pop("interrupts", None)
    return view


def _others_part(state, view, seat):
    """A seat's view without what its own team holds (its hands, its decisions' secrets),
    which may name the same cards as another team's hand, and without the deck lists."""
    team = state.player(seat).team
    for player in _without_deck_lists(view)["players"]:
        if player["team"] == team:
            player.pop("hand", None)
    view["pending"] = [d for d in view.get("pending", []) if d["player"] != seat]
    return view


def state_spaces(state):
    from engine.awaymissions.context import Table
    return Table(state).geo.spaces


def play_checked(seed, layout, config=None, computers=None):
    """A complete game, checked after every command. `computers` maps seats to the level the
    computer opponent plays them at; the other seats play random legal commands."""
    if config is None:
        config = two_player_config(layout=layout, cube=layout == "cube")
        if layout == "cube":
            config["layout"] = None
    state = rules.new_game(config, seed)
    many = len(state.players) > 2
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat, command = random_command(state, rng)
        asked = [state.pending[0].player, *state.pending[0].also]  # a team decision: either teammate
        computer = next((other for other in asked if computers and other in computers), None)
        if computer is not None:
            seat = computer
            command = opponent.decide("awaymissions", state, seat, rules.view_for, opponent.level(computers[seat]),
                                      seed, timed=False).command
        elif many and state.pending[0].also:  # a team decision: a random teammate answers it
            seat = rng.choice([state.pending[0].player, *state.pending[0].also])
            command = rng.choice(rules.legal_commands(state, seat))
        before = to_json(state)
        if rng.random() < 0.02:
            with pytest.raises(RuleError):
                rules.apply(state, seat, "attack NOBODY NOWHERE")
            assert to_json(state) == before
        if rng.random() < 0.03:  # every listed command is really legal
            listed = rules.legal_commands(state, seat)
            for other in (rng.sample(listed, min(len(listed), 12)) if many else listed):
                rules.apply(state, seat, other)
        state, events = rules.apply(state, seat, command)
        assert to_json(state) != before
        check_invariants(state, events)
        check_secrets(state, events, viewers=[rng.choice(state.seats)] if many else ())
        if many:
            check_table(state, events)
        log.append((seat, command))
        assert len(log) < 3000
    return config, state, log


def check_table(state, events):
    """Three or four seats: decisions go to one seat or one whole team, the activation order
    has every side once, and nobody acts for another team."""
    sides = list(dict.fromkeys(p.team for p in state.players))
    if state.order:
        assert sorted(state.order) == sorted(sides if state.options.get("teams") else state.seats)
    for decision in state.pending:
        team = state.player(decision.player).team
        assert all(state.player(other).team == team for other in decision.also)
    for event in events:
        if event["type"] == "activated":
            owner = state.characters[event["character"]].controller
            assert event["seat"] == owner
            if "by" in event:
                assert state.player(event["by"]).team == state.player(owner).team


def check_replay(config, seed, final, log):
    """The final state survives JSON, and replaying the log from the seed rebuilds it exactly."""
    assert from_json(to_json(final)) == final
    replayed = rules.new_game(config, seed)
    for seat, command in log:
        replayed, _ = rules.apply(replayed, seat, command)
    assert to_json(replayed) == to_json(final), f"seed {seed} did not replay"


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_keep_invariants_and_replay(chunk):
    verbs = Counter()
    for index in range(chunk * GAMES // 10, (chunk + 1) * GAMES // 10):
        seed, layout = SEEDS[index], LAYOUTS[index % len(LAYOUTS)]
        config, final, log = play_checked(seed, layout)
        assert final.result is not None and final.round == 3
        check_replay(config, seed, final, log)
        verbs.update(command.split()[0] for _, command in log)
    # the random games really exercise the rules, not just passing
    for verb in ("move", "attack", "reroll", "damage", "cover", "draw", "cycle", "bonus", "play"):
        assert verbs[verb] > 0, verb


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("chunk", range(5))
def test_three_and_four_player_games_keep_invariants_and_replay(table, chunk):
    per_chunk = TABLE_GAMES // 5
    verbs, answered_for_team = play_tables(table, range(chunk * per_chunk, (chunk + 1) * per_chunk))
    if TABLES[table][1]:  # the second seat of each team answered team decisions too
        assert answered_for_team > 0
    for verb in ("board", "start", "place", "move", "attack", "damage", "activate"):
        assert verbs[verb] > 0, verb


def play_tables(table, indices) -> tuple[Counter, int]:
    """Plays the games of these indices at this kind of table, checking each: the verbs
    played, and how many team decisions the second seat of a team answered."""
    players, teams = TABLES[table]
    verbs, answered_for_team = Counter(), 0
    for index in indices:
        seed, layout = TABLE_SEEDS[index], TABLE_LAYOUTS[index % len(TABLE_LAYOUTS)]
        config = multi_config(players, teams=teams, layout=layout, annihilation=teams and index % 2 == 1)
        config, final, log = play_checked(seed, layout, config)
        assert final.result is not None
        assert final.round == 3 or "annihilated" in final.result
        check_replay(config, seed, final, log)
        verbs.update(command.split()[0] for _, command in log)
        answered_for_team += sum(1 for seat, command in log if seat in ("p3", "p4") and command.split()[0] == "board")
    return verbs, answered_for_team


COMPUTER_GAMES = [({"p1": "easy"}, None), ({"p2": "easy"}, "cube"), ({"p1": "easy", "p2": "easy"}, "standard"),
                  ({"p1": "easy", "p2": "easy"}, None), ({"p2": "easy"}, "borg-corridor")]


@pytest.mark.parametrize("computers, layout", COMPUTER_GAMES)
def test_games_with_computer_players_keep_invariants_and_replay(computers, layout):
    seed = SEEDS[COMPUTER_GAMES.index((computers, layout))]
    config, final, log = play_checked(seed, layout, computers=computers)
    assert final.result is not None and final.round == 3
    check_replay(config, seed, final, log)


COMPUTER_TABLES = [("three", {"p2": "normal", "p3": "easy"}), ("four", {"p1": "easy", "p2": "easy", "p3": "easy",
                                                                      "p4": "easy"}),
                   ("teams", {"p1": "normal", "p3": "easy"}), ("teams", {"p2": "easy", "p4": "easy"})]


@pytest.mark.parametrize("table, computers", COMPUTER_TABLES)
def test_three_four_and_team_games_with_computer_players_keep_invariants_and_replay(table, computers):
    """Any seat may be a computer: it answers its own decisions and its team's (either
    teammate may answer one), chooses among opponents, and sees only its seat's view."""
    players, teams = TABLES[table]
    seed = TABLE_SEEDS[COMPUTER_TABLES.index((table, computers))]
    config = multi_config(players, teams=teams, layout="six")
    config, final, log = play_checked(seed, "six", config, computers=computers)
    assert final.result is not None and final.round == 3
    check_replay(config, seed, final, log)
    by_computer = [command for seat, command in log if seat in computers]
    assert len(by_computer) > 50
    if teams:  # a team decision is the team's: the computer activated its teammate's characters too
        owners = {code: c.owner for code, c in final.characters.items()}
        assert any(owners.get(command.split()[-1]) not in (None, seat) for seat, command in log
                   if seat in computers and command.startswith("activate"))
