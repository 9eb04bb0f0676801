"""Renegades pictures: pixel probes on the decoded PNGs of the orbital board, the ship
combat dice and the crew and ship status."""
import copy
import io

from PIL import Image

from engine.renegades.contents.board import DELTA, orbit_of
from images import orbit as O
from images import pictures
from images import ship_dice as D
from images import ship_status as S
from images.demo_renegades import attack_events, midgame_view, move_events
from images.style import ATTACK_MARK, HAZARD, INK, MOVE_MARK, WHITE

VIEW = midgame_view()


def decoded(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=18) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def frame():
    return O.static_layer(VIEW["pack"])[1]


def at(image, point):
    return image.getpixel((round(point[0]), round(point[1])))


def test_a_ship_is_drawn_at_its_square_in_its_faction_colour_with_its_nose_to_its_facing():
    for facing in DELTA:
        view = copy.deepcopy(VIEW)
        view["ships"]["WARDEN"]["facing"] = facing
        image = decoded(O.render_orbit(view))
        cx, cy = frame().centre("K8")
        r = frame().cell * 0.4
        dx, dy = DELTA[facing]
        unit = (dx * dx + dy * dy) ** 0.5
        assert close(at(image, (cx - r * 0.5, cy + r * 0.5)), O.FACTION_STYLES["coalition"][0])  # beside its label
        assert close(at(image, (cx + dx / unit * r * 1.2, cy + dy / unit * r * 1.2)), WHITE), facing  # the nose
        assert not close(at(image, (cx - dx / unit * r * 1.2, cy - dy / unit * r * 1.2)), WHITE), facing


def test_factions_differ_by_shape_as_well_as_colour():
    image = decoded(O.render_orbit(VIEW))
    r = frame().cell * 0.4

    def filled(square, faction, dx, dy):
        cx, cy = frame().centre(square)
        return close(at(image, (cx + dx * r, cy + dy * r)), O.FACTION_STYLES[faction][0])

    # the Kestrel is a square: filled into its corner, not as far out straight below
    assert filled("F8", "renegade", -0.68, -0.68) and not filled("F8", "renegade", 0, 0.8)
    # the Warden is a circle: the other way round
    assert not filled("K8", "coalition", -0.68, -0.68) and filled("K8", "coalition", 0, 0.8)


def test_the_range_overlay_rings_exactly_the_squares_the_acting_ships_lines_of_fire_reach():
    image = decoded(O.render_orbit(VIEW))
    expected = {sq for line in orbit_of(VIEW["pack"]).fire_lines("F8", "E", 6) for sq, _ in line}
    assert expected == {f"{c}{r}" for c in "GHIJKL" for r in (7, 8, 9)}
    for square in ("G7", "L9", "J8", "C8", "F9", "M8", "G6"):
        left, top, _, _ = frame().box(square)
        ringed = close(image.getpixel((left + 4, top + frame().cell // 2)), HAZARD)
        assert ringed == (square in expected), square


def test_without_an_acting_ship_there_is_no_range_overlay():
    view = copy.deepcopy(VIEW)
    view["current"] = None
    assert O.range_squares(view, orbit_of(view["pack"])) == {}
    image = decoded(O.render_orbit(view))
    left, top, _, _ = frame().box("J8")
    assert not close(image.getpixel((left + 4, top + frame().cell // 2)), HAZARD)


def test_the_last_move_and_attack_are_highlighted():
    image = decoded(O.render_orbit(VIEW, move_events() + attack_events()[:1]))
    plain = decoded(O.render_orbit(VIEW))
    (ax, ay), (bx, by) = frame().centre("D8"), frame().centre("E8")
    middle = ((ax + bx) / 2, ay)
    assert close(at(image, (middle[0] - 8, middle[1])), MOVE_MARK) and not close(at(plain, middle), MOVE_MARK)
    reticle = frame().centre("K8")
    ring = (reticle[0], reticle[1] - frame().cell * 0.47)
    assert any(close(at(image, (ring[0], ring[1] + d)), ATTACK_MARK) for d in range(-2, 3))
    assert not any(close(at(plain, (ring[0], ring[1] + d)), ATTACK_MARK) for d in range(-2, 3))


def test_a_move_earlier_in_the_events_is_drawn_from_where_the_ship_was_then():
    events = move_events() + attack_events()[:1]
    steps = O.positions_before(VIEW, events)
    assert steps[0][1]["KESTREL"] == "C8" and steps[1][1]["KESTREL"] == "F8"


def test_the_same_view_and_events_give_the_same_bytes():
    events = move_events() + attack_events()
    assert O.render_orbit(VIEW, events) == O.render_orbit(copy.deepcopy(VIEW), copy.deepcopy(events))
    assert D.render_ship_dice(VIEW, events) == D.render_ship_dice(VIEW, copy.deepcopy(events))
    assert S.render_ship_status(VIEW) == S.render_ship_status(copy.deepcopy(VIEW))


def test_the_dice_board_shows_red_attack_dice_and_black_defense_dice_as_rolled():
    image = decoded(D.render_ship_dice(VIEW, attack_events()[:1]))
    top = D.TITLE + D.ROW / 2 - 8
    faces = sorted([7, 5, 4, 2, 1], reverse=True)
    for i, face in enumerate(faces):  # a die's corner: hits in red, misses washed out
        corner = (D.FIRST_X + i * D.STEP - D.DIE / 2 + 6, top - D.DIE / 2 + 6)
        assert close(at(image, corner), D.RED) == (face >= D.HIT), face
    for i in range(3):
        corner = (D.FIRST_X + i * D.STEP - D.DIE / 2 + 6, top + D.ROW - D.DIE / 2 + 6)
        assert close(at(image, corner), INK), i
    assert not close(at(image, (D.FIRST_X + 3 * D.STEP, top + D.ROW)), INK)  # three black dice, no fourth
    assert D.outcome_lines(attack_events()[0], O.ships_of(VIEW))[0] == \
        "3 hits (1 penetrating), 1 blocked: 2 damage to the Warden."


def test_each_attack_of_an_npc_phase_gets_its_block_and_no_attack_no_picture():
    one = decoded(D.render_ship_dice(VIEW, attack_events()[:1]))
    two = decoded(D.render_ship_dice(VIEW, attack_events()))
    assert two.height > one.height
    assert D.render_ship_dice(VIEW, move_events()) is None


def test_status_pegs_show_shields_and_hull_left():
    image = decoded(S.render_ship_status(VIEW))
    codes = S.shown_ships({**VIEW, "ships": O.ships_of(VIEW)}, None)
    assert codes[:2] == ["KESTREL", "MAGPIE"]  # players' ships first, in seat order
    top = S.GAP
    y = top + S.HEADER + S.LINE / 2 + S.LINE  # the Kestrel's shields row: 3 damage of 10
    filled = [close(at(image, (x, y)), INK, 40) for x, _ in S.peg_holes(S.GAP + S.PEG_X, 10, 7)]
    assert filled == [True] * 7 + [False] * 3


def test_status_lists_every_station_and_says_when_shields_are_down():
    full = {**VIEW, "ships": O.ships_of(VIEW)}
    rows = S.crew_lines(full, "KESTREL")
    assert [station for station, _ in rows] == ["Command", "Navigation", "Weapons", "Comms", "Engineering"]
    view = copy.deepcopy(VIEW)
    del view["ships"]["KESTREL"]["stations"]["weapons"]
    view["crew"]["RHEE"]["station"] = None
    rows = S.crew_lines({**view, "ships": O.ships_of(view)}, "KESTREL")
    assert ("Vacant", "Weapons") in rows and ("Aboard", "RHEE") in rows


def test_every_ruleset_draws_its_own_pictures():
    drawn = dict(pictures.draw("renegades", VIEW, attack_events(), ["board", "dice", "status"]))
    assert drawn["board.png"] == O.render_orbit(VIEW, attack_events())
    assert drawn["dice.png"] == D.render_ship_dice(VIEW, attack_events())
    assert drawn["status.png"] == S.render_ship_status(VIEW)
    assert [name for name, _ in pictures.draw("renegades", VIEW, move_events(), ["board", "dice"])] == ["board.png"]


def test_every_position_of_random_games_is_drawn_with_each_ship_in_orbit_at_its_square():
    import random

    from engine.renegades import rules
    for mode, players, seed in (("coop", [{"seat": "p1"}], 3), ("versus", [{"seat": "p1"}, {"seat": "p2"}], 4)):
        state = rules.new_game({"mode": mode, "players": players}, seed=seed)
        rng = random.Random(seed)
        while state.phase != "over":
            seat = rules.awaited(state)[0]
            state, events = rules.apply(state, seat, rng.choice(rules.legal_commands(state, seat)))
            view = rules.view_for(state, None)
            drawn = dict(pictures.draw("renegades", view, events, ["board", "dice", "status"]))
            assert ("dice.png" in drawn) == any(e["type"] == "ship_attack" for e in events)
            image = decoded(drawn["board.png"])
            r = frame().cell * 0.4
            for code, ship in O.ships_of(view).items():
                if ship["cell"]:
                    cx, cy = frame().centre(ship["cell"])
                    below_label = (cx, cy + r * 0.6)  # inside every shape, clear of its label and nose
                    assert close(at(image, below_label), O.style_of(ship)[0]), (code, ship["cell"])


def test_status_places_crew_on_the_surface_in_the_med_bay_and_captives_from_the_surface_view():
    from engine.renegades import rules
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True, "world_cards": 5}, seed=2)
    kestrel = state.player("p1").ships[0]
    crew = sorted((c for c in state.crew.values() if c.ship == kestrel), key=lambda c: c.id)
    down, hurt = crew[0], crew[1]
    state, _ = rules.apply(state, "p1", f"deploy {kestrel} {down.id}")
    captive = next(c for c in state.crew.values() if c.faction == "coalition")
    state.crew[hurt.id].station, state.crew[hurt.id].room = None, "medbay"
    state.crew[hurt.id].wounds, state.crew[hurt.id].ko = 4, True
    for ship in state.ships.values():
        ship.stations = {k: v for k, v in ship.stations.items() if v not in (hurt.id, captive.id)}
    captive.ship, captive.station, captive.room, captive.captive = kestrel, None, "brig", True
    view = rules.view_for(state, None)
    full = {**view, "ships": O.ships_of(view)}
    rows = dict((cid, where) for where, cid in S.crew_lines(full, kestrel))
    cell = view["surface"]["crew"][down.id]["cell"]
    assert rows[down.id] == f"Down at {cell}" and rows[hurt.id] == "Med bay" and captive.id not in rows
    assert "unconscious" in S._who(view, hurt.id) and "4 wounds" in S._who(view, hurt.id)
    brig = dict(S.hold_lines(full, kestrel))["Brig"]
    assert captive.id in brig and "Coalition" in brig  # the prisoner is in the Kestrel's brig
    decoded(S.render_ship_status(view))


def campaign_view() -> dict:
    """A campaign's mission: the Kestrel's commander trained and armed, its hull plated,
    a Coalition prisoner in its brig."""
    from engine.renegades import rules
    carried = {"upgrades": {"VESK": ["command-course"]}, "ship_upgrades": ["armour-plating"]}
    state = rules.new_game({"mode": "coop", "players": [{"seat": "p1", "name": "Ann", **carried}]}, seed=5)
    state.crew["VESK"].gear = ["arc-pistol", "data-spike"]
    prisoner = next(c for c in state.crew.values() if c.faction == "coalition")
    for ship in state.ships.values():
        ship.stations = {k: v for k, v in ship.stations.items() if v != prisoner.id}
    prisoner.ship, prisoner.station, prisoner.room, prisoner.captive = "KESTREL", None, "brig", True
    return rules.view_for(state, None)


def test_status_shows_gear_carried_campaign_upgrades_and_prisoners_in_the_brig():
    view = campaign_view()
    full = {**view, "ships": O.ships_of(view)}
    held = dict(S.hold_lines(full, "KESTREL"))
    assert held["Gear"] == "Vesk: Arc pistol, Data spike"
    assert held["Upgrades"] == "Vesk: Command course; ship: Armour plating"
    assert held["Armory"].startswith("Arc pistol x3, Arc blade")
    prisoner = next(c for c, m in view["crew"].items() if m.get("captive"))
    assert held["Brig"].startswith(f"{view['crew'][prisoner]['name']} ({prisoner})")
    assert view["ships"]["KESTREL"]["hull"] == 7 and view["crew"]["VESK"]["upgrades"] == ["command-course"]
    assert "Brig" not in dict(S.hold_lines(full, "MAGPIE" if "MAGPIE" in full["ships"] else "WARDEN"))
    # the four rows are drawn under the Kestrel's crew: ink where each row's text starts
    image = decoded(S.render_ship_status(view))
    first = S.GAP + S.HEADER + S.LINE / 2 + S.LINE * (3 + len(S.crew_lines(full, "KESTREL")))
    for k in range(4):
        row = [at(image, (x, first + k * S.LINE + dy)) for x in range(S.GAP + S.PEG_X, S.GAP + S.PEG_X + 60)
               for dy in (-3, 0, 3)]
        assert any(close(p, INK, 60) for p in row), k
    below = first + 3.5 * S.LINE + S.GAP / 2  # the card ends after its last row: paper
    assert all(close(at(image, (x, below)), S.PAPER) for x in range(S.GAP + S.PEG_X, S.WIDTH - S.GAP, 7))
    bare = copy.deepcopy(view)
    del bare["crew"][prisoner]
    for member in bare["crew"].values():
        member.pop("gear", None), member.pop("upgrades", None)
    bare["ships"]["KESTREL"].pop("upgrades", None)
    bare["armory"].pop("KESTREL")
    assert S.hold_lines({**bare, "ships": O.ships_of(bare)}, "KESTREL") == []
    assert decoded(S.render_ship_status(bare)).height == image.height - 4 * S.LINE  # no empty rows drawn
