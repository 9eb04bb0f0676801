"""Activations and the actions characters take: move, attack, take cover, special actions,
and the draw / cycle / pass alternatives; dice rolls, re-roll windows, damage, stun and
assimilation."""
from __future__ import annotations

from typing import Optional

from engine.awaymissions import cards, combat, effects
from engine.awaymissions.vocabulary import SkillTest
from engine.awaymissions.context import Table
from engine.awaymissions.geometry import reachable
from engine.awaymissions.state import Activation, Attack, Character, Pending, Roll
from engine.errors import RuleError


# --- choosing who acts -------------------------------------------------------------
def can_activate(t: Table, seat: str) -> bool:
    """Whether a seat still has something to activate this round."""
    mine = t.characters_of(seat)
    if not mine:
        return False
    return t.state.player(seat).bonus_actions > 0 or any(not c.activated for c in mine)


def next_activation(t: Table) -> bool:
    """Ask the next side able to activate; False when nobody can (the round is over).

    A side is a seat, or in a team game a team: any teammate may choose which of the
    team's characters activates (or whose bonus action token is spent)."""
    s = t.state
    for _ in range(len(s.order)):
        side = s.order[s.turn % len(s.order)]
        if any(can_activate(t, seat) for seat in t.seats_of(side)):
            t.ask_side("activate", side)
            return True
        s.turn += 1
    return False


def activate(t: Table, seat: str, code: str, bonus: bool) -> None:
    """Start an activation. In a team game the character may be a teammate's: the activation
    is then that player's, and a bonus action token is spent from that player's tokens."""
    character = t.own_character(code, seat, team=True)
    owner = character.controller
    player = t.state.player(owner)
    if bonus:
        if player.bonus_actions <= 0:
            raise RuleError("You have no bonus action token." if owner == seat else
                            f"{player.name} has no bonus action token to spend on {character.name}.")
        player.bonus_actions -= 1
    elif character.activated:
        raise RuleError(f"{character.name} has already activated this round; use a bonus action token instead.")
    t.state.activation = Activation(player=owner, character=character.id, bonus=bonus, actions_left=1 if bonus else 2)
    t.emit("activated", character=character.id, seat=owner, bonus=bonus, **({"by": seat} if owner != seat else {}))
    cards.open_window(t, "activated", character)


def end_activation(t: Table) -> None:
    s = t.state
    a = s.activation
    character = s.characters.get(a.character)
    if not a.bonus and character is not None and character.in_play:
        character.activated = True
    t.emit("activation_over", character=a.character, seat=a.player)
    for p in s.players:
        p.end_prepass("activation")
    s.activation = None
    s.turn += 1
    from engine.awaymissions.setup import check_annihilation

    check_annihilation(t)


def acting(t: Table, seat: str, code: str, moving: bool = False, action: str = "") -> Character:
    """The character taking this action (`action`: move, attack or cover, when it is one of
    those): the activated one, a drone under hivemind, or the character a card gave a free
    action of that kind or a move to."""
    a = t.state.activation
    character = t.own_character(code, seat)
    decision = t.decision
    if decision is not None and decision.kind in ("free_action", "effect_move"):
        if character.id != decision.info["character"]:
            raise RuleError(f"This {decision.kind.replace('_', ' ')} belongs to {decision.info['character']}.")
        if decision.kind == "free_action" and action != decision.info["action"]:
            raise RuleError(f"The free action is a {decision.info['action']} action (or pass).")
        return character
    if character.id == a.character:
        return character
    leader = t.state.characters[a.character]
    if leader.has_keyword("Hivemind") and character.is_drone and not moving:
        return character
    if leader.has_keyword("Hivemind") and character.is_drone:
        raise RuleError("Under hivemind, drones may take any action except moving.")
    raise RuleError(f"{t.state.characters[a.character].name} is the activated character.")


def start_action(t: Table) -> None:
    """An action of the activation begins (free actions and card moves are not actions)."""
    if t.decision is not None and t.decision.kind != "action":
        return
    t.state.activation.in_action = True
    t.state.activation.acted = True


def _not_stunned(character: Character, what: str) -> None:
    if character.stun:
        raise RuleError(f"{character.name} is stunned: the only action it can take is recover.")


# --- move ----------------------------------------------------------------------------
def move_options(t: Table, character: Character) -> dict[str, list[str]]:
    """Spaces the character can end a move in, each with the path taken."""
    seat = character.controller

    def can_enter(space: str) -> bool:
        return all(t.friendly(c, character) or c.incapacitated for c in t.in_space(space))

    def can_stop(space: str) -> bool:
        return t.can_hold(space, seat, ignore=character.id)

    steps = effects.rating(t, character, "move")
    if t.decision is not None and t.decision.kind == "effect_move":
        steps = t.decision.info["steps"]
    with t.still():
        return reachable(t.geo, character.space, steps, can_enter, can_stop)


def move(t: Table, seat: str, code: str, target: str) -> None:
    character = acting(t, seat, code, moving=True, action="move")
    if t.decision.kind == "effect_move":  # a card moves it: not an action of the character
        if character.incapacitated:
            raise RuleError(f"{character.name} is incapacitated and cannot move.")
    else:
        _not_stunned(character, "move")
    space = t.space(target)
    path = move_options(t, character).get(space)
    if path is None:
        raise RuleError(f"{character.name} cannot reach {space} this move (MOVE {effects.rating(t, character, 'move')}; "
                        "walls, hostile characters and full spaces stop movement).")
    start_action(t)
    t.relocate(character, space)
    t.emit("moved", character=character.id, path=path)
    if t.decision.kind == "action":
        cards.open_window(t, "moved", character)


# --- attack --------------------------------------------------------------------------
def attack_targets(t: Table, character: Character, weapon: Attack) -> list[Character]:
    """Hostile characters this attack may target: in line of sight, and adjacent for melee."""
    with t.still():
        return [other for other in t.state.characters.values() if can_target(t, character, weapon, other)]


def can_target(t: Table, character: Character, weapon: Attack, other: Character) -> bool:
    """Whether this attack may target `other`: hostile, in line of sight, adjacent for melee."""
    if not other.in_play or t.friendly(other, character):
        return False
    if weapon.melee and not t.adjacent(character.space, other.space):
        return False
    return t.sees(character, other.space)


def attacks_of(t: Table, character: Character) -> list[Attack]:
    """The character's own attack actions plus those its equipment and traits give it."""
    extra = [a for code in character.equipment + character.traits for a in t.pack.cards[code].attacks]
    return character.attacks + extra


def _weapon(t: Table, character: Character, code: Optional[str]) -> Attack:
    weapons = attacks_of(t, character)
    if not weapons:
        raise RuleError(f"{character.name} has no attack action.")
    if code is None:
        if len(weapons) > 1:
            names = ", ".join(a.code for a in weapons)
            raise RuleError(f"Choose which attack {character.name} uses: {names}.")
        return weapons[0]
    for weapon in weapons:
        if weapon.code == code.lower():
            return weapon
    raise RuleError(f"{character.name} has no attack '{code}'.")


def check_attack(t: Table, seat: str, code: str, target_code: str,
                 weapon_code: Optional[str]) -> tuple[Character, Attack, Character]:
    """(attacker, attack action, target) of an attack `seat` may declare now, or RuleError.
    Changes nothing."""
    character = acting(t, seat, code, action="attack")
    _not_stunned(character, "attack")
    weapon = _weapon(t, character, weapon_code)
    target = t.character(target_code)
    if not target.in_play:
        raise RuleError(f"{target.name} is not in the mission area.")
    if t.friendly(target, character):
        raise RuleError("You cannot attack a friendly character.")
    if not can_target(t, character, weapon, target):
        reason = "is not in an adjacent space" if weapon.melee and not _adjacent(t, character, target) else \
            "cannot be seen (walls, closed doors or friendly characters block the line of sight)"
        raise RuleError(f"{target.name} {reason} from {character.space}.")
    return character, weapon, target


def attack(t: Table, seat: str, code: str, target_code: str, weapon_code: Optional[str]) -> None:
    character, weapon, target = check_attack(t, seat, code, target_code, weapon_code)
    start_action(t)
    t.emit("attack", attacker=character.id, target=target.id, weapon=weapon.name,
           **{"from": character.space, "to": target.space})
    active = t.state.activation.player if t.state.activation else seat
    t.state.roll = Roll(kind="attack", actor=character.id, actor_player=seat, active_player=active,
                        target=target.id, target_player=target.controller, attack=weapon, dice=[],
                        stage="declared")
    cards.open_window(t, "attacked", target)


def roll_attack(t: Table) -> None:
    """The attack's dice are rolled once interrupts before the dice have had their say."""
    roll = t.state.roll
    character, target = t.state.characters[roll.actor], t.state.characters[roll.target]
    weapon = roll.attack
    if not (character.in_play and target.in_play and can_target(t, character, weapon, target)):
        t.state.roll = None  # an interrupt made the attack impossible: it ends unresolved
        t.emit("cancelled", what="attack")
        return
    attack_dice, defense_dice, extra_damage = dice_for_attack(t, character, target, weapon, roll.then or {})
    roll.extra_damage += extra_damage
    roll.then = None
    roll.stage = "rolled"
    roll.dice = sorted(t.state.dice.roll(attack_dice), reverse=True)
    roll.opposing = sorted(t.state.dice.roll(defense_dice), reverse=True)
    open_roll(t, roll)


def dice_for_attack(t: Table, character: Character, target: Character, weapon: Attack, bonus: dict,
                    use: bool = True) -> tuple[int, int, int]:
    """(attack dice, defense dice, extra DAMAGE from events) of this attack rolled now (R17).

    `bonus` holds dice that interrupts added before the roll (`actor_dice`, `target_dice`);
    `use` as in effects.waiting_boosts: without it nothing changes (a preview).
    """
    extra, extra_damage = effects.waiting_boosts(t, character, "attack", use)
    attack_dice = combat.dice_count(effects.rating(t, character, "attack"), weapon.dice, t.has_backup(character),
                                    effects.standing_dice(t, character, "attack"), extra, bonus.get("actor_dice", 0))
    defensive = weapon.melee and any(w.defensive for w in attacks_of(t, target))
    against = "melee" if weapon.melee else "ranged"
    defense_extra, _ = effects.waiting_boosts(t, target, "defense", use)
    defense_dice = combat.dice_count(stunned_defense(effects.rating(t, target, "defense"), target.stun),
                                     target.cover, t.has_backup(target), defensive,
                                     effects.standing_dice(t, target, "defense", against=against),
                                     defense_extra, bonus.get("target_dice", 0))
    return attack_dice, defense_dice, extra_damage


def stunned_defense(defense: int, stun: int) -> int:
    """DEFENSE lowered by the defender's stun tokens, never below 0 (R17); dice from
    cover, backup and cards are added to what is left."""
    return max(0, defense - stun)


def _adjacent(t: Table, a: Character, b: Character) -> bool:
    return t.adjacent(a.space, b.space)


def open_roll(t: Table, roll: Roll) -> None:
    """Put rolled dice on the table and open their re-roll window."""
    roll.window = list(dict.fromkeys(t.side_of(s) for s in (roll.active_player, roll.actor_player, roll.target_player)
                                     if s))
    t.state.roll = roll
    t.emit("rolled", kind=roll.kind, actor=roll.actor, target=roll.target, dice=list(roll.dice),
           opposing=list(roll.opposing))


# --- take cover, special actions, cards instead of actions ----------------------------
def take_cover(t: Table, seat: str, code: str) -> None:
    character = acting(t, seat, code, action="cover")
    _not_stunned(character, "take cover")
    if character.cover:
        raise RuleError(f"{character.name} has already taken cover here.")
    start_action(t)
    character.cover = True
    t.emit("cover", character=character.id)


def recover(t: Table, seat: str, code: str) -> None:
    character = acting(t, seat, code)
    if not character.stun:
        raise RuleError(f"{character.name} has no stun token to recover from.")
    start_action(t)
    character.stun -= 1
    t.emit("recovered", character=character.id, stun=character.stun)


def special_options(t: Table, character: Character) -> list[tuple[str, Optional[str]]]:
    """(action code, challenger or None) pairs the character may take now."""
    if character.stun:
        return []
    options = []
    for code, card, action in cards.special_sources(t, character):
        if _used_up(t, code, action) or not effects.all_hold(t, action.requires, character.controller, character):
            continue
        test = _first_test(action.effects)
        if test is not None and character.incapacitated:
            continue
        if test is not None and test.opposed:
            options += [(code, other) for other in effects.challengers(t, character, action.requires)]
        else:
            options.append((code, None))
    return options


def _used_up(t: Table, code: str, action) -> bool:
    """A special action allowed once an activation that this activation has already taken (R104)."""
    activation = t.state.activation
    return getattr(action, "once", None) == "activation" and activation is not None and code in activation.specials


def _first_test(effect_list):
    return next((e for e in effect_list if isinstance(e, SkillTest)), None)


def check_special(t: Table, seat: str, code: str, action_code: str,
                  challenger: Optional[str]) -> tuple[Character, Optional[str], object]:
    """(character, card or None, special action) of a special action `seat` may take now,
    or RuleError. Changes nothing."""
    character = acting(t, seat, code)
    _not_stunned(character, "take a special action")
    sources = {c: (card, action) for c, card, action in cards.special_sources(t, character)}
    found = sources.get(action_code.lower())
    if found is None:
        raise RuleError(f"{character.name} has no special action '{action_code}'.")
    card, action = found
    if _used_up(t, action_code.lower(), action):
        raise RuleError(f"{action.name} can be taken once in an activation, and this one has taken it.")
    effects.require(t, action.requires, seat, character, action.name)
    test = _first_test(action.effects)
    if challenger is not None and (test is None or not test.opposed):
        raise RuleError(f"{action.name} is not an opposed test; name no challenger.")
    if test is not None and test.opposed:
        rivals = [o for c, o in special_options(t, character) if c == action_code.lower()]
        if not rivals:
            raise RuleError(f"{action.name} is an opposed test: it needs an adjacent hostile challenger.")
        if challenger is not None and t.character(challenger).id not in rivals:
            raise RuleError(f"{action.name} needs an adjacent hostile challenger; {challenger.upper()} is not one.")
    return character, card, action


def special(t: Table, seat: str, code: str, action_code: str, challenger: Optional[str]) -> None:
    character, card, action = check_special(t, seat, code, action_code, challenger)
    start_action(t)
    if getattr(action, "once", None) == "activation" and t.state.activation is not None:
        t.state.activation.specials.append(action_code.lower())
    t.emit("special", character=character.id, action=action_code.lower(), card=card)
    effects.queue_effects(t, seat, card or action.code, character.id, action.effects)
    if challenger is not None:
        t.state.queue[0].data["challenger"] = challenger.upper()


def draw_card(t: Table, seat: str) -> None:
    player = t.state.player(seat)
    if not player.support_deck:
        raise RuleError("Your support deck is empty.")
    start_action(t)
    card = t.draw(player, "support")
    t.emit("drew", seat=seat, count=1, private={seat: [card]})


def cycle(t: Table, seat: str, card: str) -> None:
    player = t.state.player(seat)
    if card.lower() not in player.hand or not t.is_mission(card.lower()):
        raise RuleError(f"You have no mission card '{card}' in your hand.")
    if not player.mission_deck:
        raise RuleError("Your mission deck is empty, so there is nothing to draw in its place.")
    start_action(t)
    t.discard(player, t.remove_from_hand(player, card))
    drawn = t.draw(player, "mission")
    t.emit("cycled", seat=seat, discarded=card.lower(), private={seat: [drawn]})


def pass_action(t: Table, seat: str) -> None:
    start_action(t)
    t.emit("passed", seat=seat)


# --- re-roll windows and resolution ---------------------------------------------------
def window_seats(t: Table) -> Optional[list[str]]:
    """Who may re-roll now (a seat, or the teammates of a team who may), or None when the
    window has closed.

    Sides take turns from the active player's; a player with no card in hand passes
    automatically (hand sizes are public, so this reveals nothing). In a team game any
    teammate may discard to re-roll the team's dice.
    """
    roll = t.state.roll
    while roll.passes < len(roll.window):
        side = roll.window[roll.turn % len(roll.window)]
        seats = [seat for seat in t.seats_of(side)
                 if t.state.player(seat).hand and not t.state.player(seat).passes("reroll")]
        if seats:
            return seats
        roll.passes += 1
        roll.turn += 1
    return None


def roll_side(t: Table, seat: str) -> str:
    """Which dice of the roll are `seat`'s side's: the actor's, or the target's."""
    roll = t.state.roll
    return "actor" if t.side_of(seat) == t.side_of(roll.actor_player) else "target"


def reroll(t: Table, seat: str, card: str, which: list[str]) -> None:
    roll = t.state.roll
    player = t.state.player(seat)
    side = roll_side(t, seat)
    dice = roll.dice if side == "actor" else roll.opposing
    if not dice:
        raise RuleError("You have no dice in this roll to re-roll.")
    if which == ["all"]:
        indices = list(range(len(dice)))
    else:
        try:
            indices = sorted({int(w) - 1 for w in which})
        except ValueError:
            raise RuleError("Name the dice to re-roll by position (1 is the highest) or say 'all'.") from None
        if not indices or indices[0] < 0 or indices[-1] >= len(dice):
            raise RuleError(f"Choose dice between 1 and {len(dice)}.")
    code = t.remove_from_hand(player, card)
    t.discard(player, code)
    before = list(dice)
    fresh = t.state.dice.roll(len(indices))
    for index, face in zip(indices, fresh):
        dice[index] = face
    dice.sort(reverse=True)
    roll.passes = 0
    roll.turn += 1
    t.emit("rerolled", seat=seat, card=code, side=side, indices=indices, before=before, after=list(dice))


def roll_outcome(roll: Roll, dice: list[int], opposing: list[int]) -> list[str]:
    """The outcome of each actor die of this roll, were the dice these faces."""
    unopposed = roll.kind == "skill" and not roll.target
    return combat.unopposed(dice) if unopposed else combat.compare(dice, opposing)


def roll_successes(roll: Roll, dice: list[int], opposing: list[int]) -> int:
    """How many of the actor's dice succeed in this roll, were the dice these faces."""
    return roll_outcome(roll, dice, opposing).count("hit")


def could_improve(roll: Roll, side: str) -> bool:
    """Whether new faces on `side`'s dice ("actor" or "target") could change the roll in
    that side's favour: not when they already give it the best result any faces could
    (every actor die succeeding; for the target, no actor die its dice could still cancel).
    Only the public dice are looked at (ruling P59)."""
    now = roll_successes(roll, roll.dice, roll.opposing)
    if side == "actor":
        return roll_successes(roll, [combat.FACES] * len(roll.dice), roll.opposing) > now
    return roll_successes(roll, roll.dice, [combat.FACES] * len(roll.opposing)) < now


def pass_reroll(t: Table, seat: str) -> None:
    roll = t.state.roll
    roll.passes += 1
    roll.turn += 1
    t.emit("reroll_passed", seat=seat)


def resolve_roll(t: Table) -> None:
    """The window has closed: compare the dice and apply the result."""
    s = t.state
    roll = s.roll
    s.roll = None
    outcome = roll_outcome(roll, roll.dice, roll.opposing)
    successes = outcome.count("hit")
    event = {"kind": roll.kind, "actor": roll.actor, "target": roll.target, "dice": list(roll.dice),
             "opposing": list(roll.opposing), "outcome": outcome, "successes": successes}
    if roll.kind == "skill":
        t.emit("resolved", **event)
        if roll.then:
            effects.resolve_test(t, roll.then, successes)
        return
    target = s.characters[roll.target]
    damage, stun = attack_result(roll.attack, target, successes, roll.extra_damage)
    t.emit("resolved", **event, damage=damage, stun=stun)
    if stun:
        if target.stun < 2:
            target.stun += 1
            t.emit("stunned", character=target.id, stun=target.stun)
        return
    if damage > 0 and target.in_play:
        s.queue.insert(0, Pending(kind="damage", data={
            "character": target.id, "amount": damage,
            "assimilator": roll.actor if roll.attack.assimilate else None}))
        cards.open_window(t, "damaged", target)


def attack_result(weapon: Attack, target: Character, hits: int, extra_damage: int) -> tuple[int, bool]:
    """(damage, stun) of an attack that got `hits` hits on this target: a stun weapon's hits
    on a non-Borg give a stun token instead of any damage (R19)."""
    if hits and weapon.stun and not target.is_borg:
        return 0, True
    return combat.attack_damage(hits, weapon_damage(weapon, target) + extra_damage), False


def weapon_damage(weapon: Attack, target: Character) -> int:
    """The attack's DAMAGE against this target: a stun weapon hitting a Borg is an
    ordinary weapon with +0 DAMAGE, whatever its printed DAMAGE."""
    return 0 if weapon.stun and target.is_borg else weapon.damage


def take_damage(t: Table, target: Character, damage: int, assimilator: Optional[Character]) -> None:
    """Remove pegs: the owner spreads them, or the character is neutralized."""
    if combat.neutralizes(target.ratings, damage):
        neutralize(t, target, assimilator)
        return
    spread = combat.only_spread(target.ratings, damage)
    if spread is not None:
        apply_spread(t, target, spread)
    else:
        t.ask("damage", target.controller, character=target.id, amount=damage)


def apply_spread(t: Table, target: Character, spread: dict[str, int]) -> None:
    for name, amount in spread.items():
        target.ratings[name] -= amount
    t.emit("damaged", character=target.id, reduced=spread)


def allocate(t: Table, seat: str, code: str, parts: list[str]) -> None:
    decision = t.decision
    target = t.character(code)
    if target.id != decision.info["character"]:
        raise RuleError(f"Spread the damage on {t.state.characters[decision.info['character']].name}.")
    spread: dict[str, int] = {}
    for part in parts:
        name, _, amount = part.partition("=")
        name = {"a": "attack", "d": "defense", "s": "skill", "m": "move"}.get(name.lower(), name.lower())
        if name not in target.ratings or not amount.isdigit():
            raise RuleError("Write the reduction like 'attack=1 move=2'.")
        if int(amount):
            spread[name] = spread.get(name, 0) + int(amount)
    if spread not in combat.damage_spreads(target.ratings, decision.info["amount"]):
        raise RuleError(f"Remove exactly {decision.info['amount']} pegs in all, taking no rating below 1.")
    t.state.pending.remove(decision)
    apply_spread(t, target, spread)


def spread_commands(t: Table, code: str, amount: int) -> list[str]:
    target = t.state.characters[code]
    return ["damage " + code + " " + " ".join(f"{k}={v}" for k, v in spread.items())
            for spread in combat.damage_spreads(target.ratings, amount)]


def neutralize(t: Table, target: Character, assimilator: Optional[Character]) -> None:
    # its equipment and traits go to the discard pile of the player who played them: the
    # controller (a drone's Borg cards are the Borg player's, not its owner's)
    holder = t.state.player(target.controller)
    for card in target.equipment + target.traits:
        t.discard(holder, card)
    target.equipment, target.traits = [], []
    if target.assimilated:
        target.status, target.space, target.controller = "returned", None, target.owner
        t.emit("neutralized", character=target.id, returned_to=target.owner)
        return
    if assimilator is not None and not target.is_borg and assimilator.in_play:
        _assimilate(t, target, assimilator)
        return
    target.status, target.space = "neutralized", None
    target.cover, target.stun, target.activated = False, 0, False
    t.emit("neutralized", character=target.id)


def _assimilate(t: Table, target: Character, borg: Character) -> None:
    overlay = t.pack.affiliations[t.state.player(borg.controller).affiliation].assimilation_overlay
    ratings = overlay.ratings.as_dict() if overlay else dict(target.pegs)
    target.controller = borg.controller
    target.assimilated = True
    target.assimilated_by = borg.controller
    target.ratings, target.pegs = dict(ratings), dict(ratings)
    target.attacks = list(overlay.attacks) if overlay else []
    target.activated, target.cover = False, False
    target.stun = 1
    target.space = None
    target.status = "arriving"
    t.state.queue.append(Pending(kind="assimilated", data={"character": target.id, "near": borg.space}))
    t.emit("assimilated", character=target.id, by=borg.id)


def drone_spaces(t: Table, character: Character, near: str) -> list[str]:
    """Where the new drone may be put: adjacent to `near` (same space or one apart) if
    any such space may hold it, otherwise the closest spaces that may."""
    seat = character.controller
    by_distance: dict[int, list[str]] = {}
    with t.still():
        for space in t.geo.spaces:
            if not t.can_hold(space, seat, ignore=character.id):
                continue
            d = t.distance(near, space)
            if d is not None:
                by_distance.setdefault(max(d, 1), []).append(space)
    if not by_distance:
        return []
    return sorted(by_distance[min(by_distance)])


def place_drone(t: Table, seat: str, code: str, space: str) -> None:
    decision = t.decision
    character = t.character(code)
    if character.id != decision.info["character"]:
        raise RuleError(f"Place {decision.info['character']}, the character just assimilated.")
    space = t.space(space)
    if space not in decision.info["spaces"]:
        raise RuleError(f"Put the drone in one of the closest open spaces: {', '.join(decision.info['spaces'])}.")
    t.state.pending.remove(decision)
    _put_drone(t, character, space)


def _put_drone(t: Table, character: Character, space: str) -> None:
    t.relocate(character, space)
    character.status = "in_play"
    t.emit("placed", character=character.id, space=space)


def settle_queue(t: Table) -> None:
    """Do the first piece of queued work: an effect, an interrupt window, damage, a card
    to put away, start-of-round effects, or an assimilated character to put down."""
    item = t.state.queue[0]
    if item.kind == "effects":
        effects.step(t, item)
    elif item.kind == "window":
        cards.next_window_seat(t, item)
    elif item.kind == "card_done":
        cards.finish_card(t, item)
    elif item.kind == "simultaneous":
        cards.next_simultaneous(t, item)
    elif item.kind == "damage":
        t.state.queue.pop(0)
        target = t.state.characters[item.data["character"]]
        borg = t.state.characters.get(item.data["assimilator"] or "")
        if item.data["amount"] > 0 and target.in_play:
            take_damage(t, target, item.data["amount"], assimilator=borg)
    else:
        t.state.queue.pop(0)
        _arrive(t, item)


def _arrive(t: Table, item: Pending) -> None:
    character = t.state.characters[item.data["character"]]
    spaces = drone_spaces(t, character, item.data["near"])
    if not spaces:
        character.status = "returned"
        character.controller = character.owner
        t.emit("neutralized", character=character.id, returned_to=character.owner)
    elif len(spaces) == 1:
        _put_drone(t, character, spaces[0])
    else:
        t.ask("place_drone", character.controller, character=character.id, spaces=spaces)


def actor_available(t: Table) -> bool:
    a = t.state.activation
    character = t.state.characters.get(a.character)
    return character is not None and character.in_play and character.controller == a.player
