"""Shared fixtures: the starter pack and standard two-player game configurations."""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
os.chdir(ROOT)

STARTER = "content/starter"


def two_player_config(layout=None, cube=False):
    """Federation (p1) against Borg (p2) with the starter teams and decks."""
    config = {
        "pack": STARTER,
        "players": [
            {"seat": "p1", "name": "Ann", "affiliation": "federation", "team": "federation-away-team"},
            {"seat": "p2", "name": "Bo", "affiliation": "borg", "team": "borg-away-team"},
        ],
        "cube": cube,
    }
    if layout:
        config["layout"] = layout
    return config


def multi_config(players=3, teams=False, layout=None, annihilation=False):
    """Three or four seats: Federation (p1, p3) and Borg (p2, p4) with the starter teams and
    decks; with `teams`, p1 and p3 against p2 and p4."""
    names = ["Ann", "Bo", "Cy", "Di"]
    affiliations = ["federation", "borg"]
    config = {
        "pack": STARTER,
        "players": [{"seat": f"p{i + 1}", "name": names[i], "affiliation": affiliations[i % 2],
                     "team": f"{affiliations[i % 2]}-away-team"} for i in range(players)],
    }
    if teams:
        config["mode"] = "teams"
        config["annihilation"] = annihilation
    if layout:
        config["layout"] = layout
    return config


@pytest.fixture
def config():
    return two_player_config()


@pytest.fixture(scope="module")
def stun_damage_pack(tmp_path_factory):
    """A copy of the starter pack whose stun phaser has DAMAGE 2 and whose drone D4-12
    also carries a stun weapon with DAMAGE 2 (`stun-beam`)."""
    folder = tmp_path_factory.mktemp("packs") / "stun-damage"
    shutil.copytree("content/starter", folder)
    characters = folder / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    stun = "{code: phaser-stun, name: Phaser (stun setting), dice: 1, damage: 0, stun: true}"
    assert stun in text
    text = text.replace(stun, stun.replace("damage: 0", "damage: 2"))
    beam = "      - {code: drone-beam, name: Forearm emitter, dice: 1, damage: 1}\n"
    drone = text.index("code: D4-12")
    at = text.index(beam, drone) + len(beam)
    stun_beam = "      - {code: stun-beam, name: Stun emitter, dice: 1, damage: 2, stun: true}\n"
    characters.write_text(text[:at] + stun_beam + text[at:], encoding="utf-8")
    return str(folder)
