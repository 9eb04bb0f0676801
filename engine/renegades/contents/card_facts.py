"""Every card of a Renegades pack in words, for the card lookup (`/card`, `card` at the prompt).

`card_facts(pack)` gives one plain dict per card: code, name, kind, affiliation (the
faction, or empty), text, timing, keywords and facts (lines of numbers and abilities).
A weapon and the gear card of the same code are one card: the weapon with its price.
"""
from __future__ import annotations

from typing import Iterator

from engine.dice import dice_words
from engine.renegades.contents.content import ABILITY_STATIONS, DieBonus, Mission, Pack, Test

STATIONS = {"commander": "commander", "navigation": "navigation", "weapons": "weapons", "comms": "communications",
            "engineering": "engineering"}
TILES = {"corner": "corner", "side": "side", "center": "centre"}


def _bonus(bonus: DieBonus, roll: str) -> str:
    return f"+{bonus.add} on {dice_words(bonus.dice)} of its {roll} roll"


def _test(test: Test) -> str:
    at = f" by the {STATIONS[test.station]} officer" if test.station else ""
    return f"a {test.skill} test{at}, passed on a {test.target} or better"


def _card(code: str, name: str, kind: str, text: str, *, faction: str = "", timing: str = "",
          keywords=(), facts=()) -> dict:
    return {"code": code, "name": name, "kind": kind, "affiliation": faction, "text": text, "timing": timing,
            "keywords": tuple(keywords), "facts": tuple(fact for fact in facts if fact)}


def _crew(pack: Pack) -> Iterator[dict]:
    for crew in pack.crew.values():
        stations = " or ".join(STATIONS[s] for s in crew.stations)
        skills = ", ".join(f"{skill} {getattr(crew.skills, skill)}" for skill in crew.skills.__struct_fields__)
        body = crew.surface
        ground = f"On the surface: health {body.health}, speed {body.speed}, attack {dice_words(body.attack)}"
        facts = [f"Skills (dice in a test): {skills}",
                 ground + (f", defense {_bonus(body.defense, 'defense')}" if body.defense else "")]
        facts += [f"{pack.crew_abilities[a].name}: {pack.crew_abilities[a].text}" for a in body.abilities]
        facts += [f"At the {STATIONS[b.station]} station the ship gets {_bonus(b, b.roll)}" for b in crew.bonuses]
        yield _card(crew.code, crew.name, "crewmember", f"{crew.faction.title()} crewmember for the {stations} "
                    f"station, initiative {crew.initiative}.", faction=crew.faction, keywords=crew.keywords,
                    facts=facts)


def _ships(pack: Pack) -> Iterator[dict]:
    for ship in pack.ships.values():
        facts = [f"{a.name} ({STATIONS[ABILITY_STATIONS[a.effect][0]]}): {a.text}" for a in ship.abilities]
        if ship.back is not None:
            facts += [f"Shields down, {a.name}: {a.text}" for a in ship.back.abilities]
        yield _card(ship.code, ship.name, "ship", f"{ship.class_ or 'A'} {ship.faction.title()} ship: range "
                    f"{ship.range}, shields {ship.shields}, hull {ship.hull}, room for {ship.capacity} crew.",
                    faction=ship.faction, facts=facts)
    for fighter in pack.fighters.values():
        yield _card(fighter.code, fighter.name, "fighter",
                    f"A non-player fighter: attack {dice_words(fighter.attack)}, speed {fighter.speed}, "
                    f"range {fighter.range}, health {fighter.health}; {fighter.pool} to a squadron.")


def _decks(pack: Pack) -> Iterator[dict]:
    turns = {"orbital": "a free action on your ship's turn in orbit",
             "surface": "a free action on your landing party's turn"}
    for card in pack.tactical.values():
        yield _card(card.code, card.name, "tactical card", card.text, timing=turns[card.type],
                    facts=[f"Played with {_test(card.test)}."])
    for mission in pack.missions.values():
        titles = ", ".join(pack.campaigns[c].name for c in mission.campaigns if c in pack.campaigns)
        what = mission.parameter.name[0].upper() + mission.parameter.name[1:]
        built = (f" On a board built from location cards: {mission.parameter.name} {placement(pack, mission, True)}."
                 if mission.built else "")
        yield _card(mission.code, mission.name, "mission", mission.story,
                    facts=[f"{what} {placement(pack, mission, False)}.{built}", f"Reward: {mission.reward} digits.",
                           f"Campaigns: {titles}." if titles else ""])
    for event in pack.world_events.values():
        where = "in orbit" if event.where == "orbit" else "on the surface"
        yield _card(event.code, event.name, "world event", event.text, keywords=event.keywords,
                    timing=f"drawn in the world event phase, acting {where}")
    for title in pack.campaigns.values():
        missions = ", ".join(m.name for m in pack.missions.values() if title.code in m.campaigns)
        yield _card(title.code, title.name, "campaign title", f"Its ending, {title.ending.name} "
                    f"({title.ending.kind}): {title.ending.text.strip()}", facts=[f"Missions: {missions}."])
    for upgrade in pack.upgrades.values():
        if upgrade.target == "crew":
            who = f" ({upgrade.keyword} only)" if upgrade.keyword else ""
            text = f"Trains a crewmember{who}: +{upgrade.add} {upgrade.skill}."
        else:
            text = f"Refits a ship: +{upgrade.add} {upgrade.stat}."
        yield _card(upgrade.code, upgrade.name, "upgrade", text,
                    facts=[f"Costs {upgrade.cost} digits and {upgrade.xp} experience."])


def placement(pack: Pack, mission: Mission, built: bool) -> str:
    """Where the mission's objective and guards stand: 'at G11 on Veyra mining outpost; a
    Syphon warrior on guard at H10'."""
    cell, guards = mission.placement(built)
    surface = pack.surfaces[mission.surface].name if mission.surface in pack.surfaces else mission.surface
    posted = "".join(f"; a {pack.villains[g.villain].name} on guard at {g.cell}" for g in guards)
    return f"at {cell} on {surface}{posted}"


def _price(pack: Pack, code: str) -> str:
    gear = pack.gear.get(code)
    if gear is None:
        return ""
    energy = f", holds {gear.energy} energy" if gear.energy else ""
    return f"Shore leave price: {gear.cost} digits{energy}; {gear.count} in the gear deck."


def _surface(pack: Pack) -> Iterator[dict]:
    for weapon in pack.weapons.values():
        if weapon.type == "thrown":
            text = (f"A {weapon.kind} thrown up to {weapon.range} squares: {dice_words(weapon.attack)} against "
                    f"everyone within {weapon.blast} square(s) of where it lands; spent once thrown.")
        else:
            reach = f"range {weapon.range}" if weapon.type == "ranged" else "against a figure beside you"
            what = "melee weapon" if weapon.kind == "melee" else weapon.kind
            text = f"A {what}, {reach}" + (
                f"; {_bonus(weapon.bonus, 'attack')}." if weapon.bonus else ".")
        yield _card(weapon.code, weapon.name, "weapon", text, facts=[_price(pack, weapon.code)])
    for gear in pack.gear.values():
        if gear.code not in pack.weapons:
            yield _card(gear.code, gear.name, "gear", gear.text, facts=[_price(pack, gear.code)])
    found = {"loot": lambda i: f"Loot worth {i.value} digits.",
             "weapon": lambda i: f"A weapon: the {pack.weapons[i.weapon].name.lower()}.",
             "trap": lambda i: f"A trap: {dice_words(i.attack)} against everyone within two squares when "
                               "it is opened unscanned.",
             "heal": lambda i: f"Medicine: whoever opens it loses {i.heal} wounds.",
             "empty": lambda i: "Nothing inside."}
    for item in pack.search_items.values():
        yield _card(item.code, item.name, "search item", found[item.kind](item))
    salvaged = {"scrap": lambda i: f"Scrap, sold for {i.value} digits.",
                "parts": lambda i: f"Spare parts that repair {i.repair} damage.",
                "explosive": lambda i: f"It explodes on a ship that collects it unscanned: "
                                       f"{dice_words(i.attack)} of attack.",
                "empty": lambda i: "Nothing of use."}
    for item in pack.salvage.values():
        yield _card(item.code, item.name, "salvage", salvaged[item.kind](item),
                    facts=[f"{item.count} in the salvage deck."])
    for villain in pack.villains.values():
        escort = pack.villains.get(villain.escort) if villain.escort else None
        reach = "in melee" if villain.range == 1 else f"at range {villain.range}"
        yield _card(villain.code, villain.name, "villain",
                    f"A {villain.species} {villain.rank}: health {villain.health}, speed {villain.speed}, "
                    f"attack {dice_words(villain.attack)} {reach}, search {villain.search}.",
                    keywords=villain.keywords,
                    facts=[f"Defense: {_bonus(villain.defense, 'defense')}." if villain.defense else "",
                           f"Escorted by a {escort.name}." if escort else "",
                           f"{villain.pool} in the box."])


def _locations(pack: Pack) -> Iterator[dict]:
    for place in pack.surface_locations.values():
        board = pack.surfaces[place.board].name if place.board in pack.surfaces else place.board
        yield _card(place.code, place.name, "location card", f"A {TILES[place.type]} tile of {board}, for a surface "
                    "board built from location cards.",
                    facts=[f"Containers: {len(place.containers)}." if place.containers else "",
                           "Low ceiling: giant creatures cannot enter." if place.ceiling == "low" else ""])
    for place in pack.orbit_locations.values():
        yield _card(place.code, place.name, "location card", f"A {TILES[place.type]} tile of the orbital board, for a "
                    "board built from location cards.",
                    facts=[f"Salvage: {len(place.salvage)}." if place.salvage else ""])


def card_facts(pack: Pack) -> list[dict]:
    """Every card of the pack, in words (see the module docstring)."""
    return [*_crew(pack), *_ships(pack), *_decks(pack), *_surface(pack), *_locations(pack)]
