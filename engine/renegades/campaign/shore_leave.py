"""Shore leave between the missions of a Renegades campaign: landing home, the offers each
player turns over, and each player's private steps (buy, sell, train, recruit, turn or
ransom a prisoner, choose the five who fly, done). Rulings N81, N83-N88."""
from __future__ import annotations

from engine.errors import RuleError
from engine.renegades.campaign import energy
from engine.renegades.campaign.campaign_state import Campaign, Captain, Hand
from engine.renegades.contents.content import Pack
from engine.renegades.setup.setup import stations_for

GEAR_OFFER, UPGRADE_OFFER = 4, 3  # cards each player turns over at shore leave


def require_phase(c: Campaign, phase: str, message: str) -> None:
    """RuleError with `message` unless the campaign is in `phase` (and not over)."""
    if c.phase in ("over", "abandoned"):
        raise RuleError("The campaign is over.")
    if c.phase != phase:
        raise RuleError(message)


def open_shore_leave(c: Campaign, pack: Pack, emit) -> None:
    """N83: every ship lands home, is repaired and its crew healed, revived and retrieved;
    then each player in seat order turns over their gear and upgrade offers (N85)."""
    c.phase = "shore_leave"
    for cap in c.captains:
        healed = [code for code, h in cap.crew.items() if h.wounds or h.ko]
        for hand in [*cap.crew.values(), *cap.brig.values()]:
            hand.wounds, hand.ko = 0, False
        repaired, cap.ship_damage = cap.ship_damage, 0
        cap.ready, cap.tried = False, []
        cap.gear_offer = _turn_over(c, "gear", GEAR_OFFER)
        cap.upgrade_offer = _turn_over(c, "upgrade", UPGRADE_OFFER)
        emit("shore_leave", seat=cap.seat, healed=healed, repaired=repaired)


def _turn_over(c: Campaign, deck: str, count: int) -> list[str]:
    cards = getattr(c, f"{deck}_deck")
    discard = getattr(c, f"{deck}_discard")
    drawn = []
    while len(drawn) < count:
        if not cards:
            if not discard:
                break
            cards.extend(discard)
            discard.clear()
            c.dice.shuffle(cards)
        drawn.append(cards.pop(0))
    return drawn


def _shore(c: Campaign, seat: str) -> Captain:
    require_phase(c, "shore_leave", "That is done on shore leave, between missions.")
    cap = c.captain(seat)
    if cap.ready:
        raise RuleError("You have finished your shore leave.")
    return cap


def _pay(cap: Captain, amount: int, what: str) -> None:
    if cap.digits < amount:
        raise RuleError(f"{what} costs {amount} digits; you have {cap.digits}.")
    cap.digits -= amount


def on_buy(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    cap = _shore(c, seat)
    code = args[0]
    if code not in cap.gear_offer:
        raise RuleError(f"'{code}' is not among your weapons & gear on offer ({', '.join(cap.gear_offer) or 'none'}).")
    gear = pack.gear[code]
    _pay(cap, gear.cost, gear.name)
    cap.gear_offer.remove(code)
    energy.add(cap, pack, code)
    emit("bought", seat=seat, gear=code, cost=gear.cost, private=True)


def sale_price(cost: int) -> int:
    """N88: half the cost, to the nearest 25 (exactly between: up)."""
    return (cost + 25) // 50 * 25


def on_sell(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    cap = _shore(c, seat)
    code = args[0]
    if code not in cap.armory:
        raise RuleError(f"There is no '{code}' in your armory.")
    if code not in pack.gear:
        raise RuleError(f"Nobody in port buys '{code}'.")
    if not energy.usable(cap, code):
        raise RuleError(f"Your {pack.gear[code].name} has no energy token left: nobody buys it until it is "
                        f"recharged (recharge {code}).")
    price = sale_price(pack.gear[code].cost)
    energy.remove(cap, pack, code)
    cap.digits += price
    emit("sold", seat=seat, gear=code, price=price, private=True)


def on_recharge(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N176: buy energy tokens to fill the emptiest copy of a gear that runs down."""
    cap = _shore(c, seat)
    tokens, cost = energy.recharge(cap, pack, args[0], pack.shore_leave.energy)
    emit("recharged", seat=seat, gear=args[0], tokens=tokens, cost=cost, private=True)


def on_train(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """A crew upgrade for one crewmember, or (no crewmember named) a ship component."""
    cap = _shore(c, seat)
    code = args[0].lower()
    if code not in cap.upgrade_offer:
        raise RuleError(f"'{code}' is not among your upgrades on offer ({', '.join(cap.upgrade_offer) or 'none'}).")
    upgrade = pack.upgrades[code]
    if upgrade.target == "ship":
        if len(args) > 1:
            raise RuleError(f"{upgrade.name} is fitted to the ship: train {code}")
        trainee = _commander(c, pack, cap)
    else:
        if len(args) < 2:
            raise RuleError(f"Name the crewmember to train: train {code} CREW")
        trainee = cap.crew.get(args[1].upper())
        if trainee is None:
            raise RuleError(f"{args[1].upper()} is not in your crew.")
        card = pack.crew[trainee.code]
        if upgrade.keyword and upgrade.keyword not in (*card.keywords, *card.stations):
            raise RuleError(f"{upgrade.name} is only for {upgrade.keyword} crew.")
        if code in trainee.upgrades:
            raise RuleError(f"{trainee.name} already has {upgrade.name}.")
    if trainee.xp < upgrade.xp:
        raise RuleError(f"{upgrade.name} needs {upgrade.xp} XP from {trainee.name}, who has {trainee.xp}.")
    _pay(cap, upgrade.cost, upgrade.name)
    trainee.xp -= upgrade.xp
    cap.upgrade_offer.remove(code)
    (cap.ship_upgrades if upgrade.target == "ship" else trainee.upgrades).append(code)
    emit("upgraded", seat=seat, upgrade=code, crew=None if upgrade.target == "ship" else trainee.code,
         cost=upgrade.cost, xp=upgrade.xp, private=True)


def _commander(c: Campaign, pack: Pack, cap: Captain) -> Hand:
    """N86: the crewmember flying at the commander station (it pays a ship upgrade's XP)."""
    stations = stations_for(pack, cap.flying) if len(cap.flying) == 5 else None
    if not stations:
        raise RuleError("Your ship has no commander on its stations; choose your five crew first.")
    return cap.crew[stations["commander"]]


def _capacity(pack: Pack, cap: Captain) -> int:
    return pack.ships[cap.ship].capacity


def _in_campaign(c: Campaign) -> set[str]:
    return {code for cap in c.captains for code in (*cap.crew, *cap.brig)}


def on_recruit(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N84: a crewmember of the ship's faction nobody in the campaign has, for the recruit price."""
    cap = _shore(c, seat)
    code = args[0]
    card = pack.crew.get(code)
    if card is None or card.faction != cap.faction:
        raise RuleError(f"'{code}' is not {cap.faction} crew of the pack.")
    if code in _in_campaign(c):
        raise RuleError(f"{card.name} already serves on a ship or sits in a brig.")
    if len(cap.crew) >= _capacity(pack, cap):
        raise RuleError(f"The {pack.ships[cap.ship].name} is full ({_capacity(pack, cap)} crew).")
    _pay(cap, pack.shore_leave.recruit, f"Recruiting {card.name}")
    cap.crew[code] = Hand(code=code, name=card.name, faction=cap.faction)
    emit("recruited", seat=seat, crew=code, cost=pack.shore_leave.recruit, private=True)


def on_turn(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N87: a leadership test, once a shore leave per prisoner: the captor's highest-initiative
    crewmember against the prisoner, counting 5s and 6s; the captor must roll more."""
    cap = _shore(c, seat)
    code = args[0]
    prisoner = cap.brig.get(code)
    if prisoner is None:
        raise RuleError(f"{code} is not in your brig.")
    if code in cap.tried:
        raise RuleError(f"You already tried to turn {prisoner.name} this shore leave.")
    if len(cap.crew) >= _capacity(pack, cap):
        raise RuleError(f"The {pack.ships[cap.ship].name} is full; a turned prisoner would have no berth.")
    if not cap.crew:
        raise RuleError("Nobody aboard can talk the prisoner round.")
    leader = max(cap.crew.values(), key=lambda h: (pack.crew[h.code].initiative, h.code))
    ours = c.dice.roll(_skill(pack, leader, "leadership"))  # a skill of 0 rolls no dice
    theirs = c.dice.roll(_skill(pack, prisoner, "leadership"))
    if prisoner.turned_from == cap.faction and ours:  # once ours: +5 to one die
        ours[ours.index(min(ours))] += 5
    won = sum(f >= 5 for f in ours) > sum(f >= 5 for f in theirs)
    cap.tried.append(code)
    if won:
        del cap.brig[code]
        prisoner.turned_from = prisoner.faction if prisoner.faction != cap.faction else prisoner.turned_from
        prisoner.faction = cap.faction
        cap.crew[code] = prisoner
    emit("turn_attempt", seat=seat, crew=code, leader=leader.code, ours=ours, theirs=theirs, turned=won)


def _skill(pack: Pack, hand: Hand, skill: str) -> int:
    """A crewmember's skill with its training."""
    bonus = sum(pack.upgrades[u].add for u in hand.upgrades if pack.upgrades[u].skill == skill)
    return getattr(pack.crew[hand.code].skills, skill) + bonus


def on_ransom(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N87: a prisoner is sold back for the ransom price; it returns to its player's roster
    when that player has a berth for it, to the recruiting pool otherwise."""
    cap = _shore(c, seat)
    code = args[0]
    prisoner = cap.brig.pop(code, None)
    if prisoner is None:
        raise RuleError(f"{code} is not in your brig.")
    cap.digits += pack.shore_leave.ransom
    home = next((o for o in c.captains if o.faction == prisoner.faction and o is not cap
                 and len(o.crew) < _capacity(pack, o)), None)
    if home is not None:
        home.crew[code] = prisoner
    emit("ransomed", seat=seat, crew=code, price=pack.shore_leave.ransom, to=home.seat if home else None)


def on_crew(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N81: the five who man the stations on the next mission."""
    cap = _shore(c, seat)
    chosen = list(args)
    for code in chosen:
        if code not in cap.crew:
            raise RuleError(f"{code} is not in your crew.")
    if len(set(chosen)) != 5 or stations_for(pack, chosen) is None:
        raise RuleError("Choose five of your crew, one for each station: commander, navigation, weapons, "
                        "comms and engineering.")
    cap.flying = chosen
    emit("crew_chosen", seat=seat, crew=chosen, private=True)


def on_done(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """Finish shore leave: unbought offers are discarded; the last player done ends shore leave."""
    cap = _shore(c, seat)
    flying = [code for code in cap.flying if code in cap.crew]
    if len(flying) != 5 or stations_for(pack, flying) is None:
        raise RuleError("Your ship cannot fly without five crew, one for each station: "
                        "recruit or turn crew, then choose them with 'crew A B C D E'.")
    c.gear_discard += cap.gear_offer
    c.upgrade_discard += cap.upgrade_offer
    cap.gear_offer, cap.upgrade_offer, cap.ready = [], [], True
    emit("shore_leave_done", seat=seat)
    if all(x.ready for x in c.captains):
        c.phase = "briefing"
        emit("shore_leave_over", next=len(c.played) + 1)
