"""Online custom rooms: a host opens one, others join from the list or by a private code,
get ready or leave; the host kicks, fills empty seats with bots and starts the match.

A room is a match in the ``waiting`` status: the same row and seats, so starting it only
changes its status and hands it to a :class:`~meeple.server.live.master.MatchMaster`. The turn
timer is 90 s by default, 60 or 120 s, or off (``None``). Maiterra's teams at 3-4 seats are
its ``teams`` option.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any, Protocol

from meeple.core import GameError, load_game
from meeple.core.record import MAX_SEED
from meeple.server.live.bots import check_bot_name, default_bot
from meeple.server.live.master import MatchMaster
from meeple.server.live.matches import Matches, new_match_id
from meeple.server.modes.kinds import MODES, ModeError, check_table
from meeple.server.store.match_store import SeatHolder, StoredMatch
from meeple.server.store.repository import AccountRow, SqlMatchStore

TIMER_CHOICES: tuple[int | None, ...] = MODES["custom"].timers

ROOM_MODES = ("custom", "lan", "days")
"""The tables a host opens as a room: live online, on the Wi-Fi, or a match over days."""
"""The turn timers a room may have, in seconds (None: off): "A Wi-Fi or live online table
starts at 90 seconds a round; its host may make it 60 or 120 seconds, or turn it off." """

REMATCH_MODES = {"ranked": "custom", "daily": "solo"}
"""What a rematch of these tables is: a ranked match's a casual room (a rated match comes from
the queue alone, and the room is one that starts, leaves and answers like any other), a Daily
attempt's a solo match on a fresh seed (the Daily itself is played from its own page)."""

log = logging.getLogger(__name__)

CODE_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread


class RoomWatcher(Protocol):
    """A socket following a room: who it is (for the private code) and where frames go.
    ``send`` puts the frame in the socket's outbox and never waits on its client; it raises
    once the socket is closed or closing (its client read too slowly)."""

    @property
    def account(self) -> AccountRow | None: ...

    async def send(self, text: str) -> None: ...


class RoomError(Exception):
    """A refused room request: a stable code, a sentence and the HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def _code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(6))


def _listed(names: list[str]) -> str:
    """``Ana is`` / ``Ana and Bo are`` / ``Ana, Bo and Cy are``: people named in a refusal."""
    if len(names) == 1:
        return f"{names[0]} is"
    return ", ".join(names[:-1]) + f" and {names[-1]} are"


def _empty(seat: int) -> SeatHolder:
    return SeatHolder(seat, "open")


def room_json(room: StoredMatch, viewer: AccountRow | None = None) -> dict[str, Any]:
    """A room as the lobby shows it; the private code only to the people seated in it."""
    seated = viewer is not None and any(h.account_id == viewer.id for h in room.holders)
    data: dict[str, Any] = {
        "id": room.id,
        "game": room.game_id,
        "seats": room.seats,
        "options": dict(room.options),
        "mode": room.mode,
        "timer": room.turn_seconds,
        "public": room.public,
        "status": room.status,
        "host": room.created_by,
        "players": [
            {
                "seat": h.seat,
                "name": h.name,
                "account": h.account_id,
                "bot": h.bot,
                "ready": h.ready,
                "open": h.empty,
            }
            for h in room.holders
        ],
    }
    if seated:
        data["code"] = room.code
    if room.status != "waiting":
        data["socket"] = f"/ws/matches/{room.id}"
    return data


class Rooms:
    """The lobby's rooms. One lock orders every change made in this process.

    With many workers a room's watchers may be on any of them: a change made on one is
    announced over Redis (:meth:`Cluster.room_changed`), and each of the others tells its
    own watchers of that room how it stands, read back from the database."""

    def __init__(self, store: SqlMatchStore, matches: Matches) -> None:
        self.store = store
        self.matches = matches
        self._lock = asyncio.Lock()
        self._watchers: dict[str, set[RoomWatcher]] = {}
        if matches.cluster is not None:
            matches.cluster.on_room(self._changed_elsewhere)

    async def create(
        self,
        host: AccountRow,
        game_id: str,
        *,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        timer: int | None = 90,
        public: bool = True,
        mode: str = "custom",
    ) -> StoredMatch:
        """Open a room with the host at seat 0.

        Raises:
            GameError: for an unknown game, bad options or seat count.
            RoomError: ``room/bad_mode``, ``room/bad_timer`` (a live table's timer is 60,
                90 or 120 s or off; a match over days has none).
        """
        game = load_game(game_id, seats=seats, options=options)
        if mode not in ROOM_MODES:
            raise RoomError(422, "room/bad_mode", f"a room is one of {list(ROOM_MODES)}")
        try:
            check_table(mode, dict(game.options), timer)
        except ModeError as error:
            raise RoomError(422, error.code, error.message) from None
        holders = [SeatHolder(0, host.display_name, account_id=host.id)]
        holders += [_empty(seat) for seat in range(1, game.seats)]
        room = StoredMatch(
            id=new_match_id(),
            game_id=game.id,
            seats=game.seats,
            options=dict(game.options),
            seed=secrets.randbelow(MAX_SEED + 1),
            mode=mode,
            holders=holders,
            status="waiting",
            created_by=host.id,
            code=_code(),
            public=public,
            turn_seconds=timer,
        )
        await self.store.create_match(room)
        return room

    async def listed(self) -> list[StoredMatch]:
        return await self.store.rooms(public=True)

    async def get(self, room_id: str) -> StoredMatch:
        room = await self.store.load_match(room_id)
        if room is None or room.mode not in ROOM_MODES:
            raise RoomError(404, "room/unknown", f"no room {room_id[:40]!r}")
        return room

    async def by_code(self, code: str) -> StoredMatch:
        room = await self.store.room_by_code(code.strip().upper()[:12])
        if room is None:
            raise RoomError(404, "room/unknown", "no room has that code")
        return room

    async def _waiting(self, room_id: str) -> StoredMatch:
        room = await self.get(room_id)
        if room.status != "waiting":
            raise RoomError(409, "room/not_waiting", f"the room is {room.status}")
        return room

    @staticmethod
    def _host(room: StoredMatch, account: AccountRow) -> None:
        if room.created_by != account.id:
            raise RoomError(403, "room/not_host", "only the host may do that")

    def _changing(self, room_id: str) -> AbstractAsyncContextManager[None]:
        """Held while a room is read and changed: with many workers, by one worker at a
        time (a lock of the whole server), so two people cannot both take its last seat."""
        if self.matches.cluster is None:
            return contextlib.nullcontext()
        return self.matches.cluster.exclusive(f"room:{room_id}")

    # -- who watches a room ----------------------------------------------------------------

    def watch(self, room_id: str, watcher: RoomWatcher) -> None:
        self._watchers.setdefault(room_id, set()).add(watcher)

    def unwatch(self, room_id: str, watcher: RoomWatcher) -> None:
        watchers = self._watchers.get(room_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[room_id]

    async def _store(self, room: StoredMatch) -> None:
        """Save the room and tell everyone watching it how it stands now, here and (with
        many workers) on the others."""
        await self.store.save_room(room)
        await self._tell(room)
        if self.matches.cluster is not None:
            try:
                await self.matches.cluster.room_changed(room.id)
            except Exception:  # stored: the request stands, other workers' watchers miss it
                log.exception("room %s: telling the other workers failed", room.id)

    async def _changed_elsewhere(self, room_id: str) -> None:
        """Another worker changed a room: its watchers here are told, if it has any."""
        if room_id not in self._watchers:
            return
        try:
            room = await self.store.load_match(room_id)
        except Exception:  # the next change tells them again
            log.exception("room %s: reading it for its watchers failed", room_id)
            return
        if room is not None:
            await self._tell(room)

    async def _tell(self, room: StoredMatch) -> None:
        for watcher in list(self._watchers.get(room.id, ())):
            frame = {"type": "room", **room_json(room, watcher.account)}
            try:
                await watcher.send(json.dumps(frame))
            except Exception:  # a closed socket, or one too slow: it stops watching
                self.unwatch(room.id, watcher)

    async def _save(self, room: StoredMatch, holders: list[SeatHolder]) -> StoredMatch:
        room = replace(room, holders=sorted(holders, key=lambda h: h.seat))
        await self._store(room)
        return room

    async def join(self, account: AccountRow, room_id: str, seat: int | None = None) -> StoredMatch:
        """Take ``seat`` (or the first open one). Joining a room one sits in changes nothing."""
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            if any(h.account_id == account.id for h in room.holders):
                return room
            open_seats = [h.seat for h in room.holders if h.empty]
            if not open_seats:
                raise RoomError(409, "room/full", "every seat is taken")
            if seat is None:
                seat = open_seats[0]
            elif seat not in open_seats:
                raise RoomError(409, "room/seat_taken", "someone took that seat first")
            holders = [
                SeatHolder(seat, account.display_name, account_id=account.id)
                if h.seat == seat
                else h
                for h in room.holders
            ]
            return await self._save(room, holders)

    async def ready(self, account: AccountRow, room_id: str, ready: bool) -> StoredMatch:
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            if not any(h.account_id == account.id for h in room.holders):
                raise RoomError(403, "room/not_seated", "you have no seat in this room")
            holders = [
                replace(h, ready=ready) if h.account_id == account.id else h for h in room.holders
            ]
            return await self._save(room, holders)

    async def leave(self, account: AccountRow, room_id: str) -> StoredMatch:
        """Give up one's seat; when the host leaves, the room closes."""
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            if room.created_by == account.id:
                room = replace(room, status="closed")
                await self._store(room)
                return room
            holders = [_empty(h.seat) if h.account_id == account.id else h for h in room.holders]
            return await self._save(room, holders)

    async def kick(self, host: AccountRow, room_id: str, seat: int) -> StoredMatch:
        """The host opens a seat again (a person's or a bot's)."""
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            self._host(room, host)
            if not 0 <= seat < room.seats or room.holders[seat].account_id == host.id:
                raise RoomError(422, "room/bad_seat", "that seat cannot be opened")
            holders = [_empty(h.seat) if h.seat == seat else h for h in room.holders]
            return await self._save(room, holders)

    async def fill(
        self, host: AccountRow, room_id: str, bots: list[str] | str | None = None
    ) -> StoredMatch:
        """Seat bots in every open seat: one name for all, or one per open seat in order."""
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            self._host(room, host)
            open_seats = [h.seat for h in room.holders if h.empty]
            if bots is None or isinstance(bots, str):
                names = [bots or default_bot()] * len(open_seats)
            else:
                names = list(bots)
            if len(names) != len(open_seats):
                raise RoomError(
                    422, "room/bad_bots", f"name one bot or one per open seat ({len(open_seats)})"
                )
            try:
                for name in names:
                    check_bot_name(name)
            except ValueError as error:
                raise RoomError(422, "room/bad_bots", str(error)) from None
            chosen = dict(zip(open_seats, names, strict=True))
            holders = [
                SeatHolder(h.seat, f"{chosen[h.seat]} bot", bot=chosen[h.seat], ready=True)
                if h.seat in chosen
                else h
                for h in room.holders
            ]
            return await self._save(room, holders)

    async def start(self, host: AccountRow, room_id: str) -> MatchMaster:
        """Begin the match: every seat taken, every person but the host ready."""
        async with self._lock, self._changing(room_id):
            room = await self._waiting(room_id)
            self._host(room, host)
            if any(h.empty for h in room.holders):
                raise RoomError(409, "room/not_full", "fill or wait for the open seats first")
            waiting = [
                h.name for h in room.holders if h.account_id not in (None, host.id) and not h.ready
            ]
            if waiting:
                raise RoomError(409, "room/not_ready", f"{_listed(waiting)} not ready yet")
            playing = replace(room, status="playing")
            await self._store(playing)
            try:
                return await self.matches.begin(playing)
            except GameError as refused:
                # The engine refuses the stored table (a game changed since the room
                # opened): the room waits again, as it was, and the host is told why.
                await self._store(room)
                raise RoomError(422, "room/cannot_start", str(refused)) from None

    async def rematch(self, account: AccountRow, match_id: str) -> StoredMatch:
        """The same table again once a match is over: a solo match starts at once; a room
        opens with the same seats, the caller as host, the people to get ready again. A
        ranked match's rematch is an unlisted casual room, a Daily's a solo match
        (:data:`REMATCH_MODES`).
        Asked twice (by two players, through any worker), it gives the same new match.

        Raises:
            RoomError: ``match/unknown``, ``match/not_over``, ``room/not_seated``.
        """
        async with self._lock, self._changing(f"rematch:{match_id}"):
            old = await self.store.load_match(match_id)
            if old is None or old.status not in ("playing", "over"):
                raise RoomError(404, "match/unknown", f"no match {match_id[:40]!r}")
            if not any(h.account_id == account.id for h in old.holders):
                raise RoomError(403, "room/not_seated", "only the players ask for a rematch")
            if old.status != "over":
                raise RoomError(409, "match/not_over", "the match is still being played")
            again = await self.store.rematch_of(match_id)
            if again is not None:
                found = await self.store.load_match(again)
                if found is not None:
                    return found
            mode = REMATCH_MODES.get(old.mode, old.mode)
            solo = mode == "solo"
            holders = [
                replace(h, ready=h.bot is not None or h.account_id == account.id)
                for h in old.holders
            ]
            room = replace(
                old,
                id=new_match_id(),
                seed=secrets.randbelow(MAX_SEED + 1),
                holders=holders,
                actions=[],
                status="playing" if solo else "waiting",
                mode=mode,
                public=old.public and mode == old.mode,
                outcome=None,
                created_by=account.id,
                code=None if solo else _code(),
                deadline=None,
            )
            await self.store.create_match(room)
            await self.store.set_rematch(match_id, room.id)
            if solo:
                await self.matches.begin(room)
            return room
