"""The table message: one message per turn pair in the game's thread, edited as the game goes
(what happened, the board and dice, whose move it is), the pings beside it, the private lines
by DM, and the computer's moves played and shown the same way."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Collection, Iterable, Optional

import discord

from cogs import buttons, pings
from cogs.pictures import as_files, drawings, upload_limit
from cogs.replies import MAX_CONTENT, NO_MENTIONS, clip, final_score, names_of, reply
from engine.service import GameInfo, ServiceError, Update, is_computer
from engine.service.rolls import roll_events
from engine.service.service import COMPUTER_USER_BASE, why_key
from images import pictures as board_pictures
from images.board import activation_line
from images.tokens import short_labels

if TYPE_CHECKING:
    from bot import ReadyRoom

log = logging.getLogger("ready_room.table")
TABLE_LINES = 40  # summary lines a table message remembers within one decision
TURNS_PER_TABLE = 2  # turns one table message shows (a turn pair: a player's activation and the answer to it)


def to_ping(update: Update, actor_id: Optional[int], already: Iterable[int] = ()) -> list[int]:
    """Users to mention: those the update calls (every awaited player, but only some of the
    teammates a team decision is put to: rulings P51, P52), except the player who just acted
    and those `already` told of their decision before this update: one ping per decision,
    also when several players answer the same decision one after the other."""
    skip = {actor_id, *already, *uncalled(update)}
    return list(dict.fromkeys(t.user_id for t in update.awaited if t.user_id not in skip and not is_computer(t.user_id)))


def uncalled(update: Update) -> list[int]:
    """The awaited people the update does not call: teammates who may answer a team decision
    but are left to the teammate called (P51, P52)."""
    if update.called is None:
        return []
    return [t.user_id for t in update.awaited if t.seat not in update.called and not is_computer(t.user_id)]


def called(update: Update) -> list[int]:
    """The awaited people the update calls."""
    left = set(uncalled(update))
    return [t.user_id for t in update.awaited if t.user_id not in left and not is_computer(t.user_id)]


def told(table: Optional[dict]) -> set[int]:
    """The users the table message already told of their decision: those it awaited, but
    not those it left to a teammate (so a decision that comes to them later calls them)."""
    return set(table["awaited"]) - set(table.get("uncalled") or ()) if table else set()


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
        tail.append(f"Waiting for {who}." + _either(update) + (f" ({doing})" if doing else ""))
    body = [f"• {line}" for line in lines]
    while body and len("\n".join(head + body + tail)) > MAX_CONTENT:
        body.pop(0)
    return clip("\n".join(head + body + tail))


def _either(update: Update) -> str:
    """" Either may answer; Cy is called." when a team decision calls only some of its
    teammates (P51, P52), else nothing."""
    if not uncalled(update):
        return ""
    names = [t.name for t in update.awaited if t.seat in update.called]
    return f" Either may answer; {' and '.join(names)} {'is' if len(names) == 1 else 'are'} called."


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


async def older_table_message(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int) -> bool:
    """Whether the interaction comes from a message posted before the game's current table
    message, in the same place (ids grow with time): an older table message or reminder,
    which loses its buttons when pressed (ruling P30)."""
    message = interaction.message
    if message is None or interaction.guild_id is None:
        return False
    table = await bot.service.guild_setting(interaction.guild_id, table_key(game_id)) or {}
    return "message" in table and message.id < table["message"] and interaction.channel_id == table.get("channel")


async def forget_table(bot: "ReadyRoom", info: GameInfo) -> None:
    """Drop the record of a finished game's table message."""
    await bot.service.set_guild_setting(info.guild_id or 0, table_key(info.id), None)


async def publish(bot: "ReadyRoom", update: Update, actor_id: Optional[int], after: Optional[int] = None,
                  afresh: bool = False) -> bool:
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
    stored; the caller tells the actor). `after`, when the caller knows it, is the game's
    version before this update: a table record read ahead (cogs.private_panel.act) that was
    written for another version is read again, so a table shown meanwhile is not overlooked.
    `afresh`: a fresh table message whatever the record says (it is behind the game, P60).
    """
    info = await bot.service.get(update.game_id)
    view = await bot.service.view(update.game_id)
    awaited = sorted({t.user_id for t in update.awaited}) if update.status == "active" else []
    table = None if afresh else await bot.service.guild_setting(info.guild_id or 0, table_key(info.id))
    if table is not None and after is not None and table.get("version") != after:
        table = await bot.service.guild_setting(info.guild_id or 0, table_key(info.id), fresh=True)
    ping = to_ping(update, actor_id, told(table))
    calls = await pings.calls_awaited(bot, update)
    ping = await pings.hold_for_calls(bot, update, ping, calls)
    away = await pings.availability(bot, update, ping)
    ping = await pings.hold_pings(bot, update, ping, away)
    standby = [u for u in uncalled(update) if u != actor_id and u not in told(table)]
    if standby and all(pings.unreachable(u, away, calls) for u in called(update)):  # called in their place
        ping += await pings.hold_pings(bot, update, await pings.hold_for_calls(bot, update, standby, calls), away)
    standby = [u for u in uncalled(update) if u not in ping]
    ping = await pings.wait_for_live(bot, update, ping)
    mentions = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in ping])
    away = pings.away_notes(update, away)
    for user_id, note in pings.call_notes(calls).items():
        away[user_id] = f"{away[user_id]}; {note}" if user_id in away else note
    drawn_here = "characters" in view  # the activation line and the panel's board are Away Missions'
    doing = activation_line(view, short_labels(view["characters"])) if drawn_here else ""
    keys = board_pictures.keys(info.ruleset, view, update.events) if "board" in update.images else {}
    roll = await roll_events(bot.service, update.game_id, update.events) if "dice" in update.images else []
    dice = board_pictures.dice_keys(info.ruleset, view, roll)
    limit = upload_limit(bot, info.guild_id)
    message, place = None, None
    shown = dict(table.get("shown") or {}) if table else {}  # file -> key of the one last uploaded to the thread
    turns = None if ping else _turns_shown(table, awaited, update.turn)  # a hand-over is a fresh message
    if turns is not None:
        lines = (table["lines"] + update.public)[-TABLE_LINES:]
        place = table.get("channel") or info.thread_id or info.channel_id
        # the actor going on with nobody else following live sees the new board on their panel (act)
        for_actor = drawn_here and actor_id in awaited and not pings.watched(bot, update, actor_id)
        unchanged = set(keys) if for_actor else {name for name, key in keys.items() if shown.get(name) == key}
        same_turn = turns == table.get("turns")
        unchanged |= _dice_shown(table, dice, shown, same_turn)
        drawn = await drawings(bot, update.game_id, update.events, update.images, limit, view, waiting=False,
                               unchanged=unchanged, roll=roll)
        gone = set(board_pictures.BOARD_FILES) - set(keys) if keys else set()  # the surface once all are aboard
        kept = _kept_pictures(bot, table, drawn, same_turn=same_turn, gone=gone)
        pictures = {} if not drawn and len(kept) == len(table.get("files") or {}) else {
            "attachments": kept + as_files(drawn)}
        try:
            message = await bot.get_partial_messageable(place).get_partial_message(table["message"]).edit(
                content=summary(update, info, (), lines, doing, away), view=turn_view(update),
                allowed_mentions=NO_MENTIONS, **pictures)
        except discord.NotFound:
            log.info("table message of game %s is gone; posting a new one", info.id)
            shown = {}
        except discord.HTTPException as error:
            log.warning("table message of game %s could not be edited (%s); posting a new one", info.id, error)
            shown = {}
    if message is None:
        turns = [update.turn] if update.turn is not None else []
        lines = update.public[-TABLE_LINES:]
        # mid-activation (a window, a damage choice, back to the active player) with nobody else following
        # live, the board waits for the activation's end: whoever is called sees it on their panel (P29)
        waits = drawn_here and bool(view.get("activation")) and update.status == "active" \
            and not pings.watched(bot, update, actor_id)
        same_turn = update.turn is not None and update.turn == (table or {}).get("turn")
        above = {name for name, key in keys.items() if shown.get(name) == key} | \
            _dice_shown(table, dice, shown, same_turn) if update.status == "active" else set()
        drawn = await drawings(bot, update.game_id, update.events,
                               [w for w in update.images if w != "board" or not waits], limit, view,
                               waiting=False, unchanged=above, roll=roll)
        message, place = await _post(bot, info, summary(update, info, ping, lines, doing, away), drawn,
                                     turn_view(update) if awaited else None, mentions)
    shown = {name: key for name, key in shown.items() if not keys or name in keys or name in board_pictures.DICE_FILES}
    fingerprints = {**keys, **dice}
    shown.update((name, fingerprints[name]) for name, _ in drawn if name in fingerprints)
    if message is not None and awaited:
        files = {a.filename: a.to_dict() for a in getattr(message, "attachments", [])}
        # a dice board counts as shown only while the table message carries it
        shown = {name: key for name, key in shown.items() if name not in board_pictures.DICE_FILES or name in files}
        await bot.service.set_guild_setting(info.guild_id or 0, table_key(info.id), {
            "message": message.id, "channel": place, "awaited": awaited, "lines": lines, "turn": update.turn,
            "turns": turns, "files": files, "shown": shown, "version": update.version,
            "uncalled": standby})
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


def _dice_shown(table: Optional[dict], dice: dict[str, str], shown: dict[str, str], same_turn: bool) -> set[str]:
    """The dice boards the table message already carries as they would be drawn now (their
    fingerprints `dice` as `shown`), within one turn only: a new turn drops the dice of the
    turn before (P37), so its own roll is shown even when it looks the same (P56)."""
    files = (table or {}).get("files") or {}
    return {name for name, key in dice.items() if same_turn and name in files and shown.get(name) == key}


def _kept_pictures(bot: "ReadyRoom", table: dict, drawn: list[tuple[str, bytes]],
                   same_turn: bool, gone: Collection[str] = ()) -> list[discord.Attachment]:
    """The table message's pictures that stay, as the attachments Discord already has (not
    uploaded again): the boards unless drawn anew or `gone`, and the dice of this turn
    unless rolled again (a new turn drops the old dice)."""
    fresh = {name for name, _ in drawn}
    return [discord.Attachment(data=data, state=bot._connection) for name, data in (table.get("files") or {}).items()
            if name not in fresh and name not in gone and (name not in ("dice.png", "crew-dice.png") or same_turn)]


COMPUTER_MOVES = 5000  # a computer-only game ends well within this many moves


async def computers_play(bot: "ReadyRoom", game_id: int, missed: Optional[list[str]] = None) -> None:
    """Play the computer players' moves at once, each shown on the table like a player's.
    `missed`, when the table message is behind the game (P60): the lines of the moves it
    never showed, put before the first computer move's on a fresh table message."""
    for _ in range(COMPUTER_MOVES):
        try:
            update = await bot.service.computer_turn(game_id)
        except ServiceError as refused:  # a player moved first (a shared decision): they are awaited again
            log.info("computer move in game %s not applied: %s", game_id, refused.message)
            return
        if update is None:
            return
        update.public[:0] = missed or []
        await publish(bot, update, COMPUTER_USER_BASE, afresh=missed is not None)
        missed = None


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
    """Private lines of players other than `skip` go by DM to those who opted in, unless
    they chose calls at most every N hours (ruling P27: as for a player without DMs, their
    panel shows where those lines left them, their hand as it is now)."""
    for seat, lines in update.private.items():
        user_id = update.players.get(seat)
        if user_id is None or user_id == skip or not await bot.service.user_setting(user_id, "dm") \
                or await pings.calls_of(bot).calls(user_id):
            continue
        await dm(bot, user_id, f"Game #{update.game_id}: " + "\n".join(lines))


async def dm(bot: "ReadyRoom", user_id: int, text: str) -> None:
    """A direct message; a user who refuses DMs is skipped."""
    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await user.send(clip(text), allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        log.info("no DM to %s: %s", user_id, error)
