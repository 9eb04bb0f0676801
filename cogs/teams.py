"""Team games on Discord: a private thread per team, where the team's hands are shown.

When a 2 vs 2 game is first shown on its table, each team gets a private thread under
the game's channel with its members (people only) added. One message there shows the
team's hands (teammates see each other's hands, R53) as they stand when the team's turn to
activate comes: it is edited then, only if they changed, so the thread stays one message
long and costs at most a request a team turn (ruling P28). Each teammate's panel shows
both hands as they are now, and who answered a decision put to the team is said on the
table. Hand cards never go to the game thread or to the other team's thread: the text is
built from one teammate's own view only.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Optional

import discord
from discord.ext import commands

from cogs import replies
from engine.awaymissions.content import load_pack
from engine.service import GameInfo, ServiceError, Update, is_computer

log = logging.getLogger("ready_room.teams")
TEAM_NAMES = {"team-a": "Team A", "team-b": "Team B"}


def threads_key(game_id: int) -> str:
    """The guild setting holding a team game's team threads and what their messages show."""
    return f"teams:{game_id}"


def team_members(view: dict) -> dict[str, list[str]]:
    """Team -> its seats, from any view of a team game ({} in other games)."""
    if not view.get("options", {}).get("teams"):
        return {}
    found: dict[str, list[str]] = {}
    for player in view.get("players", []):
        found.setdefault(player["team"], []).append(player["seat"])
    return found


def hands_text(game_id: int, team: str, view: dict, info: GameInfo, names: dict[str, str]) -> str:
    """The team thread's message: each teammate's hand by card name (from a teammate's view)."""
    people = {s.seat: s.name for s in info.seats}
    lines = [f"**Game #{game_id} · {TEAM_NAMES.get(team, team)}**: only your team sees this thread.",
             "Your team's hands:"]
    for player in view.get("players", []):
        if player["team"] != team:
            continue
        hand = player.get("hand")
        shown = "hidden" if hand is None else (", ".join(names.get(c, c) for c in hand) or "empty")
        lines.append(f"• {people.get(player['seat'], player['seat'])}: {shown}")
    if info.status != "active":
        lines.append("The game is over." if info.status == "over" else "The game was aborted.")
    return replies.clip("\n".join(lines))


class Teams(commands.Cog):
    """Opens and keeps the private team threads of 2 vs 2 games."""

    def __init__(self, bot):
        self.bot = bot
        self.locks: dict[int, asyncio.Lock] = {}

    @commands.Cog.listener()
    async def on_table_update(self, update: Update, actor_id: Optional[int]) -> None:
        """After every table update of a team game: open the team threads (first time),
        then show a team its hands when its turn to activate comes (P28)."""
        lock = self.locks.setdefault(update.game_id, asyncio.Lock())
        async with lock:
            try:
                await self.show(update)
            except (ServiceError, discord.HTTPException) as error:
                log.warning("team threads of game %s not updated: %s", update.game_id, error)
        if update.status != "active":
            self.locks.pop(update.game_id, None)

    async def show(self, update: Update) -> None:
        """Open the team threads if missing; edit the message of a team whose turn to activate
        came (or whose thread is new, or at the game's end) if its hands changed."""
        service = self.bot.service
        public = await service.view(update.game_id)
        members = team_members(public)
        if not members:
            return
        info = await service.get(update.game_id)
        record = await service.guild_setting(info.guild_id or 0, threads_key(info.id)) or {}
        if set(record) != set(members):
            record = await self.open_threads(info, members, record)
        config = (await service.seat_options(info.id, 0))[0]
        pack = await asyncio.to_thread(load_pack, config["pack"])
        names = {code: card.name for code, card in pack.cards.items()}
        users = {s.seat: s.user_id for s in info.seats}
        changed = False
        to_activate = {team for team, seats in members.items()
                       if any(d["kind"] == "activate" and d["player"] in seats for d in public.get("pending", []))}
        for team, seats in members.items():
            entry = record.get(team)
            if entry is None or (entry.get("text") and team not in to_activate and info.status == "active"):
                continue
            view = await service.view(info.id, users[seats[0]])
            text = hands_text(info.id, team, view, info, names)
            if text != entry.get("text"):
                channel = self.bot.get_partial_messageable(entry["thread"])
                await channel.get_partial_message(entry["message"]).edit(content=text,
                                                                          allowed_mentions=replies.NO_MENTIONS)
                entry["text"] = text
                changed = True
        if changed or info.status != "active":
            await service.set_guild_setting(info.guild_id or 0, threads_key(info.id),
                                            None if info.status != "active" else record)

    async def open_threads(self, info: GameInfo, members: dict[str, list[str]], record: dict) -> dict:
        """A private thread per team under the game's channel (for the teams of `members`
        that `record` lacks), its people added, and its (for now empty) hands message; the
        record is kept in the guild's settings after each thread, so a failure halfway
        never makes a team a second thread."""
        parent = self.bot.get_channel(info.channel_id) or await self.bot.fetch_channel(info.channel_id)
        seats = {s.seat: s for s in info.seats}
        record = dict(record)
        for team, team_seats in members.items():
            if team in record:
                continue
            thread = await parent.create_thread(name=f"Game #{info.id} · {TEAM_NAMES.get(team, team)}",
                                                type=discord.ChannelType.private_thread, invitable=False)
            for seat in team_seats:
                if not is_computer(seats[seat].user_id):
                    await thread.add_user(discord.Object(seats[seat].user_id))
            who = ", ".join(f"<@{seats[s].user_id}>" if not is_computer(seats[s].user_id) else seats[s].name
                            for s in team_seats)
            message = await thread.send(f"{TEAM_NAMES.get(team, team)}: {who}.",
                                        allowed_mentions=replies.NO_MENTIONS)
            record[team] = {"thread": thread.id, "message": message.id, "text": ""}
            await self.bot.service.set_guild_setting(info.guild_id or 0, threads_key(info.id), record)
        return record


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(Teams(bot))
