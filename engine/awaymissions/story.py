"""The numbers of a finished Away Mission, counted from its public events (rulings R114, R115).

    tally(final_view, events, names)   # engine.story.Tally

Points: each mission scored and each bonus by its card, cards scored at the end, and what
the core mission added at the end (the rest of the final score); in a team game, each
team's score and missions too. Damage: what each attack
dealt as it was resolved. Luck: each roll as first thrown (the dice the exact odds of
odds.py describe, before any re-roll: R40), its hits against the hits expected from those
odds, for the seat controlling the character who rolled.
"""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Iterable, Optional

from engine.awaymissions import combat, odds, rules
from engine.awaymissions.content import load_pack
from engine.story import Tally


def scene(state) -> Optional[tuple[str, str]]:
    """The recap frame a state belongs to: the board of the activation under way (None
    between activations)."""
    _, activation = rules.stage(state)
    return None if activation is None else ("board", activation)


def expected_hits(dice: int, opposing: int) -> Fraction:
    """The mean number of hits of `dice` against `opposing` dice, exactly."""
    return sum((hits * chance for hits, chance in odds.hit_chances(dice, opposing).items()), Fraction(0))


def first_throw_hits(event: dict) -> int:
    """The hits of a `rolled` event's dice as thrown, lined up as the engine lines them up."""
    if event["kind"] == "skill" and not event.get("target"):
        return combat.unopposed(event["dice"]).count("hit")
    return combat.compare(event["dice"], event["opposing"]).count("hit")


def tally(view: dict, events: Iterable[dict], names: dict[str, str]) -> Tally:
    """The summary's numbers of a finished game from its final public view and its events;
    `names`: seat -> the player's name."""
    pack = load_pack(view["pack"])
    result = view.get("result") or {}
    seats = [p["seat"] for p in view["players"]]
    found = Tally({p["seat"]: names.get(p["seat"], p["seat"]) for p in view["players"]},
                  points={seat: [] for seat in seats}, totals=dict(result.get("scores", {})),
                  missions=dict(result.get("missions", {})),
                  pieces=piece_names(view, names))
    for team, score in (result.get("teams") or {}).items():
        found.teams[team] = ([p["seat"] for p in view["players"] if p.get("team") == team], score,
                             result.get("team_missions", {}).get(team, 0))
    controller = {code: c["owner"] for code, c in view["characters"].items()}
    for event in events:
        kind = event["type"]
        if kind == "scored":
            found.points[event["seat"]].append((_card(pack, event["card"]), event["points"]))
        elif kind == "bonus_points":
            found.points[event["seat"]].append((f"bonus: {_card(pack, event.get('source'))}", event["points"]))
        elif kind == "scored_at_end":
            found.points[event["seat"]] += [(f"{_card(pack, code)} (at the end)", pack.cards[code].points)
                                            for code in event["cards"] if code in pack.cards]
        elif kind == "assimilated":
            controller[event["character"]] = controller.get(event["by"], controller.get(event["character"]))
        elif kind == "rolled":
            found.rolled(controller[event["actor"]], first_throw_hits(event),
                         expected_hits(len(event["dice"]), len(event["opposing"])))
        elif kind == "resolved" and event["kind"] == "attack" and event.get("damage"):
            found.hurt(event["actor"], event["target"], event["damage"])
    for seat in seats:
        earned = sum(points for _, points in found.points[seat])
        if seat not in found.totals:  # a game conceded before its end: what was scored so far
            found.totals[seat] = earned
        elif found.totals[seat] != earned:
            found.points[seat].append(("core mission, at the end", found.totals[seat] - earned))
    return found


def piece_names(view: dict, names: dict[str, str]) -> dict[str, str]:
    """Character -> its name, with its owner's name where two players field the same one."""
    characters = view["characters"]
    count = Counter(c["name"] for c in characters.values())
    return {code: c["name"] + (f" ({names.get(c['owner'], c['owner'])})" if count[c["name"]] > 1 else "")
            for code, c in characters.items()}


def _card(pack, code) -> str:
    card = pack.cards.get(code) if code else None
    return card.name if card else str(code or "a card")
