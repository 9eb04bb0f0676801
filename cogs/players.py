"""Players on Discord: /profile, /leaderboard, /away (quiet hours, vacations), and the
dice seal of each game (shown at the start, revealed with a Verify button at the end, on the
message that also carries the game's recap and summary pictures, how to watch the game
again and the button to reveal its hidden cards there).

Ratings are recorded as soon as a game ends (the `game_over` event) and, for a game that
ended while the bot was down, at start and on the reminder clock; each game counts once
(see `PlayerDesk.settle_ratings`). The seed of an ended game is revealed in its thread on
that clock too (within a minute of the end), so the last move's table message stays the
last word of the game's own action.
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import replay, replies
from cogs.replies import plural
from cogs.options import Code
from cogs.clock import Clocked
from cogs.league import actor_of
from cogs.league import desk_of as league_desk
from cogs.pings import calls_of, desk_of
from cogs.pictures import as_files, upload_limit, within
from engine.service import GameInfo, ServiceError, Update, recaps
from engine.service.text import duration
from engine.service.players import MAX_VACATION_DAYS, PlayerDesk, Profile

if TYPE_CHECKING:
    from bot import ReadyRoom

log = logging.getLogger("ready_room.players")


async def status_lines(bot: "ReadyRoom", info: GameInfo) -> list[str]:
    """What /game status adds: the players' vacations, quiet hours and calls, and the dice seal."""
    desk, lines = desk_of(bot), []
    for seat in info.seats:
        lines += (await desk.away(seat.user_id)).words(seat.name)
        calls = await calls_of(bot).calls(seat.user_id)
        if calls is not None:
            lines.append(f"{seat.name} is called at most {calls.words(public=True)}: their time limit counts "
                         "from the call.")
    sealed = await desk.store.seal(info.id)
    if sealed is not None:
        lines.append(f"Dice seal: `{sealed.digest}`")
    return lines


def profile_text(profile: Profile, name: str) -> str:
    """The /profile answer."""
    lines = [f"**{name}**"]
    if profile.rating is not None:
        r = profile.rating
        lines.append(f"Rating here: **{r.ordinal:.1f}** (mu {r.mu:.1f}, sigma {r.sigma:.1f}; "
                     f"{plural(r.games, 'rated game')}: {plural(r.bot_games, 'bot game')}, "
                     f"{plural(r.event_games, 'event game')}; season {r.season}: {r.season_games})")
    else:
        lines.append("Rating here: none yet (no rated game in this server)")
    lines.append(f"Games: {profile.total.words()}"
                 + (f"; {profile.active} under way" if profile.active else "")
                 + (f"; {profile.aborted} aborted" if profile.aborted else ""))
    if profile.by_affiliation:
        lines.append("By affiliation: " + ", ".join(f"{aff.capitalize()} {t.words()}"
                                                    for aff, t in sorted(profile.by_affiliation.items())))
    if profile.by_mode:
        lines.append("By mode: " + ", ".join(f"{mode} {t.words()}" for mode, t in sorted(profile.by_mode.items())))
    lines.append(f"Average turn time: {duration(profile.turn_time)}"
                 + (f" over {profile.answers} answers" if profile.answers else ""))
    if profile.away is not None:
        lines += profile.away.words(name)
    return replies.clip("\n".join(lines))


def leaderboard_text(page: tuple[list, int], number: int = 1) -> str:
    """The /leaderboard answer: one page of (place, rating, name), best first."""
    board, pages = page
    if not board:
        return "No rated game has been played in this server yet."
    lines = ["**Leaderboard** (rating = mu - 3 sigma; bot games and event results; rulings P1, L33-L38)"
             + (f", page {min(number, pages)} of {pages}" if pages > 1 else "")]
    lines += [f"{n}. {name}: **{r.ordinal:.1f}** ({plural(r.games, 'game')})" for n, r, name in board]
    return "\n".join(lines)


async def answer(interaction: discord.Interaction, work: Callable[[], Awaitable[Any]],
                 words: Callable[[Any], str]) -> None:
    """Defer privately, do `work`, and answer with `words(outcome)`, or the refusal's message."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        outcome = await work()
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return
    await replies.reply(interaction, words(outcome))


async def show_board(interaction: discord.Interaction, guild_id: int, page: int) -> None:
    """Edit the deferred answer into one leaderboard page with Earlier / Later buttons."""
    found = await desk_of(interaction.client).leaderboard(guild_id, page)
    page = min(page, found[1])
    view = discord.ui.View(timeout=None)
    if page > 1:
        view.add_item(BoardPage(guild_id, page - 1, "Previous"))
    if page < found[1]:
        view.add_item(BoardPage(guild_id, page + 1, "Next"))
    await interaction.edit_original_response(content=leaderboard_text(found, page), view=view)
    replies.unlisten(view)


class BoardPage(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:board:(?P<guild>\d+):(?P<page>\d+)"):
    """A leaderboard page button (answers privately to whoever presses it)."""

    def __init__(self, guild: int, page: int, label: str = "Page"):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"rr:board:{guild}:{page}"))
        self.guild, self.page = guild, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["guild"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_board(interaction, self.guild, max(self.page, 1))


class VerifyDice(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:dice:(?P<game>\d+)"):
    """"Verify dice": replays an ended game from its revealed seed and says whether every roll matches."""

    def __init__(self, game: int):
        super().__init__(discord.ui.Button(label="Verify dice", style=discord.ButtonStyle.secondary,
                                           custom_id=f"rr:dice:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: desk_of(interaction.client).verify(self.game), self.verdict_text)

    def verdict_text(self, verdict) -> str:
        return verdict.summary(self.game)


class Players(Clocked):
    """Profiles, ratings, the leaderboard, quiet hours and vacations, dice seals."""

    away = app_commands.Group(name="away", description="Quiet hours and vacations (other players see them)")

    def __init__(self, bot):
        super().__init__(bot, "ready-room-players", self.settle)

    @property
    def desk(self) -> PlayerDesk:
        return desk_of(self.bot)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VerifyDice, BoardPage)
        try:
            await self.desk.settle_ratings()  # games that ended while the bot was down
        except Exception:
            log.warning("ratings could not be settled at start; the clock tries again", exc_info=True)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VerifyDice, BoardPage)
        await super().cog_unload()

    @commands.Cog.listener()
    async def on_game_over(self, update: Update) -> None:
        """A game has ended: its rating is recorded now (the seed is revealed on the clock)."""
        await self.desk.settle_ratings()

    async def settle(self) -> int:
        """Rate ended games not yet rated; reveal the seeds of ended games in their threads.
        Returns how many seeds were revealed."""
        await self.desk.settle_ratings()
        shown = 0
        for game_id in await self.desk.unrevealed():
            shown += await self.reveal(game_id)
        return shown

    async def reveal(self, game_id: int) -> bool:
        """Post an ended game's seed, salt and rating changes in its thread, with Verify dice, how
        to watch it again and the button to reveal its hidden cards there (P41), and, for a game
        that ended (not aborted), its recap and its summary (P44)."""
        desk = self.desk
        info = await self.bot.service.get(game_id)
        shown = await desk.reveal(game_id)
        lines = [f"**Game #{game_id}** is over: its dice can be checked.",
                 f"Seed `{shown.seed}`, salt `{shown.salt}`: SHA-256 of `{shown.salt}:{shown.seed}` is "
                 f"`{shown.digest}`, the seal shown at the start.",
                 "Press **Verify dice** to replay every roll from this seed (or run "
                 f"`python -m engine.service.replay <database> {game_id} --verify`)."]
        changes = await desk.rating_changes(game_id)
        if changes:
            names = replies.names_of(info)
            by_user = {s.user_id: names[s.seat] for s in info.seats}
            lines.append("Ratings: " + ", ".join(f"{by_user.get(u, u)} {before:.1f} → {after:.1f} (mu)"
                                                  for u, (before, after) in changes.items()))
        lines += replay.offer_lines(info)
        view = discord.ui.View(timeout=None)
        view.add_item(VerifyDice(game_id))
        if replay.revealable(info):
            view.add_item(replay.RevealCards(game_id))
        drawn = within(await self.recap(game_id), upload_limit(self.bot, info.guild_id)) if info.status == "over" else []
        try:
            await self.bot.get_partial_messageable(info.thread_id or info.channel_id).send(
                replies.clip("\n".join(lines)), view=view, files=as_files(drawn), allowed_mentions=replies.NO_MENTIONS)
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("game %s: seed not revealed, its thread is gone (%s)", game_id, error)
        await desk.revealed(game_id)
        return True

    async def recap(self, game_id: int) -> list[tuple[str, bytes]]:
        """The game's recap and summary pictures for its end message (P44); none when drawing
        them fails, so that the seed is revealed all the same."""
        try:
            return await recaps.pictures(self.desk, game_id, await self.desk.verify(game_id))
        except Exception:  # noqa: BLE001 (the reveal must go out; the failure is logged)
            log.exception("game %s: no recap", game_id)
            return []

    @app_commands.command(name="profile", description="Games, wins, turn time and rating of a player")
    @app_commands.describe(player="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction, player: Optional[discord.User] = None) -> None:
        who = player or interaction.user
        await answer(interaction, lambda: self.desk.profile(who.id, interaction.guild_id),
                     lambda found: profile_text(found, found.name or who.display_name))

    @app_commands.command(name="leaderboard", description="This server's best ratings")
    @app_commands.describe(page="Which page (10 players a page)")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10000] = 1) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await show_board(interaction, interaction.guild_id, page)

    @app_commands.command(name="season", description="The rating seasons; organisers can begin a new one")
    @app_commands.guild_only()
    @app_commands.describe(start="Begin a new rating season now (organisers)", name="The new season's name")
    async def season(self, interaction: discord.Interaction, start: bool = False, name: Code = "") -> None:
        book = self.desk.ratings
        try:
            if start:
                begun = await league_desk(self.bot).start_season(interaction.guild_id, actor_of(interaction), name)
                await interaction.response.send_message(
                    f"Rating season {begun.number} ('{begun.name}') begins now. Ratings carry over with their "
                    "uncertainty widened (ruling L37): a displayed rating (mu - 3 sigma) starts a little lower "
                    "at its first game of the season and settles again with the season's games.")
                return
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        seasons = await book.seasons(interaction.guild_id)
        lines = [f"Season {s.number} '{s.name}'" + (f", from <t:{int(s.starts)}:f>" if s.starts else "")
                 + (f" (begun by <@{s.started_by}>)" if s.started_by else "") for s in seasons]
        await replies.reply(interaction, "\n".join([f"Rating seasons here (the current one is {seasons[-1].number}):",
                                                     *lines]))

    @away.command(name="quiet", description="Daily quiet hours: no pings, reminders wait until they end")
    @app_commands.describe(start="Start, like 22:00", end="End, like 07:00",
                           zone="Your time zone: a UTC offset like +02:00 or a name like Europe/Berlin")
    async def quiet(self, interaction: discord.Interaction, start: app_commands.Range[str, 1, 10],
                    end: app_commands.Range[str, 1, 10], zone: app_commands.Range[str, 1, 64]) -> None:
        await answer(interaction, lambda: self.desk.set_quiet(interaction.user.id, start, end, zone),
                     lambda quiet: f"Quiet hours {quiet.words()}: no pings then; reminders wait until they end. "
                                   "Other players see them in /game status and /profile.")

    @away.command(name="quiet-off", description="No more quiet hours")
    async def quiet_off(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: self.desk.clear_quiet(interaction.user.id), lambda _: "Quiet hours off.")

    @away.command(name="vacation", description="Pause your deadlines: they move by the length of the vacation")
    @app_commands.describe(days="How many days", starts_in_days="Start later (days from now; default now)")
    async def vacation(self, interaction: discord.Interaction,
                       days: app_commands.Range[float, 0.1, MAX_VACATION_DAYS],
                       starts_in_days: app_commands.Range[float, 0.0, MAX_VACATION_DAYS] = 0.0) -> None:
        await answer(interaction, lambda: self.desk.set_vacation(interaction.user.id, days, starts_in_days),
                     lambda when: f"Vacation from <t:{int(when[0])}:f> until <t:{int(when[1])}:f>: your deadlines "
                                  "move by it, and nobody pings you meanwhile. /away back ends it.")

    @away.command(name="back", description="End your vacation now (deadlines move back by the part not taken)")
    async def back(self, interaction: discord.Interaction) -> None:
        await answer(interaction, lambda: self.desk.end_vacation(interaction.user.id),
                     lambda ended: "Welcome back: your vacation has ended." if ended else "You were not on vacation.")


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Players(bot))
