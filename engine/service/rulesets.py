"""The rulesets the service can run: each the engine's ruleset (engine/rulesets.py) with what a
table adds to it (seats, default options, the events that roll dice, events in words)."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, fields
from typing import Callable, Optional

from engine import rulesets as engine_rulesets
from engine.renegades import text as renegades_text
from engine.service import text
from images import crew_dice


@dataclass(frozen=True, kw_only=True)
class Ruleset(engine_rulesets.Ruleset):
    """One game's rules as the service sees them: the engine's pure verbs, and its table."""

    seats: tuple[str, ...]
    default_options: dict = field(default_factory=dict)
    dice_events: frozenset[str] = frozenset()
    dice_board_events: frozenset[str] = frozenset()  # besides dice_events, events that may change the dice board
    table_seats: Optional[Callable[[dict], tuple[str, ...]]] = None  # seats a game's config asks for
    public_lines: Callable[[list[dict], dict[str, str]], list[str]] = text.public_lines  # events in words

    @classmethod
    def serving(cls, rules: engine_rulesets.Ruleset, **table) -> Ruleset:
        """The engine's ruleset `rules` at a table: `table` gives the fields the service adds."""
        return cls(**{f.name: getattr(rules, f.name) for f in fields(rules)}, **table)

    def seats_for(self, config: dict) -> tuple[str, ...]:
        """The seats of a game made with `config` (the ruleset's default seats otherwise)."""
        return self.table_seats(config) if self.table_seats else self.seats


def _away_mission_seats(config: dict) -> tuple[str, ...]:
    """Two seats, or `"seats": 3 or 4` in the config; `"mode": "teams"` is four (2 vs 2)."""
    count = 4 if config.get("mode") == "teams" else int(config.get("seats") or 2)
    if not 2 <= count <= 4:
        raise ValueError("Away Missions seats two, three or four players.")
    return tuple(f"p{i + 1}" for i in range(count))


def _renegades_seats(config: dict) -> tuple[str, ...]:
    """Coalition against Renegades seats two; the co-operative game `"seats": 1 to 4` (two by
    default), every player a Renegade against the NPC Coalition."""
    count = 2 if config.get("mode", "versus") == "versus" else int(config.get("seats") or 2)
    if not 1 <= count <= 4:
        raise ValueError("Renegades seats one to four players.")
    return tuple(f"p{i + 1}" for i in range(count))


AWAY_MISSIONS = Ruleset.serving(
    engine_rulesets.AWAY_MISSIONS,
    seats=("p1", "p2"),
    default_options={"pack": "content/starter", "layout": "standard"},
    dice_events=frozenset({"rolled", "rerolled", "roll_off"}),
    dice_board_events=frozenset({"reroll_passed", "resolved"}),  # a re-roll window passed or closed
    table_seats=_away_mission_seats,
)

RENEGADES = Ruleset.serving(
    engine_rulesets.RENEGADES,
    seats=("p1", "p2"),
    default_options={"pack": "content/renegades", "mode": "versus"},
    dice_events=frozenset({"ship_attack", "roll_off", "fighters_arrive", *crew_dice.ATTACKS, *crew_dice.TESTS}),
    public_lines=functools.partial(renegades_text.public_lines, fallback=text.public_line),
    table_seats=_renegades_seats,
)

RULESETS: dict[str, Ruleset] = {AWAY_MISSIONS.name: AWAY_MISSIONS, RENEGADES.name: RENEGADES}
