"""Stun weapons: a stun token instead of damage, but plain +0 DAMAGE hits against a Borg.

The starter pack's stun weapons all have DAMAGE 0, which cannot tell "+0 DAMAGE" from
"the printed DAMAGE", so these tests use a copy of the pack whose stun phaser has
DAMAGE 2 (the fixture `stun_damage_pack` in conftest.py).
"""
from engine.scenario import run


def _attack(pack, seat, attacker, target, weapon, dice, expect):
    return run({
        "name": "a stun weapon with DAMAGE 2",
        "pack": pack,
        "layout": "standard",
        "start": {"round": 1, "phase": "action", "turn": seat},
        "characters": {"REYES": {"space": "C5"}, "D4-12": {"space": "E5"}},
        "steps": [
            {seat: f"activate {attacker}"},
            {"dice": dice, seat: f"attack {attacker} {target} {weapon}", "expect": expect},
        ],
    })


def test_stun_weapon_against_a_borg_ignores_its_printed_damage(stun_damage_pack):
    # REYES rolls 4 dice (ATTACK 3 + 1): 6 6 1 1 against D4-12's 1 1 1 1: two hits.
    # Against a Borg the stun phaser is an ordinary weapon with +0 DAMAGE: 2 damage, not 4.
    failures = _attack(stun_damage_pack, "p1", "REYES", "D4-12", "phaser-stun", [6, 6, 1, 1, 1, 1, 1, 1], {
        "events": [{"type": "resolved", "successes": 2, "damage": 2, "stun": False}],
        "characters": {"D4-12": {"stun": 0}},
        "decision": {"kind": "damage", "player": "p2", "info": {"character": "D4-12", "amount": 2}},
    })
    assert failures == []


def test_stun_weapon_against_a_non_borg_gives_one_stun_token_and_no_damage(stun_damage_pack):
    # D4-12 rolls 4 dice (ATTACK 3 + 1): 6 6 1 1 against REYES's 1 1 1: two hits, one stun token.
    failures = _attack(stun_damage_pack, "p2", "D4-12", "REYES", "stun-beam", [6, 6, 1, 1, 1, 1, 1], {
        "events": [{"type": "resolved", "successes": 2, "damage": 0, "stun": True},
                   {"type": "stunned", "character": "REYES", "stun": 1}],
        "characters": {"REYES": {"stun": 1, "ratings": {"attack": 3, "defense": 3, "skill": 4, "move": 4}}},
    })
    assert failures == []
