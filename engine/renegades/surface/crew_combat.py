"""Fighting on the surface: reach, attacks and their dice, wounds, knock-outs, defeated
figures and booby traps (N33, N36, N48)."""
from __future__ import annotations

from typing import Optional

from engine.renegades.contents.board import distance
from engine.renegades.contents.game import Game
from engine.renegades.contents.ground import between
from engine.renegades.contents.state import CrewMember, Figure, Strike
from engine.renegades.crew import hands
from engine.renegades.crew.crew_abilities import attack_bonuses, count_attack, may_attack_again
from engine.renegades.crew.pieces import Piece, card_of, friendly, is_giant, is_npc, opposed, piece, standing
from engine.renegades.orbit import orbit, placing
from engine.renegades.surface import weather


# --- combat --------------------------------------------------------------------------------------
def reach_of(g: Game, attacker: Piece, target: Piece) -> Optional[tuple[bool, tuple[int, int]]]:
    """(ranged?, weapon bonus) when `attacker` can attack `target` from where it stands."""
    card = card_of(g, attacker)
    if card is not None or card_of(g, target) is not None:  # N115: on a ship's card all are in base contact
        if card != card_of(g, target):
            return None
        if isinstance(attacker, Figure):
            return False, (0, 0)
        kinds = [w for kind in ("melee", "ranged") for w in hands.in_hand(g, attacker, kind) if w.bonus]
        best = max(kinds, key=lambda w: (w.bonus.add * w.bonus.dice, w.code), default=None)
        return False, ((best.bonus.add, best.bonus.dice) if best else (0, 0))
    if target.cell is None or attacker.cell is None:
        return None
    gap = distance(attacker.cell, target.cell)
    if isinstance(attacker, Figure):
        if gap <= 1:
            return False, (0, 0)
        if attacker.range > 1 and gap <= attacker.range and weather.sees(g, attacker.cell, target.cell,
                                                                         is_giant(g, attacker)) \
                and clear_shot(g, attacker, attacker.cell, target.cell):
            return True, (0, 0)
        return None
    if gap <= 1:
        best = max(((w.bonus.add * w.bonus.dice, (w.bonus.add, w.bonus.dice))
                    for w in hands.in_hand(g, attacker, "melee") if w.bonus), default=(0, (0, 0)))
        return False, best[1]
    guns = [w for w in hands.in_hand(g, attacker, "ranged") if w.range >= gap]
    if not guns or not weather.sees(g, attacker.cell, target.cell) or not clear_shot(g, attacker, attacker.cell,
                                                                                      target.cell):
        return None
    best = max(guns, key=lambda w: (w.bonus.add * w.bonus.dice if w.bonus else 0, w.code))
    return True, ((best.bonus.add, best.bonus.dice) if best.bonus else (0, 0))


def clear_shot(g: Game, shooter: Piece, a: str, b: str) -> bool:
    """N36 (amended): no piece stands on the line of fire from `a` to `b` unless the
    shooter may fire through it (a friend, `pieces.friendly`); unconscious crew lie flat."""
    line = set(between(a, b))
    return not line or not any(p.cell in line and p is not shooter and not friendly(shooter, p)
                               for p in standing(g))


def target_refusal(g: Game, crew: CrewMember, target: Piece) -> Optional[str]:
    """Why the crewmember may not attack `target` wherever it stood, or None."""
    if not may_attack_again(g, crew):
        return f"{crew.name} has already attacked this round (one attack a round, two with a twin ability)."
    if target is crew or not opposed(crew, target):
        return f"{target.name} is not an opponent."
    if (target.cell is None and card_of(g, target) is None) or getattr(target, "ko", False):
        return f"{target.name} is not standing on the surface or fighting on a ship's card."
    if getattr(target, "hidden", False):
        return f"{target.name} is hidden; a successful scan of the room finds it."
    return None


def attack_refusal(g: Game, crew: CrewMember, target: Piece) -> Optional[str]:
    """Why the crewmember cannot attack `target` from where it stands now, or None."""
    refusal = target_refusal(g, crew, target)
    if refusal:
        return refusal
    if reach_of(g, crew, target) is None:
        return (f"{target.name} ({target.cell}) is out of reach: melee needs base contact, a ranged attack "
                "a ranged weapon with the range and a line of fire clear of walls and of pieces "
                "other than friends.")
    return None


def strike(g: Game, attacker: Piece, target: Piece) -> None:
    """One attack: red dice as many as the attack value; the weapon's bonus (and a tactic's
    +1) placed by the attacker's player when there is a real choice, else highest first
    (N10, N122); then `finish_strike`."""
    ranged, (add, count) = reach_of(g, attacker, target)
    rolled = g.state.dice.roll(min(orbit.MAX_DICE, attacker.attack))
    bonuses = [[add, count]] if add else []
    seat = None
    if isinstance(attacker, CrewMember):
        if attacker.rounds.get("aim") == g.state.round:
            bonuses.append([1, 1])
        bonuses += [[more, dice_count] for more, dice_count in attack_bonuses(g, attacker, ranged)]
        count_attack(g, attacker)
        attacker.hidden = False
        seat = g.state.ships[attacker.ship].seat if attacker.ship in g.state.ships else None
    plan = Strike(kind="crew", attacker=attacker.id, target=target.id, seat=seat, dice=rolled, red=list(rolled),
                  bonuses=bonuses, info={"ranged": ranged})
    faces = placing.place(g, plan)
    if faces is not None:
        finish_strike(g, plan, faces)


def finish_strike(g: Game, plan: Strike, red: list[int]) -> None:
    """4s and more hit; a black die per hit, paired for the most blocks; each hit left is a
    wound. A ranged attack on a target in obstructed terrain (a container's square too) lets it
    re-roll two idle dice."""
    attacker, target = piece(g, plan.attacker), piece(g, plan.target)
    ranged, dice = plan.info["ranged"], g.state.dice
    hits = sorted((r for r in red if r >= 4), reverse=True)
    black = dice.roll(len(hits))
    defense = defense_of(g, target)
    npc = is_npc(g, target)
    rerolled: list[int] = []
    if ranged and black and (target.cell in g.ground.obstructed or target.cell in g.state.containers):
        _, used = orbit.best_defense(hits, black, defense, npc)
        rerolled = sorted((i for i in range(len(black)) if i not in used), key=lambda i: black[i])[:2]
        for i in rerolled:
            black[i] = dice.roll(1)[0]
    blocked, _ = orbit.best_defense(hits, black, defense, npc)
    wounds = len(hits) - blocked
    if isinstance(target, CrewMember) and target.rounds.get("found") == g.state.round:
        target.rounds["exposed"] = g.state.round  # found by a scan and attacked: no stealth this round (N143)
    g.emit("crew_attack", attacker=attacker.id, target=target.id, ranged=ranged, dice=plan.dice, attack=red,
           hits=len(hits), defense=black, rerolled=rerolled, blocked=blocked, wounds=wounds)
    hurt(g, target, wounds, attacker.id)


def defense_of(g: Game, target: Piece) -> list[tuple[int, int]]:
    """The (add, dice) bonuses of the piece's defense: its card's, and +1 to a die for a
    crewmember a Take Cover tactic covers this round (N215)."""
    cover = [(1, 1)] if isinstance(target, CrewMember) and target.rounds.get("cover") == g.state.round else []
    return ([tuple(target.defense)] if target.defense else []) + cover


def hurt(g: Game, target: Piece, wounds: int, by: Optional[str]) -> None:
    if wounds <= 0:
        return
    if by is not None:
        target.hurt_by[by] = target.hurt_by.get(by, 0) + wounds
    if isinstance(target, Figure):
        target.damage = min(target.health, target.damage + wounds)
        if target.damage >= target.health:
            defeat(g, target, by)
        return
    target.wounds = min(target.health, target.wounds + wounds)
    if target.wounds >= target.health and not target.ko:
        knock_out(g, target, by)


def defeat(g: Game, figure: Figure, by: Optional[str]) -> None:
    """A defeated figure leaves the board for good (it may come back with another card)."""
    del g.state.figures[figure.id]
    for other in g.state.figures.values():
        if other.escort_of == figure.id:
            other.escort_of = None
    killer = g.state.crew.get(by or "")
    if killer is not None:
        reward = {"commander": 100, "creature": 100, "warrior": 50, "drone": 20}[figure.rank]
        g.state.digits[killer.faction] = g.state.digits.get(killer.faction, 0) + reward
    g.emit("figure_defeated", figure=figure.id, cell=figure.cell, by=by)


def knock_out(g: Game, crew: CrewMember, by: Optional[str]) -> None:
    """An unconscious crewmember leaves a token on its square; what it carried is dropped."""
    s = g.state
    crew.ko, crew.hidden = True, False
    if crew.carrying:
        s.crew[crew.carrying].carried_by = None
        crew.carrying = None
    if crew.cell is None:
        _fallen_aboard(g, crew)
    obj = s.objective
    if obj is not None and obj.holder == crew.id:
        obj.holder, obj.cell = None, crew.cell
        g.emit("parameter_dropped", cell=crew.cell, name=obj.name)
    killer = s.crew.get(by or "")
    if killer is not None and killer.faction != crew.faction:
        s.digits[killer.faction] = s.digits.get(killer.faction, 0) + 50
    for figure in s.figures.values():
        if figure.engaged == crew.id:
            figure.engaged = None
    g.emit("knocked_out", crew=crew.id, cell=crew.cell, by=by)


def _fallen_aboard(g: Game, crew: CrewMember) -> None:
    """Knocked out on a ship's card (N115): a boarder is the ship's captive in its med bay
    (with the parameter, if it carried it, now aboard); the ship's own crew lie in its med bay."""
    s = g.state
    ship = crew.boarded or crew.ship
    if crew.station is not None:
        del s.ships[ship].stations[crew.station]
        crew.station = None
    crew.room = "medbay"
    crew.rounds["medbay"] = s.round
    if crew.boarded:
        crew.boarded, crew.ship, crew.captive = None, ship, True
        g.emit("captured", crew=crew.id, ship=ship)
        obj = s.objective
        if obj is not None and obj.holder == crew.id:
            obj.holder, obj.ship = None, ship
            g.emit("parameter_aboard", ship=ship, name=obj.name)


def spring_trap(g: Game, cell: str, dice: int) -> None:
    """N33: a booby trap makes one attack of `dice` red dice on every figure and conscious
    crewmember within two squares, each defending on its own."""
    victims = sorted((p for p in standing(g) if distance(p.cell, cell) <= 2), key=lambda p: p.id)
    g.emit("trap", cell=cell, victims=[p.id for p in victims])
    for victim in victims:
        if victim.id in g.state.crew or victim.id in g.state.figures:
            hazard(g, victim, dice, "trap_attack")


def hazard(g: Game, victim: Piece, dice: int, kind: str, by: Optional[str] = None) -> None:
    """An attack of `dice` red dice that nobody aims (a trap, a hard landing; a grenade's
    blast, hurting as its thrower `by`), defended as any other."""
    red = g.state.dice.roll(min(orbit.MAX_DICE, dice))
    hits = sorted((r for r in red if r >= 4), reverse=True)
    black = g.state.dice.roll(len(hits))
    blocked, _ = orbit.best_defense(hits, black, defense_of(g, victim), is_npc(g, victim))
    g.emit(kind, target=victim.id, attack=red, defense=black, wounds=len(hits) - blocked)
    hurt(g, victim, len(hits) - blocked, by)
