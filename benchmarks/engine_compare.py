"""Complete random Away Missions games in two checkouts, side by side, in CPU time.

    python benchmarks/engine_compare.py OLD_CHECKOUT NEW_CHECKOUT [GAMES]

One process per checkout plays engine_bench's games (2, 3, 4 players, 2 vs 2; boards
placed in setup) seed by seed, the two taking turns, so a loaded machine weighs on both
alike. Prints CPU ms per game (p50, p95) of each and new/old. Not a test.
"""
import os
import statistics
import subprocess
import sys

TABLES = {"2 players": (2, False), "3 players": (3, False), "4 players": (4, False), "2 vs 2": (4, True)}


def serve(checkout):
    """Worker: read 'players teams seed' lines, play that game in `checkout`, answer its CPU ms."""
    import random
    import time
    sys.path.insert(0, os.path.join(checkout, "benchmarks"))
    import engine_bench as bench  # puts the checkout first on the path and works from there
    from engine.awaymissions import rules
    from engine.awaymissions.autoplay import play_out
    for line in sys.stdin:
        players, teams, seed = (int(word) for word in line.split())
        config = bench.CONFIG if players == 2 else bench.table_config(players, teams=bool(teams))
        start = time.process_time()
        play_out(rules.new_game(config, seed), random.Random(seed))
        print(f"{(time.process_time() - start) * 1e3:.3f}", flush=True)


def p95(values):
    return sorted(values)[int(len(values) * 0.95) - 1]


def main():
    old, new = (os.path.abspath(path) for path in sys.argv[1:3])
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    workers = {name: subprocess.Popen([sys.executable, __file__, "--serve", path], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True) for name, path in (("old", old), ("new", new))}
    print(f"load average {os.getloadavg()[0]:.1f} at the start")
    for label, (players, teams) in TABLES.items():
        cpu = {"old": [], "new": []}
        for seed in range(games):
            for name in ("old", "new") if seed % 2 == 0 else ("new", "old"):
                workers[name].stdin.write(f"{players} {int(teams)} {seed}\n")
                workers[name].stdin.flush()
                cpu[name].append(float(workers[name].stdout.readline()))
        o, n = cpu["old"], cpu["new"]
        print(f"{label}: old p50 {statistics.median(o):.1f} p95 {p95(o):.1f} ms CPU, new p50 {statistics.median(n):.1f} "
              f"p95 {p95(n):.1f} ms CPU; new/old p50 {statistics.median(n) / statistics.median(o):.2f}, "
              f"p95 {p95(n) / p95(o):.2f} ({games} games each)", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    for worker in workers.values():
        worker.stdin.close()
        worker.wait()


if __name__ == "__main__":
    if sys.argv[1] == "--serve":
        serve(sys.argv[2])
    else:
        main()
