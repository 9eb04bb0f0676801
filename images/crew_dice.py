"""The dice board of the Renegades surface: crew combat and booby traps (red attack dice,
black defense dice) and the skill tests (stealth, elude, search, leadership, tactics and
the brig's turning test), each as the engine rolled it, with the outcome in words.

Red dice that hit (4 or more after bonuses) are ringed, misses dimmed and struck through,
a die a bonus raised says by how much, black dice the obstructed target re-rolled say so.
Test dice are white; a success (5 or more) is ringed, the rest dimmed. Every mark is a
shape or a word as well as a colour.
"""
from __future__ import annotations

from typing import Optional

from PIL import Image

from images.dice import draw_die
from images.style import (INK, MUTED, PAPER, STYLES, WHITE, canvas, centred_text, digest, encode, fit_size, ink_on, pen,
                          text)

WIDTH = 600
DIE = 44
STEP = 54
FIRST_X = 160
RED = STYLES[1][0]  # vermilion, as the ship-combat dice
BLACK = INK
TITLE = 40
ROW = 76
LINE = 26
HIT = 4  # a red die of 4 or more hits
SUCCESS = 5  # a test die of 5 or more is a success
MOST = 6  # blocks drawn; earlier rolls are counted in a line
ATTACKS = ("crew_attack", "trap_attack", "leap_attack", "blast_attack")
TESTS = {"elude": "elude test (stealth)", "stealth": "stealth test", "scan_room": "search test of the room",
         "scan_container": "search test of a container", "persuade": "leadership test", "tactic": "tactical card test",
         "turn_attempt": "turning test (leadership)", "crew_ability": "special ability test",
         "parameter_test": "test to take the mission parameter", "douse": "tech test against a fire"}


def rolls(events: list[dict]) -> list[dict]:
    """The surface rolls among `events`, in order."""
    return [e for e in events if e["type"] in ATTACKS or e["type"] in TESTS]


def crew_dice_key(view: dict, events: list[dict]) -> Optional[str]:
    """A digest of what the surface dice board of `events` draws (None when nothing was
    rolled): the rolls shown, how many earlier ones are only counted, and the names of
    whoever they mention. The same key draws the same picture."""
    found = rolls(events)
    if not found:
        return None
    shown = found[-MOST:]
    names = _names(view)
    return digest({"rolls": shown, "skipped": len(found) - len(shown),
                   "names": {code: names[code] for code in _mentioned(shown) if code in names}})


def _mentioned(value) -> set[str]:
    """Every word in the events (ids among them), however deep."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    return set().union(*map(_mentioned, value)) if isinstance(value, list) else set()


def render_crew_dice(view: dict, events: list[dict]) -> Optional[bytes]:
    """PNG of the dice of every surface attack and test in `events` (None when nothing was rolled)."""
    image = crew_dice_image(view, events)
    return None if image is None else encode(image)


def crew_dice_image(view: dict, events: list[dict]) -> Optional[Image.Image]:
    """The surface dice board as a Pillow image (see render_crew_dice)."""
    found = rolls(events)
    if not found:
        return None
    shown, skipped = found[-MOST:], len(found) - MOST
    names = _names(view)
    height = sum(_height(e) for e in shown) + (LINE if skipped > 0 else 0) + 8
    image = canvas((WIDTH, height), PAPER)
    draw = pen(image)
    top = 0
    if skipped > 0:
        text(draw, (16, LINE / 2), f"{skipped} earlier roll(s) not shown.", 15, MUTED, "lm")
        top = LINE
    for event in shown:
        if event["type"] in ATTACKS:
            _attack(draw, top, event, names)
        else:
            _test(draw, top, event, names)
        top += _height(event)
    return image


def _names(view: dict) -> dict[str, str]:
    """Crewmember and figure id -> its name."""
    names = {code: c.get("name", code.title()) for code, c in view.get("crew", {}).items()}
    names.update({code: f.get("name", code) + f" {code}" for code, f in view.get("surface", {})
                 .get("figures", {}).items()})
    return names


def _rows(event: dict) -> int:
    """Rows of dice: red and black for an attack, both sides for an opposed test."""
    opposed = event["type"] == "turn_attempt" or event["type"] == "persuade" and event.get("against")
    return 2 if event["type"] in ATTACKS or opposed else 1


def _height(event: dict) -> int:
    return TITLE + _rows(event) * ROW + 2 * LINE + 8


def _title(draw, top: int, title: str) -> None:
    draw.rectangle((0, top, WIDTH, top + TITLE - 6), fill=INK)
    centred_text(draw, (WIDTH / 2, top + (TITLE - 6) / 2), title, fit_size(title, WIDTH - 30, 22), WHITE)


def _die(draw, x: float, y: float, face: int, colour, good: bool) -> None:
    """A die as draw_die draws it; a face a bonus took past six shows its number."""
    if face <= 6:
        draw_die(draw, x, y, DIE, face, colour, dim=not good, ring=good)
        return
    h = DIE / 2
    draw.rounded_rectangle((x - h - 5, y - h - 5, x + h + 5, y + h + 5), radius=DIE / 5 + 4, fill=INK)
    draw.rounded_rectangle((x - h, y - h, x + h, y + h), radius=DIE / 5, fill=colour, outline=INK, width=2)
    centred_text(draw, (x, y), str(face), round(DIE * 0.55), ink_on(colour))


def _row_label(draw, y: float, big: str, small: str) -> None:
    text(draw, (16, y - 9), big, fit_size(big, FIRST_X - DIE / 2 - 24, 19), INK, "lm")
    text(draw, (16, y + 13), small, 14, MUTED, "lm")


def _outcome(draw, y: float, lines: list[str]) -> None:
    for k, line in enumerate(lines):
        text(draw, (16, y + k * LINE), line, fit_size(line, WIDTH - 32, 19 if k == 0 else 15),
             INK if k == 0 else MUTED)


def attack_lines(event: dict, names: dict[str, str]) -> list[str]:
    """An attack's result in words."""
    hits = event.get("hits", sum(1 for f in event.get("attack", []) if f >= HIT))
    defense = event.get("defense", [])
    wounds = event.get("wounds", 0)
    blocked = event.get("blocked", hits - wounds)
    target = names.get(event["target"], event["target"])
    first = "No hits." if hits == 0 else (f"{hits} hit{'s' if hits != 1 else ''}, {blocked} blocked: "
                                          f"{wounds} wound{'s' if wounds != 1 else ''} to {target}.")
    if event["type"] == "trap_attack":
        second = "A booby trap attacks everyone within two squares."
    elif event["type"] == "leap_attack":
        second = "A leap into sunken ground: a hard landing of three attack dice."
    elif event["type"] == "blast_attack":
        second = "A grenade's blast attacks everyone on its square and beside it."
    elif event.get("rerolled"):
        second = "Ranged attack into obstructed terrain: the target re-rolled dice that blocked nothing."
    else:
        second = "Ranged attack." if event.get("ranged") else "Melee attack (base contact)."
    return [first, second] if defense or hits == 0 else [first, "No black dice: nothing to block with."]


def _attack(draw, top: int, event: dict, names: dict[str, str]) -> None:
    target = names.get(event["target"], event["target"])
    if event["type"] == "trap_attack":
        title = f"A booby trap attacks {target}"
    elif event["type"] == "leap_attack":
        title = f"{target} lands hard in the sunken ground"
    elif event["type"] == "blast_attack":
        title = f"A grenade's blast hits {target}"
    else:
        title = f"{names.get(event['attacker'], event['attacker'])} attacks {target}"
    _title(draw, top, title)
    red_row = top + TITLE + ROW / 2 - 6
    black_row = red_row + ROW
    _row_label(draw, red_row, "RED", "attack")
    _row_label(draw, black_row, "BLACK", "defense")
    after = event.get("attack", [])
    rolled = event.get("dice", after)
    for i, (face, raw) in enumerate(sorted(zip(after, rolled), key=lambda pair: -pair[0])):
        x = FIRST_X + i * STEP
        _die(draw, x, red_row, face, RED, face >= HIT)
        if face != raw:
            centred_text(draw, (x, red_row + DIE / 2 + 13), f"+{face - raw}", 14, INK)
    rerolled = set(event.get("rerolled", []))
    for i, (index, face) in enumerate(sorted(enumerate(event.get("defense", [])), key=lambda pair: -pair[1])):
        x = FIRST_X + i * STEP
        _die(draw, x, black_row, face, BLACK, True)
        if index in rerolled:
            centred_text(draw, (x, black_row + DIE / 2 + 13), "re-rolled", 13, INK)
    if not event.get("defense"):
        text(draw, (FIRST_X - DIE / 2, black_row), "none", 16, MUTED, "lm")
    _outcome(draw, black_row + ROW / 2 + 4, attack_lines(event, names))


def _successes(faces: list[int]) -> int:
    return sum(1 for f in faces if f >= SUCCESS)


def test_lines(event: dict, names: dict[str, str]) -> list[str]:
    """A test's result in words."""
    kind = event["type"]
    mine = _successes(event.get("dice", []))
    count = f"{mine} success{'es' if mine != 1 else ''} (5 or more)"
    if kind == "turn_attempt":
        theirs = _successes(event.get("prisoner_dice", []))
        verdict = "turned: the prisoner joins the captors" if event.get("turned") else "not turned"
        return [f"{mine} against {theirs} successes: {verdict}.", "More successes than the prisoner turn it."]
    if kind == "persuade" and event.get("against"):
        theirs = _successes(event.get("against_dice", []))
        verdict = "won the courier over" if event.get("won") else "the courier stays"
        return [f"{mine} against {theirs} successes: {verdict}.", "More successes than the escort win the courier."]
    passed = event.get("won") if kind == "persuade" else event.get("passed")
    first = f"{count}: {'passed' if passed else 'failed'}."
    second = {"elude": f"Slipping away from {names.get(event.get('away_from'), event.get('away_from'))}.",
              "stealth": "Keeping hidden on the move." if event.get("moving") else "Hiding.",
              "scan_room": "Found: " + (", ".join(names.get(c, c) for c in event.get("found", [])) or "nobody") + ".",
              "scan_container": f"The container at {event.get('cell')}: only the scanning side learns what is in it.",
              "persuade": "Winning over the courier.",
              "tactic": f"For {names.get(event.get('target'), event.get('target'))}.",
              "parameter_test": f"A {event.get('skill')} test for {event.get('name')}.",
              "douse": f"The fire at {event.get('cell')}.",
              "crew_ability": f"{event.get('ability')} for {names.get(event.get('target'), event.get('target'))}."}.get(kind, "One success passes.")
    return [first, second]


def _test(draw, top: int, event: dict, names: dict[str, str]) -> None:
    kind = event["type"]
    who = event.get("crew") or event.get("by") or event.get("leader")
    name = names.get(who, who)
    _title(draw, top, f"{name}: {TESTS[kind]}")
    row = top + TITLE + ROW / 2 - 6
    rows = [(who, event.get("dice", []))]  # labelled by card code: 'VESK', 'SYPHON-W1'
    if kind == "turn_attempt":
        rows.append((event["prisoner"], event.get("prisoner_dice", [])))
    elif kind == "persuade" and event.get("against"):
        rows.append((event["against"], event.get("against_dice", [])))
    for k, (code, faces) in enumerate(rows):
        y = row + k * ROW
        _row_label(draw, y, str(code), "test dice")
        for i, face in enumerate(sorted(faces, reverse=True)):
            _die(draw, FIRST_X + i * STEP, y, face, WHITE, face >= SUCCESS)
        if not faces:
            text(draw, (FIRST_X - DIE / 2, y), "no dice", 16, MUTED, "lm")
    _outcome(draw, row + (len(rows) - 1) * ROW + ROW / 2 + 4, test_lines(event, names))
