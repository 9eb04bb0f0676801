"""Auditable dice: a seal of a game's dice seed shown at the start, and a check at the end
that every logged roll came from the revealed seed.

The seal is SHA-256 of "<salt>:<seed>", where the salt is 128 random bits kept with the
game. Both stay secret while the game is played (no view, event or message carries them),
so nobody can work the seed back from the seal; once the game is over both are revealed,
and anyone can recompute the seal and replay the game.

`verify` replays a game from its seed and command log one command at a time and compares
the events each command produces (dice faces included) with the events stored in the log,
then the final state with the stored one. Any difference is a problem, named by move.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import msgspec

from engine.errors import RuleError
from engine.service import rules_version
from engine.service.rulesets import Ruleset

FACES = ("dice", "faces", "after")  # where a dice event keeps its faces


def same_state(to_json: Callable[[Any], bytes], from_json: Callable[[str], Any], state: Any, stored: str) -> bool:
    """Whether `state` is the `stored` one: the same text, or the same values in a text an
    earlier encoder wrote (it could leave out a field at its default or keep it, depending
    on where the value came from), compared as the running encoder writes both."""
    if to_json(state) == stored.encode():
        return True
    try:
        return to_json(from_json(stored)) == to_json(state)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return False


def new_salt() -> str:
    """A fresh secret salt: 128 random bits as hex."""
    return secrets.token_hex(16)


def seal(seed: int, salt: str) -> str:
    """The published commitment to `seed`: SHA-256 of "<salt>:<seed>", as hex."""
    return hashlib.sha256(f"{salt}:{seed}".encode()).hexdigest()


@dataclass
class Verdict:
    """What a verification found: `ok` when the seal, every event and the final state match."""

    commands: int = 0
    rolls: int = 0
    problems: list[str] = field(default_factory=list)
    seal_broken: bool = False
    rules_changed: Optional[str] = None  # why a replay that differs may not mean wrong dice

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self, game_id: int) -> str:
        """The verdict in words, for the table or the terminal."""
        if self.ok:
            return (f"Verified: game #{game_id}'s seed matches its seal, and replaying its {self.commands} "
                    f"moves from that seed gives every one of its {self.rolls} dice rolls and the final "
                    "table exactly.")
        problems = "\n".join(f"- {p}" for p in self.problems)
        if self.rules_changed:
            return f"**Cannot verify** game #{game_id} today: {self.rules_changed}. Replaying it now:\n{problems}"
        return f"**VERIFICATION FAILED** for game #{game_id}:\n{problems}"


def _plain(events: list[dict]) -> Any:
    """Events as stored (through JSON), so tuples and lists compare alike."""
    return json.loads(json.dumps(events))


def _dice_words(events: list[dict], kinds: frozenset[str]) -> str:
    rolls = [e for e in events if e.get("type") in kinds]
    return "; ".join(e["type"] + " " + str(next((e[k] for k in FACES if k in e), "")) for e in rolls) or "no dice"


def verify(ruleset: Ruleset, config: dict, seed: int, log: list[tuple[int, Optional[str], str, str]],
           stored_state: Optional[str], *, salt: Optional[str] = None, digest: Optional[str] = None) -> Verdict:
    """Check a game against its seed: the seal (when `salt` and `digest` are given), each
    logged command's events ((seq, seat, command, events JSON) in order) and the final state.

    A take-back (R42) returns to the state before the action it follows; it rolls nothing,
    so its own entry must carry no dice. Stops at the first move whose events differ:
    everything after it follows from it. When the seal holds but the replay differs and the
    game started under other rules or cards than the running ones (or before the version
    was recorded), the verdict says so (`rules_changed`).
    """
    verdict = _replayed(ruleset, config, seed, log, stored_state, salt, digest)
    if not verdict.ok and not verdict.seal_broken:
        played, now = config.get(rules_version.KEY), rules_version.of(ruleset, config)
        if played is None:
            verdict.rules_changed = "it was played before this bot recorded the version of its rules and cards"
        elif played != now:
            verdict.rules_changed = (f"it was played under rules version {played} and this bot now runs {now}, "
                                     "so a change of the rules or cards since then can make the replay differ")
    return verdict


def _replayed(ruleset: Ruleset, config: dict, seed: int, log: list[tuple[int, Optional[str], str, str]],
              stored_state: Optional[str], salt: Optional[str], digest: Optional[str]) -> Verdict:
    from engine.service.replay import TAKE_BACK, stored_json, taken_back  # replay imports this module
    verdict = Verdict()
    if digest is not None and (salt is None or seal(seed, salt) != digest):
        verdict.seal_broken = True
        verdict.problems.append(f"the seed {seed} does not match the seal {digest} shown at the start")
    try:
        state = ruleset.new_game(config, seed)
    except (RuleError, KeyError, ValueError) as error:
        verdict.problems.append(f"the game cannot be dealt from this seed: {error}")
        return verdict
    before = None
    for expected_seq, (seq, seat, command, stored) in enumerate(log, start=1):
        if seq != expected_seq:
            verdict.problems.append(f"the log has a gap or is out of order at move {expected_seq}")
            return verdict
        if command == TAKE_BACK:
            rolled = [e for e in json.loads(stored) if e.get("type") in ruleset.dice_events]
            if before is None or rolled:
                verdict.problems.append(f"move {seq} (take back): " + (
                    "the log says dice were rolled by a take-back" if rolled else "it follows no action"))
                return verdict
            state, before = taken_back(before, state.version + 1), None
            verdict.commands += 1
            continue
        before = state
        try:
            state, events = ruleset.apply(state, seat, command)
        except RuleError as error:
            verdict.problems.append(f"move {seq} ({command}) is refused when replayed: {error}")
            return verdict
        verdict.commands += 1
        logged = json.loads(stored)
        replayed = _plain(events)
        verdict.rolls += sum(e.get("type") in ruleset.dice_events for e in replayed)
        if replayed != logged:
            said, given = _dice_words(logged, ruleset.dice_events), _dice_words(replayed, ruleset.dice_events)
            verdict.problems.append(f"move {seq} ({command}): the log says {said}, the seed gives {given}"
                                    if said != given else
                                    f"move {seq} ({command}): the logged events differ from the replayed ones")
            return verdict
    if stored_state is not None and not same_state(ruleset.to_json, ruleset.from_json, state,
                                                   stored_json(ruleset, stored_state, (e for *_, e in log)).decode()):
        verdict.problems.append(f"the replayed state (move {state.version}) differs from the stored one")
    return verdict
