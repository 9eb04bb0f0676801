"""/league: organised-play events in Discord, a thin adapter over LeagueService.

Organisers (the server's organiser role, or administrators) create, open, start, pair,
publish and close events; players sign up, register a build, sign off their opponent's
build with a button, report results and read the standings.
"""
from __future__ import annotations

import io
import re
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import present
from engine.league.event import Claim
from engine.service import ServiceError
from engine.service.league import Actor, LeagueService, LeagueUpdate, pairing_lines, standing_lines

_LINE = re.compile(r"^\s*(?P<resource>resource\s*:\s*)?(?P<name>.+?)\s+(?P<points>\d+)\s*$", re.IGNORECASE)


def parse_sheet(kind: str, text: str) -> dict:
    """A build sheet from text: entries "NAME POINTS" separated by ';' or new lines;
    "resource: NAME POINTS" marks the resource."""
    entries, resource = [], None
    for part in filter(str.strip, re.split(r"[;\n]", text)):
        match = _LINE.match(part)
        if match is None:
            raise ServiceError(f"Cannot read '{part.strip()}': write each entry as NAME POINTS.")
        entry = {"name": match["name"], "points": int(match["points"])}
        if match["resource"]:
            resource = entry
        else:
            entries.append(entry)
    return {"kind": kind, "entries": entries, "resource": resource}


def actor_of(interaction: discord.Interaction) -> Actor:
    """The person acting, with their roles and whether they administer the server."""
    member = interaction.user
    roles = frozenset(r.id for r in getattr(member, "roles", []))
    return Actor(member.id, member.display_name, roles, interaction.permissions.administrator)


def desk_of(client) -> LeagueService:
    """The league service of the running bot."""
    return client.get_cog("League").desk


class VerifyButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rrl:verify:(?P<event>\d+)"):
    """On a published round: shows the presser's opponent's locked build to sign off."""

    def __init__(self, event: int):
        super().__init__(discord.ui.Button(label="Check opponent's build", style=discord.ButtonStyle.primary,
                                           custom_id=f"rrl:verify:{event}"))
        self.event = event

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["event"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # Deferred, then edited: an ephemeral message sent with a view would time the view out.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            _row, event = await desk_of(interaction.client).get(self.event)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        live = event.live_rounds()
        game = live[-1].game_of(str(interaction.user.id)) if live else None
        if game is None:
            await present.reply(interaction, "You have no game in this round.")
            return
        opponent = event.players[game.opponent(str(interaction.user.id))]
        sheet = opponent.build
        lines = [f"{e.name} ({e.kind or 'entry'}): {e.points}" for e in sheet.entries]
        if sheet.resource:
            lines.append(f"Resource {sheet.resource.name}: {sheet.resource.points}")
        text = "\n".join([f"{opponent.name}'s build, {sheet.total} points, hash {opponent.build_hash}:", *lines])
        view = discord.ui.View(timeout=None)
        view.add_item(SignOffButton(self.event, opponent.build_hash))
        await interaction.edit_original_response(content=present.clip(text), view=view)


class SignOffButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"rrl:signoff:(?P<event>\d+):(?P<hash>[0-9a-f]+)"):
    """Signs off the build with this hash."""

    def __init__(self, event: int, build_hash: str):
        super().__init__(discord.ui.Button(label="Sign off this build", style=discord.ButtonStyle.success,
                                           custom_id=f"rrl:signoff:{event}:{build_hash}"))
        self.event, self.hash = event, build_hash

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["event"]), match["hash"])

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            update = await desk_of(interaction.client).verify_build(self.event, interaction.user.id, self.hash)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        await present.reply(interaction, "\n".join(update.public))


class League(commands.Cog):
    """Leagues and organised-play events."""

    league = app_commands.Group(name="league", description="Leagues and organised-play events", guild_only=True)

    def __init__(self, bot):
        self.bot = bot
        self.desk = LeagueService(bot.service.db, **({"clock": bot.clock} if bot.clock else {}))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VerifyButton, SignOffButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VerifyButton, SignOffButton)

    async def _answer(self, interaction: discord.Interaction, call, *, public: bool = True,
                      view: Optional[discord.ui.View] = None, file: Optional[discord.File] = None) -> Optional[LeagueUpdate]:
        """Await the service call; post its lines (publicly unless told), or the refusal privately."""
        try:
            update = await call
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return None
        extra = {k: v for k, v in (("view", view), ("file", file)) if v is not None}
        await interaction.response.send_message(present.clip("\n".join(update.public)), ephemeral=not public, **extra)
        return update

    @league.command(name="organisers", description="Choose the role whose members run events (administrators)")
    async def organisers(self, interaction: discord.Interaction, role: discord.Role) -> None:
        try:
            await self.desk.set_organiser_role(interaction.guild_id, actor_of(interaction), role.id)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        await present.reply(interaction, f"Members of {role.name} now run events here.")

    @league.command(name="create", description="Create an event (organisers)")
    async def create(self, interaction: discord.Interaction, name: str,
                     kind: Literal["one_day", "season"] = "one_day", rounds: app_commands.Range[int, 1, 20] = 3,
                     profile: Literal["op", "awaymissions"] = "op", max_build: app_commands.Range[int, 0, 1000] = 120,
                     minutes: app_commands.Range[int, 1, 600] = 60, round_days: app_commands.Range[int, 1, 60] = 7) -> None:
        await self._answer(interaction, self.desk.create_event(
            interaction.guild_id, actor_of(interaction), name, channel_id=interaction.channel_id, profile=profile,
            kind=kind, rounds_planned=rounds, max_build=max_build, time_limit_minutes=minutes, round_days=round_days))

    @league.command(name="open", description="Open sign-up (organisers)")
    async def open(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.open(event, actor_of(interaction)))

    @league.command(name="signup", description="Sign up for an event")
    async def signup(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.register(event, interaction.user.id, interaction.user.display_name))

    @league.command(name="build", description="Register your build: NAME POINTS; ...; resource: NAME POINTS")
    async def build(self, interaction: discord.Interaction, event: int, sheet: str,
                    kind: Literal["fleet", "away_team"] = "fleet") -> None:
        try:
            data = parse_sheet(kind, sheet)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        await self._answer(interaction, self.desk.submit_build(event, interaction.user.id, data), public=False)

    @league.command(name="start", description="Close sign-up and lock the builds (organisers)")
    async def start(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.start(event, actor_of(interaction)))

    @league.command(name="pair", description="Preview the next round's pairings (organisers)")
    async def pair(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.preview_round(event, actor_of(interaction)), public=False)

    @league.command(name="publish", description="Publish the previewed round (organisers)")
    async def publish(self, interaction: discord.Interaction, event: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(VerifyButton(event))
        await self._answer(interaction, self.desk.publish_round(event, actor_of(interaction)), view=view)

    @league.command(name="report", description="Report your game: the winner and the points of each side")
    @app_commands.describe(winner_points="Squad points left in the winner's fleet (mission points in Away Missions)",
                           loser_points="Squad points left in the loser's fleet (mission points in Away Missions)",
                           not_played="The game was not played (0-0)")
    async def report(self, interaction: discord.Interaction, event: int, winner: Optional[discord.Member] = None,
                     winner_points: app_commands.Range[int, 0, 1000] = 0,
                     loser_points: app_commands.Range[int, 0, 1000] = 0, not_played: bool = False) -> None:
        try:
            claim = await self._claim(event, interaction.user.id, winner, winner_points, loser_points, not_played)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        await self._answer(interaction, self.desk.report(event, interaction.user.id, claim))

    async def _claim(self, event_id, user_id, winner, winner_points, loser_points, not_played) -> Claim:
        if not_played:
            return Claim(outcome="not_played")
        _row, event = await self.desk.get(event_id)
        live = event.live_rounds()
        game = live[-1].game_of(str(user_id)) if live else None
        if game is None or winner is None or str(winner.id) not in game.players:
            raise ServiceError("Name the winner: you or your opponent in this round.")
        won, lost = str(winner.id), game.opponent(str(winner.id))
        if event.profile.tiebreak == "fleet_points":
            return Claim(winner=won, surviving={won: winner_points, lost: loser_points})
        return Claim(winner=won, mission_points={won: winner_points, lost: loser_points})

    @league.command(name="standings", description="The standings, with a CSV file")
    async def standings(self, interaction: discord.Interaction, event: int) -> None:
        try:
            _row, state = await self.desk.get(event)
            csv = await self.desk.standings_csv(event)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        text = "\n".join([f"Standings of '{state.name}':", *standing_lines(state)])
        await interaction.response.send_message(
            present.clip(text), file=discord.File(io.BytesIO(csv.encode()), filename=f"event-{event}.csv"))

    @league.command(name="pairings", description="This round's pairings")
    async def pairings(self, interaction: discord.Interaction, event: int) -> None:
        try:
            _row, state = await self.desk.get(event)
        except ServiceError as refused:
            await present.reply(interaction, refused.message)
            return
        live = state.live_rounds()
        text = "\n".join([f"Round {live[-1].number}:", *pairing_lines(state, live[-1])]) if live else "No round yet."
        await present.reply(interaction, text)

    @league.command(name="drop", description="Drop out of an event (past games still count)")
    async def drop(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.drop_self(event, interaction.user.id))

    @league.command(name="close", description="Close the event and post the final standings (organisers)")
    async def close(self, interaction: discord.Interaction, event: int) -> None:
        await self._answer(interaction, self.desk.close(event, actor_of(interaction)))


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(League(bot))
