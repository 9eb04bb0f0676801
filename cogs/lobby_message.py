"""The lobby message of a game of two: who sits where, with Join, Start and Away team; joining
(the away team step follows) and starting a game from its lobby, whatever the lobby."""
from __future__ import annotations

import asyncio
from typing import Optional

import discord

from cogs import buttons, pings, renegades, table_message, team_choice
from cogs.replies import NO_MENTIONS, reply
from engine.awaymissions.content import load_pack
from engine.service import GameInfo, ServiceError
from engine.service.rulesets import RENEGADES


def lobby_text(info: GameInfo, invited: int = 0) -> str:
    """The lobby message: who sits where and what happens next."""
    seated = ", ".join(f"{s.name} ({s.seat})" for s in info.seats) or "nobody yet"
    lines = [f"**Away Mission #{info.id}** · lobby", f"Seated: {seated}"]
    if info.status != "lobby":
        lines.append("The game has started." if info.status == "active" else "The game is over.")
    elif invited and len(info.seats) < 2:
        lines.append(f"<@{invited}>, you are invited: press Join.")
    elif len(info.seats) < 2:
        lines.append("Anyone may press Join.")
    else:
        lines.append("Both seats are taken: press Start.")
    return "\n".join(lines)


def lobby_view(info: GameInfo, invited: int, side: str) -> Optional[discord.ui.View]:
    """Join (while a seat is free), Start and Away team, for a game still in its lobby."""
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    if len(info.seats) < 2:
        view.add_item(buttons.JoinButton(info.id, invited, side))
    view.add_item(buttons.StartButton(info.id))
    view.add_item(buttons.TeamButton(info.id))
    return view


async def join(interaction: discord.Interaction, game_id: int, side: str) -> None:
    """Seat the user on `side`, update the lobby message, and answer privately with the away
    team step (the interaction is deferred ephemeral)."""
    service = interaction.client.service
    try:
        if (await service.get(game_id)).ruleset == RENEGADES.name:
            await renegades.join(interaction, game_id, side)
            return
        config, _ = await service.seat_options(game_id, interaction.user.id)
        pack = await asyncio.to_thread(load_pack, config["pack"])
        options = team_choice.side_options(pack, side)
        info = await service.join(game_id, interaction.user.id, interaction.user.display_name, **options)
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    await interaction.message.edit(content=lobby_text(info), view=lobby_view(info, 0, side),
                                   allowed_mentions=NO_MENTIONS)
    await interaction.edit_original_response(content=team_choice.team_text(pack, options),
                                             view=team_choice.team_view(game_id, pack, options))


async def start(interaction: discord.Interaction, game_id: int) -> None:
    """Deal the game, close the lobby message and post the opening table (deferred interaction)."""
    bot = interaction.client
    try:
        seal = await pings.seal_line(bot, game_id)  # the dice seal, shown before the first roll
        update = await bot.service.start(game_id, interaction.user.id)
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    info = await bot.service.get(game_id)
    shown = await started_lobby_text(bot, info)
    await interaction.edit_original_response(content=shown + "\n" + seal, view=None,
                                             allowed_mentions=NO_MENTIONS)
    await table_message.publish(bot, update, interaction.user.id)  # the player who pressed Start is not pinged


async def started_lobby_text(bot, info: GameInfo) -> str:
    """The lobby message once the game has started, in the wording its lobby had: a table
    of three or four (or 2 vs 2) keeps its seats by side and its team lines."""
    from cogs import lobby  # cogs.lobby imports this module

    if info.ruleset == RENEGADES.name:
        return renegades.lobby_text(info, len(info.seats))
    config = (await bot.service.seat_options(info.id, 0))[0]
    if lobby.seat_count(info, config) > 2:
        return lobby.lobby_text(info, config, await lobby.seat_sides(bot, info.id, info))
    return lobby_text(info)
