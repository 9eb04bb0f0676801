"""The Arena scenario's Captains' Battle, as a small game between the two players of a table.

    battle = new_battle({"p1": [("KIRK", 8), ("SULU", 5)], "p2": [("KOR", 7)]}, initiative="p1", seed=3)
    battle, events = apply(battle, "p1", "gather KIRK")   # the planet's raw-materials action
    battle, events = apply(battle, "p1", "end")          # p1 is done with the round
    battle, events = apply(battle, "p2", "end")          # both are: the End Phase, a mission token goes

The space battle itself is played at the table; this module keeps what the scenario adds:
three mission tokens that mark the rounds, away team tokens (the highest-skill captain
without one goes down each time a mission token is removed, all the rest with the last),
raw materials gathered on the planet, and the Captains' Battle once everyone is down.

Commands are text, the same from Discord, tests and scenario files:

| command | who, when |
| --- | --- |
| `gather CAPTAIN` | the captain's player, before the battle: one die per skill point for a captain in the away team, once per captain per round |
| `lost CAPTAIN` | the captain's player, before the battle: the ship was destroyed with the captain still aboard |
| `end` | each player, when done with the round; once both have, its End Phase removes a mission token (ruling L41) |
| `send CAPTAIN` | a player whose highest-skill captains tie: which one goes down |
| `attack` | the player of the captain whose turn it is to attack in the Captains' Battle |
| `assign CAPTAIN` | the defender: the captain who takes all of the attack's damage |

Pure and deterministic: the dice (eight-sided attack dice) live in the state, and a
refused command raises RuleError and leaves the state as it was (`apply` works on a copy).
"""
from __future__ import annotations

from typing import Literal, Optional

import msgspec

from engine.dice import Dice
from engine.errors import RuleError

MISSION_TOKENS = 3
RAW_MATERIALS = 40
ARMED_DICE = 6  # an attack that spends a raw-materials token
UNARMED_DICE = 3
ROLL_OFF_DICE = 5
BONUS_PER_SURVIVOR = 15
NAME_MOST = 40  # a captain's name travels in a button's custom id (100 characters)
SIDES = 8
# The faces of the eight-sided attack die (ruling L26): 3 hits, 1 critical hit, 2 Battle Stations, 2 blanks.
FACES = {1: "hit", 2: "hit", 3: "hit", 4: "critical", 5: "blank", 6: "blank", 7: "battle stations",
         8: "battle stations"}
FACE_NUMBER = {"hit": 1, "critical": 4, "crit": 4, "blank": 5, "battle stations": 7, "bs": 7}


def face_name(face: int) -> str:
    """What an attack die's face shows."""
    return FACES[face]


def damage_of(faces: list[int]) -> int:
    """Hits and critical hits count one damage each."""
    return sum(FACES[f] in ("hit", "critical") for f in faces)


def battle_stations(faces: list[int]) -> int:
    """How many Battle Stations results."""
    return sum(FACES[f] == "battle stations" for f in faces)


class Captain(msgspec.Struct, omit_defaults=True):
    """A captain of one fleet: skill, away team token, raw materials, damage."""

    name: str
    skill: int
    player: str
    away: bool = False
    materials: int = 0
    damage: int = 0
    destroyed: bool = False
    gathered_in: int = 0  # the round it last gathered raw materials
    fires_after_destruction: bool = False  # destroyed by an equal-skill attacker before its attack


class Pending(msgspec.Struct, omit_defaults=True):
    """A decision the battle waits for."""

    kind: Literal["send", "attack", "assign"]
    player: str
    options: list[str] = []
    damage: int = 0


class Result(msgspec.Struct, omit_defaults=True):
    """How the Captains' Battle ended; `bonus` is the Fleet Points each player gets."""

    winner: str
    survivors: dict[str, list[str]] = {}
    bonus: dict[str, int] = {}
    roll_off: list[dict[str, int]] = []


class Battle(msgspec.Struct, omit_defaults=True):
    """The Arena scenario at one table."""

    players: list[str]
    captains: list[Captain]
    initiative: str
    dice: Dice
    round: int = 1
    mission_tokens: int = MISSION_TOKENS
    supply: int = RAW_MATERIALS
    phase: Literal["space", "battle", "over"] = "space"
    pass_number: int = 0
    order: list[str] = []  # this pass's attackers, first to last
    attacked: list[str] = []  # who has attacked in this pass
    pending: list[Pending] = []
    result: Optional[Result] = None
    ended: list[str] = []  # players done with this round; the End Phase waits for both (L41)

    def captain(self, name: str) -> Captain:
        """A captain by name (any case)."""
        wanted = name.strip().lower()
        for c in self.captains:
            if c.name.lower() == wanted:
                return c
        raise RuleError(f"There is no captain called {name.strip()!r} at this table.")

    def fleet(self, player: str, *, alive: bool = True) -> list[Captain]:
        """A player's captains (only those not destroyed, unless told)."""
        return [c for c in self.captains if c.player == player and (not alive or not c.destroyed)]

    def opponent(self, player: str) -> str:
        """The other player."""
        a, b = self.players
        return b if player == a else a


def new_battle(fleets: dict[str, list[tuple[str, int]]], initiative: str, seed: int) -> Battle:
    """The Arena set up: two fleets of (captain, skill), the player with initiative, a seed."""
    if len(fleets) != 2:
        raise RuleError("The Arena is played by two players.")
    if initiative not in fleets:
        raise RuleError("The player with initiative must be one of the two players.")
    captains, seen = [], set()
    for player, fleet in fleets.items():
        if not fleet:
            raise RuleError("Each fleet needs at least one captain.")
        for name, skill in fleet:
            name = name.strip()
            if not name or name.lower() in seen or len(name) > NAME_MOST:
                raise RuleError(f"Each captain needs a name of its own, up to {NAME_MOST} characters "
                                f"({name!r} is empty, too long or taken).")
            if not 1 <= skill <= 12:
                raise RuleError(f"{name}'s skill must be between 1 and 12.")
            seen.add(name.lower())
            captains.append(Captain(name=name, skill=skill, player=player))
    return Battle(players=list(fleets), captains=captains, initiative=initiative, dice=Dice.seeded(seed))


def apply(battle: Battle, player: str, command: str) -> tuple[Battle, list[dict]]:
    """The battle after `player`'s command, and what happened; RuleError leaves `battle` as it was."""
    state = msgspec.convert(msgspec.to_builtins(battle), Battle)
    if player not in state.players:
        raise RuleError("Only the two players at this table take part.")
    verb, _, rest = command.strip().partition(" ")
    handler = _HANDLERS.get(verb.lower())
    if handler is None:
        raise RuleError(f"Unknown command {verb!r}; try: {', '.join(legal_commands(battle, player)) or 'nothing now'}.")
    events: list[dict] = []
    handler(state, player, rest.strip(), events)
    return state, events


def awaited(battle: Battle) -> list[str]:
    """The players the battle waits for (before the battle: whoever has not ended the round)."""
    if battle.pending:
        return sorted({p.player for p in battle.pending})
    return [p for p in battle.players if p not in battle.ended] if battle.phase == "space" else []


def legal_commands(battle: Battle, player: str) -> list[str]:
    """Every command `player` may send now."""
    if battle.phase == "over" or player not in battle.players:
        return []
    mine = [p for p in battle.pending if p.player == player]
    if battle.pending:
        if not mine:
            return []
        decision = mine[0]
        if decision.kind == "attack":
            return ["attack"]
        return [f"{decision.kind} {name}" for name in decision.options]
    lost = [f"lost {c.name}" for c in battle.fleet(player) if not c.away]
    if player in battle.ended:
        return lost  # a ship can still go down in the opponent's attacks
    gather = [f"gather {c.name}" for c in battle.fleet(player) if c.away and c.gathered_in != battle.round]
    return gather + lost + ["end"]


# ---- before the battle ---------------------------------------------------------------------


def _space_phase(battle: Battle) -> None:
    if battle.phase != "space":
        raise RuleError("The Captains' Battle has begun: that was for the battle in space before it.")
    if battle.pending:
        who = ", ".join(p.player for p in battle.pending)
        raise RuleError(f"Waiting for {who} to choose which captain goes down to the planet.")


def _own_captain(battle: Battle, player: str, name: str) -> Captain:
    if not name:
        raise RuleError("Name one of your captains.")
    captain = battle.captain(name)
    if captain.player != player:
        raise RuleError(f"{captain.name} is not one of your captains.")
    if captain.destroyed:
        raise RuleError(f"{captain.name} has been destroyed.")
    return captain


def _gather(battle: Battle, player: str, name: str, events: list[dict]) -> None:
    _space_phase(battle)
    if player in battle.ended:
        raise RuleError(f"You have ended round {battle.round}: your actions wait for the next round.")
    captain = _own_captain(battle, player, name)
    if not captain.away:
        raise RuleError(f"{captain.name} is not in your away team yet: only captains on the planet gather.")
    if captain.gathered_in == battle.round:
        raise RuleError(f"{captain.name} has already gathered raw materials this round.")
    faces = battle.dice.roll(captain.skill, SIDES)
    found = max(1, battle_stations(faces))
    taken = min(found, battle.supply)
    battle.supply -= taken
    captain.materials += taken
    captain.gathered_in = battle.round
    events.append({"type": "rolled", "why": "gather", "player": player, "captain": captain.name,
                   "faces": [face_name(f) for f in faces]})
    events.append({"type": "gathered", "captain": captain.name, "tokens": taken, "found": found,
                   "supply": battle.supply})


def _lost(battle: Battle, player: str, name: str, events: list[dict]) -> None:
    _space_phase(battle)
    captain = _own_captain(battle, player, name)
    if captain.away:
        raise RuleError(f"{captain.name} is on the planet: a captain in the away team survives the loss of the ship.")
    if len(battle.fleet(player)) == 1:
        raise RuleError("That is your last captain: the game ends at the table, not in the Captains' Battle.")
    captain.destroyed = True
    events.append({"type": "destroyed", "captain": captain.name, "why": "ship destroyed"})


def _end(battle: Battle, player: str, rest: str, events: list[dict]) -> None:
    """A player is done with the round; when both are, its End Phase (ruling L41)."""
    _space_phase(battle)
    if rest:
        raise RuleError("'end' takes nothing after it.")
    if player in battle.ended:
        raise RuleError(f"You have already ended round {battle.round}; it ends when your opponent ends it too.")
    battle.ended.append(player)
    events.append({"type": "ended", "player": player, "round": battle.round})
    if len(battle.ended) < len(battle.players):
        return
    battle.ended = []
    battle.mission_tokens -= 1
    events.append({"type": "mission_token", "round": battle.round, "left": battle.mission_tokens})
    battle.round += 1
    if battle.mission_tokens == 0:
        for captain in battle.captains:
            if not captain.destroyed and not captain.away:
                _send(battle, captain, events)
        _begin_battle(battle, events)
        return
    for seat in battle.players:
        waiting = [c for c in battle.fleet(seat) if not c.away]
        if not waiting:
            continue
        top = max(c.skill for c in waiting)
        tied = [c for c in waiting if c.skill == top]
        if len(tied) == 1:
            _send(battle, tied[0], events)
        else:
            battle.pending.append(Pending(kind="send", player=seat, options=[c.name for c in tied]))


def _send(battle: Battle, captain: Captain, events: list[dict]) -> None:
    captain.away = True
    events.append({"type": "away_team", "captain": captain.name, "player": captain.player})


def _choose_sent(battle: Battle, player: str, name: str, events: list[dict]) -> None:
    decision = next((p for p in battle.pending if p.kind == "send" and p.player == player), None)
    if decision is None:
        raise RuleError("No captain of yours is waiting to be chosen for the away team.")
    captain = _own_captain(battle, player, name)
    if captain.name not in decision.options:
        raise RuleError(f"Choose one of your highest-skill captains: {', '.join(decision.options)}.")
    battle.pending.remove(decision)
    _send(battle, captain, events)


# ---- the Captains' Battle ----------------------------------------------------------------


def attack_order(battle: Battle) -> list[str]:
    """This pass's attackers: highest skill first; at equal skill the player with initiative
    first, and a player's own equals in the order they were listed (ruling L26)."""
    first = battle.initiative
    alive = [c for c in battle.captains if not c.destroyed]
    ranked = sorted(enumerate(alive), key=lambda ic: (-ic[1].skill, ic[1].player != first, ic[0]))
    return [c.name for _i, c in ranked]


def _begin_battle(battle: Battle, events: list[dict]) -> None:
    battle.phase = "battle"
    events.append({"type": "battle_begins"})
    _new_pass(battle, events)


def _new_pass(battle: Battle, events: list[dict]) -> None:
    battle.pass_number += 1
    battle.order = attack_order(battle)
    battle.attacked = []
    events.append({"type": "pass", "number": battle.pass_number, "order": list(battle.order)})
    _next_attacker(battle, events)


def _next_attacker(battle: Battle, events: list[dict]) -> None:
    """Wait for the next captain's attack, start a new pass, or end the battle."""
    if _settle(battle, events):
        return
    for name in battle.order:
        captain = battle.captain(name)
        if name in battle.attacked or (captain.destroyed and not captain.fires_after_destruction):
            continue
        battle.pending = [Pending(kind="attack", player=captain.player, options=[captain.name])]
        return
    _new_pass(battle, events)


def _attack(battle: Battle, player: str, rest: str, events: list[dict]) -> None:
    decision = battle.pending[0] if battle.pending else None
    if battle.phase != "battle" or decision is None or decision.kind != "attack":
        raise RuleError("There is no attack to make now.")
    if decision.player != player:
        raise RuleError(f"It is {decision.options[0]}'s attack, not one of yours.")
    attacker = battle.captain(decision.options[0])
    if rest and rest.lower() != attacker.name.lower():
        raise RuleError(f"It is {attacker.name}'s turn to attack.")
    armed = attacker.materials > 0
    if armed:
        attacker.materials -= 1
    faces = battle.dice.roll(ARMED_DICE if armed else UNARMED_DICE, SIDES)
    damage = damage_of(faces)
    battle.attacked.append(attacker.name)
    if attacker.fires_after_destruction:
        attacker.fires_after_destruction = False
    events.append({"type": "rolled", "why": "attack", "player": player, "captain": attacker.name,
                   "armed": armed, "faces": [face_name(f) for f in faces], "damage": damage})
    defender = battle.opponent(player)
    targets = [c.name for c in battle.fleet(defender)]
    battle.pending = []
    if damage and targets:
        battle.pending = [Pending(kind="assign", player=defender, options=targets, damage=damage)]
        return
    _next_attacker(battle, events)


def _assign(battle: Battle, player: str, name: str, events: list[dict]) -> None:
    decision = battle.pending[0] if battle.pending else None
    if decision is None or decision.kind != "assign":
        raise RuleError("There is no damage to assign now.")
    if decision.player != player:
        raise RuleError("The defender assigns the damage.")
    target = _own_captain(battle, player, name)
    attacker = battle.captain(battle.attacked[-1])
    target.damage += decision.damage
    events.append({"type": "damaged", "captain": target.name, "damage": decision.damage, "total": target.damage})
    if target.damage >= target.skill:
        target.destroyed = True
        # The simultaneous attack rule: an equal-skill captain that has not attacked yet still does.
        target.fires_after_destruction = target.skill == attacker.skill and target.name not in battle.attacked
        events.append({"type": "destroyed", "captain": target.name, "why": "damage",
                       "still_attacks": target.fires_after_destruction})
    battle.pending = []
    _next_attacker(battle, events)


def _settle(battle: Battle, events: list[dict]) -> bool:
    """End the battle once a fleet is gone and no simultaneous attack is left to make."""
    if any(c.fires_after_destruction for c in battle.captains):
        return False
    standing = {p: battle.fleet(p) for p in battle.players}
    if all(standing.values()):
        return False
    alive = [p for p in battle.players if standing[p]]
    if alive:
        winner, throws = alive[0], []
    else:
        winner, throws = _roll_off(battle)
    survivors = {p: [c.name for c in standing[p]] for p in battle.players}
    battle.result = Result(winner=winner, survivors=survivors, roll_off=throws,
                           bonus={p: BONUS_PER_SURVIVOR * len(survivors[p]) for p in battle.players})
    battle.phase = "over"
    battle.pending = []
    events.append({"type": "battle_over", "winner": winner, "survivors": survivors,
                   "bonus": dict(battle.result.bonus), "roll_off": throws})
    return True


def _roll_off(battle: Battle) -> tuple[str, list[dict[str, int]]]:
    """Both fleets destroyed at once: five dice each, most Battle Stations wins; level throws again."""
    throws = []
    while True:
        throw = {p: battle_stations(battle.dice.roll(ROLL_OFF_DICE, SIDES)) for p in battle.players}
        throws.append(throw)
        a, b = battle.players
        if throw[a] != throw[b]:
            return (a if throw[a] > throw[b] else b), throws


_HANDLERS = {"gather": _gather, "lost": _lost, "end": _end, "send": _choose_sent, "attack": _attack,
             "assign": _assign}


def parse_fleet(text: str) -> list[tuple[str, int]]:
    """Captains from text: "Kirk 8, Sulu 5" (NAME SKILL, separated by commas or ';')."""
    fleet = []
    for part in filter(str.strip, text.replace(";", ",").split(",")):
        name, _, skill = part.strip().rpartition(" ")
        if not name or not skill.isdigit():
            raise RuleError(f"Cannot read {part.strip()!r}: write each captain as NAME SKILL.")
        fleet.append((name.strip(), int(skill)))
    return fleet


def to_json(battle: Battle) -> bytes:
    """The battle as JSON."""
    return msgspec.json.encode(battle)


def from_json(data: bytes | str) -> Battle:
    """A battle back from `to_json`."""
    return msgspec.json.decode(data, type=Battle)
