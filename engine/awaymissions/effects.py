"""Interpreting the card vocabulary: conditions are checked, effects are carried out.

Effects run from the engine's work queue (`state.queue`) one at a time, so an effect
that needs a choice (move, place, search, a free action) or dice (a skill test) can
pause the game with a decision or a roll and carry on afterwards. Every queue item
names the card's player, the card, and the subject the effects act on.
"""
from __future__ import annotations

from typing import Iterable, Optional

import msgspec

from engine.awaymissions import combat, vocabulary as v
from engine.awaymissions.context import Table
from engine.awaymissions.state import Character, Pending, Roll
from engine.errors import RuleError

_effect_list = msgspec.json.Decoder(list[v.Effect])


# --- counting and conditions -------------------------------------------------------------
def count(t: Table, seat: str, what: str) -> int:
    """A number about the table from `seat`'s point of view; see vocabulary.CountOf.
    "Friendly" counts are the player's own away team (in a team game not the teammate's,
    R68); "hostile" ones every character of another team."""
    s = t.state
    team = t.team_of(seat)
    chars = list(s.characters.values())
    mine = [c for c in chars if c.in_play and c.controller == seat]
    lost = ("neutralized", "returned")
    if what == "friendly_in_play":
        return len(mine)
    if what == "hostile_in_play":
        return sum(1 for c in chars if c.in_play and t.team_of(c.controller) != team)
    if what == "hostile_neutralized":
        return sum(1 for c in chars if t.team_of(c.owner) != team and (c.status in lost or c.assimilated))
    if what == "friendly_neutralized":
        return sum(1 for c in chars if c.owner == seat and (c.status in lost or c.assimilated))
    if what == "missions_scored":
        return sum(1 for code in s.player(seat).scoring_area if t.is_mission(code))
    if what == "boards_held":
        return len({t.geo.spaces[c.space].board for c in mine})
    if what == "terminals_held":
        return sum(1 for space in {c.space for c in mine}
                   if any(f in t.geo.spaces[space].features for f in ("command", "science", "operations", "medical")))
    if what == "assimilated":
        return sum(1 for c in chars if c.assimilated_by == seat)
    if what == "hand":
        return len(s.player(seat).hand)
    raise ValueError(what)


def _within(value: int, low: Optional[int], high: Optional[int]) -> bool:
    return (low is None or value >= low) and (high is None or value <= high)


def holds(t: Table, condition, seat: str, subject: Optional[Character]) -> bool:
    """Whether one condition holds for the card's player and subject."""
    if isinstance(condition, v.CountOf):
        return _within(count(t, seat, condition.what), condition.min, condition.max)
    if isinstance(condition, v.RoundIs):
        return _within(t.state.round, condition.min, condition.max)
    if subject is None or not subject.in_play:
        return False
    space = t.geo.spaces[subject.space]
    if isinstance(condition, v.AtTerminal):
        terminals = [f for f in space.features if f in ("command", "science", "operations", "medical")]
        return bool(terminals) if condition.terminal == "any" else condition.terminal in terminals
    if isinstance(condition, v.OnBoard):
        board = "corridor" if space.board.startswith("corridor") else space.board
        return board in condition.boards or space.board in condition.boards
    if isinstance(condition, v.OnFeature):
        return condition.feature in space.features
    if isinstance(condition, v.HasSpecialization):
        return subject.specializations.get(condition.specialization, 0) >= condition.level
    if isinstance(condition, v.HasKeyword):
        return subject.has_keyword(condition.keyword) != condition.absent
    if isinstance(condition, v.Adjacent):
        # next to a subject hostile to the card's player, "hostile to it" means one of
        # that player's (or team's) characters, not a third player's (R69)
        team = t.team_of(seat)
        own_only = condition.side == "hostile" and t.team_of(subject.controller) != team
        for other in t.state.characters.values():
            if other.in_play and other.id != subject.id and t.friendly(other, subject) == (condition.side == "friendly"):
                if condition.keyword and not other.has_keyword(condition.keyword):
                    continue
                if own_only and t.team_of(other.controller) != team:
                    continue
                if t.adjacent(subject.space, other.space):
                    return True
        return False
    if isinstance(condition, v.Tokens):
        held = {"stun": subject.stun, "cover": int(subject.cover), "activated": int(subject.activated)}[condition.token]
        return _within(held, condition.min, condition.max)
    raise ValueError(condition)


def all_hold(t: Table, conditions: list, seat: str, subject: Optional[Character]) -> bool:
    return all(holds(t, c, seat, subject) for c in conditions)


# --- ratings and dice that cards change ------------------------------------------------------
def rating(t: Table, character: Character, name: str) -> int:
    """A rating as it counts now: pegs left, plus equipment, traits and this round's changes."""
    value = character.ratings[name] + character.boosts.get(name, 0)
    for code in character.equipment + character.traits:
        value += t.pack.cards[code].bonus.get(name, 0)
    return max(0, value)


def standing_dice(t: Table, character: Character, roll: str, specialization: Optional[str] = None,
                  against: Optional[str] = None) -> int:
    """Extra dice from equipment and traits on the character and its player's Permanent
    events (not a teammate's, R68)."""
    seat = character.controller
    sources = [(code, True) for code in character.equipment + character.traits]
    sources += [(code, False) for code in t.state.player(seat).permanents]
    extra = 0
    for code, _ in sources:
        for m in t.pack.cards[code].modifiers:
            if m.roll != roll or (m.specialization and m.specialization != specialization):
                continue
            if m.against and m.against != against:
                continue
            if all_hold(t, m.requires, seat, character):
                extra += m.count
    return extra


def waiting_boosts(t: Table, character: Character, roll: str, use: bool = True) -> tuple[int, int]:
    """(extra dice, extra DAMAGE) that events played earlier this activation left for this roll.

    With `use` the roll is being made and takes them; without, they are only counted (a preview).
    """
    a = t.state.activation
    if a is None:
        return 0, 0
    dice = damage = 0
    keep = []
    for boost in a.boosts:
        if boost["character"] == character.id and boost["roll"] == roll:
            dice += boost.get("count", 0)
            damage += boost.get("damage", 0)
        else:
            keep.append(boost)
    if use:
        a.boosts = keep
    return dice, damage


# --- running effects -------------------------------------------------------------------------
def queue_effects(t: Table, seat: str, card: Optional[str], subject: Optional[str], effects: list,
                  front: bool = True) -> None:
    """Put effects on the work queue, to run before (front) or after what is already there."""
    if not effects:
        return
    item = Pending(kind="effects", data={"seat": seat, "card": card, "subject": subject,
                                          "effects": msgspec.to_builtins(effects)})
    if front:
        t.queue_first(item)
    else:
        t.state.queue.append(item)


def step(t: Table, item: Pending) -> None:
    """Carry out the first effect of a queued effects item (the item stays while more remain)."""
    data = item.data
    effects = _effect_list.decode(msgspec.json.encode(data["effects"]))
    effect = effects[0]
    data["effects"] = data["effects"][1:]
    if not data["effects"]:
        t.state.queue.remove(item)
    subject = t.state.characters.get(data["subject"]) if data["subject"] else None
    t.challenger = data.get("challenger")
    _DO[type(effect)](t, effect, data["seat"], data["card"], subject)


def _needs(subject: Optional[Character]) -> bool:
    return subject is not None and subject.in_play


def _add_dice(t, e: v.AddDice, seat, card, subject):
    roll = t.state.roll
    if roll is not None:
        side = "actor" if e.roll in ("attack",) else "target" if e.roll == "defense" else \
            ("actor" if subject is None or subject.id == roll.actor else "target")
        if roll.stage == "declared":
            roll.then = dict(roll.then or {})
            key = f"{side}_dice"
            roll.then[key] = roll.then.get(key, 0) + e.count
        else:
            dice = roll.dice if side == "actor" else roll.opposing
            if e.count > 0:
                room = combat.MAX_DICE - len(dice)
                dice.extend(t.state.dice.roll(min(room, e.count)))
            else:
                del dice[max(0, len(dice) + e.count):]
            dice.sort(reverse=True)
        t.emit("dice_changed", side=side, count=e.count, card=card)
    elif _needs(subject) and t.state.activation is not None:
        t.state.activation.boosts.append({"character": subject.id, "roll": e.roll, "count": e.count})
        t.emit("boost", character=subject.id, roll=e.roll, count=e.count, card=card)


def _add_damage(t, e: v.AddDamage, seat, card, subject):
    roll = t.state.roll
    if roll is not None and roll.kind == "attack":
        roll.extra_damage += e.amount
    elif _needs(subject) and t.state.activation is not None:
        t.state.activation.boosts.append({"character": subject.id, "roll": "attack", "damage": e.amount})
    t.emit("boost", character=subject.id if subject else None, damage=e.amount, card=card)


def _rating(t, e: v.ChangeRatings, seat, card, subject):
    if not _needs(subject):
        return
    for name, change in e.changes.items():
        if e.until == "round":
            subject.boosts[name] = subject.boosts.get(name, 0) + change
        else:
            subject.ratings[name] = max(0, min(subject.pegs[name], subject.ratings[name] + change))
    t.emit("ratings_changed", character=subject.id, changes=dict(e.changes), until=e.until, card=card)


def _restore(t, e: v.Restore, seat, card, subject):
    if not _needs(subject):
        return
    restored = {}
    for _ in range(e.pegs):
        gaps = {name: subject.pegs[name] - subject.ratings[name] for name in subject.ratings}
        name = max(gaps, key=lambda n: gaps[n])
        if gaps[name] <= 0:
            break
        subject.ratings[name] += 1
        restored[name] = restored.get(name, 0) + 1
    t.emit("restored", character=subject.id, restored=restored, card=card)


def _remove_pegs(t, e: v.RemovePegs, seat, card, subject):
    from engine.awaymissions.actions import take_damage

    if _needs(subject):
        take_damage(t, subject, e.pegs, assimilator=None)


def _token(t, e: v.SetToken, seat, card, subject):
    if not _needs(subject):
        return
    if e.token == "stun":
        subject.stun = max(0, min(2, subject.stun + e.count))
    elif e.token == "cover":
        subject.cover = e.count > 0
    else:
        subject.activated = e.count > 0
    t.emit("token", character=subject.id, token=e.token, count=e.count, card=card)


def _move(t, e: v.Move, seat, card, subject):
    if _needs(subject) and not subject.incapacitated:
        t.ask("effect_move", subject.controller, character=subject.id, steps=e.steps, card=card)


def place_options(t: Table, subject: Character, feature: Optional[str], board: Optional[str]) -> list[str]:
    with t.still():
        return [sid for sid, space in t.geo.spaces.items()
                if (feature is None or feature in space.features) and (board is None or space.board == board)
                and t.can_hold(sid, subject.controller, ignore=subject.id)]


def _place(t, e: v.Place, seat, card, subject):
    if subject is None or subject.status not in ("in_play", "arriving"):
        return
    spaces = place_options(t, subject, e.feature, e.board)
    if spaces:
        t.ask("effect_place", seat, character=subject.id, spaces=spaces, card=card)


def _draw(t, e: v.Draw, seat, card, subject):
    player = t.state.player(seat)
    drawn = [c for c in (t.draw(player, e.pile) for _ in range(e.count)) if c]
    t.emit("drew", seat=seat, count=len(drawn), private={seat: drawn})


def _discard(t, e: v.Discard, seat, card, subject):
    if e.who == "self":
        discard_at_random(t, seat, e.count, card)
        return
    options = t.opponents(seat)
    if len(options) > 1:  # more than one opponent: the card's player picks which
        t.ask("opponent", seat, options=options, card=card, count=e.count)
    elif options:
        discard_at_random(t, options[0], e.count, card)


def discard_at_random(t: Table, victim: str, count: int, card: Optional[str]) -> None:
    """`victim` discards `count` cards from hand, chosen by the game's dice."""
    player = t.state.player(victim)
    gone = []
    for _ in range(min(count, len(player.hand))):
        code = player.hand.pop(t.state.dice.below(len(player.hand)))
        t.discard(player, code)
        gone.append(code)
    t.emit("discarded", seat=victim, cards=gone, card=card)


def search_options(t: Table, seat: str, pile: str, keyword: str, discard_too: bool) -> list[str]:
    player = t.state.player(seat)
    cards = list(getattr(player, f"{pile}_deck"))
    if discard_too:
        cards += getattr(player, f"{pile}_discard")
    return sorted({c for c in cards if keyword in t.pack.cards[c].keywords})


def _search(t, e: v.Search, seat, card, subject):
    options = search_options(t, seat, e.pile, e.keyword, e.discard_too)
    if options:
        t.ask("search", seat, pile=e.pile, discard_too=e.discard_too, card=card, secret={"options": options})
    else:
        t.state.dice.shuffle(getattr(t.state.player(seat), f"{e.pile}_deck"))
        t.emit("searched", seat=seat, found=False, card=card)


def _bonus_points(t, e: v.BonusPoints, seat, card, subject):
    t.state.player(seat).bonus_points += e.points
    t.emit("bonus_points", seat=seat, points=e.points, source=card)


def _score(t, e: v.Score, seat, card, subject):
    for item in t.state.queue:
        if item.kind == "card_done" and item.data["card"] == card and item.data["seat"] == seat:
            item.data["scored"] = True
            return
    player = t.state.player(seat)
    if card in player.table_missions:
        player.table_missions.remove(card)
        player.scoring_area.append(card)
        t.emit("scored", seat=seat, card=card, points=t.pack.cards[card].points)


def _test(t, e: v.SkillTest, seat, card, subject):
    if not _needs(subject) or subject.incapacitated or t.state.roll is not None:
        _no_test(t, e, seat, card, subject)
        return
    then = {"seat": seat, "card": card, "subject": subject.id, "needed": e.successes,
            "success": msgspec.to_builtins(e.success),
            "failure": msgspec.to_builtins(e.failure), "per_extra": msgspec.to_builtins(e.per_extra)}
    if e.opposed:
        source = t.pack.cards.get(card or "")
        rivals = challengers(t, subject, source.requires if source else ())
        if t.challenger in rivals:
            rivals = [t.challenger]
        if not rivals:
            _no_test(t, e, seat, card, subject)
            return
        if len(rivals) > 1:
            t.ask("challenger", seat, character=subject.id, options=rivals, specialization=e.specialization, then=then)
            return
        challenger = rivals[0]
    else:
        challenger = None
    start_test(t, subject, e.specialization, challenger, then)


def challengers(t: Table, subject: Character, requires: Iterable = ()) -> list[str]:
    """Who may oppose the subject's skill test: hostile characters in play adjacent to it,
    of the kind the test's own "next to" condition names (a Borg, R91)."""
    kinds = [c.keyword for c in requires if isinstance(c, v.Adjacent) and c.side == "hostile" and c.keyword]
    return [c.id for c in t.state.characters.values()
            if c.in_play and not t.friendly(c, subject) and t.adjacent(subject.space, c.space)
            and all(c.has_keyword(kind) for kind in kinds)]


def _no_test(t: Table, e: v.SkillTest, seat: str, card: Optional[str], subject: Optional[Character]) -> None:
    """A test that cannot be taken (no challenger, incapacitated tester) fails."""
    t.emit("test_impossible", character=subject.id if subject else None, card=card)
    queue_effects(t, seat, card, subject.id if subject else None, e.failure)


def start_test(t: Table, subject: Character, specialization: Optional[str], challenger: Optional[str],
               then: Optional[dict]) -> None:
    """Roll a skill test for `subject` (opposed by `challenger` when given)."""
    from engine.awaymissions.actions import open_roll

    other = t.state.characters[challenger] if challenger else None
    dice, opposing = skill_dice(t, subject, specialization, other)
    active = t.state.activation.player if t.state.activation else subject.controller
    roll = Roll(kind="skill", actor=subject.id, actor_player=subject.controller, active_player=active,
                specialization=specialization, dice=sorted(t.state.dice.roll(dice), reverse=True), then=then)
    if other is not None:
        roll.target, roll.target_player = other.id, other.controller
        roll.opposing = sorted(t.state.dice.roll(opposing), reverse=True)
    open_roll(t, roll)


def skill_dice(t: Table, subject: Character, specialization: Optional[str], challenger: Optional[Character],
               use: bool = True) -> tuple[int, int]:
    """(tester's dice, challenger's dice) of a skill test taken now; the challenger rolls
    SKILL plus backup (nothing when incapacitated, 0 when there is none). `use` as in
    waiting_boosts: without it nothing changes (a preview)."""
    extra, _ = waiting_boosts(t, subject, "skill", use)
    dice = combat.dice_count(rating(t, subject, "skill"), t.has_backup(subject),
                             subject.specializations.get(specialization, 0) if specialization else 0,
                             standing_dice(t, subject, "skill", specialization), extra)
    if challenger is None or challenger.incapacitated:
        return dice, 0
    return dice, combat.dice_count(rating(t, challenger, "skill"), t.has_backup(challenger))


def _grant_actions(t, e: v.GrantActions, seat, card, subject):
    if t.state.activation is not None:
        t.state.activation.actions_left += e.count
        t.emit("actions_granted", count=e.count, card=card)


def _free_action(t, e: v.FreeAction, seat, card, subject):
    if _needs(subject) and not subject.stun:
        t.ask("free_action", subject.controller, character=subject.id, action=e.action, card=card)


def _cancel(t, e: v.Cancel, seat, card, subject):
    s = t.state
    if s.roll is not None and s.roll.stage == "declared":
        s.roll = None
        t.emit("cancelled", what="attack", card=card)
    elif s.activation is not None and not s.activation.acted:
        s.activation.actions_left = 0
        t.emit("cancelled", what="activation", card=card)


def _prevent(t, e: v.Prevent, seat, card, subject):
    for item in t.state.queue:
        if item.kind == "damage":
            item.data["amount"] = max(0, item.data["amount"] - e.amount)
            t.emit("prevented", character=item.data["character"], amount=e.amount, card=card)
            return


_DO = {
    v.AddDice: _add_dice, v.AddDamage: _add_damage, v.ChangeRatings: _rating, v.Restore: _restore,
    v.RemovePegs: _remove_pegs, v.SetToken: _token, v.Move: _move, v.Place: _place, v.Draw: _draw,
    v.Discard: _discard, v.Search: _search, v.BonusPoints: _bonus_points, v.Score: _score, v.SkillTest: _test,
    v.GrantActions: _grant_actions, v.FreeAction: _free_action, v.Cancel: _cancel, v.Prevent: _prevent,
}


def resolve_test(t: Table, then: dict, successes: int) -> None:
    """After a card's skill test: queue its success (and extra-success) or failure effects."""
    seat, card = then["seat"], then["card"]
    if combat.enough_successes(successes, then["needed"]):
        effects = then["success"] + then["per_extra"] * (successes - then["needed"])
    else:
        effects = then["failure"]
    if effects:
        t.state.queue.insert(0, Pending(kind="effects", data={"seat": seat, "card": card,
                                                             "subject": then.get("subject"), "effects": effects}))


def require(t: Table, conditions: list, seat: str, subject: Optional[Character], what: str) -> None:
    """Refuse with a reason when a card's or action's conditions do not hold."""
    for condition in conditions:
        if not holds(t, condition, seat, subject):
            raise RuleError(f"{what} cannot be used now: {describe(condition)}.")


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def describe(condition) -> str:
    """A condition in words, for refusals."""
    c = condition
    if isinstance(c, v.AtTerminal):
        kind = "any" if c.terminal == "any" else c.terminal
        return "the character must stand at " + ("a terminal" if kind == "any" else f"{_a(kind)} {kind} terminal")
    if isinstance(c, v.OnBoard):
        return f"the character must be on {' or '.join(c.boards)}"
    if isinstance(c, v.OnFeature):
        return f"the character must stand on a {c.feature} space"
    if isinstance(c, v.HasSpecialization):
        return f"the character needs {c.specialization}" + (f" x{c.level}" if c.level > 1 else "")
    if isinstance(c, v.HasKeyword):
        return f"the character must {'not ' if c.absent else ''}be {c.keyword}"
    if isinstance(c, v.Adjacent):
        return f"a {c.side} {c.keyword or 'character'} must be adjacent"
    if isinstance(c, (v.CountOf, v.RoundIs, v.Tokens)):
        what = getattr(c, "what", None) or getattr(c, "token", None) or "round"
        bounds = " and ".join(f"{word} {value}" for word, value in (("at least", c.min), ("at most", c.max))
                              if value is not None)
        return f"{what.replace('_', ' ')} must be {bounds}"
    return type(c).__name__
