"""Presenting the service's answers on Discord: replies, the table update, the panel.

Every cog and button goes through here, so a game looks the same whichever door a
command came in by. Pictures are drawn in a worker thread; the event loop only waits.
"""
from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from typing import TYPE_CHECKING, Iterable, Optional

import discord

from cogs import panel
from cogs import buttons, pings, renegades
from engine.awaymissions.content import Pack, load_pack
from engine.awaymissions.setup import away_team
from engine.errors import PackError, RuleError
from engine.service import GameInfo, LobbyError, NotAPlayer, Panel, ServiceError, Update, is_computer
from engine.service.rulesets import RENEGADES
from engine.service.service import COMPUTER_USER_BASE, why_key
from engine.service.text import public_line, readable
from images import pictures
from images.board import activation_line, board_key
from images.tokens import short_labels

if TYPE_CHECKING:
    from bot import ReadyRoom

log = logging.getLogger("ready_room.present")
MAX_CONTENT = 2000
UPLOAD_LIMIT = 10 << 20  # Discord's attachment bytes per message, for a server whose limit is unknown
CATCH_UP_LINES = 8  # lines of "since your last move" on a panel
TABLE_LINES = 40  # summary lines a table message remembers within one decision
TURNS_PER_TABLE = 2  # turns one table message shows (a turn pair: a player's activation and the answer to it)
NO_MENTIONS = discord.AllowedMentions.none()


def names_of(info: GameInfo) -> dict[str, str]:
    """Seat -> player name."""
    return {s.seat: s.name for s in info.seats}


def seat_of(info: GameInfo, user_id: int) -> Optional[str]:
    """The user's seat in the game, or None."""
    return next((s.seat for s in info.seats if s.user_id == user_id), None)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """`text` cut to Discord's message length."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


async def reply(interaction: discord.Interaction, text: str, view: Optional[discord.ui.View] = None,
                **kwargs) -> None:
    """An ephemeral answer: the response, the deferred "thinking" message, or a followup."""
    with_view = {"view": view} if view is not None else {}
    if not interaction.response.is_done():
        await interaction.response.send_message(clip(text), ephemeral=True, **with_view, **kwargs)
        unlisten(view)
    elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        await interaction.edit_original_response(content=clip(text), view=view, **kwargs)
    else:
        await interaction.followup.send(clip(text), ephemeral=True, **with_view, **kwargs)
        unlisten(view)


def unlisten(view) -> None:
    """Stop the listener discord.py attaches to a view sent in an ephemeral response.

    Our buttons are dynamic items that the bot routes by custom id, so the per-message
    listener (and its 15-minute timer) only costs memory and a pending task.
    """
    if isinstance(view, discord.ui.View):
        view.stop()


async def refuse(interaction: discord.Interaction, refused: ServiceError) -> None:
    """Explain a refusal privately; when a rule refused it, a button opens that rule."""
    view = None
    if refused.term:
        from cogs.rules import RuleButton  # the glossary's buttons live with /rules
        view = discord.ui.View(timeout=None)
        view.add_item(RuleButton(refused.term, "Show the rule"))
    await reply(interaction, refused.message, view=view)


def place_of(interaction: discord.Interaction) -> tuple[int, Optional[int]]:
    """(channel id, thread id) where the interaction happened."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id, channel.id
    return interaction.channel_id, None


async def game_here(bot: "ReadyRoom", interaction: discord.Interaction) -> GameInfo:
    """The live game of the channel or thread the interaction came from."""
    return await bot.service.in_channel(*place_of(interaction))


def final_score(result: Optional[dict], names: dict[str, str]) -> Optional[str]:
    """"Final score: Ann 2, Bo 1" when the game has ended with scores."""
    scores = (result or {}).get("scores")
    if not scores:
        return None
    return "Final score: " + ", ".join(f"{names.get(s, s)} {points}" for s, points in scores.items())


def outcome(info: GameInfo) -> list[str]:
    """How a game that is no longer running ended, for a player's private message: the
    line the table shows ("The game is over. Winner: Bo") and the final score."""
    if info.status == "aborted":
        return ["The game was aborted."]
    names = names_of(info)
    return [line for line in (public_line({"type": "game_over", **(info.result or {})}, names),
                              final_score(info.result, names)) if line]


def to_ping(update: Update, actor_id: Optional[int], already: Iterable[int] = ()) -> list[int]:
    """Users to mention: those now awaited, except the player who just acted and those
    `already` awaited (and so pinged) before this update: one ping per decision, also
    when several players answer the same decision one after the other."""
    skip = {actor_id, *already}
    return list(dict.fromkeys(t.user_id for t in update.awaited if t.user_id not in skip and not is_computer(t.user_id)))


def summary(update: Update, info: GameInfo, ping: Iterable[int], lines: list[str], doing: str = "",
            away: Optional[dict[int, str]] = None) -> str:
    """The table message text: what happened (`lines`), then whose move it is (mentioning
    the users in `ping`, with a note for those `away`) and the activation under way
    (`doing`). When too long, the oldest lines go first."""
    names = names_of(info)
    head = [f"**Game #{update.game_id}** · move {update.version}"]
    tail = []
    score = final_score(update.result, names)
    if score:
        tail.append(score)
    if update.status == "active" and update.awaited:
        ping = set(ping)
        away = away or {}
        who = ", ".join((f"<@{t.user_id}>" if t.user_id in ping else t.name)
                        + (f" ({away[t.user_id]})" if t.user_id in away else "") for t in update.awaited)
        tail.append(f"Waiting for {who}." + (f" ({doing})" if doing else ""))
    body = [f"• {line}" for line in lines]
    while body and len("\n".join(head + body + tail)) > MAX_CONTENT:
        body.pop(0)
    return clip("\n".join(head + body + tail))


def upload_limit(bot: "ReadyRoom", guild_id: Optional[int]) -> int:
    """Bytes of attachments one message may carry in the guild (Discord's default if unknown)."""
    guild = bot.get_guild(guild_id) if guild_id else None
    return guild.filesize_limit if guild is not None else UPLOAD_LIMIT


def within(drawn: list[tuple[str, bytes]], limit: int) -> list[tuple[str, bytes]]:
    """The pictures that fit together in one message of `limit` bytes: the dice boards are
    dropped first, then the status, then the boards (the planet's before the main one)."""
    kept = list(drawn)
    for name in ("crew-dice.png", "dice.png", "status.png", "surface.png", "board.png"):
        if sum(len(data) for _, data in kept) <= limit:
            break
        kept = [(n, data) for n, data in kept if n != name]
    left_out = [name for name, _ in drawn if all(name != n for n, _ in kept)]
    if left_out:
        log.warning("pictures over the %d-byte upload limit left out: %s", limit, ", ".join(left_out))
    return kept


async def roll_events(bot: "ReadyRoom", game_id: int, events: list[dict]) -> list[dict]:
    """The events the dice board needs: a re-roll's own events lack the roll they change,
    so the public events since that roll are taken from the log."""
    if any(e["type"] == "rolled" for e in events) or not any(e["type"] == "rerolled" for e in events):
        return events
    earlier: list[dict] = []
    for entry in reversed((await bot.service.log(game_id))[:-1]):
        found = [{k: v for k, v in e.items() if k != "private"} for e in json.loads(entry.events)]
        earlier = found + earlier
        if any(e["type"] == "rolled" for e in found):
            break
    return earlier + events


async def drawings(bot: "ReadyRoom", game_id: int, events: list[dict], wanted: list[str],
                   limit: int = UPLOAD_LIMIT, view: Optional[dict] = None,
                   waiting: bool = True) -> list[tuple[str, bytes]]:
    """The update's pictures from the public `view` (read if not given), drawn off the event
    loop, within `limit` bytes; with `waiting` False the board leaves out whose move it is."""
    if not wanted:
        return []
    view = view if view is not None else await bot.service.view(game_id)
    roll = await roll_events(bot, game_id, events) if "dice" in wanted else []
    ruleset = (await bot.service.get(game_id)).ruleset
    return within(await asyncio.to_thread(pictures.draw, ruleset, view, events, wanted, roll, waiting), limit)


def as_files(drawn: list[tuple[str, bytes]]) -> list[discord.File]:
    """Attachments for one request (discord.py closes them after it)."""
    return [discord.File(io.BytesIO(data), filename=name) for name, data in drawn]


def turn_view(update: Update) -> Optional[discord.ui.View]:
    """The "Your move" button for a game that waits on somebody."""
    if update.status != "active" or not update.awaited:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(buttons.YourMove(update.game_id, update.version))
    if any(is_computer(user) for user in update.players.values()):
        view.add_item(buttons.WhyButton(update.game_id))
    return view


async def show_why(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int) -> None:
    """Privately: the computer's last real choice: its best 3 candidates with win rates, or the
    rule of thumb it followed (easy level, set-up choices)."""
    info = await bot.service.get(game_id)
    why = await bot.service.guild_setting(info.guild_id or 0, why_key(game_id))
    if not why:
        await reply(interaction, "The computer has not weighed a real choice in this game yet.")
        return
    names = names_of(info)
    await reply(interaction, f"Move {why['version']}, the computer ({why['level']}) for "
                             f"{names.get(why['seat'], why['seat'])} weighed:\n" + "\n".join(why["lines"]))


def table_key(game_id: int) -> str:
    """The guild setting that remembers a game's table message."""
    return f"table:{game_id}"


async def forget_table(bot: "ReadyRoom", info: GameInfo) -> None:
    """Drop the record of a finished game's table message."""
    await bot.service.set_guild_setting(info.guild_id or 0, table_key(info.id), None)


async def publish(bot: "ReadyRoom", update: Update, actor_id: Optional[int]) -> bool:
    """Show the update on the game's table message: summary, board, dice, whose move.

    One message per hand-over (ruling P7): when the game passes to somebody who is called
    now, a fresh table message shows the table and mentions them, the one notification for
    that hand-over. Otherwise (nobody to call: the actor goes on, or everyone awaited is
    watching live, or away) the table message is edited, for at most a turn pair (two
    turns: a player's activation and the next one, or two set-up steps): lines added, the
    dice when rolled, a new board picture only when the board changed since the last one
    uploaded (a fresh message leaves it out when the message above shows the same board),
    and not while the actor goes on unwatched: their panel shows it (`act`).
    A third turn, or the end of the game, gets a fresh message too. The record lives in the
    guild's settings, so this holds across restarts; a deleted table message is replaced. A
    post that fails is tried again, then made in the game's channel instead of its thread.
    Returns False when the table could not be updated anywhere (the move itself is
    stored; the caller tells the actor).
    """
    info = await bot.service.get(update.game_id)
    view = await bot.service.view(update.game_id)
    awaited = sorted({t.user_id for t in update.awaited}) if update.status == "active" else []
    table = await bot.service.guild_setting(info.guild_id or 0, table_key(info.id))
    ping = to_ping(update, actor_id, table["awaited"] if table else ())
    away = await pings.availability(bot, update, ping)
    ping = await pings.hold_pings(bot, update, ping, away)
    ping = await pings.wait_for_live(bot, update, ping)
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in ping])
    away = pings.away_notes(update, away)
    drawn_here = "characters" in view  # the board picture and its key are Away Missions' (images.board)
    doing = activation_line(view, short_labels(view["characters"])) if drawn_here else ""
    key = board_key(view) if drawn_here else None
    limit = upload_limit(bot, info.guild_id)
    message, place = None, None
    shown_board = table.get("board") if table else None  # the board last uploaded to the thread
    turns = None if ping else _turns_shown(table, awaited, update.turn)  # a hand-over is a fresh message
    if turns is not None:
        lines = (table["lines"] + update.public)[-TABLE_LINES:]
        place = table.get("channel") or info.thread_id or info.channel_id
        # the actor going on with nobody else following live sees the new board on their panel (act)
        for_actor = key is not None and actor_id in awaited and not pings.watched(bot, update, actor_id)
        new_board = "board" in update.images and (key is None or key != shown_board) and not for_actor
        drawn = await drawings(bot, update.game_id, update.events,
                               [w for w in update.images if w != "board" or new_board], limit, view, waiting=False)
        kept = _kept_pictures(bot, table, drawn, same_turn=turns == table.get("turns"))
        pictures = {} if not drawn and len(kept) == len(table.get("files") or {}) else {
            "attachments": kept + as_files(drawn)}
        try:
            message = await bot.get_partial_messageable(place).get_partial_message(table["message"]).edit(
                content=summary(update, info, (), lines, doing, away), view=turn_view(update),
                allowed_mentions=NO_MENTIONS, **pictures)
        except discord.NotFound:
            log.info("table message of game %s is gone; posting a new one", info.id)
            shown_board = None
        except discord.HTTPException as error:
            log.warning("table message of game %s could not be edited (%s); posting a new one", info.id, error)
            shown_board = None
    if message is None:
        turns = [update.turn] if update.turn is not None else []
        lines = update.public[-TABLE_LINES:]
        same_board = key is not None and key == shown_board and update.status == "active"
        drawn = await drawings(bot, update.game_id, update.events,
                               [w for w in update.images if w != "board" or not same_board], limit, view,
                               waiting=False)
        message, place = await _post(bot, info, summary(update, info, ping, lines, doing, away), drawn,
                                     turn_view(update) if awaited else None, mentions)
    if any(name == "board.png" for name, _ in drawn):
        shown_board = key
    if message is not None and awaited:
        files = {a.filename: a.to_dict() for a in getattr(message, "attachments", [])}
        await bot.service.set_guild_setting(info.guild_id or 0, table_key(info.id), {
            "message": message.id, "channel": place, "awaited": awaited, "lines": lines, "turn": update.turn,
            "turns": turns, "files": files, "board": shown_board})
    elif message is not None:
        await forget_table(bot, info)
    await deliver_private(bot, update, skip=actor_id)
    bot.dispatch("table_update", update, actor_id)  # the team threads follow (cogs/teams.py)
    if update.status == "over":
        bot.dispatch("game_over", update)  # the league cog records games linked to a pairing
    elif not is_computer(actor_id):
        await computers_play(bot, update.game_id)
    return message is not None


def _turns_shown(table: Optional[dict], awaited: list[int], turn: Optional[str]) -> Optional[list[str]]:
    """The turns the table message will show after this update if it goes on being edited,
    or None when a fresh table message is due: no table yet, the game is over, or a third
    turn begins (the message already shows a turn pair)."""
    if table is None or not awaited:
        return None
    shown = list(table.get("turns") or [])
    if turn is None:
        return shown if table["awaited"] == awaited else None
    if shown and shown[-1] == turn:
        return shown
    return shown + [turn] if len(shown) < TURNS_PER_TABLE else None


def _kept_pictures(bot: "ReadyRoom", table: dict, drawn: list[tuple[str, bytes]],
                   same_turn: bool) -> list[discord.Attachment]:
    """The table message's pictures that stay: the board unless a new one was drawn, and the
    dice of this turn unless rolled again (a new turn drops the old dice)."""
    fresh = {name for name, _ in drawn}
    return [discord.Attachment(data=data, state=bot._connection) for name, data in (table.get("files") or {}).items()
            if name not in fresh and (name != "dice.png" or same_turn)]


COMPUTER_MOVES = 5000  # a computer-only game ends well within this many moves


async def computers_play(bot: "ReadyRoom", game_id: int) -> None:
    """Play the computer players' moves at once, each shown on the table like a player's."""
    for _ in range(COMPUTER_MOVES):
        try:
            update = await bot.service.computer_turn(game_id)
        except ServiceError as refused:  # a player moved first (a shared decision): they are awaited again
            log.info("computer move in game %s not applied: %s", game_id, refused.message)
            return
        if update is None:
            return
        await publish(bot, update, COMPUTER_USER_BASE)


POST_TRIES = 2  # tries in one place before falling back to the next


async def _post(bot: "ReadyRoom", info: GameInfo, content: str, drawn: list[tuple[str, bytes]],
                view: Optional[discord.ui.View], mentions: discord.AllowedMentions):
    """(message, channel id) of a new table message: in the game's thread, tried again on a
    passing failure, else in its channel; (None, None) when neither takes it."""
    places = list(dict.fromkeys(p for p in (info.thread_id, info.channel_id) if p))
    for place in places:
        note = "" if place == places[0] else "(The game's thread could not be reached; the table is here.)\n"
        for _ in range(POST_TRIES):
            try:
                kwargs = {"view": view} if view is not None else {}
                message = await bot.get_partial_messageable(place).send(
                    clip(note + content), files=as_files(drawn), allowed_mentions=mentions, **kwargs)
                return message, place
            except (discord.Forbidden, discord.NotFound) as error:
                log.warning("game %s: no table message in %s: %s", info.id, place, error)
                break
            except (discord.HTTPException, OSError, asyncio.TimeoutError) as error:
                log.warning("game %s: table message in %s failed (%s)", info.id, place, error)
    return None, None


async def deliver_private(bot: "ReadyRoom", update: Update, skip: Optional[int] = None) -> None:
    """Private lines of players other than `skip` go by DM to those who opted in."""
    for seat, lines in update.private.items():
        user_id = update.players.get(seat)
        if user_id is None or user_id == skip or not await bot.service.user_setting(user_id, "dm"):
            continue
        await dm(bot, user_id, f"Game #{update.game_id}: " + "\n".join(lines))


async def dm(bot: "ReadyRoom", user_id: int, text: str) -> None:
    """A direct message; a user who refuses DMs is skipped."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(clip(text), allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        log.info("no DM to %s: %s", user_id, error)


async def act(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int, version: int,
              command: str) -> Optional[Update]:
    """Submit a command for the interaction's user (already deferred) and present the result.

    A refusal is explained privately and changes nothing.
    """
    user = interaction.user.id
    try:
        update = await bot.service.submit(game_id, user, command, version)
    except ServiceError as refused:
        await refuse(interaction, refused)
        return None
    bot.last_acted[(game_id, user)] = bot.now()
    try:
        posted = await publish(bot, update, user) if update.public or update.images else True
    except Exception:  # the move is stored whatever happens to its presentation
        log.exception("game %s: the table could not be updated", game_id)
        posted = False
    mine = update.private.get(next((s for s, u in update.players.items() if u == user), ""), [])
    done = [f"Done: {update.said or command}"] + mine
    if not posted:
        waiting = ", ".join(t.name for t in update.awaited) if update.status == "active" else ""
        done.append("Your move is stored, but Discord would not take the table message, so nobody was "
                    "told in the game's thread" + (f": please let {waiting} know it is their move." if waiting else "."))
    info = await bot.service.get(game_id)  # the computer's reply, played meanwhile, may have ended the game
    if info.status != "active":
        await interaction.edit_original_response(content=clip("\n".join(done + outcome(info))), view=None)
        return update
    take_back = update.version if update.can_take_back else None
    if any(t.user_id == user for t in update.awaited):
        await show_panel(bot, interaction, game_id, note="\n".join(done), take_back=take_back,  # it follows you
                         pictures=await board_not_shown(bot, update))
    else:
        view = discord.ui.View(timeout=None)
        if take_back is not None:
            view.add_item(buttons.TakeBackAsk(game_id, take_back))
        ahead = await bot.service.panel(game_id, user)  # your part is done: reactions may be passed ahead now (R75)
        for n, (label, _) in enumerate(ahead.standing[:panel.PER_ROW]):
            view.add_item(buttons.StandingButton(game_id, ahead.version, n, label[:panel.LABEL], row=1))
        await interaction.edit_original_response(content=clip("\n".join(done)), view=view if view.children else None)
    return update


async def board_not_shown(bot: "ReadyRoom", update: Update) -> list[tuple[str, bytes]]:
    """The board picture, when the table's last upload is older than the board (the actor
    went on while nobody else followed live): for the actor's panel. [] otherwise."""
    info = await bot.service.get(update.game_id)
    view = await bot.service.view(update.game_id)
    table = await bot.service.guild_setting(info.guild_id or 0, table_key(info.id)) or {}
    if "characters" not in view or board_key(view) == table.get("board"):
        return []
    return await drawings(bot, update.game_id, update.events, ["board"], UPLOAD_LIMIT, view, waiting=False)


async def ask_take_back(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """Post the actor's request to take back their last action, for the others to answer."""
    bot = interaction.client
    try:
        info = await bot.service.get(game_id)
        moments = await bot.service.history(game_id)
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    last = moments[-1] if moments else None
    mine = seat_of(info, interaction.user.id)
    if info.version != version or last is None or last.seat != mine:
        await reply(interaction, "The game moved on: that action can no longer be taken back.")
        return
    others = [s.user_id for s in info.seats if s.user_id != interaction.user.id]
    view = discord.ui.View(timeout=None)
    view.add_item(buttons.TakeBackAnswer(game_id, version, "yes"))
    view.add_item(buttons.TakeBackAnswer(game_id, version, "no"))
    asked = ", ".join(f"<@{u}>" for u in others)
    what = "; ".join(last.lines) or "their last action"
    await bot.get_partial_messageable(info.thread_id or info.channel_id).send(
        clip(f"{interaction.user.display_name} asks to take back: {what}.\n{asked}, do you agree?"), view=view,
        allowed_mentions=discord.AllowedMentions(everyone=False, roles=False,
                                                 users=[discord.Object(u) for u in others]))
    await reply(interaction, "Asked: the others may agree or refuse in the game's thread.")


async def answer_take_back(interaction: discord.Interaction, game_id: int, version: int, agree: bool) -> None:
    """Another player's answer to a take-back request (the request message is deferred)."""
    bot = interaction.client
    try:
        info = await bot.service.get(game_id)
        if seat_of(info, interaction.user.id) is None:
            raise NotAPlayer("Only the game's players answer a take-back.")
        update = await bot.service.take_back(game_id, interaction.user.id, version) if agree else None
    except ServiceError as refused:
        await refuse(interaction, refused)
        return
    who = interaction.user.display_name
    await interaction.message.edit(
        content=f"{interaction.message.content}\n{who} {'agreed: taken back' if agree else 'refused: the action stands'}.",
        view=None, allowed_mentions=NO_MENTIONS)
    if update is not None:
        await publish(bot, update, interaction.user.id)


def panel_text(shown: Panel, note: str = "", after: str = "") -> str:
    """The private panel's words: what just happened (if anything), the question, the hand,
    then `after`. A long note is cut, never the question or the hand."""
    lines = [f"**{shown.question}**"] if shown.question else []
    if shown.hand is not None:
        lines.append("Your hand: " + (", ".join(shown.hand) or "empty"))
    if after:
        lines.append(after)
    kept = "\n".join(lines)
    room = MAX_CONTENT - len(kept) - 1
    if note and room > len("...") + 20:
        return clip(note, room) + ("\n" + kept if kept else "")
    return kept


def panel_view(game_id: int, shown: Panel, layout: panel.Layout, group: int = -1, page: int = 0) -> discord.ui.View:
    """The components of one panel page (all dynamic, so they work after a restart).
    Options that roll dice carry their exact odds as their description."""
    view = discord.ui.View(timeout=None)
    commands, labels, version = shown.commands, shown.labels, shown.version
    all_groups = panel.groups(commands)
    row = 0
    for n, (placeholder, indices) in enumerate(layout.selects):
        code_key = panel.group_key(commands[indices[0]])
        key = readable(code_key, shown.names)
        options = [discord.SelectOption(label=panel.label(labels[i], key), value=str(i),
                                        description=shown.odds.get(i, "")[:panel.DESCRIPTION] or None)
                   for i in indices]
        placeholder = placeholder.replace(code_key, key, 1)
        view.add_item(buttons.CommandPick(game_id, version, n, placeholder[:150], options, row=row))
        row += 1
    for n in range(0, len(layout.drill), panel.MAX_OPTIONS):
        chunk = layout.drill[n:n + panel.MAX_OPTIONS]
        options = [discord.SelectOption(label=readable(all_groups[g].key, shown.names)[:panel.LABEL],
                                        value=str(g), description=f"{len(all_groups[g].indices)} choices")
                   for g in chunk]
        view.add_item(buttons.OpenGroup(game_id, version, n, options, row=row))
        row += 1
    if layout.cards is not None:
        verb, cards = layout.cards
        options = [discord.SelectOption(label=readable(card, shown.names)[:panel.LABEL], value=str(i))
                   for i, card in enumerate(cards)]
        view.add_item(buttons.CardPick(game_id, version, verb, options, row=row))
        row += 1
    for n, index in enumerate(layout.buttons):
        view.add_item(buttons.CommandButton(game_id, version, index, labels[index][:panel.LABEL],
                                            row=row + n // panel.PER_ROW))
    row += -(-len(layout.buttons) // panel.PER_ROW)
    if group < 0 and shown.standing and layout.rows < panel.MAX_ROWS:
        for n, (label, _) in enumerate(shown.standing[:panel.PER_ROW]):
            view.add_item(buttons.StandingButton(game_id, version, n, label[:panel.LABEL], row=row))
        row += 1
    if layout.back:
        view.add_item(buttons.PageButton(game_id, version, -1, 0, "Back", row=row))
    if layout.next_page is not None:
        view.add_item(buttons.PageButton(game_id, version, group, layout.next_page, "More", row=row))
    return view


def catch_up_text(lines: list[str]) -> str:
    """"Since your last move": the newest lines of what the others did, a few at most."""
    if not lines:
        return ""
    shown = lines[-CATCH_UP_LINES:]
    more = f" ({len(lines) - len(shown)} earlier in /game log)" if len(lines) > len(shown) else ""
    return "\n".join([f"Since your last move{more}:"] + [f"• {line}" for line in shown])


async def show_panel(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int,
                     group: int = -1, page: int = 0, version: Optional[int] = None, note: str = "",
                     catch_up: bool = False, take_back: Optional[int] = None,
                     pictures: Optional[list[tuple[str, bytes]]] = None) -> None:
    """Show (or turn to a page of) the user's private panel; the interaction is deferred.

    With `version`, a panel made for an older version of the game is refused. `note`
    (what the user just did) goes above the question; with `catch_up`, a player back
    after a while first reads what happened since their last action. `pictures` replace
    the panel's own (a board the table does not show yet).
    """
    user = interaction.user.id
    try:
        if catch_up:
            note = catch_up_text(await bot.service.catch_up(game_id, user)) or note
        shown = await bot.service.panel(game_id, user)
        info = await bot.service.get(game_id) if not shown.commands else None
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    if version is not None and version != shown.version:
        await reply(interaction, "This panel is out of date; press **Your move** again.")
        return
    if info is not None:
        waiting = ", ".join(t.name for t in info.awaited) or "nobody"
        await reply(interaction, f"It is not your decision; waiting for {waiting}.")
        return
    if group >= len(panel.groups(shown.commands)):
        await reply(interaction, "That choice is not on your panel; press **Your move** again.")
        return
    layout = panel.main_page(shown.commands) if group < 0 else panel.group_page(shown.commands, group, page)
    choose = f"Choose: {readable(panel.groups(shown.commands)[group].key, shown.names)} ..." if group >= 0 else ""
    text = panel_text(shown, note, choose)
    view = panel_view(game_id, shown, layout, group, page)
    if take_back is not None and layout.rows + bool(shown.standing) < panel.MAX_ROWS:
        view.add_item(buttons.TakeBackAsk(game_id, take_back, row=panel.MAX_ROWS - 1))
    if shown.window:  # when to be asked at all (P23), where the question comes up, if a row is free
        try:
            view.add_item(buttons.ReactionPick(await bot.service.reaction_preference(user)))
        except ValueError:  # discord.py: no row left for a select
            pass
    files = {} if pictures is None else {"attachments": as_files(pictures)}
    await interaction.edit_original_response(content=clip(text or "Your move:"), view=view, **files)


# ---- the lobby ---------------------------------------------------------------------------

SIDES = {
    "federation": dict(affiliation="federation", team="federation-away-team", deck="federation-starter"),
    "borg": dict(affiliation="borg", team="borg-away-team", deck="borg-starter"),
}


def other_side(side: str) -> str:
    """The side left for the second player."""
    return next(s for s in SIDES if s != side)


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
        options = side_options(pack, side)
        info = await service.join(game_id, interaction.user.id, interaction.user.display_name, **options)
    except ServiceError as refused:
        await reply(interaction, refused.message)
        return
    await interaction.message.edit(content=lobby_text(info), view=lobby_view(info, 0, side),
                                   allowed_mentions=NO_MENTIONS)
    await interaction.edit_original_response(content=team_text(pack, options),
                                             view=team_view(game_id, pack, options))


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
    await publish(bot, update, interaction.user.id)  # the player who pressed Start is not pinged


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


# ---- the away team, chosen privately ---------------------------------------------------

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


def link(guild_id: Optional[int], channel_id: Optional[int]) -> str:
    """A link to a channel or thread."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"


def my_games(waiting: list) -> str:
    """The "your turns" list: each game waiting on the user, with a link and how long."""
    if not waiting:
        return "No game is waiting for you."
    lines = ["Games waiting for you:"]
    for w in waiting:
        due = f", answer by <t:{int(w.deadline)}:R>" if w.deadline else ""
        lines.append(f"• Game #{w.game_id} ({w.seat}) since <t:{int(w.since)}:R>{due}: "
                     f"{link(w.guild_id, w.thread_id or w.channel_id)}")
    return "\n".join(lines)
