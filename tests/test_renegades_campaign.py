"""Renegades campaigns: random campaigns play to their conclusion through shore leave,
keep the invariants, hide the decks and replay exactly; shore leave sale values."""
import pytest

from engine.renegades import campaign, rules
from engine.renegades.orbit import Game
from engine.renegades.state import from_json, to_json
from tests.test_renegades_random_games import play_checked

CAMPAIGNS = [
    {"players": [{"seat": "p1"}, {"seat": "p2"}], "campaign": 3},
    {"mode": "coop", "players": [{"seat": "p1"}], "campaign": 4, "tier": 2},
    {"mode": "coop", "players": [{"seat": "p1"}, {"seat": "p2"}], "campaign": 3, "tier": 3},
    {"players": [{"seat": f"p{i}"} for i in range(1, 5)], "campaign": 5, "world_cards": 7},
]


@pytest.mark.parametrize("index", range(8))
def test_random_campaigns_reach_a_conclusion_and_replay(index):
    seed, config = 7000 + index, CAMPAIGNS[index % len(CAMPAIGNS)]
    final, log = play_checked(seed, config)
    assert final.result["outcome"] == "campaign over"
    assert len(final.campaign.results) == config["campaign"]
    assert final.result["conclusion"] in ("renegade", "coalition", "alliance")
    assert sum(1 for _, command in log if command in ("done", "pass") or command.startswith("buy ")) > 0
    view = rules.view_for(final, None)
    assert "mission_deck" not in view["campaign"] and "weapons_deck" not in view["campaign"]
    assert view["campaign"]["weapons_deck_count"] == len(final.campaign.weapons_deck)
    assert from_json(to_json(final)) == final
    replayed = rules.new_game(config, seed)
    for seat, command in log:
        replayed, _ = rules.apply(replayed, seat, command)
    assert to_json(replayed) == to_json(final)


@pytest.mark.parametrize("code, digits", [("credit-purse", 25), ("credit-cache", 25), ("data-spike", 50),
                                          ("arc-pistol", 25), ("arc-blade", 50), ("shock-maul", 75),
                                          ("scatter-rifle", 75)])
def test_sales_fetch_half_the_value_to_the_nearest_25(code, digits):
    state = rules.new_game({"players": [{"seat": "p1"}, {"seat": "p2"}]}, 1)
    assert campaign.sale_value(Game(state), code) == digits
