"""Shared fixtures: the starter pack and standard two-player game configurations."""
import os
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


@pytest.fixture
def config():
    return two_player_config()
