"""Engine timings on this machine: legal_commands, one attack resolution, complete games.

    python benchmarks/engine_bench.py [GAMES] [renegades]    (renegades: only the Renegades games)

Prints medians (and p95) in microseconds or milliseconds; complete games also in CPU time
(time.process_time), the figure to compare on a shared machine. Not a test: nothing fails here.
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.awaymissions import rules  # noqa: E402
from engine.awaymissions.autoplay import play_out, random_command  # noqa: E402
from engine.awaymissions.content import load_pack  # noqa: E402
from engine.awaymissions import geometry as sight  # noqa: E402
from engine.awaymissions.geometry import line_of_sight  # noqa: E402
from engine.awaymissions.layout import PRESETS, geometry, preset  # noqa: E402
from engine.awaymissions.scenario import build  # noqa: E402
from engine.renegades import autoplay as renegades_autoplay  # noqa: E402
from engine.renegades import rules as renegades_rules  # noqa: E402

CONFIG = {
    "pack": "content/starter",
    "players": [
        {"seat": "p1", "affiliation": "federation", "team": "federation-away-team"},
        {"seat": "p2", "affiliation": "borg", "team": "borg-away-team"},
    ],
}


def table_config(players, teams=False):
    """Three or four seats, Federation and Borg in turn; with `teams` p1 and p3 against p2 and p4."""
    affiliations = ["federation", "borg"]
    config = {"pack": "content/starter",
              "players": [{"seat": f"p{i + 1}", "affiliation": affiliations[i % 2],
                           "team": f"{affiliations[i % 2]}-away-team"} for i in range(players)]}
    if teams:
        config["mode"] = "teams"
    return config


def p95(values):
    return sorted(values)[int(len(values) * 0.95) - 1]


def time_games(count, layout, base=CONFIG):
    """Wall-clock and CPU seconds of each complete game, and its command count."""
    times, cpu, commands = [], [], []
    for seed in range(count):
        config = dict(base, layout=layout) if layout else base
        start, start_cpu = time.perf_counter(), time.process_time()
        state = rules.new_game(config, seed)
        state, log = play_out(state, random.Random(seed))
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        commands.append(len(log))
    return times, cpu, commands


def time_legal_commands(samples=3000):
    state = rules.new_game(dict(CONFIG, layout="standard"), 1)
    rng = random.Random(1)
    times = []
    while len(times) < samples:
        if state.phase == "over":
            state = rules.new_game(dict(CONFIG, layout="standard"), len(times))
        seat = rules.awaited(state)[0]
        start = time.perf_counter()
        rules.legal_commands(state, seat)
        times.append(time.perf_counter() - start)
        seat, command = random_command(state, rng)
        state, _ = rules.apply(state, seat, command)
    return times


def time_attack(samples=3000):
    spec = {"layout": "standard", "start": {"round": 1, "phase": "action", "turn": "p1"},
            "characters": {"FERROW": {"space": "C5"}, "D4-12": {"space": "E5"}, "NEXUS": {"space": "H6"}}}
    state = build(spec)
    state, _ = rules.apply(state, "p1", "activate FERROW")
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        rules.apply(state, "p1", "attack FERROW D4-12 phaser-rifle")
        times.append(time.perf_counter() - start)
    return times


def time_line_of_sight():
    """Per preset layout: every pair's first check (growing the lines, none grown for any
    layout before) and a repeat."""
    pack = load_pack("content/starter")
    for name in PRESETS:
        geo = geometry(pack, preset(pack, name))
        geo.los_memo.clear()
        sight._CROSSINGS.clear()  # the crossings shared by every layout, grown afresh
        names = sorted(geo.spaces)
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
        for doors, occupied in (("open", set(names)), ("closed", set())):
            start = time.perf_counter()
            for a, b in pairs:
                line_of_sight(geo, a, b, occupied, ())
            first = time.perf_counter() - start
            start = time.perf_counter()
            for a, b in pairs:
                line_of_sight(geo, a, b, occupied, ())
            again = time.perf_counter() - start
            print(f"line of sight, {name}, doors {doors}: {len(pairs)} pairs, first pass {first * 1e3:.0f} ms "
                  f"(this layout's cost), then {again / len(pairs) * 1e6:.1f} us per check")


def main():
    """engine_bench.py [GAMES] [renegades]: every timing, or with `renegades` only Renegades games."""
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    if "renegades" not in sys.argv[2:]:
        time_away_missions(games)
    time_renegades(games)


def time_away_missions(games):
    time_line_of_sight()
    legal = time_legal_commands()
    print(f"legal_commands: median {statistics.median(legal) * 1e6:.0f} us, p95 {p95(legal) * 1e6:.0f} us")
    attack = time_attack()
    print(f"one attack (apply, roll, resolve, damage): median {statistics.median(attack) * 1e6:.0f} us, "
          f"p95 {p95(attack) * 1e6:.0f} us")
    medians = {}
    for label, layout, base in (("preset layout", "standard", CONFIG), ("boards placed in setup", None, CONFIG),
                                ("3 players, boards placed", None, table_config(3)),
                                ("4 players, boards placed", None, table_config(4)),
                                ("2 vs 2, boards placed", None, table_config(4, teams=True))):
        times, cpu, commands = time_games(games, layout, base)
        medians[label] = statistics.median(times)
        print(f"complete random game, {label}: median {statistics.median(times) * 1e3:.1f} ms, "
              f"p95 {p95(times) * 1e3:.1f} ms; CPU p50 {statistics.median(cpu) * 1e3:.1f} ms, "
              f"p95 {p95(cpu) * 1e3:.1f} ms; {statistics.median(commands):.0f} commands "
              f"(random player included), {games} games")
    two = medians["boards placed in setup"]
    print(f"4-player game / 2-player game (medians): {medians['4 players, boards placed'] / two:.2f}x; "
          f"2 vs 2: {medians['2 vs 2, boards placed'] / two:.2f}x (target: under 4x)")


def time_renegades(games):
    for label, config in (("Coalition against Renegades", {"players": [{"seat": "p1"}, {"seat": "p2"}]}),
                          ("solo against NPC Coalition ships", {"mode": "coop", "players": [{"seat": "p1"}]}),
                          ("4 players, 10 world cards", {"players": [{"seat": f"p{i}"} for i in range(1, 5)],
                                                         "world_cards": 10}),
                          ("the quicker game (landed from the start), versus",
                           {"players": [{"seat": "p1"}, {"seat": "p2"}], "quick": True}),
                          ("boards built from location cards, versus",
                           {"players": [{"seat": "p1"}, {"seat": "p2"}], "boards": "built"})):
        times, commands, surface = time_renegades_games(games, config)
        print(f"complete random Renegades game (orbit and surface), {label}: median "
              f"{statistics.median(times) * 1e3:.1f} ms, p95 {p95(times) * 1e3:.1f} ms, "
              f"{statistics.median(commands):.0f} commands, {statistics.median(surface):.0f} of them on the surface "
              f"(random player included), {games} games (target: under 200 ms)")


SURFACE_VERBS = {"deploy", "disembark", "open", "scan", "hide", "carry", "take", "board"}


def _on_surface(words, state):
    """A landing party's command: a surface verb, or a move or attack by a crewmember."""
    return words[0] in SURFACE_VERBS or (len(words) > 1 and words[1] in state.crew)


def time_renegades_games(count, config):
    times, commands, surface = [], [], []
    for seed in range(count):
        start = time.perf_counter()
        state = renegades_rules.new_game(config, seed)
        state, log = renegades_autoplay.play_out(state, random.Random(seed))
        times.append(time.perf_counter() - start)
        commands.append(len(log))
        surface.append(sum(1 for _, command in log if _on_surface(command.split(), state)))
    return times, commands, surface


if __name__ == "__main__":
    main()
