"""A Renegades campaign: a series of missions whose crews, gear, upgrades, prisoners and
Digits carry over, with shore leave between missions and an epic ending after the last.

The campaign sits above single games: `mission_config` makes an ordinary Renegades game
config from the campaign, and `outcome_of` reads what carries over from that game's final
state, whatever the game reports. Commands are text, like a game's:

    campaign = new_campaign(config, seed)
    campaign, events = apply(campaign, "p1", "launch")            # the next mission is drawn
    game = rules.new_game(mission_config(campaign), campaign.mission_seed)
    ...
    campaign, events = apply(campaign, "p1", "finish", outcome_of(final_game_state))
    campaign, events = apply(campaign, "p2", "buy scatter-rifle")  # shore leave, each player alone
    campaign, events = apply(campaign, "p2", "done")

An illegal command raises RuleError and leaves the campaign as it was. Rulings N80-N89 and
N95-N97 (docs/rulings.md) decide what the rulebook leaves open. The state is in
campaign_state.py, the shore leave steps in shore_leave.py.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Optional

import msgspec

from engine import command_text
from engine.packs import pack_ref
from engine.dice import Dice
from engine.errors import PackError, RuleError
from engine.renegades.campaign import energy
from engine.renegades.campaign.campaign_state import (Campaign, Captain, Hand, Mission, clone, from_json,  # noqa: F401
                                             to_builtins, to_json)
from engine.renegades.campaign.shore_leave import (on_buy, on_crew, on_done, on_ransom, on_recharge,  # noqa: F401
                                                   on_recruit, on_sell, on_train, on_turn, open_shore_leave,
                                                   require_phase, sale_price)
from engine.renegades.contents.content import ARMORY, FACTIONS, Pack, load_pack
from engine.renegades.setup.setup import MODES, default_crew, _ship_for, check_boards, check_world_cards, stations_for
from engine.renegades.surface import gear

__all__ = ["new_campaign", "mission_config", "outcome_of", "apply", "parse", "canonical", "awaited", "view_for",
           "sale_price", "Campaign", "Captain", "Hand", "Mission", "to_json", "from_json", "clone"]
MISSIONS_AGREED = (3, 4, 5)


def _pack(path: str) -> Pack:
    try:
        return load_pack(path)
    except PackError as error:
        raise RuleError(f"The content pack cannot be used: {error}") from error


# --- a new campaign --------------------------------------------------------------------------------
def new_campaign(config: dict[str, Any], seed: int) -> Campaign:
    """A campaign ready for its first mission. RuleError when the config cannot be played.

    config: pack, title (a campaign title of the pack), missions (3-5), mode (versus | coop),
    tier, world_cards, quick (every mission the quicker game, landed from the start), boards
    (fixed, or every mission's boards built from location cards),
    players [{seat, name, faction, ship, crew: [5 codes]}].
    """
    pack = _pack(config.get("pack") or "content/renegades")
    title = str(config.get("title") or "")
    if title not in pack.campaigns:
        raise RuleError(f"The campaign title is one of {', '.join(pack.campaigns)}, not '{title}'.")
    planned = int(config.get("missions") or 3)
    if planned not in MISSIONS_AGREED:
        raise RuleError("A campaign is three, four or five missions.")
    deck = [code for code, m in pack.missions.items() if title in m.campaigns]
    if not deck:
        raise RuleError(f"No mission of the pack bears the title {pack.campaigns[title].name}.")
    mode = config.get("mode", "versus")
    if mode not in MODES:
        raise RuleError(f"Mode is one of {', '.join(MODES)}, not '{mode}'.")
    specs = config.get("players") or []
    if not 1 <= len(specs) <= 4:
        raise RuleError("A Renegades campaign is for one to four players.")
    check_world_cards(pack, bool(config.get("quick")), int(config.get("world_cards", 6)))
    check_boards(config.get("boards", "fixed"))
    dice = Dice.seeded(seed)
    campaign = Campaign(pack=pack_ref(pack.path), seed=seed, dice=dice, title=title, planned=planned, mode=mode,
                        captains=[], tier=int(config.get("tier", 1)), world_cards=int(config.get("world_cards", 6)),
                        quick=bool(config.get("quick")), boards=config.get("boards", "fixed"))
    taken: set[str] = set()
    ships: set[str] = set()
    for index, spec in enumerate(specs):
        faction = spec.get("faction") or ("renegade" if mode == "coop" or index % 2 == 0 else "coalition")
        if faction not in FACTIONS or (mode == "coop" and faction != "renegade"):
            raise RuleError("In the co-operative campaign every player flies a Renegade ship."
                            if faction in FACTIONS else f"A faction is renegade or coalition, not '{faction}'.")
        ship = _ship_for(pack, faction, spec.get("ship"), ships)
        crew = [str(c).upper() for c in spec.get("crew") or default_crew(pack, faction, taken) or []]
        _check_first_crew(pack, faction, crew, taken)  # N95
        taken.update(crew)
        captain = Captain(
            seat=spec["seat"], name=spec.get("name", spec["seat"]), faction=faction, ship=ship,
            crew={c: Hand(code=c, name=pack.crew[c].name, faction=faction) for c in crew}, flying=crew,
            digits=pack.shore_leave.starting_digits)
        for code in ARMORY:  # the set-up armory (N28)
            energy.add(captain, pack, code)
        campaign.captains.append(captain)
    if mode == "versus" and len({c.faction for c in campaign.captains}) < 2:
        raise RuleError("Coalition against Renegades needs a player on each side.")
    dice.shuffle(deck)
    campaign.deck = deck
    campaign.gear_deck = [code for code, g in pack.gear.items() for _ in range(g.count)]
    campaign.upgrade_deck = list(pack.upgrades)
    dice.shuffle(campaign.gear_deck)
    dice.shuffle(campaign.upgrade_deck)
    return campaign


def _check_first_crew(pack: Pack, faction: str, crew: list[str], taken: set[str]) -> None:
    for code in crew:
        if code not in pack.crew or pack.crew[code].faction != faction:
            raise RuleError(f"'{code}' is not {faction} crew of the pack.")
        if code in taken:
            raise RuleError(f"{code} already serves on another ship.")
    if len(crew) != 5 or len(set(crew)) != 5 or stations_for(pack, crew) is None:
        raise RuleError("The first mission of a campaign flies exactly five crew, one for each station: "
                        "commander, navigation, weapons, comms and engineering.")


# --- a mission: out to the game and back ----------------------------------------------------------
def mission_config(campaign: Campaign) -> dict[str, Any]:
    """The config of the Renegades game for the mission being played: each player's flying
    crew with their turned crew and upgrades (the game applies them), and the armory under
    `campaign.carried` (the game stocks the ship's surface armory with its weapons, spent
    gear left in port, N175; the weapons the ship brings home replace them in the
    campaign's armory afterwards, N125), with the tokens on each flying copy of the gear
    used by command (`energy`, N181)."""
    if campaign.phase != "mission" or campaign.current is None:
        raise RuleError("No mission is under way.")
    pack = _pack(campaign.pack)
    players = [{"seat": c.seat, "name": c.name, "faction": c.faction, "ship": c.ship, "crew": list(c.flying),
                "turned": [code for code in c.flying if c.crew[code].turned_from],
                "upgrades": {code: list(c.crew[code].upgrades) for code in c.flying if c.crew[code].upgrades},
                "ship_upgrades": list(c.ship_upgrades)} for c in campaign.captains]
    carried = {c.seat: {"armory": energy.flying(c), "energy": energy.in_flight(c, pack)} for c in campaign.captains}
    return {"pack": campaign.pack, "mode": campaign.mode, "tier": campaign.tier, "world_cards": campaign.world_cards,
            "quick": campaign.quick, "boards": campaign.boards, "mission": campaign.current, "players": players,
            "campaign": {"title": campaign.title, "mission": len(campaign.played) + 1, "carried": carried}}


def outcome_of(final_state: Any) -> dict[str, Any]:
    """What carries over from a finished Renegades game (its state, or that state as plain
    data): the result, the digits each faction earned (the reward and what the surface
    brought: knock-outs, figures, bounties, loot), and each crewmember's condition: wounds
    and knock-out, the ship holding it captive, the ship it serves once turned; and the
    surface weapons (`weapons`) and gear items (`items`, with `energy`: the tokens on the
    copies used by command) each ship brings home (N125, N181).
    Fields a game does not report are left out, and the campaign keeps what it had (a game
    stored before gear items flew reports no `items`: they stayed in port)."""
    state = final_state if isinstance(final_state, dict) else msgspec.to_builtins(final_state)
    result = state.get("result") or {}
    ships = state.get("ships") or {}
    crew = {}
    for code, c in (state.get("crew") or {}).items():
        captive = bool(c.get("captive"))
        crew[code] = {"wounds": c.get("wounds", 0), "ko": bool(c.get("ko", False)),
                      "held_by": c.get("ship") if captive else None,
                      "turned_to": c.get("ship") if c.get("turned_from") and not captive else None}
    return {"mission": state.get("mission"), "over": state.get("phase") == "over",
            "outcome": result.get("outcome", "unfinished"), "winner": result.get("winner"),
            "digits": _faction_digits(result), "crew": crew,
            "ships": {code: s.get("damage", 0) for code, s in ships.items() if s.get("kind") == "ship"},
            **_gear_home(state)}


def _gear_home(state: dict) -> dict[str, dict]:
    """N125, N181: what each ship brings home: what is left in its armory and what its crew
    carry, wherever they are (a prisoner's goes to the ship holding it): `weapons`, and
    `items` with the tokens on the copies used by command (`energy`) when any item flew."""
    if not state.get("pack") or "armory" not in state:
        return {}
    pack = load_pack(state["pack"])
    tokens = state.get("energy") or {}
    holders = {ship: [(gear.armory_key(ship), left)] for ship, left in state["armory"].items()}
    for code in sorted(state.get("crew") or {}):
        member = state["crew"][code]
        if member.get("ship") in holders:
            holders[member["ship"]].append((code, member.get("gear", [])))
    home: dict[str, dict] = {"weapons": {}, "items": {}, "energy": {}}
    for ship, held in holders.items():
        home["weapons"][ship] = [w for _, codes in held for w in codes if w in pack.weapons]
        home["items"][ship] = [x for _, codes in held for x in codes if gear.item(pack, x)]
        found: dict[str, list[int]] = {}
        for holder, _ in held:
            for code, copies in tokens.get(holder, {}).items():
                found.setdefault(code, []).extend(copies)
        home["energy"][ship] = {code: sorted(copies, reverse=True) for code, copies in sorted(found.items())}
    if not state.get("items_fly") and not _item_anywhere(state, pack, home):
        del home["items"], home["energy"]  # a game stored before items flew: they stayed in port
    return home


def _item_anywhere(state: dict, pack: Pack, home: dict) -> bool:
    """Whether a game stored before `items_fly` was recorded holds a gear item, coming home or lying on the surface."""
    lying = [x for items in (state.get("dropped") or {}).values() for x in items if gear.item(pack, x)]
    return bool(lying) or any(home["items"].values())


def _faction_digits(result: dict) -> dict[str, int]:
    """Digits each faction earned: the mission's reward and what the game counted (knock-outs, loot)."""
    total: dict[str, int] = {}
    for part in (result.get("reward"), result.get("digits")):
        if isinstance(part, dict):
            for faction, amount in part.items():
                total[faction] = total.get(faction, 0) + int(amount)
    return total


# --- commands ----------------------------------------------------------------------------------------
def _on_launch(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """Draw the next mission (N80) and the seed of its game."""
    require_phase(c, "briefing", "A mission can be launched only between missions, once shore leave is over.")
    if not c.deck:
        c.deck = [m.mission for m in c.played]
        c.dice.shuffle(c.deck)
        emit("mission_deck_reshuffled", count=len(c.deck))
    c.current = c.deck.pop(0)
    c.mission_seed = c.dice.below(1 << 62)
    c.phase = "mission"
    emit("mission_launched", number=len(c.played) + 1, of=c.planned, mission=c.current)


def _on_finish(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """Take what carries over from the mission's final state, then shore leave or the ending."""
    require_phase(c, "mission", "No mission is under way.")
    if not isinstance(outcome, dict) or not outcome.get("over"):
        raise RuleError("The mission's game is not over yet.")
    if outcome.get("mission") != c.current:
        raise RuleError(f"That game played {outcome.get('mission')}, not the campaign's mission {c.current}.")
    by_ship = {cap.ship: cap for cap in c.captains}
    record = Mission(number=len(c.played) + 1, mission=c.current, outcome=outcome["outcome"],
                     winner=outcome.get("winner"), digits=_share(c, outcome["digits"]))
    for cap in c.captains:
        cap.digits += record.digits.get(cap.seat, 0)
        cap.earned += record.digits.get(cap.seat, 0)
        cap.won += record.winner == cap.faction
        cap.ship_damage = outcome["ships"].get(cap.ship, cap.ship_damage)
        for code in cap.flying:  # N86: every crewmember who flew learns from it
            if code in cap.crew:
                cap.crew[code].xp += 1 + (record.winner == cap.faction)
    _carry_crew(c, pack, outcome, by_ship, emit)
    for cap in c.captains:
        if cap.ship in outcome.get("weapons", {}):
            _restock(cap, pack, outcome, emit)
    c.played.append(record)
    c.current, c.mission_seed = None, None
    emit("mission_recorded", number=record.number, mission=record.mission, outcome=record.outcome,
         winner=record.winner, digits=record.digits)
    _pay_for_failure(c, pack, record, emit)
    if len(c.played) >= c.planned:
        _conclude(c, pack, emit)
    else:
        open_shore_leave(c, pack, emit)


def _pay_for_failure(c: Campaign, pack: Pack, record: Mission, emit) -> None:
    """N216: when a side won the mission, each player of the other side pays the pack's
    `shore_leave.failure`, as far as its digits go; a tie or an unfinished mission costs nothing."""
    if record.winner is None or not pack.shore_leave.failure:
        return
    for cap in c.captains:
        if cap.faction != record.winner:
            paid = min(cap.digits, pack.shore_leave.failure)
            cap.digits -= paid
            emit("mission_failed", seat=cap.seat, paid=paid)


def _restock(cap: Captain, pack: Pack, outcome: dict, emit) -> None:
    """N125: the campaign's armory holds the weapons and gear items the ship brought home,
    beside the spent gear, which stayed in port (and the items, when the game reports none
    flying); what was found or lost is told. N174: each copy that flew and came home spends
    an energy token, but for the gear used by command, which comes home with the tokens the
    game left on it (N181)."""
    items = outcome.get("items", {}).get(cap.ship)
    back = outcome["weapons"][cap.ship] + (items or [])
    flew = Counter(x for x in energy.flying(cap) if x in pack.weapons or items is not None)
    by_use = {code for code in flew + Counter(back) if pack.used_by_command(code)} \
        if items is not None else set()
    before = {code: list(cap.energy.get(code, [])) for code in by_use}
    found, lost = sorted((Counter(back) - flew).elements()), sorted((flew - Counter(back)).elements())
    for code in lost:
        energy.remove(cap, pack, code)
    tokens = energy.spend(cap, Counter({k: n for k, n in (flew - Counter(lost)).items() if k not in by_use}))
    for code in found:
        energy.add(cap, pack, code)
    for code in sorted(by_use):
        in_port = [t for t in before[code] if not t]
        now = energy.settle(cap, code, in_port + outcome["energy"][cap.ship].get(code, []))
        if now != before[code]:
            tokens[code] = now
    if found or lost:
        emit("armory_changed", seat=cap.seat, found=found, lost=lost)
    if tokens:
        emit("energy_spent", seat=cap.seat, tokens=tokens, private=True)


def _share(c: Campaign, by_faction: dict[str, int]) -> dict[str, int]:
    """N82: a faction's digits are split evenly among its players, the odd ones to the first seat."""
    shares: dict[str, int] = {}
    for faction, amount in by_faction.items():
        seats = [cap.seat for cap in c.captains if cap.faction == faction]
        if not seats or amount <= 0:
            continue
        each, odd = divmod(amount, len(seats))
        for i, seat in enumerate(seats):
            shares[seat] = each + (odd if i == 0 else 0)
    return shares


def _carry_crew(c: Campaign, pack: Pack, outcome: dict, by_ship: dict[str, Captain], emit) -> None:
    """Wounds and knock-outs stand; crew held captive aboard a player's ship go to its brig,
    crew turned in its brig during the mission join its roster (N87)."""
    for code, seen in outcome["crew"].items():
        owner = next((cap for cap in c.captains if code in cap.crew), None)
        prisoner_of = next((cap for cap in c.captains if code in cap.brig), None)
        hand = owner.crew[code] if owner else prisoner_of.brig[code] if prisoner_of else None
        if hand is not None:
            hand.wounds, hand.ko = seen["wounds"], seen["ko"]
        turned_to = by_ship.get(seen.get("turned_to") or "")
        if turned_to is not None and turned_to is not owner:
            _join_turned(c, pack, code, seen, turned_to, owner, emit)
            continue
        captor = by_ship.get(seen["held_by"]) if seen["held_by"] else None
        if seen["held_by"] is None or owner is None and captor is None:
            continue
        if captor is None:  # held by an NPC ship: lost to the campaign, back in the recruiting pool
            del owner.crew[code]
            owner.flying = [x for x in owner.flying if x != code]
            emit("crew_lost", seat=owner.seat, crew=code)
            continue
        if owner is captor or code in captor.brig:
            continue
        if owner is not None:
            del owner.crew[code]
            owner.flying = [x for x in owner.flying if x != code]
        captive = hand or Hand(code=code, name=pack.crew[code].name, faction=pack.crew[code].faction,
                               wounds=seen["wounds"], ko=seen["ko"])
        captor.brig[code] = captive
        emit("prisoner_taken", seat=captor.seat, crew=code, from_seat=owner.seat if owner else None)


def _join_turned(c: Campaign, pack: Pack, code: str, seen: dict, captor: Captain, owner: Optional[Captain],
                 emit) -> None:
    """A prisoner turned during the mission (N37) serves its captor from now on, turned from
    its faction, if a berth is free; otherwise it stays in the captor's brig (N87)."""
    hand = owner.crew.pop(code) if owner else None
    if owner is not None:
        owner.flying = [x for x in owner.flying if x != code]
    card = pack.crew[code]
    hand = hand or Hand(code=code, name=card.name, faction=card.faction, wounds=seen["wounds"], ko=seen["ko"])
    if len(captor.crew) >= pack.ships[captor.ship].capacity:
        captor.brig[code] = hand
        emit("prisoner_taken", seat=captor.seat, crew=code, from_seat=owner.seat if owner else None)
        return
    if hand.faction != captor.faction:
        hand.turned_from, hand.faction = hand.faction, captor.faction
    captor.crew[code] = hand
    emit("crew_turned", seat=captor.seat, crew=code, from_seat=owner.seat if owner else None)


def _on_abandon(c: Campaign, pack: Pack, seat: str, args: list[str], outcome, emit) -> None:
    """N96: any player may abandon the campaign; it ends without an ending."""
    if c.phase in ("over", "abandoned"):
        raise RuleError("The campaign is over.")
    c.phase = "abandoned"
    emit("campaign_abandoned", seat=seat, after=len(c.played))


def _conclude(c: Campaign, pack: Pack, emit) -> None:
    """N89: no shore leave after the final mission; the title's epic ending names the victor."""
    title = pack.campaigns[c.title]
    ending = title.ending
    if ending.kind == "showdown":
        sides = {f: (sum(x.won for x in c.captains if x.faction == f), sum(x.earned for x in c.captains if x.faction == f))
                 for f in FACTIONS if any(x.faction == f for x in c.captains)}
        ranked = sorted(sides.items(), key=lambda kv: kv[1], reverse=True)
        tied = len(ranked) > 1 and ranked[0][1] == ranked[1][1]
        victor = None if tied else ranked[0][0]
        seats = [x.seat for x in c.captains if x.faction == victor]
    else:
        key: Callable[[Captain], tuple] = (lambda x: (x.earned,)) if ending.kind == "alliance" else (
            lambda x: (x.won, x.earned))
        best = max(key(x) for x in c.captains)
        seats = [x.seat for x in c.captains if key(x) == best]
        victor = seats[0] if len(seats) == 1 else None
    c.phase = "over"
    c.ending = {"title": c.title, "ending": ending.name, "kind": ending.kind, "victor": victor, "seats": seats}
    emit("epic_ending", **c.ending)


Handler = Callable[[Campaign, Pack, str, list[str], Optional[dict], Callable], None]
COMMANDS: dict[str, tuple[Handler, str, int, int]] = {
    "launch": (_on_launch, "launch", 0, 0),
    "finish": (_on_finish, "finish", 0, 0),
    "buy": (on_buy, "buy GEAR", 1, 1),
    "sell": (on_sell, "sell GEAR", 1, 1),
    "recharge": (on_recharge, "recharge GEAR", 1, 1),
    "train": (on_train, "train UPGRADE [CREW]", 1, 2),
    "recruit": (on_recruit, "recruit CREW", 1, 1),
    "turn": (on_turn, "turn PRISONER", 1, 1),
    "ransom": (on_ransom, "ransom PRISONER", 1, 1),
    "crew": (on_crew, "crew A B C D E", 5, 5),
    "done": (on_done, "done", 0, 0),
    "abandon": (_on_abandon, "abandon", 0, 0),
}
_UPPER = {"recruit", "turn", "ransom", "crew"}  # crew codes; gear and upgrade codes are lower case


def parse(command: Any) -> tuple[str, list[str]]:
    """(verb, arguments) of a campaign command, or RuleError."""
    found = command_text.words(command)
    verb, args = found[0].lower(), found[1:]
    if verb not in COMMANDS:
        raise RuleError(f"Unknown campaign command '{command_text.quote(found[0])}'. "
                        f"Commands: {', '.join(sorted(COMMANDS))}.")
    _, usage, least, most = COMMANDS[verb]
    if not least <= len(args) <= most:
        raise RuleError(f"Usage: {usage}")
    if verb == "train":
        return verb, [args[0].lower(), *(a.upper() for a in args[1:])]
    return verb, [a.upper() if verb in _UPPER else a.lower() for a in args]


def canonical(command: Any) -> str:
    """The one stored text of a campaign command."""
    verb, args = parse(command)
    return " ".join([verb, *args])


def apply(campaign: Campaign, seat: str, command: str,
          outcome: Optional[dict] = None) -> tuple[Campaign, list[dict]]:
    """Apply one command for `seat`; the new campaign and what happened. `outcome` (from
    `outcome_of`) goes with 'finish'. RuleError leaves `campaign` as it was."""
    verb, args = parse(command)
    if seat not in campaign.seats:
        raise RuleError("You are not in this campaign.")
    new = clone(campaign)
    events: list[dict] = []

    def emit(event_type: str, /, **data: Any) -> None:
        events.append({"type": event_type, **data})

    COMMANDS[verb][0](new, _pack(new.pack), seat, args, outcome, emit)
    new.version = campaign.version + 1
    return new, events


def awaited(campaign: Campaign) -> list[str]:
    """Seats the campaign waits on: players still on shore leave."""
    if campaign.phase != "shore_leave":
        return []
    return [c.seat for c in campaign.captains if not c.ready]


def view_for(campaign: Campaign, seat: Optional[str]) -> dict[str, Any]:
    """What `seat` may see (None: everyone): decks as counts, other players' offers hidden,
    never the dice or the seed."""
    view = to_builtins(campaign)
    for key in ("dice", "seed", "mission_seed"):
        view.pop(key, None)
    for deck in ("deck", "gear_deck", "upgrade_deck"):
        view[f"{deck}_count"] = len(view.pop(deck, []))
    for cap in view["captains"]:
        if cap["seat"] != seat:
            cap.pop("gear_offer", None)
            cap.pop("upgrade_offer", None)
    return view
