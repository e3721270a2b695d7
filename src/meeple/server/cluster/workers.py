"""Many workers on one PostgreSQL and one Redis: who masters a match, and forwarding to it.

Each match being played has one master at a time, on the worker that holds the match's
PostgreSQL advisory lock. The locks are taken on one connection per worker kept open for
its life (the *lease connection*), so they are freed by PostgreSQL itself the moment that
connection ends -- a worker killed with SIGKILL holds nothing a second later, with no expiry
to wait out and no row to clean up. Every ``claim_seconds`` each worker looks for matches
being played whose lock nobody holds (their worker died, or the whole server restarted) and
claims them; the one that gets the lock rebuilds the match from its stored actions, as a
restart does, and its turn timer and bots go on from the stored deadline.

A worker that does not master a match gives its clients a :class:`StandIn`: the stored
match for reading, whose connections are forwarded over Redis pub/sub. Channels:

- ``meeple:match:<id>``: what a worker sends the match's master (a connection opened,
  a frame, a refusal to send, a connection closed); only the master subscribes.
- ``meeple:worker:<worker>``: the master's outgoing frames for that worker's connections,
  each ``<connection id> <frame>``.
- ``meeple:claimed``: a worker claimed a match; those with connections to it send them again.
- ``meeple:room``: a room changed on a worker, ``<worker> <room id>``; the others tell its
  watchers, read afresh from the database.

Pub/sub keeps nothing: what the database holds is the truth, and a connection whose master
changed gets a fresh snapshot from the new one.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from meeple.core import Seat
from meeple.server.live.master import Connection, MatchMaster
from meeple.server.live.protocol import ProtocolError
from meeple.server.store.db import migrate

if TYPE_CHECKING:
    from meeple.server.live.matches import Matches

log = logging.getLogger(__name__)


def channel_space(engine: AsyncEngine) -> str:
    """The part of every Redis channel name that names this server: its database (host,
    port and name, never the password), so two servers sharing one Redis neither hear each
    other nor count each other's workers alive."""
    url = engine.url
    where = f"{url.host}:{url.port}/{url.database}"
    return "meeple:" + hashlib.sha256(where.encode()).hexdigest()[:12] + ":"


RESEND_AFTER = 2.0
"""Seconds a forwarded connection waits for its first frame before it is sent again."""
OVERDUE_ROUNDS = 3
"""Claim periods an orphaned match waits for the worker it hashes to before anyone takes it."""
EXCLUSIVE_POLL = 0.01
"""Seconds between tries of a lock another worker holds for a short change."""

HELD_LOCKS = text(
    "SELECT classid, objid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 "
    "AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
PLAYING = text("SELECT id FROM matches WHERE status = 'playing'")
TRY_LOCK = text("SELECT pg_try_advisory_lock(:key)")
UNLOCK = text("SELECT pg_advisory_unlock(:key)")
UNLOCK_ALL = text("SELECT pg_advisory_unlock_all()")


def lock_key(name: str) -> int:
    """The advisory lock key of a match id or worker name: 64 bits of its BLAKE2 hash.

    Two ids sharing a key (one chance in 2**64) would only share a master."""
    digest = hashlib.blake2b(name.encode(), digest_size=8, person=b"meeple-lease").digest()
    return int.from_bytes(digest, "big", signed=True)


MIGRATING = lock_key("migrations")


def held_key(classid: int, objid: int) -> int:
    """The bigint key of a lock as ``pg_locks`` lists it (high and low 32 bits)."""
    key = (classid << 32) | objid
    return key - (1 << 64) if key >= 1 << 63 else key


def _nearest(match_id: str, workers: list[str]) -> str:
    """The worker a match's id hashes nearest to, among ``workers`` (rendezvous hashing)."""
    return max(workers, key=lambda worker: lock_key(f"{worker} {match_id}"))


def worker_key(worker: str) -> int:
    return lock_key(f"worker:{worker}")


async def migrate_alone(engine: AsyncEngine) -> None:
    """Migrate as :func:`meeple.server.store.db.migrate` does, one worker at a time: workers
    started together on a fresh database would otherwise all create its tables."""
    async with engine.connect() as connection:
        await connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATING})
        try:
            await migrate(engine)
        finally:
            await connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATING})
            await connection.commit()


class Forwarded:
    """On the master's worker: a connection held by another worker; its frames go there."""

    def __init__(
        self, cluster: Cluster, match_id: str, worker: str, connection_id: str, seat: Seat | None
    ):
        self._cluster = cluster
        self.match_id = match_id
        self.worker = worker
        self.connection_id = connection_id
        self._seat = seat

    @property
    def seat(self) -> Seat | None:
        return self._seat

    async def send(self, text: str) -> None:
        await self._cluster.publish(
            self._cluster.worker_channel + self.worker, f"{self.connection_id} {text}"
        )


@dataclass(slots=True)
class _Local:
    """On a worker without the master: one of its connections to a match mastered elsewhere."""

    connection: Connection
    match_id: str
    since: int | None
    sent_at: float
    answered: bool = False


@dataclass(slots=True)
class _Inbox:
    """An owned match's messages from other workers, handled in order by one task."""

    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)


class StandIn(MatchMaster):
    """A match mastered by another worker, as this worker serves it: the stored match
    (rebuilt from its actions, for reading) whose connections are forwarded to the master.
    It runs no timer and no bot and applies nothing itself."""

    cluster: Cluster

    def forwarded(self, cluster: Cluster) -> StandIn:
        """Forward through ``cluster``; never started, so no bot or clock wakes here."""
        self.cluster = cluster
        return self

    async def attach(self, connection: Connection, since: int | None = None) -> None:
        await self.cluster.forward_attach(self.id, connection, since)

    async def receive(self, connection: Connection, text: str | bytes) -> None:
        message: dict[str, Any] = {"k": "frame"}
        if isinstance(text, str):
            message["t"] = text
        else:
            message["b"] = base64.b64encode(text).decode()
        await self.cluster.forward(self.id, connection, message)

    async def refuse(
        self, connection: Connection, error: ProtocolError, ref: str | None = None
    ) -> None:
        message = {"k": "refuse", "code": error.code, "message": error.message, "ref": ref}
        await self.cluster.forward(self.id, connection, message)

    def detach(self, connection: Connection) -> None:
        self.cluster.forward_detach(self.id, connection)


class Cluster:
    """This worker's part in a cluster: its lease connection, its Redis link, the matches it
    masters and the connections it forwards. Built by :meth:`open`, ended by :meth:`close`."""

    stand_in: type[MatchMaster] = StandIn
    """The master of a match another worker masters (``Matches`` builds it from storage)."""

    def forwarding(self, stand_in: MatchMaster) -> MatchMaster | None:
        """A stand-in ready to forward to the worker that masters its match."""
        return stand_in.forwarded(self) if isinstance(stand_in, StandIn) else None

    def __init__(self, engine: AsyncEngine, redis_url: str, claim_seconds: float) -> None:
        self.engine = engine
        self.redis_url = redis_url
        self.claim_seconds = claim_seconds
        self.worker = secrets.token_hex(6)
        space = channel_space(engine)
        self.space = space
        self.match_channel = space + "match:"
        self.worker_channel = space + "worker:"
        self.claimed_channel = space + "claimed"
        self.room_channel = space + "room"
        self.matches: Matches | None = None
        self.owned: set[str] = set()
        self._lease: AsyncConnection | None = None
        self._lease_lock = asyncio.Lock()
        self._renewing = asyncio.Lock()
        self._claiming = asyncio.Lock()
        self._redis: aioredis.Redis | None = None
        self._pubsub: Any = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._reader: asyncio.Task[None] | None = None
        self._loop: asyncio.Task[None] | None = None
        self._inboxes: dict[str, _Inbox] = {}
        self._forwarded: dict[tuple[str, str], Forwarded] = {}
        self._locals: dict[str, _Local] = {}
        # Each forwarded connection's id, by the connection itself (held until it detaches,
        # so no other connection can take its place the way a reused id() would).
        self._ids: dict[Connection, str] = {}
        self._orphaned: dict[str, float] = {}  # an orphan's id: since when it is one
        self._room_changed: Callable[[str], Coroutine[Any, Any, None]] | None = None

    # -- starting and stopping ---------------------------------------------------------

    async def open(self, matches: Matches) -> None:
        """Take this worker's own lock (its liveness), connect to Redis, start looking."""
        self.matches = matches
        await self._open_lease()
        # Named, so `CLIENT LIST` on the Redis server tells which worker holds a connection.
        name = f"{self.worker_channel}{self.worker}"
        self._redis = aioredis.from_url(self.redis_url, decode_responses=True, client_name=name)
        self._pubsub = self._redis.pubsub()
        await self._pubsub.subscribe(
            self.worker_channel + self.worker, self.claimed_channel, self.room_channel
        )
        self._pubsub.connection.register_connect_callback(self._subscribed_again)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self._loop = asyncio.get_running_loop().create_task(self._look())

    async def stop(self) -> None:
        """Stop claiming and forwarding (first on shutdown: the masters close next)."""
        for task in (self._loop, self._reader, *self._tasks):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        for inbox in self._inboxes.values():
            if inbox.task is not None:
                inbox.task.cancel()

    async def close(self) -> None:
        """Let go of Redis and every lock (last on shutdown, once the masters stopped: an
        action a closing master stores must not race a new master elsewhere)."""
        await self.stop()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        if self._lease is not None:
            # Back to the pool with no lock held: another worker may claim at once.
            with contextlib.suppress(Exception):
                await self._lease.execute(UNLOCK_ALL)
                await self._lease.close()

    # -- the lease ---------------------------------------------------------------------

    async def _on_lease(self, statement: Any, values: dict[str, Any] | None = None) -> Any:
        """One statement on the lease connection (one at a time): its result."""
        if self._lease is None:
            raise RuntimeError("the cluster is not open")
        async with self._lease_lock:
            return await self._lease.execute(statement, values)

    async def _open_lease(self) -> None:
        """Connect the lease connection and take this worker's own lock on it."""
        lease = await self.engine.connect()
        self._lease = await lease.execution_options(isolation_level="AUTOCOMMIT")
        await self._try_lock(worker_key(self.worker))

    async def _try_lock(self, key: int) -> bool:
        return bool((await self._on_lease(TRY_LOCK, {"key": key})).scalar())

    @contextlib.asynccontextmanager
    async def exclusive(self, name: str) -> AsyncIterator[None]:
        """Hold a named lock of the whole server for a short change (one room's seats):
        an advisory lock tried on the lease connection until it is free (waiting on it there
        would hold up the claims), given back after. Within a worker, its caller's own lock
        orders the coroutines (one connection holds an advisory lock as often as it asks)."""
        key = lock_key(f"exclusive:{name}")
        while not await self._try_lock_renewing(key):
            await asyncio.sleep(EXCLUSIVE_POLL)
        try:
            yield
        finally:
            with contextlib.suppress(Exception):  # a lost lease connection took it along
                await self._on_lease(UNLOCK, {"key": key})

    async def claim(self, match_id: str) -> bool:
        """Try to become the match's master; True when this worker holds its lock.

        One claim at a time: the lease connection holds an advisory lock as often as it
        asks, so a lookup and the claim loop trying one match at once would both lock it,
        and one release would then leave it locked."""
        async with self._claiming:
            if match_id in self.owned:
                return True
            if not await self._try_lock(lock_key(match_id)):
                return False
            self.owned.add(match_id)
            return True

    async def release(self, match_id: str) -> None:
        """Give up mastering a match (it would not replay here, or it was not playing)."""
        await self._unlock(match_id)
        self._close_inbox(match_id)

    async def _unlock(self, match_id: str) -> None:
        if match_id in self.owned:
            self.owned.discard(match_id)
            await self._on_lease(UNLOCK, {"key": lock_key(match_id)})

    def _close_inbox(self, match_id: str) -> None:
        inbox = self._inboxes.pop(match_id, None)
        if inbox is None:
            return
        if inbox.task is not None:
            inbox.task.cancel()
        self._spawn(self._pubsub.unsubscribe(self.match_channel + match_id))

    async def mastered(self, master: MatchMaster) -> None:
        """A match this worker claimed has its master: listen for the other workers'
        connections to it, then tell them it is here."""
        inbox = _Inbox()
        self._inboxes[master.id] = inbox
        inbox.task = asyncio.get_running_loop().create_task(self._serve(master, inbox))
        await self._pubsub.subscribe(self.match_channel + master.id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(inbox.subscribed.wait(), 5)
        await self.publish(self.claimed_channel, master.id)

    async def _held(self) -> set[int]:
        rows = (await self._on_lease(HELD_LOCKS)).all()
        return {held_key(classid, objid) for classid, objid in rows}

    async def _orphans(self, held: set[int]) -> tuple[list[str], int]:
        """The matches being played that no worker masters, and how many are played.

        This worker's connections to any of them are marked unanswered first: their master
        died, so they are sent again (every :data:`RESEND_AFTER` seconds) until the match's
        new master answers, whether or not its ``claimed`` notice reaches this worker."""
        playing = (await self._on_lease(PLAYING)).scalars().all()
        unmastered = {m for m in playing if lock_key(m) not in held}
        for local in self._locals.values():
            if local.match_id in unmastered:
                local.answered = False
        skip = self.owned | (set() if self.matches is None else self.matches.broken)
        return [m for m in playing if m not in skip and m in unmastered], len(playing)

    async def _alive(self) -> list[str]:
        """The workers alive now: those subscribed to their own Redis channel (a worker's
        subscription ends with its connection, as its lock does)."""
        found = {self.worker}
        if self._redis is None:
            return [self.worker]
        with contextlib.suppress(Exception):  # Redis away: alone, as far as one can see
            channels = await self._redis.pubsub_channels(self.worker_channel + "*")
            found |= {str(c).removeprefix(self.worker_channel) for c in channels}
        return sorted(found)

    async def _fair_share(self, orphans: list[str], playing: int) -> list[str]:
        """The orphans this worker claims this round. Each orphan goes to the live worker
        its id hashes nearest to (rendezvous hashing: the same choice on every worker, and
        an even spread), and a worker stops at its fair share of the matches being played;
        an orphan left over for :data:`OVERDUE_ROUNDS` rounds (its worker is slow, full, or
        died unseen) goes to the next worker with room, and past twice that to whoever
        looks next. So workers started together, or those left when one dies, share out
        the orphans rather than the quickest taking them all."""
        now = time.monotonic()
        since = {m: self._orphaned.get(m, now) for m in orphans}
        self._orphaned = since
        workers = await self._alive()
        share = -(-playing // len(workers))
        room = share - len(self.owned)
        mine = [m for m in orphans if _nearest(m, workers) == self.worker][: max(0, room)]
        overdue = OVERDUE_ROUNDS * self.claim_seconds
        late = [m for m in orphans if m not in mine and now - since[m] >= overdue]
        # Past twice that, a fair share no longer holds anyone back: a match must go on.
        return mine + [
            m for n, m in enumerate(late) if n < room - len(mine) or now - since[m] >= 2 * overdue
        ]

    async def _look(self) -> None:
        """Every ``claim_seconds``: claim the matches nobody masters, drop connections of
        workers that died, send again connections no master answered. The first look is
        one period after starting: workers started together see each other by then."""
        while True:
            await asyncio.sleep(self.claim_seconds)
            try:
                held = await self._held()
                orphans, playing = await self._orphans(held)
                for match_id in await self._fair_share(orphans, playing):
                    if self.matches is not None and await self.claim(match_id):
                        await self.matches.take(match_id)
                self._drop_dead(held)
                await self._resend()
                await self._release_finished()
            except asyncio.CancelledError:
                raise
            except Exception:
                if await self._lease_alive():
                    log.exception("worker %s: looking for unclaimed matches failed", self.worker)
                else:  # a known condition, not a fault here: no traceback
                    log.warning("worker %s: the lease connection dropped", self.worker)
                    with contextlib.suppress(Exception):
                        await self._renew_once()

    async def _try_lock_renewing(self, key: int) -> bool:
        """:meth:`_try_lock`, and when the lease connection has dropped, the lease renewed
        first (as the claim loop would at its next look) rather than the caller failing."""
        try:
            return await self._try_lock(key)
        except Exception:
            if await self._lease_alive():
                raise
        await self._renew_once()
        return await self._try_lock(key)

    async def _renew_once(self) -> None:
        """Renew the lease unless another coroutine did meanwhile (the claim loop and a
        request may both find it dropped)."""
        async with self._renewing:
            if not await self._lease_alive():
                log.info("worker %s: connecting the lease connection again", self.worker)
                await self._renew_lease()

    async def _lease_alive(self) -> bool:
        try:
            await self._on_lease(text("SELECT 1"))
        except Exception:
            return False
        return True

    async def _renew_lease(self) -> None:
        """The lease connection dropped (PostgreSQL restarted, a network cut): every lock
        went with it. Connect again and take back the locks no other worker took meanwhile;
        the masters of the others stop here, since their new worker masters them now."""
        if self._lease is not None:
            with contextlib.suppress(Exception):
                await self._lease.invalidate()
        await self._open_lease()
        for match_id in list(self.owned):
            if await self._try_lock(lock_key(match_id)):
                continue
            log.warning("worker %s: match %s is mastered elsewhere now", self.worker, match_id)
            self.owned.discard(match_id)
            self._close_inbox(match_id)
            if self.matches is not None:
                await self.matches.lose(match_id)
        # Meanwhile the masters may have dropped this worker's connections for dead.
        for connection_id, local in list(self._locals.items()):
            await self._send_attach(connection_id, local)

    async def _release_finished(self) -> None:
        """A finished match needs no master: its lock goes back (each held lock takes a
        slot of PostgreSQL's shared lock table). Its connections from other workers are
        still answered while its master stays in memory here."""
        held = set() if self.matches is None else self.matches.held
        for match_id in list(self.owned):
            master = self._master(match_id)
            if master is not None and master.match.status == "over" and match_id not in held:
                await self._unlock(match_id)
        for match_id in list(self._inboxes):
            if match_id not in self.owned and self._master(match_id) is None:
                self._close_inbox(match_id)

    def _drop_dead(self, held: set[int]) -> None:
        for (worker, connection_id), forwarded in list(self._forwarded.items()):
            if worker_key(worker) in held:
                continue
            del self._forwarded[worker, connection_id]
            master = self._master(forwarded.match_id)
            if master is not None and forwarded in master.connections:
                master.detach(forwarded)

    async def _subscribed_again(self, _connection: Any) -> None:
        """The Redis subscription dropped and came back (redis-py connects again and
        subscribes to the same channels by itself): whatever was published meanwhile is lost
        to this worker, a frame for one of its connections or a ``claimed`` notice. So each
        connection it forwards is sent again, and its match's master answers with a fresh
        snapshot; until one answers, :meth:`_resend` keeps sending."""
        log.warning("worker %s: the Redis subscription was renewed", self.worker)
        for connection_id, local in list(self._locals.items()):
            self._spawn(self._send_attach(connection_id, local))

    async def _resend(self) -> None:
        now = time.monotonic()
        for connection_id, local in list(self._locals.items()):
            if not local.answered and now - local.sent_at > RESEND_AFTER:
                await self._send_attach(connection_id, local)

    # -- Redis -------------------------------------------------------------------------

    def on_room(self, changed: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """Call ``changed(room_id)`` when another worker changed a room."""
        self._room_changed = changed

    async def room_changed(self, room_id: str) -> None:
        """Tell the other workers a room changed here (its watchers there are told)."""
        await self.publish(self.room_channel, f"{self.worker} {room_id}")

    async def publish(self, channel: str, message: str) -> None:
        if self._redis is None:
            raise RuntimeError("the cluster is not open")
        await self._redis.publish(channel, message)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    self._dispatch(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("worker %s: the Redis subscription failed", self.worker)
                await asyncio.sleep(self.claim_seconds)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel: str = message["channel"]
        if message["type"] == "subscribe" and channel.startswith(self.match_channel):
            inbox = self._inboxes.get(channel.removeprefix(self.match_channel))
            if inbox is not None:
                inbox.subscribed.set()
            return
        if message["type"] != "message":
            return
        data: str = message["data"]
        if channel.startswith(self.match_channel):
            inbox = self._inboxes.get(channel.removeprefix(self.match_channel))
            if inbox is not None:
                inbox.queue.put_nowait(json.loads(data))
        elif channel == self.room_channel:
            worker, _, room_id = data.partition(" ")
            if worker != self.worker and self._room_changed is not None:
                self._spawn(self._room_changed(room_id))
        elif channel == self.claimed_channel:
            sent = 0
            for connection_id, local in list(self._locals.items()):
                if local.match_id == data:
                    self._spawn(self._send_attach(connection_id, local))
                    sent += 1
            if sent:
                log.info(
                    "worker %s: match %s has a new master: %d connections sent again",
                    self.worker,
                    data,
                    sent,
                )
        else:
            connection_id, _, frame = data.partition(" ")
            found = self._locals.get(connection_id)
            if found is not None:
                # Sent again after this (a new master): a fresh snapshot is enough.
                found.answered, found.since = True, None
                self._spawn(self._deliver(found.connection, frame))

    @staticmethod
    async def _deliver(connection: Connection, frame: str) -> None:
        with contextlib.suppress(Exception):  # a closed socket: its route cleans up
            await connection.send(frame)

    # -- the master's side ---------------------------------------------------------------

    def _master(self, match_id: str) -> MatchMaster | None:
        return None if self.matches is None else self.matches.mastered(match_id)

    async def _serve(self, master: MatchMaster, inbox: _Inbox) -> None:
        while True:
            message = await inbox.queue.get()
            try:
                await self._handle(master, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match %s: a forwarded message failed", master.id)

    async def _handle(self, master: MatchMaster, message: dict[str, Any]) -> None:
        key = (str(message["w"]), str(message["c"]))
        kind = message["k"]
        if kind == "attach":
            old = self._forwarded.pop(key, None)
            if old is not None:
                master.detach(old)
            seat = message.get("s")
            joined = Forwarded(self, master.id, *key, None if seat is None else int(seat))
            self._forwarded[key] = joined
            since = message.get("since")
            if since is not None and not 0 <= since <= master.version:
                since = None
            await master.attach(joined, since)
            return
        forwarded = self._forwarded.get(key)
        if forwarded is None:
            if kind == "detach" or "s" not in message:
                return
            # A connection this master has not heard attach (sent before the match's last
            # master died, or its attach is still on its way): attach it now, so the frame is
            # answered after a snapshot rather than dropped without a word.
            seat = message["s"]
            forwarded = Forwarded(self, master.id, *key, None if seat is None else int(seat))
            self._forwarded[key] = forwarded
            await master.attach(forwarded, None)
        if kind == "frame":
            data = message["t"] if "t" in message else base64.b64decode(message["b"])
            await master.receive(forwarded, data)
        elif kind == "refuse":
            refusal = ProtocolError(message["code"], message["message"])
            await master.refuse(forwarded, refusal, message.get("ref"))
        elif kind == "detach":
            del self._forwarded[key]
            master.detach(forwarded)

    # -- the forwarding side ------------------------------------------------------------

    async def forward_attach(
        self, match_id: str, connection: Connection, since: int | None
    ) -> None:
        connection_id = self._ids.get(connection) or secrets.token_hex(8)
        self._ids[connection] = connection_id
        local = _Local(connection, match_id, since, time.monotonic())
        self._locals[connection_id] = local
        await self._send_attach(connection_id, local)

    async def _send_attach(self, connection_id: str, local: _Local) -> None:
        local.sent_at, local.answered = time.monotonic(), False
        message = {
            "k": "attach",
            "w": self.worker,
            "c": connection_id,
            "s": local.connection.seat,
            "since": local.since,
        }
        await self.publish(self.match_channel + local.match_id, json.dumps(message))

    async def forward(self, match_id: str, connection: Connection, message: dict[str, Any]) -> None:
        connection_id = self._ids.get(connection)
        if connection_id is None:
            return
        message.update(w=self.worker, c=connection_id, s=connection.seat)
        await self.publish(self.match_channel + match_id, json.dumps(message))

    def forward_detach(self, match_id: str, connection: Connection) -> None:
        connection_id = self._ids.pop(connection, None)
        if connection_id is None:
            return
        self._locals.pop(connection_id, None)
        message = json.dumps({"k": "detach", "w": self.worker, "c": connection_id})
        self._spawn(self.publish(self.match_channel + match_id, message))
