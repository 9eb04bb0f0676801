"""Persistent game buttons and selects.

Each is a `discord.ui.DynamicItem`: its custom id carries the game id and the game
version it was made for (plus the chosen command's index), so a button posted before a
restart still works once `ReadyRoom.setup_hook` has registered these classes. Nothing
is kept in memory between clicks.
"""
from __future__ import annotations

import discord

from cogs import lobby_message, panel, private_panel, replies, table_message, team_choice
from engine.service import reactions, ServiceError

GAME = r"(?P<game>\d+)"
VERSION = r"(?P<version>\d+)"


STALE_CHOICE = "That choice is not on your panel; press **Your move** again."


def _ids(match) -> tuple[int, int]:
    return int(match["game"]), int(match["version"])


def _index(value: str) -> int:
    """A select value as the index it stands for; IndexError for anything a panel never sent."""
    if not (value.isascii() and value.isdigit()) or len(value) > 4:
        raise IndexError(value)
    return int(value)


class YourMove(discord.ui.DynamicItem[discord.ui.Button], template=rf"rr:turn:{GAME}:{VERSION}"):
    """"Your move": opens the presser's private panel for the game's current decision."""

    def __init__(self, game: int, version: int):
        super().__init__(discord.ui.Button(label="Your move", style=discord.ButtonStyle.primary,
                                           custom_id=f"rr:turn:{game}:{version}"))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        if await table_message.older_table_message(interaction.client, interaction, self.game):
            await interaction.response.edit_message(view=None)  # free: the response itself (P30)
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        await private_panel.show_panel(interaction.client, interaction, self.game, catch_up=True)


class CommandButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=rf"rr:do:{GAME}:{VERSION}:(?P<index>\d+)"):
    """One legal command as a button."""

    def __init__(self, game: int, version: int, index: int, label: str, row: int | None = None):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=row,
                                           custom_id=f"rr:do:{game}:{version}:{index}"))
        self.game, self.version, self.index = game, version, index

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), int(match["index"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await choose(interaction, self.game, self.version, lambda commands: commands[self.index])


class CommandPick(discord.ui.DynamicItem[discord.ui.Select], template=rf"rr:pick:{GAME}:{VERSION}:(?P<n>\d+)"):
    """A select of legal commands (values are their indices)."""

    def __init__(self, game: int, version: int, n: int, placeholder: str,
                 options: list[discord.SelectOption], row: int | None = None):
        super().__init__(discord.ui.Select(placeholder=placeholder, options=options, row=row,
                                           custom_id=f"rr:pick:{game}:{version}:{n}"))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), int(match["n"]), item.placeholder, item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await choose(interaction, self.game, self.version, lambda commands: commands[_index(self.item.values[0])])


class StandingButton(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"rr:stand:{GAME}:{VERSION}:(?P<n>\d+)"):
    """A standing choice offered beside the decision (e.g. pass every reaction this round)."""

    def __init__(self, game: int, version: int, n: int, label: str, row: int | None = None):
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, row=row,
                                           custom_id=f"rr:stand:{game}:{version}:{n}"))
        self.game, self.version, self.n = game, version, n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), int(match["n"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            shown = await interaction.client.service.panel(self.game, interaction.user.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        if shown.version != self.version or self.n >= len(shown.standing):
            await replies.reply(interaction, "The game moved on since this panel was shown; press **Your move** again.")
            return
        await private_panel.act(interaction.client, interaction, self.game, self.version, shown.standing[self.n][1])


class TakeBackAsk(discord.ui.DynamicItem[discord.ui.Button], template=rf"rr:takeback:{GAME}:{VERSION}"):
    """On the actor's private message: ask the others to let them take the action back."""

    def __init__(self, game: int, version: int, row: int | None = None):
        super().__init__(discord.ui.Button(label="Take back", style=discord.ButtonStyle.danger, row=row,
                                           custom_id=f"rr:takeback:{game}:{version}"))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await private_panel.ask_take_back(interaction, self.game, self.version)


class TakeBackAnswer(discord.ui.DynamicItem[discord.ui.Button],
                     template=rf"rr:takeback:{GAME}:{VERSION}:(?P<answer>yes|no)"):
    """On the request in the thread: another player agrees to the take-back, or refuses it."""

    def __init__(self, game: int, version: int, answer: str):
        super().__init__(discord.ui.Button(
            label="Agree" if answer == "yes" else "Refuse", custom_id=f"rr:takeback:{game}:{version}:{answer}",
            style=discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.secondary))
        self.game, self.version, self.answer = game, version, answer

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await private_panel.answer_take_back(interaction, self.game, self.version, self.answer == "yes")


class CardPick(discord.ui.DynamicItem[discord.ui.Select],
               template=rf"rr:cards:{GAME}:{VERSION}:(?P<verb>[a-z]+)"):
    """A multi-select of cards from the hand, for discard/redraw (any set is legal)."""

    def __init__(self, game: int, version: int, verb: str, options: list[discord.SelectOption],
                 row: int | None = None):
        super().__init__(discord.ui.Select(placeholder=f"{verb} cards ...", options=options, row=row,
                                           min_values=1, max_values=len(options),
                                           custom_id=f"rr:cards:{game}:{version}:{verb}"))
        self.game, self.version, self.verb = game, version, verb

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), match["verb"], item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        def command(commands: list[str]) -> str:
            _, cards = panel.card_choice(commands)
            return " ".join([self.verb] + [cards[_index(v)] for v in sorted(self.item.values)])
        await choose(interaction, self.game, self.version, command)


class OpenGroup(discord.ui.DynamicItem[discord.ui.Select], template=rf"rr:open:{GAME}:{VERSION}:(?P<n>\d+)"):
    """A select of command groups too big for the first page; choosing one opens it."""

    def __init__(self, game: int, version: int, n: int, options: list[discord.SelectOption],
                 row: int | None = None):
        super().__init__(discord.ui.Select(placeholder="More choices ...", options=options, row=row,
                                           custom_id=f"rr:open:{game}:{version}:{n}"))
        self.game, self.version = game, version

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), int(match["n"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        try:
            group = _index(self.item.values[0])
        except IndexError:
            await replies.reply(interaction, STALE_CHOICE)
            return
        await private_panel.show_panel(interaction.client, interaction, self.game, group, version=self.version)


class PageButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"rr:page:{GAME}:{VERSION}:(?P<group>-?\d+):(?P<page>\d+)"):
    """Back to the first page (group -1) or on to the next page of a group."""

    def __init__(self, game: int, version: int, group: int, page: int, label: str, row: int | None = None):
        super().__init__(discord.ui.Button(label=label, row=row,
                                           custom_id=f"rr:page:{game}:{version}:{group}:{page}"))
        self.game, self.version, self.group, self.page = game, version, group, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(*_ids(match), int(match["group"]), int(match["page"]), item.label)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await private_panel.show_panel(interaction.client, interaction, self.game, self.group, self.page,
                                       version=self.version)


class JoinButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"rr:join:{GAME}:(?P<invited>\d+):(?P<side>[a-z]+)"):
    """Take the free seat of a lobby (only the invited user, when somebody was invited)."""

    def __init__(self, game: int, invited: int, side: str):
        super().__init__(discord.ui.Button(label=f"Join as {side.title()}", style=discord.ButtonStyle.success,
                                           custom_id=f"rr:join:{game}:{invited}:{side}"))
        self.game, self.invited, self.side = game, invited, side

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["invited"]), match["side"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.invited and interaction.user.id != self.invited:
            await replies.reply(interaction, f"This seat is kept for <@{self.invited}>.")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        await lobby_message.join(interaction, self.game, self.side)


class StartButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"rr:start:{GAME}"):
    """Deal the game once both seats are taken."""

    def __init__(self, game: int):
        super().__init__(discord.ui.Button(label="Start", style=discord.ButtonStyle.primary,
                                           custom_id=f"rr:start:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await lobby_message.start(interaction, self.game)


class _Private(discord.ui.DynamicItem[discord.ui.Button], template=r"rr:private:(?P<game>\d+)"):
    """A button of one game whose press is answered privately by `show`. Subclasses give their
    template rf"rr:{prefix}:{GAME}", prefix and label; this base is never registered."""

    prefix, label = "", ""

    def __init__(self, game: int):
        super().__init__(discord.ui.Button(label=self.label, style=discord.ButtonStyle.secondary,
                                           custom_id=f"rr:{self.prefix}:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.show(interaction)

    async def show(self, interaction: discord.Interaction) -> None:
        raise NotImplementedError


class TeamButton(_Private, template=rf"rr:team:{GAME}"):
    """Open my away team step again (a private message may have been dismissed)."""

    prefix, label = "team", "Away team"

    async def show(self, interaction: discord.Interaction) -> None:
        await team_choice.show_team(interaction, self.game)


class WhyButton(_Private, template=rf"rr:why:{GAME}"):
    """"Why?": the computer's best candidates for its last move, with estimated win rates."""

    prefix, label = "why", "Why?"

    async def show(self, interaction: discord.Interaction) -> None:
        await table_message.show_why(interaction.client, interaction, self.game)


class CommanderPick(discord.ui.DynamicItem[discord.ui.Select], template=rf"rr:commander:{GAME}"):
    """The away team step: the ready-made commander or an alternative one."""

    def __init__(self, game: int, options: list[discord.SelectOption]):
        super().__init__(discord.ui.Select(placeholder="Commander ...", options=options,
                                           custom_id=f"rr:commander:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await team_choice.change_team(interaction, self.game, commander=self.item.values[0])


class SwapPick(discord.ui.DynamicItem[discord.ui.Select], template=rf"rr:swap:{GAME}:(?P<old>[A-Za-z0-9_-]+)"):
    """The away team step: keep one mission specialist of the ready-made team or swap in another."""

    def __init__(self, game: int, old: str, options: list[discord.SelectOption]):
        super().__init__(discord.ui.Select(placeholder=f"Swap {old} ...", options=options,
                                           custom_id=f"rr:swap:{game}:{old}"))
        self.game, self.old = game, old

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["old"], item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await team_choice.change_team(interaction, self.game, swap=(self.old, self.item.values[0]))


async def choose(interaction: discord.Interaction, game: int, version: int, pick) -> None:
    """Resolve a panel choice against the legal commands of `version` and submit it."""
    bot = interaction.client
    try:
        current, commands = await bot.service.legal_commands(game, interaction.user.id)
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return
    if current != version:
        await replies.reply(interaction, "The game moved on since this panel was shown; "
                                         "press **Your move** again.")
        return
    if not commands:
        await replies.reply(interaction, "It is not your decision.")
        return
    try:
        command = pick(commands)
    except (IndexError, KeyError, TypeError):
        await replies.reply(interaction, STALE_CHOICE)
        return
    await private_panel.act(bot, interaction, game, version, command)


class ReactionPick(discord.ui.DynamicItem[discord.ui.Select], template=r"rr:react"):
    """On a panel that asks a reaction window: the presser's standing reaction preference
    (ruling P23), for every game from the next window on."""

    def __init__(self, chosen: str, row: int | None = None):
        options = [discord.SelectOption(label=f"From now on: {said}"[:100], value=value, default=value == chosen)
                   for value, said in reactions.CHOICES.items()]
        super().__init__(discord.ui.Select(options=options, row=row, custom_id="rr:react"))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(reactions.DEFAULT)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.client.service.set_reaction_preference(interaction.user.id, self.item.values[0])
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, f"Saved for all your games: {reactions.CHOICES[self.item.values[0]]}.")


ITEMS = (YourMove, WhyButton, CommandButton, CommandPick, StandingButton, ReactionPick, TakeBackAsk, TakeBackAnswer,
         CardPick, OpenGroup, PageButton, JoinButton, StartButton,
         TeamButton, CommanderPick, SwapPick)
