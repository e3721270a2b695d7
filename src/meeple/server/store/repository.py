"""Database access: accounts and logins (:class:`Accounts`) and matches (:class:`SqlMatchStore`).

Every method runs in its own transaction and returns plain data, never a live ORM object,
so callers hold no session across an ``await`` on the network.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.engine import CursorResult, Dialect, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, AsyncSession, async_sessionmaker

from meeple.core import JSON, Seat
from meeple.server.store.accounts import name_key
from meeple.server.store.db import SQLITE_BUSY_SECONDS
from meeple.server.store.match_store import SeatHolder, StaleWrite, StoredMatch
from meeple.server.store.models import (
    Account,
    Match,
    MatchAction,
    MatchSeat,
    RankedLeaver,
    Rematch,
    Token,
    utcnow,
)


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as the rest of the server sees it (no password hash)."""

    id: int
    name: str | None
    display_name: str
    kind: str

    @property
    def is_bot(self) -> bool:
        return self.kind == "bot"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "display_name": self.display_name,
            "kind": self.kind,
            "bot": self.is_bot,
        }


def _row(account: Account) -> AccountRow:
    return AccountRow(account.id, account.name, account.display_name, account.kind)


@dataclass(frozen=True, slots=True)
class MatchLine:
    """A match in an account's list: the seat it holds there, and the kind of table and
    the outcome as stored (no match loaded)."""

    id: str
    game_id: str
    status: str
    seat: int
    mode: str
    outcome: dict[str, Any] | None


class NameTaken(Exception):
    """An account already has that login name."""


class Accounts:
    """Accounts and their login tokens (stored as SHA-256 hashes)."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions

    async def create(
        self, *, name: str | None, display_name: str, password_hash: str | None, kind: str
    ) -> AccountRow:
        """A new account.

        Raises:
            NameTaken: when ``name`` is already someone's.
        """
        async with self._sessions() as session:
            account = Account(
                name=name,
                name_key=None if name is None else name_key(name),
                display_name=display_name,
                password_hash=password_hash,
                kind=kind,
            )
            session.add(account)
            try:
                await session.commit()
            except IntegrityError as error:
                raise NameTaken(name) from error
            return _row(account)

    async def by_name(self, name: str) -> tuple[AccountRow, str | None] | None:
        """The account called ``name`` in any case (its :func:`name_key`) and its password
        hash, or None."""
        key = name_key(name.strip())
        async with self._sessions() as session:
            account = (
                await session.execute(select(Account).where(Account.name_key == key))
            ).scalar_one_or_none()
            return None if account is None else (_row(account), account.password_hash)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        async with self._sessions() as session, session.begin():
            await session.execute(
                update(Account).where(Account.id == account_id).values(password_hash=password_hash)
            )

    async def add_token(self, account_id: int, token_hash: str, expires_at: datetime) -> None:
        async with self._sessions() as session, session.begin():
            session.add(Token(token_hash=token_hash, account_id=account_id, expires_at=expires_at))

    async def by_token(self, token_hash: str) -> AccountRow | None:
        """The account a live token belongs to; None for an unknown or expired token."""
        async with self._sessions() as session:
            found = (
                await session.execute(
                    select(Account)
                    .join(Token, Token.account_id == Account.id)
                    .where(Token.token_hash == token_hash, Token.expires_at > utcnow())
                )
            ).scalar_one_or_none()
            return None if found is None else _row(found)

    async def drop_token(self, token_hash: str) -> None:
        async with self._sessions() as session, session.begin():
            await session.execute(delete(Token).where(Token.token_hash == token_hash))

    async def by_ids(self, ids: list[int]) -> dict[int, AccountRow]:
        if not ids:
            return {}
        async with self._sessions() as session:
            rows = (await session.execute(select(Account).where(Account.id.in_(ids)))).scalars()
            return {row.id: _row(row) for row in rows}


class _SessionTransaction:
    """``async with``: a session in a transaction, for stores built without an engine."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession]) -> None:
        self._sessions = sessions
        self._session: AsyncSession | None = None

    async def __aenter__(self) -> AsyncSession:
        self._session = self._sessions()
        await self._session.begin()
        return self._session

    async def __aexit__(self, kind: object, error: object, trace: object) -> None:
        session = self._session
        if session is None:
            return
        try:
            if kind is None:
                await session.commit()
            else:
                await session.rollback()
        finally:
            await session.close()


@dataclass(frozen=True, slots=True)
class _Append:
    match_id: str
    number: int
    seat: Seat
    action: int
    outcome: JSON | None
    deadline: datetime | None


_INSERT_ACTION = (
    "INSERT INTO match_actions (match_id, number, seat, action, created_at) VALUES (?, ?, ?, ?, ?)"
)
_MOVE_MATCH = (
    "UPDATE matches SET version = ?, updated_at = ?, deadline = ?, status = ?, outcome = ?"
    " WHERE id = ?"
)


_T = TypeVar("_T")


def _same(value: Any) -> Any:
    return value


class _SqliteWriter:
    """Group commits on an SQLite file from one thread of its own, on a connection of its own.

    A batch is one trip to that thread: ``BEGIN IMMEDIATE``, the actions, the matches' new
    versions, ``COMMIT`` (a disk flush: WAL with ``synchronous=FULL``), and back. Through the
    async engine the same transaction took five trips between the event loop and the
    driver's thread, each waiting its turn on a busy loop. Values are bound as SQLAlchemy
    binds them (the columns' own processors), so the rows read back the same.
    """

    def __init__(self, path: str, dialect: Dialect) -> None:
        self._path = path
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="meeple-store")
        self._connection: sqlite3.Connection | None = None
        self._binds: dict[str, dict[str, Callable[[Any], Any]]] = {}
        for model in (Match, MatchSeat):
            table = cast(Table, model.__table__)
            self._binds[table.name] = {
                column.name: cast(
                    Callable[[Any], Any],
                    column.type.dialect_impl(dialect).bind_processor(dialect) or _same,
                )
                for column in table.columns
            }
        self._stamp = self._binds["matches"]["updated_at"]
        self._outcome = self._binds["matches"]["outcome"]

    @classmethod
    def for_engine(cls, engine: AsyncEngine | None) -> _SqliteWriter | None:
        """A writer for an engine on an SQLite file; None for any other database."""
        if engine is None or engine.dialect.name != "sqlite":
            return None
        database = make_url(str(engine.url)).database
        if not database or database == ":memory:" or database.startswith("file:"):
            return None
        return cls(database, engine.dialect)

    def _open(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(
                self._path,
                timeout=SQLITE_BUSY_SECONDS,
                isolation_level=None,
                check_same_thread=False,
            )
            # As db.py's engine: WAL, and every commit on disk before it returns.
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA foreign_keys=ON")
            connection.execute("PRAGMA synchronous=FULL")
            self._connection = connection
        return self._connection

    async def _run(self, work: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    async def commit(self, batch: list[_Append]) -> list[StaleWrite | None]:
        return await self._run(self._commit, batch)

    async def create_match(self, match: StoredMatch) -> None:
        """The match and its seats, in one transaction on the writer's thread (the writer
        does not wait on another connection's write lock)."""
        now = utcnow()
        row = {
            "id": match.id,
            "game_id": match.game_id,
            "seats": match.seats,
            "options": dict(match.options),
            "seed": match.seed,
            "mode": match.mode,
            "status": match.status,
            "version": len(match.actions),
            "outcome": match.outcome,
            "created_by": match.created_by,
            "created_at": now,
            "updated_at": now,
            "code": match.code,
            "public": match.public,
            "turn_seconds": match.turn_seconds,
            "deadline": match.deadline,
        }
        seats = [
            {
                "match_id": match.id,
                "seat": holder.seat,
                "account_id": holder.account_id,
                "bot": holder.bot,
                "name": holder.name,
                "ready": holder.ready,
            }
            for holder in match.holders
        ]
        await self._run(
            self._create, self._bound("matches", [row]), self._bound("match_seats", seats)
        )

    def _bound(self, table: str, rows: list[dict[str, Any]]) -> tuple[str, list[tuple[Any, ...]]]:
        binds = self._binds[table]
        names = list(rows[0]) if rows else []
        columns = ", ".join(names)
        marks = ", ".join("?" * len(names))
        values = [tuple(binds[name](row[name]) for name in names) for row in rows]
        return f"INSERT INTO {table} ({columns}) VALUES ({marks})", values

    def _create(self, *inserts: tuple[str, list[tuple[Any, ...]]]) -> None:
        on = self._open()
        on.execute("BEGIN IMMEDIATE")
        try:
            for sql, rows in inserts:
                if rows:
                    on.executemany(sql, rows)
            on.execute("COMMIT")
        except BaseException:
            if on.in_transaction:
                on.execute("ROLLBACK")
            raise

    async def set_deadline(self, match_id: str, deadline: datetime | None) -> None:
        await self._run(self._set_deadline, match_id, self._stamp(deadline))

    def _set_deadline(self, match_id: str, deadline: Any) -> None:
        self._open().execute("UPDATE matches SET deadline = ? WHERE id = ?", (deadline, match_id))

    def _commit(self, batch: list[_Append]) -> list[StaleWrite | None]:
        """Runs on the writer's thread: the whole batch at once, or, when an action number is
        already taken (another writer), one guarded step per action to tell who lost."""
        on = self._open()
        now = self._stamp(utcnow())
        moves = [
            (
                item.number,
                now,
                self._stamp(item.deadline),
                "playing" if item.outcome is None else "over",
                self._outcome(item.outcome),
                item.match_id,
            )
            for item in batch
        ]
        on.execute("BEGIN IMMEDIATE")
        try:
            on.executemany(
                _INSERT_ACTION,
                [(item.match_id, item.number, item.seat, item.action, now) for item in batch],
            )
            on.executemany(_MOVE_MATCH, moves)
            on.execute("COMMIT")
        except sqlite3.IntegrityError:
            on.execute("ROLLBACK")
        except BaseException:
            if on.in_transaction:
                on.execute("ROLLBACK")
            raise
        else:
            return [None] * len(batch)
        results: list[StaleWrite | None] = []
        on.execute("BEGIN IMMEDIATE")
        try:
            for item, move in zip(batch, moves, strict=True):
                moved = on.execute(_MOVE_MATCH + " AND version = ?", (*move, item.number - 1))
                if moved.rowcount != 1:
                    stale = f"match {item.match_id} is not at version {item.number - 1}"
                    results.append(StaleWrite(stale))
                    continue
                on.execute(
                    _INSERT_ACTION, (item.match_id, item.number, item.seat, item.action, now)
                )
                results.append(None)
            on.execute("COMMIT")
        except BaseException:
            if on.in_transaction:
                on.execute("ROLLBACK")
            raise
        return results

    def close(self) -> None:
        def shut() -> None:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

        self._thread.submit(shut).result()
        self._thread.shutdown(wait=True)


class SqlMatchStore:
    """The :class:`~meeple.server.store.match_store.MatchStore` on the database."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], engine: AsyncEngine | None = None
    ) -> None:
        self._sessions = sessions
        self._engine = engine
        self._pending: list[tuple[_Append, asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._sqlite = _SqliteWriter.for_engine(engine)

    def close(self) -> None:
        """Let go of the SQLite writer's thread and connection, if there is one."""
        if self._sqlite is not None:
            self._sqlite.close()
            self._sqlite = None

    async def create_match(self, match: StoredMatch) -> None:
        if self._sqlite is not None:
            await self._sqlite.create_match(match)
            return
        async with self._sessions() as session, session.begin():
            await self.add_match(session, match)

    @classmethod
    async def add_match(cls, session: AsyncSession, match: StoredMatch) -> None:
        """Add a new match and its seats in the caller's transaction (stored with whatever
        else it commits: the ranked queue's tickets of a match it forms)."""
        session.add(
            Match(
                id=match.id,
                game_id=match.game_id,
                seats=match.seats,
                options=dict(match.options),
                seed=match.seed,
                mode=match.mode,
                status=match.status,
                version=len(match.actions),
                outcome=match.outcome,
                created_by=match.created_by,
                code=match.code,
                public=match.public,
                turn_seconds=match.turn_seconds,
                deadline=match.deadline,
            )
        )
        # Seats refer to the match: flush it first (no ORM relationship orders them).
        await session.flush()
        cls._add_seats(session, match)

    @staticmethod
    def _add_seats(session: AsyncSession, match: StoredMatch) -> None:
        for holder in match.holders:
            session.add(
                MatchSeat(
                    match_id=match.id,
                    seat=holder.seat,
                    account_id=holder.account_id,
                    bot=holder.bot,
                    name=holder.name,
                    ready=holder.ready,
                )
            )

    async def save_room(self, match: StoredMatch) -> None:
        """Store a room's seats, options, timer and status (while it is not being played)."""
        async with self._sessions() as session, session.begin():
            await session.execute(
                update(Match)
                .where(Match.id == match.id)
                .values(
                    seats=match.seats,
                    options=dict(match.options),
                    status=match.status,
                    public=match.public,
                    turn_seconds=match.turn_seconds,
                    deadline=match.deadline,
                    updated_at=utcnow(),
                )
            )
            await session.execute(delete(MatchSeat).where(MatchSeat.match_id == match.id))
            self._add_seats(session, match)

    async def rooms(self, *, public: bool | None = None) -> list[StoredMatch]:
        """The rooms waiting for players (only the listed ones with ``public=True``)."""
        async with self._sessions() as session:
            query = select(Match).where(
                Match.status == "waiting", Match.mode.in_(("custom", "lan", "days"))
            )
            if public is not None:
                query = query.where(Match.public == public)
            found = (await session.execute(query.order_by(Match.created_at))).scalars()
            return [await self._load(session, match) for match in list(found)]

    async def rematch_of(self, match_id: str) -> str | None:
        """The id of the room or match a finished match's rematch opened, if it has one."""
        async with self._sessions() as session:
            found = await session.get(Rematch, match_id)
            return None if found is None else found.rematch_id

    async def set_rematch(self, match_id: str, rematch_id: str) -> None:
        async with self._sessions() as session, session.begin():
            session.add(Rematch(match_id=match_id, rematch_id=rematch_id))

    async def room_by_code(self, code: str) -> StoredMatch | None:
        async with self._sessions() as session:
            match = (
                await session.execute(select(Match).where(Match.code == code))
            ).scalar_one_or_none()
            return None if match is None else await self._load(session, match)

    async def set_deadline(self, match_id: str, deadline: datetime | None) -> None:
        if self._sqlite is not None:
            await self._sqlite.set_deadline(match_id, deadline)
            return
        async with self._sessions() as session, session.begin():
            await session.execute(
                update(Match).where(Match.id == match_id).values(deadline=deadline)
            )

    async def load_match(self, match_id: str) -> StoredMatch | None:
        async with self._sessions() as session:
            match = await session.get(Match, match_id)
            if match is None:
                return None
            return await self._load(session, match)

    async def playing_matches(self) -> list[StoredMatch]:
        async with self._sessions() as session:
            matches = (
                await session.execute(select(Match).where(Match.status == "playing"))
            ).scalars()
            return [await self._load(session, match) for match in list(matches)]

    async def playing_count(self, account_id: int, mode: str) -> int:
        """How many matches of ``mode`` the account made are being played (solo quotas)."""
        async with self._sessions() as session:
            found = await session.scalar(
                select(func.count())
                .select_from(Match)
                .where(
                    Match.created_by == account_id,
                    Match.mode == mode,
                    Match.status == "playing",
                )
            )
            return int(found or 0)

    async def playing_among(self, match_ids: Collection[str]) -> set[str]:
        """Those of ``match_ids`` that are being played (the per-address solo quota)."""
        if not match_ids:
            return set()
        async with self._sessions() as session:
            found = await session.scalars(
                select(Match.id).where(Match.id.in_(list(match_ids)), Match.status == "playing")
            )
            return set(found)

    async def matches_of(self, account_id: int) -> list[MatchLine]:
        """Every match the account sits in, newest first, as the lobby lists it."""
        async with self._sessions() as session:
            rows = await session.execute(
                select(
                    Match.id, Match.game_id, Match.status, MatchSeat.seat, Match.mode, Match.outcome
                )
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(MatchSeat.account_id == account_id)
                .order_by(Match.created_at.desc())
            )
            return [MatchLine(*row) for row in rows]

    async def _load(self, session: AsyncSession, match: Match) -> StoredMatch:
        holders = (
            await session.execute(
                select(MatchSeat).where(MatchSeat.match_id == match.id).order_by(MatchSeat.seat)
            )
        ).scalars()
        actions = (
            await session.execute(
                select(MatchAction.seat, MatchAction.action)
                .where(MatchAction.match_id == match.id)
                .order_by(MatchAction.number)
            )
        ).all()
        return StoredMatch(
            id=match.id,
            game_id=match.game_id,
            seats=match.seats,
            options=dict(match.options),
            seed=match.seed,
            mode=match.mode,
            holders=[SeatHolder(h.seat, h.name, h.account_id, h.bot, h.ready) for h in holders],
            actions=[(row[0], row[1]) for row in actions],
            status=match.status,
            outcome=match.outcome,
            created_by=match.created_by,
            code=match.code,
            public=match.public,
            turn_seconds=match.turn_seconds,
            deadline=match.deadline,
        )

    async def append_action(
        self,
        match_id: str,
        number: int,
        seat: Seat,
        action: int,
        *,
        outcome: JSON | None = None,
        deadline: datetime | None = None,
    ) -> None:
        """Store the action and advance the match's version; return once it is committed.

        The version moves only from ``number - 1``, so two writers cannot both store action
        ``number``; the loser gets :class:`StaleWrite`. Actions arriving while a commit is
        under way are committed together in the next transaction (group commit): one disk
        flush serves every match that moved meanwhile, and each caller still returns only
        when its own action is on disk.
        """
        item = _Append(match_id, number, seat, action, outcome, deadline)
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self._pending.append((item, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
        await done

    async def _write(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                results = await self._commit([item for item, _ in batch])
            except Exception as error:  # the whole transaction failed: every caller hears it
                for _, done in batch:
                    if not done.done():
                        done.set_exception(error)
                continue
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)

    async def _commit(self, batch: list[_Append]) -> list[StaleWrite | None]:
        """Commit a batch: two statements for all of it, or, when an action number is
        already taken (another writer), one check per action to tell who lost."""
        if self._sqlite is not None:
            return await self._sqlite.commit(batch)
        try:
            await self._commit_fast(batch)
        except IntegrityError:
            async with self._connect() as on:
                return [await self._append(on, item) for item in batch]
        return [None] * len(batch)

    def _connect(self) -> Any:
        # A bare connection where there is one: the hot path skips the ORM's bookkeeping.
        if self._engine is not None:
            return self._engine.begin()
        return _SessionTransaction(self._sessions)

    async def _commit_fast(self, batch: list[_Append]) -> None:
        now = utcnow()
        matches = cast(Table, Match.__table__)
        actions = cast(Table, MatchAction.__table__)
        async with self._connect() as on:
            await on.execute(
                insert(actions),
                [
                    {
                        "match_id": item.match_id,
                        "number": item.number,
                        "seat": item.seat,
                        "action": item.action,
                        "created_at": now,
                    }
                    for item in batch
                ],
            )
            await on.execute(
                update(matches)
                .where(matches.c.id == bindparam("b_id"))
                .values(
                    version=bindparam("b_version"),
                    updated_at=bindparam("b_now"),
                    deadline=bindparam("b_deadline"),
                    status=bindparam("b_status"),
                    outcome=bindparam("b_outcome"),
                ),
                [
                    {
                        "b_id": item.match_id,
                        "b_version": item.number,
                        "b_now": now,
                        "b_deadline": item.deadline,
                        "b_status": "playing" if item.outcome is None else "over",
                        "b_outcome": item.outcome,
                    }
                    for item in batch
                ],
            )

    @staticmethod
    async def _append(on: AsyncConnection | AsyncSession, item: _Append) -> StaleWrite | None:
        now = utcnow()
        values: dict[str, Any] = {
            "version": item.number,
            "updated_at": now,
            "deadline": item.deadline,
        }
        if item.outcome is not None:
            values.update(status="over", outcome=item.outcome)
        moved: CursorResult[Any] = await on.execute(  # type: ignore[assignment]
            update(Match)
            .where(Match.id == item.match_id, Match.version == item.number - 1)
            .values(**values)
        )
        if moved.rowcount != 1:
            return StaleWrite(f"match {item.match_id} is not at version {item.number - 1}")
        await on.execute(
            insert(MatchAction).values(
                match_id=item.match_id,
                number=item.number,
                seat=item.seat,
                action=item.action,
                created_at=now,
            )
        )
        return None

    async def count(self) -> int:
        async with self._sessions() as session:
            return int((await session.execute(select(func.count(Match.id)))).scalar_one())

    async def ranked_leavers(self, match_id: str) -> set[Seat]:
        """The seats of a ranked match stored as leavers (see :class:`RankedLeaver`)."""
        async with self._sessions() as session:
            found = await session.scalars(
                select(RankedLeaver.seat).where(RankedLeaver.match_id == match_id)
            )
            return set(found)

    async def set_ranked_leavers(self, match_id: str, seats: set[Seat]) -> None:
        """Store ``seats`` as the match's leavers: new ones from now, the others dropped."""
        async with self._sessions() as session, session.begin():
            stored = set(
                await session.scalars(
                    select(RankedLeaver.seat).where(RankedLeaver.match_id == match_id)
                )
            )
            if stored - seats:
                await session.execute(
                    delete(RankedLeaver).where(
                        RankedLeaver.match_id == match_id, RankedLeaver.seat.in_(stored - seats)
                    )
                )
            now = utcnow()
            session.add_all(
                RankedLeaver(match_id=match_id, seat=seat, left_at=now)
                for seat in sorted(seats - stored)
            )
