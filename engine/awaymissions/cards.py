"""Playing cards: timing, targets, where a card goes afterwards, interrupt windows,
special actions from cards, manual adjudication, start-of-round effects, deck building
and end-of-game scoring."""
from __future__ import annotations

from typing import Optional

from engine.awaymissions import effects
from engine.awaymissions.content import Card, Pack
from engine.awaymissions.context import Table
from engine.awaymissions.state import Character, Pending
from engine.errors import RuleError

MISSION_DECK = 20
SUPPORT_DECK_MIN = 20


# --- playing a card in your own activation ------------------------------------------------
def card_in_hand(t: Table, seat: str, code: str) -> Card:
    code = code.lower()
    card = t.pack.cards.get(code)
    if card is None or code not in t.state.player(seat).hand:
        raise RuleError(f"You have no '{code}' in your hand.")
    return card


def _subject_for(t: Table, seat: str, card: Card, target: Optional[str]) -> Optional[Character]:
    """The character a card acts on: its chosen target, or the activated character."""
    if card.target == "none":
        if target:
            raise RuleError(f"{card.name} takes no target.")
        a = t.state.activation
        return t.state.characters.get(a.character) if a else None
    if not target:
        raise RuleError(f"Name the character {card.name} is played on.")
    subject = t.character(target)
    if not subject.in_play:
        raise RuleError(f"{subject.name} is not in the mission area.")
    problem = target_problem(t, seat, card, subject)
    if problem:
        raise RuleError(problem)
    return subject


def target_problem(t: Table, seat: str, card: Card, subject: Character) -> Optional[str]:
    """Why `seat` may not play `card` on `subject` (None when it may): a friendly card goes
    on one of the player's own characters (not a teammate's, R68), a hostile one on a
    character of another team."""
    if card.target == "friendly" and subject.controller != seat:
        return f"{card.name} is played on one of your characters."
    if card.target == "hostile" and t.team_of(subject.controller) == t.team_of(seat):
        return f"{card.name} is played on a hostile character."
    return None


def check_play(t: Table, seat: str, code: str, target: Optional[str]) -> tuple[Card, Optional[Character]]:
    """(card, subject) of a card `seat` may play now in its own activation, or RuleError.
    Changes nothing."""
    card = card_in_hand(t, seat, code)
    a = t.state.activation
    if card.kind == "interrupt":
        raise RuleError("Interrupts are played only in an opponent's activation, when their moment comes.")
    if card.kind == "core":
        raise RuleError("Core missions are chosen at setup and scored at the end of the game.")
    if card.kind == "mission" and card.play == "end":
        raise RuleError(f"{card.name} is scored from your hand at the end of the game.")
    if card.kind == "equipment":
        if a.acted:
            raise RuleError("Equipment may only be played at the start of an activation, before any action.")
        if card.target == "none":
            raise RuleError(f"{card.name} has no bearer defined in its pack.")
    if card.kind == "mission" and card.play in ("action", "table"):
        if target:
            subject = t.own_character(target, seat)
        else:
            subject = t.state.characters[a.character]
        from engine.awaymissions.actions import acting
        subject = acting(t, seat, subject.id)
        if subject.stun:
            raise RuleError(f"{subject.name} is stunned: the only action it can take is recover.")
    else:
        subject = _subject_for(t, seat, card, target)
    effects.require(t, card.requires, seat, subject, card.name)
    return card, subject


def play_in_activation(t: Table, seat: str, code: str, target: Optional[str]) -> None:
    """`play CARD [CHARACTER]` during your own activation: events, equipment, missions."""
    from engine.awaymissions.actions import start_action

    card, subject = check_play(t, seat, code, target)
    player = t.state.player(seat)
    player.hand.remove(card.code)
    if card.kind == "mission" and card.play in ("action", "table"):
        start_action(t)
    t.emit("card_played", seat=seat, card=card.code, name=card.name, kind=card.kind,
           target=subject.id if subject else None)
    subject_id = subject.id if subject else None
    t.queue_first(Pending(kind="card_done", data={"seat": seat, "card": card.code, "subject": subject_id}))
    if card.manual:
        t.emit("manual_card", seat=seat, card=card.code, text=card.text)
        t.ask("adjudicate", seat, card=card.code)
        return
    if card.kind == "mission" and card.play == "table":
        return
    effects.queue_effects(t, seat, card.code, subject_id, card.effects or _default_effects(card))


def _default_effects(card: Card) -> list:
    """A mission with no effects of its own scores as soon as its conditions hold."""
    from engine.awaymissions.vocabulary import Score

    return [Score()] if card.kind == "mission" else []


def finish_card(t: Table, item: Pending) -> None:
    """Put a played card where it belongs once its effects are done."""
    t.state.queue.remove(item)
    seat, code = item.data["seat"], item.data["card"]
    card = t.pack.cards[code]
    player = t.state.player(seat)
    subject = t.state.characters.get(item.data.get("subject") or "")
    if item.data.get("scored"):
        player.scoring_area.append(code)
        t.emit("scored", seat=seat, card=code, points=card.points)
    elif card.kind == "mission" and card.play == "table":
        player.table_missions.append(code)
        t.emit("mission_on_table", seat=seat, card=code)
    elif card.kind == "mission":
        player.mission_discard.append(code)
        t.emit("mission_failed", seat=seat, card=code)
    elif card.kind == "equipment" and subject is not None and subject.in_play:
        subject.equipment.append(code)
        t.emit("equipped", character=subject.id, card=code)
    elif "Trait" in card.keywords and subject is not None and subject.in_play:
        subject.traits.append(code)
        t.emit("trait", character=subject.id, card=code)
    elif "Permanent" in card.keywords:
        player.permanents.append(code)
        t.emit("permanent", seat=seat, card=code)
    else:
        player.support_discard.append(code)


# --- special actions given by cards -------------------------------------------------------
def special_sources(t: Table, character: Character) -> list[tuple[str, Optional[str], object]]:
    """(command code, card or None, SpecialAction or mission Card) the character may use."""
    sources = []
    printed = t.pack.characters.get(character.card)
    if printed and not character.assimilated:
        sources += [(a.code, None, a) for a in printed.special_actions]
    for code in character.equipment + character.traits + t.state.player(character.controller).permanents:
        for action in t.pack.cards[code].special_actions:
            sources.append((f"{code}/{action.code}", code, action))
    for code in t.state.player(character.controller).table_missions:
        sources.append((code, code, t.pack.cards[code]))
    return sources


# --- interrupt windows --------------------------------------------------------------------
def open_window(t: Table, trigger: str, subject: Character) -> None:
    """Offer the interrupt moment to each player who might answer it.

    A player is asked when an interrupt of their deck list could be played at this
    moment on this subject (its trigger matches and its conditions hold on the board),
    they have not muted the moment, and their hand is not empty. Deck lists, the board
    and hand sizes are public, so being asked reveals nothing about the cards held.
    """
    s = t.state
    active = s.activation.player if s.activation else None
    seats = []
    with t.still():
        for p in s.players:
            if p.seat == active or p.passes(trigger) or not p.hand:
                continue
            own = t.team_of(subject.controller) == t.team_of(p.seat)
            if (trigger in ("attacked", "rolled", "damaged")) != own:
                continue
            if not any(t.pack.cards[code].trigger == trigger
                       and effects.all_hold(t, t.pack.cards[code].requires, p.seat, subject) for code in p.interrupts):
                continue
            seats.append(p.seat)
    if not seats:
        return
    data = {"trigger": trigger, "subject": subject.id, "seats": seats}
    if t.team_game:  # one question per team: any teammate who might answer may, the first answer counts
        teams: dict[str, list[str]] = {}
        for seat in seats:
            teams.setdefault(t.team_of(seat), []).append(seat)
        data["seats"] = [members[0] for members in teams.values()]
        data["also"] = {members[0]: members[1:] for members in teams.values() if len(members) > 1}
    s.queue.insert(0, Pending(kind="window", data=data))


def next_window_seat(t: Table, item: Pending) -> None:
    seats = item.data["seats"]
    seat = seats.pop(0)
    if not seats:
        t.state.queue.remove(item)
    also = item.data.get("also", {}).get(seat, [])
    t.ask("interrupt", seat, also=also, trigger=item.data["trigger"], subject=item.data["subject"])


def play_interrupt(t: Table, seat: str, code: str, trigger: str, subject_id: str) -> None:
    card = card_in_hand(t, seat, code)
    if card.kind != "interrupt":
        raise RuleError("Only interrupt cards may be played in an opponent's activation.")
    if card.trigger != trigger and not card.manual:
        raise RuleError(f"{card.name} is played at another moment ({card.trigger}), not now ({trigger}).")
    subject = t.state.characters.get(subject_id)
    effects.require(t, card.requires, seat, subject, card.name)
    t.state.player(seat).hand.remove(card.code)
    t.emit("card_played", seat=seat, card=card.code, name=card.name, kind=card.kind, target=subject_id)
    t.queue_first(Pending(kind="card_done", data={"seat": seat, "card": card.code, "subject": subject_id}))
    if card.manual:
        t.emit("manual_card", seat=seat, card=card.code, text=card.text)
        t.ask("adjudicate", seat, card=card.code)
        return
    effects.queue_effects(t, seat, card.code, subject_id, card.effects)


def interrupt_choices(t: Table, seat: str, trigger: str, subject_id: str) -> list[str]:
    subject = t.state.characters.get(subject_id)
    options = []
    for code in dict.fromkeys(t.state.player(seat).hand):
        card = t.pack.cards[code]
        if card.kind == "interrupt" and (card.trigger == trigger or card.manual) \
                and effects.all_hold(t, card.requires, seat, subject):
            options.append(f"play {code}")
    return options


# --- manual cards ---------------------------------------------------------------------------
ADJUSTABLE = ("attack", "defense", "skill", "move", "stun", "cover", "space", "points")


def adjust(t: Table, seat: str, words: list[str]) -> None:
    """`adjust CHARACTER field=value` or `adjust points=N` while adjudicating a manual card."""
    card = t.decision.info["card"]
    if len(words) == 1 and words[0].startswith("points="):
        amount = _number(words[0][7:])
        t.state.player(seat).bonus_points = max(0, t.state.player(seat).bonus_points + amount)
        t.emit("adjusted", seat=seat, card=card, what="points", value=amount)
        return
    if len(words) != 2 or "=" not in words[1]:
        raise RuleError("Write an adjustment like 'adjust REYES attack=-1', 'adjust REYES space=C4' or 'adjust points=1'.")
    character = t.character(words[0])
    name, _, value = words[1].partition("=")
    name = name.lower()
    if name not in ADJUSTABLE or name == "points":
        raise RuleError(f"Adjust one of: {', '.join(ADJUSTABLE)}.")
    if name in character.ratings:
        change = _number(value)
        character.ratings[name] = max(0, min(character.pegs[name], character.ratings[name] + change))
        shown = change
    elif name == "stun":
        character.stun = max(0, min(2, character.stun + _number(value)))
        shown = character.stun
    elif name == "cover":
        character.cover = value.lower() in ("on", "yes", "1", "true")
        shown = character.cover
    else:
        space = t.space(value)
        if not character.in_play or not t.can_hold(space, character.controller, ignore=character.id):
            raise RuleError(f"{character.name} cannot stand in {space}.")
        t.relocate(character, space)
        shown = space
    t.emit("adjusted", seat=seat, card=card, character=character.id, what=name, value=shown)


def _number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RuleError(f"'{text}' is not a number (use +1 or -1).") from None


# --- start-of-round effects of Permanent events -------------------------------------------
def start_of_round(t: Table) -> None:
    """Queue the round-start effects of Permanent events (R33): the sides that have some
    (players, or teams in a team game) roll off, then take turns one effect at a time."""
    sides = [side for side in t.sides() if any(_round_cards(t, seat) for seat in t.seats_of(side))]
    if not sides:
        return
    order = t.roll_off(sides, "start-of-round effects")
    t.state.queue.append(Pending(kind="simultaneous", data={"order": order, "turn": 0,
                                                           "done": [], "passed": []}))


def _round_cards(t: Table, seat: str) -> list[str]:
    return [c for c in t.state.player(seat).permanents if t.pack.cards[c].each_round]


def _members(t: Table, side: str) -> list[str]:
    """A side's seats; a team game stored while the order listed seats keeps them (R92)."""
    return [side] if side in t.state.seats else t.seats_of(side)


def simultaneous_options(t: Table, seat: str) -> list[str]:
    """The seat's own round-start effects not yet resolved this round."""
    item = next(i for i in t.state.queue if i.kind == "simultaneous")
    return [c for c in _round_cards(t, seat) if f"{seat}:{c}" not in item.data["done"]]


def next_simultaneous(t: Table, item: Pending) -> None:
    data = item.data
    for _ in range(len(data["order"])):
        side = data["order"][data["turn"] % len(data["order"])]
        seats = [seat for seat in _members(t, side) if simultaneous_options(t, seat)]
        if side not in data["passed"] and seats:
            t.ask("simultaneous", seats[0], also=seats[1:],
                  options=[c for seat in seats for c in simultaneous_options(t, seat)])
            return
        data["turn"] += 1
    t.state.queue.remove(item)


def resolve_simultaneous(t: Table, seat: str, code: Optional[str]) -> None:
    """`seat` resolves one of its own effects (`code`) or passes for its side (None)."""
    item = next(i for i in t.state.queue if i.kind == "simultaneous")
    data = item.data
    side = data["order"][data["turn"] % len(data["order"])]
    if code is None:
        data["turn"] += 1
        data["passed"].append(side)
        t.emit("passed_effects", seat=seat)
        return
    code = code.lower()
    options = simultaneous_options(t, seat)
    if code not in options:
        raise RuleError(f"Choose one of your own: {', '.join(options)}, or pass.")
    data["turn"] += 1
    data["done"].append(f"{seat}:{code}")
    t.emit("round_effect", seat=seat, card=code)
    effects.queue_effects(t, seat, code, None, t.pack.cards[code].each_round)


# --- deck building and scoring --------------------------------------------------------------
def deck_problems(pack: Pack, affiliation: str, support: list[str], mission: list[str],
                  roster: list[str]) -> list[str]:
    """Every way a deck breaks the deck-building rules (empty when it is legal)."""
    problems = []
    if len(mission) != MISSION_DECK:
        problems.append(f"The mission deck has {len(mission)} cards; it must have exactly {MISSION_DECK}.")
    if len(support) < SUPPORT_DECK_MIN:
        problems.append(f"The support deck has {len(support)} cards; it needs at least {SUPPORT_DECK_MIN}.")
    names = {pack.characters[c].name.lower() for c in roster if c in pack.characters}
    for pile, codes, kinds in (("support", support, ("event", "equipment", "interrupt")), ("mission", mission, ("mission",))):
        for code in sorted(set(codes)):
            card = pack.cards.get(code)
            if card is None:
                problems.append(f"{pile} deck: unknown card '{code}'.")
                continue
            if card.kind not in kinds:
                problems.append(f"{pile} deck: {card.name} is a {card.kind} card.")
            if card.affiliation != affiliation:
                problems.append(f"{pile} deck: {card.name} is not a {affiliation} card.")
            copies = codes.count(code)
            if copies > card.supply:
                problems.append(f"{pile} deck: {copies} copies of {card.name}; its supply allows {card.supply}.")
            if card.kind == "event" and card.name.lower() in names:
                problems.append(f"{pile} deck: the event {card.name} has the name of a character in the away team.")
    return problems


def end_of_game_points(t: Table, seat: str) -> tuple[int, list[str]]:
    """Points from the core mission and end-of-game missions held in hand, and those scored."""
    player = t.state.player(seat)
    points, scored = 0, []
    if player.core_mission:
        core = t.pack.cards[player.core_mission]
        if effects.all_hold(t, core.requires, seat, None):
            points += core.points + (core.points_per.each * effects.count(t, seat, core.points_per.what)
                                     if core.points_per else 0)
    for code in list(player.hand):
        card = t.pack.cards[code]
        if card.kind == "mission" and card.play == "end" and effects.all_hold(t, card.requires, seat, None):
            player.hand.remove(code)
            player.scoring_area.append(code)
            scored.append(code)
    return points, scored
