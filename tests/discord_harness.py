"""A fake Discord for tests: the real discord.py code paths, no network.

`FakeDiscord` replaces the two places where discord.py talks HTTP
(`HTTPClient.request` for REST, `AsyncWebhookAdapter.request` for interaction callbacks
and followups), answers them like Discord would, keeps every message it "sent" (so a
later click can reference it) and records every outgoing request with its JSON and
files. A body Discord would refuse (a select with the same value twice, more than 25
options, over-long labels or custom ids, too many rows: `tests/discord_limits.py`) is
refused as Discord refuses it, 400 with error 50035, and fails the test at the next
check even if the bot swallowed the error. Interactions are raw INTERACTION_CREATE payloads fed to
`bot._connection.parse_interaction_create`; `dispatch` then waits for every task
discord.py spawned. Any ERROR logged meanwhile (an exception in a command or button
callback) fails the test.

The scale benchmark (benchmarks/scale_bench.py) drives many games at once through the
same fake: a sharded bot (`shard_count`, `shard_ids`), channels of several guilds
(`add_channel`), and `answering` mode, in which `dispatch` waits only for the bot's
answer to each of its interactions, not for every task of the process. With
`record=False` the fake keeps no requests and forgets what a long run no longer needs, so
that the process's memory is the bot's: each channel keeps its KEPT messages last used
(posted, edited, clicked or read), and the newest TOKENS interactions keep their tokens.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

import aiohttp
import discord
import discord.http
import discord.webhook.async_
import yarl

from bot import Config, ReadyRoom, make_bot
from tests import discord_limits

APP_ID = 900000000000000001
GUILD_ID = 800000000000000001
CHANNEL_ID = 700000000000000001
OWNER_ID = 1000
EPHEMERAL = 64
KEPT = 4  # record=False: the messages each channel keeps, the last used
TOKENS = 10_000  # record=False: the interactions whose tokens are kept, the newest
SETTLE_SECONDS = 300  # a guard against a hang (a view left listening, say), not a timing: the
# longest wait for the tasks of one interaction (or, answering, for its answer)
BOT_USER = {"id": str(APP_ID), "username": "Ready Room", "discriminator": "0000", "avatar": None,
            "bot": True, "global_name": None}
MANAGE_GUILD = 1 << 5
EVERYONE = str((1 << 41) - 1 - MANAGE_GUILD - (1 << 3))  # most permissions, not Manage Server nor admin


def user(user_id: int, name: str) -> dict:
    """A user payload."""
    return {"id": str(user_id), "username": name, "discriminator": "0", "avatar": None, "global_name": name}


@dataclass
class Sent:
    """One request the bot made."""

    method: str
    path: str
    json: Any
    files: list[tuple[str, bytes]] = field(default_factory=list)
    ephemeral: bool = False
    message_id: Optional[int] = None
    channel_id: Optional[int] = None  # where the message it posts, edits or deletes is

    @property
    def text(self) -> str:
        """Everything textual in the request."""
        return json.dumps(self.json) if self.json is not None else ""

    @property
    def rest(self) -> bool:
        """A request that is not an interaction response (a post, edit or delete, a thread
        operation): these count against the bot's 50 requests a second."""
        return self.method != "GET" and self.path != "callback" and not self.path.startswith("/webhooks/")

    @property
    def posts(self) -> bool:
        """Whether the request created a message (a phone notices a new message, also one
        deleted later; an edit notifies nobody)."""
        if self.path == "callback":
            return (self.json or {}).get("type") in (4, 5)
        return self.method == "POST" and self.message_id is not None

    @property
    def content(self) -> str:
        """The text of the message the request posts or edits."""
        body = (self.json or {}).get("data") or {} if self.path == "callback" else self.json or {}
        return body.get("content") or ""

    def mentioned(self) -> set[int]:
        """Users this request notifies by a mention: those named in a posted public message
        that its allowed_mentions lets through (Discord's default, when it has none, lets
        every mention through)."""
        if not self.posts or self.ephemeral:
            return set()
        named = {int(u) for u in re.findall(r"<@!?(\d+)>", self.content)}
        body = (self.json or {}).get("data") or {} if self.path == "callback" else self.json or {}
        allowed = body.get("allowed_mentions")
        if allowed is None or "users" in allowed.get("parse", []):
            return named
        return named & {int(u) for u in allowed.get("users") or []}


@dataclass
class Tally:
    """What phones count over a stretch of requests."""

    posted: Counter  # channel -> messages posted there, those deleted later too
    pings: Counter  # user -> notifications: mentions let through in posted messages, and DMs
    pictures: Counter  # channel -> files uploaded to public messages there
    requests: int  # requests that are not interaction responses
    private_pictures: int = 0  # files uploaded to private answers (a player's panel)


@dataclass
class _Response:
    """What discord.HTTPException (and aiohttp's tracing) reads from an HTTP response."""

    status: int
    reason: str
    headers: dict = field(default_factory=dict)


class CallbackError(AssertionError):
    """Something was logged at ERROR level while handling an interaction."""


class _Errors(logging.Handler):
    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FakeDiscord:
    """Discord's HTTP side, in memory. Use as `async with FakeDiscord(monkeypatch, db) as fake`."""

    def __init__(self, monkeypatch, database: str, clock=None, *, shard_count: Optional[int] = None,
                 shard_ids: Optional[tuple[int, ...]] = None, record: bool = True,
                 metrics_port: Optional[int] = None):
        self.database, self.clock, self.metrics_port = database, clock, metrics_port
        self.shard_count, self.shard_ids = shard_count, shard_ids
        self.record = record  # keep every request in `sent` and every message (a long benchmark does not)
        self._ids = itertools.count(600000000000000001)
        self.sent: list[Sent] = []
        self.messages: dict[int, dict] = {}
        self._in: dict[int, dict[int, None]] = {}  # channel -> ids of the messages sent there, last used last
        self.deleted: list[int] = []  # ids of messages the bot deleted (recording)
        self.unknown = 0  # requests for a message or an interaction token the fake does not have
        self.channel_of: dict[int, int] = {}  # message id -> its channel, kept after a deletion
        self.channels: dict[int, dict] = {}
        self.add_channel(GUILD_ID, CHANNEL_ID)
        self.answering = False  # dispatch waits for each interaction's answer only (see answer)
        self.answers: dict[str, asyncio.Future] = {}  # interaction token -> its answer, while awaited
        self.on_answer = None  # answering: called with (payload, answer text, seconds) for each answer
        self.users: dict[int, dict] = {}
        self.thread_members: dict[int, set[int]] = {}  # private thread -> users the bot added
        self.originals: dict[str, int] = {}  # interaction token -> its original message
        self.clicked: dict[str, int] = {}  # interaction token -> the message clicked
        self.places: dict[str, int] = {}  # interaction token -> the channel it came from
        self.choices: dict[str, list[dict]] = {}  # interaction token -> autocomplete choices
        self.failures: list[list] = []  # [method, path pattern, status, times left or None]
        self.refused: list[str] = []  # requests refused as Discord refuses them (Invalid Form Body), unchecked
        self._errors = _Errors()
        self.bot: Optional[ReadyRoom] = None

        async def rest(http, route, **kwargs):
            return await self._traced(route, self._rest(http, route, **kwargs))

        async def webhook(adapter, route, session, **kwargs):
            return await self._traced(route, self._webhook(adapter, route, session, **kwargs))
        monkeypatch.setattr(discord.http.HTTPClient, "request", rest)
        monkeypatch.setattr(discord.webhook.async_.AsyncWebhookAdapter, "request", webhook)

    # ---- the bot's life -----------------------------------------------------------------

    async def __aenter__(self) -> "FakeDiscord":
        logging.getLogger().addHandler(self._errors)
        await self.boot()
        return self

    async def __aexit__(self, *exc) -> None:
        try:
            await self.shutdown()
        finally:
            logging.getLogger().removeHandler(self._errors)

    async def boot(self) -> ReadyRoom:
        """Start a bot over the database and log it in against the fake."""
        config = Config(token="fake", database=self.database, dev_guild=None, reminder_interval=0,
                        shard_count=self.shard_count, shard_ids=self.shard_ids, metrics_port=self.metrics_port,
                        metrics_host="127.0.0.1")
        self.bot = make_bot(config, clock=self.clock)
        await self.bot.__aenter__()
        await self.bot.login("fake")
        self.check()
        return self.bot

    async def shutdown(self) -> None:
        """Stop the bot (as a restart or the end of a test would)."""
        if self.bot is not None:
            await self.bot.__aexit__(None, None, None)
            self.bot = None

    def check(self) -> None:
        """Fail if anything was logged at ERROR level since the last check."""
        records, self._errors.records = self._errors.records, []
        refused, self.refused = self.refused, []
        if refused:
            raise CallbackError("Discord would refuse what the bot sent:\n" + "\n".join(refused))
        if records:
            raise CallbackError("\n".join(
                r.getMessage() + ("\n" + logging.Formatter().formatException(r.exc_info) if r.exc_info else "")
                for r in records))

    def add_channel(self, guild_id: int, channel_id: Optional[int] = None, parent_id: Optional[int] = None) -> int:
        """A text channel of a guild (or, with `parent_id`, a public thread in one); its id."""
        channel_id = channel_id or next(self._ids)
        channel = {"id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": "general", "position": 0,
                   "permission_overwrites": [], "nsfw": False, "parent_id": None, "rate_limit_per_user": 0}
        if parent_id is not None:
            channel.update(type=11, name=f"game {channel_id}", parent_id=str(parent_id), owner_id=str(APP_ID),
                           member_count=1, message_count=0, flags=0, thread_metadata={
                               "archived": False, "auto_archive_duration": 1440, "locked": False,
                               "archive_timestamp": "2026-01-01T00:00:00+00:00"})
        self.channels[channel_id] = channel
        return channel_id

    def guild(self, premium_tier: int = 0, guild_id: int = GUILD_ID) -> None:
        """Tell the bot about a server and its text channels (GUILD_CREATE), as the gateway would."""
        self.bot._connection.parse_guild_create({
            "id": str(guild_id), "name": "test", "icon": None, "owner_id": str(OWNER_ID), "roles": [],
            "emojis": [], "stickers": [], "features": [], "premium_tier": premium_tier, "member_count": 2,
            "channels": [c for c in self.channels.values() if c.get("guild_id") == str(guild_id) and c["type"] == 0],
            "threads": [], "members": [], "voice_states": [], "presences": [], "large": False, "unavailable": False})

    # ---- feeding interactions -----------------------------------------------------------

    async def run(self, *awaitables) -> list:
        """Await `awaitables` and every task they (or discord.py) spawn; then check for errors."""
        before = asyncio.all_tasks()
        results = await asyncio.gather(*awaitables)
        await self.settle(before)
        return results

    async def settle(self, before: set) -> None:
        """Wait until every task started since `before` is done."""
        while True:
            await asyncio.sleep(0)
            pending = [t for t in asyncio.all_tasks() - before if t is not asyncio.current_task() and not t.done()]
            if not pending:
                break
            _, still = await asyncio.wait(pending, timeout=SETTLE_SECONDS)
            if still:
                for task in still:
                    task.cancel()
                raise AssertionError(f"tasks still running after {SETTLE_SECONDS} s (a view left listening?): "
                                     + ", ".join(task.get_coro().__qualname__ for task in still))
        self.check()

    async def dispatch(self, *payloads: dict) -> None:
        """Deliver INTERACTION_CREATE payloads at once and wait until all is handled
        (answering: until each is answered)."""
        if self.answering:
            await asyncio.gather(*(self.answer(payload) for payload in payloads))
            return
        before = asyncio.all_tasks()
        for payload in payloads:
            self.bot._connection.parse_interaction_create(payload)
        await self.settle(before)

    async def answer(self, payload: dict) -> str:
        """Deliver one interaction and wait only for the bot's answer to its user (the
        response, or the first edit or followup after a deferral): its text. Tells
        `on_answer` how long it took. Other interactions may be under way meanwhile."""
        answered = self.answers[payload["token"]] = asyncio.get_running_loop().create_future()
        began = time.perf_counter()
        try:
            self.bot._connection.parse_interaction_create(payload)
            text = await asyncio.wait_for(answered, SETTLE_SECONDS)
        except asyncio.TimeoutError:
            raise AssertionError(f"no answer to the interaction within {SETTLE_SECONDS} s") from None
        finally:
            del self.answers[payload["token"]]
        if self.on_answer is not None:
            self.on_answer(payload, text, time.perf_counter() - began)
        return text

    def _answered(self, token: str, body: Optional[dict]) -> None:
        answered = self.answers.get(token)
        if answered is not None and not answered.done():
            answered.set_result((body or {}).get("content") or "")

    def _interaction(self, kind: int, member: dict, data: dict, channel_id: int,
                     message: Optional[dict] = None, permissions: str = EVERYONE) -> dict:
        token = f"token-{next(self._ids)}"
        channel = self.channels[channel_id]
        payload = {
            "id": str(next(self._ids)), "application_id": str(APP_ID), "type": kind, "data": data,
            "token": token, "version": 1, "channel_id": str(channel_id), "channel": channel,
            "app_permissions": EVERYONE, "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"0": channel.get("guild_id", str(GUILD_ID))},
            "attachment_size_limit": 10 << 20,
        }
        if channel["type"] == 1:
            payload["user"], payload["context"] = member, 1
        else:
            payload["guild_id"], payload["context"], payload["guild_locale"] = channel["guild_id"], 0, "en-US"
            payload["member"] = {"user": member, "roles": [], "permissions": permissions, "nick": None,
                                 "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False, "mute": False, "flags": 0}
        self.places[token] = channel_id
        if not self.record and len(self.places) > TOKENS:
            oldest = next(iter(self.places))
            for kept in (self.places, self.originals, self.clicked, self.choices):
                kept.pop(oldest, None)
        if message is not None:
            payload["message"] = message
            self.clicked[token] = int(message["id"])
        self.users[int(member["id"])] = member
        return payload

    def _command(self, path: str):
        names = path.split()
        command = self.bot.tree.get_command(names[0])
        for name in names[1:]:
            command = command.get_command(name)
        return command

    def _options(self, path: str, values: dict, focused: Optional[str] = None) -> tuple[dict, dict]:
        command = self._command(path)
        options, resolved = [], {}
        for name, value in values.items():
            parameter = command.get_parameter(name)
            option = {"name": name, "type": parameter.type.value}
            if parameter.type is discord.AppCommandOptionType.user:
                resolved.setdefault("users", {})[str(value["id"])] = value
                resolved.setdefault("members", {})[str(value["id"])] = {
                    "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "nick": None, "permissions": EVERYONE,
                    "flags": 0, "deaf": False, "mute": False}
                value = value["id"]
            elif parameter.type is discord.AppCommandOptionType.channel:  # a channel dict of `channels`
                resolved.setdefault("channels", {})[value["id"]] = {**value, "permissions": EVERYONE}
                value = value["id"]
            option["value"] = value
            if name == focused:
                option["focused"] = True
            options.append(option)
        names = path.split()
        for name in reversed(names[1:]):
            options = [{"name": name, "type": 1, "options": options}]
        data = {"id": str(APP_ID + 7), "name": names[0], "type": 1, "options": options}
        if resolved:
            data["resolved"] = resolved
        return data, command

    def slash(self, member: dict, path: str, channel_id: int = CHANNEL_ID, permissions: str = EVERYONE,
              **values) -> dict:
        """A slash command interaction, e.g. slash(ann, "game new", side="borg")."""
        data, _ = self._options(path, values)
        return self._interaction(2, member, data, channel_id, permissions=permissions)

    async def autocomplete(self, member: dict, path: str, focused: str, channel_id: int, **values) -> list[str]:
        """The choices the bot offers while `focused` is being typed."""
        data, _ = self._options(path, values, focused)
        payload = self._interaction(4, member, data, channel_id)
        await self.dispatch(payload)
        return [c["value"] for c in self.choices[payload["token"]]]

    def click(self, member: dict, message_id: int, custom_id: str, values: Optional[list[str]] = None) -> dict:
        """A click on a button (or a choice in a select) of a message the bot sent."""
        message = self._used(message_id)
        component = self.component(message, custom_id)
        data = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] == 3:
            data["values"] = values or []
        return self._interaction(3, member, data, int(message["channel_id"]), message=message)

    @staticmethod
    def components(message: dict) -> list[dict]:
        """Every button and select of a message."""
        return [c for row in message.get("components", []) for c in row.get("components", [])]

    def component(self, message: dict, custom_id: str) -> dict:
        """The component with this custom id (AssertionError if the message has none)."""
        for c in self.components(message):
            if c.get("custom_id") == custom_id:
                return c
        raise AssertionError(f"no component {custom_id} on message {message['id']}")

    # ---- what the bot sent --------------------------------------------------------------

    def post(self, channel_id: int, body: dict) -> dict:
        """A message the bot sent before this fake started (a table message from before a
        restart, say), as Discord holds it."""
        return self._message(channel_id, body, [])

    def public(self) -> list[Sent]:
        """Requests whose content anyone in the channel could see."""
        return [s for s in self.sent if not s.ephemeral and s.json is not None]

    def tally(self, since: int = 0, until: Optional[int] = None) -> Tally:
        """What phones count over the requests `sent[since:until]`: messages posted per
        channel (deleted later or not), notifications per user (mentions let through,
        and every DM), files uploaded per channel, and requests that are not interaction
        responses."""
        posted, pings, pictures, requests, private = Counter(), Counter(), Counter(), 0, 0
        for request in self.sent[since:until]:
            requests += request.rest
            recipients = self.channels.get(request.channel_id, {}).get("recipients") or []
            if request.posts and (not request.ephemeral or recipients):  # a private answer is not counted
                posted[request.channel_id] += 1
                pings.update(request.mentioned())
                pings.update(int(r["id"]) for r in recipients)  # a DM notifies its reader
            if request.files and not request.ephemeral and request.json is not None:
                pictures[request.channel_id] += len(request.files)
            elif request.files and request.json is not None:
                private += len(request.files)
        return Tally(posted, pings, pictures, requests, private)

    def in_channel(self, channel_id: int) -> list[dict]:
        """Messages everyone in a channel sees (ephemeral ones left out), oldest first."""
        messages = (self.messages.get(m) for m in sorted(self._in.get(channel_id, ())))  # ids grow as sent
        return [m for m in messages if m is not None and not m["flags"] & EPHEMERAL]

    def original(self, payload: dict) -> dict:
        """The message an interaction's response created or edited."""
        return self.messages[self.originals[payload["token"]]]

    # ---- the fake HTTP side -------------------------------------------------------------

    def _message(self, channel_id: int, body: dict, files, flags: int = 0) -> dict:
        message_id = next(self._ids)
        message = {"id": str(message_id), "channel_id": str(channel_id), "type": 0, "author": BOT_USER,
                   "content": "", "embeds": [], "attachments": [], "mentions": [], "mention_roles": [],
                   "mention_everyone": False, "pinned": False, "tts": False, "components": [],
                   "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None, "flags": flags}
        if self.channels.get(channel_id, {}).get("type") != 1:
            message["guild_id"] = self.channels.get(channel_id, {}).get("guild_id", str(GUILD_ID))
        self.messages[message_id] = message
        self.channel_of[message_id] = channel_id
        kept = self._in.setdefault(channel_id, {})
        kept[message_id] = None
        if not self.record and len(kept) > KEPT:
            self._forget(next(iter(kept)))
        return self._edit(message_id, body, files)

    def _used(self, message_id: int) -> dict:
        """The message, last used now (404 Unknown Message, as Discord answers, if the fake
        does not have it)."""
        message = self.messages.get(message_id)
        if message is None:
            self.unknown += 1
            raise discord.NotFound(_Response(404, "Not Found"), {"code": 10008, "message": "Unknown Message"})
        kept = self._in[self.channel_of[message_id]]
        del kept[message_id]
        kept[message_id] = None
        return message

    def _forget(self, message_id: int) -> None:
        """Drop a message (not recording: a message no longer used, or deleted)."""
        self.messages.pop(message_id, None)
        del self._in[self.channel_of.pop(message_id)][message_id]

    def _place(self, token: str) -> int:
        """The channel an interaction came from (404 Unknown Webhook, as Discord answers for
        a token it does not know, if the fake forgot the token)."""
        if token not in self.places:
            self.unknown += 1
            raise discord.NotFound(_Response(404, "Not Found"), {"code": 10015, "message": "Unknown Webhook"})
        return self.places[token]

    def _edit(self, message_id: int, body: dict, files) -> dict:
        message = self._used(message_id)
        for key in ("content", "components", "embeds"):
            if key in body and body[key] is not None:
                message[key] = body[key]
        if files or "attachments" in body:  # as Discord: the attachments named by id stay, new files are added
            message["attachments"] = [a for a in message["attachments"]
                                      if any(str(k.get("id")) == a["id"] for k in body.get("attachments") or [])]
            message["attachments"] += [{"id": str(next(self._ids)), "filename": name, "size": len(data),
                                        "url": f"https://cdn.example/{name}", "proxy_url": f"https://cdn.example/{name}"}
                                       for name, data in files]
        message["edited_timestamp"] = "2026-01-01T00:00:01+00:00"
        return message

    @staticmethod
    def _body(json_body, form, files) -> tuple[Any, list[tuple[str, bytes]]]:
        if form:
            json_body = next((json.loads(f["value"]) for f in form if f["name"] == "payload_json"), json_body)
        taken = []
        for f in files or []:
            f.reset()
            taken.append((f.filename, f.fp.read()))
        return json_body, taken

    def _record(self, method, path, body, files, ephemeral=False, message_id=None) -> None:
        if self.record:
            self.sent.append(Sent(method, path, body, files, ephemeral, message_id, self.channel_of.get(message_id)))

    async def _traced(self, route, answering):
        """The answer to a request, told to the bot's aiohttp tracing (discord.py's `http_trace`,
        which the metrics count) as aiohttp tells it of a real answer: its status, or an injected
        failure's."""
        try:
            answer = await answering
        except discord.HTTPException as error:
            await self._trace(route, error.status)
            raise
        await self._trace(route, 200)
        return answer

    async def _trace(self, route, status: int) -> None:
        trace = self.bot.http.http_trace if self.bot is not None else None
        if trace is not None:
            await trace.on_request_end.send(None, trace.trace_config_ctx(), aiohttp.TraceRequestEndParams(
                route.method, yarl.URL(route.url), {}, _Response(status, "")))

    def fail(self, method: str, pattern: str, status: int, times: Optional[int] = None) -> None:
        """Make REST requests `method` to paths matching `pattern` fail with `status`
        (403 Forbidden, 404 Not Found, 429 Too Many Requests, 5xx server error), `times` times or
        until cleared."""
        self.failures.append([method, pattern, status, times])

    def _refuse(self, method: str, path: str, found: list[tuple[str, str]]) -> None:
        """Raise what Discord answers to an invalid body (and remember it for `check`)."""
        if found:
            self.refused.append(f"{method} {path}: " + "; ".join(f"{where}: {what}" for where, what in found))
            raise discord_limits.refusal(found)

    def _failure(self, method: str, path: str) -> Optional[discord.HTTPException]:
        for failure in self.failures:
            wanted, pattern, status, times = failure
            if wanted == method and re.fullmatch(pattern, path) and times != 0:
                if times is not None:
                    failure[3] = times - 1
                kind = {403: discord.Forbidden, 404: discord.NotFound}.get(
                    status, discord.DiscordServerError if status >= 500 else discord.HTTPException)
                return kind(_Response(status, "Injected"), {"code": 0, "message": f"injected {status}"})
        return None

    async def _rest(self, http, route, *, files=None, form=None, **kwargs):
        body, taken = self._body(kwargs.get("json"), form, files)
        method, path = route.method, route.url.split("/api/v10", 1)[1].split("?")[0]
        failure = self._failure(method, path)
        if failure is not None:
            self._record(method, path, body, taken, ephemeral=True)
            raise failure
        if method == "GET" and path == "/users/@me":
            return BOT_USER
        if method == "GET" and path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Ready Room", "icon": None, "description": "", "bot_public": True,
                    "bot_require_code_grant": False, "owner": user(OWNER_ID, "owner"), "verify_key": "k",
                    "flags": 0, "team": None, "summary": ""}
        if re.fullmatch(r"/users/\d+", path) and method == "GET":
            return self.users.get(int(path.split("/")[-1]), user(int(path.split("/")[-1]), "someone"))
        if method == "POST" and path == "/users/@me/channels":
            channel_id = next(self._ids)
            recipient = self.users.get(int(body["recipient_id"]), user(int(body["recipient_id"]), "someone"))
            self.channels[channel_id] = {"id": str(channel_id), "type": 1, "recipients": [recipient]}
            return self.channels[channel_id]
        if method in ("PUT", "GET") and path.endswith("/commands"):
            self._record(method, path, body, taken, ephemeral=True)
            return [{**c, "id": str(next(self._ids)), "application_id": str(APP_ID), "version": "1"}
                    for c in body or []]
        if method == "POST" and (m := re.fullmatch(r"/channels/(\d+)/threads", path)):
            parent = self.channels.get(int(m[1]), {})
            thread_id = self.add_channel(int(parent.get("guild_id", GUILD_ID)), parent_id=int(m[1]))
            self.channels[thread_id].update(type=body.get("type", 11), name=body["name"])
            self._record(method, path, body, taken)
            return self.channels[thread_id]
        if method == "GET" and (m := re.fullmatch(r"/channels/(\d+)", path)) and int(m[1]) in self.channels:
            return self.channels[int(m[1])]
        if method == "PUT" and (m := re.fullmatch(r"/channels/(\d+)/thread-members/(\d+)", path)):
            self._record(method, path, body, taken, ephemeral=True)
            self.thread_members.setdefault(int(m[1]), set()).add(int(m[2]))
            return None
        if method in ("POST", "PATCH") and re.fullmatch(r"/channels/\d+/messages(/\d+)?", path):
            self._refuse(method, path, discord_limits.problems(body))
        if method == "POST" and (m := re.fullmatch(r"/channels/(\d+)/messages", path)):
            channel_id = int(m[1])
            message = self._message(channel_id, body, taken)
            private = self.channels.get(channel_id, {}).get("type") == 1
            self._record(method, path, body, taken, ephemeral=private, message_id=int(message["id"]))
            return message
        if method == "PATCH" and (m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)):
            self._record(method, path, body, taken, message_id=int(m[2]))
            return self._edit(int(m[2]), body, taken)
        if method == "DELETE" and (m := re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)):
            self._record(method, path, body, taken, message_id=int(m[2]))
            self._used(int(m[2]))
            if self.record:
                del self.messages[int(m[2])]
                self.deleted.append(int(m[2]))
            else:
                self._forget(int(m[2]))
            return None
        raise AssertionError(f"unexpected Discord request {method} {path}")

    async def _webhook(self, adapter, route, session, *, payload=None, multipart=None, files=None, **kwargs):
        body, taken = self._body(payload, multipart, files)
        method, path = route.method, route.url.split("/api/v10", 1)[1].split("?")[0]
        if m := re.fullmatch(r"/interactions/(\d+)/([\w-]+)/callback", path):
            data = (body or {}).get("data") or {}
            self._refuse(method, path, discord_limits.choice_problems(data.get("choices") or [])
                         if body["type"] == 8 else discord_limits.problems(data))
            return self._callback(m[1], m[2], body, taken)
        if method in ("POST", "PATCH"):
            self._refuse(method, path, discord_limits.problems(body))
        if m := re.fullmatch(r"/webhooks/(\d+)/([\w-]+)", path):  # followup
            flags = (body or {}).get("flags", 0)
            message = self._message(self._place(m[2]), body, taken, flags)
            self._record(method, path, body, taken, bool(flags & EPHEMERAL), int(message["id"]))
            self._answered(m[2], body)
            return message
        if m := re.fullmatch(r"/webhooks/(\d+)/([\w-]+)/messages/(@original|\d+)", path):
            self._place(m[2])
            message_id = self.originals[m[2]] if m[3] == "@original" else int(m[3])
            message = self._used(message_id)
            ephemeral = bool(message["flags"] & EPHEMERAL)
            self._record(method, path, body, taken, ephemeral, message_id)
            if method == "GET":
                return message
            self._answered(m[2], body)
            return self._edit(message_id, body, taken)
        raise AssertionError(f"unexpected webhook request {method} {path}")

    def _callback(self, interaction_id: str, token: str, body: dict, files) -> dict:
        kind, data = body["type"], body.get("data") or {}
        answer = {"interaction": {"id": interaction_id, "type": kind}}
        if kind == 8:
            self.choices[token] = data.get("choices", [])
            self._record("POST", "callback", body, files, ephemeral=True)
            return answer
        if kind in (4, 5):
            flags = data.get("flags", 0)
            message = self._message(self._place(token), data if kind == 4 else {}, files, flags)
            self.originals[token] = int(message["id"])
        else:  # 6: deferred update, 7: update the clicked message
            self._place(token)
            self.originals[token] = self.clicked[token]
            message = self._edit(self.clicked[token], data, files) if kind == 7 else self._used(self.clicked[token])
        ephemeral = bool(message["flags"] & EPHEMERAL)
        self._record("POST", "callback", body, files, ephemeral, int(message["id"]))
        if kind in (4, 7):  # an answer at once, not a deferral
            self._answered(token, data)
        answer["interaction"].update(response_message_id=message["id"], response_message_loading=kind == 5,
                                     response_message_ephemeral=ephemeral)
        answer["resource"] = {"type": kind, "message": message}
        return answer


# ---- playing through the panel ----------------------------------------------------------

def thread_of(fake: FakeDiscord) -> int:
    """The newest game thread."""
    return max(c for c, data in fake.channels.items() if data["type"] == 11)


def turn_button(fake: FakeDiscord, channel_id: int, message_id: Optional[int] = None) -> tuple[int, str]:
    """(message id, custom id) of the newest "Your move" button in a channel (or on one message of it)."""
    for message in reversed([m for m in fake.in_channel(channel_id) if message_id in (None, int(m["id"]))]):
        for c in fake.components(message):
            if c.get("custom_id", "").startswith("rr:turn:"):
                return int(message["id"]), c["custom_id"]
    raise AssertionError("no Your move button")


async def open_panel(fake: FakeDiscord, member: dict, channel_id: int) -> dict:
    """Press the newest "Your move" as `member`; the private message it opened."""
    payload = fake.click(member, *turn_button(fake, channel_id))
    await fake.dispatch(payload)
    return fake.original(payload)


async def play(fake: FakeDiscord, game_id: int, thread: int, members: dict[int, dict], rng, moves: int) -> None:
    """`moves` random legal commands, each picked on the awaited player's panel (`members`:
    user id -> member)."""
    for _ in range(moves):
        user_id = (await fake.bot.service.get(game_id)).awaited[0].user_id
        _, commands = await fake.bot.service.legal_commands(game_id, user_id)
        member = members[user_id]
        await choose(fake, member, await open_panel(fake, member, thread), commands, rng.randrange(len(commands)))


async def choose(fake: FakeDiscord, member: dict, panel_message: dict, commands: list[str], index: int) -> None:
    """Send `commands[index]` by clicking through the panel as a person would."""
    from cogs.panel import card_choice, groups
    words = commands[index].split()
    for c in fake.components(panel_message):
        custom_id = c["custom_id"]
        values = [o["value"] for o in c.get("options", [])]
        if custom_id.startswith("rr:do:") and custom_id.endswith(f":{index}"):
            return await fake.dispatch(fake.click(member, int(panel_message["id"]), custom_id))
        if custom_id.startswith("rr:pick:") and str(index) in values:
            return await fake.dispatch(fake.click(member, int(panel_message["id"]), custom_id, [str(index)]))
        if custom_id.startswith("rr:cards:") and custom_id.endswith(f":{words[0]}"):
            cards, picked = list(card_choice(commands)[1]), []
            for card in words[1:]:
                position = next(i for i, c in enumerate(cards) if c == card and str(i) not in picked)
                picked.append(str(position))
            return await fake.dispatch(fake.click(member, int(panel_message["id"]), custom_id, picked))
    group = next(n for n, g in enumerate(groups(commands)) if index in g.indices)
    for c in fake.components(panel_message):
        values = [o["value"] for o in c.get("options", [])]
        more = c["custom_id"].startswith("rr:page:") and c.get("label") == "More"
        if (c["custom_id"].startswith("rr:open:") and str(group) in values) or more:
            await fake.dispatch(fake.click(member, int(panel_message["id"]), c["custom_id"],
                                           [str(group)] if not more else None))
            return await choose(fake, member, fake.messages[int(panel_message["id"])], commands, index)
    raise AssertionError(f"'{commands[index]}' is not on the panel")
