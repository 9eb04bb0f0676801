"""Local play of Renegades (python bot.py --local --ruleset renegades): a scripted game to the end."""
import json
import sqlite3

import pytest

import bot
from engine.renegades.content import POSITION_CODES
from engine.service.console import play_local
from tests.test_local_play import scripted


async def test_a_scripted_renegades_game_plays_to_the_end_and_draws_its_pictures(tmp_path):
    ask, prompts = scripted(["?", "move NOBODY N1", "pass"])
    said = []
    database = str(tmp_path / "local.db")
    assert await play_local(database, str(tmp_path / "pictures"), seed=3, ask=ask, say=said.append,
                            ruleset="renegades") == 0
    text = "\n".join(said)
    # '?' asks the ship's decision as a question and lists the legal commands by name
    assert "What does the Kestrel do next? (2 action(s) left)\n  1. move Kestrel " in text
    assert "It is the Kestrel's turn" in text  # an illegal command is explained, the ship by its name
    assert "Computer acts:" in text
    drawn = sorted(p.name for p in (tmp_path / "pictures").iterdir())
    for kind in ("board", "dice", "status"):  # the orbital board, ship combat dice, crews and ships
        assert any(name.endswith(f"-{kind}.png") for name in drawn), kind
    assert all((tmp_path / "pictures" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for name in drawn)
    assert "World event phase:" in text and "The game is over" in text
    conn = sqlite3.connect(database)
    ruleset, status, version = conn.execute("SELECT ruleset, status, version FROM games").fetchone()
    assert (ruleset, status) == ("renegades", "over")
    assert version == conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]


async def test_local_play_sets_up_the_quicker_game_on_built_boards(tmp_path):
    """--quick --boards built --world-cards 5: the ships start docked, both boards built (N57, N124)."""
    ask, _ = scripted(["quit"])
    database = str(tmp_path / "local.db")
    assert await play_local(database, str(tmp_path / "pictures"), seed=5, ask=ask, say=lambda _: None,
                            ruleset="renegades", options={"quick": True, "boards": "built", "world_cards": 5}) == 0
    config, state = sqlite3.connect(database).execute("SELECT config, state FROM games").fetchone()
    assert json.loads(config)["boards"] == "built"
    state = json.loads(state)
    assert state["phase"] == "landing" and len(state["world_deck"]) == 5
    assert sorted(state["surface_layout"]) == sorted(state["orbit_layout"]) == sorted(POSITION_CODES)


@pytest.mark.parametrize("argv, said", [
    (["--quick"], "add --ruleset renegades"),
    (["--boards", "built"], "add --ruleset renegades"),
    (["--ruleset", "renegades", "--quick", "--world-cards", "8"], "Play with 5 to 6 world cards in the quicker game"),
    (["--ruleset", "renegades", "--world-cards", "11"], "Play with 6 to 10 world cards"),
])
def test_bot_local_refuses_a_renegades_set_up_that_cannot_be_played(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    assert bot.main(["--local", *argv]) == 2
    assert said in capsys.readouterr().out
    assert not (tmp_path / "local.db").exists()  # refused before any game is made
