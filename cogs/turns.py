"""Asynchronous turns: reminders, deadlines that auto-pass reaction windows (and, if the
server allows, let the computer stand in for absent players), and /settings.

Reminders live in the database (the service schedules them with every decision), so
a restart loses none: the loop asks for the due ones at start and then every
`bot.config.reminder_interval` seconds.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

import discord
from discord import app_commands

from cogs import buttons, replies, table_message
from cogs.calls import call, can_post
from cogs.clock import Clocked
from cogs.pings import calls_of, desk_of
from engine.service import DueReminder, GameInfo, ServiceError, is_computer, reactions
from engine.service.calls import MAX_HOURS, Calls

log = logging.getLogger("ready_room.turns")


# decisions a deadline answers with "pass": nobody should wait days on a reaction
REACTION_WINDOWS = ("reroll", "interrupt")
STAND_IN = "computer_stands_in"  # guild setting: the computer plays a decision whose deadline passed
RETRY_FIRST, RETRY_MOST = 60.0, 3600.0  # back-off, in seconds, for a reminder that failed for now


def nudge_text(game_id: int, kind: str, users: list[int]) -> str:
    """"Reminder: <@1>, <@2>, game #5 is waiting for your move." (or "Time is up for ...")."""
    late = "Time is up for" if kind == "deadline" else "Reminder:"
    return f"{late} {', '.join(f'<@{u}>' for u in users)}, game #{game_id} is waiting for your move."


def your_move(info: GameInfo) -> discord.ui.View:
    """A "Your move" button for the game."""
    view = discord.ui.View(timeout=None)
    view.add_item(buttons.YourMove(info.id, info.version))
    return view


class Turns(Clocked):
    """Reminders and the settings that shape them."""

    settings = app_commands.Group(name="settings", description="Reminders and notifications")

    def __init__(self, bot):
        super().__init__(bot, "ready-room-reminders", self.send_due)

    async def send_due(self) -> int:
        """Send every due reminder once; returns how many were handled.

        Deadlines come first (see `deadlines`): one may end a decision, and the reminders
        of an ended wait go with it, so the due list is read again before anyone is nudged.
        Players awaited in the same game are reminded together, in one message; a player
        with the digest gets one DM listing all their waiting games; a player with calls
        gets their call, at most once a window (P24), from the process of shard 0 whatever
        the shards of their games, so that two processes never call them twice. Each
        delivery is recorded on its own: a failure never holds back the others (see `deliver`).
        """
        service = self.bot.service
        desk, calls_desk = desk_of(self.bot), calls_of(self.bot)
        owns = self.bot.config.owns
        if owns(None):  # the process of shard 0 moves deadlines for vacations (games of every shard)
            await desk.apply_vacations()  # a decision that came during a vacation: its deadline moves first
        due = await service.due_reminders()
        expired, booked = await self.deadlines([r for r in due if r.kind == "deadline" and owns(r.guild_id)])
        if expired:
            await service.reminders_sent(expired)
        if expired or booked:
            due = await service.due_reminders()  # those of ended decisions are gone
        digests: dict[int, list[DueReminder]] = {}
        called: dict[int, tuple[Calls, list[DueReminder]]] = {}
        nudges: dict[tuple[int, str], list[DueReminder]] = {}
        handled = len(expired)
        now = self.bot.now()
        for reminder in due:
            calls = await calls_desk.calls(reminder.user_id)
            if not (owns(None) if calls is not None and reminder.kind != "deadline" else owns(reminder.guild_id)):
                continue  # another process's
            until = await desk.held_until(reminder.user_id)
            if is_computer(reminder.user_id):  # a computer teammate waiting on its person (R62) is not nudged
                await service.reminders_sent([reminder.id])
                handled += 1
            elif until is not None:  # quiet hours or a vacation: the reminder waits for their end
                await desk.postpone([reminder.id], until)
                handled += 1
            elif calls is not None and calls.next_call(now) > now:  # not before the window allows
                await desk.postpone([reminder.id], calls.next_call(now))
                handled += 1
            elif calls is not None and not owns(None):  # time is up: the game is in the call shard 0 sends
                await service.reminders_sent([reminder.id])
                handled += 1
            elif calls is not None:
                called.setdefault(reminder.user_id, (calls, []))[1].append(reminder)
            elif await service.user_setting(reminder.user_id, "digest"):
                digests.setdefault(reminder.user_id, []).append(reminder)
            elif await service.user_setting(reminder.user_id, "dm"):
                handled += await self.deliver([reminder], self.nudge_by_dm(reminder))
            else:
                nudges.setdefault((reminder.game_id, reminder.kind), []).append(reminder)
        for (game_id, kind), group in nudges.items():
            handled += await self.deliver(group, self.nudge(game_id, kind, [r.user_id for r in group]))
        for user_id, group in digests.items():
            text = replies.my_games(await service.awaiting(user_id))
            handled += await self.deliver(group, self.digest_dm(user_id, text))
        for user_id, (calls, group) in called.items():
            handled += await self.deliver(group, call(self.bot, user_id, calls))
        return handled

    async def deadlines(self, due: list[DueReminder]) -> tuple[list[int], bool]:
        """Apply the due deadlines: the ids of those that ended a decision, and whether a
        call was booked. A deadline of a player called at most every N hours who was not
        told of the decision does not pass: their call is booked and the deadline counts
        from it (ruling P26)."""
        expired, booked = [], False
        for reminder in due:
            calls = await calls_of(self.bot).uncalled(reminder.game_id, reminder.seat, reminder.user_id)
            if calls is not None:
                await calls_of(self.bot).book(reminder.game_id, reminder.seat, calls)
                booked = True
            elif await self._guarded(self.expire(reminder), reminder.game_id):
                expired.append(reminder.id)
        return expired, booked

    async def _guarded(self, work, game_id: int) -> bool:
        """Run one game's deadline; an error there is logged, not passed on to other games."""
        try:
            return await work
        except Exception:
            log.exception("deadline of game %s failed", game_id)
            return False

    async def deliver(self, reminders: list[DueReminder], sending) -> int:
        """Send one reminder message and record the outcome for its reminders only.

        Delivered: marked sent. Refused for good (403 Forbidden: DMs closed, no access;
        404 Not Found: the thread or user is gone): dropped with the reason, and the game's
        table told where it can be. Anything else (5xx, rate limits, the network): due
        again after a back-off that doubles with each failure (1 minute up to 1 hour).
        """
        ids = [r.id for r in reminders]
        try:
            await sending
        except (discord.Forbidden, discord.NotFound) as error:
            reason = f"{error.status} {error.text or type(error).__name__}"[:200]
            log.info("reminders %s dropped: %s", ids, reason)
            await self.bot.service.reminders_failed(ids, reason)
            await self.tell_table(reminders, reason)
        except (discord.HTTPException, OSError, asyncio.TimeoutError) as error:
            attempts = max(r.attempts for r in reminders)
            backoff = min(RETRY_FIRST * 2 ** attempts, RETRY_MOST)
            reason = f"{getattr(error, 'status', '')} {error}".strip()[:200]
            log.info("reminders %s failed (%s); again in %.0f s", ids, reason, backoff)
            await self.bot.service.reminders_failed(ids, reason, retry_after=backoff)
        else:
            await self.bot.service.reminders_sent(ids)
        return len(ids)

    async def tell_table(self, reminders: list[DueReminder], reason: str) -> None:
        """Say in the game's thread (or, if the thread is gone, its channel) that some
        players could not be reminded; quietly give up if that fails too."""
        first = reminders[0]
        users = ", ".join(f"<@{r.user_id}>" for r in reminders)
        text = f"Game #{first.game_id}: a reminder for {users} could not be delivered ({reason})."
        for place in dict.fromkeys(p for p in (first.thread_id, first.channel_id) if p):
            try:
                await self.bot.get_partial_messageable(place).send(text, allowed_mentions=replies.NO_MENTIONS)
                return
            except discord.HTTPException as error:
                log.info("could not tell game %s's table in %s: %s", first.game_id, place, error)

    async def nudge(self, game_id: int, kind: str, users: list[int]) -> None:
        """Remind the players of one game in its thread, all in one message."""
        info = await self.bot.service.get(game_id)
        channel = self.bot.get_partial_messageable(info.thread_id or info.channel_id)
        users = list(dict.fromkeys(users))  # a ping held back for quiet hours may fall due with a nudge
        await channel.send(nudge_text(info.id, kind, users), view=your_move(info),
                           allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]))

    async def nudge_by_dm(self, reminder: DueReminder) -> None:
        """Remind one player who asked for DMs, with a link to the game."""
        info = await self.bot.service.get(reminder.game_id)
        user = self.bot.get_user(reminder.user_id) or await self.bot.fetch_user(reminder.user_id)
        await user.send(nudge_text(info.id, reminder.kind, [reminder.user_id])
                        + f"\n{replies.link(info.guild_id, info.thread_id or info.channel_id)}", view=your_move(info))

    async def digest_dm(self, user_id: int, text: str) -> None:
        """The digest: one DM listing every game waiting for the user."""
        user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
        await user.send(replies.clip(text), allowed_mentions=replies.NO_MENTIONS)

    async def expire(self, reminder: DueReminder) -> bool:
        """At a deadline, a reaction window (re-roll or interrupt moment) passes by itself;
        any other decision is made by the computer when the server lets it stand in for
        absent players (/settings stand-in, off by default). True if the decision was made."""
        view = await self.bot.service.view(reminder.game_id)
        waiting = [d for d in view.get("pending", [])
                   if d["player"] == reminder.seat or reminder.seat in d.get("also", [])]
        if waiting and waiting[0]["kind"] not in REACTION_WINDOWS:
            return await self.stand_in(reminder)
        if not waiting:
            return False
        try:
            update = await self.bot.service.submit(reminder.game_id, reminder.user_id, "pass", view.get("version", 0))
        except ServiceError:
            return False  # answered in the meantime
        names = replies.names_of(await self.bot.service.get(update.game_id))
        what = "keeps the dice" if waiting[0]["kind"] == "reroll" else "lets the moment pass"
        update.public.insert(0, f"Time ran out: {names[reminder.seat]} {what}.")
        await table_message.publish(self.bot, update, reminder.user_id)
        return True

    async def stand_in(self, reminder: DueReminder) -> bool:
        """The computer makes the absent player's late decision (normal level, from that
        seat's view only), if the server has allowed it. True if it did."""
        if not await self.bot.service.guild_setting(reminder.guild_id or 0, STAND_IN):
            return False
        try:
            update = await self.bot.service.play_for(reminder.game_id, reminder.user_id, "normal")
        except ServiceError:
            return False  # answered in the meantime
        names = replies.names_of(await self.bot.service.get(update.game_id))
        update.public.insert(0, f"Time ran out: the computer plays for {names[reminder.seat]}.")
        await table_message.publish(self.bot, update, reminder.user_id)
        return True

    async def _guild_hours(self, interaction: discord.Interaction, key: str, hours: float) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await replies.reply(interaction, "Only members with Manage Server can change this, in a server.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_guild_setting(interaction.guild_id, key, hours * 3600 if hours else None)
        await replies.reply(interaction, "Saved. New games use it." if hours else "Cleared.")

    @settings.command(name="reminders", description="Remind awaited players after this many hours (0: default)")
    async def reminders(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0, 720]) -> None:
        await self._guild_hours(interaction, "remind_after", hours)

    @settings.command(name="turn-limit", description="Deadline per decision in hours; reaction windows auto-pass (0: none)")
    async def turn_limit(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0, 720]) -> None:
        await self._guild_hours(interaction, "turn_limit", hours)

    @settings.command(name="stand-in", description="At a deadline the computer plays for the absent player (default off)")
    async def stand_in_setting(self, interaction: discord.Interaction, enabled: bool) -> None:
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await replies.reply(interaction, "Only members with Manage Server can change this, in a server.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_guild_setting(interaction.guild_id, STAND_IN, enabled or None)
        await replies.reply(interaction, "The computer now plays for players whose time runs out." if enabled
                            else "The computer no longer stands in.")

    @settings.command(name="dm", description="Get reminders and private results by direct message")
    async def dm(self, interaction: discord.Interaction, enabled: bool) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_user_setting(interaction.user.id, "dm", enabled or None)
        await replies.reply(interaction, "DMs on." if enabled else "DMs off.")

    @settings.command(name="digest", description="Reminders as one DM listing all my waiting games, not one per game")
    async def digest(self, interaction: discord.Interaction, enabled: bool) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_user_setting(interaction.user.id, "digest", enabled or None)
        await replies.reply(interaction, "Digest on." if enabled else "Digest off.")

    @settings.command(name="calls", description="Be called at most every N hours, in one message for all games")
    @app_commands.describe(every_hours=f"1 to {MAX_HOURS}: at most one call per this many hours; 0: at every hand-over",
                           channel="A channel of this server for the calls (default: by DM)")
    async def calls_setting(self, interaction: discord.Interaction, every_hours: app_commands.Range[int, 0, MAX_HOURS],
                            channel: Optional[app_commands.AppCommandChannel] = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = interaction.user.id
        if channel is not None and every_hours and not await can_post(self.bot, channel.id, user_id, every_hours):
            await replies.reply(interaction, f"I cannot post in <#{channel.id}>: give me Send Messages there, "
                                             "or choose another channel. Nothing changed.")
            return
        try:
            calls = await calls_of(self.bot).choose(user_id, every_hours, channel.id if channel else None)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, "Calls off: you are mentioned at every hand-over again." if calls is None
                            else f"Calls {calls.words()}: one message at most per window lists every game waiting "
                                 "for you, and your time limits count from it. The other players see it on the "
                                 "table (rulings P24-P27).")

    @settings.command(name="show", description="Your settings, privately")
    async def show(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id, service = interaction.user.id, self.bot.service
        calls = await calls_of(self.bot).calls(user_id)
        lines = [f"Calls: {calls.words() if calls else 'at every hand-over'}",
                 f"Reminders by DM: {'on' if await service.user_setting(user_id, 'dm') else 'off'}",
                 f"Digest of reminders: {'on' if await service.user_setting(user_id, 'digest') else 'off'}",
                 f"Reaction windows: {reactions.CHOICES[await service.reaction_preference(user_id)]}"]
        await replies.reply(interaction, "\n".join(lines))

    @settings.command(name="reactions", description="When to ask you at a reaction window, in every game")
    @app_commands.choices(ask=[app_commands.Choice(name=said, value=chosen)
                               for chosen, said in reactions.CHOICES.items()])
    async def reactions_setting(self, interaction: discord.Interaction, ask: app_commands.Choice[str]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_reaction_preference(interaction.user.id, ask.value)
        await replies.reply(interaction, f"Saved for all your games: {reactions.CHOICES[ask.value]}. The other "
                                         "players see it on the table (ruling P23).")


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Turns(bot))
