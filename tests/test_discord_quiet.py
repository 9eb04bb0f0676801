"""Complete games through the fake Discord as people play them (two, a free-for-all of
four, 2 vs 2), counting what a phone counts: every message posted in the thread (also those deleted later), every
mention let through, per player, the pictures uploaded, and the requests that are not
interaction responses, per action; and "Your move" presses per activation.

Players use the panel only: they press "Your move" when they are pinged or see the
button, and keep answering on the same private message while it follows them.
"""
import json
import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Awaitable, Callable

import pytest

import engine.service.service as service_module
from engine import opponent
from engine.rulesets import AWAY_MISSIONS
from engine.service import reactions
from cogs.pings import LIVE_GRACE
from images.board import board_key
from tests.discord_harness import EPHEMERAL, FakeDiscord, choose, open_panel, turn_button
from tests.test_discord_game import MEMBERS, PlayByPost, new_game, revealed, same_dice
from tests import test_discord_tables as tables

LAST_ROUND = 3  # the rounds measured: set-up (0) and rounds 1 to 3
SEEDS = (1, 2, 3, 4, 5, 6)  # games by post measured against the targets (more: benchmarks/quiet_bench.py)


@dataclass
class Round:
    """What one round cost, as phones count it."""

    posted: int = 0  # messages posted in the thread, those deleted later too
    left: int = 0  # messages still in the thread after the round
    pictures: int = 0  # files uploaded to the thread
    boards: int = 0  # board pictures among them
    panel_pictures: int = 0  # pictures on the acting player's private panel
    moves: int = 0  # commands the game took (a player's, or a pass made for them)
    actions: int = 0  # presses that sent a command (answers and standing choices)
    requests: int = 0  # requests that are not interaction responses
    presses: int = 0  # "Your move" presses
    prepasses: int = 0  # presses of "Pass reactions for the rest of this round"
    pings: Counter = field(default_factory=Counter)  # user -> notifications
    handovers: Counter = field(default_factory=Counter)  # user -> activations their seat started
    choice_calls: int = 0  # pings asking a side which character activates, and handing it to another's player
    asked: Counter = field(default_factory=Counter)  # what each ping asked: a decision kind, "action" split in two
    members: dict = field(default_factory=lambda: MEMBERS)  # user id -> member: the people at the table
    sides: tuple = ()  # the teams, as tuples of user ids (none: every player is a side of their own)

    def side_started(self, user: int) -> int:
        """Activations the user's side (their team, or their seat) started in the round."""
        side = next((s for s in self.sides if user in s), (user,))
        return sum(self.handovers[u] for u in side)

    @property
    def activations(self) -> int:
        """Activations started in the round."""
        return sum(self.handovers.values())

    def line(self, number: int) -> str:
        """The round in one printed line, per player."""
        players = "; ".join(f"{m['username']}: pings {self.pings[u]}, hand-overs {self.handovers[u]}"
                            + (f" (side {self.side_started(u)})" if self.sides else "") for u, m in self.members.items())
        return (f"  round {number}: posted {self.posted}, left {self.left}, pictures {self.pictures} "
                f"(boards {self.boards}; on a panel {self.panel_pictures}) over {self.activations} activations and {self.moves} moves, "
                f"requests per action {self.requests / max(self.actions, 1):.2f}, 'Your move' presses per activation "
                f"{self.presses / max(self.activations, 1):.2f}; {players}; pings asked: "
                + ", ".join(f"{kind} {n}" for kind, n in sorted(self.asked.items())))


def dice_seed(monkeypatch, seed: int) -> None:
    """Every new game gets the dice seed `seed`."""
    monkeypatch.setattr(service_module, "secrets", SimpleNamespace(randbits=lambda bits: seed))


@dataclass(frozen=True)
class Table:
    """A kind of table the complete games are played at: who sits there and how it starts."""

    name: str
    members: dict  # user id -> member, the people seated
    start: Callable[[FakeDiscord], Awaitable[tuple[int, int]]]  # the lobby seated and started: (thread, game id)
    sides: tuple = ()  # the teams, as tuples of user ids (none: every player for themselves)


async def four_players(fake: FakeDiscord) -> tuple[int, int]:
    """A free-for-all of four people: Ann opens it, Bo, Cy and Di join, Di starts."""
    thread, lobby, game_id = await tables.open_lobby(fake, "4 players")
    for member, side in ((tables.BO, "Borg"), (tables.CY, "Federation"), (tables.DI, "Borg")):
        await tables.press(fake, member, fake.messages[int(lobby["id"])], f"Join as {side}")
    await tables.press(fake, tables.DI, fake.messages[int(lobby["id"])], "Start")
    return thread, game_id


FOUR = {user_id: tables.MEMBERS[user_id] for user_id in (1, 2, 3, 4)}
TWO = Table("2 players", MEMBERS, new_game)
FREE_FOR_ALL = Table("4-player free-for-all", FOUR, four_players)
TEAMS = Table("2 vs 2", FOUR, tables.seat_teams, ((1, 3), (2, 4)))  # Ann and Cy against Bo and Di


async def at_random(fake: FakeDiscord, game_id: int, user: int, commands: list[str], rng: random.Random) -> int:
    """The random test player: any legal answer, each as likely (it re-rolls whenever it may, mostly)."""
    return rng.randrange(len(commands))


async def as_the_easy_computer(fake: FakeDiscord, game_id: int, user: int, commands: list[str],
                               rng: random.Random) -> int:
    """A realistic player: the answer the computer at easy would give from the player's own
    view (its rule of thumb, no search), still pressed through the panel by the player."""
    seat = next(s.seat for s in (await fake.bot.service.get(game_id)).seats if s.user_id == user)
    view = await fake.bot.service.view(game_id, user)
    choice = opponent.choose("awaymissions", view, seat, opponent.LEVELS["easy"], rng.randrange(1 << 30), timed=False)
    return commands.index(choice.command)


ANSWERS = {"at random": at_random, "as the computer at easy": as_the_easy_computer}  # the answering models


async def hidden_cards(fake: FakeDiscord, game_id: int, table: Table) -> set[str]:
    """Every card in somebody's hand right now (each player's own view)."""
    cards = set()
    for user_id in table.members:
        view = await fake.bot.service.view(game_id, user_id)
        cards |= {c for p in view["players"] for c in p.get("hand") or ()}
    return cards


async def play_game(fake: FakeDiscord, seed: int, prepass: bool = False, clock=None,
                    last_round: int = LAST_ROUND, table: Table = TWO, answer=at_random,
                    first_seat: bool = False) -> dict[int, Round]:
    """Play one game at `table` through the panels to the end of `last_round`, each answer
    chosen by `answer` (ANSWERS): its rounds. A decision put to several players is answered by
    one the table called (P51-P53), or with `first_seat` by the first awaited in seat order
    (as before the table called only some teammates: the same games, to compare). With
    `prepass`, a player offered it passes every window for the round ahead; with a `clock`,
    ten minutes pass between answers (play by post), else none (live)."""
    thread, game_id = await table.start(fake)
    service, rng = fake.bot.service, random.Random(seed)
    panels: dict[int, dict] = {}  # user -> their private panel, while it shows their decision
    rounds: dict[int, Round] = {}
    pinged_decisions: set[tuple[int, int]] = set()
    table_message, table_since = None, 0  # the table message shown now, and the log entries before it
    round_number = 0
    guild = int(fake.channels[thread]["guild_id"])
    while (info := await service.get(game_id)).status == "active":
        round_number = (await service.view(game_id)).get("round", 0)
        if round_number > last_round:
            break
        shown_round = rounds.setdefault(round_number, Round(members=table.members, sides=table.sides))
        left_to_mate = (await service.guild_setting(guild, f"table:{game_id}") or {}).get("uncalled") or ()
        user = next(t.user_id for t in info.awaited if first_seat or t.user_id not in left_to_mate)
        member = table.members[user]
        before_sent, before_messages = len(fake.sent), len(fake.in_channel(thread))
        entries_before = len(await service.log(game_id))
        version, commands = await service.legal_commands(game_id, user)
        seat = next(s.seat for s in info.seats if s.user_id == user)
        asked = next(d for d in (await service.view(game_id))["pending"] if seat in (d["player"], *d.get("also", [])))
        if asked["kind"] in ("reroll", "interrupt") and (not first_seat or not asked.get("also")) \
                and await service.reaction_preference(user) == reactions.ABLE:
            # a window they could only pass (or re-roll in vain) is passed for them at once (P23,
            # P59), and a team window calls only the teammates who could play (P52)
            state = AWAY_MISSIONS.from_json((await service.db.game(game_id)).state)
            useful = [c for c in commands if not AWAY_MISSIONS.futile(state, seat, c)]
            assert useful != ["pass"], "a window called that they could only pass"
        shown = panels.get(user)
        if shown is None or not fake.components(shown) or f":{version}:" not in json.dumps(fake.components(shown)):
            shown = await open_panel(fake, member, thread)
            shown_round.presses += 1
        ahead = [c["custom_id"] for c in fake.components(shown)
                 if c["custom_id"].startswith("rr:stand:") and c["label"].endswith("round")]
        if prepass and ahead:
            await fake.dispatch(fake.click(member, int(shown["id"]), ahead[0]))
            shown_round.prepasses += 1
        else:
            await choose(fake, member, shown, commands, await answer(fake, game_id, user, commands, rng))
        shown_round.actions += 1
        panels[user] = fake.messages[int(shown["id"])]
        done = [c["custom_id"] for c in fake.components(panels[user])
                if c["custom_id"].startswith("rr:stand:") and c["label"].endswith("round")]
        if prepass and done and user not in {t.user_id for t in (await service.get(game_id)).awaited}:
            await fake.dispatch(fake.click(member, int(shown["id"]), done[0]))  # on "Done": pass the round ahead
            shown_round.actions += 1
            shown_round.prepasses += 1
        if clock is not None:
            clock.now += clock.between_moves
            await fake.run(fake.bot.get_cog("Turns").send_due())  # any reminder due is a ping too
        log = await service.log(game_id)
        events = [e for entry in log[entries_before:] for e in json.loads(entry.events)]
        shown_round.moves += len(log) - entries_before
        for event in events:
            if event["type"] == "activated":  # the activations each player's seat starts: a hand-over each
                shown_round.handovers[next(s.user_id for s in info.seats if s.seat == event["seat"])] += 1
        tally = fake.tally(before_sent)
        shown_round.posted += tally.posted[thread]
        shown_round.pictures += tally.pictures[thread]
        shown_round.panel_pictures += tally.private_pictures
        shown_round.boards += sum(name == "board.png" for r in fake.sent[before_sent:] for name, _ in r.files or ()
                                  if not r.ephemeral)
        shown_round.requests += tally.requests
        shown_round.left += len(fake.in_channel(thread)) - before_messages
        shown_round.pings.update(tally.pings)
        shown_round.asked.update(await asked_of(service, game_id, info, tally.pings, events))
        choosing = any(d["kind"] == "activate" for d in (await service.view(game_id)).get("pending", []))
        if choosing or any(e["type"] == "activated" and "by" in e for e in events):
            shown_round.choice_calls += sum(tally.pings.values())
        after = await service.get(game_id)
        for pinged in tally.pings:
            decision = (pinged, after.version)
            assert decision not in pinged_decisions, "a decision pinged twice"
            pinged_decisions.add(decision)
        shown_table = await service.guild_setting(guild, f"table:{game_id}") or {}
        entries = len(log)
        if shown_table.get("message") != table_message:  # a fresh table message shows this action's lines only
            table_message, table_since = shown_table.get("message"), entries_before
        hidden = await hidden_cards(fake, game_id, table) - await revealed(fake, game_id, entries - table_since)
        team_threads = {e["thread"] for e in (await service.guild_setting(guild, f"teams:{game_id}") or {}).values()}
        for request in [r for r in fake.sent[before_sent:] if not r.ephemeral and r.channel_id not in team_threads]:
            assert not any(card in request.text for card in hidden), (request.text, hidden)
    lines = [line for m in fake.in_channel(thread) for line in m["content"].splitlines()]
    for number in range(1, round_number):  # each round ends with a compact summary of every player
        summary = next(line for line in lines if f"Round {number} is over · " in line)
        assert all(f" {m['username']} " in summary for m in table.members.values()), summary
    return rounds


async def asked_of(service, game_id: int, info, pinged, events: list[dict]) -> Counter:
    """What each ping of an action asked: the kind of decision put to the pinged player, an
    "action" told apart as the start of their activation or the call back into one under way
    (after somebody else's window or choice in it)."""
    pending = (await service.view(game_id)).get("pending", [])
    started = {e["seat"] for e in events if e["type"] == "activated"}
    kinds = Counter()
    for user in pinged:
        seats = {s.seat for s in info.seats if s.user_id == user}
        decision = next((d for d in pending if seats & {d["player"], *d.get("also", [])}), None)
        kind = decision["kind"] if decision else "none"
        if kind == "action":
            kind = "action, activation started" if seats & started else "action, called back"
        kinds[kind] += 1
    return kinds


def nearest_rank(values: list[float], share: float) -> float:
    """The `share` percentile of `values` (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def report(title: str, rounds: dict[int, Round]) -> None:
    """Print a game's rounds, one line each."""
    print(f"\n{title}")
    for number, shown in sorted(rounds.items()):
        print(shown.line(number))


TARGETS = {  # issue 25, default settings, by post, rounds 1-3 (met: asserted; not met yet: printed)
    "posted per round, median": 10, "posted per round, p95": 14,
    "pings per player per round beyond the activations their side starts": 1,
    "board pictures per round beyond the activations": 2, "requests per action, mean": 1.2}
BIGGER_TARGETS = ("pings per player per round beyond the activations their side starts", "requests per action, mean")  # 3-4 players
OWN_SEAT = "pings per player per round beyond the activations their own seat starts"  # printed, no target
CHOICE = "calls to choose an activation and hand it over, per activation"  # printed, no target (P51)
MET = ("board pictures per round beyond the activations", "requests per action, mean")  # met today: held
REALISTIC_MET = MET  # met with players answering as the computer at easy would
BIGGER_MET = ("requests per action, mean",)  # those of BIGGER_TARGETS met at 4 players and 2 vs 2
TEAM_CHOICE_MOST = 1.5  # 2 vs 2: calls per activation to choose it and hand it over (P51: 1.96 when both were called)


def measured(games: dict[int, dict[int, Round]]) -> dict[str, float]:
    """The figures of TARGETS over rounds 1 to LAST_ROUND of these games."""
    played = [r for rounds in games.values() for n, r in rounds.items() if 1 <= n <= LAST_ROUND]
    posted = [r.posted for r in played]
    return {"posted per round, median": statistics.median(posted),
            "posted per round, p95": nearest_rank(posted, 0.95),
            "pings per player per round beyond the activations their side starts":
                max(r.pings[u] - r.side_started(u) for r in played for u in r.members),
            OWN_SEAT: max(r.pings[u] - r.handovers[u] for r in played for u in r.members),
            CHOICE: sum(r.choice_calls for r in played) / sum(r.activations for r in played),
            "pings per round, all players, mean": statistics.mean(sum(r.pings.values()) for r in played),
            "board pictures per round beyond the activations": max(r.boards - r.activations for r in played),
            "requests per action, mean": sum(r.requests for r in played) / sum(r.actions for r in played)}


def against_targets(figures: dict[str, float], names=tuple(TARGETS)) -> str:
    """The figures beside their targets (those `names` has; the others as measured only), one a line."""
    return "\n".join([f"  {name}: {figures[name]:.2f} " + (
        f"(target {target}{'' if figures[name] <= target else ', NOT MET'})" if name in names else "(no target)")
        for name, target in TARGETS.items()] + [f"  {name}: {value:.2f} (no target)"
                                                 for name, value in figures.items() if name not in TARGETS])


async def by_post(monkeypatch, tmp_path, seeds, table: Table = TWO, answer=at_random,
                  first_seat: bool = False, preference: str = reactions.DEFAULT) -> dict[int, dict[int, Round]]:
    """Games at `table` by post, one per seed (its dice and its players' choices), the players
    answering as `answer` does (ANSWERS), by the seat `play_game` says; default settings, but
    for the reaction `preference` every player keeps (P23)."""
    games = {}
    for seed in seeds:
        dice_seed(monkeypatch, seed)
        clock = PlayByPost()
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{seed}.db"), clock=clock) as fake:
            for user in table.members:
                await fake.bot.service.set_reaction_preference(user, preference)
            games[seed] = await play_game(fake, seed, clock=clock, table=table, answer=answer, first_seat=first_seat)
    return games


def played_through(games: dict[int, dict[int, Round]]) -> bool:
    """Whether every game reached round LAST_ROUND with activations in each round."""
    return all(len([n for n in rounds if n]) == LAST_ROUND and all(r.activations for n, r in rounds.items() if n)
               for rounds in games.values())


HELD = {"at random": MET, "as the computer at easy": REALISTIC_MET}  # the targets held under each model


@pytest.mark.parametrize("model", list(ANSWERS))
async def test_by_post_a_round_is_within_what_a_phone_can_live_with(monkeypatch, tmp_path, capsys, model):
    """Two players by post over several games, default settings, answering as `model` does:
    each round printed per player; the figures over rounds 1-3 against the targets, failing
    over those met (MET: whatever the players answer; REALISTIC_MET: players answering as the
    computer at easy would)."""
    games = await by_post(monkeypatch, tmp_path, SEEDS, answer=ANSWERS[model])
    figures = measured(games)
    with capsys.disabled():
        for seed, rounds in games.items():
            report(f"seed {seed}, by post, default settings, answering {model}:", rounds)
        print(f"\nrounds 1-{LAST_ROUND} over {len(games)} games by post, answering {model}:\n"
              f"{against_targets(figures)}")
    assert played_through(games)
    for name in HELD[model]:
        assert figures[name] <= TARGETS[name], (model, name, figures[name])


BIGGER_SEEDS = (1, 2, 3)  # games by post measured at each bigger table


# the bigger tables answering as the computer at easy are measured by
# `python3 -m benchmarks.quiet_bench --table four|teams --answer easy --games 3 --first 1`
# (their figures are in docs/discord.md; the one target met there, requests per action, is
# held here at random, and the 2-player test holds it under both models)
@pytest.mark.parametrize("model", ["at random"])
@pytest.mark.parametrize("table", [FREE_FOR_ALL, TEAMS], ids=lambda t: t.name)
async def test_by_post_bigger_tables_are_within_what_a_phone_can_live_with(monkeypatch, tmp_path, capsys, table, model):
    """Four players by post, everyone for themselves and 2 vs 2, default settings, answering
    as `model` does: each round printed per player; pings per player and requests per action
    against the targets, failing over those met (hidden cards and one ping per decision: play_game)."""
    games = await by_post(monkeypatch, tmp_path, BIGGER_SEEDS, table, ANSWERS[model])
    figures = measured(games)
    with capsys.disabled():
        for seed, rounds in games.items():
            report(f"seed {seed}, {table.name}, by post, default settings, answering {model}:", rounds)
        print(f"\nrounds 1-{LAST_ROUND} over {len(games)} games by post, {table.name}, answering {model}:\n"
              f"{against_targets(figures, BIGGER_TARGETS)}")
    assert played_through(games)
    for name in BIGGER_MET:
        assert figures[name] <= TARGETS[name], (model, name, figures[name])
    if table.sides:  # the team's choice calls one teammate, and the other only when it is handed to them
        assert figures[CHOICE] <= TEAM_CHOICE_MOST, figures[CHOICE]


MODES = {"live, answering every window": (False, False), "by post, answering every window": (False, True),
         "by post, passing ahead each round": (True, True)}  # (passing ahead, by post)


@pytest.mark.parametrize("seed", [3, 11])
async def test_a_round_is_quiet_enough_for_a_phone(monkeypatch, tmp_path, seed, capsys):
    same_dice(monkeypatch)
    figures = {}
    for n, (mode, (prepass, by_post)) in enumerate(MODES.items()):
        clock = PlayByPost() if by_post else None
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{n}.db"), clock=clock) as fake:
            for user in MEMBERS:  # asked at every window, whether they could play or not (P23)
                await fake.bot.service.set_reaction_preference(user, reactions.EVERY)
            figures[mode] = await play_game(fake, seed, prepass, clock)
        with capsys.disabled():
            report(f"seed {seed}, {mode}:", figures[mode])
    live, by_post = figures["live, answering every window"], figures["by post, answering every window"]
    ahead = figures["by post, passing ahead each round"]
    assert sum(r.prepasses for r in ahead.values()) > 0 and sum(r.activations for r in ahead.values()) > 10
    assert sum(max(r.pings.values(), default=0) for r in ahead.values()) \
        < sum(max(r.pings.values(), default=0) for r in by_post.values()), "passing ahead saves pings"
    assert max(r.left for r in live.values()) <= 12, "live, one table message per turn pair"
    assert max(r.posted for r in live.values()) <= 12, "live, nothing is posted only to notify"
    for rounds in (by_post, ahead):  # by post, one message per hand-over, none deleted (P7)
        assert all(r.left == r.posted for r in rounds.values())
    assert max(max(r.pings.values(), default=0) for r in live.values()) <= 1, "nobody playing live is pinged again"
    # set-up, by post: at most 6 pings per player and 12 new messages
    assert max(ahead[0].pings.values()) <= 6 and max(by_post[0].pings.values()) <= 6 and ahead[0].posted <= 12
    # by post, passing ahead: a call for each activation a player starts, and at most 2 more a round
    # (a damage spread to choose, a discard, the first window of a round before the round is passed)
    assert max(r.pings[u] - r.handovers[u] for n, r in ahead.items() if n for u in MEMBERS) <= 2


async def test_a_live_player_is_reminded_after_the_grace_only_if_they_have_not_answered(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        turns, rng = fake.bot.get_cog("Turns"), random.Random(2)
        handed_over = 0
        for _ in range(400):  # live play: everyone answers at once, until the turn passed twice
            info = await fake.bot.service.get(game_id)
            user = info.awaited[0].user_id
            version, commands = await fake.bot.service.legal_commands(game_id, user)
            sent = len(fake.sent)
            await choose(fake, MEMBERS[user], await open_panel(fake, MEMBERS[user], thread), commands,
                         rng.randrange(len(commands)))
            now = [t.user_id for t in (await fake.bot.service.get(game_id)).awaited]
            mentioned = {int(u) for r in fake.sent[sent:] if not r.ephemeral and r.json
                         for u in (r.json.get("allowed_mentions") or {}).get("users", [])}
            if now and now[0] != user and (game_id, now[0]) in fake.bot.last_acted:
                assert now[0] not in mentioned, "someone who just acted is watching: no ping now"
                handed_over += 1
                if handed_over == 2:
                    break
        waiting = now[0]
        clock.now += LIVE_GRACE - 1
        await fake.run(turns.send_due())
        assert not [m for m in fake.in_channel(thread) if m["content"].startswith(f"Reminder: <@{waiting}>")]
        clock.now += 2
        await fake.run(turns.send_due())
        assert [m for m in fake.in_channel(thread) if m["content"].startswith(f"Reminder: <@{waiting}>")], \
            "not answered within the grace: pinged then"


PASS_AHEAD_SEED = 4  # a game where the player who passes ahead would have been asked a window later that round


async def until_done_offers_passing_ahead(fake: FakeDiscord, thread: int, game_id: int, rng: random.Random):
    """Play through the panels until a player's part is done in the activations and their
    Done message offers passing the round ahead: (user, Done message, that button)."""
    service = fake.bot.service
    for _ in range(400):
        user = (await service.get(game_id)).awaited[0].user_id
        version, commands = await service.legal_commands(game_id, user)
        shown = await open_panel(fake, MEMBERS[user], thread)
        await choose(fake, MEMBERS[user], shown, commands, rng.randrange(len(commands)))
        done = fake.messages[int(shown["id"])]
        ahead = [c for c in fake.components(done)
                 if c["custom_id"].startswith("rr:stand:") and c["label"] == "Pass reactions for the rest of this round"]
        if ahead and user not in {t.user_id for t in (await service.get(game_id)).awaited}:
            return user, done, ahead[0]
    raise AssertionError("nobody was offered to pass ahead on their Done message")


async def windows_left_in_round(fake: FakeDiscord, game_id: int, user: int, rng: random.Random) -> int:
    """Play the rest of the round at random; how many reaction windows `user` was asked."""
    service = fake.bot.service
    seat = next(p["seat"] for p in (await service.view(game_id, user))["players"] if "hand" in p)
    start, windows = (await service.view(game_id))["round"], 0
    while (view := await service.view(game_id))["round"] == start and view["phase"] != "over":
        windows += any(d["player"] == seat and d["kind"] in ("interrupt", "reroll") for d in view["pending"])
        mover = (await service.get(game_id)).awaited[0].user_id
        version, commands = await service.legal_commands(game_id, mover)
        await service.submit(game_id, mover, rng.choice(commands), version)
    return windows


async def test_passing_ahead_when_your_part_is_done_is_private_and_no_window_of_yours_opens(monkeypatch, tmp_path):
    same_dice(monkeypatch)
    asked = {}
    for press in (False, True):  # the same game, without and with the press on Done
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{press}.db"), clock=PlayByPost()) as fake:
            thread, game_id = await new_game(fake)
            rng, service = random.Random(PASS_AHEAD_SEED), fake.bot.service
            for member in MEMBERS:  # every window asked, so that one is there to pass ahead (P23)
                await service.set_reaction_preference(member, reactions.EVERY)
            user, done, ahead = await until_done_offers_passing_ahead(fake, thread, game_id, rng)
            if press:
                assert done["content"].startswith("Done:")
                seen, public = await service.view(game_id, 3 - user), len(fake.public())
                await fake.dispatch(fake.click(MEMBERS[user], int(done["id"]), ahead["custom_id"]))
                assert len(fake.public()) == public, "nothing is posted or edited where the others look"
                now = await service.view(game_id, 3 - user)  # the opponent sees nothing but the move counter
                assert {k: v for k, v in now.items() if k != "version"} == {k: v for k, v in seen.items() if k != "version"}
                assert not [c for c in fake.components(fake.messages[int(done["id"])])
                            if c["custom_id"].startswith("rr:stand:")], "offered once a round"
            asked[press] = await windows_left_in_round(fake, game_id, user, random.Random(1))
    assert asked[False] > 0 and asked[True] == 0, asked


async def test_an_older_table_messages_your_move_opens_the_decision_of_now_and_goes(monkeypatch, tmp_path):
    """An older table message's "Your move" (ruling P30), pressed, opens the presser's panel
    for the game's current decision, never an old one, and the same interaction's response
    takes that message's buttons away: no request beyond the interaction's own."""
    same_dice(monkeypatch)
    clock = PlayByPost()
    async with FakeDiscord(monkeypatch, str(tmp_path / "g.db"), clock=clock) as fake:
        thread, game_id = await new_game(fake)
        service, rng = fake.bot.service, random.Random(3)
        while len([m for m in fake.in_channel(thread) if any(c["custom_id"].startswith("rr:turn:")
                                                              for c in fake.components(m))]) < 4:
            user_id = (await service.get(game_id)).awaited[0].user_id
            version, commands = await service.legal_commands(game_id, user_id)
            await choose(fake, MEMBERS[user_id], await open_panel(fake, MEMBERS[user_id], thread), commands,
                         rng.randrange(len(commands)))
            clock.now += clock.between_moves
        oldest = next(m for m in fake.in_channel(thread) if any(c["custom_id"].startswith("rr:turn:")
                                                                for c in fake.components(m)))
        user_id = (await service.get(game_id)).awaited[0].user_id
        version, commands = await service.legal_commands(game_id, user_id)
        stale = turn_button(fake, thread, int(oldest["id"]))
        assert not stale[1].endswith(f":{version}"), "the button was made for an older decision"
        payload, sent = fake.click(MEMBERS[user_id], *stale), len(fake.sent)
        current = fake.in_channel(thread)[-1]
        await fake.dispatch(payload)
        assert not fake.components(fake.messages[int(oldest["id"])]), "the older message's buttons are gone"
        assert fake.components(current), "the current table message keeps its button"
        assert fake.tally(sent).requests == 0 and not fake.tally(sent).posted, "all in the interaction's answer"
        opened = next(fake.messages[r.message_id] for r in fake.sent[sent:] if r.ephemeral and r.posts)
        assert opened["flags"] & EPHEMERAL and f":{version}:" in json.dumps(fake.components(opened))
        await choose(fake, MEMBERS[user_id], opened, commands, 0)  # and it plays
        assert (await service.get(game_id)).version > version
        payload = fake.click(MEMBERS[user_id], *turn_button(fake, thread))  # the newest one stays when pressed
        await fake.dispatch(payload)
        assert fake.components(fake.in_channel(thread)[-1]) and fake.original(payload)["flags"] & EPHEMERAL


WATCHED_SEEDS = range(3, 13)  # free-for-alls played until posts mid-activation after a board change were seen both ways


async def test_mid_activation_the_board_waits_unless_somebody_else_follows_live(monkeypatch, tmp_path):
    """P29 at a free-for-all by post: a message posted in an activation after the board
    changed leaves the board out; with Di following the game live, it shows the board."""
    seen = {True: 0, False: 0}  # Di following live -> posts mid-activation with a new board
    for seed in WATCHED_SEEDS:
        if min(seen.values()) >= 2:
            break
        dice_seed(monkeypatch, seed)
        clock = PlayByPost()
        async with FakeDiscord(monkeypatch, str(tmp_path / f"g{seed}.db"), clock=clock) as fake:
            thread, game_id = await four_players(fake)
            service, rng = fake.bot.service, random.Random(seed)
            while (info := await service.get(game_id)).status == "active" and min(seen.values()) < 2:
                user_id = info.awaited[0].user_id
                watching = user_id != 4 and rng.random() < 0.5
                if watching:
                    fake.bot.last_acted[(game_id, 4)] = clock.now  # Di has just acted: she is following live
                table = await service.guild_setting(int(fake.channels[thread]["guild_id"]), f"table:{game_id}")
                board = table["shown"].get("board.png")  # the board last uploaded to the thread (P36)
                version, commands = await service.legal_commands(game_id, user_id)
                sent = len(fake.sent)
                await choose(fake, FOUR[user_id], await open_panel(fake, FOUR[user_id], thread), commands,
                             rng.randrange(len(commands)))
                clock.now += clock.between_moves
                view = await service.view(game_id)
                posted = [r for r in fake.sent[sent:] if r.method == "POST" and r.path == f"/channels/{thread}/messages"]
                if posted and view.get("activation") and board_key(view) != board:
                    assert ("board.png" in [n for n, _ in posted[0].files]) == watching
                    seen[watching] += 1
    assert min(seen.values()) >= 2, seen
