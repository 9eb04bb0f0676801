"""The mission: its surface set-up (containers, the parameter, guards, armories) and
winning it by the tier agreed at set-up (N45-N47)."""
from __future__ import annotations

from engine.renegades.contents.content import ARMORY, Pack
from engine.renegades.contents.game import Game
from engine.renegades.contents.state import GameState, Objective
from engine.renegades.surface import gear, home_run, stocking


def set_up(state: GameState, pack: Pack) -> None:
    """Fill the containers from the shuffled search items (the parameter in its own
    container), post the guards (on a built board where it puts them, N127), shuffle the
    surface location deck, stock each armory."""
    mission = pack.missions[state.mission]
    state.surface = mission.surface
    g = Game(state)
    param = mission.parameter
    where, guards = mission.placement(built=bool(state.surface_layout))
    state.objective = Objective(kind=param.kind, name=param.name,
                                cell=None if param.kind == "container" else where,
                                sealed=param.kind == "container")
    stocking.stock(g, guards, where if param.kind == "container" else None)
    state.surface_deck = [loc.code for loc in g.ground.spec.locations]
    state.dice.shuffle(state.surface_deck)
    for ship in state.ships.values():
        if ship.kind == "ship" and ship.id not in state.armory:
            state.armory[ship.id] = list(ARMORY)
            gear.track(state, pack, gear.armory_key(ship.id), state.armory[ship.id])


def check(g: Game) -> None:
    """End the game when the mission is won (or tied) at the agreed tier."""
    s = g.state
    obj = s.objective
    if s.phase == "over" or obj is None:
        return
    reward = g.pack.missions[s.mission].reward
    courier = home_run.delivered(g)
    if courier is not None:  # N172: the run across the home surface ends at the base
        obj.delivered = True
        g.emit("parameter_delivered", crew=courier.id, name=obj.name)
        finish(g, "won", obj.run, {obj.run: reward}, f"{courier.name} delivered {obj.name} to the employer")
        return
    if obj.ship is None:
        return
    ship = s.ships[obj.ship]
    if obj.run and ship.faction != obj.run:
        finish(g, "won", ship.faction, {ship.faction: reward},
               f"the {ship.name}'s crew seized {obj.name} on {g.ground.name}")
    elif s.tier == 1:
        finish(g, "won", ship.faction, {ship.faction: reward}, f"the {ship.name} carried {obj.name} off the surface")
    elif not obj.home and ship.critical:
        finish(g, "tied", None, {"renegade": reward // 2, "coalition": reward // 2},
                f"the {ship.name} was crippled before it reached home with {obj.name}")
    elif s.tier == 2 and obj.home:
        finish(g, "won", ship.faction, {ship.faction: reward}, f"the {ship.name} brought {obj.name} home")


def arrived_home(g: Game, ship) -> None:
    """Tier 2 and 3: the ship carrying the parameter docked at its home."""
    obj = g.state.objective
    if obj is not None and obj.ship == ship.id and not obj.home:
        obj.home = True
        g.emit("parameter_home", ship=ship.id, name=obj.name)


def finish(g: Game, outcome: str, winner, reward: dict, reason: str) -> None:
    """End the mission; in the single-team game a Coalition win is the players' loss."""
    s = g.state
    if s.mode == "coop" and outcome == "won":
        outcome = "won" if winner == "renegade" else "lost"
    game_over(g, {"outcome": outcome, "winner": winner, "tier": s.tier, "reason": reason, "reward": reward})


def game_over(g: Game, result: dict) -> None:
    """The mission ends, and with it the game. The result adds `digits`: what each faction
    earned during the mission besides its `reward` (knock-outs, defeated figures, bounties,
    and the loot its crew still carry, counted now). A campaign reads the final state
    (engine/renegades/campaign/campaign.py, `outcome_of`)."""
    s = g.state
    s.pending, s.current = [], None
    for crew in sorted(s.crew.values(), key=lambda c: c.id):
        for code in [code for code in crew.gear if code in g.pack.search_items and not crew.captive]:
            value = g.pack.search_items[code].value
            crew.gear.remove(code)
            s.digits[crew.faction] = s.digits.get(crew.faction, 0) + value
            g.emit("loot_counted", crew=crew.id, item=code, digits=value)
    s.phase, s.result = "over", {**result, "digits": dict(s.digits)}
    g.emit("game_over", **s.result)
