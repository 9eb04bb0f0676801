"""The Arena's Captains' Battle in a league: the engine's rules (arena.py, beyond the
scenario files), the league table around it, and one whole battle through Discord."""
import io

import pytest
from PIL import Image

from engine.errors import RuleError
from engine.league import arena
from engine.league.arena_table import arena_command, declare_captains
from engine.league.event import Claim
from engine.league.results import report
from engine.league.rounds import cancel_round, pair_next_round, publish_round
from images.arena import render_arena
from tests.discord_harness import CHANNEL_ID, FakeDiscord
from tests.league_helpers import fleet, started_event
from tests.test_league_discord import ADMIN, ANN, BO, ORG, SHEETS, last_text


def play_out(battle, choose=lambda options: options[0]):
    """Answer every decision until the battle is over (the first option unless told)."""
    while battle.phase != "over":
        decision = battle.pending[0]
        command = "attack" if decision.kind == "attack" else f"{decision.kind} {choose(decision.options)}"
        battle, _ = arena.apply(battle, decision.player, command)
    return battle


def to_battle(battle):
    for _ in range(battle.mission_tokens):
        for player in battle.players:
            battle, _ = arena.apply(battle, player, "end")
        while battle.pending and battle.pending[0].kind == "send":
            decision = battle.pending[0]
            battle, _ = arena.apply(battle, decision.player, f"send {decision.options[0]}")
    return battle


@pytest.mark.parametrize("seed", range(40))
def test_every_battle_ends_with_one_winner_and_the_bonus_of_its_survivors(seed):
    battle = to_battle(arena.new_battle({"a": [("A1", 5), ("A2", 5), ("A3", 2)], "b": [("B1", 5), ("B2", 3)]},
                                        "b", seed))
    battle = play_out(battle)
    result = battle.result
    loser = battle.opponent(result.winner)
    assert result.survivors[loser] == []
    assert result.bonus == {p: 15 * len(result.survivors[p]) for p in battle.players}
    assert all(c.damage >= c.skill for c in battle.captains if c.destroyed)
    assert all(c.damage < c.skill for c in battle.captains if not c.destroyed)
    assert arena.from_json(arena.to_json(battle)) == battle


def test_a_refused_command_leaves_the_battle_as_it_was():
    battle = arena.new_battle({"a": [("Kirk", 5)], "b": [("Kor", 4)]}, "a", 1)
    before = arena.to_json(battle)
    for seat, command in (("a", "gather Kirk"), ("b", "attack"), ("c", "end"), ("a", "fly")):
        with pytest.raises(RuleError):
            arena.apply(battle, seat, command)
    assert arena.to_json(battle) == before


def test_fleets_are_read_and_checked():
    assert arena.parse_fleet("Jean-Luc Picard 9; Riker 6,") == [("Jean-Luc Picard", 9), ("Riker", 6)]
    with pytest.raises(RuleError, match="NAME SKILL"):
        arena.parse_fleet("Kirk")
    with pytest.raises(RuleError, match="taken"):
        arena.new_battle({"a": [("Kirk", 5)], "b": [("kirk", 4)]}, "a", 1)
    with pytest.raises(RuleError, match="too long"):
        arena.new_battle({"a": [("K" * 41, 5)], "b": [("Kor", 4)]}, "a", 1)
    with pytest.raises(RuleError, match="between 1 and 12"):
        arena.new_battle({"a": [("Kirk", 0)], "b": [("Kor", 4)]}, "a", 1)


def test_the_dice_board_shows_the_last_roll_and_both_teams():
    battle = arena.new_battle({"a": [("Kirk", 5), ("Sulu", 3)], "b": [("Kor", 4)]}, "a", 1)
    battle.dice.scripted = [1, 4, 7, 5, 2, 3, 8, 6]
    battle = to_battle(battle)
    battle, events = arena.apply(battle, "a", "attack")
    picture = Image.open(io.BytesIO(render_arena(battle, events, {"a": "Ann", "b": "Bo"})))
    assert picture.width == 640
    assert render_arena(battle, events, {"a": "Ann", "b": "Bo"}) == render_arena(battle, events, {"a": "Ann", "b": "Bo"})
    no_roll = Image.open(io.BytesIO(render_arena(battle, [], {"a": "Ann", "b": "Bo"})))
    assert no_roll.height < picture.height


FLEET = fleet(100)


def arena_event():
    event = started_event(["Ann", "Bo"], FLEET, seed=5, scenario="arena")
    pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    return event


def test_the_arena_at_a_league_table_and_its_bonus_in_the_result():
    event = arena_event()
    game = declare_captains(event, "ann", [("Kirk", 5)], 1)
    assert game.battle is None
    with pytest.raises(RuleError, match="waiting: Bo"):
        arena_command(event, "ann", "end", 1)
    with pytest.raises(RuleError, match="Arena"):
        cancel_round(event, "org", 1)  # the table is under way
    game = declare_captains(event, "bo", [("Kor", 4)], 2)
    assert game.battle is not None and game.battle.players == list(game.players)
    assert any(e.action == "arena" and "equal fleets" in e.detail for e in event.audit)
    with pytest.raises(RuleError, match="captains are set"):
        declare_captains(event, "ann", [("Kirk", 6)], 3)
    game.battle = play_out(to_battle(game.battle))
    winner = game.battle.result.winner
    loser = game.opponent(winner)
    bonus = {winner: 15}
    assert game.battle.result.bonus == {winner: 15, loser: 0}
    with pytest.raises(RuleError, match="carries that bonus"):
        report(event, "ann", Claim(winner=winner, surviving={winner: 40, loser: 0}), 4)
    report(event, "ann", Claim(winner=winner, surviving={winner: 40, loser: 0}, bonus=bonus), 4)
    report(event, "bo", Claim(winner=winner, surviving={winner: 40, loser: 0}, bonus=bonus), 4)
    assert game.status == "final" and game.result.bonus == bonus


def test_an_event_without_the_arena_refuses_it():
    event = started_event(["Ann", "Bo"], FLEET, seed=5)
    pair_next_round(event, "org", 0)
    publish_round(event, "org", 0)
    with pytest.raises(RuleError, match="does not play the Arena"):
        declare_captains(event, "ann", [("Kirk", 5)], 1)


async def test_a_whole_captains_battle_played_through_discord(monkeypatch, tmp_path):
    monkeypatch.setattr("engine.service.league.secrets.randbits", lambda bits: 17)
    async with FakeDiscord(monkeypatch, str(tmp_path / "bot.db")) as fake:
        await fake.dispatch(fake.slash(ORG, "league create", permissions=ADMIN, name="Arena", scenario="arena"))
        await fake.dispatch(fake.slash(ORG, "league open", permissions=ADMIN, event=1))
        for member, sheet in SHEETS:
            await fake.dispatch(fake.slash(member, "league signup", event=1))
            await fake.dispatch(fake.slash(member, "league build", event=1, sheet=sheet))
        for step in ("start", "pair", "publish"):
            await fake.dispatch(fake.slash(ORG, f"league {step}", permissions=ADMIN, event=1))
        await fake.dispatch(fake.slash(ANN, "league arena captains", event=1, captains="Kirk 6, Sulu 4"))
        assert last_text(fake) == "Table 1: Ann names the captains Kirk (skill 6), Sulu (skill 4)."
        await fake.dispatch(fake.slash(BO, "league arena captains", event=1, captains="Kor 6, Kang 3"))
        assert "The Arena begins: Bo has initiative." in last_text(fake)  # 100 squad points against 110
        members = {"1": ANN, "2": BO}
        desk = fake.bot.get_cog("League").desk
        refused = None
        for _ in range(200):
            message = fake.in_channel(CHANNEL_ID)[-1]
            assert dict(next(s for s in reversed(fake.sent) if s.files).files)["arena.png"].startswith(b"\x89PNG")
            _row, event = await desk.get(1)
            battle = event.rounds[0].games[0].battle
            if battle.phase == "over":
                break
            who = battle.pending[0].player if battle.pending else arena.awaited(battle)[0]
            button = next(b["custom_id"] for b in fake.components(message)
                          if b["custom_id"].split(":", 3)[3] in arena.legal_commands(battle, who))
            if refused is None and battle.pending:  # the other player's click is refused, privately
                refused = fake.click(members[battle.opponent(who)], int(message["id"]), button)
                await fake.dispatch(refused)
                assert fake.original(refused)["flags"] & 64
            await fake.dispatch(fake.click(members[who], int(message["id"]), button))
        assert battle.phase == "over" and not fake.components(fake.in_channel(CHANNEL_ID)[-1])
        result = battle.result
        name = {"1": "Ann", "2": "Bo"}
        assert last_text(fake).splitlines()[-1].startswith(f"{name[result.winner]} wins the Captains' Battle")
        assert f"{name[result.winner]} +{result.bonus[result.winner]} Fleet Points" in last_text(fake)
        # the bonus flows into the reports of the game at the table
        winner = members[result.winner]
        for member in (ANN, BO):
            await fake.dispatch(fake.slash(member, "league report", event=1, winner=winner,
                                           winner_points=20, loser_points=0))
        assert last_text(fake).endswith(f"+{result.bonus[result.winner]} bonus) (confirmed by both players).")
