"""An organised-play event as plain data, and its life from sign-up to close.

    event = new_event("e1", "Arena", seed=7)            # one-day, 3 rounds, OP scoring
    open_registration(event, "org", now)
    register(event, "u1", "Ann"); submit_build(event, "u1", build)
    start(event, "org", now)                              # builds locked and hashed

Every function checks everything before it changes anything: a refused call raises
RuleError and leaves the event as it was. Organiser calls take the acting organiser and
the time, and leave an entry in the audit trail; who may act is the caller's business.
"""
from __future__ import annotations

from typing import Literal, Optional

import msgspec

from engine.errors import RuleError
from engine.league.arena import Battle
from engine.league.builds import Build, check_build
from engine.league.profiles import OP, ScoringProfile

RANK_TITLES = (
    "Admiral", "Vice Admiral", "Rear Admiral", "Commodore", "Captain", "Commander",
    "Lieutenant Commander", "Lieutenant", "Lieutenant Junior Grade", "Ensign",
)


def rank_title(rank: int) -> str:
    """The title of a final rank (1 is Admiral); every rank past the tenth is Ensign."""
    return RANK_TITLES[min(rank, len(RANK_TITLES)) - 1]


class _Data(msgspec.Struct, omit_defaults=True):
    pass


class Player(_Data):
    """A registered player. Active in rounds `joined_round` .. `dropped_after`. `build_hash`
    is the hash of the sheet as submitted; it is locked when the event starts."""

    id: str
    name: str
    build: Optional[Build] = None
    build_hash: Optional[str] = None
    joined_round: int = 1
    dropped_after: Optional[int] = None

    def active_in(self, round_number: int) -> bool:
        """May this player be paired in that round?"""
        dropped = self.dropped_after is not None and round_number > self.dropped_after
        return self.joined_round <= round_number and not dropped


class Claim(_Data):
    """A result as one side (or an organiser, or a bot-run game) states it.

    `outcome` is `played`, `not_played` (0-0) or `forfeit` (winner None: both forfeit).
    `surviving` is the squad points left in each player's surviving fleet; `mission_points`
    the mission points each scored; `bonus` extra tiebreak points an event kit awards.
    """

    outcome: Literal["played", "not_played", "forfeit"] = "played"
    winner: Optional[str] = None
    surviving: dict[str, int] = {}
    mission_points: dict[str, int] = {}
    bonus: dict[str, int] = {}


class Game(_Data):
    """One pairing of a round: its claims, its final result and the build sign-offs."""

    table: int
    players: tuple[str, str]
    status: Literal["pending", "disputed", "final"] = "pending"
    claims: dict[str, Claim] = {}
    result: Optional[Claim] = None
    verified: dict[str, str] = {}
    linked_game: Optional[str] = None
    captains: dict[str, list[tuple[str, int]]] = {}  # Arena: each player's captains and skills
    battle: Optional[Battle] = None  # Arena: the Captains' Battle at this table
    knockout: bool = False  # a top-cut game: it needs a winner

    def under_way(self) -> bool:
        """Has anything happened at this table (a report, a result, a bot game, the Arena)?"""
        return bool(self.claims or self.result is not None or self.linked_game or self.captains)

    def opponent(self, player: str) -> str:
        """The other player at this table."""
        a, b = self.players
        return b if player == a else a


class Round(_Data):
    """A round: a preview until published, then played until every game is final."""

    number: int
    games: list[Game] = []
    bye: Optional[str] = None
    notes: list[str] = []
    status: Literal["preview", "published", "complete"] = "preview"
    deadline: Optional[int] = None
    cut: bool = False  # a round of the top cut (single elimination after the Swiss rounds)
    bracket: list[str] = []  # top cut: the players in bracket order, "" for an empty place
    advanced: list[str] = []  # top cut: players through to the next round without a game
    started: Optional[int] = None  # one-day events: when the round clock started (publishing)
    published: Optional[int] = None  # when the round was published (its results' place in the ratings)
    calls: list[str] = []  # the round clock's calls made so far: "15", "5" (minutes left), "time"
    paused_at: Optional[int] = None  # one-day events: the round clock is paused since then
    paused_seconds: int = 0  # time the clock stood paused before (it moves the end later)
    extra_minutes: int = 0  # minutes organisers added to this round's clock

    def game_of(self, player: str) -> Optional[Game]:
        """The game `player` has in this round, if any."""
        return next((g for g in self.games if player in g.players), None)


class RollOff(_Data):
    """A recorded roll-off between players tied on Battle and tiebreak points.

    Each throw maps player to the Battle Stations results of five attack dice; players
    still level throw again. `order` is the result, best first.
    """

    after_round: int
    players: list[str]
    throws: list[dict[str, int]]
    order: list[str]


class AuditEntry(_Data):
    """Who did what to the event, and when (seconds since the epoch)."""

    at: int
    actor: str
    action: str
    detail: str = ""


class Event(_Data):
    """A one-day event (fixed rounds, a time limit) or a season league (round deadlines)."""

    id: str
    name: str
    seed: int
    kind: Literal["one_day", "season"] = "one_day"
    rounds_planned: int = 3
    time_limit_minutes: int = 60
    round_days: int = 7
    max_build: int = 120
    profile: ScoringProfile = OP
    scenario: Literal["", "arena"] = ""
    top_cut: int = 0  # after the Swiss rounds, single elimination of the top N (0: none)
    prizes: int = 3  # prize places marked in the standings
    late_joins: bool = True
    status: Literal["draft", "open", "running", "closed"] = "draft"
    players: dict[str, Player] = {}
    rounds: list[Round] = []
    rolloffs: list[RollOff] = []
    audit: list[AuditEntry] = []

    def live_rounds(self) -> list[Round]:
        """Published and complete rounds (a preview does not count)."""
        return [r for r in self.rounds if r.status != "preview"]

    def swiss_rounds(self) -> list[Round]:
        """The live Swiss rounds (the top cut left out)."""
        return [r for r in self.live_rounds() if not r.cut]


def new_event(event_id: str, name: str, seed: int, **options) -> Event:
    """A draft event; `options` are Event fields (kind, rounds_planned, max_build, profile ...)."""
    try:
        event = msgspec.convert({"id": event_id, "name": name, "seed": seed, **options}, Event, from_attributes=True)
    except msgspec.ValidationError as exc:
        raise RuleError(f"Event settings refused: {exc}") from None
    if event.rounds_planned < 1 or event.round_days < 1 or event.time_limit_minutes < 1 or event.max_build < 0:
        raise RuleError("Rounds, round days and time limit must be at least 1; the maximum build not negative.")
    if event.top_cut == 1 or event.top_cut < 0 or event.prizes < 0:
        raise RuleError("A top cut takes at least 2 players (0 for none); prize places cannot be negative.")
    return event


def to_json(event: Event) -> bytes:
    """The event as JSON, for storage."""
    return msgspec.json.encode(event)


def from_json(data: bytes | str) -> Event:
    """An event back from `to_json`."""
    return msgspec.json.decode(data, type=Event)


def log(event: Event, actor: str, now: int, action: str, detail: str = "") -> None:
    """Append to the audit trail."""
    event.audit.append(AuditEntry(at=now, actor=actor, action=action, detail=detail))


def require_status(event: Event, *allowed: str) -> None:
    """Refuse unless the event is in one of the `allowed` states."""
    if event.status not in allowed:
        raise RuleError(f"The event is {event.status}; that needs it to be {' or '.join(allowed)}.")


def open_registration(event: Event, actor: str, now: int) -> None:
    """Open sign-up."""
    require_status(event, "draft")
    event.status = "open"
    log(event, actor, now, "open")


def register(event: Event, player: str, name: str) -> None:
    """Sign a player up (or rename them) while registration is open."""
    require_status(event, "open")
    if player in event.players:
        event.players[player].name = name
    else:
        event.players[player] = Player(id=player, name=name)


def withdraw(event: Event, player: str) -> None:
    """Take a player off the list before the event starts."""
    require_status(event, "open")
    _player(event, player)
    del event.players[player]


def submit_build(event: Event, player: str, build: Build, now: int = 0) -> None:
    """Record (or replace) a player's build before the event starts; the audit trail keeps
    each sheet's total and hash, and the one it replaced."""
    require_status(event, "open")
    entrant = _player(event, player)
    check_build(build, event.max_build, build_kind(event))
    before = entrant.build
    entrant.build = build
    entrant.build_hash = build.digest()
    change = f" (replaces {before.total} points, hash {before.digest()})" if before is not None else ""
    log(event, player, now, "build", f"{entrant.name}: {build.total} points, hash {build.digest()}{change}")


def start(event: Event, actor: str, now: int) -> None:
    """Close sign-up and lock every build with its hash; needs two players with builds."""
    require_status(event, "open")
    missing = [p.name for p in event.players.values() if p.build is None]
    if missing:
        raise RuleError(f"No build yet from: {', '.join(sorted(missing))}.")
    if len(event.players) < 2:
        raise RuleError("An event needs at least two players.")
    for p in event.players.values():
        if p.build_hash is None:  # submitted before sheets were hashed at submission
            p.build_hash = p.build.digest()
        locked_build(event, p.id)  # the sheet stored is still the one submitted
    event.status = "running"
    log(event, actor, now, "start", f"{len(event.players)} players, builds locked")


def join_late(event: Event, player: str, name: str, build: Build, actor: str, now: int) -> int:
    """Add a player to a running event from the next round on; returns that round.

    Missed rounds score nothing. An unpublished preview is discarded (it left them out).
    """
    require_status(event, "running")
    if not event.late_joins:
        raise RuleError("This event takes no late joins.")
    if len(event.live_rounds()) >= event.rounds_planned:
        raise RuleError(f"All {event.rounds_planned} rounds have been published: there is no round left to join.")
    if player in event.players:
        raise RuleError(f"{event.players[player].name} is already registered.")
    check_build(build, event.max_build, build_kind(event))
    discard_preview(event)
    first = len(event.rounds) + 1
    event.players[player] = Player(id=player, name=name, build=build, build_hash=build.digest(), joined_round=first)
    log(event, actor, now, "late join", f"{name} from round {first}")
    return first


def build_kind(event: Event) -> str:
    """The builds an event takes: fleets where Fleet Points score, away teams where mission points do."""
    return "fleet" if event.profile.tiebreak == "fleet_points" else "away_team"


def locked_build(event: Event, player: str) -> Build:
    """A player's build sheet, hashed again: a sheet changed in storage since it was
    submitted (and locked) no longer has its hash and is refused."""
    entrant = _player(event, player)
    if entrant.build is None:
        raise RuleError(f"{entrant.name} has no build.")
    if entrant.build.digest() != entrant.build_hash:
        raise RuleError(f"{entrant.name}'s stored build sheet no longer matches its hash {entrant.build_hash}: "
                        "it was changed after it was submitted. An organiser must check it.")
    return entrant.build


def drop(event: Event, player: str, actor: str, now: int) -> None:
    """Drop a player: no more pairings; games already paired stand and still count."""
    require_status(event, "running")
    p = _player(event, player)
    if p.dropped_after is not None:
        raise RuleError(f"{p.name} has already dropped.")
    discard_preview(event)
    p.dropped_after = len(event.rounds)
    log(event, actor, now, "drop", p.name)


def readmit(event: Event, player: str, actor: str, now: int) -> int:
    """Take back a drop: the player is paired again from the next round not yet published
    (a waiting preview is remade); rounds missed meanwhile score nothing (ruling L29)."""
    require_status(event, "running")
    p = _player(event, player)
    if p.dropped_after is None:
        raise RuleError(f"{p.name} has not dropped.")
    if len(event.live_rounds()) >= event.rounds_planned:
        raise RuleError(f"All {event.rounds_planned} rounds have been published: there is no round left to play.")
    discard_preview(event)
    first = len(event.rounds) + 1
    missed = first - 1 - p.dropped_after
    p.dropped_after = None
    if missed > 0:
        p.joined_round = first  # pairing asks only about rounds to come
    log(event, actor, now, "re-add", f"{p.name} from round {first}" + (f" ({missed} round(s) missed)" if missed else ""))
    return first


def close(event: Event, actor: str, now: int) -> None:
    """End the event; every published round must be complete."""
    require_status(event, "running")
    if any(r.status != "complete" for r in event.rounds if r.status != "preview"):
        raise RuleError("A round still has games without a final result.")
    discard_preview(event)
    event.status = "closed"
    log(event, actor, now, "close")


def discard_preview(event: Event) -> None:
    """Drop an unpublished preview (it is remade from the state on demand)."""
    if event.rounds and event.rounds[-1].status == "preview":
        event.rounds.pop()


def _player(event: Event, player: str) -> Player:
    try:
        return event.players[player]
    except KeyError:
        raise RuleError("That player is not registered for this event.") from None
