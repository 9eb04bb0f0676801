"""The Away Missions ruleset's public face: apply a command, list legal commands, views.

    state = new_game(config, seed)
    state, events = apply(state, "p1", "move REYES C4")
    legal_commands(state, "p2")

Every pause in the game is a pending decision (`state.pending`). A command answers one
of the seat's pending decisions; an illegal one raises RuleError and changes nothing.
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple, Optional

from engine.awaymissions import actions, cards, effects, setup
from engine.awaymissions.context import Table
from engine.awaymissions.setup import new_game  # noqa: F401  (part of the public face)
from engine.awaymissions.state import Decision, GameState, Player, clone, to_builtins
from engine.awaymissions.vocabulary import TRIGGERS
from engine import command_text
from engine.errors import RuleError

__all__ = ["new_game", "apply", "canonical", "can_take_back", "is_standing", "standing_choices", "turn_of", "stage", "secrets", "legal_commands", "futile", "awaited", "view_for", "advance", "display_names",
           "decision_for"]


def advance(t: Table) -> None:
    """Run the game forward until somebody has to decide something (or it is over)."""
    s = t.state
    while not s.pending and s.phase != "over":
        if s.roll is not None and s.roll.stage == "rolled" and not (s.queue and s.queue[0].in_roll):
            seats = actions.window_seats(t)
            if seats is not None:
                t.ask("reroll", seats[0], also=seats[1:], roll=s.roll.kind)
            else:
                actions.resolve_roll(t)
        elif s.queue:
            actions.settle_queue(t)
        elif s.roll is not None:
            actions.roll_attack(t)
        elif s.activation is not None:
            a = s.activation
            if a.in_action:
                a.in_action = False
                a.actions_left -= 1
            if a.actions_left > 0 and actions.actor_available(t):
                t.ask("action", a.player, character=a.character, left=a.actions_left)
            else:
                actions.end_activation(t)
        elif s.phase == "setup":
            setup.setup_next(t)
        elif s.phase == "draw":
            setup.draw_next(t)
        elif s.phase == "action":
            if not actions.next_activation(t):
                setup.end_round(t)


def awaited(state: GameState) -> list[str]:
    """Seats that must answer a decision now, in the order they were asked."""
    return list(dict.fromkeys(seat for d in state.pending for seat in (d.player, *d.also)))


def turn_of(state: GameState) -> Optional[str]:
    """The seat whose turn it is: the active player of the current activation, or the one
    seat being asked (to activate, or a set-up step); None while several are asked at once."""
    if state.phase == "over":
        return None
    if state.activation is not None:
        return state.activation.player
    seats = awaited(state)
    return seats[0] if len(seats) == 1 else None


def secrets(state: GameState, seat: str) -> dict[str, list[str]]:
    """What only `seat` (and its team) holds hidden: its hand, as card codes."""
    return {"hand": list(state.player(seat).hand)}


def stage(state: GameState) -> tuple[int, Optional[str]]:
    """The round under way (0 in set-up) and the activation under way, as a key that
    differs from one activation to the next (None between activations)."""
    a = state.activation
    return state.round, None if a is None else f"{state.turn}:{a.player}:{a.character}:{a.bonus}"


def _decision(state: GameState, seat: str) -> Decision:
    if state.phase == "over":
        raise RuleError("The game is over.")
    for decision in state.pending:
        if decision.answerable_by(seat):
            return decision
    waiting = ", ".join(awaited(state)) or "nobody"
    raise RuleError(f"It is not your decision (waiting for {waiting}).")


# --- commands ---------------------------------------------------------------------------
def _on_activate(t, seat, args):
    actions.activate(t, seat, args[0], bonus=False)


def _on_bonus(t, seat, args):
    actions.activate(t, seat, args[0], bonus=True)


def _on_move(t, seat, args):
    actions.move(t, seat, args[0], args[1])


def _on_attack(t, seat, args):
    actions.attack(t, seat, args[0], args[1], args[2] if len(args) > 2 else None)


def _on_cover(t, seat, args):
    actions.take_cover(t, seat, args[0])


def _on_recover(t, seat, args):
    actions.recover(t, seat, args[0])


def _on_special(t, seat, args):
    actions.special(t, seat, args[0], args[1], args[2] if len(args) > 2 else None)


def _on_draw(t, seat, args):
    actions.draw_card(t, seat)


def _on_cycle(t, seat, args):
    actions.cycle(t, seat, args[0])


def _on_pass(t, seat, args):
    kind = t.decision.kind
    if kind == "reroll":
        actions.pass_reroll(t, seat)
    elif kind == "action":
        actions.pass_action(t, seat)
    elif kind == "simultaneous":
        cards.resolve_simultaneous(t, seat, None)
    else:
        t.emit("declined", seat=seat, what=kind)


def _on_play(t, seat, args):
    kind = t.decision.kind
    if kind == "action":
        cards.play_in_activation(t, seat, args[0], args[1] if len(args) > 1 else None)
        return
    if len(args) > 1:
        raise RuleError("An interrupt names no character: it acts on the character of its moment.")
    if kind == "interrupt":
        cards.play_interrupt(t, seat, args[0], t.decision.info["trigger"], t.decision.info["subject"])
    else:
        roll = t.state.roll
        if t.side_of(seat) == t.side_of(roll.active_player):
            raise RuleError("Interrupts are played only in an opponent's activation.")
        subject = roll.actor if actions.roll_side(t, seat) == "actor" else roll.target
        cards.play_interrupt(t, seat, args[0], "rolled", subject)
        roll.passes = 0
        roll.turn += 1


def _on_take(t, seat, args):
    info = t.decision.info
    code = args[0].lower()
    if code not in info["secret"]["options"]:
        raise RuleError(f"Take one of: {', '.join(info['secret']['options'])}.")
    player = t.state.player(seat)
    for pile in [f"{info['pile']}_deck"] + ([f"{info['pile']}_discard"] if info["discard_too"] else []):
        cards_there = getattr(player, pile)
        if code in cards_there:
            cards_there.remove(code)
            break
    player.hand.append(code)
    t.state.dice.shuffle(getattr(player, f"{info['pile']}_deck"))
    t.emit("searched", seat=seat, found=True, card=info["card"], private={seat: [code]})


def _on_choose(t, seat, args):
    info = t.decision.info
    code = args[0].upper()
    if code not in info["options"]:
        raise RuleError(f"Choose the challenger from: {', '.join(info['options'])}.")
    effects.start_test(t, t.state.characters[info["character"]], info["specialization"], code, info["then"])


def _on_opponent(t, seat, args):
    info = t.decision.info
    chosen = args[0].lower()
    if chosen not in info["options"]:
        raise RuleError(f"Choose the opponent from: {', '.join(info['options'])}.")
    t.emit("opponent_chosen", seat=seat, opponent=chosen, card=info["card"])
    effects.discard_at_random(t, chosen, info["count"], info["card"])


def _on_adjust(t, seat, args):
    cards.adjust(t, seat, args)


def _on_done(t, seat, args):
    t.state.pending.remove(t.decision)
    t.emit("adjudicated", seat=seat, card=t.decision.info["card"])


def _on_resolve(t, seat, args):
    cards.resolve_simultaneous(t, seat, args[0])


def _on_reroll(t, seat, args):
    actions.reroll(t, seat, args[0], args[1:])


def _on_damage(t, seat, args):
    actions.allocate(t, seat, args[0], args[1:])


def _on_corridor(t, seat, args):
    setup.choose_corridor(t, seat, args[0])


def _on_board(t, seat, args):
    flip = args[2].lower() if len(args) > 2 else None
    if flip not in (None, "flip", "noflip"):
        raise RuleError("The last word may only be 'flip' or 'noflip'.")
    setup.place_board(t, seat, args[0], args[1], flip)


def _on_core(t, seat, args):
    setup.choose_core(t, seat, args[0])


def _on_start(t, seat, args):
    setup.choose_area(t, seat, args[0])


def _on_place(t, seat, args):
    if t.decision.kind in ("place_drone", "effect_place"):
        actions.place_drone(t, seat, args[0], args[1])
    else:
        statuses = ("reserve",) if t.decision.info.get("why") == "beam down" else ("waiting",)
        setup.place_character(t, seat, args[0], args[1], statuses)


def _on_discard(t, seat, args):
    setup.discard_cards(t, seat, args)


def _on_redraw(t, seat, args):
    setup.reverse_polarity(t, seat, args)


def _on_keep(t, seat, args):
    t.emit("kept", seat=seat)


class Verb(NamedTuple):
    """One command word: the decisions it answers, its handler, and its grammar.

    `cases` spells each argument's canonical case, one letter per position: U upper
    (characters, spaces), L lower (cards, boards, attacks, options), T as typed; the
    last letter repeats for any further arguments when `most` allows them.
    """

    kinds: tuple[str, ...]
    handler: Optional[Callable]
    usage: str
    least: int
    most: Optional[int]
    cases: str = ""


COMMANDS: dict[str, Verb] = {
    "activate": Verb(("activate",), _on_activate, "activate CHARACTER", 1, 1, "U"),
    "bonus": Verb(("activate",), _on_bonus, "bonus CHARACTER", 1, 1, "U"),
    "move": Verb(("action", "effect_move", "free_action"), _on_move, "move CHARACTER SPACE", 2, 2, "UU"),
    "attack": Verb(("action", "free_action"), _on_attack, "attack CHARACTER TARGET [ATTACK]", 2, 3, "UUL"),
    "cover": Verb(("action", "free_action"), _on_cover, "cover CHARACTER", 1, 1, "U"),
    "recover": Verb(("action",), _on_recover, "recover CHARACTER", 1, 1, "U"),
    "special": Verb(("action",), _on_special, "special CHARACTER ACTION [CHALLENGER]", 2, 3, "ULU"),
    "draw": Verb(("action",), _on_draw, "draw", 0, 0),
    "cycle": Verb(("action",), _on_cycle, "cycle MISSION-CARD", 1, 1, "L"),
    "play": Verb(("action", "interrupt", "reroll"), _on_play, "play CARD [CHARACTER]", 1, 2, "LU"),
    "pass": Verb(("action", "reroll", "interrupt", "effect_move", "free_action", "search",
                  "simultaneous"), _on_pass, "pass", 0, 0),
    "reroll": Verb(("reroll",), _on_reroll, "reroll CARD all | reroll CARD 1 3 ...", 2, 7, "LL"),
    "damage": Verb(("damage",), _on_damage, "damage CHARACTER attack=1 move=1 ...", 2, 5, "UL"),
    "take": Verb(("search",), _on_take, "take CARD", 1, 1, "L"),
    "choose": Verb(("challenger",), _on_choose, "choose CHALLENGER", 1, 1, "U"),
    "opponent": Verb(("opponent",), _on_opponent, "opponent SEAT", 1, 1, "L"),
    "adjust": Verb(("adjudicate",), _on_adjust, "adjust CHARACTER field=value | adjust points=N", 1, 2, "T"),
    "done": Verb(("adjudicate",), _on_done, "done", 0, 0),
    "resolve": Verb(("simultaneous",), _on_resolve, "resolve CARD", 1, 1, "L"),
    "corridor": Verb(("corridor",), _on_corridor, "corridor SIDE", 1, 1, "L"),
    "board": Verb(("board",), _on_board, "board BOARD SLOT [flip|noflip]", 2, 3, "L"),
    "core": Verb(("core",), _on_core, "core CARD", 1, 1, "L"),
    "start": Verb(("start_area",), _on_start, "start BOARD", 1, 1, "L"),
    "place": Verb(("place", "place_drone", "effect_place"), _on_place, "place CHARACTER SPACE", 2, 2, "UU"),
    "discard": Verb(("discard",), _on_discard, "discard CARD ...", 1, None, "L"),
    "redraw": Verb(("redraw",), _on_redraw, "redraw CARD ...", 1, None, "L"),
    "keep": Verb(("discard", "redraw"), _on_keep, "keep", 0, 0),
    "mute": Verb((), None, "mute WINDOW ... [activation|round]", 0, None, "L"),
    "unmute": Verb((), None, "unmute WINDOW ...", 0, None, "L"),
}
_STANDING = ("mute", "unmute")  # standing choices: sent at any time, answer no decision

# the glossary entry (content/glossary/awaymissions.yaml) a refusal of each command cites
RULE_OF = {
    "activate": "activation", "bonus": "bonus-action-token", "move": "move", "attack": "attack",
    "cover": "take-cover", "recover": "recover", "special": "special-action", "draw": "draw-instead",
    "cycle": "cycle", "play": "event-card", "pass": "action", "reroll": "re-roll", "damage": "damage",
    "take": "search", "choose": "skill-test", "opponent": "opponent", "adjust": "event-card", "done": "event-card",
    "resolve": "permanent", "corridor": "scan-mission-area", "board": "scan-mission-area",
    "core": "core-mission", "start": "beam-down", "place": "beam-down", "discard": "draw-phase",
    "redraw": "reverse-polarity", "keep": "draw-phase", "mute": "interrupt", "unmute": "interrupt",
}


def parse(command: Any) -> tuple[str, list[str]]:
    """The verb and arguments of a command, in canonical case, or RuleError.

    The text must be one line of ASCII words (see engine.command_text), start with a
    known verb and have exactly as many arguments as that verb takes.
    """
    found = command_text.words(command)
    verb, args = found[0].lower(), found[1:]
    grammar = COMMANDS.get(verb)
    if grammar is None:
        raise RuleError(f"Unknown command '{command_text.quote(found[0])}'. Commands: {', '.join(sorted(COMMANDS))}.")
    if len(args) < grammar.least or (grammar.most is not None and len(args) > grammar.most):
        raise RuleError(f"Usage: {grammar.usage}")
    cases = grammar.cases
    return verb, [_in_case(arg, cases[min(i, len(cases) - 1)]) for i, arg in enumerate(args)]


def _in_case(arg: str, case: str) -> str:
    return arg.upper() if case == "U" else arg.lower() if case == "L" else arg


def canonical(command: Any) -> str:
    """The one text stored for a command: its words in canonical case, single-spaced."""
    verb, args = parse(command)
    return " ".join([verb, *args])


# decisions that stay open until the engine itself closes them
_SELF_CLOSING = {"damage", "place_drone", "effect_place", "adjudicate"}


PREPASS_SCOPES = ("activation", "round")


def standing_choices(state: GameState, seat: str) -> list[tuple[str, str]]:
    """(label, command) of the standing choices worth offering `seat` now: passing every
    window in advance, when a window is what it is asked, or when it is asked nothing in
    the draw or action phase (its part done, R75) and has not passed the round ahead yet."""
    asked = next((d for d in state.pending if d.answerable_by(seat)), None)
    if asked is not None and _window_of(asked) is not None:
        return [("Pass reactions for this activation", "mute all activation"),
                ("Pass reactions for this round", "mute all round")]
    if asked is not None or state.phase not in ("draw", "action") or _passes_round(state.player(seat)):
        return []
    which = "the rest of this activation" if state.activation is not None else "the next activation"
    return [(f"Pass reactions for {which}", "mute all activation"),
            ("Pass reactions for the rest of this round", "mute all round")]


def _passes_round(player: Player) -> bool:
    """Whether the player has passed every window ahead for the round (or always)."""
    return all(f"{w}@round" in player.mute or w in player.mute for w in ("reroll", *TRIGGERS))


# events that reveal nothing hidden and roll nothing: an action made only of these may be
# taken back with the opponent's consent (R42)
TAKE_BACK_EVENTS = frozenset({
    "activated", "activation_over", "moved", "cover", "recovered", "passed", "declined", "placed",
    "corridor", "board_placed", "start_area", "mute", "unmute", "bonus_actions"})


def can_take_back(events: list[dict]) -> bool:
    """Whether the action that produced `events` may be taken back (R42)."""
    return bool(events) and all(e["type"] in TAKE_BACK_EVENTS and "private" not in e for e in events)


def is_standing(command: str) -> bool:
    """Whether a (canonical) command is a standing choice, sent at any time."""
    return command.split()[0] in _STANDING


def _on_mute(state: GameState, seat: str, args: list[str], mute: bool) -> tuple[GameState, list[dict]]:
    """Standing choice, at any time: pass windows in advance (mute) or be asked again (unmute).

    `mute WINDOW ... [activation|round]`: for the rest of the current activation, the rest
    of the round, or (no scope) always; `all` names every window. The choice is private
    (R41): the event is the player's alone.
    """
    known = ("reroll", *TRIGGERS)
    words = [a.lower() for a in args]
    scope = words.pop() if mute and words and words[-1] in PREPASS_SCOPES else None
    if not words or any(w not in (*known, "all") for w in words):
        raise RuleError(f"Say which windows: {', '.join(known)} or all"
                        + (", then optionally activation or round." if mute else "."))
    windows = list(known) if "all" in words else list(dict.fromkeys(words))
    new = clone(state)
    player = new.player(seat)
    player.mute = [entry for entry in player.mute if entry.split("@")[0] not in windows]
    if mute:
        player.mute += [f"{w}@{scope}" if scope else w for w in windows]
    until = {"activation": "for the rest of this activation" if state.activation else "for the next activation",
             "round": "for the rest of this round"}.get(scope, "until you unmute" if mute else "again")
    events = [{"type": "mute" if mute else "unmute", "private": {seat: [f"{', '.join(windows)} {until}"]}}]
    asked = next((d for d in new.pending if d.answerable_by(seat)), None)
    if mute and asked is not None and _window_of(asked) in windows:
        # the open window is passed too; a window put to a team waits for the teammates who
        # have not passed it ahead, and passes for the team once none is left (R65)
        window = _window_of(asked)
        left = [s for s in (asked.player, *asked.also) if s != seat and not new.player(s).passes(window)]
        if left:
            asked.player, asked.also = left[0], left[1:]
        else:
            new, passed = apply(new, seat, "pass")
            events += passed
    new.version = state.version + 1
    return new, events


def window_asked(state: GameState, seat: str) -> Optional[str]:
    """The reaction window `seat` is asked now ("reroll" or an interrupt moment), or None
    when its decision (if any) is not one: a window may always be passed."""
    if state.phase == "over":
        return None
    asked = next((d for d in state.pending if d.answerable_by(seat)), None)
    return _window_of(asked) if asked is not None else None


def futile(state: GameState, seat: str, command: str) -> bool:
    """Whether `command` could change nothing in `seat`'s favour: a re-roll of dice that
    already give its side the best result any faces could (ruling P59)."""
    if not command.startswith("reroll ") or state.roll is None or state.phase == "over":
        return False
    return not actions.could_improve(state.roll, actions.roll_side(Table(state, still=True), seat))


def _window_of(decision: Decision) -> Optional[str]:
    """The window a decision is, if it is one ("reroll" or an interrupt moment)."""
    if decision.kind == "reroll":
        return "reroll"
    return (decision.info or {}).get("trigger") if decision.kind == "interrupt" else None


def decision_for(state: GameState, seat: str, verb: str) -> Decision:
    """The seat's decision that a command with this verb would answer now, or RuleError."""
    decision = _decision(state, seat)
    if decision.kind not in COMMANDS[verb].kinds:
        raise RuleError(f"Not now: first {_asked(state, seat, decision)}.",
                        term=_cited("activation"))
    return decision


def apply(state: GameState, seat: str, command: str) -> tuple[GameState, list[dict]]:
    """Apply one player's command. Returns the new state and what happened.

    Raises RuleError with a reason for the player; `state` is never modified.
    """
    verb, args = parse(command)
    if verb in _STANDING:
        if seat not in state.seats:
            raise RuleError("You are not seated in this game.")
        if state.phase == "over":
            raise RuleError("The game is over.")
        return _on_mute(state, seat, args, verb == "mute")
    handler = COMMANDS[verb].handler
    decision = decision_for(state, seat, verb)
    new = clone(state)
    t = Table(new)
    index = next(i for i, d in enumerate(new.pending) if d.answerable_by(seat))
    t.decision = new.pending[index]
    if decision.kind not in _SELF_CLOSING:
        new.pending.pop(index)
    try:
        handler(t, seat, args)
        advance(t)
    except RuleError as refused:  # the refusal cites the rule of the command it refused
        if refused.term is None:
            family = "interrupt" if verb == "play" and decision.kind in ("interrupt", "reroll") else RULE_OF[verb]
            refused.term = _cited(family)
        raise
    new.version = state.version + 1
    return new, t.events


def _cited(entry: str) -> str:
    """A glossary reference of this ruleset ('awaymissions/<entry>')."""
    return f"awaymissions/{entry}"


ASKED = {
    "activate": "choose the character to activate next (or spend a bonus action token)",
    "action": "choose the next action of the activated character",
    "reroll": "re-roll dice, play an interrupt or keep the dice",
    "damage": "say how your character takes the damage",
    "corridor": "choose which way the Main Corridor lies",
    "interrupt": "play an interrupt or pass",
    "effect_move": "move the character the card moves, or pass",
    "effect_place": "place the character the card places",
    "free_action": "take the card's free action, or pass",
    "search": "take one of the cards found, or pass",
    "challenger": "choose who challenges the skill test",
    "opponent": "choose the opponent the card affects",
    "adjudicate": "adjust the game as the card says, then say done",
    "simultaneous": "resolve a start-of-round effect, or pass",
    "board": "place a mission board",
    "core": "choose your core mission",
    "start_area": "choose the board where your away team beams down",
    "place": "place your next character",
    "place_drone": "place the new drone",
    "discard": "discard cards from your opening hand, or keep it",
    "redraw": "return cards and draw again, or keep your hand",
}  # each decision in a player's words, for a refusal that says what is asked instead


def _asked(state: GameState, seat: str, decision: Decision) -> str:
    """'choose your core mission (for example: core fed-core-hold-the-ship)'."""
    example = next(iter(legal_commands(state, seat)), None)
    return ASKED.get(decision.kind, "answer the question asked") + (f" (for example: {example})" if example else "")


# --- legal commands ------------------------------------------------------------------------
def legal_commands(state: GameState, seat: str) -> list[str]:
    """Every command `seat` may send now (empty when nothing is asked of it).

    Answers that choose several cards or dice at once list the single choices and
    the whole set; any other subset is legal too.
    """
    if state.phase == "over":
        return []
    decision = next((d for d in state.pending if d.answerable_by(seat)), None)
    if decision is None:
        return []
    t = Table(state, still=True)
    t.decision = decision
    return _LEGAL[decision.kind](t, seat, decision)


def _legal_activate(t, seat, d):
    mine = t.characters_of_side(t.side_of(seat))
    options = [f"activate {c.id}" for c in mine if not c.activated]
    options += [f"bonus {c.id}" for c in mine if t.state.player(c.controller).bonus_actions]
    return options


def _legal_action(t, seat, d):
    s = t.state
    leader = s.characters[s.activation.character]
    actors = [leader]
    if leader.has_keyword("Hivemind"):
        actors += [c for c in t.characters_of(seat) if c.is_drone and c.id != leader.id]
    options = []
    for c in actors:
        if c.stun:
            options.append(f"recover {c.id}")
            continue
        if c.id == leader.id:
            options += [f"move {c.id} {space}" for space in actions.move_options(t, c)]
        for weapon in actions.attacks_of(t, c):
            options += [f"attack {c.id} {target.id} {weapon.code}" for target in actions.attack_targets(t, c, weapon)]
        if not c.cover:
            options.append(f"cover {c.id}")
        options += [f"special {c.id} {code}" + (f" {other}" if other else "")
                    for code, other in actions.special_options(t, c)]
    player = s.player(seat)
    options += _playable(t, seat, leader, actors[1:])
    if player.support_deck:
        options.append("draw")
    if player.mission_deck:
        options += [f"cycle {card}" for card in dict.fromkeys(player.hand) if t.is_mission(card)]
    options.append("pass")
    return options


def _playable(t, seat, leader, drones=()):
    """`play` commands for cards in hand that may be played in this activation now; a
    mission played as a special action may also be taken by a drone under hivemind."""
    options = []
    acted = t.state.activation.acted
    for code in dict.fromkeys(t.state.player(seat).hand):
        card = t.pack.cards[code]
        if card.kind in ("interrupt", "core") or (card.kind == "mission" and card.play == "end"):
            continue
        if card.kind == "equipment" and acted:
            continue
        if card.kind == "mission" and card.play in ("action", "table"):  # a special action (R28)
            options += [f"play {code}" + (f" {c.id}" if c is not leader else "") for c in (leader, *drones)
                        if not c.stun and effects.all_hold(t, card.requires, seat, c)]
            continue
        if card.target == "none":
            if effects.all_hold(t, card.requires, seat, leader):
                options.append(f"play {code}")
            continue
        for other in t.state.characters.values():
            if not other.in_play:
                continue
            if cards.target_problem(t, seat, card, other):
                continue
            if effects.all_hold(t, card.requires, seat, other):
                options.append(f"play {code} {other.id}")
    return options


def _legal_reroll(t, seat, d):
    roll = t.state.roll
    mine = actions.roll_side(t, seat)
    dice = roll.dice if mine == "actor" else roll.opposing
    options = ["pass"]
    if t.side_of(seat) != t.side_of(roll.active_player):
        subject = roll.actor if mine == "actor" else roll.target
        options += cards.interrupt_choices(t, seat, "rolled", subject)
    for card in dict.fromkeys(t.state.player(seat).hand if dice else []):
        options.append(f"reroll {card} all")
        options += [f"reroll {card} {i + 1}" for i in range(len(dice))] if len(dice) > 1 else []
    return options


def _legal_damage(t, seat, d):
    return actions.spread_commands(t, d.info["character"], d.info["amount"])


def _legal_corridor(t, seat, d):
    return [f"corridor {b.side}" for b in t.pack.boards.values() if b.kind == "corridor"]


def _legal_place(t, seat, d):
    if d.kind == "place_drone":
        return [f"place {d.info['character']} {space}" for space in d.info["spaces"]]
    status = "reserve" if d.info.get("why") == "beam down" else "waiting"
    mine = t.characters_of_side(t.side_of(seat), in_play=False)
    waiting = [c for c in mine if c.status == status and (status == "reserve" or c.escalation == t.state.round)]
    spaces = {c.controller: setup.placement_spaces(t, c.controller) for c in waiting}
    return [f"place {c.id} {space}" for c in waiting for space in spaces[c.controller]]


def _legal_cards(verb):
    def legal(t, seat, d):
        hand = t.state.player(seat).hand
        options = ["keep"] + [f"{verb} {card}" for card in dict.fromkeys(hand)]
        if len(hand) > 1:
            options.append(f"{verb} " + " ".join(hand))
        return options
    return legal


def _legal_effect_move(t, seat, d):
    character = t.state.characters[d.info["character"]]
    return ["pass"] + [f"move {character.id} {space}" for space in actions.move_options(t, character)]


def _legal_free_action(t, seat, d):
    character = t.state.characters[d.info["character"]]
    action = d.info["action"]
    options = ["pass"]
    if action == "move":
        options += [f"move {character.id} {space}" for space in actions.move_options(t, character)]
    elif action == "attack":
        options += [f"attack {character.id} {target.id} {weapon.code}" for weapon in actions.attacks_of(t, character)
                    for target in actions.attack_targets(t, character, weapon)]
    elif not character.cover:
        options.append(f"cover {character.id}")
    return options


_LEGAL = {
    "activate": _legal_activate,
    "action": _legal_action,
    "reroll": _legal_reroll,
    "damage": _legal_damage,
    "corridor": _legal_corridor,
    "board": lambda t, seat, d: setup.board_choices(t),
    "core": lambda t, seat, d: [f"core {c}" for c in setup._core_choices(t, t.state.player(seat))],
    "start_area": lambda t, seat, d: [f"start {b}" for b in setup.area_choices(t)],
    "place": _legal_place,
    "place_drone": _legal_place,
    "discard": _legal_cards("discard"),
    "redraw": _legal_cards("redraw"),
    "interrupt": lambda t, seat, d: ["pass"] + cards.interrupt_choices(t, seat, d.info["trigger"], d.info["subject"]),
    "effect_move": _legal_effect_move,
    "effect_place": lambda t, seat, d: [f"place {d.info['character']} {s}" for s in d.info["spaces"]],
    "free_action": _legal_free_action,
    "search": lambda t, seat, d: ["pass"] + [f"take {c}" for c in d.info["secret"]["options"]],
    "challenger": lambda t, seat, d: [f"choose {c}" for c in d.info["options"]],
    "opponent": lambda t, seat, d: [f"opponent {c}" for c in d.info["options"]],
    "adjudicate": lambda t, seat, d: ["done"],
    "simultaneous": lambda t, seat, d: ["pass"] + [f"resolve {c}" for c in cards.simultaneous_options(t, seat)],
}


# --- views ----------------------------------------------------------------------------------
def display_names(state: GameState) -> dict[str, str]:
    """Card codes and special action codes -> their names, for readable lines (character
    codes stay as players type them)."""
    pack = Table(state).pack
    names = {a.code: a.name for holder in (*pack.characters.values(), *pack.cards.values())
             for a in holder.special_actions}
    return names | {code: card.name for code, card in pack.cards.items()}



def view_for(state: GameState, seat: Optional[str]) -> dict[str, Any]:
    """What `seat` may see (None: what everyone may see).

    Hands are shown to their holder and teammates only; deck order to nobody; a
    decision's `secret` details (e.g. the cards a search found) to its player only; the
    dice generator and seed to nobody. Each player's interrupt list (the interrupts of
    their deck list) is public, as deck lists are (R95).
    """
    view = to_builtins(state)
    view.pop("dice", None)
    view.pop("seed", None)
    team = state.player(seat).team if seat else None
    for decision in view.get("pending", []):
        if decision["player"] != seat:
            decision.get("info", {}).pop("secret", None)
    for player in view["players"]:
        for pile in ("support_deck", "mission_deck"):
            player[f"{pile}_count"] = len(player.pop(pile, []))
        hand = player.pop("hand", [])
        player["hand_count"] = len(hand)
        mute = player.pop("mute", [])
        if team is not None and player["team"] == team:
            player["mute"] = mute  # pre-passes are private (R41)
            player["hand"] = hand
    return view
