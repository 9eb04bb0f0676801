"""How long pictures take: median and p95 render times, PNG sizes, and the board's cost
against the floor of only encoding a same-size picture.

    python benchmarks/render_bench.py [--runs N]

Targets on the 2-core reference machine: board p95 < 40 ms (Renegades orbital board
p95 < 25 ms), dice board < 10 ms, every PNG < 400 KB. This prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.league.event import rank_title  # noqa: E402
from engine.league.standings import Standing  # noqa: E402
from images import board, render_board, render_dice, render_status  # noqa: E402
from images import demo_renegades, orbit  # noqa: E402
from images.demo import attack_events, midgame_view, move_events, skill_events  # noqa: E402
from images.dice import dice_image  # noqa: E402
from images.standings import render_standings, standings_image  # noqa: E402
from images.ship_dice import render_ship_dice, ship_dice_image  # noqa: E402
from images.ship_status import render_ship_status, ship_status_image  # noqa: E402
from images.status import status_image  # noqa: E402
from images.style import encode  # noqa: E402
from images import demo_surface, surface  # noqa: E402
from images.crew_dice import crew_dice_image, render_crew_dice  # noqa: E402


def timed(fn, runs: int) -> tuple[list[float], bytes]:
    """Milliseconds per call over `runs` calls, after one warm-up call, and its last result."""
    result = fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1000)
    return times, result


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    runs = parser.parse_args().runs
    view, cube = midgame_view(), midgame_view("cube")
    ren = demo_renegades.midgame_view()
    ren_move = demo_renegades.move_events()
    ren_attack = ren_move + demo_renegades.attack_events()
    ground = demo_surface.midgame_view()
    ground_move = demo_surface.move_events()
    ground_fight = ground_move + demo_surface.attack_events()
    ground_rolls = demo_surface.attack_events() + demo_surface.skill_events()
    league = [Standing(n, rank_title(n), str(n), f"Player {n}", 16 - n // 3, 900 - 7 * n) for n in range(1, 41)]
    cases = [
        ("board standard (move)", lambda: render_board(view, move_events()),
         lambda: board.board_image(view, move_events())),
        ("board standard (attack)", lambda: render_board(view, attack_events()[:1]),
         lambda: board.board_image(view, attack_events()[:1])),
        ("board cube (move)", lambda: render_board(cube, move_events("cube")),
         lambda: board.board_image(cube, move_events("cube"))),
        ("dice attack + re-rolls", lambda: render_dice(view, attack_events()),
         lambda: dice_image(view, attack_events())),
        ("dice skill test", lambda: render_dice(view, skill_events()), lambda: dice_image(view, skill_events())),
        ("status, both teams", lambda: render_status(view), lambda: status_image(view)),
        ("renegades orbit (move)", lambda: orbit.render_orbit(ren, ren_move),
         lambda: orbit.orbit_image(ren, ren_move)),
        ("renegades orbit (attacks)", lambda: orbit.render_orbit(ren, ren_attack),
         lambda: orbit.orbit_image(ren, ren_attack)),
        ("renegades ship dice", lambda: render_ship_dice(ren, ren_attack), lambda: ship_dice_image(ren, ren_attack)),
        ("renegades crews, ships", lambda: render_ship_status(ren), lambda: ship_status_image(ren)),
        ("standings, 40 players", lambda: render_standings("Season", league), lambda: standings_image("Season", league)),
        # the Renegades surface: board target p95 < 25 ms
        ("renegades surface (move)", lambda: surface.render_surface(ground, ground_move),
         lambda: surface.surface_image(ground, ground_move)),
        ("renegades surface (attack)", lambda: surface.render_surface(ground, ground_fight),
         lambda: surface.surface_image(ground, ground_fight)),
        ("renegades crew dice", lambda: render_crew_dice(ground, ground_rolls),
         lambda: crew_dice_image(ground, ground_rolls)),
    ]
    board._STATIC.clear()
    start = time.perf_counter()
    render_board(view)
    print(f"first board of a layout (static layer drawn, then cached): {(time.perf_counter() - start) * 1000:.1f} ms")
    orbit.static_layer.cache_clear()
    start = time.perf_counter()
    orbit.render_orbit(ren)
    print(f"first orbital board of a pack (static layer drawn, then cached): "
          f"{(time.perf_counter() - start) * 1000:.1f} ms\n")
    print(f"{'picture':26} {'size':>9} {'median':>8} {'p95':>8} {'PNG':>8} {'encode':>8} {'ratio':>6}")
    for name, render, draw in cases:
        times, data = timed(render, runs)
        image = draw()
        floor, _ = timed(lambda: encode(image), runs)
        ratio = statistics.median(times) / statistics.median(floor)
        print(f"{name:26} {image.width:>4}x{image.height:<4} {statistics.median(times):>6.1f}ms {p95(times):>6.1f}ms "
              f"{len(data) / 1024:>6.1f}KB {statistics.median(floor):>6.1f}ms {ratio:>5.2f}x")
    print("\nencode: median time to only encode the finished picture (quantize + PNG): the floor.")
    print("ratio: median render / encode floor (1.00x would mean drawing costs nothing).")


if __name__ == "__main__":
    main()
