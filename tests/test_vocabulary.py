"""Every condition and effect of the card vocabulary, each shown working on a real position."""
import msgspec
import pytest

from engine.awaymissions import effects, rules, vocabulary as v
from engine.awaymissions.context import Table
from engine.awaymissions.scenario import build
from engine.awaymissions.state import clone

POSITION = {
    "layout": "standard",
    "start": {"round": 2, "phase": "action", "turn": "p1"},
    "characters": {
        "REYES": {"space": "C1"},          # a bridge command terminal
        "OKAFOR": {"space": "C5", "ratings": {"attack": 1, "move": 1}},
        "D4-12": {"space": "D5"},
        "NEXUS": {"space": "H8"},
    },
    "hands": {"p1": ["fed-aimed-shot"], "p2": ["borg-regroup", "borg-hive-link"]},
    "decks": {"p1": {"support": ["fed-medical-kit", "fed-field-tricorder", "fed-red-alert"],
                     "mission": ["fed-open-a-channel"]}},
    "player_fields": {"p2": {"mute": ["attacked", "activated", "damaged", "moved"]}},
}


@pytest.fixture
def state():
    s = build(POSITION)
    s, _ = rules.apply(s, "p1", "activate REYES")
    return s


def run(state, seat, subject, *effect_list, dice=()):
    """Queue effects for `seat` on `subject` and run the game forward."""
    s = clone(state)
    s.dice.scripted = list(dice)
    s.pending = []  # as while a command is carried out: the open decision is being answered
    t = Table(s)
    effects.queue_effects(t, seat, None, subject, msgspec.convert(list(effect_list), list[v.Effect]))
    rules.advance(t)
    return s, t.events


def settle(state):
    """Pass every re-roll window and interrupt moment; returns the state and all events."""
    events = []
    while state.pending and state.pending[0].kind in ("reroll", "interrupt"):
        state, more = rules.apply(state, state.pending[0].player, "pass")
        events += more
    return state, events


def check(state, condition, seat="p1", subject="REYES"):
    t = Table(state)
    return effects.holds(t, msgspec.convert(condition, v.Condition), seat, state.characters.get(subject))


# --- conditions -----------------------------------------------------------------------------
def test_at_terminal(state):
    assert check(state, {"check": "at_terminal", "terminal": "command"})
    assert check(state, {"check": "at_terminal"})
    assert not check(state, {"check": "at_terminal", "terminal": "science"})
    assert not check(state, {"check": "at_terminal"}, subject="OKAFOR")


def test_on_board_and_feature(state):
    assert check(state, {"check": "on_board", "boards": ["bridge"]})
    assert check(state, {"check": "on_board", "boards": ["corridor"]}, subject="OKAFOR")
    assert not check(state, {"check": "on_board", "boards": ["engineering"]})
    assert not check(state, {"check": "on_feature", "feature": "transporter"})
    moved = clone(state)
    moved.characters["REYES"].space = "E1"  # the bridge turbolift
    assert check(moved, {"check": "on_feature", "feature": "turbolift"})


def test_specialization_and_keyword(state):
    assert check(state, {"check": "has_specialization", "specialization": "command", "level": 2})
    assert not check(state, {"check": "has_specialization", "specialization": "command", "level": 3})
    assert check(state, {"check": "has_keyword", "keyword": "Commander"})
    assert check(state, {"check": "has_keyword", "keyword": "Borg", "absent": True})
    assert check(state, {"check": "has_keyword", "keyword": "Drone"}, seat="p2", subject="D4-12")


def test_adjacent(state):
    assert check(state, {"check": "adjacent", "side": "hostile"}, subject="OKAFOR")
    assert check(state, {"check": "adjacent", "side": "hostile", "keyword": "Drone"}, subject="OKAFOR")
    assert not check(state, {"check": "adjacent", "side": "hostile"})
    assert not check(state, {"check": "adjacent", "side": "friendly"}, subject="OKAFOR")


def test_counts_and_round(state):
    assert check(state, {"check": "count", "what": "friendly_in_play", "min": 2, "max": 2})
    assert check(state, {"check": "count", "what": "hostile_in_play", "min": 2})
    assert check(state, {"check": "count", "what": "boards_held", "min": 2, "max": 2})
    assert check(state, {"check": "count", "what": "terminals_held", "min": 1, "max": 1})
    assert check(state, {"check": "count", "what": "hand", "min": 1, "max": 1})
    assert check(state, {"check": "count", "what": "hostile_neutralized", "max": 0})
    assert check(state, {"check": "round", "min": 2, "max": 2})
    assert not check(state, {"check": "round", "min": 3})
    lost = clone(state)
    lost.characters["D4-12"].status, lost.characters["D4-12"].space = "neutralized", None
    assert check(lost, {"check": "count", "what": "hostile_neutralized", "min": 1})
    assert check(lost, {"check": "count", "what": "friendly_neutralized", "min": 1}, seat="p2")


def test_tokens(state):
    stunned = clone(state)
    stunned.characters["REYES"].stun = 1
    assert check(stunned, {"check": "tokens", "token": "stun", "min": 1})
    assert not check(state, {"check": "tokens", "token": "stun", "min": 1})
    assert check(state, {"check": "tokens", "token": "cover", "max": 0})


# --- effects --------------------------------------------------------------------------------------
def test_add_dice_and_damage_wait_for_the_next_attack():
    s = build(POSITION)
    s, _ = rules.apply(s, "p1", "activate OKAFOR")
    s, events = run(s, "p1", "OKAFOR", {"do": "add_dice", "roll": "attack", "count": 2},
                    {"do": "add_damage", "amount": 1})
    assert [e["type"] for e in events] == ["boost", "boost"]
    s.dice.scripted = [6, 6, 6, 6, 1, 1, 1, 1]
    s, events = rules.apply(s, "p1", "attack OKAFOR D4-12 phaser")
    s, more = settle(s)
    events += more
    rolled = next(e for e in events if e["type"] == "rolled")
    assert len(rolled["dice"]) == 4  # ATTACK 1 + phaser 1 + 2 from the card
    resolved = next(e for e in events if e["type"] == "resolved")
    assert resolved["damage"] == 4 + 0 + 1  # four 6s beat the defense 1s; phaser +0, card +1 DAMAGE


def test_rating_for_the_round_and_for_good(state):
    s, _ = run(state, "p1", "REYES", {"do": "rating", "changes": {"move": 2}})
    assert s.characters["REYES"].boosts == {"move": 2}
    assert effects.rating(Table(s), s.characters["REYES"], "move") == 6
    s, _ = run(state, "p1", "OKAFOR", {"do": "rating", "changes": {"attack": 5}, "until": "game"})
    assert s.characters["OKAFOR"].ratings["attack"] == 2  # never above the peg holes


def test_restore_and_remove_pegs(state):
    s, events = run(state, "p1", "OKAFOR", {"do": "restore", "pegs": 3})
    assert s.characters["OKAFOR"].ratings == {"attack": 2, "defense": 3, "skill": 4, "move": 3}
    assert next(e for e in events if e["type"] == "restored")["restored"] == {"move": 2, "attack": 1}
    s, _ = run(state, "p1", "D4-12", {"do": "remove_pegs", "pegs": 2})
    assert s.pending[0].kind == "damage" and s.pending[0].player == "p2"


def test_tokens_on_and_off(state):
    s, _ = run(state, "p1", "OKAFOR", {"do": "token", "token": "stun", "count": 3},
               {"do": "token", "token": "cover"})
    assert s.characters["OKAFOR"].stun == 2 and s.characters["OKAFOR"].cover
    s, _ = run(s, "p1", "OKAFOR", {"do": "token", "token": "stun", "count": -1},
               {"do": "token", "token": "activated"})
    assert s.characters["OKAFOR"].stun == 1 and s.characters["OKAFOR"].activated


def test_move_and_place_ask_for_a_space(state):
    s, _ = run(state, "p1", "REYES", {"do": "move", "steps": 1})
    assert s.pending[0].kind == "effect_move"
    assert set(rules.legal_commands(s, "p1")) == {"pass", "move REYES B1", "move REYES D1", "move REYES C2"}
    s, _ = rules.apply(s, "p1", "move REYES C2")
    assert s.characters["REYES"].space == "C2" and s.pending[0].kind == "action"
    s, _ = run(state, "p1", "REYES", {"do": "place", "feature": "turbolift"})
    assert set(s.pending[0].info["spaces"]) == {"A5", "J6", "E1", "F1"}
    s, _ = rules.apply(s, "p1", "place REYES J6")
    assert s.characters["REYES"].space == "J6"


def test_draw_discard_and_search(state):
    s, events = run(state, "p1", None, {"do": "draw", "count": 2})
    assert s.player("p1").hand == ["fed-aimed-shot", "fed-medical-kit", "fed-field-tricorder"]
    assert events[0]["private"] == {"p1": ["fed-medical-kit", "fed-field-tricorder"]}
    s, events = run(state, "p1", None, {"do": "discard", "who": "opponent", "count": 1}, dice=())
    assert len(s.player("p2").hand) == 1 and len(s.player("p2").support_discard) == 1
    s, _ = run(state, "p1", None, {"do": "search", "pile": "support", "keyword": "Gear"})
    assert s.pending[0].kind == "search"
    assert set(s.pending[0].info["secret"]["options"]) == {"fed-medical-kit", "fed-field-tricorder"}
    assert "secret" not in rules.view_for(s, None)["pending"][0]["info"]
    assert "secret" not in rules.view_for(s, "p2")["pending"][0]["info"]
    s, _ = rules.apply(s, "p1", "take fed-field-tricorder")
    assert "fed-field-tricorder" in s.player("p1").hand and len(s.player("p1").support_deck) == 2


def test_points_and_scoring(state):
    s, _ = run(state, "p1", None, {"do": "bonus_points", "points": 2})
    assert s.player("p1").bonus_points == 2
    table = clone(state)
    table.pending = []
    table.player("p1").table_missions = ["fed-recover-logs"]
    t = Table(table)
    effects.queue_effects(t, "p1", "fed-recover-logs", "REYES", [v.Score()])
    rules.advance(t)
    assert table.player("p1").scoring_area == ["fed-recover-logs"] and not table.player("p1").table_missions


def test_skill_test_branches_and_extra_successes(state):
    test = {"do": "test", "specialization": "command", "successes": 1,
            "success": [{"do": "bonus_points", "points": 1}], "failure": [{"do": "draw"}],
            "per_extra": [{"do": "bonus_points", "points": 5}]}
    s, events = run(state, "p1", "REYES", test, dice=[6, 5, 1, 1, 1, 1])  # SKILL 4 + command 2
    s, more = settle(s)
    assert next(e for e in events + more if e["type"] == "rolled")["dice"] == [6, 5, 1, 1, 1, 1]
    assert s.player("p1").bonus_points == 6  # one success needed (1 point), one extra (5 points)
    s, _ = run(state, "p1", "REYES", test, dice=[3, 3, 2, 2, 1, 1])
    s, _ = settle(s)
    assert s.player("p1").bonus_points == 0 and len(s.player("p1").hand) == 2


def test_opposed_test_needs_an_adjacent_challenger(state):
    test = {"do": "test", "opposed": True, "success": [{"do": "bonus_points"}], "failure": [{"do": "draw"}]}
    s, events = run(state, "p1", "REYES", test)
    assert any(e["type"] == "test_impossible" for e in events) and len(s.player("p1").hand) == 2
    s, events = run(state, "p1", "OKAFOR", test, dice=[6, 6, 6, 6, 1])  # SKILL 4 vs D4-12's SKILL 1
    s, more = settle(s)
    resolved = next(e for e in events + more if e["type"] == "resolved")
    assert resolved["target"] == "D4-12" and s.player("p1").bonus_points == 1


def test_grant_actions_and_free_action(state):
    s, _ = run(state, "p1", "REYES", {"do": "grant_actions", "count": 1})
    assert s.activation.actions_left == 3
    s, _ = run(state, "p1", "OKAFOR", {"do": "free_action", "action": "cover"})
    assert s.pending[0].kind == "free_action" and rules.legal_commands(s, "p1") == ["pass", "cover OKAFOR"]
    s, _ = rules.apply(s, "p1", "cover OKAFOR")
    assert s.characters["OKAFOR"].cover and s.activation.actions_left == 2  # no action used


def test_cancel_ends_the_declared_attack():
    s = build(POSITION)
    s.player("p2").mute = ["activated", "damaged", "moved"]  # only the attacked moment is asked
    s, _ = rules.apply(s, "p1", "activate OKAFOR")
    s, _ = rules.apply(s, "p1", "attack OKAFOR D4-12 phaser")
    assert s.pending[0].kind == "interrupt" and s.roll.stage == "declared"
    s.pending = []
    t = Table(s)
    effects.queue_effects(t, "p2", None, "D4-12", [v.Cancel()])
    rules.advance(t)
    assert s.roll is None and any(e["type"] == "cancelled" for e in t.events)
    assert s.pending[0].kind == "action" and s.activation.actions_left == 1  # the attack used the action


def test_prevent_lowers_the_damage_about_to_be_taken(state):
    from engine.awaymissions.state import Pending

    s = clone(state)
    s.pending = []
    s.queue.append(Pending(kind="damage", data={"character": "D4-12", "amount": 2, "assimilator": None}))
    t = Table(s)
    effects.queue_effects(t, "p2", None, "D4-12", [v.Prevent(amount=1)])
    rules.advance(t)
    assert any(e["type"] == "prevented" and e["amount"] == 1 for e in t.events)
    assert s.pending[0].kind == "damage" and s.pending[0].info["amount"] == 1


def test_an_attack_made_impossible_by_an_interrupt_ends_unresolved():
    s = build(POSITION)
    s.player("p2").mute = ["activated", "damaged", "moved"]
    s, _ = rules.apply(s, "p1", "activate OKAFOR")
    s, _ = rules.apply(s, "p1", "attack OKAFOR D4-12 phaser")
    assert s.roll.stage == "declared"
    s.pending = []
    t = Table(s)
    effects.queue_effects(t, "p2", None, "D4-12", [v.Place(feature="turbolift")])
    rules.advance(t)
    s, events = rules.apply(s, "p2", "place D4-12 J6")  # out of sight of Okafor
    assert s.roll is None and {"type": "cancelled", "what": "attack"} in events
    assert not any(e["type"] == "rolled" for e in events)


def test_a_card_may_move_a_stunned_character_but_not_an_incapacitated_one(state):
    stunned = clone(state)
    stunned.characters["REYES"].stun = 1
    s, _ = run(stunned, "p1", "REYES", {"do": "move", "steps": 1})
    command = next(c for c in rules.legal_commands(s, "p1") if c.startswith("move"))
    s, _ = rules.apply(s, "p1", command)
    assert s.characters["REYES"].space == command.split()[-1]
    stunned.characters["REYES"].stun = 2
    s, events = run(stunned, "p1", "REYES", {"do": "move", "steps": 1})
    assert s.pending[0].kind == "action"  # nothing to decide: it cannot move
