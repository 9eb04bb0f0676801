"""Who is mentioned now, and who later: the ping policy shared by the table and the reminders.

A player in quiet hours or on vacation is not pinged (a reminder waits for the end of it);
a player who acted in the game moments ago is watching it live (a reminder waits a short
grace and goes away if they answer first); a player called at most every N hours is not
pinged either (their next call is booked). Also the players' desk that keeps seals,
ratings and availability.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from engine.service import Update, is_computer
from engine.service.calls import CallDesk, Calls
from engine.service.players import Away, PlayerDesk

if TYPE_CHECKING:
    from bot import ReadyRoom

LIVE_GRACE = 120.0  # seconds: a player who acted this recently is pinged only if they have not answered by then


def desk_of(bot: "ReadyRoom") -> PlayerDesk:
    """The bot's players' desk over its game database (made on first use)."""
    desk = getattr(bot, "_player_desk", None)
    if desk is None or desk.db is not bot.service.db:
        desk = PlayerDesk(bot.service.db, **({"clock": bot.clock} if bot.clock else {}))
        bot._player_desk = desk
    return desk


def calls_of(bot: "ReadyRoom") -> CallDesk:
    """The bot's desk of calls at most every N hours (made on first use)."""
    desk = getattr(bot, "_call_desk", None)
    if desk is None or desk.store._db is not bot.service.db:
        desk = CallDesk(bot.service.db, **({"clock": bot.clock} if bot.clock else {}))
        bot._call_desk = desk
    return desk


async def calls_awaited(bot: "ReadyRoom", update: Update) -> dict[int, Calls]:
    """The calls of the awaited people who chose them, read once for one table update."""
    desk, found = calls_of(bot), {}
    for turn in update.awaited if update.status == "active" else []:
        calls = None if is_computer(turn.user_id) else await desk.calls(turn.user_id)
        if calls is not None:
            found[turn.user_id] = calls
    return found


async def hold_for_calls(bot: "ReadyRoom", update: Update, ping: list[int], calls: dict[int, Calls]) -> list[int]:
    """The users of `ping` to mention now. A player called at most every N hours (`calls`,
    from `calls_awaited`) is not mentioned: the call listing this game is booked for the
    first moment their window allows, their deadline counts from it (rulings P24, P25),
    and the table says so."""
    turns = {t.user_id: t for t in update.awaited}
    for user_id in (u for u in ping if u in calls):
        at = await calls_of(bot).book(update.game_id, turns[user_id].seat, calls[user_id])
        update.public.append(f"{turns[user_id].name} is called at most {calls[user_id].words(public=True)}: "
                             f"not pinged now; the call listing this game goes out <t:{int(at)}:R>, "
                             "and their time limit counts from it.")
    return [u for u in ping if u not in calls]


def call_notes(calls: dict[int, Calls]) -> dict[int, str]:
    """User -> "called every 8 h", for each awaited player who chose calls (`calls`, from
    `calls_awaited`; ruling P24)."""
    return {user_id: f"called {chosen.words(public=True)}" for user_id, chosen in calls.items()}


async def seal_line(bot: "ReadyRoom", game_id: int) -> str:
    """The line that shows a game's dice seal at its start."""
    digest = await desk_of(bot).seal(game_id)
    return (f"Dice seal: `{digest}`\n(SHA-256 of this game's secret dice seed and a salt; both are revealed "
            "when the game ends, so anyone can check every roll.)")


async def availability(bot: "ReadyRoom", update: Update, ping: list[int]) -> dict[int, Away]:
    """The quiet hours and vacations of the people to ping and those awaited, read once for
    one table update."""
    desk = desk_of(bot)
    people = [u for u in (*ping, *(t.user_id for t in update.awaited)) if not is_computer(u)]
    return {user_id: await desk.away(user_id) for user_id in dict.fromkeys(people)}


async def hold_pings(bot: "ReadyRoom", update: Update, ping: list[int], away: dict[int, Away]) -> list[int]:
    """The users of `ping` to mention now. A player in quiet hours or on vacation (`away`,
    from `availability`) is not pinged: a reminder waits for the end of it instead (while
    the game still waits on them), and the table says so."""
    now = []
    turns = {t.user_id: t for t in update.awaited}
    for user_id in ping:
        until = away[user_id].held_until if user_id in away else None
        if until is None:
            now.append(user_id)
        elif user_id in turns:
            await desk_of(bot).remind_later(update.game_id, turns[user_id].seat, until)
            update.public.append(f"{turns[user_id].name} is {away[user_id].why} until <t:{int(until)}:f>: "
                                 "not pinged now, reminded then.")
    return now


def unreachable(user_id: int, away: dict[int, Away], calls: dict[int, Calls]) -> bool:
    """Whether a ping to the user is held now: they chose calls at most every N hours, or
    are in quiet hours or on vacation (`away` and `calls` as read for one table update)."""
    return user_id in calls or (user_id in away and away[user_id].held_until is not None)


async def wait_for_live(bot: "ReadyRoom", update: Update, ping: list[int]) -> list[int]:
    """The users of `ping` to mention now. A player who acted in this game less than
    LIVE_GRACE ago (in this process) is playing live and watching the thread: instead of a
    ping now, a reminder at the end of the grace, which goes away if they answer first."""
    now, turns = bot.now(), {t.user_id: t for t in update.awaited}
    pinged = []
    for user_id in ping:
        if user_id in turns and now - bot.last_acted.get((update.game_id, user_id), -LIVE_GRACE) < LIVE_GRACE:
            await desk_of(bot).remind_later(update.game_id, turns[user_id].seat, now + LIVE_GRACE)
        else:
            pinged.append(user_id)
    return pinged


def watched(bot: "ReadyRoom", update: Update, actor_id: Optional[int]) -> bool:
    """Whether a player other than the actor acted in this game less than LIVE_GRACE ago
    (in this process): somebody is following the table live."""
    now = bot.now()
    return any(now - bot.last_acted.get((update.game_id, user_id), -LIVE_GRACE) < LIVE_GRACE
               for user_id in update.players.values() if user_id != actor_id)


def away_notes(update: Update, away: dict[int, Away]) -> dict[int, str]:
    """User -> "in quiet hours until ..." or "on vacation until ...", for each awaited player
    who is away now (`away`, from `availability`): the table's waiting line says it on every
    update (ruling P9), not only when a ping was held back."""
    notes = {}
    for turn in update.awaited if update.status == "active" else []:
        until = away[turn.user_id].held_until if turn.user_id in away else None
        if until is not None:
            notes[turn.user_id] = f"{away[turn.user_id].why} until <t:{int(until)}:f>"
    return notes
