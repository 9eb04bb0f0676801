"""/campaign: Renegades campaigns in their own thread.

`/campaign new` opens a thread for the campaign; `/campaign continue` there launches the
next mission as an ordinary Renegades game in the same thread (played like any game),
and records a mission whose game is over. Shore leave is done alone: `/campaign shore`
opens a private panel of the steps open to you (buy, train, sell, recruit, turn or ransom
prisoners, done), or takes a typed step such as `crew VESK LINNET RHEE MOTT GRUND`.
`/campaign status` shows the roster (crew, XP, injuries, upgrades, brig, armory, digits).
"""
from __future__ import annotations

from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import replies, table_message
from cogs.options import Typed
from cogs.pictures import as_file
from cogs.renegades import MODES
from engine.service import ServiceError, Update
from engine.service.campaign import CampaignService, CampaignUpdate

TITLES = Literal["ember", "tide", "veil"]
SELECT_LIMIT = 25  # options in one Discord select
SELECT_ROWS = 5  # selects in one message (one a row)
VALUE_LIMIT = 100  # characters of an option's label and value
NAMED = 10  # steps that did not fit named on the panel


def shore_view(campaign_id: int, choices: list[tuple[str, str]]) -> tuple[Optional[discord.ui.View], str]:
    """The private shore leave panel: the steps open now (value: the command) in selects
    of at most 25 options, 'done' always the last; and a note naming what did not fit
    (it can be typed: /campaign shore step:...)."""
    if not choices:
        return None, ""
    *steps, done = choices
    shown = [step for step in steps if len(step[0]) <= VALUE_LIMIT][:SELECT_LIMIT * SELECT_ROWS - 1]
    left = [command for command, label in steps if (command, label) not in shown]
    shown.append(done)
    view = discord.ui.View(timeout=None)
    for part in range(0, len(shown), SELECT_LIMIT):
        options = [discord.SelectOption(label=replies.clip(label, VALUE_LIMIT), value=command)
                   for command, label in shown[part:part + SELECT_LIMIT]]
        view.add_item(ShoreStep(campaign_id, options, part // SELECT_LIMIT))
    named = ", ".join(left[:NAMED]) + (", ..." if len(left) > NAMED else "")
    note = f"{len(left)} more steps do not fit on the panel; type them with /campaign shore step: ({named})" \
        if left else ""
    return view, note


class ShoreStep(discord.ui.DynamicItem[discord.ui.Select],
                template=r"rr:shore:(?P<campaign>[0-9]{1,18})(?::(?P<part>[0-4]))?"):
    """A shore leave step chosen on the private panel (`part`: which of its selects)."""

    def __init__(self, campaign_id: int, options: list[discord.SelectOption], part: int = 0):
        custom_id = f"rr:shore:{campaign_id}" + (f":{part}" if part else "")
        super().__init__(discord.ui.Select(placeholder="Choose a shore leave step" + (" (more)" if part else ""),
                                           options=options, custom_id=custom_id))
        self.campaign_id = campaign_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["campaign"]), item.options, int(match["part"] or 0))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        cog: Campaigns = interaction.client.get_cog("Campaigns")
        await cog.step(interaction, self.campaign_id, self.item.values[0])


class Campaigns(commands.Cog):
    """Renegades campaigns: a series of missions with shore leave between them."""

    campaign = app_commands.Group(name="campaign", description="Renegades campaigns: missions that carry over",
                                  guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.desk = CampaignService(bot.service, **({"clock": bot.clock} if bot.clock else {}))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ShoreStep)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ShoreStep)

    # ---- telling the thread -------------------------------------------------------------

    async def announce(self, update: CampaignUpdate, ping: bool = False) -> None:
        """Post an update's public lines in the campaign thread; `ping` the awaited players."""
        where = update.thread_id or update.channel_id
        if where is None or not update.public:
            return
        users = [update.players[s] for s in update.awaited] if ping else []
        text = "\n".join(update.public)
        if users:
            text += "\nShore leave is open: " + " ".join(f"<@{u}>" for u in users) + \
                    ", use /campaign shore here (privately)."
        await self.bot.get_partial_messageable(where).send(
            replies.clip(text), allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]))

    async def _here(self, interaction: discord.Interaction) -> int:
        return (await self.desk.in_place(*replies.place_of(interaction))).id

    # ---- commands -----------------------------------------------------------------------

    @campaign.command(name="new", description="Open a Renegades campaign in a new thread")
    @app_commands.describe(title="The campaign title: which missions count and which epic ending awaits",
                           missions="Missions agreed (3 to 5)", mode="Players at the table",
                           opponent="The other player (co-op partner, or the Coalition player)",
                           quick="Every mission the quicker game: ships start docked on the mission planet",
                           boards="Every mission's boards: the fixed ones, or built from location cards")
    async def new(self, interaction: discord.Interaction, title: TITLES,
                  missions: app_commands.Range[int, 3, 5] = 3,
                  mode: Literal["solo", "co-op", "coalition vs renegades"] = "coalition vs renegades",
                  opponent: Optional[discord.Member] = None, quick: bool = False,
                  boards: Literal["fixed", "built"] = "fixed") -> None:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await replies.reply(interaction, "Start campaigns in a server text channel (not a thread or DM).")
            return
        engine_mode, seats = MODES[mode]
        if (seats == 2) != (opponent is not None) or opponent is not None and (
                opponent.id == interaction.user.id or opponent.bot):
            await replies.reply(interaction, "Solo is played alone; co-op and coalition vs renegades need "
                                             "another person as the opponent.")
            return
        players = [(interaction.user.id, interaction.user.display_name, {"faction": "renegade"})]
        if opponent is not None:
            side = "coalition" if engine_mode == "versus" else "renegade"
            players.append((opponent.id, opponent.display_name, {"faction": side}))
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await channel.create_thread(name=f"Campaign: {interaction.user.display_name}",
                                             type=discord.ChannelType.public_thread)
        try:
            update = await self.desk.create(players=players, title=title, missions=missions, mode=engine_mode,
                                            quick=quick, boards=boards, creator=interaction.user.id,
                                            guild_id=interaction.guild_id, channel_id=channel.id, thread_id=thread.id)
        except ServiceError as refused:
            await interaction.edit_original_response(content=refused.message)
            return
        roster = await self.desk.roster(update.campaign_id)
        users = [u for u, _, _ in players]
        await thread.send(replies.clip("\n".join(update.public + roster + [
            " ".join(f"<@{u}>" for u in users) + ": launch mission 1 with /campaign continue in this thread."])),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]))
        await interaction.edit_original_response(content=f"Campaign #{update.campaign_id} is in {thread.mention}.")

    @campaign.command(name="status", description="The campaign's crews, injuries, upgrades, brigs and digits")
    async def status(self, interaction: discord.Interaction) -> None:
        try:
            campaign_id = await self._here(interaction)
            settled = await self.desk.settle(campaign_id)
            lines = await self.desk.roster(campaign_id, interaction.user.id)
            picture = await self.desk.roster_picture(campaign_id)
        except ServiceError as refused:
            await replies.refuse(interaction, refused)
            return
        if settled is not None:
            await self.announce(settled, ping=True)
        await replies.reply(interaction, "\n".join(lines), file=as_file("roster.png", picture))

    @campaign.command(name="continue", description="Record a finished mission, or launch the next one")
    async def continue_(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            update = await self.desk.continue_(await self._here(interaction), interaction.user.id)
        except ServiceError as refused:
            await replies.refuse(interaction, refused)
            return
        await self.announce(update, ping=update.phase == "shore_leave")
        if update.mission_start is not None:
            await table_message.publish(self.bot, update.mission_start, interaction.user.id)
        said = f"Mission game #{update.game_id} is under way in this thread." if update.game_id else \
            "\n".join(update.public) or "Nothing to do yet."
        await interaction.edit_original_response(content=replies.clip(said))

    @campaign.command(name="shore", description="Your shore leave, privately: buy, train, sell, recruit, prisoners")
    @app_commands.describe(step="A step typed out, e.g. 'crew VESK LINNET RHEE MOTT GRUND' (empty: the panel)")
    async def shore(self, interaction: discord.Interaction, step: Optional[Typed] = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            campaign_id = await self._here(interaction)
        except ServiceError as refused:
            await replies.refuse(interaction, refused)
            return
        if step is not None:
            await self.step(interaction, campaign_id, step)
        else:
            await self.panel(interaction, campaign_id)

    async def panel(self, interaction: discord.Interaction, campaign_id: int, note: str = "") -> None:
        """The user's private shore leave panel: their side of the roster and the steps open."""
        try:
            choices = await self.desk.shore_choices(campaign_id, interaction.user.id)
            lines = await self.desk.roster(campaign_id, interaction.user.id)
        except ServiceError as refused:
            await replies.refuse(interaction, refused)
            return
        head = [note] if note else []
        if not choices:
            head.append("Your shore leave is not open (or you are done).")
        view, left_out = shore_view(campaign_id, choices)
        head += [left_out] if left_out else []
        await interaction.edit_original_response(content=replies.clip("\n".join(head + lines)), view=view)

    async def step(self, interaction: discord.Interaction, campaign_id: int, command: str) -> None:
        """Apply one shore leave step for the user; the panel shows what it did."""
        try:
            update = await self.desk.command(campaign_id, interaction.user.id, command)
        except ServiceError as refused:
            await self.panel(interaction, campaign_id, refused.message)
            return
        await self.announce(update)
        seat = next(s for s, u in update.players.items() if u == interaction.user.id)
        await self.panel(interaction, campaign_id, "\n".join(update.private.get(seat, []) + update.public))

    @campaign.command(name="abandon", description="End the campaign here without an ending")
    async def abandon(self, interaction: discord.Interaction) -> None:
        try:
            update = await self.desk.abandon(await self._here(interaction), interaction.user.id)
        except ServiceError as refused:
            await replies.refuse(interaction, refused)
            return
        await self.announce(update)
        await replies.reply(interaction, "The campaign is abandoned.")

    # ---- a mission's game ends ----------------------------------------------------------

    @commands.Cog.listener()
    async def on_game_over(self, update: Update) -> None:
        settled = await self.desk.settle_game(update.game_id)
        if settled is not None:
            await self.announce(settled, ping=settled.phase == "shore_leave")


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Campaigns(bot))
