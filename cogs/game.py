"""/game: start a game in its own thread, look at it, concede or abort it, list my turns."""
from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import lobby, lobby_message, pictures, renegades, replay, replies, table_message, tables, team_choice
from cogs.options import Code
from cogs.players import status_lines
from engine.service import NotAllowed, ServiceError

LAYOUTS = Literal["standard", "borg-corridor", "cube", "build"]
LOG_PAGE = 15  # moves per page of /game log


class Game(commands.Cog):
    """The game lifecycle: lobby, status, log, concede, abort, my games."""

    game = app_commands.Group(name="game", description="Star Trek: Away Missions and Renegades games")

    def __init__(self, bot):
        self.bot = bot

    @game.command(name="new", description="Open a game in a new thread")
    @app_commands.describe(mode="Players at the table", pack="Content pack (a folder of content/)",
                           opponent="Invite one player (leave empty for an open lobby)",
                           side="Your side", layout="Mission area (build: place the boards in setup)",
                           remind_hours="Remind the awaited player after this many hours (this game only)",
                           computer="Play against the computer at this level (it moves at once)",
                           ruleset="The game: Away Missions, or Renegades (modes solo, co-op, coalition vs renegades)",
                           mission="Renegades: the mission to play (empty: dealt at random)",
                           quick="Renegades: the quicker game, every ship starting docked on the mission planet",
                           boards="Renegades: the fixed boards, or both built from location cards",
                           world_cards="Renegades: world cards, the game's timer (6-10; 5 or 6 in the quicker game)",
                           coalition_crew="Renegades solo: the NPC Coalition ship's five crew, one per station "
                                          "(empty: the standard crew)",
                           draft="Renegades: choose the crews one pick at a time when the game starts "
                                 "(solo: the Coalition's too)")
    @app_commands.autocomplete(mission=renegades.complete_mission, coalition_crew=renegades.complete_coalition_crew)
    async def new(self, interaction: discord.Interaction,
                  mode: Literal["2 players", "3 players", "4 players", "2 vs 2",
                                "solo", "co-op", "coalition vs renegades"] = "2 players",
                  pack: Code = "content/starter", opponent: Optional[discord.Member] = None,
                  side: Literal["federation", "borg"] = "federation", layout: LAYOUTS = "standard",
                  remind_hours: Optional[app_commands.Range[float, 0.1, 720.0]] = None,
                  computer: Optional[Literal["easy", "normal", "hard"]] = None,
                  ruleset: Literal["awaymissions", "renegades"] = "awaymissions",
                  mission: Optional[Code] = None, quick: bool = False, boards: Literal["fixed", "built"] = "fixed",
                  world_cards: Optional[app_commands.Range[int, 5, 10]] = None,
                  coalition_crew: Optional[app_commands.Range[str, 1, 100]] = None, draft: bool = False) -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await replies.reply(interaction, "Start games in a server text channel (not a thread or DM).")
            return
        if opponent is not None and (opponent.id == interaction.user.id or opponent.bot):
            await replies.reply(interaction, "Invite another person, or leave the opponent empty.")
            return
        if opponent is not None and computer is not None:
            await replies.reply(interaction, "Invite a person or play the computer, not both.")
            return
        if ruleset == "renegades" or mode in renegades.MODES:
            refused = (renegades.refusal(ruleset, mission, quick, world_cards)
                       or renegades.crew_refusal(mode, coalition_crew, draft))
            if lobby.MODES.get(mode):
                refused = f"{mode} is an Away Missions table; Renegades modes are solo, co-op and coalition vs renegades."
            if refused:
                await replies.reply(interaction, refused)
                return
            await renegades.new(self.bot, interaction, channel, mode, opponent,
                                None if remind_hours is None else remind_hours * 3600,
                                renegades.game_options(mode, mission, quick, boards, world_cards, draft), computer,
                                coalition_crew)
            return
        if mission is not None or quick or boards != "fixed" or world_cards is not None or coalition_crew or draft:
            await replies.reply(interaction, "Mission, quick, boards, world cards, coalition crew and draft are "
                                             "Renegades options: choose ruleset renegades.")
            return
        table = lobby.MODES[mode]
        if table and (opponent is not None or lobby.layout_problem(mode, layout)):
            await replies.reply(interaction, lobby.layout_problem(mode, layout)
                                or "Tables of three or four are open lobbies: leave the opponent empty.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            path, content = await team_choice.game_pack(pack)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        thread = await channel.create_thread(name=f"Away Mission: {interaction.user.display_name}",
                                             type=discord.ChannelType.public_thread)
        options = {"pack": path, **lobby.table_options(mode, layout)}
        seat = team_choice.side_options(content, side)
        if options.get("mode") == "teams":
            seat["side"] = "team-a"
        try:
            info = await self.bot.service.create(
                creator=interaction.user.id, guild_id=interaction.guild_id, channel_id=channel.id,
                thread_id=thread.id, options=options,
                remind_after=None if remind_hours is None else remind_hours * 3600)
            info = await self.bot.service.join(info.id, interaction.user.id, interaction.user.display_name, **seat)
            if table:
                await lobby.open_table(self.bot, interaction, thread, info, computer)
                if computer is None:
                    await interaction.edit_original_response(
                        content=f"Game #{info.id} is open in {thread.mention}.\n" + team_choice.team_text(content, seat),
                        view=team_choice.team_view(info.id, content, seat))
                return
            if computer is not None:
                info = await self.bot.service.add_computer(
                    info.id, computer, **team_choice.side_options(content, team_choice.other_side(side)))
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        if computer is not None:
            await thread.send(lobby_message.lobby_text(info), allowed_mentions=replies.NO_MENTIONS)
            await interaction.edit_original_response(
                content=f"Game #{info.id} against the computer ({computer}) is in {thread.mention}.")
            try:
                update = await self.bot.service.start(info.id, interaction.user.id)
            except ServiceError as refused:
                await thread.send(refused.message, allowed_mentions=replies.NO_MENTIONS)
                return
            await table_message.publish(self.bot, update, interaction.user.id)
            return
        invited = opponent.id if opponent else 0
        await thread.send(lobby_message.lobby_text(info, invited),
                          view=lobby_message.lobby_view(info, invited, team_choice.other_side(side)),
                          allowed_mentions=discord.AllowedMentions(users=[opponent] if opponent else False))
        await interaction.edit_original_response(
            content=f"Game #{info.id} is open in {thread.mention}.\n" + team_choice.team_text(content, seat),
            view=team_choice.team_view(info.id, content, seat))

    @game.command(name="status", description="The table as it stands, privately")
    async def status(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await replies.game_here(self.bot, interaction)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        waiting = ", ".join(t.name for t in info.awaited) or "nobody"
        text = (f"**Game #{info.id}** · {info.status} · move {info.version}\n"
                f"Players: {', '.join(f'{s.name} ({s.seat})' for s in info.seats)}\nWaiting for {waiting}.")
        text = "\n".join([text, *await status_lines(self.bot, info), await self.bot.service.reaction_line(info.id)])
        drawn = await pictures.drawings(self.bot, info.id, [], ["board", "status"] if info.status == "active" else [],
                                        interaction.filesize_limit)
        await interaction.edit_original_response(content=text, attachments=pictures.as_files(drawn))

    @game.command(name="log", description="The moves so far, as everyone may read them, a page at a time")
    async def log(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await replies.game_here(self.bot, interaction)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await show_log(interaction, info.id, page=None)

    @game.command(name="replay", description="Watch a game again, step by step, privately")
    @app_commands.describe(game="The game's number (empty: the game running here, or the last one played here)",
                           step="Open at this step (empty: the deal of a game that ended, now in a running one)")
    async def replay(self, interaction: discord.Interaction,
                     game: Optional[app_commands.Range[int, 1, 2 ** 53 - 1]] = None,
                     step: Optional[app_commands.Range[int, 0, 1_000_000_000]] = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        if game is None:
            try:
                game = await self.bot.service.last_played_in(*replies.place_of(interaction))
            except ServiceError:
                await replies.reply(interaction, "No game was played here: name one, `/game replay game:12`.")
                return
        await replay.show(interaction, game, step)

    @game.command(name="concede", description="Give up this game")
    async def concede(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await replies.game_here(self.bot, interaction)
            update = await self.bot.service.concede(info.id, interaction.user.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await table_message.publish(self.bot, update, interaction.user.id)
        await interaction.edit_original_response(content="You conceded.")

    @game.command(name="abort", description="End this game without a result (creator or Manage Server; "
                                           "at a table of three or four, a player's vote)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        moderator = bool(interaction.permissions.manage_guild)
        try:
            info = await replies.game_here(self.bot, interaction)
            if not moderator and interaction.user.id != info.created_by and len(info.seats) > 2:
                await tables.vote_abort(self.bot, interaction, info)  # a table of three or four votes (R63)
                return
            if not moderator and interaction.user.id != info.created_by:
                raise NotAllowed("Only the game's creator or a member with Manage Server can abort it.")
            info = await self.bot.service.abort(info.id, interaction.user.id, force=moderator)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        await table_message.forget_table(self.bot, info)
        channel = self.bot.get_partial_messageable(info.thread_id or info.channel_id)
        await channel.send(f"**Game #{info.id}** was aborted by {interaction.user.display_name}.",
                           allowed_mentions=replies.NO_MENTIONS)
        await interaction.edit_original_response(content="Game aborted.")

    @game.command(name="leave", description="Leave a running game of three or four; the computer takes your seat")
    async def leave(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await tables.leave(self.bot, interaction)

    @game.command(name="mine", description="Games in any server waiting for me")
    async def mine(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        waiting = await self.bot.service.awaiting(interaction.user.id)
        await interaction.edit_original_response(content=replies.clip(replies.my_games(waiting)))


def log_page(game_id: int, moments: list, page: Optional[int]) -> tuple[str, Optional[discord.ui.View]]:
    """One page of a game's log (the last page when `page` is None), with Earlier/Later buttons."""
    pages = max(1, -(-len(moments) // LOG_PAGE))
    page = pages - 1 if page is None else min(max(page, 0), pages - 1)
    shown = moments[page * LOG_PAGE:(page + 1) * LOG_PAGE]
    lines = [f"**Game #{game_id} log**, page {page + 1} of {pages}"]
    lines += [f"{m.seq}. " + "; ".join(m.lines) for m in shown if m.lines]
    view = discord.ui.View(timeout=None)
    if page > 0:
        view.add_item(LogPage(game_id, page - 1, "Earlier"))
    if page < pages - 1:
        view.add_item(LogPage(game_id, page + 1, "Later"))
    return replies.clip("\n".join(lines) if moments else "No moves yet."), view if view.children else None


async def show_log(interaction: discord.Interaction, game_id: int, page: Optional[int]) -> None:
    """Show a page of the log in the interaction's (deferred, private) message."""
    try:
        moments = await interaction.client.service.history(game_id)
    except ServiceError as refused:
        await interaction.edit_original_response(content=refused.message)
        return
    content, view = log_page(game_id, moments, page)
    await interaction.edit_original_response(content=content, view=view)


class LogPage(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:log:(?P<game>\d+):(?P<page>\d+)"):
    """Turns the private log to another page."""

    def __init__(self, game: int, page: int, label: str):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"rr:log:{game}:{page}"))
        self.game, self.page = game, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["page"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await show_log(interaction, self.game, self.page)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Game(bot))
    bot.add_dynamic_items(LogPage)
