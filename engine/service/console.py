"""Local play in a terminal: the same commands, service and database as on Discord.

`python bot.py --local` runs `play_local`: you (the Federation) against the computer
(engine.opponent, at --level easy, normal or hard; --explain prints its best candidates and
their estimated win rates), or two people taking turns with --hotseat. `--commander` and
`--swap OLD=NEW` change your away team, checked by the engine before the game is made.
In Renegades `--quick`, `--boards built` and `--world-cards N` set up the game (N57, N124);
solo, `--coalition-crew` names the NPC Coalition ship's five crew (N241) and `--draft` has
the crews picked one at a time at the prompt (the computer crew picks its own, N219, N220,
N242, N243); all checked before the game is made.
After every action the board (and the dice, when rolled, re-rolled or kept: the whole roll, as
on Discord; in Renegades the crews and ships too) are written as PNG files to a folder.
"""
from __future__ import annotations

import asyncio
import os
import random
from typing import Awaitable, Callable, Optional, Sequence

from engine.awaymissions.content import load_pack
from engine.awaymissions.setup import away_team
from engine.errors import RuleError
from engine.glossary import RULESET_NAMES, load_glossary, plain_text
from engine.glossary.cards import CardInfo, answer, card_index, card_names
from engine.service import GameService, ServiceError, Update, recaps
from engine.service.audit import Verdict
from engine.service.players import PlayerDesk
from engine.service.rolls import roll_events
from engine.renegades.setup import crew_choice
from engine.renegades.briefing import holdings, mission_briefing
from engine.renegades.setup.setup import TABLES, check_world_cards
from engine.service.rulesets import AWAY_MISSIONS, RENEGADES
from engine import opponent
from engine.command_text import quote
from images import pictures

FED = dict(affiliation="federation", team="federation-away-team", deck="federation-starter")
BORG = dict(affiliation="borg", team="borg-away-team", deck="borg-starter")
HELP = """  ?        list your legal commands, numbered
  N        send legal command number N
  hand     your hand and your decision{mission}
  rules TERM   look up a rule or term (typos forgiven)
  card NAME    look up a card or character
  concede  give up the game
  quit     stop here (the game stays in the database)"""
MISSION_HELP = "\n  mission  the mission and how it is won"


def help_text(ruleset: str, legal: Sequence[str] = ()) -> str:
    """What can be typed; the example command is one of the legal commands of the game
    being played (one that is not 'pass' when there is one)."""
    example = next((c for c in legal if c != "pass"), next(iter(legal), None))
    head = f"Type a command (like '{example}'), or:" if example else "Type a command, or:"
    return head + "\n" + HELP.format(mission=MISSION_HELP if ruleset == RENEGADES.name else "")

Ask = Callable[[str], Awaitable[Optional[str]]]


async def _terminal(prompt: str) -> Optional[str]:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


class Console:
    """One local game: prompts for human seats, the computer opponent for the others."""

    def __init__(self, service: GameService, pictures: str, *, ask: Ask = _terminal,
                 say: Callable[[str], None] = print, hotseat: bool = False, rng: Optional[random.Random] = None,
                 team: Optional[dict] = None, ruleset: str = "awaymissions", players: int = 2,
                 teams: bool = False, level: str = "normal", explain: bool = False,
                 stand_in: Optional[Callable[[dict, str, list[str]], str]] = None, options: Optional[dict] = None,
                 npc_crew: Optional[list[str]] = None):
        self.service, self.folder, self.ask, self.say = service, pictures, ask, say
        self.team = team or FED
        self.ruleset = ruleset
        self.players = 4 if teams else players
        self.teams = teams
        self.humans = {1, 2} if hotseat else {1}
        self.rng = rng or random.Random()
        self.level = opponent.level(level)
        self.explain = explain
        self.stand_in = stand_in  # (view, seat, legal) -> command, instead of the computer opponent (tests)
        self.options = options  # Renegades set-up: quick, boards, world_cards, draft
        self.npc_crew = npc_crew  # Renegades solo: the NPC Coalition ship's crew, as chosen (N241)
        self.game_id = 0

    async def _seat_away_mission(self, seed: Optional[int]) -> None:
        """Make an Away Missions game: two seats, or 3-4 on six boards (2 vs 2 pairs you, p1, with p3)."""
        options = None
        if self.players > 2:
            options = {"layout": "six", **({"mode": "teams"} if self.teams else {"seats": self.players})}
        info = await self.service.create(creator=1, seed=seed, options=options)
        self.game_id = info.id
        for user in range(1, self.players + 1):
            if len(self.humans) > 1 and user in self.humans:
                name = f"Player {user}"
            elif user == 1:
                name = f"{self.team['affiliation'].capitalize()} (you)"
            else:
                name = "Computer" if self.players == 2 else f"Computer {user}"
            await self.service.join(info.id, user, name, **(self.team if user == 1 else (BORG, FED)[user % 2]))

    async def _seat_renegades(self, seed: Optional[int]) -> None:
        """Make a Renegades game as `options` say (mode and seats, TABLES): versus, your
        Renegade ship against the computer's Coalition ship; solo, yours alone against the
        NPC Coalition; co-op, Renegade ships together, the others flown by the computer crew
        (or, with hotseat, the second by a second player)."""
        options = self.options or {}
        info = await self.service.create(creator=1, seed=seed, ruleset=self.ruleset, options=options)
        self.game_id = info.id
        seats = len(RENEGADES.seats_for({**RENEGADES.default_options, **options}))
        versus = options.get("mode", RENEGADES.default_options["mode"]) == "versus"
        for user in range(1, seats + 1):
            if len(self.humans) > 1 and user in self.humans:
                name = f"Player {user}"
            elif user == 1:
                name = "Renegade (you)"
            else:
                name = "Computer" if seats == 2 else f"Computer {user}"
            chosen = {"npc_crew": self.npc_crew} if self.npc_crew and user == 1 else {}
            await self.service.join(info.id, user, name, faction="coalition" if versus and user == 2 else "renegade",
                                    **chosen)

    async def play(self, seed: Optional[int] = None) -> Update:
        """Create, start and play a game until it ends or the player quits; the last update."""
        if self.ruleset == RENEGADES.name:
            await self._seat_renegades(seed)
        else:
            await self._seat_away_mission(seed)
        desk = PlayerDesk(self.service.db)
        seal = await desk.seal(self.game_id)  # before the first roll, as on Discord (ruling P2)
        update = await self.service.start(self.game_id, 1)
        _, legal = await self.service.legal_commands(self.game_id, 1)
        self.say(f"Game #{self.game_id} (pictures in {self.folder}/). Dice seal: {seal} (SHA-256 of the "
                 f"game's secret dice seed and a salt, both shown when the game ends). "
                 + help_text(self.ruleset, legal))
        if self.ruleset == RENEGADES.name:
            note = crew_choice.solo_note(RENEGADES.load_pack(RENEGADES.default_options["pack"]), self.options or {},
                                         self.npc_crew, "choose another with --coalition-crew, or --draft",
                                         "type '?' for the crew you may pick")
            self.say("\n".join(filter(None, (await self.mission(), note))))
        await self.show(update)
        drafting = await self.drafting()
        while update.status == "active":
            turn = update.awaited[0]
            version, legal = await self.service.legal_commands(self.game_id, turn.user_id)
            if turn.user_id not in self.humans:
                command = await self.computer(turn.seat, turn.user_id, turn.name, legal)
            else:
                command = await self.command_from(turn.name, turn.user_id, legal)
                if command is None:
                    return update
            try:
                update = (await self.service.concede(self.game_id, turn.user_id) if command == "concede"
                          else await self.service.submit(self.game_id, turn.user_id, command, version))
            except ServiceError as refused:
                entry = load_glossary().get(refused.term) if refused.term else None
                rule = f" (the rule: type 'rules {entry.term}')" if entry else ""
                self.say(refused.message + rule)
                continue
            await self.show(update)
            if drafting and not await self.drafting():  # the last pick: the mission is dealt now
                drafting = False
                self.say(await self.mission())
        shown = await desk.reveal(self.game_id)
        verdict = await desk.verify(self.game_id)
        if update.status == "over":
            await self.recap(desk, verdict)
        self.say(f"Dice seed {shown.seed}, salt {shown.salt}. " + verdict.summary(self.game_id))
        return update

    async def recap(self, desk: PlayerDesk, verdict: Verdict) -> None:
        """Write the ended game's recap and summary pictures (P44) into the pictures folder."""
        os.makedirs(self.folder, exist_ok=True)
        for name, data in await recaps.pictures(desk, self.game_id, verdict):
            path = os.path.join(self.folder, f"game{self.game_id}-{name}")
            await asyncio.to_thread(_write, path, data)
            self.say(f"Wrote {path}")

    async def computer(self, seat: str, user_id: int, name: str, legal: list[str]) -> str:
        """The computer's command for its seat, chosen from that seat's view only (in
        Renegades the computer crew flies the ship)."""
        view = await self.service.view(self.game_id, user_id)
        self.say(f"{name} acts:")  # the public lines tell what it did; the command itself may name hidden cards
        if self.stand_in is not None:
            return self.stand_in(view, seat, legal)
        choice = await asyncio.to_thread(opponent.choose, self.ruleset, view, seat, self.level,
                                         self.rng.getrandbits(32))
        if self.explain:
            text = opponent.explanation(choice, _hand(view, seat))
            if text:
                self.say("  The computer weighed:\n" + "\n".join(f"    {line}" for line in text.splitlines()))
        elif choice.cut is not None:  # the explanation says it too
            self.say("  " + opponent.cut_note(choice))
        return choice.command

    async def command_from(self, name: str, user_id: int, legal: list[str]) -> Optional[str]:
        """Ask a human until the answer is a command (None: quit)."""
        while True:
            line = await self.ask(f"{name}> ")
            if line is None or line.strip().lower() == "quit":
                return None
            line = line.strip()
            if line in ("?", "help", ""):
                self.say(help_text(self.ruleset, legal) + "\n" + await self.choices(user_id))
            elif line == "hand":
                self.say(await self.hand(user_id))
            elif line == "mission" and self.ruleset == RENEGADES.name:
                self.say(await self.mission())
            elif line.lower().startswith(("rules ", "card ")):
                self.say(look_up(*line.split(None, 1), ruleset=self.ruleset))
            elif line.isdigit():
                if 1 <= int(line) <= len(legal):
                    return legal[int(line) - 1]
                self.say(f"Choose 1 to {len(legal)}.")
            else:
                return line

    async def choices(self, user_id: int) -> str:
        """The decision put as a question and the legal commands, numbered: each by name,
        then the text to type when it names cards by code, and its exact odds if it rolls."""
        panel = await self.service.panel(self.game_id, user_id)
        lines = [panel.question] if panel.question else []
        for n, (command, label) in enumerate(zip(panel.commands, panel.labels), 1):
            typed = f"   [{command}]" if label.lower() != command.lower() else ""
            odds = f"   odds: {panel.odds[n - 1]}" if n - 1 in panel.odds else ""
            lines.append(f"{n:3}. {label}{typed}{odds}")
        return "\n".join(lines)

    async def hand(self, user_id: int) -> str:
        """The player's decision, as a question, and hand, by card name (in Renegades: the
        ships, the crew at their stations and the tactical cards)."""
        panel = await self.service.panel(self.game_id, user_id)
        hand = "" if panel.hand is None else f" Hand: {', '.join(panel.hand) or 'empty'}."
        asked = f"{panel.question or 'Nothing is asked of you now.'}{hand}"
        if self.ruleset != RENEGADES.name:
            return asked
        view = await self.service.view(self.game_id, user_id)
        seat = next(s.seat for s in (await self.service.get(self.game_id)).seats if s.user_id == user_id)
        return asked + "\n" + holdings(RENEGADES.load_pack(view["pack"]), view, seat)

    async def drafting(self) -> bool:
        """Whether the Renegades crews are still being drafted (N219)."""
        return self.ruleset == RENEGADES.name and bool((await self.service.view(self.game_id)).get("draft"))

    async def mission(self) -> str:
        """The Renegades mission being flown and how it is won (dealt after a draft)."""
        view = await self.service.view(self.game_id)
        if view.get("draft"):
            return "The mission is dealt once the crews are drafted."
        options = self.options or {}
        return mission_briefing(RENEGADES.load_pack(view["pack"]), view, int(options.get("tier", 1)),
                                built=options.get("boards") == "built")

    async def final_score(self, result: dict) -> str:
        """'Final score: A 3, B 5. B wins.' (or a draw), with the players' names."""
        names = {s.seat: s.name for s in (await self.service.get(self.game_id)).seats}
        scores = ", ".join(f"{names.get(seat, seat)} {points}" for seat, points in result["scores"].items())
        winner = result.get("winner")
        winners = [winner] if isinstance(winner, str) else list(winner or [])
        verb = " wins." if len(winners) == 1 else " win."
        ending = " and ".join(names.get(w, w) for w in winners) + verb if winners else "A draw."
        return f"Final score: {scores}. {ending}"

    async def show(self, update: Update) -> None:
        """Print what happened (private lines only for human seats) and write the pictures."""
        for line in update.public:
            self.say(f"  {line}")
        names = {s.seat: s.name for s in (await self.service.get(self.game_id)).seats} if update.private else {}
        for seat, lines in update.private.items():
            if update.players[seat] in self.humans:
                self.say("\n".join(f"  (for {names.get(seat, seat)} only) {line}" for line in lines))
        if update.result and update.result.get("scores"):
            self.say(await self.final_score(update.result))
        if update.images:
            view = await self.service.view(self.game_id)
            wanted = update.images + ["status"] * (self.ruleset == "renegades")  # crews and damage, each action
            roll = await roll_events(self.service, self.game_id, update.events) if "dice" in wanted else None
            drawn = await asyncio.to_thread(pictures.draw, self.ruleset, view, update.events, wanted, roll)
            surface = view.get("surface") or {}
            if surface.get("crew"):  # beside surface.png, its pieces in words for the terminal
                self.say("  Surface: " + surface_words(surface, view.get("ships", {})))
            os.makedirs(self.folder, exist_ok=True)
            for name, data in drawn:
                kind = name.removesuffix(".png")
                path = os.path.join(self.folder, f"game{self.game_id}-{update.version:04d}-{kind}.png")
                await asyncio.to_thread(_write, path, data)


def surface_words(surface: dict, ships: dict) -> str:
    """The pieces on the Renegades surface: crew and figures by the codes commands take, with
    their squares; ships (from the view's `ships`) and dropped gear by name."""
    index = card_index()
    pieces = [f"{code} {c['cell']}{' (out)' if c['ko'] else ''}{' (hidden)' if c['hidden'] else ''}"
              for code, c in surface["crew"].items()]
    pieces += [f"{code} {f['cell']}" for code, f in surface.get("figures", {}).items()]
    pieces += [f"{', '.join(crew)} boarding the {ships.get(ship, {}).get('name', ship)}"
               for ship, crew in surface.get("boarded", {}).items()]
    pieces += [f"fire {cell}" for cell in surface.get("fires", [])]
    pieces += [f"{', '.join(getattr(index.get(item), 'name', item) for item in items)} dropped at {cell}"
               for cell, items in surface.get("dropped", {}).items()]
    return "; ".join(pieces)


def _hand(view: dict, seat: str) -> list[str]:
    return next(p.get("hand", []) for p in view["players"] if p["seat"] == seat)


def look_up(what: str, query: str, ruleset: Optional[str] = None) -> str:
    """'rules TERM' or 'card NAME' at the prompt: the best match (of the game's `ruleset`
    first), and others close to it; the nearest names when nothing matches."""
    if what.lower() == "rules":
        found = answer(query, ruleset)
        if found.card is not None:
            return card_lines(found.card)
        if found.entry is None:
            return (f"No rule or term like '{quote(query)}'. Nearest: "
                    f"{', '.join(e.term for e in found.nearest)} (type 'rules' and one of them).")
        also = f"\n(also: {', '.join(e.term for e in found.also)})" if found.also else ""
        return plain_text(found.entry, tuple(card_names(found.entry))) + also
    index = card_index()
    cards = index.find(query, prefer=ruleset)
    if not cards:
        return (f"No card like '{quote(query)}'. Nearest: "
                f"{', '.join(c.name for c in index.nearest(query, ruleset))} (type 'card' and one of them).")
    return card_lines(cards[0]) + (f"\n(also: {', '.join(c.name for c in cards[1:])})" if len(cards) > 1 else "")


def card_lines(card: CardInfo) -> str:
    """A card for the terminal: name, kind, the code to type, its text, facts and timing."""
    lines = [f"{card.name} ({card.kind}, {RULESET_NAMES.get(card.ruleset, card.ruleset)}; in commands: {card.code}): "
             f"{card.text}", *(f"  {fact}" for fact in card.facts)]
    if card.timing:
        lines.append(f"  When: {card.timing}")
    if card.rulings:
        lines.append(f"  Rulings: {', '.join(card.rulings)}")
    return "\n".join(lines)


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as out:
        out.write(data)


def human_team(commander: Optional[str] = None, swaps: Sequence[str] = ()) -> dict:
    """Player 1's seat options: the Federation team with an alternative commander and
    specialist swaps ("OLD=NEW"), checked by the engine; RuleError says what is wrong."""
    pairs = [swap.upper().split("=") for swap in swaps]
    if any(len(pair) != 2 for pair in pairs):
        raise RuleError("Write each swap as OLD=NEW, like --swap OKAFOR=OSSA.")
    team = {**FED, **({"commander": commander.upper()} if commander else {}),
            **({"swaps": dict(pairs)} if pairs else {})}
    away_team(load_pack(AWAY_MISSIONS.default_options["pack"]), team)
    return team


def table_problem(ruleset: str, mode: Optional[str], players: int = 2) -> Optional[str]:
    """Why a local table of `mode` and `players` cannot seat this ruleset, or None."""
    if mode in TABLES and ruleset != RENEGADES.name:
        return f"--mode {mode} is a Renegades table (solo, co-op or versus): add --ruleset renegades."
    if ruleset == RENEGADES.name and mode is not None and mode not in TABLES:
        return f"--mode {mode} is an Away Missions table; Renegades is played solo, co-op or versus."
    if ruleset == RENEGADES.name and players != 2:
        return "--players is for Away Missions; Renegades seats one player (--mode solo) or two (co-op, versus)."
    return None


def renegades_table(mode: Optional[str]) -> dict:
    """The game options of a local Renegades table, as Discord's /game new mode: makes them
    (the engine's mode and the seats); none for the default, versus."""
    if mode not in TABLES:
        return {}
    engine_mode, seats = TABLES[mode]
    return {"mode": engine_mode, "seats": seats}


def renegades_set_up(ruleset: str, options: dict, coalition_crew: Optional[str] = None) -> Optional[list[str]]:
    """Check the local Renegades set-up `options` (mode, seats, quick, boards, world_cards,
    draft) and, solo, the NPC Coalition crew typed (`coalition_crew`); the crew chosen, or
    None. RuleError saying what is wrong."""
    if not options and coalition_crew is None:
        return None
    if ruleset != RENEGADES.name:
        raise RuleError("--quick, --boards, --world-cards, --mode, --coalition-crew and --draft set up "
                        "Renegades: add --ruleset renegades.")
    pack = RENEGADES.load_pack(RENEGADES.default_options["pack"])
    try:
        check_world_cards(pack, bool(options.get("quick")), int(options.get("world_cards", 6)))
        return crew_choice.solo_choice(pack, options, coalition_crew)
    except RuleError as refused:
        raise RuleError(f"That game cannot be set up: {refused}") from refused


async def play_local(database: str, pictures: str, *, hotseat: bool = False, seed: Optional[int] = None,
                     commander: Optional[str] = None, swaps: Sequence[str] = (), level: str = "normal",
                     explain: bool = False, ask: Ask = _terminal, say: Callable[[str], None] = print,
                     ruleset: str = "awaymissions", players: int = 2, teams: bool = False,
                     options: Optional[dict] = None, coalition_crew: Optional[str] = None) -> int:
    """Play one local game over the database at `database`; exit status 0 (2: a refused team
    or set-up). `ruleset` "renegades" plays the Renegade ship against the Coalition, set up
    by `options` (mode, seats, quick, boards, world_cards, draft; solo: `coalition_crew`, the
    NPC Coalition crew as typed); `players` 3 or 4 plays a free-for-all on six boards,
    `teams` 2 vs 2 (you and p3)."""
    try:
        team = human_team(commander, swaps) if ruleset == "awaymissions" else None
    except RuleError as refused:
        say(f"That away team cannot play: {refused}")
        return 2
    options = options or {}
    try:
        npc_crew = renegades_set_up(ruleset, options, coalition_crew)
    except RuleError as refused:
        say(str(refused))
        return 2
    service = await GameService.open(database)
    try:
        await Console(service, pictures, ask=ask, say=say, hotseat=hotseat,
                      rng=random.Random(seed), team=team, ruleset=ruleset, players=players,
                      teams=teams, level=level, explain=explain, options=options or None,
                      npc_crew=npc_crew).play(seed)
    finally:
        await service.close()
    return 0
