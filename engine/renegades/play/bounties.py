"""Bounty cards (N58): each player hunts one crewmember of the other faction, in secret.

The bounty deck of a faction is one card for each of its crewmembers in play. A player's
bounty is paid when a crewmember of its side knocks the hunted crewmember out on the
surface, or a ship of its side critically damages the ship the hunted crewmember is
aboard; the bounty replaces the usual 50 digits for that knock-out.
"""
from __future__ import annotations

from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState

VALUE = {"commander": 150, "navigation": 100, "weapons": 100, "comms": 75, "engineering": 75}
KNOCK_OUT = 50  # the usual digits for knocking out an opposing crewmember


def deal(state: GameState) -> None:
    """Each player in seat order draws the top card of the other faction's bounty deck
    (a new one at the start of every mission)."""
    state.bounties, state.bounties_paid = {}, []
    decks: dict[str, list[str]] = {}
    for faction in ("renegade", "coalition"):
        decks[faction] = sorted(c.id for c in state.crew.values() if c.faction == faction)
        state.dice.shuffle(decks[faction])
    for player in state.players:
        deck = decks["coalition" if player.faction == "renegade" else "renegade"]
        if deck:
            state.bounties[player.seat] = deck.pop(0)


def value(state: GameState, code: str) -> int:
    """What the card pays: by the crewmember's first station keyword."""
    return VALUE[state.crew[code].stations[0]]


def settle(g: Game) -> None:
    """Pay the bounties the command's knock-outs and crippled ships so far have earned
    (each is paid once)."""
    s = g.state
    for event in list(g.events):
        if event["type"] == "knocked_out" and event.get("by") in s.crew:
            hunter = s.crew[event["by"]].faction
            _pay(g, hunter, {event["crew"]}, replaces=True)
        elif event["type"] == "critical" and event.get("by") in s.ships:
            hunter = s.ships[event["by"]].faction
            aboard = {c.id for c in s.crew.values() if c.ship == event["ship"] and c.cell is None and not c.captive}
            _pay(g, hunter, aboard, replaces=False)


def _pay(g: Game, hunter: str, hunted: set[str], replaces: bool) -> None:
    s = g.state
    for seat, code in s.bounties.items():
        if code in hunted and seat not in s.bounties_paid and s.player(seat).faction == hunter:
            s.bounties_paid.append(seat)
            amount = value(s, code) - (KNOCK_OUT if replaces else 0)
            s.digits[hunter] = s.digits.get(hunter, 0) + amount
            g.emit("bounty_claimed", seat=seat, crew=code, value=value(s, code))
            replaces = False  # one knock-out's 50 digits are replaced once


def visible(state: GameState, seat) -> dict[str, dict]:
    """The bounties `seat` may see: its own and its side's, and every one already paid."""
    faction = state.player(seat).faction if seat in state.seats else None
    return {s: {"crew": code, "value": value(state, code), "paid": s in state.bounties_paid}
            for s, code in state.bounties.items()
            if s in state.bounties_paid or (faction is not None and state.player(s).faction == faction)}
