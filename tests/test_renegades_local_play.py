"""Local play of Renegades (python bot.py --local --ruleset renegades): a scripted game to the end."""
import sqlite3

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
    assert "It is the KESTREL's turn" in text  # an illegal command is explained
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
