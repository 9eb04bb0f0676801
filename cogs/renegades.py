"""Renegades at the table: `/game new ruleset:renegades`, its lobby and its seats.

Solo starts at once: your Renegade ship against an NPC Coalition ship. Co-op seats
two Renegade players against as many NPC Coalition ships; Coalition vs Renegades seats
a Renegade (the creator) and a Coalition player. With `computer`, the computer crew
(engine/opponent/renegades.py) takes the second seat and the game starts at once. The
game itself is played like any other: the table message, the private "Your move" panel, legal choices only. `mission`
picks one of the pack's missions (autocompleted; empty: dealt at random), `quick` plays
the quicker game, every ship starting docked on the mission planet, `boards` builds both
boards from location cards, and `world_cards` sets the timer (6-10; 5 or 6 when quick).
Solo, `coalition_crew` names the NPC Coalition ship's five crew (autocompleted pick by
pick; empty: the standard crew, N241); `draft` has the players choose the crews one pick
at a time on the panel when the game starts (solo: the Coalition's too; the computer crew
picks by rule of thumb; N219, N220, N242, N243).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import discord
from discord import app_commands

from cogs import buttons, replies, table_message
from engine.command_text import quote
from engine.errors import RuleError
from engine.renegades.contents.content import Pack
from engine.renegades.setup import crew_choice
from engine.renegades.setup.setup import TABLES, check_world_cards
from engine.service import GameInfo, ServiceError
from engine.service.rulesets import RENEGADES

if TYPE_CHECKING:
    from bot import ReadyRoom

# the mode of /game new -> (engine mode, seats)
MODES = {"solo": TABLES["solo"], "co-op": TABLES["co-op"], "coalition vs renegades": TABLES["versus"]}
DEFAULT_MODE = "coalition vs renegades"


def pack() -> Pack:
    """The Renegades content pack games are dealt from."""
    return RENEGADES.load_pack(RENEGADES.default_options["pack"])


def mission_code(typed: str) -> Optional[str]:
    """The pack's mission `typed` names (its code or name, any case), or None."""
    wanted = typed.strip().lower()
    return next((code for code, m in pack().missions.items() if wanted in (code, m.name.lower())), None)


async def complete_mission(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The pack's missions whose name or code holds what is typed."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=f"{m.name} (reward {m.reward})"[:100], value=code)
            for code, m in pack().missions.items() if typed in code or typed in m.name.lower()][:25]


async def complete_coalition_crew(interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
    """The Coalition crew typed so far, each with one more crewmember who keeps every
    station manned (nothing typed: the standard crew first)."""
    return [app_commands.Choice(name=label, value=value)
            for value, label in crew_choice.completions(pack(), "coalition", current)]


def crew_refusal(mode: str, coalition_crew: Optional[str], draft: bool) -> Optional[str]:
    """Why the crews cannot be chosen so (N241), or None."""
    try:
        crew_choice.solo_choice(pack(), game_options(mode, draft=draft), coalition_crew)
    except RuleError as problem:
        return str(problem)
    return None


def refusal(ruleset: str, mission: Optional[str] = None, quick: bool = False,
            world_cards: Optional[int] = None) -> Optional[str]:
    """Why /game new cannot open this Renegades game, or None."""
    if ruleset != RENEGADES.name:
        return "Solo, co-op and coalition vs renegades are Renegades modes: choose ruleset renegades."
    if mission is not None and mission_code(mission) is None:
        known = ", ".join(f"{m.name} ({code})" for code, m in pack().missions.items())
        return f"No mission '{quote(mission)}' in the Renegades pack. Missions: {known}."
    if world_cards is not None:
        try:
            check_world_cards(pack(), quick, world_cards)
        except RuleError as problem:
            return str(problem)
    return None


def seats_wanted(config: dict) -> int:
    """How many players the game's config seats."""
    return len(RENEGADES.seats_for(config))


def next_faction(config: dict) -> str:
    """The faction of the next player to join: the Coalition in the versus game, else a Renegade."""
    return "coalition" if config.get("mode") == "versus" else "renegade"


def lobby_text(info: GameInfo, wanted: int, invited: int = 0) -> str:
    """The lobby message of a Renegades game: who flies for which side, and what happens next."""
    seated = ", ".join(f"{s.name} ({s.seat})" for s in info.seats) or "nobody yet"
    lines = [f"**Renegades #{info.id}** · lobby", f"Seated: {seated}"]
    if info.status != "lobby":
        lines.append("The game has started." if info.status == "active" else "The game is over.")
    elif invited and len(info.seats) < wanted:
        lines.append(f"<@{invited}>, you are invited: press Join.")
    elif len(info.seats) < wanted:
        lines.append(f"{wanted - len(info.seats)} seat(s) free: anyone may press Join.")
    else:
        lines.append("Every seat is taken: press Start.")
    return "\n".join(lines)


def lobby_view(info: GameInfo, wanted: int, invited: int, side: str) -> Optional[discord.ui.View]:
    """Join (while a seat is free) and Start, for a game still in its lobby."""
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    if len(info.seats) < wanted:
        view.add_item(buttons.JoinButton(info.id, invited, side))
    view.add_item(buttons.StartButton(info.id))
    return view


def crew_text(faction: str, draft: bool = False) -> str:
    """The private answer on joining: the side flown; ships and crews are dealt at the start
    (with the draft, picked one at a time then, N242)."""
    chosen = ("picked one at a time on your panel when the game starts (the draft)" if draft
              else "dealt when the game starts")
    return (f"You fly a **{faction.title()}** ship. The ship and its five crew, one at each station, are "
            f"{chosen}; crew may change stations at the start of each of your ship's turns.")


def game_options(mode: str, mission: Optional[str] = None, quick: bool = False, boards: str = "fixed",
                 world_cards: Optional[int] = None, draft: bool = False) -> dict:
    """The service options of a new Renegades game (already checked by refusal)."""
    engine_mode, seats = MODES.get(mode, MODES[DEFAULT_MODE])
    options = {"mode": engine_mode, "seats": seats}
    if draft:
        options["draft"] = True
    if mission is not None:
        options["mission"] = mission_code(mission)
    if quick:
        options["quick"] = True
    if boards != "fixed":
        options["boards"] = boards
    if world_cards is not None:
        options["world_cards"] = world_cards
    return options


async def new(bot: "ReadyRoom", interaction: discord.Interaction, channel: discord.TextChannel, mode: str,
              opponent: Optional[discord.Member], remind_after: Optional[float], options: dict,
              computer: Optional[str] = None, coalition_crew: Optional[str] = None) -> None:
    """/game new ruleset:renegades: a thread, the lobby (or, solo or against the computer
    crew, the first table at once); `options` from game_options, `coalition_crew` (solo,
    checked by crew_refusal) the NPC Coalition ship's crew as typed."""
    seats = options["seats"]
    if seats == 1 and (opponent is not None or computer is not None):
        await replies.reply(interaction, "Solo is you against the NPC Coalition: leave the opponent and the "
                            "computer empty, or choose co-op or coalition vs renegades to fly beside or against "
                            "another crew.")
        return
    npc_crew = crew_choice.solo_choice(pack(), options, coalition_crew)
    await interaction.response.defer(ephemeral=True, thinking=True)
    thread = await channel.create_thread(name=f"Renegades: {interaction.user.display_name}",
                                         type=discord.ChannelType.public_thread)
    try:
        info = await bot.service.create(
            creator=interaction.user.id, guild_id=interaction.guild_id, channel_id=channel.id, thread_id=thread.id,
            ruleset=RENEGADES.name, options=options, remind_after=remind_after)
        info = await bot.service.join(info.id, interaction.user.id, interaction.user.display_name,
                                      faction="renegade", **({"npc_crew": npc_crew} if npc_crew else {}))
        if computer is not None:  # the computer crew flies the other seat (issue 16)
            info = await bot.service.add_computer(info.id, computer, faction=next_faction(options))
    except ServiceError as refused:
        await interaction.edit_original_response(content=refused.message)
        return
    if len(info.seats) == seats:
        await thread.send(lobby_text(info, seats), allowed_mentions=replies.NO_MENTIONS)
        against = f", against the computer crew ({computer})" if computer else ""
        crew = crew_choice.solo_note(pack(), options, npc_crew, "next time choose it with coalition_crew, or draft",
                                     "pick one crewmember at a time on the panel")
        await interaction.edit_original_response(content=f"Renegades #{info.id} ({mode}{against}) is in "
                                                 f"{thread.mention}. {crew}".rstrip())
        try:
            update = await bot.service.start(info.id, interaction.user.id)
        except ServiceError as refused:
            await thread.send(refused.message, allowed_mentions=replies.NO_MENTIONS)
            return
        await table_message.publish(bot, update, interaction.user.id)
        return
    config, _ = await bot.service.seat_options(info.id, interaction.user.id)
    invited = opponent.id if opponent else 0
    await thread.send(lobby_text(info, seats, invited), view=lobby_view(info, seats, invited, next_faction(config)),
                      allowed_mentions=discord.AllowedMentions(users=[opponent] if opponent else False))
    await interaction.edit_original_response(
        content=f"Renegades #{info.id} ({mode}) is open in {thread.mention}.\n"
                + crew_text("renegade", bool(options.get("draft"))))


async def join(interaction: discord.Interaction, game_id: int, side: str) -> None:
    """Seat the user on `side`, update the lobby message, answer privately (deferred)."""
    service = interaction.client.service
    try:
        info = await service.join(game_id, interaction.user.id, interaction.user.display_name, faction=side)
        config, _ = await service.seat_options(game_id, interaction.user.id)
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return
    wanted = seats_wanted(config)
    await interaction.message.edit(content=lobby_text(info, wanted), view=lobby_view(info, wanted, 0, side),
                                   allowed_mentions=replies.NO_MENTIONS)
    await interaction.edit_original_response(content=crew_text(side, bool(config.get("draft"))))
