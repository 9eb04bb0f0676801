"""The Renegades campaign engine: set-up, a mission out to a game and back (played on the
surface too), every shore leave step, prisoners, and the three epic endings (rulings
N80-N89, N95-N96)."""
import random
import shutil

import msgspec
import pytest

from engine.errors import RuleError
from engine.renegades import rules, scenario
from engine.renegades.campaign import campaign as cp
from engine.renegades.campaign.campaign_text import line, names_of, roster_lines
from engine.renegades.contents.content import load_pack
from engine.renegades.contents.game import Game
from engine.renegades.surface import landing
from tests.test_renegades_random_games import random_command

PACK = load_pack("content/renegades")
TWO = [{"seat": "p1", "name": "Ann", "faction": "renegade"}, {"seat": "p2", "name": "Bo", "faction": "coalition"}]


def new(title="ember", missions=3, players=TWO, seed=4, **config):
    return cp.new_campaign({"title": title, "missions": missions, "players": players, **config}, seed)


def launched(campaign):
    campaign, _ = cp.apply(campaign, "p1", "launch")
    return campaign


def final_state(campaign, winner=None, reward=None, digits=None, crew=None, ships=None):
    """The plain final state of the campaign's mission game, as a finished game reports it."""
    state = msgspec.to_builtins(rules.new_game(cp.mission_config(campaign), campaign.mission_seed))
    state["phase"] = "over"
    state["result"] = {"outcome": "won" if winner else "unfinished", "winner": winner}
    if reward:
        state["result"]["reward"] = reward
    if digits:
        state["result"]["digits"] = digits
    for code, changes in (crew or {}).items():
        state["crew"].setdefault(code, {"id": code}).update(changes)
    for code, damage in (ships or {}).items():
        state["ships"][code]["damage"] = damage
    return state


def finished(campaign, **report):
    campaign = launched(campaign)
    campaign, events = cp.apply(campaign, "p2", "finish", cp.outcome_of(final_state(campaign, **report)))
    return campaign, events


def rich(campaign, seat="p1", digits=1000):
    campaign = cp.clone(campaign)
    campaign.captain(seat).digits = digits
    return campaign


def refused(campaign, seat, command, match, outcome=None):
    before = cp.to_json(campaign)
    with pytest.raises(RuleError, match=match):
        cp.apply(campaign, seat, command, outcome)
    assert cp.to_json(campaign) == before


# --- set-up -------------------------------------------------------------------------------------------
def test_a_campaign_starts_with_five_crew_and_the_starting_armory():
    c = new()
    ann = c.captain("p1")
    assert len(ann.crew) == 5 and ann.flying == list(ann.crew)
    assert sorted(ann.armory) == ["arc-blade", "arc-pistol", "arc-pistol", "arc-pistol", "blink-beacon"]
    assert sorted(c.deck) == ["the-courier", "the-reactor-core"]  # N80: the missions bearing the title
    assert c.phase == "briefing" and ann.digits == 0


@pytest.mark.parametrize("config, match", [
    ({"missions": 2}, "three, four or five"),
    ({"missions": 6}, "three, four or five"),
    ({"title": "nowhere"}, "campaign title is one of"),
    ({"boards": "drawn"}, "Boards are fixed or built"),
    ({"world_cards": 12}, "Play with 6 to 10 world cards"),
    ({"quick": True, "world_cards": 8}, "Play with 5 to 6 world cards in the quicker game"),
    ({"players": [{"seat": "p1", "crew": ["VESK", "TALLO", "RHEE", "MOTT", "GRUND", "KAIRO"]}, TWO[1]]},
     "exactly five crew"),  # N95
    ({"players": [{"seat": "p1", "crew": ["VESK", "KAIRO", "RHEE", "MOTT", "GRUND"]}, TWO[1]]}, "exactly five crew"),
    ({"players": [{"seat": "p1", "crew": ["HALVERN", "TALLO", "RHEE", "MOTT", "GRUND"]}, TWO[1]]},
     "not renegade crew"),
    ({"players": [TWO[0], {"seat": "p2", "faction": "renegade"}]}, "a player on each side"),
    ({"mode": "coop", "players": [TWO[1]]}, "every player flies a Renegade ship"),
])
def test_a_campaign_that_cannot_be_played_is_refused(config, match):
    with pytest.raises(RuleError, match=match):
        new(**config)


@pytest.mark.parametrize("title, missions", [
    ("ember", ["the-courier", "the-reactor-core"]), ("tide", ["the-courier"]),
    ("veil", ["the-ledger", "the-spore-bloom"])])  # N126: the Ledger and the Spore Bloom bear Beyond the Veil
def test_every_campaign_title_deals_the_missions_bearing_it(title, missions):
    assert sorted(new(title=title).deck) == missions


def test_a_veil_campaign_of_five_plays_both_its_missions_and_reaches_its_race_ending():  # N80, N126
    c, events = played_out("veil", ["renegade", None, "coalition", "renegade", None])
    assert {m.mission for m in c.played} == {"the-ledger", "the-spore-bloom"} and len(c.played) == 5
    assert c.phase == "over" and c.ending["kind"] == "race" and events[-1]["type"] == "epic_ending"


def test_every_mission_of_a_built_boards_campaign_is_played_on_built_boards():
    c = launched(new(title="veil", boards="built"))
    game = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert game.surface_layout["c"] == PACK.missions[c.current].center and game.orbit_layout


def test_a_title_no_mission_bears_is_refused(tmp_path):
    folder = tmp_path / "pack"
    shutil.copytree("content/renegades", folder)
    cards = folder / "cards.yaml"
    assert cards.read_text().count("campaigns: [veil]") == 2
    cards.write_text(cards.read_text().replace("campaigns: [veil]", "campaigns: []"))
    with pytest.raises(RuleError, match="No mission of the pack bears the title Beyond the Veil"):
        new(title="veil", pack=str(folder))


# --- a mission out and back ---------------------------------------------------------------------------
def test_the_mission_game_is_made_from_the_campaign():
    c = launched(new())
    config = cp.mission_config(c)
    assert config["mission"] == c.current and c.phase == "mission"
    game = rules.new_game(config, c.mission_seed)
    assert set(game.ships["KESTREL"].stations.values()) == set(c.captain("p1").flying)
    refused(c, "p1", "launch", "only between missions")


def test_a_mission_end_pays_the_faction_and_teaches_the_crew():
    c, events = finished(new(), winner="renegade", reward={"renegade": 200}, digits={"coalition": 50})
    ann, bo = c.captain("p1"), c.captain("p2")
    assert (ann.digits, ann.won, bo.digits, bo.won) == (200, 1, 0, 0)  # Bo's 50 paid for the loss (N216)
    assert {h.xp for h in ann.crew.values()} == {2} and {h.xp for h in bo.crew.values()} == {1}  # N86
    assert events[0]["type"] == "mission_recorded" and c.phase == "shore_leave"


def test_digits_are_split_among_a_factions_players():  # N82
    players = [{"seat": "p1", "faction": "renegade"}, {"seat": "p2", "faction": "renegade"}]
    c, _ = finished(new(mode="coop", players=players), winner="renegade", reward={"renegade": 250})
    assert (c.captain("p1").digits, c.captain("p2").digits) == (125, 125)
    c, _ = finished(new(mode="coop", players=players), winner="renegade", reward={"renegade": 75})
    assert (c.captain("p1").digits, c.captain("p2").digits) == (38, 37)


def test_a_game_that_is_not_over_or_another_mission_is_not_recorded():
    c = launched(new())
    running = final_state(c)
    running["phase"] = "orbital"
    refused(c, "p1", "finish", "not over", cp.outcome_of(running))
    other = final_state(c)
    other["mission"] = "the-courier" if c.current != "the-courier" else "the-reactor-core"
    refused(c, "p1", "finish", "not the campaign's mission", cp.outcome_of(other))


def test_the_mission_deck_is_reshuffled_when_it_runs_out():  # N80
    c = new(title="tide", missions=3)
    c, _ = finished(c)
    c = everyone_done(c)
    c, events = cp.apply(c, "p1", "launch")
    assert events[0] == {"type": "mission_deck_reshuffled", "count": 1} and c.current == "the-courier"


def everyone_done(c):
    for seat in c.seats:
        c, _ = cp.apply(c, seat, "done")
    return c


# --- shore leave --------------------------------------------------------------------------------------
def test_shore_leave_heals_revives_and_repairs_first():  # N83
    c, events = finished(new(), crew={"VESK": {"wounds": 4}, "TALLO": {"ko": True, "wounds": 7}},
                         ships={"KESTREL": 12})
    ann = c.captain("p1")
    assert all(h.wounds == 0 and not h.ko for h in ann.crew.values()) and ann.ship_damage == 0
    assert {"type": "shore_leave", "seat": "p1", "healed": ["VESK", "TALLO"], "repaired": 12} in events


def test_the_final_mission_has_no_shore_leave_and_its_injuries_stand():
    c = new(title="tide", missions=3)
    for _ in range(2):
        c, _ = finished(c)
        c = everyone_done(c)
    c, events = finished(c, crew={"VESK": {"wounds": 3}}, ships={"KESTREL": 5})
    assert c.phase == "over" and not any(e["type"] == "shore_leave" for e in events)
    assert c.captain("p1").crew["VESK"].wounds == 3 and c.captain("p1").ship_damage == 5
    refused(c, "p1", "done", "campaign is over")


def test_each_player_turns_over_their_own_offers():  # N85
    c, _ = finished(new())
    ann, bo = c.captain("p1"), c.captain("p2")
    assert len(ann.gear_offer) == 4 and len(bo.gear_offer) == 4
    assert len(ann.upgrade_offer) == 3 and len(bo.upgrade_offer) == 3
    assert "gear_offer" in cp.view_for(c, "p1")["captains"][0]
    assert "gear_offer" not in cp.view_for(c, "p1")["captains"][1]
    view = cp.view_for(c, None)
    assert "dice" not in view and "seed" not in view and "gear_deck" not in view


def test_buying_gear_from_the_offer():
    c, _ = finished(new())
    c = rich(c, digits=120)
    code = c.captain("p1").gear_offer[0]
    cost = PACK.gear[code].cost
    c2, events = cp.apply(c, "p1", f"buy {code}")
    assert c2.captain("p1").armory[-1] == code and c2.captain("p1").digits == 120 - cost
    assert events == [{"type": "bought", "seat": "p1", "gear": code, "cost": cost, "private": True}]
    refused(c2, "p2", f"buy {code}" if code not in c2.captain("p2").gear_offer else "buy nothing", "not among")
    refused(rich(c, digits=0), "p1", f"buy {code}", f"costs {cost} digits; you have 0")


@pytest.mark.parametrize("cost, price", [(50, 25), (60, 25), (80, 50), (100, 50), (75, 50), (120, 50), (40, 25)])
def test_gear_sells_for_half_to_the_nearest_25(cost, price):  # N88
    assert cp.sale_price(cost) == price


def test_selling_gear_from_the_armory():
    c, _ = finished(new())
    c2, events = cp.apply(c, "p1", "sell blink-beacon")
    assert c2.captain("p1").digits == 50 and "blink-beacon" not in c2.captain("p1").armory
    refused(c2, "p1", "sell blink-beacon", "no 'blink-beacon' in your armory")
    refused(new(), "p1", "sell arc-pistol", "on shore leave")


def offering(c, seat, upgrade):
    c = cp.clone(c)
    c.captain(seat).upgrade_offer = [upgrade]
    return c


def test_training_crew_costs_digits_and_xp():
    c, _ = finished(new(), winner="renegade")  # Ann's crew: 2 XP each
    c = offering(rich(c, digits=300), "p1", "command-course")
    c2, events = cp.apply(c, "p1", "train command-course VESK")
    vesk = c2.captain("p1").crew["VESK"]
    assert vesk.upgrades == ["command-course"] and vesk.xp == 0 and c2.captain("p1").digits == 175
    refused(c, "p1", "train command-course TALLO", "only for commander crew")
    refused(offering(c2, "p1", "command-course"), "p1", "train command-course VESK", "already has")
    refused(offering(c2, "p1", "stealth-school"), "p1", "train stealth-school VESK", "needs 1 XP from")
    refused(c, "p1", "train command-course", "Name the crewmember")


def test_a_ship_component_spends_the_commanders_xp():  # N86
    c, _ = finished(new())
    c = offering(rich(c), "p1", "armour-plating")
    c2, _ = cp.apply(c, "p1", "train armour-plating")
    assert c2.captain("p1").ship_upgrades == ["armour-plating"] and c2.captain("p1").crew["VESK"].xp == 0


def test_upgrades_carry_into_the_next_mission_game():
    c, _ = finished(new(), winner="renegade")
    c, _ = cp.apply(offering(rich(c), "p1", "marksman-drills"), "p1", "train marksman-drills RHEE")
    c, _ = cp.apply(offering(c, "p1", "layered-shields"), "p1", "train layered-shields")
    c = launched(everyone_done(c))
    game = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert game.crew["RHEE"].skills["weapons"] == PACK.crew["RHEE"].skills.weapons + 1
    assert game.ships["KESTREL"].shields == PACK.ships["KESTREL"].shields + 2
    assert game.ships["WARDEN"].shields == PACK.ships["WARDEN"].shields  # only what was bought


def test_recruiting_needs_digits_a_berth_and_a_free_crewmember():  # N84
    c, _ = finished(new())
    refused(c, "p1", "recruit LINNET", "costs 100 digits")
    c = rich(c)
    c2, _ = cp.apply(c, "p1", "recruit LINNET")
    assert "LINNET" in c2.captain("p1").crew and c2.captain("p1").digits == 900
    refused(c2, "p1", "recruit LINNET", "already serves")
    refused(c2, "p1", "recruit HALVERN", "not renegade crew")
    c3, _ = cp.apply(c2, "p1", "recruit KAIRO")
    refused(c3, "p1", "recruit DRAX", "full \\(7 crew\\)")


def test_choosing_the_five_who_fly():  # N81
    c, _ = finished(new())
    c, _ = cp.apply(rich(c), "p1", "recruit LINNET")
    c2, _ = cp.apply(c, "p1", "crew VESK LINNET RHEE MOTT GRUND")
    assert c2.captain("p1").flying == ["VESK", "LINNET", "RHEE", "MOTT", "GRUND"]
    refused(c, "p1", "crew VESK LINNET TALLO MOTT GRUND", "one for each station")
    refused(c, "p1", "crew VESK LINNET RHEE MOTT HALVERN", "not in your crew")


def test_shore_leave_ends_when_every_player_is_done():
    c, _ = finished(new())
    c, events = cp.apply(c, "p1", "done")
    assert cp.awaited(c) == ["p2"] and c.phase == "shore_leave"
    refused(c, "p1", "sell arc-pistol", "finished your shore leave")
    c, events = cp.apply(c, "p2", "done")
    assert c.phase == "briefing" and events[-1] == {"type": "shore_leave_over", "next": 2}
    assert len(c.gear_discard) == 8 and len(c.upgrade_discard) == 6


# --- prisoners ----------------------------------------------------------------------------------------
def captured(c0=None):
    """Bo's navigator Pell ends the mission held aboard Ann's Kestrel."""
    return finished(c0 or new(), crew={"PELL": {"captive": True, "ship": "KESTREL", "ko": True}})


def test_a_captive_goes_to_the_captors_brig_and_leaves_its_ship():  # N87
    c, events = captured()
    assert "PELL" in c.captain("p1").brig and "PELL" not in c.captain("p2").crew
    assert {"type": "prisoner_taken", "seat": "p1", "crew": "PELL", "from_seat": "p2"} in events
    refused(c, "p2", "done", "cannot fly without five crew")
    c2, _ = cp.apply(rich(c, "p2"), "p2", "recruit KOVIN")
    c2, _ = cp.apply(c2, "p2", "crew HALVERN KOVIN ORSO ANSEL BRECK")
    c2, _ = cp.apply(c2, "p2", "done")
    assert c2.captain("p2").ready


def test_crew_held_by_an_npc_ship_are_lost_to_the_campaign():
    players = [{"seat": "p1", "faction": "renegade"}]
    c = launched(new(mode="coop", players=players))
    state = final_state(c, crew={"TALLO": {"captive": True, "ship": "WARDEN"}})
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    assert "TALLO" not in c.captain("p1").crew and {"type": "crew_lost", "seat": "p1", "crew": "TALLO"} in events


def test_turning_a_prisoner_is_a_leadership_test_once_a_shore_leave():
    c, _ = captured()
    c.dice.scripted = [5, 6, 1, 2, 3, 4, 5]  # Vesk rolls four dice (two successes), Pell one (a 5)
    c2, events = cp.apply(c, "p1", "turn PELL")
    assert events[0]["ours"] == [5, 6, 1, 2] and events[0]["theirs"] == [3] and events[0]["turned"]
    pell = c2.captain("p1").crew["PELL"]
    assert (pell.faction, pell.turned_from) == ("renegade", "coalition") and not c2.captain("p1").brig
    c.dice.scripted = [5, 1, 1, 1, 6]
    c3, events = cp.apply(c, "p1", "turn PELL")
    assert not events[0]["turned"] and "PELL" in c3.captain("p1").brig  # a tie: the prisoner holds out
    refused(c3, "p1", "turn PELL", "already tried")
    refused(c3, "p2", "turn PELL", "not in your brig")


def test_a_prisoner_with_no_leadership_rolls_no_dice_against_turning():
    players = [TWO[0], {**TWO[1], "crew": ["HALVERN", "PELL", "ILDA", "ANSEL", "BRECK"]}]
    c, _ = finished(new(players=players), crew={"ILDA": {"captive": True, "ship": "KESTREL"}})
    c.dice.scripted = [5, 1, 1, 1, 6]  # Vesk's four dice hold one success; Ilda has no dice to answer
    c, events = cp.apply(c, "p1", "turn ILDA")
    assert events[0]["theirs"] == [] and events[0]["turned"] and "ILDA" in c.captain("p1").crew


def test_a_turned_crewmember_recaptured_gives_its_old_side_plus_five():
    c, _ = captured()
    c.dice.scripted = [5, 6, 1, 2, 3]
    c, _ = cp.apply(c, "p1", "turn PELL")
    c, _ = cp.apply(c, "p1", "crew VESK PELL RHEE MOTT GRUND")  # Pell flies for the Renegades now
    c, _ = cp.apply(rich(c, "p2"), "p2", "recruit KOVIN")
    c = everyone_done(cp.apply(c, "p2", "crew HALVERN KOVIN ORSO ANSEL BRECK")[0])
    c, _ = finished(c, crew={"PELL": {"captive": True, "ship": "WARDEN"}})
    assert "PELL" in c.captain("p2").brig and "PELL" not in c.captain("p1").crew
    c.dice.scripted = [1, 1, 1, 1, 6, 1, 1, 1, 1]  # Halvern: four 1s, one becomes 6; Pell: one 6
    c2, events = cp.apply(c, "p2", "turn PELL")
    assert events[0]["ours"].count(6) == 1 and not events[0]["turned"]


def test_a_ransomed_prisoner_goes_home_for_the_ransom():
    c, _ = captured()
    c2, events = cp.apply(c, "p1", "ransom PELL")
    assert c2.captain("p1").digits == 50 and "PELL" in c2.captain("p2").crew
    assert events == [{"type": "ransomed", "seat": "p1", "crew": "PELL", "price": 50, "to": "p2"}]


# --- the endings --------------------------------------------------------------------------------------
def played_out(title, winners, digits=None):
    c = new(title=title, missions=len(winners))
    for i, winner in enumerate(winners):
        c, events = finished(c, winner=winner, reward={winner: (digits or [100] * 5)[i]} if winner else None)
        if c.phase != "over":
            c = everyone_done(c)
    return c, events


def test_a_showdown_goes_to_the_faction_with_more_missions():  # N89
    c, events = played_out("tide", ["coalition", "renegade", "coalition"])
    assert c.ending["victor"] == "coalition" and c.ending["seats"] == ["p2"]
    assert events[-1]["type"] == "epic_ending"


def test_an_alliance_goes_to_the_player_who_earned_most():
    c, _ = played_out("ember", ["coalition", "renegade", "renegade"], digits=[300, 100, 100])
    assert c.ending["victor"] == "p2" and c.ending["kind"] == "alliance"


def test_a_level_showdown_has_no_victor():
    c, _ = played_out("tide", [None, None, None])
    assert c.ending["victor"] is None and c.ending["seats"] == []


def test_abandoning_ends_the_campaign_without_an_ending():  # N96
    c, events = cp.apply(new(), "p2", "abandon")
    assert c.phase == "abandoned" and c.ending is None
    refused(c, "p1", "abandon", "over")
    refused(c, "p1", "launch", "over")


# --- commands and words -------------------------------------------------------------------------------
@pytest.mark.parametrize("command, match", [
    ("fly away", "Unknown campaign command"), ("buy", "Usage: buy GEAR"), ("crew A B", "Usage: crew"),
    ("launch\nlaunch", "single line")])
def test_malformed_commands_are_refused(command, match):
    refused(new(), "p1", command, match)
    refused(new(), "p9", "launch", "not in this campaign")


def test_every_event_and_the_roster_read_as_words():
    c, events = captured(rich(new(), "p2", 500))
    c.dice.scripted = [6, 6, 6, 6, 1]
    c, more = cp.apply(c, "p1", "turn PELL")
    names = names_of(PACK, cp.view_for(c, "p1"))
    text = [line(e, names) for e in events + more]
    assert "Patrol Officer" not in " ".join(text)
    assert any("Pell" in t and "brig" in t for t in text) and any("is turned" in t for t in text)
    roster = "\n".join(roster_lines(cp.view_for(c, "p1"), PACK, names))
    assert "The Ember Accord: mission 1 of 3 played" in roster
    assert "turned from the coalitions" in roster and "armory: Arc pistol" in roster


# --- the surface carries over -------------------------------------------------------------------------
def surface_mission(seed):
    """The first mission of a quicker-game campaign, played to its end by random legal
    commands: the landing parties are on the surface from the start."""
    c = launched(new(seed=seed, quick=True))
    state = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert state.phase == "landing"  # the quicker game: docked on the mission planet
    rng, events = random.Random(seed), []
    while state.phase != "over":
        seat, command = random_command(state, rng)
        state, happened = rules.apply(state, seat, command)
        events += happened
    return c, state, events


def test_wounds_knock_outs_and_digits_from_the_surface_carry_into_the_campaign():
    found = None
    for seed in range(1, 13):  # the first random mission where a campaign crewmember is knocked out
        c, state, events = surface_mission(seed)
        flying = {code for cap in c.captains for code in cap.flying}
        out = [code for code in sorted(flying) if state.crew[code].ko and not state.crew[code].captive]
        if out and state.result["digits"]:
            found = c, state, events, out
            break
    assert found, "no random surface mission knocked out a campaign crewmember"
    c, state, events, out = found
    assert any(e["type"] == "knocked_out" for e in events)
    earned = {f: state.result.get("reward", {}).get(f, 0) + state.result["digits"].get(f, 0)
              for f in ("renegade", "coalition")}
    c, recorded = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    healed = {e["seat"]: set(e["healed"]) for e in recorded if e["type"] == "shore_leave"}
    for cap in c.captains:
        assert cap.digits == earned[cap.faction]  # one player a side: the reward and the surface digits
        hurt = {code for code in cap.flying if state.crew[code].wounds or state.crew[code].ko}
        assert healed[cap.seat] == hurt  # N83: shore leave heals exactly who the surface hurt
        assert not any(h.wounds or h.ko for h in cap.crew.values())
    assert set(out) <= set().union(*healed.values())


def test_loot_a_crew_carries_out_is_counted_when_the_mission_ends():
    for seed in range(1, 13):
        c, state, events = surface_mission(seed)
        counted = [e for e in events if e["type"] == "loot_counted"]
        if counted:
            break
    assert counted
    assert not any(e["item"] in state.crew[e["crew"]].gear for e in counted)  # turned into digits
    assert events.index(counted[-1]) < next(i for i, e in enumerate(events) if e["type"] == "game_over")
    for faction in ("renegade", "coalition"):
        loot = sum(e["digits"] for e in counted if state.crew[e["crew"]].faction == faction)
        assert state.result["digits"].get(faction, 0) >= loot


def test_a_prisoner_turned_in_the_mission_joins_its_captors_roster():  # N37, N87
    c, state, _ = surface_mission(2)
    pell = state.crew["PELL"]  # as medbay.turn_prisoners leaves a prisoner it turned
    pell.turned_from, pell.faction, pell.ship, pell.station, pell.room = "coalition", "renegade", "KESTREL", None, None
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    ann, bo = c.captain("p1"), c.captain("p2")
    assert "PELL" in ann.crew and ann.crew["PELL"].turned_from == "coalition" and ann.crew["PELL"].faction == "renegade"
    assert "PELL" not in bo.crew and "PELL" not in bo.flying
    assert {"type": "crew_turned", "seat": "p1", "crew": "PELL", "from_seat": "p2"} in events
    assert "now serves" in line(events[[e["type"] for e in events].index("crew_turned")],
                                names_of(PACK, cp.view_for(c, "p1")))
    c, _ = cp.apply(c, "p1", "crew VESK PELL RHEE MOTT GRUND")
    c, _ = cp.apply(rich(c, "p2"), "p2", "recruit KOVIN")
    c = everyone_done(cp.apply(c, "p2", "crew HALVERN KOVIN ORSO ANSEL BRECK")[0])
    game = rules.new_game(cp.mission_config(launched(c)), 1)
    assert game.crew["PELL"].faction == "renegade" and game.crew["PELL"].turned_from == "coalition"


def test_the_campaigns_armory_stocks_the_mission_ships_surface_armory():
    c = launched(new())
    c.captain("p1").armory = ["scatter-rifle", "blink-beacon", "arc-pistol"]
    game = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert game.armory["KESTREL"] == ["scatter-rifle", "blink-beacon", "arc-pistol"]  # gear items fly too (N180)
    assert game.energy["armory:KESTREL"] == {"blink-beacon": [1]}  # with their tokens (N181)
    assert game.armory["WARDEN"] == list(c.captain("p2").armory)


def test_weapons_found_or_lost_on_the_surface_change_the_campaigns_armory():  # N125
    c = launched(new())
    assert sorted(c.captain("p1").armory) == ["arc-blade", "arc-pistol", "arc-pistol", "arc-pistol", "blink-beacon"]
    state = final_state(c, crew={"VESK": {"gear": ["arc-pistol", "shock-maul"]},  # a maul found in a container
                                 "PELL": {"captive": True, "ship": "KESTREL", "room": "brig",
                                          "gear": ["scatter-rifle"]}})  # a prisoner's rifle goes to its captor
    state["armory"]["KESTREL"] = ["arc-pistol", "blink-beacon"]  # a pistol and the blade were lost down there
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    ann = c.captain("p1")
    assert sorted(ann.armory) == ["arc-pistol", "arc-pistol", "blink-beacon", "scatter-rifle", "shock-maul"]
    changed = next(e for e in events if e["type"] == "armory_changed")
    assert changed == {"type": "armory_changed", "seat": "p1", "found": ["scatter-rifle", "shock-maul"],
                       "lost": ["arc-blade", "arc-pistol"]}
    assert line(changed, names_of(PACK, cp.view_for(c, "p1"))) == \
        "Ann's armory after the mission: found Scatter rifle, Shock maul, lost Arc blade, Arc pistol."
    assert not any(e["type"] == "armory_changed" and e["seat"] == "p2" for e in events)  # nothing changed there


# --- energy tokens (N174-N176) ----------------------------------------------------------------------------
def with_gear(campaign, seat, code):
    """The campaign with one fresh copy of `code` bought into the seat's armory."""
    campaign = cp.clone(campaign)
    cap = campaign.captain(seat)
    cap.gear_offer = [code]
    cap.digits += PACK.gear[code].cost
    campaign, _ = cp.apply(campaign, seat, f"buy {code}")
    return campaign


def test_gear_that_runs_down_starts_full_and_each_mission_flown_costs_a_token():  # N174
    c = new()
    assert c.captain("p1").energy == {"blink-beacon": [1]}  # the starting armory's beacon
    c, _ = finished(c)
    c = with_gear(c, "p1", "scatter-rifle")
    assert c.captain("p1").energy["scatter-rifle"] == [4]
    for name in ("p1", "p2"):
        c, _ = cp.apply(c, name, "done")
    c = launched(c)
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(final_state(c)))
    assert c.captain("p1").energy == {"scatter-rifle": [3], "blink-beacon": [1]}  # the beacon stayed in port
    spent = next(e for e in events if e["type"] == "energy_spent")
    assert spent == {"type": "energy_spent", "seat": "p1", "tokens": {"scatter-rifle": [3]}, "private": True}
    assert line(spent, names_of(PACK, cp.view_for(c, "p1"))) == \
        "Energy left on your gear after the mission: Scatter rifle 3."


def test_found_gear_comes_home_full_and_lost_gear_takes_its_tokens():  # N174, N125
    c = new()
    c.captain("p1").armory.append("shock-maul")
    c.captain("p1").energy["shock-maul"] = [2]
    c = launched(c)
    state = final_state(c, crew={"VESK": {"gear": ["scatter-rifle"]}})
    state["armory"]["KESTREL"] = [w for w in state["armory"]["KESTREL"] if w != "shock-maul"]
    c, _ = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    assert c.captain("p1").energy == {"scatter-rifle": [4], "blink-beacon": [1]}
    assert "shock-maul" not in c.captain("p1").armory


def test_spent_gear_stays_in_port_and_cannot_be_sold():  # N175
    c = new()
    cap = c.captain("p1")
    cap.armory += ["scatter-rifle", "scatter-rifle"]
    cap.energy["scatter-rifle"] = [2, 0]
    c = launched(c)
    game = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert game.armory["KESTREL"].count("scatter-rifle") == 1  # the spent copy stayed in port
    c, _ = cp.apply(c, "p1", "finish", cp.outcome_of(final_state(c)))
    assert c.captain("p1").energy["scatter-rifle"] == [1, 0]  # not lost: it never flew
    c2, _ = cp.apply(c, "p1", "sell scatter-rifle")  # the copy with a token left is the one sold
    assert c2.captain("p1").energy["scatter-rifle"] == [0]
    refused(c2, "p1", "sell scatter-rifle", "no energy token left")


def test_recharging_fills_the_emptiest_copy_for_ten_digits_a_token():  # N176
    c, _ = finished(new())
    cap = c.captain("p1")
    cap.armory += ["scatter-rifle", "scatter-rifle"]
    cap.energy["scatter-rifle"] = [3, 0]
    c = rich(c, digits=45)
    c2, events = cp.apply(c, "p1", "recharge scatter-rifle")
    assert c2.captain("p1").energy["scatter-rifle"] == [4, 3] and c2.captain("p1").digits == 5
    assert events == [{"type": "recharged", "seat": "p1", "gear": "scatter-rifle", "tokens": 4, "cost": 40,
                       "private": True}]
    assert line(events[0], names_of(PACK, cp.view_for(c2, "p1"))) == \
        "You recharge Scatter rifle: 4 energy token(s) for 40 digits."
    refused(c2, "p1", "recharge scatter-rifle", "cost 10 digits; you have 5")
    refused(rich(c2), "p1", "recharge blink-beacon", "fully charged")
    refused(c2, "p1", "recharge arc-pistol", "never runs down")
    refused(c2, "p1", "recharge shock-maul", "no 'shock-maul' in your armory")
    refused(new(), "p1", "recharge blink-beacon", "on shore leave")
    stored_before_tokens = rich(c2)
    stored_before_tokens.captain("p1").energy = {}
    refused(stored_before_tokens, "p1", "recharge blink-beacon", "fully charged")


def freed_in_mission(free: bool):
    """The campaign's first mission, ended after Vesk boarded the Warden, whose crew aboard
    were all knocked out, and (with `free`) freed Tallo from its brig (N191)."""
    c = launched(new())
    state = scenario.build({"mission": c.current, "start": {"round": 2, "phase": "surface"}, "figures": {},
                            "docks": {"WARDEN": "L12"}, "crew": {
                                "VESK": {"cell": "K12"}, "TALLO": {"ship": "WARDEN", "captive": True, "room": "brig"},
                                "HALVERN": {"cell": "A5"}, "PELL": {"cell": "A6"}, "ORSO": {"cell": "A7"},
                                "ANSEL": {"room": "medbay", "ko": True, "wounds": 6},
                                "BRECK": {"room": "medbay", "ko": True, "wounds": 9}}})
    for seat, command in [("p2", "pass"), ("p1", "board VESK WARDEN")] + [("p1", "free VESK")] * free:
        state, _ = rules.apply(state, seat, command)
    state.phase, state.result = "over", {"outcome": "unfinished", "winner": None}
    return c, cp.outcome_of(state)


def test_a_prisoner_freed_by_boarders_is_no_prisoner_when_the_mission_is_recorded():  # N191, N87
    c, outcome = freed_in_mission(free=False)
    assert outcome["crew"]["TALLO"]["held_by"] == "WARDEN"
    c, events = cp.apply(c, "p1", "finish", outcome)
    assert "TALLO" in c.captain("p2").brig and "TALLO" not in c.captain("p1").crew
    c, outcome = freed_in_mission(free=True)
    assert outcome["crew"]["TALLO"]["held_by"] is None
    c, events = cp.apply(c, "p1", "finish", outcome)
    assert "TALLO" not in c.captain("p2").brig and "TALLO" in c.captain("p1").crew
    assert not any(e["type"] == "prisoner_taken" for e in events)


def test_a_grenade_from_the_armory_goes_down_with_the_first_out_and_a_thrown_one_is_lost():  # N192, N125
    c = launched(new())
    c.captain("p1").armory.append("flash-grenade")
    state = rules.new_game(cp.mission_config(c), c.mission_seed)
    assert state.armory["KESTREL"].count("flash-grenade") == 1
    landing.arm(Game(state), state.crew["VESK"])
    landing.arm(Game(state), state.crew["TALLO"])
    assert "flash-grenade" in state.crew["VESK"].gear and "flash-grenade" not in state.crew["TALLO"].gear
    state.phase, state.result = "over", {"outcome": "unfinished", "winner": None}
    kept, _ = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    assert "flash-grenade" in kept.captain("p1").armory
    state.crew["VESK"].gear.remove("flash-grenade")  # as a throw spends it
    spent, events = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    assert "flash-grenade" not in spent.captain("p1").armory
    assert {"type": "armory_changed", "seat": "p1", "found": [], "lost": ["flash-grenade"]} in events


def test_items_all_lost_on_the_mission_are_lost_to_the_campaign():  # N125
    # e.g. both beacons left on the mission planet when a tier 3 run went home, which clears
    # that surface: no item comes home and none lies anywhere
    c = launched(new())
    state = final_state(c)
    assert state["items_fly"] is True
    for ship in ("KESTREL", "WARDEN"):
        state["armory"][ship] = [code for code in state["armory"][ship] if code != "blink-beacon"]
    state["energy"] = {}
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(state))
    assert "blink-beacon" not in c.captain("p1").armory and "blink-beacon" not in c.captain("p1").energy
    assert {"type": "armory_changed", "seat": "p1", "found": [], "lost": ["blink-beacon"]} in events


# --- gear used in the game (N180, N181) --------------------------------------------------------------------
def quick_mission_with(code):
    """The second mission of a quicker-game campaign, a copy of `code` bought at shore leave
    before it; its game with the landing parties deployed (Mott, the second out, takes the
    first item the first left in the armory)."""
    c, _ = finished(new(quick=True))
    c = launched(everyone_done(with_gear(c, "p1", code)))
    state = rules.new_game(cp.mission_config(c), c.mission_seed)
    state, _ = rules.apply(state, "p1", "deploy KESTREL VESK MOTT RHEE")
    state, _ = rules.apply(state, "p2", "deploy WARDEN")
    return c, state


def test_bought_gear_flies_is_used_in_the_game_and_comes_home_with_fewer_tokens():
    c, state = quick_mission_with("field-kit")
    assert state.crew["VESK"].gear == ["arc-pistol", "arc-blade", "blink-beacon"]
    assert state.crew["MOTT"].gear == ["arc-pistol", "field-kit"] and state.energy["MOTT"] == {"field-kit": [2]}
    state.crew["MOTT"].wounds = 2
    while "use MOTT field-kit MOTT" not in rules.legal_commands(state, "p1"):
        state, _ = rules.apply(state, rules.awaited(state)[0], "pass")
    state, events = rules.apply(state, "p1", "use MOTT field-kit MOTT")
    assert {"type": "gear_mend", "crew": "MOTT", "target": "MOTT", "item": "field-kit", "amount": 2, "left": 1} in events
    final = msgspec.to_builtins(state)
    final["phase"], final["result"] = "over", {"outcome": "unfinished", "winner": None}
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(final))
    ann = c.captain("p1")
    assert ann.energy["field-kit"] == [1] and ann.energy["blink-beacon"] == [1]  # no token a mission on top (N174)
    assert {"type": "energy_spent", "seat": "p1", "tokens": {"field-kit": [1]}, "private": True} in events
    assert sorted(ann.armory) == ["arc-blade", "arc-pistol", "arc-pistol", "arc-pistol", "blink-beacon", "field-kit"]


def test_gear_left_on_the_surface_is_lost_and_a_spent_beacon_comes_home_empty():
    c, state = quick_mission_with("spoofer")
    assert state.crew["MOTT"].gear == ["arc-pistol", "spoofer"] and "MOTT" not in state.energy  # works by itself
    final = msgspec.to_builtins(state)
    final["crew"]["MOTT"]["gear"] = ["arc-pistol"]
    final["dropped"] = {"D5": ["spoofer"]}  # dropped down there and left
    final["energy"]["VESK"] = {"blink-beacon": [0]}  # Vesk blinked home
    final["phase"], final["result"] = "over", {"outcome": "unfinished", "winner": None}
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(final))
    ann = c.captain("p1")
    assert "spoofer" not in ann.armory and "spoofer" not in ann.energy
    assert {"type": "armory_changed", "seat": "p1", "found": [], "lost": ["spoofer"]} in events
    assert ann.energy["blink-beacon"] == [0] and ann.armory.count("blink-beacon") == 1  # spent: stays in port next time
    assert "blink-beacon" not in cp.mission_config(launched(everyone_done(c)))["campaign"]["carried"]["p1"]["armory"]


def test_a_sensor_spoofer_that_flew_spends_a_token_a_mission():  # N174: it works by itself
    c, state = quick_mission_with("spoofer")
    c, events = cp.apply(c, "p1", "finish", cp.outcome_of(final_state(c)))
    assert c.captain("p1").energy["spoofer"] == [1]


def test_a_game_made_before_items_flew_leaves_them_in_port():
    c = launched(new())
    state = final_state(c)
    for holder in ("KESTREL", "WARDEN"):  # as such a game's armory held only its weapons
        state["armory"][holder] = [w for w in state["armory"][holder] if w in PACK.weapons]
    state.pop("energy"), state.pop("items_fly")
    outcome = cp.outcome_of(state)
    assert "items" not in outcome
    c, events = cp.apply(c, "p1", "finish", outcome)
    assert c.captain("p1").armory.count("blink-beacon") == 1 and c.captain("p1").energy == {"blink-beacon": [1]}
    assert not any(e["type"] in ("armory_changed", "energy_spent") for e in events)


def test_the_side_that_lost_a_mission_pays_for_it():  # N216
    c, events = finished(new(), winner="renegade", reward={"renegade": 200}, digits={"coalition": 80})
    assert (c.captain("p1").digits, c.captain("p2").digits) == (200, 30)
    assert {"type": "mission_failed", "seat": "p2", "paid": 50} in events
    assert line(events[events.index({"type": "mission_failed", "seat": "p2", "paid": 50})],
                names_of(PACK, cp.view_for(c, "p2"))) == "Bo pays 50 digits for the failed mission."
    c, events = finished(new(), winner="coalition", digits={"renegade": 20})  # no more than it has
    assert c.captain("p1").digits == 0 and {"type": "mission_failed", "seat": "p1", "paid": 20} in events
    c, events = finished(new(), digits={"renegade": 20})  # unfinished: nobody lost
    assert c.captain("p1").digits == 20 and not any(e["type"] == "mission_failed" for e in events)
