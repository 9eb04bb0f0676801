"""Salvage in orbit: the tokens' contents, scanning them from the communications station
and collecting them with a ship action (N60, N61)."""
from __future__ import annotations

from engine.dice import Dice
from engine.errors import RuleError
from engine.renegades.contents.board import distance
from engine.renegades.contents.content import Pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState, Ship
from engine.renegades.crew.pieces import skill_test
from engine.renegades.orbit import orbit

_SALT = 0x5A1_7A6E  # the salvage deck has its own shuffle, so the game's dice run as before


def deal(state: GameState, pack: Pack) -> None:
    """Shuffle the salvage deck (each token `count` times) and fill the board's tokens."""
    deck = [item.code for item in pack.salvage.values() for _ in range(item.count)]
    Dice.seeded(state.seed ^ _SALT).shuffle(deck)
    state.salvage_items = {cell: deck.pop(0) for cell in state.salvage if deck}
    state.salvage_deck = deck


def reachable(g: Game, ship: Ship) -> list[str]:
    """Salvage squares on or beside the ship (in orbit)."""
    if ship.cell is None:
        return []
    return sorted((c for c in g.state.salvage if distance(c, ship.cell) <= 1), key=lambda c: (c[0], int(c[1:])))


def _token(g: Game, ship: Ship, cell: str) -> None:
    if cell not in reachable(g, ship):
        raise RuleError(f"No salvage token on or beside the {ship.name} at {cell}.")


def scan(g: Game, ship: Ship, seat: str, cell: str) -> None:
    """Free, once a round: the crewmember at communications makes a search test; passed,
    the seat sees what the token holds."""
    s = g.state
    _token(g, ship, cell)
    officer = g.crew_at(ship, "comms")
    if officer is None:
        raise RuleError(f"Nobody is at communications on the {ship.name}; without a scan the salvage "
                        "can still be collected, at its risk.")
    if ship.scan_round == s.round:
        raise RuleError(f"The {ship.name} has scanned salvage this round.")
    ship.scan_round = s.round
    faces, passed = skill_test(g, officer.skills["search"])
    if passed and cell not in s.salvage_peeks.setdefault(seat, []):
        s.salvage_peeks[seat].append(cell)
    g.emit("scan_salvage", ship=ship.id, crew=officer.id, cell=cell, dice=faces, passed=bool(passed))


def collect(g: Game, ship: Ship, seat: str, cell: str) -> None:
    """The salvage action: take the token on or beside the ship. Scrap is sold at once for
    its digits (N60), parts repair damage, an explosive not scanned first attacks the ship (N61)."""
    s = g.state
    _token(g, ship, cell)
    s.salvage.remove(cell)
    code = s.salvage_items.pop(cell, None)
    scanned = cell in s.salvage_peeks.get(seat, [])
    for peeks in s.salvage_peeks.values():
        if cell in peeks:
            peeks.remove(cell)
    item = g.pack.salvage.get(code or "")
    g.emit("salvaged", ship=ship.id, cell=cell, item=code, name=item.name if item else "nothing")
    if item is None or item.kind == "empty":
        return
    if item.kind == "scrap":
        s.digits[ship.faction] = s.digits.get(ship.faction, 0) + item.value
        g.emit("salvage_sold", ship=ship.id, digits=item.value)
    elif item.kind == "parts":
        repaired = min(item.repair, ship.damage)
        ship.damage -= repaired
        g.emit("salvage_repair", ship=ship.id, amount=repaired)
    elif scanned:
        g.emit("salvage_disarmed", ship=ship.id, cell=cell)
    else:
        _explode(g, ship, item.attack)


def _explode(g: Game, ship: Ship, dice: int) -> None:
    """N61: the explosive attacks the ship with `dice` red dice; it defends as against a ship."""
    red = g.state.dice.roll(min(orbit.MAX_DICE, dice))
    hits = sorted((r for r in red if r >= 4), reverse=True)
    black = g.state.dice.roll(len(hits))
    blocked, _ = orbit.best_defense(hits, black, orbit.bonuses(g, ship, "defense"))
    g.emit("salvage_explodes", ship=ship.id, attack=red, defense=black, blocked=blocked, damage=len(hits) - blocked)
    orbit.take_damage(g, ship, len(hits) - blocked, None)
