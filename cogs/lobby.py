"""The lobby of a table of three or four: seats by side (and team), the computer in empty seats.

`/game new mode:` "3 players", "4 players" or "2 vs 2" opens this lobby in the game's
thread. Each player joins with the side they play (Federation or Borg) and, in a team
game, the team they sit in; Start works once every seat is taken (the service refuses it
before). "Computer fills empty seats" seats the computer in every free seat. In a team
game each team then gets its private thread (cogs/teams.py).
"""
from __future__ import annotations

import asyncio
from typing import Optional

import discord

from cogs import buttons, lobby_message, replies, table_message, team_choice
from cogs.buttons import _Private
from engine.awaymissions.content import load_pack
from engine.service import GameInfo, LobbyError, NotAPlayer, ServiceError

MODES = {"2 players": {}, "3 players": {"seats": 3}, "4 players": {"seats": 4}, "2 vs 2": {"mode": "teams"}}
TEAMS = {"team-a": "Team A", "team-b": "Team B"}
SIX_BOARDS = {"standard": "six", "borg-corridor": "borg-six", "build": None}  # four-board layout -> six-board one
FILL_LEVEL = "easy"  # the computer's level in seats filled from the lobby (it moves at once)


def table_options(mode: str, layout: str) -> dict:
    """The game options for a table `mode` and a layout choice; LobbyError-free: a layout
    a bigger table cannot use (the Borg cube) is refused by `layout_problem` first."""
    options = dict(MODES[mode])
    if options:
        options["layout"] = SIX_BOARDS[layout]
    else:
        options["layout"] = None if layout == "build" else layout
    return options


def layout_problem(mode: str, layout: str) -> Optional[str]:
    """Why `layout` does not fit the table, or None."""
    if MODES[mode] and layout not in SIX_BOARDS:
        return "Games of three or four players use six mission boards: the Borg cube is for two players."
    return None


def seat_count(info: GameInfo, config: dict) -> int:
    """Seats of the table."""
    return 4 if config.get("mode") == "teams" else int(config.get("seats") or 2)


def team_of(options: dict) -> Optional[str]:
    """The team a seat's options name (team games), or None."""
    return options.get("side")


def lobby_text(info: GameInfo, config: dict, sides: dict[str, dict]) -> str:
    """The lobby message of a table of three or four: who sits where, on which team."""
    wanted = seat_count(info, config)
    teamed = config.get("mode") == "teams"
    title = "2 vs 2" if teamed else f"{wanted} players, everyone for themselves"
    lines = [f"**Away Mission #{info.id}** · lobby · {title}"]
    if teamed:
        for team, label in TEAMS.items():
            members = [f"{s.name} ({sides[s.seat].get('affiliation', '?').title()})" for s in info.seats
                       if team_of(sides[s.seat]) == team]
            lines.append(f"{label}: " + (", ".join(members) or "nobody yet") + f" ({len(members)} of 2)")
    else:
        seated = ", ".join(f"{s.name} ({s.seat}, {sides[s.seat].get('affiliation', '?').title()})"
                           for s in info.seats) or "nobody yet"
        lines.append(f"Seated: {seated} ({len(info.seats)} of {wanted})")
    if info.status != "lobby":
        lines.append("The game has started." if info.status == "active" else "The game is over.")
    elif len(info.seats) < wanted:
        lines.append("Press a Join button to take a seat; the computer may fill the empty seats.")
    else:
        lines.append("Every seat is taken: press Start.")
    return "\n".join(lines)


def lobby_view(info: GameInfo, config: dict, sides: dict[str, dict]) -> Optional[discord.ui.View]:
    """Join buttons (by team and side) while seats are free, then Start, Away team, Leave."""
    if info.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    free = len(info.seats) < seat_count(info, config)
    teamed = config.get("mode") == "teams"
    for team in (TEAMS if teamed else ["any"]):
        full = teamed and sum(team_of(o) == team for o in sides.values()) >= 2
        if free and not full:
            for side in team_choice.SIDES:
                view.add_item(SeatButton(info.id, team, side))
    if free:
        view.add_item(FillButton(info.id))
    view.add_item(buttons.StartButton(info.id))
    view.add_item(buttons.TeamButton(info.id))
    view.add_item(LeaveButton(info.id))
    return view


async def seat_sides(bot, game_id: int, info: GameInfo) -> dict[str, dict]:
    """Seat -> its options (side, team ...), for the lobby message."""
    found = {}
    for seat in info.seats:
        found[seat.seat] = (await bot.service.seat_options(game_id, seat.user_id))[1]
    return found


async def refresh(bot, message: discord.Message | discord.PartialMessage, game_id: int) -> None:
    """Redraw the lobby message from the service's record."""
    info = await bot.service.get(game_id)
    config = (await bot.service.seat_options(game_id, 0))[0]
    sides = await seat_sides(bot, game_id, info)
    await message.edit(content=lobby_text(info, config, sides), view=lobby_view(info, config, sides),
                       allowed_mentions=replies.NO_MENTIONS)


async def open_table(bot, interaction: discord.Interaction, thread: discord.Thread, info: GameInfo,
                     computer: Optional[str]) -> None:
    """Post the lobby of a new table in its thread (the creator is seated already). With
    `computer`, every other seat gets the computer at that level and the game starts."""
    if computer is not None:
        info = await fill(bot, info.id, computer)
        await interaction.edit_original_response(content=f"Game #{info.id} is in {thread.mention}.")
        update = await bot.service.start(info.id, interaction.user.id)
        seated = await lobby_message.started_lobby_text(bot, await bot.service.get(info.id))  # who sits where, by team
        await thread.send(f"You and the computer ({computer}).\n{seated}", allowed_mentions=replies.NO_MENTIONS)
        await table_message.publish(bot, update, interaction.user.id)
        return
    config = (await bot.service.seat_options(info.id, 0))[0]
    sides = await seat_sides(bot, info.id, info)
    await thread.send(lobby_text(info, config, sides), view=lobby_view(info, config, sides),
                      allowed_mentions=replies.NO_MENTIONS)


async def fill(bot, game_id: int, level: str) -> GameInfo:
    """Seat the computer in every free seat: in a team game on the team short of a player,
    on the side (Federation or Borg) the fewest seats play."""
    info = await bot.service.get(game_id)
    config = (await bot.service.seat_options(game_id, 0))[0]
    pack = await asyncio.to_thread(load_pack, config["pack"])
    while len(info.seats) < seat_count(info, config):
        sides = await seat_sides(bot, game_id, info)
        played = [o.get("affiliation") for o in sides.values()]
        side = min(team_choice.SIDES, key=played.count)
        options = team_choice.side_options(pack, side)
        if config.get("mode") == "teams":
            options["side"] = min(TEAMS, key=lambda t: sum(team_of(o) == t for o in sides.values()))
        info = await bot.service.add_computer(game_id, level, **options)
    return info


class SeatButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"rr:seat:(?P<game>\d+):(?P<team>[a-z-]+):(?P<side>[a-z]+)"):
    """Take a free seat of a table of three or four, on a side (and in a team game a team)."""

    def __init__(self, game: int, team: str, side: str):
        label = f"Join as {side.title()}" if team == "any" else f"{TEAMS.get(team, team)}: {side.title()}"
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"rr:seat:{game}:{team}:{side}"))
        self.game, self.team, self.side = game, team, side

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["team"], match["side"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot, user = interaction.client, interaction.user
        try:
            if self.side not in team_choice.SIDES or (self.team != "any" and self.team not in TEAMS):
                raise LobbyError("That seat is not offered here.")
            config, _ = await bot.service.seat_options(self.game, user.id)
            pack = await asyncio.to_thread(load_pack, config["pack"])
            options = team_choice.side_options(pack, self.side)
            if self.team != "any":
                options["side"] = self.team
            await bot.service.join(self.game, user.id, user.display_name, **options)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await refresh(bot, interaction.message, self.game)
        await interaction.edit_original_response(content=team_choice.team_text(pack, options),
                                                 view=team_choice.team_view(self.game, pack, options))


class FillButton(_Private, template=r"rr:fill:(?P<game>\d+)"):
    """A seated player seats the computer in every empty seat."""

    prefix, label = "fill", "Computer fills empty seats"

    async def show(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        try:
            info = await bot.service.get(self.game)
            if replies.seat_of(info, interaction.user.id) is None:
                raise NotAPlayer("Only a seated player can call in the computer.")
            if info.status != "lobby":
                raise LobbyError("The game has already started.")
            await fill(bot, self.game, FILL_LEVEL)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await refresh(bot, interaction.message, self.game)
        await replies.reply(interaction, f"The computer ({FILL_LEVEL}) sits in every empty seat.")


class LeaveButton(_Private, template=r"rr:unseat:(?P<game>\d+)"):
    """Give up one's seat before the start."""

    prefix, label = "unseat", "Leave"

    async def show(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.client.service.leave(self.game, interaction.user.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await refresh(interaction.client, interaction.message, self.game)
        await replies.reply(interaction, "You left the table.")


ITEMS = (SeatButton, FillButton, LeaveButton)
