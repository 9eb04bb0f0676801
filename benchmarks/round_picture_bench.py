"""What the picture of a complete league round costs (images/round_results.py): CPU
milliseconds to draw and encode it (p50 and p95) and its bytes, for events of 8, 16 and 40
players (a results line per table, then the standings).

    python benchmarks/round_picture_bench.py [--runs N]

This prints figures; it asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.league.event import rank_title  # noqa: E402
from engine.league.standings import Standing  # noqa: E402
from images.round_results import render_round  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")
    for players in (8, 16, 40):
        rows = [Standing(n, rank_title(n), str(n), f"Player {n}", 16 - n // 3, 900 - 7 * n)
                for n in range(1, players + 1)]
        results = [f"Table {t}: Player {2 * t - 1} vs Player {2 * t}: Player {2 * t - 1} wins "
                   f"(Player {2 * t - 1} 60 SP left, Player {2 * t} 0 SP left)" for t in range(1, players // 2 + 1)]
        times, data = [], b""
        for _ in range(runs):
            start = time.process_time()
            data = render_round("Season", 3, results, rows)
            times.append((time.process_time() - start) * 1000)
        ordered = sorted(times)
        print(f"{players:3d} players: {statistics.median(times):6.1f} ms p50, "
              f"{ordered[max(0, round(0.95 * runs) - 1)]:6.1f} ms p95, {len(data):7,d} bytes")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
