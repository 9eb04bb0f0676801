"""A player's private panel: the question and the legal choices as buttons and selects; acting
from it (the move shown on the table, the panel following the player); taking a move back."""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Optional

import discord

from cogs import buttons, panel, table_message
from cogs import pictures as picture_files
from cogs.replies import MAX_CONTENT, NO_MENTIONS, clip, outcome, refuse, reply, seat_of, unlisten
from engine.service import NotAPlayer, Panel, ServiceError, Update
from engine.service.text import readable
from images.board import board_key

if TYPE_CHECKING:
    from bot import ReadyRoom

log = logging.getLogger("ready_room.panel")
CATCH_UP_LINES = 8  # lines of "since your last move" on a panel


async def act(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int, version: int,
              command: str) -> Optional[Update]:
    """Submit a command for the interaction's user (already deferred) and present the result.

    A refusal is explained privately and changes nothing. The settings the move reads (the
    players' settings and vacations, the table record) are read once, in one statement. With
    metrics on, the action and its time to the answer are counted (done, refused, or failed by
    an exception).
    """
    began, outcome = time.perf_counter(), "failed"
    try:
        with bot.service.reading_once():
            update = await _act(bot, interaction, game_id, version, command)
        outcome = "refused" if update is None else "done"
        return update
    finally:
        if bot.metrics is not None:
            bot.metrics.acted(interaction.guild_id, outcome, time.perf_counter() - began)


async def _act(bot: "ReadyRoom", interaction: discord.Interaction, game_id: int, version: int,
               command: str) -> Optional[Update]:
    user = interaction.user.id
    try:
        await bot.service.read_ahead(game_id, (table_message.table_key(game_id),))
        update = await bot.service.submit(game_id, user, command, version)
    except ServiceError as refused:
        await refuse(interaction, refused)
        return None
    bot.last_acted[(game_id, user)] = bot.now()
    try:
        posted = await table_message.publish(bot, update, user, after=version) if update.public or update.images else True
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
                         pictures=await board_not_shown(bot, game_id, update.events))
    else:
        view = discord.ui.View(timeout=None)
        if take_back is not None:
            view.add_item(buttons.TakeBackAsk(game_id, take_back))
        ahead = await bot.service.panel(game_id, user)  # your part is done: reactions may be passed ahead now (R75)
        for n, (label, _) in enumerate(ahead.standing[:panel.PER_ROW]):
            view.add_item(buttons.StandingButton(game_id, ahead.version, n, label[:panel.LABEL], row=1))
        await interaction.edit_original_response(content=clip("\n".join(done)), view=view if view.children else None)
    return update


async def board_not_shown(bot: "ReadyRoom", game_id: int, events: list[dict]) -> list[tuple[str, bytes]]:
    """The board picture, when the table's last upload is older than the board (the actor
    went on while nobody else followed live, or an activation is under way, P29): for a
    player's panel. [] otherwise."""
    info = await bot.service.get(game_id)
    view = await bot.service.view(game_id)
    table = await bot.service.guild_setting(info.guild_id or 0, table_message.table_key(info.id)) or {}
    if "characters" not in view or (table.get("shown") or {}).get("board.png") == board_key(view):
        return []
    return await picture_files.drawings(bot, game_id, events, ["board"], picture_files.UPLOAD_LIMIT, view,
                                        waiting=False)


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
        await table_message.publish(bot, update, interaction.user.id)


def panel_text(shown: Panel, note: str = "", after: str = "") -> str:
    """The private panel's words: what just happened (if anything), the question, the hand
    (and a teammate's, R53), then `after`. A long note is cut, never the question or the hands."""
    lines = [f"**{shown.question}**"] if shown.question else []
    if shown.hand is not None:
        lines.append("Your hand: " + (", ".join(shown.hand) or "empty"))
    lines += [f"{name}'s hand: " + (", ".join(cards) or "empty") for name, cards in shown.teammates.items()]
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
    # when to be asked at all (P23), on the first page where the question comes up, if a row is
    # free (a page of a group of choices reads nothing for it: ruling P34)
    if shown.window and group < 0:
        try:
            view.add_item(buttons.ReactionPick(await bot.service.reaction_preference(user)))
        except ValueError:  # discord.py: no row left for a select
            pass
    if catch_up and pictures is None:
        pictures = await board_not_shown(bot, game_id, []) or None
    if interaction.response.type is discord.InteractionResponseType.message_update:
        # the response took an older table message's buttons away (P30): the panel follows it
        files = {} if pictures is None else {"files": picture_files.as_files(pictures)}
        await interaction.followup.send(clip(text or "Your move:"), view=view, ephemeral=True, **files)
        unlisten(view)
    else:
        files = {} if pictures is None else {"attachments": picture_files.as_files(pictures)}
        await interaction.edit_original_response(content=clip(text or "Your move:"), view=view, **files)
