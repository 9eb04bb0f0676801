"""The computer crew in Renegades: legal commands only, from its seat's view only, and better
than random play. Its figures over many games: benchmarks/opponent_bench.py --table renegades."""
import random
from dataclasses import replace

import pytest

from engine import opponent
from engine.dice import Dice
from engine.renegades import rules, scenario
from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.opponent.renegades import Determiniser, evaluate, goal, steps_to, worth
from engine.renegades.autoplay import random_command
from engine.renegades.contents.state import clone, to_json
from engine.renegades.crew.pieces import PARAMETER
from engine.service.console import play_local
from tests.test_local_play import scripted

CONFIGS = {
    "solo": {"mode": "coop", "players": [{"seat": "p1"}]},
    "versus": {"players": [{"seat": "p1"}, {"seat": "p2"}]},
    "quick": {"players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True},  # ships start on the planet
    "quick solo": {"mode": "coop", "players": [{"seat": "p1"}], "quick": True},
    "four": {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "world_cards": 8},
}


# the hard level's search (its width and its horizon, where the policy plays on before a
# position is judged) with the normal level's playouts: a complete game in seconds. The hard
# level itself plays complete games in benchmarks/opponent_bench.py --table renegades.
HARD_SEARCH = replace(opponent.level("hard"), playouts=opponent.level("normal").playouts)


def play(config, seed, computers, level="normal"):
    """A complete game, `computers` seats flown by the computer crew, the others choosing
    uniformly among their legal commands (as opponent_bench's random player); every computer
    command is checked to be legal and found without a refused playout."""
    state = rules.new_game(config, seed)
    rng = random.Random(seed)
    log = []
    while state.phase != "over":
        seat = rules.awaited(state)[0]
        if seat in computers:
            choice = opponent.decide("renegades", state, seat, rules.view_for,
                                     HARD_SEARCH if level == "hard" else opponent.level(level), seed, timed=False)
            assert choice.command in rules.legal_commands(state, seat) and choice.errors == 0
            command = choice.command
        else:
            command = rng.choice(rules.legal_commands(state, seat))
        state, _ = rules.apply(state, seat, command)
        log.append((seat, command))
        assert len(log) < 2000
    return state, log


@pytest.mark.parametrize("table, computers, level", [
    ("solo", {"p1"}, "normal"), ("versus", {"p2"}, "normal"), ("four", {"p1", "p2", "p3", "p4"}, "easy"),
    ("versus", {"p1", "p2"}, "hard"),
])
def test_the_computer_crew_plays_complete_games_with_legal_commands(table, computers, level):
    state, log = play(CONFIGS[table], 31, computers, level)
    assert state.result is not None
    verbs = {command.split()[0] for seat, command in log if seat in computers}
    assert {"move", "pass"} <= verbs or "attack" in verbs


def test_crew_changes_are_made_only_when_they_help_so_a_turn_never_loops():
    """A station change is a free action: the computer makes one only when the ship flies or
    fights better for it, so it cannot swap crew back and forth for ever."""
    state, log = play(CONFIGS["versus"], 2, {"p1", "p2"})
    changes, run = 0, 0
    for seat, command in log:
        run = run + 1 if command.startswith("station") else 0
        changes = max(changes, run)
    assert changes <= 4


def test_the_computer_crew_beats_random_play():
    """Versus games, the computer flying the Renegade ship and then the Coalition one: it wins
    a game when its side wins the mission, or (the mission unfinished) when it ends ahead on the
    damage done to the ships and the digits earned (50 digits weighing one damage, as in its
    judgement, N94); it loses when behind on those; level counts for neither side."""
    won = lost = 0
    for seed in range(6):
        computer = f"p{seed % 2 + 1}"
        state, _ = play(CONFIGS["versus"], seed, {computer})
        mine = next(s for s in state.ships.values() if s.seat == computer)
        theirs = next(s for s in state.ships.values() if s.kind == "ship" and s.seat not in (None, computer))
        winner = (state.result or {}).get("winner")
        if winner is not None:
            won, lost = (won + 1, lost) if winner == state.player(computer).faction else (won, lost + 1)
        else:
            lead = theirs.damage - mine.damage + (state.digits.get(mine.faction, 0)
                                                  - state.digits.get(theirs.faction, 0)) / 50
            won, lost = won + (lead > 0), lost + (lead < 0)
    assert won >= 5 and lost <= 1, (won, lost)


def scanned(state, seat):
    """The state after `seat`'s scans found what the first salvage token and the first shut
    container hold (so the view shows some contents and hides others)."""
    state = clone(state)
    state.salvage_peeks[seat] = [c for c in state.salvage if c in state.salvage_items][:1]
    state.peeks[seat] = sorted(state.containers)[:1]
    return state


def positions(config, seed, every=6):
    """Positions of a random game, each with its awaited seat, every `every` commands."""
    state, rng, n = rules.new_game(config, seed), random.Random(seed), 0
    while state.phase != "over":
        if n % every == 0:
            yield state, rules.awaited(state)[0]
        state, _ = rules.apply(state, *random_command(state, rng))
        n += 1


@pytest.mark.parametrize("table", ["quick", "quick solo", "versus"])
def test_a_determinised_state_agrees_with_the_view_and_the_legal_commands(table):
    rng, phases, unseen = random.Random(1), set(), set()
    for seed in (1, 2):
        for real, seat in positions(CONFIGS[table], seed):
            state = scanned(real, seat)
            view = rules.view_for(state, seat)
            world = Determiniser(view, seat).sample(rng)
            assert rules.view_for(world, seat) == view
            assert rules.legal_commands(world, seat) == rules.legal_commands(state, seat)
            assert (len(world.world_deck), len(world.location_deck), len(world.surface_deck), len(world.salvage_deck)) \
                == (len(state.world_deck), len(state.location_deck), len(state.surface_deck), len(state.salvage_deck))
            assert set(world.containers) == set(state.containers) and set(world.bounties) == set(state.bounties)
            assert set(world.salvage_items) == set(state.salvage_items)
            phases.add(state.phase)
            unseen |= {part for part, hidden in [("containers", len(state.containers) > len(state.peeks[seat])),
                                                 ("salvage", len(state.salvage_items) > 1),
                                                 ("bounties", len(view["bounties"]) < len(state.bounties))] if hidden}
    assert "surface" in phases if table.startswith("quick") else "orbital" in phases
    assert {"containers", "salvage"} <= unseen and ("bounties" in unseen or table == "quick solo")


def test_the_parameters_container_is_known_from_the_mission_card():
    state = rules.new_game({**CONFIGS["quick"], "mission": "the-reactor-core"}, 4)
    spot = next(cell for cell, item in state.containers.items() if item == PARAMETER)
    world = Determiniser(rules.view_for(state, "p1"), "p1").sample(random.Random(4))
    assert world.containers[spot] == PARAMETER


def with_hidden_parts_changed(state, seat, rng):
    """The same game as `seat` sees it, with every part it cannot see drawn anew: the world
    deck's unseen cards and order, the location and surface decks' order, shut containers'
    contents, unscanned salvage tokens and the salvage deck, the other side's bounties, dice."""
    changed = clone(state)
    pack = rules.Game(state).pack
    unseen = [c for c in pack.world_events if c not in state.world_discard]
    rng.shuffle(unseen)
    changed.world_deck = unseen[:len(state.world_deck)]
    rng.shuffle(changed.location_deck)
    rng.shuffle(changed.surface_deck)
    shut = [c for c in state.containers if c not in state.peeks.get(seat, []) and state.containers[c] != PARAMETER]
    items = [state.containers[c] for c in shut] + [i for i in pack.search_items if i not in state.containers.values()]
    rng.shuffle(items)
    changed.containers.update(zip(shut, items))
    hidden = [c for c in state.salvage_items if c not in state.salvage_peeks.get(seat, [])]
    tokens = [state.salvage_items[c] for c in hidden] + state.salvage_deck
    rng.shuffle(tokens)
    changed.salvage_items.update(zip(hidden, tokens))
    changed.salvage_deck = tokens[len(hidden):]
    side = state.player(seat).faction
    theirs = [s for s in state.bounties if state.player(s).faction != side and s not in state.bounties_paid]
    hunted = [c.id for c in state.crew.values() if c.faction == side and c.id not in state.bounties.values()]
    for hunter in theirs:
        hunted.append(changed.bounties[hunter])
        changed.bounties[hunter] = hunted.pop(rng.randrange(len(hunted)))
    changed.dice = Dice.seeded(rng.getrandbits(64))
    return changed


@pytest.mark.parametrize("table, seed", [("versus", 8), ("quick", 5)])
def test_hidden_parts_do_not_change_the_computer_crews_choice(table, seed):
    rng, checked, phases = random.Random(seed), 0, set()
    for real, seat in positions(CONFIGS[table], seed, every=3):
        if checked == 8:
            break
        state = scanned(real, seat)
        if len(rules.legal_commands(state, seat)) > 2:
            changed = with_hidden_parts_changed(state, seat, rng)
            assert rules.view_for(changed, seat) == rules.view_for(state, seat)
            assert to_json(changed) != to_json(state)
            level = opponent.level("normal")
            first = opponent.decide("renegades", state, seat, rules.view_for, level, seed=3, timed=False)
            again = opponent.decide("renegades", changed, seat, rules.view_for, level, seed=3, timed=False)
            assert [(c.command, c.playouts, c.win_rate) for c in first.candidates] == \
                   [(c.command, c.playouts, c.win_rate) for c in again.candidates]
            assert first.command == again.command and first.playouts > 0
            checked += 1
            phases.add(state.phase)
    assert checked == 8 and ("surface" in phases or table == "versus")


def test_gifts_are_weighed_only_when_they_arm_an_empty_handed_crewmember():
    """A gift is a free action: the computer weighs one only when it arms a crewmember with
    empty hands and leaves the giver something, so gifts cannot go back and forth (N92)."""
    state, seat = next((s, seat) for s, seat in positions(CONFIGS["quick solo"], 3, every=1)
                       if any(c.startswith("give ") for c in rules.legal_commands(s, seat)))
    legal = rules.legal_commands(state, seat)
    gifts = [c for c in legal if c.startswith("give ")]
    kept = [c for c in worth(state, seat, legal) if c.startswith("give ")]
    for gift in gifts:
        _, giver, taker, _ = gift.split()
        assert (gift in kept) == (not state.crew[taker].gear and len(state.crew[giver].gear) > 1)


async def test_local_renegades_play_uses_the_computer_crew_and_explains_it(tmp_path):
    ask, _ = scripted(["pass"] * 40)
    said = []
    assert await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=3, ask=ask,
                            say=said.append, ruleset="renegades", level="easy", explain=True) == 0
    text = "\n".join(said)
    assert "Computer acts:" in text and "Rule of thumb:" in text


def test_the_surface_counts_in_the_crews_judgement():
    """N94: the mission parameter in its side's hands (more once aboard its ship), knocked-out
    enemies and digits earned raise the crew's estimate; the same for the other side lower it."""
    state = rules.new_game(CONFIGS["quick"], 4)
    side = state.player("p1").faction
    mine = next(c for c in state.crew.values() if c.faction == side)
    theirs = next(c for c in state.crew.values() if c.faction != side)
    ship = next(s for s in state.ships.values() if s.seat == "p1")
    base = evaluate(state, "p1")

    def changed(change):
        other = clone(state)
        change(other)
        return evaluate(other, "p1")

    held = changed(lambda s: setattr(s.objective, "holder", mine.id))
    aboard = changed(lambda s: setattr(s.objective, "ship", ship.id))
    assert base < held < aboard
    assert changed(lambda s: setattr(s.objective, "holder", theirs.id)) < base
    assert changed(lambda s: setattr(s.crew[theirs.id], "ko", True)) > base > \
           changed(lambda s: setattr(s.crew[mine.id], "ko", True))
    assert changed(lambda s: s.digits.update({side: s.digits.get(side, 0) + 100})) > base


def _run_position(**position):
    """Tier 3's run under way on Port Saven's surface (N170), the findings with the Renegades."""
    return scenario.build({
        "ruleset": "renegades", "mission": "the-reactor-core", "tier": 3, "run": "renegade", "figures": {},
        "containers": {}, **position})


def test_in_the_run_the_carrier_flies_for_home_not_the_mission_planet():
    """N150: once the findings have left the mission planet the crew's measure of progress
    follows them home: with no enemy ship in orbit the carrier closes on Port Saven."""
    state = _run_position(start={"round": 3}, ships={
        "KESTREL": {"cell": "H12", "facing": "N"}, "WARDEN": {"cell": None, "docked": "earth"}},
        objective={"kind": "container", "name": "the reactor core", "sealed": False, "ship": "KESTREL",
                   "run": "renegade"})
    home = Game(state).board.home_of("renegade")
    choice = opponent.decide("renegades", state, "p1", rules.view_for, opponent.level("normal"), 5, timed=False)
    after, _ = rules.apply(state, "p1", choice.command)
    gap = lambda s: min(distance(s.ships["KESTREL"].cell, c) for c in home.cells)
    assert choice.command.startswith("move KESTREL") and gap(after) < gap(state)


def test_in_the_run_the_findings_nearer_the_base_weigh_for_the_carriers_side_and_the_chase_for_the_other():
    """N150: on the home surface the crew prefers the move that brings the findings nearer the
    employer's base; the pursuers prefer closing on whoever carries them."""
    state = _run_position(start={"round": 3, "phase": "surface"}, docks={"KESTREL": "A1", "WARDEN": "L12"},
                          objective={"kind": "container", "name": "the reactor core", "sealed": False,
                                     "home": True, "run": "renegade", "holder": "VESK"},
                          crew={"VESK": {"cell": "B2"}, "HALVERN": {"cell": "K11"}})

    def after(command):
        changed, _ = rules.apply(state, rules.awaited(state)[0], command)
        return changed
    toward, away = after("move VESK D4"), after("move VESK B4")
    assert evaluate(toward, "p1") > evaluate(away, "p1")
    assert evaluate(toward, "p2") < evaluate(away, "p2")
    chased = clone(state)
    chased.crew["HALVERN"].cell = "E4"
    assert evaluate(chased, "p2") > evaluate(state, "p2")


def test_a_solo_game_at_normal_completes_its_mission():
    """Issue 26: the computer crew against the NPC Coalition, default world deck, plays to
    complete the mission (N236, N237); before, every such game ran out of world cards."""
    state, log = play(CONFIGS["solo"], 2, {"p1"})
    assert state.result["outcome"] != "unfinished", state.result
    assert any(command.startswith(("take ", "open ")) for seat, command in log if seat == "p1")


def _on_the_surface(seed=1):
    """The quick solo game's first surface decision, its landing party of three deployed."""
    state = rules.new_game(CONFIGS["quick solo"], seed)
    state, _ = rules.apply(state, "p1", rules.legal_commands(state, "p1")[-1])
    return state


def test_a_crewmember_never_walks_back_to_a_square_it_left_while_its_goal_stands():
    """N237: the crew weighs only moves that bring a crewmember nearer its goal (here the
    spore bloom), so the square it stepped off is no longer among its choices."""
    state = _on_the_surface()
    g = Game(state)
    crew = state.crew["RHEE"]
    targets = goal(g, crew)
    weighed = [c for c in worth(state, "p1", rules.legal_commands(state, "p1")) if c.startswith("move RHEE ")]
    assert weighed and all(steps_to(g, c.split()[2], targets) < steps_to(g, crew.cell, targets) for c in weighed)
    start = crew.cell
    after, _ = rules.apply(state, "p1", weighed[-1])
    assert f"move RHEE {start}" in rules.legal_commands(after, "p1")
    assert f"move RHEE {start}" not in worth(after, "p1", rules.legal_commands(after, "p1"))


def test_a_leap_that_brings_a_crewmember_no_nearer_its_goal_is_not_weighed():
    """N237 (issue 26 item 5): a leap into sunken ground is a step like a move. In versus game
    4 at normal a crewmember leapt away from its dock into the sunken row and then walked back
    to the square it had left; now only a leap that gains a step on its goal is weighed."""
    state = _on_the_surface()
    state.crew["RHEE"].cell = "I11"  # above the sunken row H12-J12, one step from the spore bloom
    g = Game(state)
    targets = goal(g, state.crew["RHEE"])
    assert [steps_to(g, cell, targets) for cell in ("H12", "I12", "J12", "I11")] == [0, 1, 2, 1]
    leaps = {"leap RHEE H12", "leap RHEE I12", "leap RHEE J12"}
    assert leaps <= set(rules.legal_commands(state, "p1"))
    assert {c for c in worth(state, "p1", rules.legal_commands(state, "p1")) if c in leaps} == {"leap RHEE H12"}


def test_the_mission_walked_out_counts_in_the_crews_judgement():
    """N236: a crewmember nearer the mission parameter, taking it, and carrying it nearer
    its ship's dock each raise the crew's estimate."""
    state = _on_the_surface()
    g = Game(state)
    crew = state.crew["RHEE"]
    spot = g.state.objective.cell

    def moved(s, cell):
        other = clone(s)
        other.crew["RHEE"].cell = cell
        return other
    far, near_it = moved(state, "A6"), moved(state, "F10")
    assert steps_to(g, "F10", (spot,)) < steps_to(g, "A6", (spot,))
    assert evaluate(near_it, "p1") > evaluate(far, "p1")
    taken = clone(near_it)
    taken.objective.holder, taken.objective.cell = crew.id, None
    assert evaluate(taken, "p1") > evaluate(near_it, "p1")
    dock = state.docks["KESTREL"]
    homeward = moved(taken, "C4")
    assert steps_to(g, "C4", (dock,)) < steps_to(g, "F10", (dock,))
    assert evaluate(homeward, "p1") > evaluate(taken, "p1")


def test_the_ship_waits_for_its_landing_party():
    """N238: while its crew are on the surface and the parameter is not aboard, the ship is
    not weighed rising (it would strand them); with the parameter aboard it may rise."""
    state = _on_the_surface()
    assert "ascend KESTREL" in rules.legal_commands(state, "p1")
    assert "ascend KESTREL" not in worth(state, "p1", rules.legal_commands(state, "p1"))
    aboard = clone(state)
    aboard.objective.ship, aboard.objective.cell = "KESTREL", None
    assert "ascend KESTREL" in worth(aboard, "p1", rules.legal_commands(aboard, "p1"))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("table", ["versus", "solo"])
def test_the_computer_crew_drafts_by_rule_of_thumb_at_every_level(level, table):
    """N243: a draft pick is not searched (nothing is dealt yet to play out); the rule of thumb
    takes for its own ship the free crewmember of highest initiative, for the NPC Coalition
    ship it chooses in the solo game the lowest, each keeping every station mannable (now and
    then, as every rule of thumb, a random legal pick)."""
    state = rules.new_game({**CONFIGS[table], "draft": True}, 3)
    pack = Game(state).pack
    by_rule = 0
    while state.phase == "draft":
        seat = rules.awaited(state)[0]
        legal = rules.legal_commands(state, seat)
        own = pack.ships[state.draft.order[state.draft.made]].faction == state.player(seat).faction
        choice = opponent.decide("renegades", state, seat, rules.view_for, opponent.level(level), 3, timed=False)
        assert choice.command in legal and not choice.playouts
        if choice.reason.startswith("draft for its own ship the free crewmember of highest initiative"):
            initiatives = [pack.crew[c.split()[1]].initiative for c in legal]
            best = max(initiatives) if own else min(initiatives)
            assert pack.crew[choice.command.split()[1]].initiative == best
            by_rule += 1
        else:
            assert choice.reason.startswith("try something different now and then")
        state, _ = rules.apply(state, seat, choice.command)
    assert by_rule >= 7 and state.phase == "orbital" and len(state.ships) == 2
