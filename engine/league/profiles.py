"""Scoring profiles: how many Battle Points a result is worth and what breaks ties.

A profile is plain data, so a league can bring its own (`profile_from_data`).
"""
from __future__ import annotations

from typing import Literal

import msgspec

from engine.errors import RuleError


class ScoringProfile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Battle Points per outcome and the tiebreak points that order players within them.

    `tiebreak` says where tiebreak points come from: `fleet_points` (the event's maximum
    build minus the squad points left in the opponent's surviving fleet) or
    `mission_points` (as reported by the players). A bye, and a win by forfeit, score the
    average tiebreak points of that round's played games, rounded up.
    """

    name: str
    win: int = 2
    loss: int = 1
    bye: int = 2
    forfeit_loss: int = 0
    tiebreak: Literal["fleet_points", "mission_points"] = "fleet_points"
    tiebreak_label: str = "Fleet Points"
    tiebreak_short: str = "FP"


OP = ScoringProfile(name="op")
AWAY_MISSIONS = ScoringProfile(
    name="awaymissions",
    tiebreak="mission_points",
    tiebreak_label="Mission Points",
    tiebreak_short="MP",
)
PROFILES: dict[str, ScoringProfile] = {OP.name: OP, AWAY_MISSIONS.name: AWAY_MISSIONS}


def profile_from_data(data: dict) -> ScoringProfile:
    """A league-defined profile from plain data; RuleError says what is wrong with it."""
    try:
        return msgspec.convert(data, ScoringProfile)
    except msgspec.ValidationError as exc:
        raise RuleError(f"Scoring profile refused: {exc}") from None
