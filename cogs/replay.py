"""/game replay: a game watched again privately, step by step, with its board picture and
that step's log line; and, at the end of a game, the players' agreement to show its hidden
cards in replays.

The reveal button goes on the message that ends a game, with its dice seed (cogs/players.py).
The browser is an ephemeral message per viewer. Its buttons carry the game and the step
they lead to (`rr:replay:<game>:<kind>:<step>`; the selects of a round and of an activation,
`rr:replay:<game>:round|activation`, give the step as their value), so
they work after a restart; every press rebuilds that step from the log (the replay desk,
engine/service/replays.py). Ruleset-blind: rounds and activations come from the ruleset.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

import discord
from discord.ext import commands

from cogs import replies
from cogs.pictures import as_files, within
from engine.service import GameInfo, ServiceError, is_computer
from engine.service.replays import ReplayDesk, Shown
from images import pictures

log = logging.getLogger("ready_room.replay")
GAME = r"(?P<game>\d{1,16})"
CHOICES = 25  # Discord's options in one select
LATEST = 1 << 30  # a step past any game's end: the desk shows the latest step instead
MOVES = {  # button kind -> label; the step each leads to comes from the marks of the step shown
    "deal": "⏮ Deal", "back": "◀ Back", "next": "Next ▶", "latest": "Latest ⏭",
    "aback": "◀ Activation", "anext": "Activation ▶", "rback": "◀ Round", "rnext": "Round ▶"}
JUMPS = {"round": "Jump to a round ...", "activation": "Jump to an activation of this round ..."}


def round_name(number: int) -> str:
    """"Set-up" for round 0 (before the first round), else "Round N"."""
    return "Set-up" if number == 0 else f"Round {number}"


def targets(shown: Shown) -> dict[str, Optional[int]]:
    """The step each button leads to from the step shown (None: nowhere, the button is off)."""
    now, marks = shown.step.number, shown.marks
    begun = sorted(marks.rounds.values())
    return {"deal": 0 if now > 0 else None, "back": now - 1 if now > 0 else None,
            "next": now + 1 if now < marks.last else None, "latest": marks.last if now < marks.last else None,
            "aback": marks.previous_activation(now), "anext": marks.next_activation(now),
            "rback": next((s for s in reversed(begun) if s < now), None),
            "rnext": next((s for s in begun if s > now), None)}


def caption(shown: Shown) -> str:
    """The step in words: where it is in the game, what happened, what the players alone saw."""
    step, marks = shown.step, shown.marks
    where = [f"**Game #{shown.game_id} replay** · step {step.number} of {marks.last}", round_name(step.round)]
    if marks.activation_number(step.number):
        where.append(f"activation {marks.activation_number(step.number)}")
    if shown.status == "active":
        where.append("running: shown up to now, hidden cards hidden")
    lines = [" · ".join(where)]
    lines += [f"• {line}" for line in shown.lines] or (["The deal."] if step.number == 0 else ["(nothing shown)"])
    if shown.hidden:
        lines.append("**Hidden cards** (every player agreed to show them):")
        lines += [f"{name}: " + "; ".join(said) for name, said in shown.hidden.items()]
    return replies.clip("\n".join(lines))


def controls(shown: Shown) -> discord.ui.View:
    """Deal, Back, Next, Latest; the activation and round before and after; a round to jump
    to, and an activation of the round shown."""
    view = discord.ui.View(timeout=None)
    for n, (kind, target) in enumerate(targets(shown).items()):
        view.add_item(ReplayMove(shown.game_id, kind, target or 0, disabled=target is None, row=n // 4))
    rounds = sorted(shown.marks.rounds.items())
    if len(rounds) > 1:
        here = next((i for i, (number, _) in enumerate(rounds) if number == shown.step.round), 0)
        options = [discord.SelectOption(label=round_name(number), value=str(begins), default=number == shown.step.round)
                   for number, begins in rounds[around(len(rounds), here)]]
        view.add_item(ReplayJump(shown.game_id, "round", options))
    if shown.activations:
        first = shown.marks.activation_number(shown.activations[0][0])
        here = sum(1 for begins, _ in shown.activations if begins <= shown.step.number) - 1
        options = [discord.SelectOption(label=f"{first + i}. {line}"[:100], value=str(begins), default=i == here)
                   for i, (begins, line) in enumerate(shown.activations)][around(len(shown.activations), max(here, 0))]
        view.add_item(ReplayJump(shown.game_id, "activation", options))
    return view


def around(count: int, here: int) -> slice:
    """The options of a select of `count` that show: CHOICES of them, `here` in the middle
    when it can be."""
    first = min(max(here - CHOICES // 2, 0), max(count - CHOICES, 0))
    return slice(first, first + CHOICES)


async def show(interaction: discord.Interaction, game_id: int, number: Optional[int]) -> None:
    """Show step `number` of the game in the interaction's private message (None: where a
    replay opens, the deal of a game that ended and the latest step of a running one)."""
    desk: ReplayDesk = interaction.client.get_cog("Replay").desk
    try:
        shown = await desk.step(game_id, interaction.user.id, interaction.guild_id, number)
    except ServiceError as refused:
        await interaction.edit_original_response(content=refused.message, attachments=[], view=None)
        return
    step = shown.step
    drawn = await asyncio.to_thread(pictures.draw, shown.ruleset, step.view, step.events, ["board"])
    await interaction.edit_original_response(content=caption(shown), view=controls(shown),
                                             attachments=as_files(within(drawn, interaction.filesize_limit)))


class ReplayMove(discord.ui.DynamicItem[discord.ui.Button],
                 template=rf"rr:replay:{GAME}:(?P<kind>[a-z]+):(?P<step>\d{{1,9}})"):
    """A step of the replay browser to go to (Latest: the latest step when pressed)."""

    def __init__(self, game: int, kind: str, step: int, disabled: bool = False, row: Optional[int] = None):
        super().__init__(discord.ui.Button(label=MOVES.get(kind, kind), style=discord.ButtonStyle.secondary,
                                           disabled=disabled, row=row, custom_id=f"rr:replay:{game}:{kind}:{step}"))
        self.game, self.kind, self.step = game, kind, step

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["kind"], int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await show(interaction, self.game, LATEST if self.kind == "latest" else self.step)


class ReplayJump(discord.ui.DynamicItem[discord.ui.Select],
                 template=rf"rr:replay:{GAME}:(?P<what>round|activation)"):
    """A round of the replay to jump to, or an activation of the round shown (each option's
    value is the step that began it)."""

    def __init__(self, game: int, what: str, options: list[discord.SelectOption]):
        super().__init__(discord.ui.Select(placeholder=JUMPS[what], options=options, row=2 if what == "round" else 3,
                                           custom_id=f"rr:replay:{game}:{what}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["what"], item.options)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        if not (value.isascii() and value.isdigit() and len(value) <= 9):
            await replies.reply(interaction, "That step is not on this replay; open it again with /game replay.")
            return
        await interaction.response.defer()
        await show(interaction, self.game, int(value))


class RevealCards(discord.ui.DynamicItem[discord.ui.Button], template=rf"rr:reveal:{GAME}"):
    """At the end of a game: a player agrees that replays show its hidden cards (P41)."""

    def __init__(self, game: int):
        super().__init__(discord.ui.Button(label="Show hidden cards in replays", style=discord.ButtonStyle.secondary,
                                           custom_id=f"rr:reveal:{game}"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            agreement = await interaction.client.get_cog("Replay").desk.agree_to_reveal(self.game, interaction.user.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        if not agreement.complete:
            await replies.reply(interaction, f"Agreed so far: {', '.join(agreement.agreed)}. Hidden cards stay "
                                             f"hidden until every player has; waiting for {', '.join(agreement.waiting)}.")
            return
        said = f"Every player agreed: replays of game #{self.game} show its hidden cards."
        if said not in interaction.message.content:
            try:
                await interaction.message.edit(content=replies.clip(f"{interaction.message.content}\n{said}"),
                                               allowed_mentions=replies.NO_MENTIONS)
            except discord.HTTPException as error:
                log.info("end message of game %s not updated: %s", self.game, error)
        await replies.reply(interaction, said)


def revealable(info: GameInfo) -> bool:
    """Whether the game's players are asked to reveal its hidden cards (P41): it ended (not
    aborted) with a person at it."""
    return info.status == "over" and not all(is_computer(s.user_id) for s in info.seats)


def offer_lines(info: GameInfo) -> list[str]:
    """The lines of a game's end message (cogs/players.py) about watching it again, and about
    the reveal button when a person sat at it."""
    lines = [f"Watch it again step by step: `/game replay game:{info.id}`."]
    if revealable(info):
        lines.append("Its hidden cards stay hidden there unless every player presses **Show hidden cards in replays**.")
    return lines


class Replay(commands.Cog):
    """Replays: the desk the browser's buttons and the reveal button reach."""

    def __init__(self, bot):
        self.bot = bot
        self.desk = ReplayDesk(bot.service)

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReplayMove, ReplayJump, RevealCards)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReplayMove, ReplayJump, RevealCards)


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Replay(bot))
