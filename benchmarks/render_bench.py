"""How long pictures take, in CPU time: per picture kind the p50 and p95 of drawing and
encoding it, the floor of only encoding the finished picture, their ratio, and the PNG's
bytes; then a full action (the engine applies an attack, the public view is built, the
board and dice pictures are drawn) against the encode of its pictures.

    python benchmarks/render_bench.py [--runs N]
    python benchmarks/render_bench.py --base /tmp/pictures-base [--runs N] [--levels] [--only TEXT]
    python benchmarks/render_bench.py --parts [--base DIR] [--runs N]

With --base (a checkout of an earlier commit: `git worktree add /tmp/pictures-base main`)
both trees are measured side by side: one worker process per tree, taking turns case by
case and round by round, so a machine loaded by others weighs on both alike. Targets on an
idle machine: board <= 10 ms and dice <= 4 ms CPU p50, a full action <= 1.3x the encode of
its pictures at p95, PNGs within 1.5x of the bytes before the palette work. --levels adds
the encoder's choices (zlib level and strategy) for the main picture kinds: CPU and bytes,
how COMPRESS_LEVEL in images/style.py was chosen. --only keeps the cases whose name holds
TEXT. --parts takes the full action apart run by run (apply, view, draw and encode of each
picture, garbage collections inside the run) and shows what the slowest 5% of runs spent
where. This prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROUNDS = 5  # turns per case when two trees are compared


def p50(times: list[float]) -> float:
    return statistics.median(times)


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


def cpu_ms(fn, runs: int) -> list[float]:
    """CPU milliseconds (time.process_time) per call over `runs` calls."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) * 1000)
    return times


def cases() -> dict:
    """Name -> (render to PNG bytes, the finished Pillow image): the pictures of a table.
    Only names that every tree compared has are used here."""
    from engine.league.event import rank_title
    from engine.league.standings import Standing
    from images import board, demo_renegades, demo_surface, orbit, render_board, render_dice, render_status, surface
    from images.crew_dice import crew_dice_image, render_crew_dice
    from images.demo import attack_events, midgame_view, move_events, skill_events
    from images.dice import dice_image
    from images.ship_dice import render_ship_dice, ship_dice_image
    from images.ship_status import render_ship_status, ship_status_image
    from images.standings import render_standings, standings_image
    from images.status import status_image
    view, cube = midgame_view(), midgame_view("cube")
    ren = demo_renegades.midgame_view()
    ren_move = demo_renegades.move_events()
    ren_attack = ren_move + demo_renegades.attack_events()
    ground = demo_surface.midgame_view()
    ground_move = demo_surface.move_events()
    ground_fight = ground_move + demo_surface.attack_events()
    ground_rolls = demo_surface.attack_events() + demo_surface.skill_events()
    league = [Standing(n, rank_title(n), str(n), f"Player {n}", 16 - n // 3, 900 - 7 * n) for n in range(1, 41)]
    return {
        "board standard (move)": (lambda: render_board(view, move_events()),
                                  lambda: board.board_image(view, move_events())),
        "board standard (attack)": (lambda: render_board(view, attack_events()[:1]),
                                    lambda: board.board_image(view, attack_events()[:1])),
        "board cube (move)": (lambda: render_board(cube, move_events("cube")),
                              lambda: board.board_image(cube, move_events("cube"))),
        "dice attack + re-rolls": (lambda: render_dice(view, attack_events()),
                                   lambda: dice_image(view, attack_events())),
        "dice skill test": (lambda: render_dice(view, skill_events()), lambda: dice_image(view, skill_events())),
        "status, both teams": (lambda: render_status(view), lambda: status_image(view)),
        "renegades orbit (move)": (lambda: orbit.render_orbit(ren, ren_move), lambda: orbit.orbit_image(ren, ren_move)),
        "renegades orbit (attacks)": (lambda: orbit.render_orbit(ren, ren_attack),
                                      lambda: orbit.orbit_image(ren, ren_attack)),
        "renegades ship dice": (lambda: render_ship_dice(ren, ren_attack), lambda: ship_dice_image(ren, ren_attack)),
        "renegades ship status": (lambda: render_ship_status(ren), lambda: ship_status_image(ren)),
        "renegades surface (move)": (lambda: surface.render_surface(ground, ground_move),
                                     lambda: surface.surface_image(ground, ground_move)),
        "renegades surface (attack)": (lambda: surface.render_surface(ground, ground_fight),
                                       lambda: surface.surface_image(ground, ground_fight)),
        "renegades crew dice": (lambda: render_crew_dice(ground, ground_rolls),
                                lambda: crew_dice_image(ground, ground_rolls)),
        "standings, 40 players": (lambda: render_standings("Season", league),
                                  lambda: standings_image("Season", league)),
    }


FULL_ACTION = "full action (attack: apply, view, board + dice)"


def full_action():
    """(the action: apply an attack, build the public view, draw board and dice; the
    encode-only floor of the pictures it drew)."""
    from engine.awaymissions import rules
    from images import board, pictures
    from images.demo import midgame_state
    from images.dice import dice_image
    from images.style import encode
    state = midgame_state()

    def act():
        after, events = rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
        return pictures.draw("awaymissions", rules.view_for(after, None), events, ["board", "dice"])

    after, events = rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
    view = rules.view_for(after, None)
    drawn = [board.board_image(view, events), dice_image(view, events)]
    return act, lambda: [encode(image) for image in drawn]


PARTS = ("apply", "view", "board draw", "board encode", "dice draw", "dice encode")


def parts(runs: int) -> list[dict]:
    """Per run of the full action: CPU ms of each part, the garbage collections inside it
    (generation, CPU ms) and, in turn with it, the encode-only floor of its pictures. The
    parts run in the order of the tree's `pictures.draw`: each picture drawn and encoded in
    turn where its renderers give PNG bytes, both drawn and then both encoded where they
    give images."""
    from engine.awaymissions import rules
    from images import board, pictures
    from images.demo import midgame_state
    from images.dice import dice_image
    from images.style import encode
    state = midgame_state()
    _, floor = full_action()
    after, events = rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
    together = not isinstance(pictures.RENDERERS["awaymissions"].board(rules.view_for(after, None), events, True),
                              bytes)
    order = ("board draw", "dice draw", "board encode", "dice encode") if together else PARTS[2:]
    collections, began = [], [0.0]

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            collections.append((info["generation"], (time.process_time() - began[0]) * 1000))
    gc.callbacks.append(watch)
    rows = []
    try:
        for _ in range(runs):
            collections.clear()
            marks = [time.process_time()]
            after, events = rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
            marks.append(time.process_time())
            view = rules.view_for(after, None)
            marks.append(time.process_time())
            drawn = {}
            for part in order:
                kind = part.split()[0]
                if part.endswith("draw"):
                    drawn[kind] = (board.board_image if kind == "board" else dice_image)(view, events)
                else:
                    encode(drawn[kind])
                marks.append(time.process_time())
            row = {part: (b - a) * 1000 for part, a, b in zip(PARTS[:2] + order, marks, marks[1:])}
            row["gc"] = list(collections)
            row["floor"] = cpu_ms(floor, 1)[0]
            rows.append(row)
    finally:
        gc.callbacks.remove(watch)
    return rows


def report_parts(trees: list[Tree], runs: int) -> None:
    """Where the full action's CPU goes, at p50 and in its slowest 5% of runs, per tree
    (the trees taking turns round by round)."""
    found: dict[str, list[dict]] = {tree.label: [] for tree in trees}
    for _ in range(ROUNDS):
        for tree in trees:
            found[tree.label] += tree.ask("parts", max(1, runs // ROUNDS))
    for tree in trees:
        print_parts(tree.label, found[tree.label])


def print_parts(label: str, rows: list[dict]) -> None:
    """One tree's parts of the full action (see report_parts)."""
    totals = [sum(r[p] for p in PARTS) for r in rows]
    slow = sorted(range(len(rows)), key=lambda i: -totals[i])[:max(1, len(rows) // 20)]
    floors = [r["floor"] for r in rows]
    print(f"{label}: {len(rows)} full actions; total p50 {p50(totals):.2f} ms, p95 {p95(totals):.2f} ms; "
          f"floor p50 {p50(floors):.2f} ms, p95 {p95(floors):.2f} ms; p95/floor p95 {p95(totals) / p95(floors):.2f}x")
    print(f"  {'part':14} {'p50':>7} {'slowest 5%':>10} {'x p50':>6}")
    for part in PARTS + ("not encoding",):
        values = [sum(r[p] for p in PARTS if "encode" not in p) if part == "not encoding" else r[part] for r in rows]
        worst = statistics.mean(values[i] for i in slow)
        print(f"  {part:14} {p50(values):>5.2f}ms {worst:>8.2f}ms {worst / p50(values):>5.2f}x")
    collected = [g for r in rows for g in r["gc"]]
    print(f"  garbage collections: {len(collected)} in {sum(1 for r in rows if r['gc'])} runs "
          f"(generations {dict(sorted(Counter(g for g, _ in collected).items()))}, "
          f"longest {max((ms for _, ms in collected), default=0):.2f} ms); in the slowest 5%: "
          f"{sum(len(rows[i]['gc']) for i in slow)}, {sum(ms for i in slow for _, ms in rows[i]['gc']):.2f} ms")


def measure(name: str, runs: int) -> dict:
    """One case's figures in this tree: CPU ms of each render and of only encoding its
    picture, the two taken in turn so that both meet the same load; and the bytes."""
    from images.style import encode
    if name == FULL_ACTION:
        render, floor = full_action()
    else:
        render, image_of = cases()[name]
        image = image_of()

        def floor():
            return encode(image)
    data = render()
    found = {"render": [], "encode": [], "bytes": sum(len(d) for _, d in data) if name == FULL_ACTION else len(data)}
    for _ in range(runs):
        found["render"] += cpu_ms(render, 1)
        found["encode"] += cpu_ms(floor, 1)
    return found


LEVEL_KINDS = ("board standard (move)", "dice attack + re-rolls", "renegades orbit (move)", "renegades ship status")
STRATEGIES = {"default": -1, "filtered": 1, "rle": 3}


def levels(runs: int) -> dict:
    """Per picture kind, per zlib level and strategy: p50 CPU ms of writing the PNG, and its bytes."""
    import io
    from images.style import to_palette
    found = {}
    for name in LEVEL_KINDS:
        image = cases()[name][1]()
        image = image if image.mode == "P" else to_palette(image)
        for strategy, number in STRATEGIES.items():
            for level in (1, 2, 3, 4, 6, 9):
                def write():
                    out = io.BytesIO()
                    image.save(out, "PNG", compress_level=level, compress_type=number)
                    return out.getvalue()
                found[f"{name}|{strategy}|{level}"] = (p50(cpu_ms(write, runs)), len(write()))
    return found


def first_boards() -> dict:
    """CPU ms of the first board of a layout and of a Renegades pack (static layer drawn)."""
    from images import board, demo_renegades, orbit, render_board
    from images.demo import midgame_view
    view, ren = midgame_view(), demo_renegades.midgame_view()
    board._STATIC.clear()
    getattr(board, "_DOORS", {}).clear()  # the doors drawn per layout, where a tree keeps them
    orbit.static_layer.cache_clear()
    return {"board": cpu_ms(lambda: render_board(view), 1)[0], "orbit": cpu_ms(lambda: orbit.render_orbit(ren), 1)[0]}


def worker() -> None:
    """Serve measurements for the tree this runs in: one JSON request a line, one answer."""
    sys.path.insert(0, os.getcwd())
    answers = {"first": first_boards, "cases": lambda: list(cases()) + [FULL_ACTION], "levels": levels,
               "parts": parts}
    for line in sys.stdin:
        request = json.loads(line)
        answer = answers[request[0]](*request[1:]) if request[0] in answers else measure(request[1], request[2])
        print(json.dumps(answer), flush=True)


class Tree:
    """A worker process measuring one checkout."""

    def __init__(self, label: str, root: str):
        self.label, self.root = label, root
        self.process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], cwd=root,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *request):
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def commit_of(root: str) -> str:
    found = subprocess.run(["git", "-C", root, "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    return found.stdout.strip()[:70]


def report(trees: list[Tree], runs: int, only: str = "") -> dict[str, int]:
    """Print every case side by side; returns the first tree's bytes per case."""
    loads = os.getloadavg()
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, load average {loads[0]:.1f} at start")
    print(f"command: python3 benchmarks/render_bench.py {' '.join(sys.argv[1:])}")
    for tree in trees:
        first = tree.ask("first")
        print(f"{tree.label}: {tree.root} ({commit_of(tree.root)}); first board of a layout {first['board']:.1f} ms, "
              f"first orbital board {first['orbit']:.1f} ms CPU (static layer drawn, then cached)")
    print()
    names = [n for n in trees[0].ask("cases") if only in n and all(n in t.ask("cases") for t in trees[1:])]
    rounds = ROUNDS if len(trees) > 1 else 1
    head = f"{'picture':48} {'tree':4} {'p50':>7} {'p95':>7} {'encode':>7} {'ratio':>6} {'p95/enc':>7} {'bytes':>7}"
    print(head)
    print("-" * len(head))
    first_bytes = {}
    for name in names:
        found = {tree.label: {"render": [], "encode": [], "bytes": 0} for tree in trees}
        for _ in range(rounds):
            for tree in trees:
                figures = tree.ask("measure", name, max(1, runs // rounds))
                found[tree.label]["render"] += figures["render"]
                found[tree.label]["encode"] += figures["encode"]
                found[tree.label]["bytes"] = figures["bytes"]
        for tree in trees:
            f = found[tree.label]
            enc50, enc95 = p50(f["encode"]), p95(f["encode"])
            print(f"{name:48} {tree.label:4} {p50(f['render']):>5.2f}ms {p95(f['render']):>5.2f}ms {enc50:>5.2f}ms "
                  f"{p50(f['render']) / enc50:>5.2f}x {p95(f['render']) / enc95:>6.2f}x {f['bytes']:>7}")
        first_bytes[name] = found[trees[0].label]["bytes"]
        if len(trees) == 2:
            old, new = (found[t.label] for t in trees)
            print(f"{'':48} new/old: p50 {p50(new['render']) / p50(old['render']):.2f}x, "
                  f"bytes {new['bytes'] / old['bytes']:.2f}x")
    print("\np50, p95: CPU time to draw and encode the picture (a full action: apply, view, draw both).")
    print("encode: p50 CPU time to only encode the finished picture (old: quantize + PNG; new: PNG): the floor.")
    print("ratio: p50 / encode p50; p95/enc: p95 / encode p95 (1.00x would mean drawing costs nothing).")
    return first_bytes


def report_levels(tree: Tree, runs: int, before: dict[str, int]) -> None:
    """The encoder's choices for the main picture kinds, measured in `tree`; bytes also
    against `before` (each kind's PNG bytes in the old tree, if measured)."""
    found = tree.ask("levels", max(5, runs // 4))
    print(f"\nPNG writing only, by zlib level and strategy ({tree.label} tree's pictures; "
          f"x: bytes against the old PNG)")
    print(f"{'picture':26} {'strategy':9} " + " ".join(f"{'level ' + str(n):>17}" for n in (1, 2, 3, 4, 6, 9)))
    for name in LEVEL_KINDS:
        for strategy in STRATEGIES:
            cells = []
            for level in (1, 2, 3, 4, 6, 9):
                ms, size = found[f"{name}|{strategy}|{level}"]
                ratio = f" {size / before[name]:.2f}x" if name in before else ""
                cells.append(f"{ms:>5.2f}ms {size // 1024:>3}K{ratio}")
            print(f"{name[:26]:26} {strategy:9} " + " ".join(f"{c:>17}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100, help="calls per case and tree")
    parser.add_argument("--base", help="a checkout of an earlier commit, measured side by side as 'old'")
    parser.add_argument("--levels", action="store_true", help="also the PNG encoder's levels and strategies")
    parser.add_argument("--only", default="", help="only the cases whose name holds this text")
    parser.add_argument("--parts", action="store_true", help="the full action taken apart, run by run")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    trees = ([Tree("old", os.path.abspath(args.base))] if args.base else []) + [Tree("new" if args.base else "this",
                                                                                     HERE)]
    try:
        if args.parts:
            print(f"command: python3 benchmarks/render_bench.py {' '.join(sys.argv[1:])}; "
                  f"load average {os.getloadavg()[0]:.1f} at start")
            report_parts(trees, args.runs)
            return
        before = report(trees, args.runs, args.only)
        if args.levels:
            report_levels(trees[-1], args.runs, before if args.base else {})
    finally:
        for tree in trees:
            tree.close()


if __name__ == "__main__":
    main()
