"""The async campaign desk: Renegades campaigns over the game service and one database.

A campaign is changed under its own lock, on a copy; an accepted command is committed
(state and log entry in one transaction) before the call returns, a refused one writes
nothing. Each mission is an ordinary game of the game service, played in the campaign's
place (its thread), marked with the campaign; when that game is over the campaign takes
what carries over from its final state. Every step can be repeated after a crash: the
next call finds the mission game already made, or the mission already recorded.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Callable, Optional

from db import StaleWrite
from db.campaign_store import CampaignEntry, CampaignRow, CampaignSeat, CampaignStore
from engine.errors import RuleError
from engine.renegades.campaign import campaign as rules
from engine.renegades.campaign import campaign_text, energy
from engine.renegades.contents import state as game_state
from engine.renegades.contents.content import load_pack
from engine.service.errors import IllegalCommand, NotAPlayer, StaleVersion, UnknownGame
from engine.service.service import GameService, Update
from images.roster import render_roster

FINISH = "finish"
SAVE_ATTEMPTS = 3  # loads and saves of one step while other processes keep storing the campaign (P54)


@dataclass(frozen=True)
class CampaignUpdate:
    """What a campaign action changed: public lines for the campaign thread, private lines
    per seat (shore leave is done alone), and the mission game when one was started."""

    campaign_id: int
    version: int
    phase: str
    public: list[str]
    private: dict[str, list[str]]
    players: dict[str, int]
    thread_id: Optional[int] = None
    channel_id: Optional[int] = None
    game_id: Optional[int] = None
    awaited: list[str] = field(default_factory=list)
    mission_start: Optional[Update] = None  # the mission game's first update, when this call started it


def _split(events: list[dict], names: dict[str, str]) -> tuple[list[str], dict[str, list[str]]]:
    public: list[str] = []
    private: dict[str, list[str]] = {}
    for event in events:
        text = campaign_text.line(event, names)
        if event.get("private"):
            private.setdefault(event["seat"], []).append(text)
        else:
            public.append(text)
    return public, private


class CampaignService:
    """Every campaign of the game service's database."""

    def __init__(self, games: GameService, *, clock: Callable[[], float] = time.time):
        self.games = games
        self.store = CampaignStore(games.db)
        self._clock = clock
        self._locks: dict[int, asyncio.Lock] = {}

    # ---- loading ----------------------------------------------------------------------

    async def get(self, campaign_id: int) -> tuple[CampaignRow, rules.Campaign]:
        """The stored row and the campaign."""
        row = await self.store.get(campaign_id)
        if row is None:
            raise UnknownGame(f"There is no campaign #{campaign_id}.")
        return row, rules.from_json(row.state)

    async def in_place(self, channel_id: int, thread_id: Optional[int] = None) -> CampaignRow:
        """The active campaign of this channel or thread."""
        row = await self.store.live_in(channel_id, thread_id)
        if row is None:
            raise UnknownGame("There is no campaign under way here.")
        return row

    @contextlib.asynccontextmanager
    async def _locked(self, campaign_id: int) -> AsyncIterator[None]:
        async with self._locks.setdefault(campaign_id, asyncio.Lock()):
            yield

    async def _seat_of(self, campaign_id: int, user_id: int) -> str:
        for seat in await self.store.seats(campaign_id):
            if seat.user_id == user_id:
                return seat.seat
        raise NotAPlayer("You are not in this campaign.")

    # ---- creating ---------------------------------------------------------------------

    async def create(self, *, players: list[tuple[int, str, dict]], title: str, missions: int = 3,
                     mode: str = "versus", tier: int = 1, world_cards: int = 6, quick: bool = False,
                     boards: str = "fixed", creator: Optional[int] = None,
                     guild_id: Optional[int] = None, channel_id: Optional[int] = None,
                     thread_id: Optional[int] = None, seed: Optional[int] = None) -> CampaignUpdate:
        """A new campaign for `players` (user id, name, options: faction, ship, crew) in seat order;
        `quick`: every mission is the quicker game, ships starting docked on the mission planet;
        `boards` "built": every mission's boards built from location cards."""
        if len({user for user, _, _ in players}) != len(players):
            raise IllegalCommand("A player takes one seat in a campaign.")
        seats = [CampaignSeat(f"p{i + 1}", user, name) for i, (user, name, _) in enumerate(players)]
        config = {"pack": "content/renegades", "title": title, "missions": missions, "mode": mode, "tier": tier,
                  "world_cards": world_cards, **({"quick": True} if quick else {}),
                  **({"boards": boards} if boards != "fixed" else {}),
                  "players": [{"seat": s.seat, "name": s.name, **options} for s, (_, _, options) in zip(seats, players)]}
        seed = secrets.randbits(62) if seed is None else seed
        try:
            campaign = rules.new_campaign(config, seed)
        except (RuleError, KeyError, ValueError, TypeError) as error:
            raise IllegalCommand(f"The campaign cannot start: {error}") from error
        campaign_id = await self.store.create(
            config=json.dumps(config), seed=seed, state=rules.to_json(campaign).decode(), seats=seats,
            at=self._clock(), guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, created_by=creator)
        title_name = load_pack(campaign.pack).campaigns[title].name
        return CampaignUpdate(campaign_id, 0, campaign.phase,
                              [f"Campaign #{campaign_id}: {title_name}, {missions} missions"
                               f"{' (the quicker game)' if quick else ''}."], {},
                              {s.seat: s.user_id for s in seats}, thread_id, channel_id)

    # ---- commands ---------------------------------------------------------------------

    async def command(self, campaign_id: int, user_id: int, command: str) -> CampaignUpdate:
        """A player's campaign command (a shore leave step, or abandon)."""
        seat = await self._seat_of(campaign_id, user_id)
        try:
            verb = rules.parse(command)[0]
        except RuleError as error:
            raise IllegalCommand(str(error)) from error
        if verb in ("launch", FINISH):
            raise IllegalCommand("Missions start with /campaign continue and end when their game is over.")
        if verb == "abandon":
            return await self.abandon(campaign_id, user_id)
        async with self._locked(campaign_id):
            return await self._apply(campaign_id, seat, user_id, command)

    async def _apply(self, campaign_id: int, seat: Optional[str], user_id: Optional[int], command: str,
                     game_id: Optional[int] = None, outcome: Optional[dict] = None) -> CampaignUpdate:
        """Apply the step to the stored campaign and store it. If another process stored the
        campaign meanwhile, the step is applied again to its version (its checks with it);
        after SAVE_ATTEMPTS such conflicts it is refused."""
        for _attempt in range(SAVE_ATTEMPTS):
            row, campaign = await self.get(campaign_id)
            try:
                new, events = rules.apply(campaign, seat or campaign.seats[0], command, outcome)
            except RuleError as error:
                raise IllegalCommand(str(error)) from error
            status = {"over": "over", "abandoned": "abandoned"}.get(new.phase, "active")
            now = self._clock()
            try:
                await self.store.save(campaign_id, row.version, status=status, state=rules.to_json(new).decode(),
                                      entry=CampaignEntry(new.version, seat, user_id, rules.canonical(command),
                                                          game_id, json.dumps(events), now))
            except StaleWrite:
                continue
            return await self._update(row, new, events, game_id)
        raise StaleVersion("The campaign kept changing while this was being stored (another process is "
                           "writing it); nothing was changed. Try again in a moment.")

    async def _update(self, row: CampaignRow, campaign: rules.Campaign, events: list[dict],
                      game_id: Optional[int] = None) -> CampaignUpdate:
        seats = await self.store.seats(row.id)
        names = campaign_text.names_of(load_pack(campaign.pack), rules.view_for(campaign, None))
        public, private = _split(events, names)
        return CampaignUpdate(row.id, campaign.version, campaign.phase, public, private,
                              {s.seat: s.user_id for s in seats}, row.thread_id, row.channel_id, game_id,
                              rules.awaited(campaign))

    # ---- missions ---------------------------------------------------------------------

    async def continue_(self, campaign_id: int, user_id: int) -> CampaignUpdate:
        """Move the campaign on: record a finished mission, or launch the next mission and
        start its game; otherwise say what it waits for."""
        await self._seat_of(campaign_id, user_id)
        async with self._locked(campaign_id):
            settled = await self._settle(campaign_id)
            row, campaign = await self.get(campaign_id)
            if campaign.phase == "briefing":
                update = await self._apply(campaign_id, None, user_id, "launch")
                row, campaign = await self.get(campaign_id)
                game_id, started = await self._mission_game(row, campaign)
                return dataclasses.replace(update, game_id=game_id, mission_start=started)
            if campaign.phase == "mission":
                game_id, started = await self._mission_game(row, campaign)
                return dataclasses.replace(await self._update(row, campaign, [], game_id), mission_start=started)
            if settled is not None:
                return settled
            update = await self._update(row, campaign, [])
            return dataclasses.replace(update, public=[self._waiting(campaign)])

    @staticmethod
    def _waiting(campaign: rules.Campaign) -> str:
        if campaign.phase == "shore_leave":
            names = {c.seat: c.name for c in campaign.captains}
            return "Shore leave: waiting for " + ", ".join(names[s] for s in rules.awaited(campaign)) + "."
        return "The campaign is over."

    async def settle(self, campaign_id: int) -> Optional[CampaignUpdate]:
        """Record the mission if its game is over (None when there is nothing to record)."""
        async with self._locked(campaign_id):
            return await self._settle(campaign_id)

    async def settle_game(self, game_id: int) -> Optional[CampaignUpdate]:
        """The campaign update after the game `game_id` ended, if it is a campaign's mission."""
        campaign_id = await self.store.campaign_of(game_id)
        return None if campaign_id is None else await self.settle(campaign_id)

    async def _settle(self, campaign_id: int) -> Optional[CampaignUpdate]:
        row, campaign = await self.get(campaign_id)
        if campaign.phase != "mission":
            return None
        game_id = await self._current_game(row)
        if game_id is None:
            return None
        game = await self.games.db.game(game_id)
        if game.status != "over":
            return None
        outcome = rules.outcome_of(game_state.from_json(game.state))
        return await self._apply(campaign_id, None, None, FINISH, game_id, outcome)

    async def _current_game(self, row: CampaignRow) -> Optional[int]:
        """The live or finished game of the mission under way: the newest game of the
        campaign made after the last recorded one, not aborted."""
        recorded = [e.game_id for e in await self.store.log(row.id) if e.game_id is not None]
        after = max(recorded, default=0)
        for game_id in reversed(await self.store.games(row.id)):
            if game_id > after and (await self.games.db.game(game_id)).status != "aborted":
                return game_id
        return None

    async def _mission_game(self, row: CampaignRow, campaign: rules.Campaign) -> tuple[int, Optional[Update]]:
        """The mission's game, made, filled and started if it is not yet (each step repeatable);
        with its first update when this call started it."""
        game_id = await self._current_game(row)
        if game_id is None:
            game_id = await self._adopt_or_create(row, campaign)
        game = await self.games.db.game(game_id)
        if game.status == "lobby":
            seats = await self.store.seats(row.id)
            taken = {s.user_id for s in await self.games.db.seats(game_id)}
            players = {p["seat"]: p for p in rules.mission_config(campaign)["players"]}
            for seat in seats:
                if seat.user_id not in taken:
                    options = {k: v for k, v in players[seat.seat].items() if k not in ("seat", "name")}
                    await self.games.join(game_id, seat.user_id, seat.name, **options)
            return game_id, await self.games.start(game_id, seats[0].user_id)
        return game_id, None

    async def _adopt_or_create(self, row: CampaignRow, campaign: rules.Campaign) -> int:
        """A lobby game this campaign made just before a crash is adopted; otherwise a new one."""
        live = await self.games.db.live_game_in(row.channel_id, row.thread_id) if row.channel_id else None
        if live is not None and live.ruleset == "renegades" and live.seed == campaign.mission_seed:
            game_id = live.id
        else:
            config = rules.mission_config(campaign)
            options = {k: v for k, v in config.items() if k != "players"}
            if campaign.mode == "coop":
                options["seats"] = len(campaign.captains)
            info = await self.games.create(creator=row.created_by, guild_id=row.guild_id, channel_id=row.channel_id,
                                           thread_id=row.thread_id, ruleset="renegades", options=options,
                                           seed=campaign.mission_seed)
            game_id = info.id
        await self.store.link_game(game_id, row.id)
        return game_id

    async def abandon(self, campaign_id: int, user_id: int) -> CampaignUpdate:
        """End the campaign without an ending (N96); a mission game under way is aborted."""
        seat = await self._seat_of(campaign_id, user_id)
        async with self._locked(campaign_id):
            row, _ = await self.get(campaign_id)
            game_id = await self._current_game(row)
            update = await self._apply(campaign_id, seat, user_id, "abandon")
            if game_id is not None and (await self.games.db.game(game_id)).status in ("lobby", "active"):
                await self.games.abort(game_id, user_id)
            return update

    # ---- reading ----------------------------------------------------------------------

    async def _seen_by(self, campaign_id: int, user_id: Optional[int]) -> tuple[Any, dict, dict[str, str]]:
        """(pack, view, names) of the campaign as `user_id` may see it (offers only their own)."""
        _, campaign = await self.get(campaign_id)
        seat = None
        if user_id is not None:
            seat = next((s.seat for s in await self.store.seats(campaign_id) if s.user_id == user_id), None)
        pack = load_pack(campaign.pack)
        view = rules.view_for(campaign, seat)
        return pack, view, campaign_text.names_of(pack, view)

    async def roster(self, campaign_id: int, user_id: Optional[int] = None) -> list[str]:
        """The campaign at a glance in words, as `user_id` may see it."""
        pack, view, names = await self._seen_by(campaign_id, user_id)
        return campaign_text.roster_lines(view, pack, names)

    async def roster_picture(self, campaign_id: int) -> bytes:
        """The roster as a PNG (public: no offers), drawn off the event loop."""
        _, view, names = await self._seen_by(campaign_id, None)
        return await asyncio.to_thread(render_roster, view, names)

    async def shore_choices(self, campaign_id: int, user_id: int) -> list[tuple[str, str]]:
        """(command, label) of the shore leave steps open to the user now, for their panel:
        buying and training from their offers, selling, recruiting, prisoners, and done;
        each command once (two copies of a card on offer are one step, its label says how
        many). Choosing the five who fly is typed: 'crew A B C D E'."""
        seat = await self._seat_of(campaign_id, user_id)
        _, campaign = await self.get(campaign_id)
        cap = campaign.captain(seat)
        if campaign.phase != "shore_leave" or cap.ready:
            return []
        pack = load_pack(campaign.pack)
        choices = [(f"buy {g}", f"Buy {pack.gear[g].name} ({pack.gear[g].cost} digits"
                                + (f", {cap.gear_offer.count(g)} on offer)" if cap.gear_offer.count(g) > 1 else ")"))
                   for g in dict.fromkeys(cap.gear_offer)]
        for code in dict.fromkeys(cap.upgrade_offer):
            upgrade = pack.upgrades[code]
            cost = f"({upgrade.cost} digits, {upgrade.xp} XP)"
            if upgrade.target == "ship":
                choices.append((f"train {code}", f"{upgrade.name} for the ship {cost}"))
                continue
            for crew in cap.crew.values():
                card = pack.crew[crew.code]
                if (not upgrade.keyword or upgrade.keyword in (*card.keywords, *card.stations)) \
                        and code not in crew.upgrades:
                    choices.append((f"train {code} {crew.code}", f"{upgrade.name} for {crew.name} {cost}"))
        for code in dict.fromkeys(cap.armory):
            if code in pack.gear and energy.usable(cap, code):
                choices.append((f"sell {code}", f"Sell {pack.gear[code].name} ({rules.sale_price(pack.gear[code].cost)})"))
            tokens = cap.energy.get(code)
            if tokens and tokens[-1] < pack.gear[code].energy:  # N176
                missing = pack.gear[code].energy - tokens[-1]
                choices.append((f"recharge {code}", f"Recharge {pack.gear[code].name} "
                                                    f"({missing * pack.shore_leave.energy} digits)"))
        taken = {c for x in campaign.captains for c in (*x.crew, *x.brig)}
        choices += [(f"recruit {code}", f"Recruit {c.name} ({pack.shore_leave.recruit} digits)")
                    for code, c in pack.crew.items() if c.faction == cap.faction and code not in taken]
        for code, prisoner in cap.brig.items():
            if code not in cap.tried:
                choices.append((f"turn {code}", f"Try to turn {prisoner.name}"))
            choices.append((f"ransom {code}", f"Ransom {prisoner.name} ({pack.shore_leave.ransom} digits)"))
        return choices + [("done", "Done: back aboard")]
