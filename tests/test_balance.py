"""The starter game's faction balance at random play (issue 26 item 1, R106-R109): over 200
random games, the Federation at p1 in even games and at p2 in odd ones, each faction scores
40-60% (a win 1, a draw 1/2). With the starter cards before R107-R109 the same games gave the
Federation 72%. benchmarks/balance_bench.py measures the same split, by source of points, for
random play and for the computer levels."""
import random

from engine.awaymissions import rules
from engine.awaymissions.autoplay import play_out
from tests.conftest import STARTER, two_player_config

GAMES = 200


def swapped_config(seed, pack=STARTER):
    """The starter game on the standard layout, the Federation at p1 in even games and at p2
    in odd ones, so a figure over both is the faction's and not the seat's."""
    config = two_player_config("standard")
    if seed % 2:
        fed, borg = config["players"]
        config["players"] = [dict(borg, seat="p1"), dict(fed, seat="p2")]
    return dict(config, pack=pack)


def federation_score(state):
    """1 when the Federation won the finished game, 1/2 a draw, 0 a loss."""
    winner = state.result["winner"]
    if winner is None:
        return 0.5
    return float(state.player(winner).affiliation == "federation")


def test_at_random_play_each_faction_scores_40_to_60_percent_with_the_seats_swapped():
    total = 0.0
    for seed in range(GAMES):
        state, _ = play_out(rules.new_game(swapped_config(seed), seed), random.Random(seed))
        total += federation_score(state)
    assert 0.40 <= total / GAMES <= 0.60, f"the Federation scored {total / GAMES:.1%}"
