"""The async league service over a real database: organisers, a season round from sign-up
to standings, disputes, reminders and deadlines, linked bot games, refusals that store nothing."""
import msgspec
import pytest

from db import Database
from engine.league.event import Claim
from engine.service import GameService
from engine.service.errors import IllegalCommand, NotAllowed, UnknownGame
from engine.service.league import Actor, LeagueService
from tests.league_helpers import fleet

GUILD = 10
ADMIN = Actor(1, "Admin", admin=True)
ORGANISER = Actor(2, "Org", roles=frozenset({77}))
PLAYER = Actor(3, "Ann")
AWAY_TEAM = {"kind": "away_team", "entries": [{"name": "Picard", "points": 10}]}
FLEET = msgspec.to_builtins(fleet(90, "Enterprise", resource=("Tactical Station", 10)))


class Clock:
    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self):
        return self.now


@pytest.fixture
async def desk(database_url):
    database = await Database.open(database_url)
    clock = Clock()
    service = LeagueService(database, clock=clock)
    await service.set_organiser_role(GUILD, ADMIN, 77)
    yield service, clock
    await database.close()


async def started(service, names, build=FLEET, **options):
    update = await service.create_event(GUILD, ORGANISER, "Arena", seed=4, **options)
    event_id = update.event_id
    await service.open(event_id, ORGANISER)
    for i, name in enumerate(names):
        await service.register(event_id, 100 + i, name)
        await service.submit_build(event_id, 100 + i, build)
    await service.start(event_id, ORGANISER)
    return event_id


async def test_only_organisers_run_events(desk):
    service, _ = desk
    with pytest.raises(NotAllowed):
        await service.create_event(GUILD, PLAYER, "Arena")
    with pytest.raises(NotAllowed):
        await service.set_organiser_role(GUILD, ORGANISER, 5)
    update = await service.create_event(GUILD, ORGANISER, "Arena", seed=1)
    with pytest.raises(NotAllowed):
        await service.open(update.event_id, PLAYER)
    assert await service.is_organiser(GUILD, ADMIN) and not await service.is_organiser(GUILD, PLAYER)
    with pytest.raises(UnknownGame):
        await service.open(999, ORGANISER)


async def test_a_season_round_from_sign_up_to_standings(desk):
    service, clock = desk
    event_id = await started(service, ["Ann", "Bob", "Cy"], kind="season", round_days=7)
    preview = await service.preview_round(event_id, ORGANISER)
    assert preview.public[0] == "Preview of round 1:" and any(line.startswith("Bye: ") for line in preview.public)
    update = await service.publish_round(event_id, ORGANISER)
    rnd = update.event.rounds[0]
    assert rnd.deadline == int(clock.now) + 7 * 86400
    a, b = rnd.games[0].players
    _row, event = await service.get(event_id)
    await service.verify_build(event_id, int(a), event.players[b].build_hash)
    claim = Claim(winner=a, surviving={a: 45, b: 0})
    first = await service.report(event_id, int(a), claim)
    assert first.public[0].endswith("(waiting for the opponent's report).")
    second = await service.report(event_id, int(b), claim)
    assert second.public[0].endswith("(confirmed by both players).")
    assert second.event.rounds[0].status == "complete"
    csv = await service.standings_csv(event_id)
    assert csv.splitlines()[1].split(",")[4:6] == ["2", "120"]
    closed = await service.close(event_id, ORGANISER)
    assert closed.public[1].startswith("1. Admiral ")


async def test_mismatched_reports_show_both_claims_and_an_organiser_decides(desk):
    service, _ = desk
    event_id = await started(service, ["Ann", "Bob"])
    await service.preview_round(event_id, ORGANISER)
    rnd = (await service.publish_round(event_id, ORGANISER)).event.rounds[0]
    a, b = rnd.games[0].players
    await service.report(event_id, int(a), Claim(winner=a, surviving={a: 45, b: 0}))
    update = await service.report(event_id, int(b), Claim(winner=b, surviving={a: 0, b: 45}))
    assert update.public[0] == "Table 1: the reports differ; the organisers will decide."
    assert len(update.public) == 3
    with pytest.raises(NotAllowed):
        await service.resolve(event_id, PLAYER, 1, 1, Claim(winner=a, surviving={a: 45, b: 0}))
    fixed = await service.resolve(event_id, ORGANISER, 1, 1, Claim(winner=a, surviving={a: 45, b: 0}), "photo")
    assert fixed.event.rounds[0].games[0].status == "final" and fixed.event.audit[-1].actor == "2"


async def test_refusals_store_nothing(desk):
    service, _ = desk
    event_id = await started(service, ["Ann", "Bob"])
    row_before, _ = await service.get(event_id)
    with pytest.raises(IllegalCommand, match="No round has been published"):
        await service.report(event_id, 100, Claim(outcome="not_played"))
    with pytest.raises(IllegalCommand, match="not readable"):
        await service.submit_build(event_id, 100, {"kind": "spaceship"})
    row_after, _ = await service.get(event_id)
    assert row_after.version == row_before.version and row_after.state == row_before.state


async def test_reminder_then_deadline(desk):
    service, clock = desk
    event_id = await started(service, ["Ann", "Bob", "Cy", "Dee"], kind="season", round_days=2)
    await service.preview_round(event_id, ORGANISER)
    rnd = (await service.publish_round(event_id, ORGANISER)).event.rounds[0]
    (a, b), (c, d) = (g.players for g in rnd.games)
    await service.store.set_thread(event_id, 1, 1, 5551)
    await service.report(event_id, int(a), Claim(winner=a, surviving={a: 45, b: 0}))
    assert await service.tick() == ([], [])
    clock.now = rnd.deadline - 3600
    assert await service.tick(lambda guild: guild != GUILD) == ([], [])  # a guild of another process's shard
    reminders, updates = await service.tick()
    assert [(r.table, r.players, r.thread_id) for r in reminders] == [(1, (int(a), int(b)), 5551), (2, (int(c), int(d)), None)]
    assert updates == [] and (await service.store.threads(event_id, 1))[0].reminded_at == clock.now
    assert await service.tick() == ([], [])  # reminded once
    clock.now = rnd.deadline
    reminders, [update] = await service.tick()
    assert reminders == []
    assert update.public == ["Round 1 deadline passed.",
                             f"Table 1: {update.event.players[a].name} wins by forfeit",
                             "Table 2: not played (0-0)"]
    assert await service.tick() == ([], [])


async def test_linked_bot_game_reports_itself(desk):
    service, _ = desk
    event_id = await started(service, ["Ann", "Bob"], AWAY_TEAM, profile="awaymissions", max_build=0)
    await service.preview_round(event_id, ORGANISER)
    rnd = (await service.publish_round(event_id, ORGANISER)).event.rounds[0]
    a, b = rnd.games[0].players
    games = GameService(service.db)
    game = await games.create(creator=int(a), guild_id=GUILD, channel_id=20, seed=1)
    await service.link_game(event_id, 1, 1, game.id)
    update = await service.game_over(game.id, {"winner": "p2", "scores": {"p1": 7, "p2": 10}}, {"p1": int(a), "p2": int(b)})
    result = update.event.rounds[0].games[0].result
    assert (result.winner, result.mission_points) == (b, {a: 7, b: 10})
    assert update.event.rounds[0].status == "complete"
    assert await service.game_over(12345, {"winner": "p1"}, {"p1": int(a)}) is None


async def test_a_level_bot_game_is_left_for_the_players_and_claims_are_accepted_only_as_shown(desk):
    service, _ = desk
    event_id = await started(service, ["Ann", "Bob"], AWAY_TEAM, profile="awaymissions", max_build=0)
    with pytest.raises(IllegalCommand, match="No round has been published"):
        await service.pairing_to_play(event_id, 100)
    await service.preview_round(event_id, ORGANISER)
    rnd = (await service.publish_round(event_id, ORGANISER)).event.rounds[0]
    a, b = rnd.games[0].players
    pairing = await service.pairing_to_play(event_id, int(b))
    assert (pairing.round, pairing.table, pairing.players) == (1, 1, (int(a), int(b)))
    game = await GameService(service.db).create(creator=int(a), guild_id=GUILD, channel_id=20, seed=1)
    await service.link_game(event_id, 1, 1, game.id)
    level = await service.game_over(game.id, {"winner": None, "scores": {"p1": 9, "p2": 9}}, {"p1": int(a), "p2": int(b)})
    assert level.public == [f"Table 1: game #{game.id} ended level; settle it with the roll-off and report "
                            "the winner with /league report."]
    assert level.event.rounds[0].games[0].status == "pending"
    await service.report_score(event_id, int(a), int(a), 9, 9)
    await service.report_score(event_id, int(b), int(b), 9, 9)
    _event, [dispute] = await service.disputes(event_id, ORGANISER)
    with pytest.raises(NotAllowed):
        await service.disputes(event_id, PLAYER)
    (first, _, words, digest), _second = dispute.claims
    assert first == int(a) and words == "Ann wins (Ann 9 MP, Bob 9 MP)"
    with pytest.raises(IllegalCommand, match="changed since"):
        await service.accept_claim(event_id, ORGANISER, 1, 1, int(a), "0" * 12)
    settled = await service.accept_claim(event_id, ORGANISER, 1, 1, int(a), digest)
    assert settled.event.rounds[0].games[0].result.winner == a
    assert settled.event.audit[-1].detail.endswith("(Ann's claim accepted)")
    with pytest.raises(IllegalCommand, match="not in dispute"):
        await service.accept_claim(event_id, ORGANISER, 1, 1, int(a), digest)


async def test_games_still_disputed_at_a_season_deadline_are_listed_for_the_organisers(desk):
    service, clock = desk
    event_id = await started(service, ["Ann", "Bob", "Cy", "Dee"], kind="season", round_days=7)
    await service.preview_round(event_id, ORGANISER)
    rnd = (await service.publish_round(event_id, ORGANISER)).event.rounds[0]
    (a, b), (c, d) = (g.players for g in rnd.games)
    await service.report(event_id, int(a), Claim(winner=a, surviving={a: 45, b: 0}))
    await service.report(event_id, int(b), Claim(winner=b, surviving={a: 0, b: 45}))
    clock.now = rnd.deadline
    _reminders, updates = await service.tick()
    lines = [line for update in updates for line in update.public]
    names = {p: n for p, n in zip(("100", "101", "102", "103"), ("Ann", "Bob", "Cy", "Dee"))}
    assert "Table 2: not played (0-0)" in lines
    assert (f"Organisers: table 1 ({names[a]} vs {names[b]}) is still disputed; "
            "settle it with /league disputes.") in lines
