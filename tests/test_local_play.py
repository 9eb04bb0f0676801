"""Local play (python bot.py --local): a scripted game through the console, same service and database."""
import itertools
import json
import re
import sqlite3
from collections import Counter

import bot
from engine.service import GameService, audit
from engine.service.console import Console, play_local
from engine.service.text import public_events
from images import pictures
from images.dice import gather
from images.style import encode

MOVES = 200  # the human's answers in the re-roll window test before quitting


def scripted(lines):
    """An input function: the given lines, then "1" (the first legal command) forever."""
    answers = itertools.chain(lines, itertools.repeat("1"))
    prompts = []

    async def ask(prompt):
        prompts.append(prompt)
        return next(answers)
    return ask, prompts


async def test_a_scripted_game_against_the_computer_plays_to_the_end(tmp_path):
    ask, prompts = scripted(["?", "hand", "move NOBODY Z9", "99", "core fed-core-hold-the-ship"])
    said = []
    database, pictures = str(tmp_path / "local.db"), tmp_path / "pictures"
    assert await play_local(database, str(pictures), seed=4, level="easy", ask=ask, say=said.append) == 0
    text = "\n".join(said)
    # '?' asks the decision as a question and lists the legal commands by name, with the text to type
    assert "Which core mission do you play?\n  1. core Hold the Ship   [core fed-core-hold-the-ship]" in text
    assert "Which core mission do you play? Hand: empty." in text  # 'hand'
    assert "Not now: first choose your core mission (for example: core fed-core-hold-the-ship)." in text
    assert "Choose 1 to 2." in text
    assert "Federation (you) chooses a core mission" in text and "Computer acts:" in text
    assert re.search(r"Final score: Federation \(you\) \d+, Computer \d+\. (Federation \(you\) wins|Computer wins|A draw)\.", text)
    assert set(prompts) == {"Federation (you)> "}
    conn = sqlite3.connect(database)
    status, version = conn.execute("SELECT status, version FROM games").fetchone()
    assert status == "over" and version == conn.execute("SELECT COUNT(*) FROM log").fetchone()[0]
    boards = sorted(p.name for p in pictures.iterdir() if p.name.endswith("-board.png"))
    # a picture per move: a window passed by preference (P23) is in the same picture as the move before it
    assert version // 2 < len(boards) <= version + 1 and boards[0] == "game1-0000-board.png"
    assert boards[-1] == f"game1-{version:04d}-board.png"
    # the end: the recap and the summary beside the boards (P44)
    assert {"game1-recap.gif", "game1-summary.png"} <= {p.name for p in pictures.iterdir()}
    assert f"Wrote {pictures / 'game1-recap.gif'}" in said
    # the dice are sealed before the first roll and the seal is checked at the end, as on Discord
    seal = re.search(r"Dice seal: ([0-9a-f]{64})", said[0])[1]
    seed, salt = re.search(r"Dice seed (\d+), salt ([0-9a-f]+)\. Verified: ", said[-1]).groups()
    assert audit.seal(int(seed), salt) == seal and int(seed) == conn.execute("SELECT seed FROM games").fetchone()[0]
    assert not [line for line in said[:-1] if salt in line], "the salt (and the seed) stay secret until the end"


async def test_hot_seat_asks_both_players_and_a_concession_ends_the_game(tmp_path):
    ask, prompts = scripted(["1", "1", "concede"])
    said = []
    database = str(tmp_path / "local.db")
    await play_local(database, str(tmp_path / "pictures"), hotseat=True, seed=4, ask=ask, say=said.append)
    assert prompts[:2] == ["Player 1> ", "Player 2> "]
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT status, result FROM games").fetchone()[0] == "over"
    assert "concedes" in "\n".join(said)


async def test_quit_leaves_the_game_stored_and_active(tmp_path):
    ask, _ = scripted(["1", "quit"])
    database = str(tmp_path / "local.db")
    await play_local(database, str(tmp_path / "pictures"), seed=4, ask=ask, say=lambda line: None)
    conn = sqlite3.connect(database)
    assert conn.execute("SELECT status FROM games").fetchone()[0] == "active"
    assert conn.execute("SELECT COUNT(*) FROM log").fetchone()[0] >= 1


async def test_the_commander_and_swaps_options_change_the_human_team(tmp_path):
    ask, _ = scripted(["quit"])
    database = str(tmp_path / "local.db")
    assert await play_local(database, str(tmp_path / "pictures"), seed=4, commander="lindq",
                            swaps=["OKAFOR=OSSA", "ferrow=quill"], ask=ask, say=lambda line: None) == 0
    state = json.loads(sqlite3.connect(database).execute("SELECT state FROM games").fetchone()[0])
    mine = {c["card"] for c in state["characters"].values() if c["owner"] == "p1"}
    assert {"LINDQ", "OSSA", "QUILL"} <= mine and not {"REYES", "OKAFOR", "FERROW"} & mine


async def test_a_refused_team_is_explained_with_the_engine_reasons_and_no_game_is_made(tmp_path):
    for commander, swaps, reasons in (
            ("NEXUS", ["OKAFOR=QUILL", "HARUNA=QUILL"],
             ["NEXUS is not an alternative commander for REYES.", "QUILL is already in the away team."]),
            (None, ["OKAFOR"], ["Write each swap as OLD=NEW"])):
        said = []
        assert await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), commander=commander,
                                swaps=swaps, say=said.append) == 2
        assert said[0].startswith("That away team cannot play") and all(r in said[0] for r in reasons)
    assert not (tmp_path / "local.db").exists()


def test_bot_local_passes_commander_and_swap_on(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("READY_ROOM_DB", str(tmp_path / "local.db"))
    assert bot.main(["--local", "--commander", "LINDQ", "--swap", "OKAFOR=OSSA", "--swap", "HARUNA=NOBODY"]) == 2
    assert "There is no character NOBODY." in capsys.readouterr().out


async def test_the_computer_level_and_its_explanations_at_the_prompt(tmp_path):
    ask, prompts = scripted(["1"] * 12 + ["quit"])
    said = []
    assert await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=4, level="hard",
                            explain=True, ask=ask, say=said.append) == 0
    text = "\n".join(said)
    assert "Computer acts:" in text and "The computer weighed:" in text
    assert "1. " in text and "estimated win rate" in text


def test_bot_local_refuses_an_unknown_level(capsys):
    import pytest
    with pytest.raises(SystemExit):
        bot.main(["--local", "--level", "godlike"])
    assert "invalid choice: 'godlike'" in capsys.readouterr().err


class PrefersRedraw:
    """A computer that returns every card it may in round 1 (and otherwise plays the first command)."""

    def __init__(self):
        self.returned = []

    def choice(self, legal):
        redraws = [c for c in legal if c.startswith("redraw ")]
        if redraws:
            chosen = max(redraws, key=len)
            self.returned = chosen.split()[1:]
            return chosen
        return legal[0]


async def test_local_play_never_prints_the_cards_the_computer_returns_to_its_deck(tmp_path):
    answers = iter(["1"] * 40)
    said = []

    async def ask(prompt):
        return next(answers, "quit")
    service = await GameService.open(str(tmp_path / "local.db"))
    computer = PrefersRedraw()
    try:
        console = Console(service, str(tmp_path / "pictures"), ask=ask, say=said.append,
                          stand_in=lambda view, seat, legal: computer.choice(legal))
        await console.play(seed=4)
    finally:
        await service.close()
    assert computer.returned, "the computer should have returned cards in round 1"
    text = "\n".join(said)
    assert "returns" in text  # the public line says how many
    assert not [card for card in computer.returned if card in text]


async def test_three_players_and_two_against_two_are_played_locally(tmp_path):
    for options, seats in (({"players": 3}, 3), ({"teams": True}, 4)):
        ask, prompts = scripted(["1"] * 4 + ["quit"])
        said = []
        database = str(tmp_path / f"local{seats}.db")
        await play_local(database, str(tmp_path / "pictures"), seed=4, ask=ask, say=said.append, **options)
        conn = sqlite3.connect(database)
        assert conn.execute("SELECT COUNT(*) FROM seats").fetchone()[0] == seats
        state = json.loads(conn.execute("SELECT state FROM games").fetchone()[0])
        assert state["layout"]["six"] is True and len(state["players"]) == seats
        assert bool(state["options"].get("teams")) == (seats == 4)
        assert set(prompts) == {"Federation (you)> "} and "Computer 2 acts:" in "\n".join(said)


async def test_two_against_two_locally_the_computers_play_both_sides_and_your_teammate(tmp_path):
    ask, _ = scripted(["1"] * 25 + ["quit"])
    said = []
    assert await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=6, level="easy",
                            explain=True, teams=True, ask=ask, say=said.append) == 0
    text = "\n".join(said)
    for name in ("Computer 2", "Computer 3", "Computer 4"):  # p3 is your teammate
        assert f"{name} acts:" in text
    assert "Rule of thumb:" in text


async def test_card_and_rules_quote_at_most_the_cap_of_what_was_typed(tmp_path):
    """A lookup quotes what it could not find as refusals do (QUOTE_LIMIT characters), never
    the whole of a long line."""
    from engine.command_text import QUOTE_LIMIT
    typed = "q" * 100_000
    ask, _ = scripted([f"card {typed}", f"rules {typed}", "quit"])
    said = []
    await play_local(str(tmp_path / "local.db"), str(tmp_path / "pictures"), seed=4, ask=ask, say=said.append)
    answers = [line for line in said if "q" * 10 in line]
    assert len(answers) == 2
    assert all(len(line) < QUOTE_LIMIT + 250 and "q" * (QUOTE_LIMIT - 3) + "..." in line for line in answers)


class Watching(Console):
    """A console that keeps the public view after each update it shows, by version."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.views: dict[int, dict] = {}

    async def show(self, update):
        await super().show(update)
        self.views[update.version] = await self.service.view(self.game_id)


def keeps_the_dice(legal):
    """Pass a re-roll window (keep the dice), else attack or test a skill when possible, else
    the first legal command."""
    if "pass" in legal and any(c.startswith("reroll") for c in legal):
        return "pass"
    return next((c for c in legal if c.startswith(("attack", "skill"))), legal[0])


def roll_up_to(log: list[list[dict]], version: int) -> list[dict]:
    """The public events of the roll that the log entry of `version` goes on with, up to it."""
    roll: list[dict] = []
    for events in reversed(log[:version]):
        roll = public_events(events) + roll
        if any(e["type"] == "rolled" for e in events):
            return roll
    return []


async def test_a_pass_that_closes_a_re_roll_window_writes_the_resolved_dice(tmp_path):
    """Ruling P65: every re-roll window put to both players, each kept. The pass that closes
    a window writes the dice picture of the whole roll, resolved (as the Discord table shows
    it, P56), where before no dice picture was written and the folder's newest showed the
    roll not resolved yet; a pass that leaves the window open writes the roll as it stands."""
    service = await GameService.open(str(tmp_path / "local.db"))
    folder = tmp_path / "pictures"
    answers = iter(range(MOVES))

    async def ask(prompt):
        if next(answers, None) is None:
            return "quit"
        return keeps_the_dice((await service.legal_commands(console.game_id, 1))[1])
    try:
        for user_id in (1, 2):
            await service.set_reaction_preference(user_id, "every")
        console = Watching(service, str(folder), ask=ask, say=lambda line: None,
                           stand_in=lambda view, seat, legal: keeps_the_dice(legal))
        await console.play(seed=4)
        log = [json.loads(entry.events) for entry in await service.log(console.game_id)]
    finally:
        await service.close()
    passes = Counter()
    for version, events in enumerate(log, 1):
        kinds = {e["type"] for e in events}
        if "reroll_passed" not in kinds or "rolled" in kinds:
            continue
        roll = roll_up_to(log, version)
        assert (gather(roll).resolved is not None) == ("resolved" in kinds)
        written = folder / f"game{console.game_id}-{version:04d}-dice.png"
        assert written.read_bytes() == encode(pictures.RENDERERS["awaymissions"].dice(console.views[version], roll, True))
        passes["closed" if "resolved" in kinds else "kept open"] += 1
    assert passes["closed"] >= 2 and passes["kept open"] >= 2, passes
