"""Before the action: away teams, scanning the mission area, core missions, beaming down,
and each round's draw phase (discards, drawing up, reverse polarity, escalation)."""
from __future__ import annotations

from collections import Counter
from typing import Any, Optional

from engine.awaymissions import cards
from engine.awaymissions.content import Pack, load_pack
from engine.awaymissions.context import Table
from engine.awaymissions.layout import (LayoutSpec, PRESETS, SIX_BOARD_PRESETS, best_placement, placement_problem,
                                        preset)
from engine.awaymissions.state import Character, GameState, Player
from engine.dice import Dice
from engine.errors import RuleError
from engine.packs import pack_ref

HAND = 5  # support cards and mission cards each
ROUNDS = 3


# --- away teams --------------------------------------------------------------------
def away_team(pack: Pack, seat: dict[str, Any]) -> list[str]:
    """The roster a seat plays: a pack team with specialist swaps and an alternative commander
    (who may bring a character of its own in place of a member, see content `brings`).

    Raises RuleError listing every problem.
    """
    problems = []
    team = pack.teams.get(seat.get("team", ""))
    if team is None:
        raise RuleError(f"Unknown away team '{seat.get('team')}'.")
    if team.affiliation != seat["affiliation"]:
        problems.append(f"{team.name} is not a {seat['affiliation']} away team.")
    roster = [team.commander, *team.members]
    commander = seat.get("commander")
    if commander:
        alt = pack.characters.get(commander)
        if alt is None or alt.alternative_commander_for != team.commander:
            problems.append(f"{commander} is not an alternative commander for {team.commander}.")
        else:
            roster[0] = commander
    brings = pack.characters[roster[0]].brings
    for old, new in (seat.get("swaps") or {}).items():
        out, into = pack.characters.get(old), pack.characters.get(new)
        if old not in roster or out is None:
            problems.append(f"{old} is not in the away team, so cannot be swapped out.")
        elif into is None:
            problems.append(f"There is no character {new}.")
        elif new in roster:
            problems.append(f"{new} is already in the away team.")
        elif old != roster[0] and _brought(brings, out, new):
            roster[roster.index(old)] = new
        elif "Specialist" not in out.keywords or "Specialist" not in into.keywords:
            problems.append(f"Only mission specialists may be swapped ({old} for {new}), "
                            "unless the commander brings that character.")
        elif into.affiliation != out.affiliation:
            problems.append(f"{new} is not of the same affiliation as {old}.")
        else:
            roster[roster.index(old)] = new
    if problems:
        raise RuleError(" ".join(problems))
    return roster


def _brought(brings, out, new: str) -> bool:
    """Whether the commander's `brings` lets `new` take the place of the member `out`."""
    if brings is None or brings.character != new:
        return False
    return out.code in brings.replacing if brings.replacing else "Specialist" not in out.keywords


def _character(pack: Pack, code: str, seat: str, ident: str) -> Character:
    card = pack.characters[code]
    ratings = card.ratings.as_dict()
    return Character(
        id=ident, card=code, name=card.name, owner=seat, controller=seat,
        ratings=dict(ratings), pegs=dict(ratings),
        specializations=dict(card.specializations), keywords=list(card.keywords),
        attacks=list(card.attacks),
        status="waiting" if card.escalation else "reserve", escalation=card.escalation)


def new_game(config: dict[str, Any], seed: int) -> GameState:
    """A new game from its configuration and seed, stopped at its first decision.

    config: {"pack": folder, "players": [{"seat", "name", "affiliation", "team",
    "deck", "swaps"?, "commander"?, "side"?}, ...], "layout": preset name or absent for the
    board-placement setup, "cube": bool, "mode": "teams" (4 players, 2 vs 2),
    "annihilation": bool (team games), "dice": faces scripted before any roll (tests)}.

    Two, three or four seats. Every seat plays for itself unless the game is a team game:
    `"mode": "teams"` pairs seats 1 and 3 against 2 and 4 (teams "team-a", "team-b"),
    or the seats name their team with "side" (two sides of two seats).
    """
    from engine.awaymissions.rules import advance

    pack = load_pack(config.get("pack", "content/starter"))
    seats = config.get("players") or []
    if not 2 <= len(seats) <= 4:
        raise RuleError("Away Missions is played by two, three or four players.")
    sides = _sides(config, seats)
    teams = sides[0] is not None
    players, characters = [], {}
    for index, seat in enumerate(seats):
        code = seat.get("seat") or f"p{index + 1}"
        affiliation = seat.get("affiliation")
        if affiliation not in pack.affiliations:
            raise RuleError(f"Unknown affiliation '{affiliation}'.")
        deck = pack.decks.get(seat.get("deck", f"{affiliation}-starter"))
        if deck is None or deck.affiliation != affiliation:
            raise RuleError(f"Unknown {affiliation} deck '{seat.get('deck')}'.")
        support = list(seat.get("support") or deck.support)
        mission = list(seat.get("mission") or deck.mission)
        roster = away_team(pack, seat)
        problems = cards.deck_problems(pack, affiliation, support, mission, roster)
        if problems:
            raise RuleError(" ".join(problems))
        interrupts = sorted({c for c in support if pack.cards[c].kind == "interrupt"})
        players.append(Player(seat=code, name=seat.get("name", code), team=sides[index] or code,
                              affiliation=affiliation, support_deck=support, mission_deck=mission,
                              interrupts=interrupts, mute=list(seat.get("mute") or [])))
        for card_code in roster:
            ident = card_code if card_code not in characters else f"{card_code}-{index + 1}"
            characters[ident] = _character(pack, card_code, code, ident)
    if len({p.seat for p in players}) < len(players):
        raise RuleError("Two seats have the same name.")
    if teams and any(p.team in {q.seat for q in players} for p in players):
        raise RuleError("A team may not be named like a seat.")
    six = len(seats) > 2
    layout_name = config.get("layout")
    if layout_name and layout_name not in PRESETS:
        raise RuleError(f"Unknown layout '{layout_name}' (choose from {', '.join(PRESETS)}).")
    if layout_name and (layout_name in SIX_BOARD_PRESETS) != six:
        wanted = ", ".join(n for n in PRESETS if (n in SIX_BOARD_PRESETS) == six)
        raise RuleError(f"A game of {len(seats)} players uses {'six' if six else 'four'} mission boards: "
                        f"choose the layout {wanted}, or place the boards.")
    if six and config.get("cube"):
        raise RuleError("The Borg cube is a square of four boards; games of three or four players use six.")
    layout = preset(pack, layout_name) if layout_name else LayoutSpec(mode="cube" if config.get("cube") else "corridor",
                                                                        six=six)
    options: dict[str, Any] = {"cube": bool(config.get("cube")), "preset": bool(layout_name)}
    if teams:
        options["teams"] = True
        options["annihilation"] = bool(config.get("annihilation"))
    elif config.get("annihilation"):
        raise RuleError("Annihilation is an option of team games.")
    dice = Dice.seeded(seed)
    dice.scripted = [int(face) for face in config.get("dice") or []]  # tests and scenarios: the first faces
    state = GameState(pack=pack_ref(pack.path), seed=seed, dice=dice, players=players,
                      characters=characters, layout=layout, options=options)
    table = Table(state)
    advance(table)
    state.version = 0
    return state


def _sides(config: dict[str, Any], seats: list[dict[str, Any]]) -> list[Optional[str]]:
    """The team of each seat (None: the seat plays for itself), checked against the rules:
    everyone for themselves, or with four players two teams of two."""
    mode = config.get("mode", "teams" if any(s.get("side") for s in seats) else "free-for-all")
    if mode not in ("free-for-all", "teams"):
        raise RuleError(f"Unknown mode '{mode}' (free-for-all or teams).")
    if mode == "free-for-all":
        return [None] * len(seats)
    if len(seats) != 4:
        raise RuleError("A team game is played by four players, two against two.")
    given = [str(s["side"]).lower() if s.get("side") else None for s in seats]
    if not any(given):
        return ["team-a", "team-b", "team-a", "team-b"]
    if not all(given) or sorted(Counter(given).values()) != [2, 2]:
        raise RuleError("A team game has two teams of two: give every seat a side, two seats per side.")
    return given


# --- setup steps -------------------------------------------------------------------
def setup_next(t: Table) -> None:
    """Move setup on to its next decision once the current step is answered.

    Sides are seats, or teams in a team game (any teammate answers a team's decision).
    """
    s = t.state
    if s.step == "":
        if s.options.get("preset"):
            s.step = "core"
        else:
            order = t.roll_off(t.sides(), "scan the mission area")
            s.sequence = scan_sequence(t, order)
            s.step = "scan"
            if s.layout.mode == "corridor":
                t.ask_side("corridor", order[0])
                return
    if s.step == "scan":
        if s.sequence:
            t.ask_side("board", s.sequence[0])
            return
        s.step = "core"
    if s.step == "core":
        s.step = "core-asked"
        for p in s.players:
            if _core_choices(t, p):
                t.ask("core", p.seat)
        if s.pending:
            return
    if s.step == "core-asked":
        order = t.roll_off(t.sides(), "beam down")
        s.sequence = area_sequence(t, order)
        s.options["beam_first"] = order[0]
        s.options["beam_order"] = order
        s.step = "areas"
    if s.step == "areas":
        while s.sequence:
            free = area_choices(t)
            if len(free) > 1:
                t.ask_side("start_area", s.sequence[0])
                return
            side = s.sequence.pop(0)  # one board left: it is taken without asking
            for seat in t.seats_of(side):
                s.player(seat).start_boards.extend(free)
            t.emit("start_area", seat=side, boards=free)
        order = s.options.get("beam_order") or [s.options["beam_first"]]
        s.step = "beam"
        s.sequence = _alternate(t, order, lambda side: [c for c in t.characters_of_side(side, in_play=False)
                                                        if c.status == "reserve"])
    if s.step == "beam":
        if s.sequence:
            t.ask_side("place", s.sequence[0], why="beam down")
            return
        for p in s.players:
            t.state.dice.shuffle(p.support_deck)
            t.state.dice.shuffle(p.mission_deck)
        t.emit("decks_shuffled")
        start_round(t, 1)


def scan_sequence(t: Table, order: list[str]) -> list[str]:
    """Who places each mission board, the roll-off winner first (it also lays the Main Corridor).

    Two or more sides: each in roll order, then back in reverse order, until every slot is
    filled (2 players: 1-2-2-1; 3 players: 1-2-3-3-2-1; 4 players: 1-2-3-4-4-3). Teams:
    the winners two boards, the others three, the winners the last.
    """
    size = t.state.layout.size
    if t.team_game:
        first, second = order
        return [first, first, second, second, second, first][:size]
    return (order + order[::-1])[:size]


def area_sequence(t: Table, order: list[str]) -> list[str]:
    """Who takes each starting board, the beam-down winner first. Two players: 1-2-2-1;
    three: 1-2-3-3-2-1; four: one each (two boards stay nobody's); teams: 2, 3, then 1."""
    if t.team_game:
        first, second = order
        return [first, first, second, second, second, first]
    if len(order) == 4:
        return list(order)
    return order + order[::-1]


def _core_choices(t: Table, player: Player) -> list[str]:
    return [c.code for c in t.pack.cards.values() if c.kind == "core" and c.affiliation == player.affiliation]


def _is_mission_board(t: Table, board: str) -> bool:
    return t.pack.boards[board].kind == "mission"


def _claimed(s: GameState, board: str) -> bool:
    return any(board in p.start_boards for p in s.players)


def _alternate(t: Table, order: list[str], remaining) -> list[str]:
    """Turn order for placing characters one at a time: the sides in `order`, each placing
    one while it has any left (a side that runs out drops out)."""
    counts = {side: len(remaining(side)) for side in order}
    sequence = []
    while any(counts.values()):
        for side in order:
            if counts[side]:
                sequence.append(side)
                counts[side] -= 1
    return sequence


def choose_corridor(t: Table, seat: str, side: str) -> None:
    code = f"corridor-{side.lower()}"
    board = t.pack.boards.get(code)
    if board is None or board.kind != "corridor":
        sides = [b.side for b in t.pack.boards.values() if b.kind == "corridor"]
        raise RuleError(f"Choose a side of the Main Corridor: {', '.join(sides)}.")
    t.state.layout.corridor = code
    t.emit("corridor", seat=seat, board=code)


def place_board(t: Table, seat: str, board: str, slot: str, flip: str | None) -> None:
    from engine.awaymissions.layout import Placement

    s = t.state
    board, slot = board.lower(), slot.lower()
    if flip is None:
        placement = best_placement(t.pack, s.layout, board, slot)
        if placement is None:
            raise RuleError(placement_problem(t.pack, s.layout, Placement(board, slot)) or "That placement is not allowed.")
    else:
        placement = Placement(board, slot, flip == "flip")
        problem = placement_problem(t.pack, s.layout, placement)
        if problem:
            raise RuleError(problem[0].upper() + problem[1:] + ".")
    s.layout.placements.append(placement)
    s.sequence.pop(0)
    t.emit("board_placed", seat=seat, board=board, slot=slot, flip=placement.flip)


def board_choices(t: Table) -> list[str]:
    s = t.state
    slots = s.layout.slots
    options = []
    for code, board in t.pack.boards.items():
        if board.kind != "mission":
            continue
        for slot in slots:
            for flip in (False, True):
                from engine.awaymissions.layout import Placement
                if placement_problem(t.pack, s.layout, Placement(code, slot, flip)) is None:
                    options.append(f"board {code} {slot}" + (" flip" if flip else ""))
    return options


def choose_core(t: Table, seat: str, card: str) -> None:
    player = t.state.player(seat)
    if card.lower() not in _core_choices(t, player):
        raise RuleError(f"'{card}' is not one of your core missions.")
    player.core_mission = card.lower()
    t.emit("core_mission", seat=seat, card=card.lower())


def area_choices(t: Table) -> list[str]:
    return [b for b in t.geo.boards if _is_mission_board(t, b) and not _claimed(t.state, b)]


def choose_area(t: Table, seat: str, board: str) -> None:
    """A side takes a free mission board as (part of) its starting area; in a team game the
    board is the whole team's."""
    board = board.lower()
    if board not in area_choices(t):
        raise RuleError(f"'{board}' is not a free mission board.")
    side = t.side_of(seat)
    for member in t.seats_of(side):
        t.state.player(member).start_boards.append(board)
    t.state.sequence.pop(0)
    t.emit("start_area", seat=side, boards=[board], **({"by": seat} if side != seat else {}))


def placement_spaces(t: Table, seat: str) -> list[str]:
    """Spaces where `seat` may put a character now: its starting area, else anywhere legal."""
    boards = t.state.player(seat).start_boards
    with t.still():
        spaces = [sid for b in boards for sid in t.geo.board_spaces(b) if t.can_hold(sid, seat)]
        return spaces or [sid for sid in t.geo.spaces if t.can_hold(sid, seat)]


def place_character(t: Table, seat: str, code: str, space: str, statuses: tuple[str, ...]) -> None:
    """Put a waiting character down. In a team game a teammate may place any character of
    the team, beaming down or arriving by escalation (R46, R64)."""
    character = t.character(code)
    placer = character.controller
    ours = t.side_of(placer) == t.side_of(seat)
    if not ours or character.status not in statuses:
        raise RuleError(f"{character.name} is not waiting to be placed by you.")
    if character.status == "waiting" and character.escalation != t.state.round:
        raise RuleError(f"{character.name} arrives only at the start of round {character.escalation}.")
    space = t.space(space)
    if space not in placement_spaces(t, placer):
        raise RuleError(f"{character.name} cannot be placed in {space}: outside your starting area, "
                        "beside hostile characters, or already holding two of yours.")
    character.space = space
    character.status = "in_play"
    t.state.sequence.pop(0)
    t.emit("placed", character=character.id, space=space, **({"by": seat} if placer != seat else {}))


# --- draw phase --------------------------------------------------------------------
def start_round(t: Table, number: int) -> None:
    s = t.state
    s.round = number
    s.phase = "draw"
    s.step = ""
    t.emit("round", number=number)
    draw_next(t)


def _draw_up(t: Table, player: Player) -> None:
    drawn = []
    for pile in ("support", "mission"):
        while sum(1 for c in player.hand if t.is_mission(c) == (pile == "mission")) < HAND:
            card = t.draw(player, pile)
            if card is None:
                break
            drawn.append(card)
    if drawn:
        t.emit("drew", seat=player.seat, count=len(drawn), private={player.seat: drawn})


def draw_next(t: Table) -> None:
    """The draw phase, one step at a time; hands into the action phase when done."""
    s = t.state
    if s.step == "":
        if s.round >= 2:
            s.step = "discard"
            for p in s.players:
                if p.hand:
                    t.ask("discard", p.seat)
            if s.pending:
                return
        else:
            for p in s.players:
                _draw_up(t, p)
            s.step = "redraw"
            for p in s.players:
                t.ask("redraw", p.seat)
            return
    if s.step == "discard":
        for p in s.players:
            _draw_up(t, p)
        for c in s.characters.values():
            c.activated = False
        s.step = "redraw"
    if s.step == "redraw":  # escalation: sides (a team in a team game) roll off and alternate (R47, R64)
        arriving = lambda side: [c for c in t.characters_of_side(side, in_play=False)
                                 if c.status == "waiting" and c.escalation == s.round]
        sides = [side for side in t.sides() if arriving(side)]
        s.sequence = _alternate(t, t.roll_off(sides, "escalation"), arriving)
        s.step = "escalation"
    if s.step == "escalation":
        if s.sequence:
            t.ask_side("place", s.sequence[0], why="escalation")
            return
        start_action_phase(t)


def discard_cards(t: Table, seat: str, cards: list[str]) -> None:
    player = t.state.player(seat)
    _check_subset(player, cards)
    for card in cards:
        t.discard(player, t.remove_from_hand(player, card))
    t.emit("discarded", seat=seat, cards=[c.lower() for c in cards])


def reverse_polarity(t: Table, seat: str, cards: list[str]) -> None:
    player = t.state.player(seat)
    _check_subset(player, cards)
    for card in cards:
        code = t.remove_from_hand(player, card)
        (player.mission_deck if t.is_mission(code) else player.support_deck).append(code)
    t.state.dice.shuffle(player.support_deck)
    t.state.dice.shuffle(player.mission_deck)
    t.emit("reverse_polarity", seat=seat, returned=len(cards))
    _draw_up(t, player)


def _check_subset(player: Player, cards: list[str]) -> None:
    hand = list(player.hand)
    for card in cards:
        if card.lower() not in hand:
            raise RuleError(f"You have no '{card}' in your hand (or not that many).")
        hand.remove(card.lower())


# --- action phase start and end ----------------------------------------------------
def start_action_phase(t: Table) -> None:
    s = t.state
    s.phase = "action"
    s.step = ""
    counts = {seat: len(t.characters_of(seat)) for seat in s.seats}
    most = max(counts.values())
    for p in s.players:
        p.bonus_actions = most - counts[p.seat]
        if p.bonus_actions:
            t.emit("bonus_actions", seat=p.seat, count=p.bonus_actions)
    cards.start_of_round(t)
    s.order = t.roll_off(t.sides(), "first activation")
    s.turn = 0


def end_round(t: Table) -> None:
    s = t.state
    for p in s.players:
        p.bonus_actions = 0
        p.end_prepass("round")
    for c in s.characters.values():
        c.boosts = {}
    t.emit("round_over", number=s.round, standing={
        p.seat: {"points": sum(t.pack.cards[c].points for c in p.scoring_area) + p.bonus_points,
                 "in_play": sum(c.controller == p.seat and c.in_play for c in s.characters.values())}
        for p in s.players})
    if s.round < ROUNDS:
        start_round(t, s.round + 1)
    else:
        score_game(t)


def score_game(t: Table) -> None:
    """Beam up and debrief: points from scored missions and bonus tokens; the highest total
    wins, a tie goes to the most missions scored, and a tie on both is a draw between those
    still tied. In a team game a team's points and missions are its players' added up."""
    s = t.state
    scores, missions = {}, {}
    for p in s.players:
        core, scored = cards.end_of_game_points(t, p.seat)
        if scored:
            t.emit("scored_at_end", seat=p.seat, cards=scored)
        scores[p.seat] = sum(t.pack.cards[c].points for c in p.scoring_area) + p.bonus_points + core
        missions[p.seat] = sum(1 for c in p.scoring_area if t.is_mission(c))
    sides = t.sides()
    side_scores = {side: sum(scores[seat] for seat in t.seats_of(side)) for side in sides}
    side_missions = {side: sum(missions[seat] for seat in t.seats_of(side)) for side in sides}
    best = max(side_scores.values())
    leaders = [side for side in sides if side_scores[side] == best]
    if len(leaders) > 1:
        most = max(side_missions[side] for side in leaders)
        leaders = [side for side in leaders if side_missions[side] == most]
    winner = leaders[0] if len(leaders) == 1 else None
    result: dict[str, Any] = {"scores": scores, "missions": missions, "winner": winner}
    extra: dict[str, Any] = {}
    if winner is None and len(sides) > 2:
        extra["drawn"] = leaders  # who shares the draw (with two sides, both)
    if t.team_game:
        extra.update(teams=side_scores, team_missions=side_missions,
                     winners=t.seats_of(winner) if winner else [])
    result.update(extra)
    _game_over(t, result)


def _game_over(t: Table, result: dict[str, Any]) -> None:
    s = t.state
    s.phase = "over"
    s.pending = []
    s.result = result
    t.emit("game_over", **result)


def check_annihilation(t: Table) -> bool:
    """In a team game made with the annihilation option: when one team has no character in
    play at the end of an activation and the other has, the other team wins at once."""
    if not (t.team_game and t.state.options.get("annihilation")):
        return False
    standing = [side for side in t.sides() if t.characters_of_side(side)]
    if len(standing) != 1:
        return False
    winner = standing[0]
    beaten = [side for side in t.sides() if side != winner]
    _game_over(t, {"winner": winner, "winners": t.seats_of(winner), "annihilated": beaten[0],
                   "round": t.state.round})
    return True
