"""Local play of Renegades (python bot.py --local --ruleset renegades): a scripted game to the end."""
import json
import re
import sqlite3

import pytest

import bot
from engine.renegades.contents.content import POSITION_CODES, load_pack
from engine.renegades.contents.state import from_json
from engine.renegades.rules import legal_commands
from engine.renegades.setup.setup import TABLES
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
    magic = {".png": b"\x89PNG\r\n\x1a\n", ".gif": b"GIF89a"}  # pictures, and the recap at the end (P43)
    assert all((tmp_path / "pictures" / name).read_bytes().startswith(magic[name[-4:]]) for name in drawn)
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


async def test_the_console_tells_a_renegade_the_mission_what_they_hold_and_the_commands_of_this_game(tmp_path):
    """Issue 29: the mission at the start and on 'mission'; 'hand' shows the ship, its crew at
    their stations and the tactical cards; 'card VESK' and 'rules elude' answer; the help's
    example is a command of this game."""
    ask, _ = scripted(["hand", "mission", "card VESK", "rules elude", "?", "quit"])
    said = []
    database = str(tmp_path / "local.db")
    await play_local(database, str(tmp_path / "pictures"), seed=3, ask=ask, say=said.append, ruleset="renegades")
    state = json.loads(sqlite3.connect(database).execute("SELECT state FROM games").fetchone()[0])
    pack = load_pack("content/renegades")
    mission = pack.missions[state["mission"]]
    text = "\n".join(said)
    assert "move REYES C4" not in text
    example = re.search(r"Type a command \(like '([^']+)'\)", said[0])[1]
    assert example in legal_commands(from_json(json.dumps(state)), "p1")
    briefing = f"Mission: {mission.name} (reward {mission.reward} digits). {mission.story}"
    assert said[1].startswith(briefing) and text.count(briefing) == 2  # at the start, and on 'mission'
    assert f"Objective: {mission.parameter.name} (" in said[1] and f"), at {mission.parameter.cell} on " in said[1]
    mine = next(p for p in state["players"] if p["seat"] == "p1")
    assert all(f"Tactical card {pack.tactical[code].name} (" in text for code in mine["tactical"]) and mine["tactical"]
    assert "Kestrel (KESTREL) at B7: commander Captain Orla Vesk (VESK), navigation Tallo Brisk (TALLO)" in text
    assert "Captain Orla Vesk (crewmember, Renegades; in commands: VESK)" in text
    assert "Eluding (Renegades): " in text and "mission  the mission and how it is won" in text


@pytest.mark.parametrize("mode, seats, factions", [("solo", 1, ["renegade"]), ("co-op", 2, ["renegade", "renegade"]),
                                                   ("versus", 2, ["renegade", "coalition"])])
def test_bot_local_offers_solo_co_op_and_versus_as_discord_does(tmp_path, monkeypatch, capsys, mode, seats, factions):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    answers = iter(["1"] * 6 + ["quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert bot.main(["--local", "--ruleset", "renegades", "--mode", mode, "--seed", "4", "--level", "easy"]) == 0
    conn = sqlite3.connect(tmp_path / "local.db")
    config, state = conn.execute("SELECT config, state FROM games").fetchone()
    assert (json.loads(config)["mode"], json.loads(config)["seats"]) == (TABLES[mode][0], seats)
    assert [p["faction"] for p in json.loads(state)["players"]] == factions
    out = capsys.readouterr().out
    assert ("Computer acts:" in out) == (seats == 2)  # your wingmate in co-op, the Coalition in versus
    if mode != "versus":
        assert "The Renegade ships play together against the NPC Coalition." in out


@pytest.mark.parametrize("argv, said", [
    (["--mode", "solo"], "--mode solo is a Renegades table (solo, co-op or versus): add --ruleset renegades."),
    (["--ruleset", "renegades", "--mode", "teams"], "--mode teams is an Away Missions table"),
    (["--ruleset", "renegades", "--players", "3"], "--players is for Away Missions"),
])
def test_bot_local_refuses_a_table_the_ruleset_does_not_have(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    assert bot.main(["--local", *argv]) == 2
    assert said in capsys.readouterr().out and not (tmp_path / "local.db").exists()


def test_the_surface_in_words_names_ships_and_dropped_gear():
    """Crew and figures keep the codes commands take; a ship and gear lying on the ground are
    named as players read them."""
    from engine.service.console import surface_words
    surface = {"crew": {"VESK": {"cell": "F5", "ko": False, "hidden": True}}, "figures": {"DRONE-1": {"cell": "K3"}},
               "boarded": {"WARDEN": ["RHEE"]}, "dropped": {"F6": ["arc-pistol", "med-gel"]}}
    assert surface_words(surface, {"WARDEN": {"name": "Warden"}}) == \
        "VESK F5 (hidden); DRONE-1 K3; RHEE boarding the Warden; Arc pistol, Med gel dropped at F6"


COALITION = ["SOLANE", "KOVIN", "ILDA", "NOOR", "FENWICK"]


def _ships(database) -> dict:
    state = json.loads(sqlite3.connect(database).execute("SELECT state FROM games").fetchone()[0])
    return {code: sorted(ship["stations"].values()) for code, ship in state["ships"].items()}


def test_bot_local_solo_flies_the_coalition_crew_named_on_the_command_line(tmp_path, monkeypatch, capsys):
    """Issue 26 item 6 (N241): --coalition-crew names the NPC Coalition ship's crew, by code or name."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert bot.main(["--local", "--ruleset", "renegades", "--mode", "solo", "--seed", "4",
                     "--coalition-crew", "Inspector Ada Solane, kovin, ILDA, noor, Fenwick"]) == 0
    assert _ships(tmp_path / "local.db")["WARDEN"] == sorted(COALITION)
    assert "The NPC Coalition ship flies your choice: SOLANE, KOVIN, ILDA, NOOR, FENWICK." in capsys.readouterr().out


async def test_solo_without_a_choice_names_the_standard_crew_and_the_flags(tmp_path):
    said = []
    await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=4, ask=scripted(["quit"])[0],
                     say=said.append, ruleset="renegades", options=dict(zip(("mode", "seats"), TABLES["solo"])))
    assert "flies the standard crew (HALVERN, PELL, ORSO, ANSEL, BRECK); choose another with --coalition-crew, " \
           "or --draft." in "\n".join(said)
    assert _ships(tmp_path / "local.db")["WARDEN"] == sorted(["HALVERN", "PELL", "ORSO", "ANSEL", "BRECK"])


async def test_a_solo_draft_is_picked_at_the_prompt_own_crew_then_the_coalition(tmp_path):
    """--draft (N219, N220): '?' asks which crewmember joins the ship with the legal picks; a
    pick that strands a ship is refused, saying which may be picked, and changes nothing."""
    picks = ["KAIRO", "LINNET", "DRAX", "PEREL", "ZEMMA", *COALITION]
    ask, _ = scripted(["?", "draft HALVERN", *[f"draft {code}" for code in picks], "quit"])
    said = []
    database = str(tmp_path / "local.db")
    options = {**dict(zip(("mode", "seats"), TABLES["solo"])), "draft": True}
    assert await play_local(database, str(tmp_path / "pictures"), seed=4, ask=ask, say=said.append,
                            ruleset="renegades", options=options) == 0
    text = "\n".join(said)
    assert "You draft your crew, then the Coalition's" in text
    assert "Which crewmember joins the Kestrel? (pick 1 of 5)" in text and "draft VESK" in text
    assert "cannot take 'HALVERN'" in text  # a Coalition crewmember for the Renegade ship
    dealt = text.index("The mission is dealt once the crews are drafted.")
    assert text.index("Mission: ", dealt) > text.index("Which crewmember joins the Kestrel")  # told after the draft
    ships = _ships(database)
    assert ships["KESTREL"] == sorted(picks[:5]) and ships["WARDEN"] == sorted(COALITION)
    version = sqlite3.connect(database).execute("SELECT version FROM games").fetchone()[0]
    assert version >= len(picks)  # the refused pick changed nothing; each pick was one move


@pytest.mark.parametrize("argv, said", [
    (["--coalition-crew", "SOLANE"], "add --ruleset renegades"),
    (["--ruleset", "renegades", "--mode", "co-op", "--coalition-crew", " ".join(COALITION)],
     "Only the solo game names its NPC Coalition crew"),
    (["--ruleset", "renegades", "--mode", "solo", "--coalition-crew", "SOLANE KOVIN ILDA NOOR"], "you named 4"),
    (["--ruleset", "renegades", "--mode", "solo", "--coalition-crew", "SOLANE VESK ILDA NOOR FENWICK"],
     "'VESK' is not coalition crew"),
    (["--ruleset", "renegades", "--mode", "solo", "--draft", "--coalition-crew", " ".join(COALITION)], "not both"),
])
def test_bot_local_refuses_a_crew_choice_that_cannot_be_played(tmp_path, monkeypatch, capsys, argv, said):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    assert bot.main(["--local", *argv]) == 2
    assert said in capsys.readouterr().out and not (tmp_path / "local.db").exists()


async def test_a_versus_draft_against_the_computer_crew_takes_its_picks_too(tmp_path):
    """--draft against the computer (N243): you pick the Renegade crew at the prompt, the
    computer crew the Coalition's, and the mission is told once both are crewed."""
    ask, _ = scripted(["draft KAIRO", "1", "1", "1", "1", "quit"])
    said = []
    database = str(tmp_path / "local.db")
    assert await play_local(database, str(tmp_path / "pictures"), seed=4, ask=ask, say=said.append,
                            ruleset="renegades", level="easy", options={"draft": True}) == 0
    ships = _ships(database)
    assert "KAIRO" in ships["KESTREL"] and len(set(ships["KESTREL"])) == len(set(ships["WARDEN"])) == 5
    text = "\n".join(said)
    assert "Computer acts:" in text and text.index("Mission: ") > text.index("The mission is dealt once")
