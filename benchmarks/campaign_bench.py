"""Campaign timings on this machine: one shore leave step, a mission's end recorded, a whole
campaign rebuilt by the replay check, and a shore leave step through the service (stored).

    python benchmarks/campaign_bench.py [REPEATS]

Prints medians (and p95) in microseconds or milliseconds. Not a test: nothing fails here.
"""
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.renegades import autoplay, rules  # noqa: E402
from engine.renegades.campaign import campaign as cp  # noqa: E402
from engine.service import GameService  # noqa: E402
from engine.service.campaign import CampaignService  # noqa: E402
from engine.service.replay import check_campaign  # noqa: E402

PLAYERS = [{"seat": "p1", "faction": "renegade"}, {"seat": "p2", "faction": "coalition"}]


def timed(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def show(name, figures, unit=1e6, label="us"):
    median, p95 = figures
    print(f"{name:<44} median {median * unit:8.1f} {label}   p95 {p95 * unit:8.1f} {label}")


def on_shore_leave():
    c = cp.new_campaign({"title": "ember", "players": PLAYERS}, 1)
    c, _ = cp.apply(c, "p1", "launch")
    game = rules.new_game(cp.mission_config(c), c.mission_seed)
    final, _ = autoplay.play_out(game, random.Random(1))
    outcome = cp.outcome_of(final)
    return c, outcome


async def through_service(repeats):
    with tempfile.TemporaryDirectory() as folder:
        games = await GameService.open(os.path.join(folder, "games.db"))
        desk = CampaignService(games)
        made = await desk.create(players=[(1, "Ann", {"faction": "renegade"}), (2, "Bo", {"faction": "coalition"})],
                                 title="ember", channel_id=5, thread_id=6, seed=3)
        cid = made.campaign_id
        update = await desk.continue_(cid, 1)
        rng = random.Random(2)
        while (info := await games.get(update.game_id)).status == "active":
            user = 1 if info.awaited[0].seat == "p1" else 2
            version, commands = await games.legal_commands(info.id, user)
            await games.submit(info.id, user, "pass" if "pass" in commands else rng.choice(commands), version)
        await desk.continue_(cid, 1)
        times = []
        for i in range(repeats):
            start = time.perf_counter()
            await desk.command(cid, 1, "crew VESK TALLO RHEE MOTT GRUND")
            times.append(time.perf_counter() - start)
        times.sort()
        show("service: a shore leave step, committed", (statistics.median(times), times[int(len(times) * .95) - 1]),
             1e3, "ms")
        start = time.perf_counter()
        checked = await check_campaign(games.db, cid)
        print(f"{'replay check of that campaign (' + str(checked.commands) + ' steps, 1 game)':<44} "
              f"{(time.perf_counter() - start) * 1e3:8.1f} ms   ok={checked.ok}")
        await games.close()


def main(repeats: int) -> None:
    c, outcome = on_shore_leave()
    fresh = cp.new_campaign({"title": "ember", "players": PLAYERS}, 1)
    show("engine: launch (draw the next mission)", timed(lambda: cp.apply(fresh, "p1", "launch"), repeats))
    show("engine: finish (record a mission)", timed(lambda: cp.apply(c, "p1", "finish", outcome), repeats))
    leave, _ = cp.apply(c, "p1", "finish", outcome)
    show("engine: a shore leave step (sell)", timed(lambda: cp.apply(leave, "p1", "sell arc-pistol"), repeats))
    print(f"{'campaign state as JSON':<44} {len(cp.to_json(leave)):8d} bytes")
    asyncio.run(through_service(max(20, repeats // 10)))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
