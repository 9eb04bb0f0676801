"""The end-of-game pictures' cost: for a complete seeded random game of each table, the time
to tell the story from the log (every step rebuilt), to draw and encode the recap GIF and the
summary PNG, their bytes, frames and length; beside them the same frames as an animated WebP
(lossless), the format ruling P43 did not choose, for its bytes and time.

    python benchmarks/recap_bench.py [REPEATS] [--samples FOLDER]

CPU seconds (time.process_time), the median of REPEATS runs (default 3). Not a test. With
--samples, the recap and summary of a 2-player game of each ruleset are written into FOLDER
(docs/images holds them).
"""
import io
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.service import audit, story  # noqa: E402
from engine.service.recaps import draw  # noqa: E402
from images import recap  # noqa: E402
from images.summary import render_summary  # noqa: E402
from tests.test_recap import NAMES, SEED, TABLES, played  # noqa: E402


def cpu(fn, repeats):
    """(median CPU seconds, last result) of `fn` run `repeats` times."""
    times, result = [], None
    for _ in range(repeats):
        start = time.process_time()
        result = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def webp(frames, each):
    out = io.BytesIO()
    frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], duration=each, loop=0, lossless=True,
                   method=0)
    return out.getvalue()


SAMPLES = {"away missions, 2 players": ("awaymissions", 25), "renegades, coalition vs renegades": ("renegades", 7)}


def main(repeats: int, samples: str = "") -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {repeats} runs, CPU seconds")
    print(f"{'table':<36}{'moves':>6}{'frames':>7}{'length':>8}{'tell':>7}{'recap':>7}{'GIF bytes':>11}"
          f"{'summary':>8}{'PNG bytes':>10}{'all':>7}{'WebP':>7}{'WebP bytes':>11}")
    for name in TABLES:
        ruleset, config, log = played(name)
        told_s, told = cpu(lambda: story.tell(ruleset, config, SEED, log, NAMES), repeats)
        recap_s, made = cpu(lambda: recap.render_recap(told.chapters), repeats)
        summary_s, summary = cpu(lambda: render_summary("Game", told.tally, told.turns, NAMES, "checked", True), repeats)
        all_s, _ = cpu(lambda: draw(ruleset, 1, config, SEED, log, NAMES, None), repeats)
        frames = list(recap.frames_of(told.chapters))
        webp_s, webp_data = cpu(lambda: webp(frames, recap.frame_ms(len(frames))), 1)
        print(f"{name:<36}{len(log):>6}{made.frames:>7}{made.playing_ms / 1000:>7.1f}s{told_s:>7.2f}{recap_s:>7.2f}"
              f"{len(made.data):>11,}{summary_s:>8.3f}{len(summary):>10,}{all_s:>7.2f}{webp_s:>7.2f}{len(webp_data):>11,}")
        if samples and name in SAMPLES:
            write_samples(samples, name)


def write_samples(folder: str, name: str) -> None:
    """The recap and summary of a game with some fighting in it (its seed picked for that),
    its dice checked against a fresh seal as at a table."""
    label, seed = SAMPLES[name]
    ruleset, config, log = played(name, seed)
    salt = audit.new_salt()
    verdict = audit.verify(ruleset, config, seed, [(n, e.seat, e.command, e.events) for n, e in enumerate(log, 1)],
                           None, salt=salt, digest=audit.seal(seed, salt))
    for file_name, data in draw(ruleset, seed, config, seed, log, NAMES, verdict):
        kind, ending = file_name.split(".")
        with open(os.path.join(folder, f"{kind}-{label}.{ending}"), "wb") as out:
            out.write(data)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    folder = arguments[arguments.index("--samples") + 1] if "--samples" in arguments else ""
    numbers = [a for a in arguments if a.isdigit()]
    main(int(numbers[0]) if numbers else 3, folder)
