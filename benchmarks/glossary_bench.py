"""Glossary lookup timings for a glossary of 1,000 entries (the real ones padded with
made-up terms built from their words).

    python benchmarks/glossary_bench.py [ENTRIES] [QUERIES]

Times what /rules does per keystroke of autocomplete and per answer: exact names,
plurals, one-letter typos, partial words and nonsense. Prints median, p95 and max in
milliseconds. Not a test: nothing fails here.
"""
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.glossary import Entry, Glossary, load_entries, slug  # noqa: E402


def padded(entries: list[Entry], size: int, rng: random.Random) -> list[Entry]:
    """The real entries plus made-up ones up to `size`, named from the real terms' words."""
    words = sorted({w for e in entries for w in e.term.lower().split() if w.isalpha()})
    names = {e.term.lower() for e in entries}
    made = list(entries)
    while len(made) < size:
        term = " ".join(rng.sample(words, rng.choice((2, 2, 3)))).capitalize()
        if term.lower() not in names:
            names.add(term.lower())
            made.append(Entry(term=term, short="A made-up term for the benchmark.", ruleset="bench",
                              source=slug(term)))
    return made


def queries(entries: list[Entry], count: int, rng: random.Random) -> dict[str, list[str]]:
    """Queries of each kind, drawn from the glossary's own terms."""
    terms = [e.term for e in entries]

    def typo(term: str) -> str:
        i = rng.randrange(len(term))
        return term[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz") + term[i + 1:]

    return {
        "exact": [rng.choice(terms) for _ in range(count)],
        "plural": [rng.choice(terms) + "s" for _ in range(count)],
        "typo": [typo(rng.choice(terms)) for _ in range(count)],
        "partial": [rng.choice(terms)[:rng.randint(2, 5)] for _ in range(count)],
        "nonsense": ["".join(rng.choices("qxzjkv", k=8)) for _ in range(count)],
    }


def main(size: int = 1000, count: int = 2000) -> None:
    rng = random.Random(7)
    start = time.perf_counter()
    glossary = Glossary(padded(load_entries(), size, rng))
    print(f"glossary of {len(glossary.entries)} entries indexed in {(time.perf_counter() - start) * 1000:.1f} ms")
    everything = []
    for kind, asked in queries(glossary.entries, count, rng).items():
        times = []
        for query in asked:
            begin = time.perf_counter()
            glossary.lookup(query, limit=25)
            times.append((time.perf_counter() - begin) * 1000)
        everything += times
        times.sort()
        print(f"{kind:>9}: median {statistics.median(times):.3f} ms, p95 {times[int(len(times) * 0.95) - 1]:.3f} ms, "
              f"max {times[-1]:.3f} ms ({len(times)} lookups)")
    everything.sort()
    print(f"      all: p95 {everything[int(len(everything) * 0.95) - 1]:.3f} ms over {len(everything)} lookups")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
