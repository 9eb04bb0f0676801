"""Pictures of tables of four and of 2 vs 2: four sides told apart by colour (also with
colour blindness) and shape, tokens big enough on the six-board layout for a phone, the
teams in the footer and on the status picture, the teammate who answered on the dice board."""
import io
import itertools
import random

import msgspec
from PIL import Image

from engine.awaymissions.content import load_pack
from engine.awaymissions.layout import LayoutSpec
from engine.service.rulesets import AWAY_MISSIONS
from images import board as B
from images import dice as D
from images import status as S
from images.style import side_styles, washed

PLAYERS = [("Ann", "federation"), ("Bo", "borg"), ("Cy", "borg"), ("Di", "federation")]
# sRGB -> what a viewer with each common kind of colour blindness sees (Machado et al. 2009, severity 1)
BLINDNESS = {
    "protanopia": ((0.152, 1.053, -0.205), (0.115, 0.786, 0.099), (-0.004, -0.048, 1.052)),
    "deuteranopia": ((0.367, 0.861, -0.228), (0.280, 0.673, 0.047), (-0.012, 0.043, 0.969)),
    "tritanopia": ((1.256, -0.077, -0.179), (-0.078, 0.931, 0.148), (0.005, 0.691, 0.304)),
}


def team_game(seed: int = 5, moves: int = 200, until=None):
    """A 2 vs 2 game on the six-board preset after `moves` random moves (or once `until`
    holds for the events of a move): (state, the last move's events)."""
    config = {"pack": "content/starter", "mode": "teams", "layout": "six", "players": [
        {"seat": f"p{i + 1}", "name": name, "affiliation": side, "team": f"{side}-away-team",
         "deck": f"{side}-starter"} for i, (name, side) in enumerate(PLAYERS)]}
    state, rng, events = AWAY_MISSIONS.new_game(config, seed), random.Random(seed), []
    for _ in range(moves):
        if state.phase == "over":
            break
        seat = rng.choice(AWAY_MISSIONS.awaited(state))
        state, events = AWAY_MISSIONS.apply(state, seat, rng.choice(AWAY_MISSIONS.legal_commands(state, seat)))
        if until and until(events):
            break
    return state, events


def decoded(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def close(pixel, colour, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


def seen(colour, matrix):
    return tuple(sum(m * c for m, c in zip(row, colour)) for row in matrix)


def test_four_sides_differ_by_shape_and_by_colour_also_for_colour_blind_eyes():
    view = AWAY_MISSIONS.view_for(team_game(moves=0)[0], None)
    styles = side_styles(view["players"])
    assert len({shape for _, shape in styles.values()}) == 4
    for kind, matrix in BLINDNESS.items():
        for a, b in itertools.combinations([colour for colour, _ in styles.values()], 2):
            distance = sum((x - y) ** 2 for x, y in zip(seen(a, matrix), seen(b, matrix))) ** 0.5
            assert distance > 40, (kind, a, b, distance)


def test_lone_tokens_on_the_six_board_layout_are_drawn_bigger_in_their_sides_colour():
    state, _ = team_game()
    view = AWAY_MISSIONS.view_for(state, None)
    image = decoded(B.render_board(view))
    pack = load_pack(view["pack"])
    spec = msgspec.convert(view["layout"], LayoutSpec)
    geo, (_, frame) = B.mission_area(pack, spec), B.static_layer(pack, spec)
    assert frame.cell < B.SMALL_CELL
    styles = side_styles(view["players"])
    spaces = [c.get("space") for c in view["characters"].values() if c.get("status") == "in_play"]
    probed = 0
    for ch in view["characters"].values():
        if ch.get("status") != "in_play" or spaces.count(ch["space"]) != 1:
            continue
        cx, cy, r = B._positions(frame, geo.spaces[ch["space"]], 1)[0]
        colour = styles[ch["controller"]][0]
        fill = washed(colour) if ch.get("activated") else colour
        # a quarter of a space below the centre: inside the bigger token, outside a 0.27-space one
        assert close(image.getpixel((round(cx), round(cy + frame.cell * 0.25))), fill), ch
        probed += 1
    assert probed >= 8


def test_the_footer_shows_the_teams_with_their_members_shapes_and_who_may_answer():
    state, _ = team_game()
    view = AWAY_MISSIONS.view_for(state, None)
    pack = load_pack(view["pack"])
    entries = B.footer_entries(view, pack)
    assert [(who, seats) for who, _, seats in entries] == [("Team A: Ann + Cy", ["p1", "p3"]),
                                                            ("Team B: Bo + Di", ["p2", "p4"])]
    assert entries[0][1] == B.score(view, pack, 'p1') + B.score(view, pack, 'p3')
    image = decoded(B.render_board(view))
    footer = image.crop((image.width // 2, image.height - B.FOOTER, image.width, image.height))
    colours = footer.getcolors(1 << 16)
    for colour, _ in side_styles(view["players"]).values():
        assert sum(n for n, c in colours if close(c, colour, 4)) > 40, colour  # every side's shape is drawn
    team_prompt = {**view, "activation": None, "pending": [{"kind": "activate", "player": "p2", "also": ["p4"], "info": {}}]}
    assert B.footer_lines(team_prompt, [], {})[1] == "Waiting for Bo or Di (activate)"
    over = {**view, "result": {"winner": "team-a"}}
    assert B.footer_lines(over, [], {})[0].endswith("Game over: Team A wins")


def test_the_status_picture_gives_each_team_a_column_and_names_it():
    state, _ = team_game()
    view = AWAY_MISSIONS.view_for(state, None)
    pack = load_pack(view["pack"])
    _, heads, _, _ = S.panel_layout(view)
    columns = {}
    for player, x, _ in heads:
        columns.setdefault(x, set()).add(player["team"])
    assert sorted(map(sorted, columns.values())) == [["team-a"], ["team-b"]]
    assert S.header(view, pack, view["players"][1]).startswith("Bo · Team B · Borg · ")
    image = decoded(S.render_status(view))
    styles = side_styles(view["players"])
    for player, x, top in heads:  # each heading carries its player's shape in the side's colour
        assert close(image.getpixel((x + 20, round(top + (S.HEADER - 6) / 2))), styles[player["seat"]][0])


def test_the_dice_board_names_the_teammate_who_answered_the_teams_re_roll_window():
    state, events = team_game(moves=3000, until=lambda events: any(e["type"] == "rerolled" for e in events))
    reroll = next(e for e in events if e["type"] == "rerolled")
    view = AWAY_MISSIONS.view_for(state, None)
    names = {p["seat"]: p["name"] for p in view["players"]}
    teams = {p["seat"]: p["team"] for p in view["players"]}
    rolled = {"type": "rolled", "kind": "attack", "actor": None, "target": None,
              "dice": reroll["before"], "opposing": []}
    board = D.gather([rolled, {"type": "reroll_passed", "seat": "p4"}, reroll])
    lines = D.result_lines(board, {}, names, load_pack(view["pack"]).cards, teams)
    team = "Team A" if teams[reroll["seat"]] == "team-a" else "Team B"
    assert any(line.startswith(f"Re-roll: {names[reroll['seat']]} for {team} played ") for line in lines)
    assert "Re-roll window: Di kept the dice for Team B." in lines
    assert D.render_dice(view, [rolled, reroll]) is not None
    two = D.result_lines(board, {}, names, load_pack(view["pack"]).cards)  # a game of two names no team
    assert not any("for Team" in line or "kept the dice" in line for line in two)
