"""The database tables, as SQLAlchemy 2 typed models.

A match is stored as its record: the game, seat count, options and seed on ``matches`` and
every accepted action, numbered from 1, on ``match_actions``; replaying them through the
engine rebuilds the match bit for bit. The Alembic migrations in ``migrations/`` create
these tables; the models and the migrations are kept in step by a test.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    TypeDecorator,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every database (SQLite keeps no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"a stored time must carry its zone, got {value!r}")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class Account(Base):
    """A person, a guest or a bot. Guests have no login name and no password."""

    __tablename__ = "accounts"
    __table_args__ = (Index("ix_accounts_name_key", "name_key", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str | None] = mapped_column(String(40), unique=True)
    # The name NFKC-normalised and case-folded (meeple.server.store.accounts.name_key): one account
    # per name whatever its case.
    name_key: Mapped[str | None] = mapped_column(String(160))
    display_name: Mapped[str] = mapped_column(String(40))
    password_hash: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(8))  # "person", "guest" or "bot"
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Token(Base):
    """A login: the SHA-256 of the bearer token or session cookie, and when it expires."""

    __tablename__ = "tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime())


class Match(Base):
    """A match: what replays it (game, seats, options, seed) and where it stands."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(16))  # "solo", "custom" (ranked, daily... later)
    # "waiting" (a room filling its seats), "playing", "over" or "closed" (a room given up)
    status: Mapped[str] = mapped_column(String(16), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("accounts.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    code: Mapped[str | None] = mapped_column(String(12), unique=True)  # a room's private code
    public: Mapped[bool] = mapped_column(Boolean, default=False)  # listed in the lobby
    turn_seconds: Mapped[int | None] = mapped_column(Integer)  # the turn timer; None: off
    deadline: Mapped[datetime | None] = mapped_column(UtcDateTime())  # when the timer rings


class MatchSeat(Base):
    """Who sits at a seat: an account, a bot (by name), or nobody yet."""

    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), index=True
    )
    bot: Mapped[str | None] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(40))
    ready: Mapped[bool] = mapped_column(Boolean, default=False)


class MatchAction(Base):
    """One accepted action; ``number`` is the match version it made (1, 2, ...)."""

    __tablename__ = "match_actions"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class Rating(Base):
    """An account's ranked rating in one game at one seat count (OpenSkill mu and sigma)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    seats: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    provisional: Mapped[bool] = mapped_column(Boolean, default=True)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class RatingChange(Base):
    """One rated ranked match for one account: its place and the rating before and after."""

    __tablename__ = "rating_history"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    game_id: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class DailyAttempt(Base):
    """One account's attempt at a game's Daily: the match, the day, whether it is scored.
    An account has one scored attempt per game and day: a unique key on the scored rows,
    so two workers starting one at once store one (the other's insert is refused)."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        Index(
            "uq_daily_attempts_scored",
            "account_id",
            "game_id",
            "day",
            unique=True,
            sqlite_where=text("scored"),
            postgresql_where=text("scored"),
        ),
    )

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    game_id: Mapped[str] = mapped_column(String(40))
    day: Mapped[str] = mapped_column(String(10), index=True)  # the UTC date, YYYY-MM-DD
    scored: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class RankedLeaver(Base):
    """A seat of a ranked match its bot took over (the player away past the grace period)
    and its player has not come back to: while the row stands the seat is a leaver."""

    __tablename__ = "ranked_leavers"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    left_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)


class RankedTicket(Base):
    """One account's place in the ranked queue, and then what became of it: ``queued``,
    ``matched`` (the match and seat) or ``timeout``. Held in the database so that every
    worker pairs from one queue and answers anyone about it, whichever worker they ask."""

    __tablename__ = "ranked_tickets"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(8), index=True)
    game_id: Mapped[str] = mapped_column(String(40))
    seats: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)  # the table, factions left out
    faction: Mapped[str | None] = mapped_column(String(20))  # queued with; matched: played
    mu: Mapped[float] = mapped_column(Float)
    wait: Mapped[float] = mapped_column(Float)  # seconds before a queued ticket times out
    joined: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
    match_id: Mapped[str | None] = mapped_column(String(24))
    seat: Mapped[int | None] = mapped_column(Integer)


class Rematch(Base):
    """The room (or solo match) a finished match's rematch opened: asked for again, by
    another of its players or through another worker, it is the same one."""

    __tablename__ = "rematches"

    match_id: Mapped[str] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    rematch_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))


class ServerSecret(Base):
    """A secret the server made itself, once, when no setting gave it (the one the Daily's
    seeds are derived from): kept here so every worker and every restart use the same."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime(), default=utcnow)
