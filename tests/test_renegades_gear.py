"""Renegades gear items in the game (N180-N186): the pack's effects checked, the event lines,
the crews picture's tokens, and the players dropping things only with a reason. The rules
themselves are pinned by scenarios/renegades-gear.yaml."""
import os
import random
import shutil

import pytest

from engine.errors import PackError
from engine.opponent.renegades import policy, worth
from engine.renegades import autoplay, rules
from engine.renegades.contents.content import load_pack
from engine.renegades.scenario import build
from engine.renegades.surface import dropped
from engine.service.rulesets import RENEGADES
from images import orbit as O
from images import ship_status as S


def surface(**crew):
    """p1's landing party on the surface, in the surface phase, with no figures about."""
    return build({"ruleset": "renegades", "mission": "the-reactor-core", "start": {"round": 1, "phase": "surface"},
                  "figures": {}, "crew": crew})


def test_gear_use_and_the_armory_hatch_read_as_words():
    names = rules.display_names(rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, seed=5))
    events = [{"type": "armed", "crew": "VESK", "weapons": ["arc-pistol"], "items": ["blink-beacon"]},
              {"type": "armed", "crew": "MOTT", "weapons": [], "items": ["field-kit"]},
              {"type": "gear_mend", "crew": "MOTT", "target": "VESK", "item": "field-kit", "amount": 2, "left": 1},
              {"type": "gear_mend", "crew": "MOTT", "target": "MOTT", "item": "field-kit", "amount": 1, "left": 0},
              {"type": "blinked", "crew": "VESK", "ship": "KESTREL", "cell": "E10", "carried": "TALLO",
               "item": "blink-beacon", "left": 0, "orbit": True}]
    assert RENEGADES.public_lines(events, names) == [
        "Captain Orla Vesk arms with Arc pistol and takes Emergency blink beacon from the armory",
        "Dr. Iva Mott takes Field med kit from the armory",
        "Dr. Iva Mott uses Field med kit on Captain Orla Vesk: 2 wounds fewer (1 token left)",
        "Dr. Iva Mott uses Field med kit: 1 wound fewer (spent)",
        "Captain Orla Vesk sets off Emergency blink beacon at E10 and is back aboard the Kestrel in orbit, "
        "carrying Tallo Brisk (spent)",
    ]


def test_the_crews_picture_shows_the_tokens_left_on_gear_used_by_command():
    state = surface(VESK={"cell": "C3", "gear": ["arc-pistol", "field-kit", "field-kit", "spoofer"]})
    state.energy["VESK"] = {"field-kit": [2, 0]}
    view = rules.view_for(state, None)
    held = dict(S.hold_lines({**view, "ships": O.ships_of(view)}, "KESTREL"))
    assert held["Gear"] == "Vesk: Arc pistol, Field med kit (2), Field med kit (spent), Sensor spoofer"
    assert "Emergency blink beacon" in held["Armory"]


@pytest.mark.parametrize("change, problem", [
    ("effect: {kind: mend, heal: 2},", "an item needs its `effect` and `text`"),
    ("effect: {kind: mend, heal: 2},\n     text: \"Action: patch up yourself or a conscious friend next to you: two wounds gone.\"}",
     "needs `energy`"),
    ("heal: 2", "a mend item needs `heal`"),
])
def test_a_gear_item_needs_an_effect_its_number_and_tokens_when_used_by_command(tmp_path, change, problem):
    pack = str(tmp_path / "pack")
    shutil.copytree("content/renegades", pack)
    path = os.path.join(pack, "campaign.yaml")
    with open(path) as handle:
        text = handle.read()
    replacement = {"heal: 2": "heal: 0"}.get(change, "")
    if "needs `energy`" in problem:
        text = text.replace("{code: field-kit, name: Field med kit, kind: item, cost: 40, energy: 2, count: 3,",
                            "{code: field-kit, name: Field med kit, kind: item, cost: 40, count: 3,")
    else:
        text = text.replace(change, replacement, 1)
    with open(path, "w") as handle:
        handle.write(text)
    with pytest.raises(PackError, match=problem.replace("`", ".")):
        load_pack(pack)


def test_every_drop_stays_legal_but_the_players_drop_only_what_a_full_load_forces():  # N186
    state = surface(VESK={"cell": "C3", "gear": ["arc-pistol", "arc-blade", "blink-beacon"]},
                    MOTT={"cell": "E10", "gear": ["arc-pistol", "field-kit", "spoofer", "grav-boots"]})
    legal = rules.legal_commands(state, "p1")
    drops = [c for c in legal if c.startswith("drop ")]
    assert sorted(drops) == sorted(["drop VESK arc-blade", "drop VESK arc-pistol", "drop VESK blink-beacon",
                                    "drop MOTT arc-pistol", "drop MOTT field-kit", "drop MOTT grav-boots",
                                    "drop MOTT spoofer"])
    kept = dropped.with_reason(state, legal)
    assert [c for c in kept if c.startswith("drop ")] == [c for c in drops if c.startswith("drop MOTT")]  # three items
    assert [c for c in worth(state, "p1", legal) if c.startswith("drop ")] == [c for c in kept if c.startswith("drop ")]
    assert all(not policy(state, "p1", legal, random.Random(seed)).startswith("drop ") for seed in range(30))


def test_the_random_player_drops_rarely_without_a_reason():  # N186
    state = surface(VESK={"cell": "C3", "gear": ["arc-pistol", "arc-blade", "blink-beacon"]})
    picks = [autoplay.random_command(state, random.Random(seed))[1] for seed in range(400)]
    options = rules.legal_commands(state, "p1")
    share = sum(c.startswith("drop ") for c in options) / len(options)
    assert share * len(picks) >= 15  # picking among all legal commands would drop at least 15 times ...
    assert sum(c.startswith("drop ") for c in picks) <= 4  # ... but drops are picked about one time in a few hundred
