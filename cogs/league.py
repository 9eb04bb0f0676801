"""/league: organised-play events in Discord, a thin adapter over LeagueService.

Organisers (the server's organiser role, or administrators) create, open, start, pair,
publish and close events, settle disputes, fix results and add late joiners; players sign
up, register a build, sign off their opponent's build with a button, report results, play
their pairing as a bot game and read the standings. Season rounds get a thread per
pairing; a clock loop reminds those threads before the deadline and applies the policy.
"""
from __future__ import annotations

import asyncio
import logging
import re
from typing import Literal, Optional

import discord
from discord import app_commands
from discord.ext import commands

from cogs import replies, table_message, team_choice
from cogs.options import Code, Event, Sheet, Typed
from cogs.clock import Clocked
from cogs.pictures import as_file, as_files
from engine.league import clock, results
from engine.league import standings as table
from engine.service import ServiceError, Update
from engine.service.league import (Actor, LeagueService, LeagueUpdate, clock_words, pairing_lines,
                                   standing_lines)
from engine.league.arena import legal_commands
from images.arena import render_arena
from images.printable import render_printable
from images.round_results import render_round
from images.standings import render_standings

log = logging.getLogger("ready_room.league")
MAX_DISPUTES = 10  # embeds per message
AUDIT_LINES = 25

_LINE = re.compile(r"^\s*(?P<resource>resource\s*:\s*)?(?P<name>.+?)\s+(?P<points>\d+)\s*$", re.IGNORECASE)


def parse_sheet(kind: str, text: str) -> dict:
    """A build sheet from text: entries "NAME POINTS" separated by ';' or new lines;
    "resource: NAME POINTS" marks the resource, of which a fleet has one at most."""
    entries, resource = [], None
    for part in filter(str.strip, re.split(r"[;\n]", text)):
        match = _LINE.match(part)
        if match is None:
            raise ServiceError(f"Cannot read '{part.strip()}': write each entry as NAME POINTS.")
        entry = {"name": match["name"], "points": int(match["points"])}
        if match["resource"] and resource is not None:
            raise ServiceError(f"A fleet takes one resource, not two: '{resource['name']}' and "
                               f"'{entry['name']}'. Keep one.")
        if match["resource"]:
            resource = entry
        else:
            entries.append(entry)
    return {"kind": kind, "entries": entries, "resource": resource}


async def round_picture(update: LeagueUpdate) -> Optional[discord.File]:
    """The results and standings of the round the update completed, as a picture (None when
    it completed none)."""
    if update.completed is None:
        return None
    event = update.event
    picture = await asyncio.to_thread(render_round, event.name, update.completed,
                                      results.round_results(event, update.completed), table.standings(event),
                                      event.profile.tiebreak_short)
    return as_file(f"event-{update.event_id}-round-{update.completed}.png", picture)


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
            name, sheet, build_hash = await desk_of(interaction.client).opponent_build(self.event, interaction.user.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        lines = [f"{e.name} ({e.kind or 'entry'}): {e.points}" for e in sheet.entries]
        if sheet.resource:
            lines.append(f"Resource {sheet.resource.name}: {sheet.resource.points}")
        text = "\n".join([f"{name}'s build, {sheet.total} points, hash {build_hash}:", *lines])
        view = discord.ui.View(timeout=None)
        view.add_item(SignOffButton(self.event, build_hash))
        await interaction.edit_original_response(content=replies.clip(text), view=view)


async def sheet_or_refusal(interaction: discord.Interaction, kind: str, text: str) -> Optional[dict]:
    """The build sheet typed in a command, or None after telling the user why it cannot be read."""
    try:
        return parse_sheet(kind, text)
    except ServiceError as refused:
        await replies.reply(interaction, refused.message)
        return None


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
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, "\n".join(update.public))


class AcceptClaim(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"rrl:accept:(?P<event>\d+):(?P<round>\d+):(?P<table>\d+):(?P<user>\d+):(?P<digest>[0-9a-f]+)"):
    """Settles a dispute with this player's claim (organisers), unless the claim changed since."""

    def __init__(self, event: int, round_number: int, table_no: int, user_id: int, digest: str, label: str = "Accept"):
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.secondary,
            custom_id=f"rrl:accept:{event}:{round_number}:{table_no}:{user_id}:{digest}"))
        self.args = (event, round_number, table_no, user_id, digest)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["event"]), int(match["round"]), int(match["table"]), int(match["user"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        event, *rest = self.args
        cog = interaction.client.get_cog("League")
        await cog.answer(interaction, cog.desk.accept_claim(event, actor_of(interaction), *rest))


class ArenaButton(discord.ui.DynamicItem[discord.ui.Button], template=r"rrl:arena:(?P<event>\d+):(?P<command>.+)"):
    """An Arena command at the presser's table (attack, assign a captain, gather, end the round)."""

    def __init__(self, event: int, command: str):
        super().__init__(discord.ui.Button(label=arena_label(command), style=discord.ButtonStyle.primary,
                                           custom_id=f"rrl:arena:{event}:{command}"[:100]))
        self.event, self.command = event, command

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["event"]), match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("League")
        await cog.arena_answer(interaction, cog.desk.arena(self.event, interaction.user.id, self.command))


def arena_label(command: str) -> str:
    """A button's words for an Arena command."""
    verb, _, rest = command.partition(" ")
    words = {"attack": "Attack", "assign": "Damage to", "send": "Beam down", "gather": "Gather with",
             "end": "End the round"}
    return f"{words.get(verb, verb)} {rest}".strip()[:80]


def arena_view(event: int, update: LeagueUpdate) -> Optional[discord.ui.View]:
    """Buttons for what the table waits for (a captain lost with its ship is told by command)."""
    battle = update.battle
    if battle is None:
        return None
    commands_now = []
    for player in battle.players:
        commands_now += [c for c in legal_commands(battle, player) if not c.startswith("lost ")]
    if not commands_now:
        return None
    view = discord.ui.View(timeout=None)
    for command in list(dict.fromkeys(commands_now))[:25]:
        view.add_item(ArenaButton(event, command))
    return view


class League(Clocked):
    """Leagues and organised-play events."""

    league = app_commands.Group(name="league", description="Leagues and organised-play events", guild_only=True)
    arena = app_commands.Group(name="arena", description="The Arena scenario's Captains' Battle at your table",
                               parent=league)

    def __init__(self, bot):
        super().__init__(bot, "ready-room-league-clock", self.tick)
        self.desk = LeagueService(bot.service.db, **({"clock": bot.clock} if bot.clock else {}))

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(VerifyButton, SignOffButton, AcceptClaim, ArenaButton)
        await super().cog_load()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(VerifyButton, SignOffButton, AcceptClaim, ArenaButton)
        await super().cog_unload()

    # ---- the clock ------------------------------------------------------------------------

    async def tick(self) -> None:
        """Remind unreported pairings in their threads before the deadline; announce missed deadlines."""
        reminders, updates = await self.desk.tick(self.bot.config.owns)
        for r in reminders:
            where = r.thread_id or r.channel_id
            if where is not None:
                await self.bot.get_partial_messageable(where).send(
                    f"Reminder: <@{r.players[0]}> <@{r.players[1]}>, round {r.round} table {r.table} is due "
                    f"<t:{int(r.deadline)}:R>. Report the result with /league report.",
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(p) for p in r.players]))
        for update in updates:
            await self._announce(update)

    async def _announce(self, update: LeagueUpdate, *elsewhere: Optional[int]) -> None:
        """Post an update's lines in the event's channel (and other places given); the
        picture of a round it completed goes with them in the event's channel."""
        picture = await round_picture(update)
        for where in dict.fromkeys((update.channel_id, *elsewhere)):
            if where is not None and update.public:
                files = {"file": picture} if picture is not None and where == update.channel_id else {}
                await self.bot.get_partial_messageable(where).send(replies.clip("\n".join(update.public)), **files)
        if picture is not None and not update.public:
            await self._post_round(update, picture)

    async def _post_round(self, update: LeagueUpdate, picture: Optional[discord.File] = None) -> None:
        """The picture of the round the update completed, in the event's channel (L48)."""
        picture = picture or await round_picture(update)
        if picture is not None and update.channel_id is not None:
            await self.bot.get_partial_messageable(update.channel_id).send(
                f"Round {update.completed} of '{update.event.name}' is complete.", file=picture)

    # ---- bot-run games --------------------------------------------------------------------

    @commands.Cog.listener()
    async def on_game_over(self, update: Update) -> None:
        """A bot game has ended: if it plays a pairing, its result goes into the league."""
        try:
            outcome = await self.desk.game_over(update.game_id, update.result or {}, update.players)
            if outcome is None:
                return
            info = await self.bot.service.get(update.game_id)
        except ServiceError:
            log.warning("game #%s ended but the league refused its result", update.game_id, exc_info=True)
            return
        await self._announce(outcome, info.thread_id)

    @league.command(name="play", description="Play your pairing as a bot game here (Away Missions events)")
    async def play(self, interaction: discord.Interaction, event: Event,
                   side: Literal["federation", "borg"] = "federation") -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            pairing = await self.desk.pairing_to_play(event, interaction.user.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        channel_id, thread_id = replies.place_of(interaction)
        if thread_id is None:
            if not isinstance(interaction.channel, discord.TextChannel):
                await replies.reply(interaction, "Use this in a server text channel or your pairing's thread.")
                return
            thread = await interaction.channel.create_thread(
                name=f"Round {pairing.round}: {pairing.names[0]} vs {pairing.names[1]}"[:100],
                type=discord.ChannelType.public_thread)
            thread_id = thread.id
        service = self.bot.service
        try:
            info = await service.create(creator=interaction.user.id, guild_id=interaction.guild_id,
                                        channel_id=channel_id, thread_id=thread_id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        me = pairing.players.index(interaction.user.id)
        seats = ((me, side), (1 - me, team_choice.other_side(side)))
        try:
            await self.desk.link_game(event, pairing.round, pairing.table, info.id)
            for who, their_side in seats:
                await service.join(info.id, pairing.players[who], pairing.names[who], **team_choice.SIDES[their_side])
            update = await service.start(info.id, interaction.user.id)
        except ServiceError as refused:
            await service.abort(info.id, interaction.user.id, force=True)
            await replies.reply(interaction, refused.message)
            return
        await table_message.publish(self.bot, update, None)
        await replies.reply(interaction, f"Game #{info.id} plays round {pairing.round} table {pairing.table}: "
                                         f"{replies.link(interaction.guild_id, thread_id)}. It reports itself when it ends.")

    # ---- commands -------------------------------------------------------------------------

    async def answer(self, interaction: discord.Interaction, call, *, public: bool = True,
                     view: Optional[discord.ui.View] = None) -> Optional[LeagueUpdate]:
        """Await the service call; post its lines (publicly unless told), or the refusal privately."""
        try:
            update = await call
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return None
        extra = {"view": view} if view is not None else {}
        picture = await round_picture(update)
        here = picture is not None and public and interaction.channel_id == update.channel_id
        await interaction.response.send_message(replies.clip("\n".join(update.public)), ephemeral=not public, **extra,
                                                **({"file": picture} if here else {}))
        if picture is not None and not here:
            await self._post_round(update, picture)
        return update

    async def arena_answer(self, interaction: discord.Interaction, call) -> None:
        """Post an Arena action in the channel with the dice board and the next buttons; a refusal privately."""
        try:
            update = await call
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        text = replies.clip("\n".join(update.public))
        if update.battle is None:  # captains named, the opponent's still to come
            await interaction.response.send_message(text)
            return
        event = update.event
        names = {p: event.players[p].name for p in update.battle.players}
        picture = await asyncio.to_thread(render_arena, update.battle, update.events, names,
                                          f"{event.name}: the Arena, table {update.table}")
        view = arena_view(update.event_id, update)
        await interaction.response.send_message(text, file=as_file("arena.png", picture),
                                                **({"view": view} if view is not None else {}))
        await self._post_round(update)

    @arena.command(name="captains", description="Name your captains and their skills: NAME SKILL, ...")
    @app_commands.describe(captains="Each captain and Captain Skill, e.g. Kirk 8, Sulu 5")
    async def arena_captains(self, interaction: discord.Interaction, event: Event, captains: Sheet) -> None:
        await self.arena_answer(interaction, self.desk.arena_captains(event, interaction.user.id, captains))

    @arena.command(name="do", description="An Arena command: gather, lost, end, send, attack or assign")
    @app_commands.describe(command="e.g. gather Kirk, lost Sulu, end, send Kor, attack, assign Kirk")
    async def arena_do(self, interaction: discord.Interaction, event: Event, command: Typed) -> None:
        await self.arena_answer(interaction, self.desk.arena(event, interaction.user.id, command))

    @league.command(name="organisers", description="Choose the role whose members run events (administrators)")
    async def organisers(self, interaction: discord.Interaction, role: discord.Role) -> None:
        try:
            await self.desk.set_organiser_role(interaction.guild_id, actor_of(interaction), role.id)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, f"Members of {role.name} now run events here.")

    @league.command(name="create", description="Create an event (organisers)")
    async def create(self, interaction: discord.Interaction, name: Code,
                     kind: Literal["one_day", "season"] = "one_day", rounds: app_commands.Range[int, 1, 20] = 3,
                     profile: Literal["op", "awaymissions"] = "op", max_build: app_commands.Range[int, 0, 1000] = 120,
                     minutes: app_commands.Range[int, 1, 600] = 60, round_days: app_commands.Range[int, 1, 60] = 7,
                     scenario: Literal["none", "arena"] = "none", top_cut: app_commands.Range[int, 0, 64] = 0,
                     prizes: app_commands.Range[int, 0, 64] = 3) -> None:
        await self.answer(interaction, self.desk.create_event(
            interaction.guild_id, actor_of(interaction), name, channel_id=interaction.channel_id, profile=profile,
            kind=kind, rounds_planned=rounds, max_build=max_build, time_limit_minutes=minutes, round_days=round_days,
            scenario="" if scenario == "none" else scenario, top_cut=top_cut, prizes=prizes))

    @league.command(name="open", description="Open sign-up (organisers)")
    async def open(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.open(event, actor_of(interaction)))

    @league.command(name="signup", description="Sign up for an event")
    async def signup(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.register(event, interaction.user.id, interaction.user.display_name))

    @league.command(name="build", description="Register your build: NAME POINTS; ...; resource: NAME POINTS")
    async def build(self, interaction: discord.Interaction, event: Event, sheet: Sheet,
                    kind: Literal["fleet", "away_team"] = "fleet") -> None:
        data = await sheet_or_refusal(interaction, kind, sheet)
        if data is not None:
            await self.answer(interaction, self.desk.submit_build(event, interaction.user.id, data), public=False)

    @league.command(name="start", description="Close sign-up and lock the builds (organisers)")
    async def start(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.start(event, actor_of(interaction)))

    @league.command(name="pair", description="Preview the next round's pairings (organisers)")
    async def pair(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.preview_round(event, actor_of(interaction)), public=False)

    @league.command(name="publish", description="Publish the previewed round (organisers)")
    async def publish(self, interaction: discord.Interaction, event: Event) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(VerifyButton(event))
        update = await self.answer(interaction, self.desk.publish_round(event, actor_of(interaction)), view=view)
        if update is not None and update.event.kind == "season" and isinstance(interaction.channel, discord.TextChannel):
            await self._open_threads(interaction.channel, update)

    async def _open_threads(self, channel: discord.TextChannel, update: LeagueUpdate) -> None:
        """A thread per pairing of a season round just published, both players called in."""
        event = update.event
        rnd = event.live_rounds()[-1]
        for game in rnd.games:
            a, b = (event.players[p] for p in game.players)
            thread = await channel.create_thread(name=f"{event.name} round {rnd.number}: {a.name} vs {b.name}"[:100],
                                                 type=discord.ChannelType.public_thread)
            await self.desk.record_thread(update.event_id, rnd.number, game.table, thread.id)
            view = discord.ui.View(timeout=None)
            view.add_item(VerifyButton(update.event_id))
            await thread.send(
                f"Round {rnd.number}, table {game.table}: <@{a.id}> vs <@{b.id}>, due <t:{rnd.deadline}:f>.\n"
                "Check each other's build, play, then both report with /league report.", view=view,
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(p)) for p in game.players]))

    @league.command(name="report", description="Report your game: the winner and the points of each side")
    @app_commands.describe(winner_points="Squad points left in the winner's fleet (mission points in Away Missions)",
                           loser_points="Squad points left in the loser's fleet (mission points in Away Missions)",
                           not_played="The game was not played (0-0)",
                           winner_bonus="Bonus Fleet Points the scenario gives the winner (Arena: 15 per surviving captain)",
                           loser_bonus="Bonus Fleet Points the scenario gives the loser")
    async def report(self, interaction: discord.Interaction, event: Event, winner: Optional[discord.Member] = None,
                     winner_points: app_commands.Range[int, 0, 1000] = 0,
                     loser_points: app_commands.Range[int, 0, 1000] = 0, not_played: bool = False,
                     winner_bonus: app_commands.Range[int, 0, 1000] = 0,
                     loser_bonus: app_commands.Range[int, 0, 1000] = 0) -> None:
        await self.answer(interaction, self.desk.report_score(
            event, interaction.user.id, winner and winner.id, winner_points, loser_points, not_played,
            winner_bonus, loser_bonus))

    @league.command(name="signoff", description="Sign off your opponent's build by the sheet they show you")
    async def signoff(self, interaction: discord.Interaction, event: Event, sheet: Sheet,
                      kind: Literal["fleet", "away_team"] = "fleet") -> None:
        data = await sheet_or_refusal(interaction, kind, sheet)
        if data is not None:
            await self.answer(interaction, self.desk.verify_build(event, interaction.user.id, data), public=False)

    @league.command(name="cancel", description="Cancel the published round nobody has reported in, to pair it again (organisers)")
    async def cancel(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.cancel_round(event, actor_of(interaction)))

    @league.command(name="repair", description="Pair the latest round again, before anyone has reported (organisers)")
    async def repair(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.repair_round(event, actor_of(interaction)), public=False)

    @league.command(name="player", description="Drop a player, or take a drop back (organisers)")
    @app_commands.describe(action="drop: no more pairings from the next one; readd: paired again from the next round")
    async def player(self, interaction: discord.Interaction, event: Event, player: discord.Member,
                     action: Literal["drop", "readd"]) -> None:
        desk_call = self.desk.drop_player if action == "drop" else self.desk.readmit
        await self.answer(interaction, desk_call(event, actor_of(interaction), player.id))

    @league.command(name="swap", description="Swap two players between tables of this round (organisers)")
    @app_commands.describe(note="Why, for the audit trail",
                           confirm="Make the swap even if it causes a rematch or a second bye")
    async def swap(self, interaction: discord.Interaction, event: Event, first: discord.Member,
                   second: discord.Member, note: Typed = "", confirm: bool = False) -> None:
        await self.answer(interaction, self.desk.swap_players(event, actor_of(interaction), first.id, second.id,
                                                              note, confirm))

    @league.command(name="disputes", description="Games whose reports differ, both claims side by side (organisers)")
    async def disputes(self, interaction: discord.Interaction, event: Event) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            _state, queue = await self.desk.disputes(event, actor_of(interaction))
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        if not queue:
            await replies.reply(interaction, "No disputed results.")
            return
        shown = queue[:MAX_DISPUTES]
        embeds, view = [], discord.ui.View(timeout=None)
        for n, dispute in enumerate(shown):
            embed = discord.Embed(title=f"Round {dispute.round}, table {dispute.table}")
            for user_id, name, words, digest in dispute.claims:
                embed.add_field(name=f"{name} reported", value=words, inline=True)
                view.add_item(AcceptClaim(event, dispute.round, dispute.table, user_id, digest,
                                          f"R{dispute.round} T{dispute.table}: {name}'s result"))
            embeds.append(embed)
        more = f" ({len(queue) - len(shown)} more once these are settled)" if len(queue) > len(shown) else ""
        await interaction.edit_original_response(
            content=f"Pick a claim, or enter the result with /league result{more}.", embeds=embeds, view=view)

    @league.command(name="result", description="Set or fix a result; the audit trail keeps it (organisers)")
    @app_commands.describe(winner_points="Squad points left in the winner's fleet (mission points in Away Missions)",
                           loser_points="Squad points left in the loser's fleet (mission points in Away Missions)",
                           not_played="The game was not played (0-0)", note="Why, for the audit trail",
                           forfeit="The winner wins by forfeit (the opponent did not show)",
                           winner_bonus="Bonus Fleet Points for the winner (Arena: 15 per surviving captain)",
                           loser_bonus="Bonus Fleet Points for the loser")
    async def result(self, interaction: discord.Interaction, event: Event, round: app_commands.Range[int, 1, 20],
                     table: app_commands.Range[int, 1, 500], winner: Optional[discord.Member] = None,
                     winner_points: app_commands.Range[int, 0, 1000] = 0,
                     loser_points: app_commands.Range[int, 0, 1000] = 0, not_played: bool = False,
                     note: Typed = "", forfeit: bool = False, winner_bonus: app_commands.Range[int, 0, 1000] = 0,
                     loser_bonus: app_commands.Range[int, 0, 1000] = 0) -> None:
        await self.answer(interaction, self.desk.resolve_score(
            event, actor_of(interaction), round, table, winner and winner.id, winner_points, loser_points,
            not_played, note, forfeit=forfeit, winner_bonus=winner_bonus, loser_bonus=loser_bonus))

    @league.command(name="audit", description="Who changed what in an event, and when (organisers)")
    async def audit(self, interaction: discord.Interaction, event: Event) -> None:
        try:
            lines = await self.desk.audit(event, actor_of(interaction))
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        await replies.reply(interaction, "\n".join(lines[-AUDIT_LINES:]) or "Nothing yet.")

    @league.command(name="latejoin", description="Add a late player with their build (organisers)")
    async def latejoin(self, interaction: discord.Interaction, event: Event, player: discord.Member, sheet: Sheet,
                       kind: Literal["fleet", "away_team"] = "fleet") -> None:
        data = await sheet_or_refusal(interaction, kind, sheet)
        if data is not None:
            await self.answer(interaction, self.desk.join_late(
                event, actor_of(interaction), player.id, player.display_name, data))

    @league.command(name="standings", description="The standings as a picture, with a CSV file")
    async def standings(self, interaction: discord.Interaction, event: Event) -> None:
        try:
            state, rated = await self.desk.ratings_of(event)
            csv = await self.desk.standings_csv(event)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        played = len(state.swiss_rounds())
        stage = f"after round {played} of {state.rounds_planned}" if played else "before round 1"
        if len(state.live_rounds()) > played:
            stage += " and the top cut"
        picture = await asyncio.to_thread(render_standings, state.name, table.standings(state),
                                          state.profile.tiebreak_short, f"Standings {stage}")
        note = ["Ratings are the server's, from bot games and event results (mu - 3 sigma; /profile)."] if rated else []
        text = "\n".join([f"Standings of '{state.name}':", *standing_lines(state, rated), *note])
        await interaction.response.send_message(replies.clip(text), files=[
            as_file(f"event-{event}.png", picture),
            as_file(f"event-{event}.csv", csv.encode())])

    @league.command(name="export", description="Standings and pairings as CSV and JSON, and a printable page of the standings")
    async def export(self, interaction: discord.Interaction, event: Event) -> None:
        try:
            state, files = await self.desk.exports(event)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        played = len(state.swiss_rounds())
        stage = "Final standings" if state.status == "closed" else f"Standings after round {played}"
        page = await asyncio.to_thread(render_printable, state.name, table.standings(state),
                                       state.profile.tiebreak_short, f"{stage} of {state.rounds_planned}")
        files[f"event-{event}-standings.png"] = page
        await interaction.response.send_message(
            f"'{state.name}': standings and pairings (CSV, JSON) and a printable page.",
            files=as_files(list(files.items())))

    @league.command(name="pairings", description="This round's pairings")
    async def pairings(self, interaction: discord.Interaction, event: Event) -> None:
        try:
            _row, state = await self.desk.get(event)
        except ServiceError as refused:
            await replies.reply(interaction, refused.message)
            return
        live = state.live_rounds()
        text = "\n".join([f"Round {live[-1].number}:", *pairing_lines(state, live[-1])]) if live else "No round yet."
        if live and clock.live(live[-1]):
            text += f"\nRound clock: {clock_words(state, live[-1], int(self.desk.now()))}"
        await replies.reply(interaction, text)

    @app_commands.command(name="roundclock", description="Pause, resume or extend this round's clock (organisers)")
    @app_commands.describe(minutes="With extend: minutes to add (1-120)")
    @app_commands.guild_only()
    async def roundclock(self, interaction: discord.Interaction, event: Event,
                         action: Literal["pause", "resume", "extend"],
                         minutes: app_commands.Range[int, 0, 120] = 0) -> None:
        await self.answer(interaction, self.desk.adjust_clock(event, actor_of(interaction), action, minutes))

    @league.command(name="drop", description="Drop out of an event (past games still count)")
    async def drop(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.drop_self(event, interaction.user.id))

    @league.command(name="close", description="Close the event and post the final standings (organisers)")
    async def close(self, interaction: discord.Interaction, event: Event) -> None:
        await self.answer(interaction, self.desk.close(event, actor_of(interaction)))


async def setup(bot) -> None:
    """Extension entry point."""
    await bot.add_cog(League(bot))
