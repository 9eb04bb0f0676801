"""The away team, chosen privately while the game is in its lobby: the sides and their ready-made
teams, the pack a game is dealt from, the alternative commander and the specialists swapped in."""
from __future__ import annotations

import asyncio
import re
from typing import Optional

import discord

from cogs import buttons, panel
from cogs.replies import clip, reply
from engine.awaymissions.content import Pack, load_pack
from engine.awaymissions.setup import away_team
from engine.errors import PackError, RuleError
from engine.service import LobbyError, NotAPlayer, ServiceError

SIDES = {
    "federation": dict(affiliation="federation", team="federation-away-team", deck="federation-starter"),
    "borg": dict(affiliation="borg", team="borg-away-team", deck="borg-starter"),
}


def other_side(side: str) -> str:
    """The side left for the second player."""
    return next(s for s in SIDES if s != side)


PACK_NAME = re.compile(r"(?:content/)?([a-z0-9][a-z0-9_-]*)/?")


async def game_pack(name: str) -> tuple[str, Pack]:
    """(path, pack) of a pack folder under content/, loaded off the event loop; LobbyError if bad."""
    found = PACK_NAME.fullmatch(name.strip().lower())
    if found is None:
        raise LobbyError(f"'{name}' is not a pack name: use a folder of content/, like content/starter.")
    path = f"content/{found[1]}"
    try:
        pack = await asyncio.to_thread(load_pack, path)
    except PackError as error:
        raise LobbyError(f"The pack {path} cannot be used: " + "; ".join(error.problems[:5])) from error
    for side in SIDES:
        side_options(pack, side)
    return path, pack


def side_options(pack: Pack, side: str) -> dict:
    """A seat's options for `side`: the pack's ready-made team and deck of that affiliation."""
    team = next((t.code for t in pack.teams.values() if t.affiliation == side), None)
    deck = next((d.code for d in pack.decks.values() if d.affiliation == side), None)
    if team is None or deck is None:
        raise LobbyError(f"The pack {pack.path} has no {side} away team and deck.")
    return dict(affiliation=side, team=team, deck=deck)


def _who(pack: Pack, code: str) -> str:
    return f"{pack.characters[code].name} ({code})"


def specialists(pack: Pack, options: dict) -> tuple[list[str], list[str]]:
    """(members of the ready-made team who may be swapped, specialists who may come in)."""
    team = pack.teams[options["team"]]
    members = [c for c in team.members if "Specialist" in pack.characters[c].keywords]
    spares = [c.code for c in pack.characters.values() if "Specialist" in c.keywords
              and c.affiliation == team.affiliation and c.code not in (team.commander, *team.members)]
    return members, spares


def team_text(pack: Pack, options: dict, note: str = "") -> str:
    """The private "Choose your away team" step: the team as chosen so far."""
    roster = away_team(pack, options)
    lines = [note] if note else []
    lines += [f"**Choose your away team** (only you see it until the game starts): "
              f"{pack.teams[options['team']].name}",
              f"Commander: {_who(pack, roster[0])}",
              "Team: " + ", ".join(_who(pack, code) for code in roster[1:]),
              "Pick an alternative commander or swap mission specialists below; each choice is saved."]
    return clip("\n".join(lines))


def team_view(game_id: int, pack: Pack, options: dict) -> discord.ui.View:
    """Selects for the alternative commander and the specialist swaps (at most five rows)."""
    view = discord.ui.View(timeout=None)
    team = pack.teams[options["team"]]
    commander = options.get("commander") or team.commander
    others = [c.code for c in pack.characters.values() if c.alternative_commander_for == team.commander]
    if others:
        view.add_item(buttons.CommanderPick(game_id, [
            discord.SelectOption(label=_who(pack, code)[:panel.LABEL], value=code, default=code == commander)
            for code in [team.commander, *others][:panel.MAX_OPTIONS]]))
    members, spares = specialists(pack, options)
    swaps = options.get("swaps") or {}
    rows_left = panel.MAX_ROWS - len(view.children)
    for old in (members if spares else [])[:rows_left]:
        now = swaps.get(old, old)
        view.add_item(buttons.SwapPick(game_id, old, [
            discord.SelectOption(label=(f"Keep {_who(pack, code)}" if code == old else
                                        f"{_who(pack, code)} for {old}")[:panel.LABEL],
                                 value=code, default=code == now)
            for code in [old, *spares][:panel.MAX_OPTIONS]]))
    return view


async def change_team(interaction: discord.Interaction, game_id: int, commander: Optional[str] = None,
                      swap: Optional[tuple[str, str]] = None) -> None:
    """Check a new commander or swap with the engine and keep it as the seat's options (deferred)."""
    bot = interaction.client
    try:
        config, options = await bot.service.seat_options(game_id, interaction.user.id)
        if not options:
            raise NotAPlayer("You are not in this game.")
        pack = await asyncio.to_thread(load_pack, config["pack"])
        team = pack.teams[options["team"]]
        wanted = {"commander": options.get("commander"), "swaps": options.get("swaps")}
        if commander is not None:
            wanted["commander"] = None if commander == team.commander else commander
        if swap is not None:
            swaps = {old: new for old, new in {**(wanted["swaps"] or {}), swap[0]: swap[1]}.items() if old != new}
            wanted["swaps"] = swaps or None
        note = ""
        try:
            away_team(pack, {**options, **{k: v for k, v in wanted.items() if v is not None}})
        except RuleError as refused:
            note = f"Not changed: {refused}"
        else:
            options = await bot.service.set_seat_options(game_id, interaction.user.id, **wanted)
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    await interaction.edit_original_response(content=team_text(pack, options, note),
                                             view=team_view(game_id, pack, options))


async def show_team(interaction: discord.Interaction, game_id: int) -> None:
    """The presser's away team step again, privately, while the game is in its lobby (deferred)."""
    bot = interaction.client
    try:
        info = await bot.service.get(game_id)
        config, options = await bot.service.seat_options(game_id, interaction.user.id)
        if info.status != "lobby":
            raise LobbyError("The game has already started: the away teams are set.")
        if not options:
            raise NotAPlayer("Join the game first, then choose your away team.")
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    pack = await asyncio.to_thread(load_pack, config["pack"])
    await interaction.edit_original_response(content=team_text(pack, options),
                                             view=team_view(game_id, pack, options))
