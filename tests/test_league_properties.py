"""Property tests: random events of 2-40 players over up to 8 rounds with random results.

Every round: each active player appears exactly once; the bye follows the rule; there is
no rematch whenever a rematch-free pairing exists; and for small rounds a brute-force
search over every pairing finds nothing better by (rematches, cross-group pairs, total
of squared Battle Point differences), so no pairing has more cross-group pairs than the
brute-force optimum.
"""
import random
from collections import Counter

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.league_helpers import fleet
from engine.league.event import Claim, drop, join_late, new_event, open_registration, register, start, submit_build
from engine.league.pairing import Entrant, pair_round
from engine.league.results import apply_deadlines, disputes, report, resolve
from engine.league.rounds import pair_next_round, publish_round
from engine.league.standings import standings, totals

FLEET = fleet(100, "Ship")
BRUTE_FORCE_LIMIT = 10  # players paired in a round (945 pairings at most)


def all_pairings(ids):
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for tail in all_pairings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def quality(pairs, points, met):
    """(rematches, cross-group pairs, total squared Battle Point difference)."""
    return (
        sum(b in met[a] for a, b in pairs),
        sum(points[a] != points[b] for a, b in pairs),
        sum((points[a] - points[b]) ** 2 for a, b in pairs),
    )


def check_pairs(pairs, points, met, order=None):
    """The matching properties for one round's pairs (the bye already taken out).

    With the standings `order`, the brute force also checks the last criterion: the
    smallest total of squared distances in the standings.
    """
    ids = sorted(p for pair in pairs for p in pair)
    free = nx.Graph()
    free.add_nodes_from(ids)
    free.add_edges_from((a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if b not in met[a])
    if 2 * len(nx.max_weight_matching(free, maxcardinality=True)) == len(ids):
        assert quality(pairs, points, met)[0] == 0, "a rematch-free pairing existed"
    if len(ids) <= BRUTE_FORCE_LIMIT:
        best = min(quality(p, points, met) for p in all_pairings(ids))
        assert quality(pairs, points, met) == best  # so no optimum has fewer cross-group pairs
        if order is not None:
            place = {p: i for i, p in enumerate(order)}
            spread = lambda ps: sum((place[a] - place[b]) ** 2 for a, b in ps)  # noqa: E731
            assert spread(pairs) == min(spread(p) for p in all_pairings(ids) if quality(p, points, met) == best)


def expected_bye(event, number, active):
    """The bye the rule demands after round 1, by the standings after the last round."""
    table = totals(event, number - 1)
    order = [row.player for row in standings(event, number - 1) if row.player in active]
    last = event.rounds[number - 2].bye
    pool = [p for p in order if p != last]
    key = lambda p: (table[p].byes, table[p].battle_points, table[p].tiebreak)  # noqa: E731
    lowest = min(key(p) for p in pool)
    return [p for p in pool if key(p) == lowest][-1]


def play(event, rnd, rng):
    """Random results through every door: matching reports, disputes, 0-0, deadlines."""
    for game in rnd.games:
        a, b = game.players
        if rng.random() < 0.5:
            a, b = b, a
        kept = rng.randint(0, 100)
        claim = Claim(winner=a, surviving={a: kept, b: rng.randint(0, kept)})
        roll = rng.random()
        if roll < 0.7:
            report(event, a, claim)
            report(event, b, claim)
        elif roll < 0.8:
            report(event, a, claim)
            report(event, b, Claim(winner=b, surviving={a: 0, b: kept}))
        elif roll < 0.88:
            report(event, a, Claim(outcome="not_played"))
            report(event, b, Claim(outcome="not_played"))
        elif roll < 0.94:
            report(event, a, claim)  # b stays silent: forfeit at the deadline
    apply_deadlines(event, rnd.deadline)
    for _, game in disputes(event):
        resolve(event, "org", rnd.deadline, rnd.number, game.table, game.claims[game.players[0]])
    assert rnd.status == "complete"


def run_event(size, rounds, seed):
    rng = random.Random(seed)
    event = new_event("prop", "Random", seed=seed, kind="season", rounds_planned=rounds, round_days=1)
    open_registration(event, "org", 0)
    for i in range(size):
        register(event, f"p{i}", f"P{i}")
        submit_build(event, f"p{i}", FLEET)
    start(event, "org", 0)
    joined = size
    for number in range(1, rounds + 1):
        now = number * 10**6
        active = [p.id for p in event.players.values() if p.active_in(number)]
        if number > 1 and len(active) > 2 and rng.random() < 0.15:
            drop(event, rng.choice(active), "org", now)
        if number > 1 and rng.random() < 0.15:
            join_late(event, f"p{joined}", f"P{joined}", FLEET, "org", now)
            joined += 1
        active = {p.id for p in event.players.values() if p.active_in(number)}
        if len(active) < 2:
            break
        table = totals(event, number - 1)
        rnd = pair_next_round(event, "org", now)
        seen = Counter(p for g in rnd.games for p in g.players) + Counter([rnd.bye] if rnd.bye else [])
        assert set(seen) == active and set(seen.values()) == {1}
        assert (rnd.bye is not None) == (len(active) % 2 == 1)
        if number > 1 and rnd.bye is not None:
            assert rnd.bye == expected_bye(event, number, active)
            assert rnd.bye != event.rounds[number - 2].bye
        if number > 1:
            points = {p: table[p].battle_points for p in active}
            met = {p: table[p].opponents for p in active}
            check_pairs([g.players for g in rnd.games], points, met)
        publish_round(event, "org", now)
        play(event, rnd, rng)
    return event


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(2, 12), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_random_small_events(size, rounds, seed):
    run_event(size, rounds, seed)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(13, 40), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_random_large_events(size, rounds, seed):
    run_event(size, rounds, seed)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), size=st.integers(1, 5).map(lambda k: 2 * k))
def test_pairing_on_arbitrary_histories(data, size):
    """Dense, arbitrary past meetings and points, straight into the pairing function."""
    ids = [f"p{i}" for i in range(size)]
    points = {p: data.draw(st.integers(0, 6)) for p in ids}
    met = {p: set() for p in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if data.draw(st.booleans()):
                met[a].add(b)
                met[b].add(a)
    order = sorted(ids, key=lambda p: -points[p])
    entrants = [Entrant(p, p, points[p], 0, 0, frozenset(met[p])) for p in order]
    pairing = pair_round(entrants)
    assert sorted(p for pair in pairing.pairs for p in pair) == sorted(ids) and pairing.bye is None
    check_pairs(pairing.pairs, points, met, order)
