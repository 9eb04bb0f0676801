"""The table as the rules see it while one command is applied: state, pack, geometry, events."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator, Optional

from engine.awaymissions.content import Pack, load_pack
from engine.awaymissions.geometry import adjacent, line_of_sight, distance
from engine.awaymissions.layout import Geometry, geometry
from engine.awaymissions.state import Character, Decision, GameState, Pending, Player
from engine.errors import RuleError

SIGHTS_KEPT = 4096  # line-of-sight answers kept per geometry (then forgotten all at once)


class Table:
    """Helpers over one game state; rules mutate `state` and append to `events`."""

    def __init__(self, state: GameState, still: bool = False):
        """`still`: nothing will change `state` while this table is used (a question such as
        legal_commands), so where characters stand and what they see is worked out once."""
        self.state = state
        self.pack: Pack = load_pack(state.pack)
        self.events: list[dict] = []
        self.decision: Optional[Decision] = None  # the decision the current command answers
        self.challenger: Optional[str] = None  # a challenger named by the command being carried out
        self._geo: Optional[Geometry] = None
        self._teams: Optional[dict[str, str]] = None
        self._still = still
        self._where: Optional[dict[str, list[Character]]] = None
        self._screens: dict[tuple[str, Optional[str]], frozenset[str]] = {}
        self._occupied: Optional[frozenset[str]] = None

    # --- board -------------------------------------------------------------------
    @property
    def geo(self) -> Geometry:
        if self._geo is None:
            self._geo = geometry(self.pack, self.state.layout)
        return self._geo

    def whereabouts(self) -> dict[str, list[Character]]:
        """Space -> the characters in play there, in the order of `state.characters`. Taken
        afresh on each call, except while the table is still, where it is taken once."""
        where = self._where
        if where is None:
            where = {}
            for c in self.state.characters.values():
                if c.status == "in_play" and c.space:
                    where.setdefault(c.space, []).append(c)
            if self._still:
                self._where = where
        return where

    @contextmanager
    def still(self) -> Iterator[None]:
        """Hold the table still for a stretch of code that changes nothing in the state: where
        characters stand, who screens whom and who sees what are worked out once in it."""
        if self._still:
            yield
            return
        self._still = True
        try:
            yield
        finally:
            self._still = False
            self._where = None
            self._occupied = None
            self._screens.clear()

    def occupied(self) -> set[str]:
        if self._still:
            return set(self.whereabouts())
        return {c.space for c in self.state.characters.values() if c.status == "in_play" and c.space}

    def in_space(self, space: str) -> list[Character]:
        if self._still:
            return list(self.whereabouts().get(space, ()))
        return [c for c in self.state.characters.values() if c.space == space and c.status == "in_play"]

    def distance(self, a: str, b: str) -> Optional[int]:
        return distance(self.geo, a, b, self.occupied())

    def adjacent(self, a: str, b: str) -> bool:
        """Spaces at most one apart (the same space, or neighbours across an open edge or door)."""
        return adjacent(self.geo, a, b, self.occupied())

    def screens(self, viewer: Character) -> set[str]:
        """Spaces that block the viewer's line of sight: those holding its friends."""
        return set(self._screened(viewer))

    def _screened(self, viewer: Character) -> frozenset[str]:
        team = self.team_of(viewer.controller)
        key = (team, viewer.space)
        screens = self._screens.get(key)
        if screens is None:
            teams = self._teams  # filled by team_of above
            screens = frozenset(c.space for c in self.state.characters.values()
                                if c.status == "in_play" and c.space and c.space != viewer.space
                                and teams[c.controller] == team)
            if self._still:
                self._screens[key] = screens
        return screens

    def sees(self, viewer: Character, space: str) -> bool:
        """Line of sight from the viewer's space, screened by the viewer's friends.

        A line's fate depends only on its ends, the occupied spaces (doors) and the screens,
        so answers are kept on the geometry under exactly those (`Geometry.sight_memo`)."""
        occupied = self._occupied
        if occupied is None:
            occupied = frozenset(self.occupied())
            if self._still:
                self._occupied = occupied
        screens = self._screened(viewer)
        memo = self.geo.sight_memo
        key = (viewer.space, space, occupied, screens)
        seen = memo.get(key)
        if seen is None:
            if len(memo) >= SIGHTS_KEPT:
                memo.clear()
            seen = memo[key] = line_of_sight(self.geo, viewer.space, space, occupied, screens)
        return seen

    # --- sides -------------------------------------------------------------------
    def team_of(self, seat: str) -> str:
        teams = self._teams
        if teams is None:  # seats never change team, so this is kept for the command
            teams = self._teams = {p.seat: p.team for p in self.state.players}
        return teams[seat]

    @property
    def team_game(self) -> bool:
        """Two teams of players (a 2 vs 2 game), as opposed to every player for themselves."""
        return bool(self.state.options.get("teams"))

    def sides(self) -> list[str]:
        """Who takes turns: the seats, or in a team game the teams (in seat order)."""
        if not self.team_game:
            return self.state.seats
        return list(dict.fromkeys(p.team for p in self.state.players))

    def side_of(self, seat: str) -> str:
        return self.team_of(seat) if self.team_game else seat

    def seats_of(self, side: str) -> list[str]:
        """The seats of a side (one seat, or a team's seats in seat order)."""
        if not self.team_game:
            return [side]
        return [p.seat for p in self.state.players if p.team == side]

    def opponents(self, seat: str) -> list[str]:
        """The seats a rule naming 'an opponent' may pick from: every player of another team."""
        team = self.team_of(seat)
        return [p.seat for p in self.state.players if p.team != team]

    def ask_side(self, kind: str, side: str, **info) -> None:
        """Ask a side: one seat, or a whole team (any teammate may answer, the first answer counts)."""
        seats = self.seats_of(side)
        self.state.pending.append(Decision(kind=kind, player=seats[0], info=info, also=seats[1:]))

    def friendly(self, a: Character, b: Character) -> bool:
        return self.team_of(a.controller) == self.team_of(b.controller)

    def can_hold(self, space: str, seat: str, ignore: str = "") -> bool:
        """Whether a character of `seat` may end in or be placed in `space`."""
        team = self.team_of(seat)
        friends = 0
        for c in (self.whereabouts().get(space, ()) if self._still else self.in_space(space)):
            if c.id == ignore:
                continue
            if self.team_of(c.controller) != team:
                return False
            friends += 1
        return friends < 2

    def relocate(self, character: Character, space: str) -> None:
        """Put a character in a space by any means (a move, a card, an adjustment).
        Leaving its space ends its cover."""
        if character.space != space:
            character.cover = False
        character.space = space

    def has_backup(self, character: Character) -> bool:
        """A friendly character in the same space that is able to help."""
        return any(c.id != character.id and not c.incapacitated and self.friendly(c, character)
                   for c in self.in_space(character.space))

    def characters_of(self, seat: str, in_play: bool = True) -> list[Character]:
        return [c for c in self.state.characters.values()
                if c.controller == seat and (c.in_play or not in_play)]

    def characters_of_side(self, side: str, in_play: bool = True) -> list[Character]:
        """The characters a side may choose from: a seat's, or every teammate's in a team game."""
        return [c for seat in self.seats_of(side) for c in self.characters_of(seat, in_play)]

    # --- lookups -----------------------------------------------------------------
    def character(self, code: str) -> Character:
        found = self.state.characters.get(code.upper())
        if found is None:
            raise RuleError(f"There is no character '{code}' in this game.")
        return found

    def own_character(self, code: str, seat: str, team: bool = False) -> Character:
        """A character of `seat` in the mission area (with `team`, of any teammate in a team game)."""
        character = self.character(code)
        mine = self.side_of(character.controller) == self.side_of(seat) if team else character.controller == seat
        if not mine:
            raise RuleError(f"{character.name} is not yours" + (" nor your team's." if team and self.team_game else "."))
        if not character.in_play:
            raise RuleError(f"{character.name} is not in the mission area.")
        return character

    def space(self, code: str) -> str:
        space = code.upper()
        if space not in self.geo.spaces:
            raise RuleError(f"There is no space {code} on this mission area.")
        return space

    def card_kind(self, code: str) -> str:
        return self.pack.cards[code].kind

    def is_mission(self, code: str) -> bool:
        return self.card_kind(code) == "mission"

    # --- flow --------------------------------------------------------------------
    def ask(self, kind: str, seat: str, *, also: Iterable[str] = (), **info) -> None:
        """Ask `seat` (and teammates in `also`, any of whom may answer instead)."""
        self.state.pending.append(Decision(kind=kind, player=seat, info=info, also=list(also)))

    def queue_first(self, item: Pending) -> None:
        """Put work at the front of the queue; work queued inside an open re-roll window
        is marked so that it is done before the window goes on."""
        roll = self.state.roll
        item.in_roll = roll is not None and roll.stage == "rolled"
        self.state.queue.insert(0, item)

    def emit(self, event: str, /, **data) -> None:
        self.events.append({"type": event, **data})

    def roll_off(self, seats: Iterable[str], why: str) -> list[str]:
        """Seats ordered by a die each, ties rolled again among the tied."""
        seats = list(seats)
        if len(seats) < 2:
            return seats
        faces = dict(zip(seats, self.state.dice.roll(len(seats))))
        self.emit("roll_off", why=why, faces=faces)
        ordered: list[str] = []
        for face in sorted(set(faces.values()), reverse=True):
            tied = [s for s in seats if faces[s] == face]
            ordered.extend(self.roll_off(tied, why) if len(tied) > 1 else tied)
        return ordered

    def draw(self, player: Player, pile: str) -> Optional[str]:
        deck = player.mission_deck if pile == "mission" else player.support_deck
        if not deck:
            return None
        card = deck.pop(0)
        player.hand.append(card)
        return card

    def remove_from_hand(self, player: Player, code: str) -> str:
        code = code.lower()
        if code not in player.hand:
            raise RuleError(f"You have no '{code}' in your hand.")
        player.hand.remove(code)
        return code

    def discard(self, player: Player, code: str) -> None:
        pile = player.mission_discard if self.is_mission(code) else player.support_discard
        pile.append(code)
