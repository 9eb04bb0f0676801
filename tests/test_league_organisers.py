"""Organiser tools: re-pairing a round, re-adding a dropped player, and the top cut
(single elimination of the best N after the Swiss rounds, byes for non-powers of two)."""
import pytest

from engine.errors import RuleError
from engine.league.event import Claim, close, drop, from_json, readmit, to_json
from engine.league.results import report, resolve
from engine.league.rounds import pair_next_round, publish_round, repair_round, swap_players
from engine.league.standings import standings
from engine.league.topcut import champion, first_bracket, seed_order
from tests.league_helpers import fleet, started_event

FLEET = fleet(100)
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus"]


def play_round(event, now=0, winner=lambda game: game.players[0]):
    """Pair, publish and finish a round; the first-seated player wins unless told."""
    rnd = pair_next_round(event, "org", now)
    publish_round(event, "org", now)
    for game in rnd.games:
        won = winner(game)
        lost = game.opponent(won)
        claim = Claim(winner=won, surviving={won: 50, lost: 0})
        resolve(event, "org", now, rnd.number, game.table, claim)
    return rnd


def audit(event, action):
    return [e for e in event.audit if e.action == action]


def test_seed_order_keeps_the_first_two_seeds_apart():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert first_bracket(["a", "b", "c"]) == ["a", "", "b", "c"]
    assert first_bracket(["a", "b", "c", "d", "e", "f"]) == ["a", "", "d", "e", "b", "", "c", "f"]


@pytest.mark.parametrize("cut, games, through", [(2, 1, 0), (3, 1, 1), (4, 2, 0), (5, 1, 3), (6, 2, 2), (7, 3, 1)])
def test_the_first_cut_round_gives_byes_to_the_top_seeds(cut, games, through):
    event = started_event(NAMES, FLEET, seed=11, rounds_planned=2, top_cut=cut)
    for _ in range(2):
        play_round(event)
    seeds = [row.player for row in standings(event)]
    rnd = pair_next_round(event, "org", 5)
    assert rnd.cut and len(rnd.games) == games and len(rnd.advanced) == through
    assert rnd.advanced == [p for p in rnd.bracket if p and p in seeds[:through]]  # the best seeds go through
    assert all(g.knockout for g in rnd.games)
    assert {p for g in rnd.games for p in g.players} | set(rnd.advanced) == set(seeds[:cut])
    assert any("top cut" in e.detail for e in audit(event, "pair"))


def test_a_whole_top_cut_of_five_decides_the_places_of_the_players_in_it():
    event = started_event(NAMES, FLEET, seed=4, rounds_planned=3, top_cut=5)
    for _ in range(3):
        play_round(event)
    swiss = [row.player for row in standings(event)]
    # the lower seed wins every cut game
    lower = lambda game: max(game.players, key=swiss.index)  # noqa: E731
    first = play_round(event, winner=lower)
    assert [len(first.games), first.advanced] == [1, [swiss[0], swiss[1], swiss[2]]]
    semi = play_round(event, winner=lower)
    assert len(semi.games) == 2 and not semi.advanced
    final = play_round(event, winner=lower)
    assert len(final.games) == 1
    with pytest.raises(RuleError, match="top cut is over"):
        pair_next_round(event, "org", 9)
    # bracket [1, -, 4, 5, 2, -, 3, -]: seed 5 beats 4, then 1, then in the final 3 (who beat 2)
    assert champion(event) == swiss[4]
    rows = standings(event)
    # out in the final: 3; in the semi-finals: 1 and 2 (Swiss order); in the first cut round: 4
    assert [r.player for r in rows[:5]] == [swiss[4], swiss[2], swiss[0], swiss[1], swiss[3]]
    assert [r.player for r in rows[5:]] == swiss[5:]
    assert [r.title for r in rows[:3]] == ["Admiral", "Vice Admiral", "Rear Admiral"]
    assert not any(r.prize for r in rows)  # prizes go to the final standings
    close(event, "org", 10)
    assert [r.prize for r in standings(event)] == [True] * 3 + [False] * 4
    # cut games score no Battle Points
    assert sum(r.battle_points for r in rows) == sum(r.battle_points for r in standings(event, 3))
    assert from_json(to_json(event)) == event
    assert all(r.after_round <= 3 for r in event.rolloffs)  # the cut settles no ties


def test_a_cut_game_needs_a_winner_and_its_bracket_cannot_be_swapped():
    event = started_event(NAMES[:4], FLEET, seed=4, rounds_planned=1, top_cut=4)
    play_round(event)
    rnd = pair_next_round(event, "org", 1)
    a, b = rnd.games[0].players
    with pytest.raises(RuleError, match="cannot be swapped"):
        swap_players(event, "org", 1, a, rnd.games[1].players[0])
    publish_round(event, "org", 1)
    with pytest.raises(RuleError, match="needs a winner"):
        report(event, a, Claim(outcome="not_played"), 1)


def test_re_pairing_a_published_round_after_a_drop():
    event = started_event(NAMES[:5], FLEET, seed=2)
    play_round(event)
    first = pair_next_round(event, "org", 1)
    publish_round(event, "org", 1)
    absent = first.games[0].players[0]
    drop(event, absent, "org", 2)  # a no-show
    again = repair_round(event, "org", 3)
    assert again.status == "preview" and again.number == 2
    assert absent not in {p for g in again.games for p in g.players} and again.bye != absent
    assert [e.action for e in event.audit[-4:]] == ["drop", "cancel round", "pair", "re-pair"]
    publish_round(event, "org", 4)
    report(event, again.games[0].players[0], Claim(outcome="not_played"), 5)
    with pytest.raises(RuleError, match="cannot be cancelled"):
        repair_round(event, "org", 6)


def test_re_pairing_without_a_change_gives_the_same_pairing():
    event = started_event(NAMES[:4], FLEET, seed=2)
    rnd = pair_next_round(event, "org", 1)
    same = repair_round(event, "org", 2)
    assert [g.players for g in same.games] == [g.players for g in rnd.games]
    with pytest.raises(RuleError, match="no round being paired"):
        started = started_event(NAMES[:4], FLEET, seed=2)
        repair_round(started, "org", 1)


def test_a_dropped_player_is_added_back_from_the_next_round():
    event = started_event(NAMES[:4], FLEET, seed=2, rounds_planned=3)
    play_round(event)
    drop(event, "ann", "org", 1)
    second = play_round(event)
    assert "ann" not in {p for g in second.games for p in g.players} | {second.bye}
    assert readmit(event, "ann", "org", 2) == 3
    assert event.players["ann"].dropped_after is None
    assert audit(event, "re-add")[0].detail == "Ann from round 3 (1 round(s) missed)"
    third = pair_next_round(event, "org", 3)
    assert "ann" in {p for g in third.games for p in g.players}
    with pytest.raises(RuleError, match="has not dropped"):
        readmit(event, "ann", "org", 4)
    publish_round(event, "org", 4)
    drop(event, "bo", "org", 5)
    with pytest.raises(RuleError, match="no round left"):
        readmit(event, "bo", "org", 6)
