"""The database engine and its migrations.

:func:`make_engine` builds an async engine for the settings' URL (creating the data
directory for the embedded SQLite file); :func:`migrate` brings the schema to the newest
Alembic revision on that engine. The server calls both on startup.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from meeple.server.settings import Settings

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

SQLITE_BUSY_SECONDS = 30.0
"""How long an SQLite connection waits for another connection's write lock."""


def make_engine(settings: Settings) -> AsyncEngine:
    """An async engine for the settings' database; SQLite gets WAL and foreign keys."""
    url = make_url(settings.resolved_database_url())
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        # A writer waits up to 30 s for another's write lock (sqlite3's default is 5 s, which
        # a burst of logins on a busy machine outlasts).
        engine = create_async_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a writer commits; synchronous stays FULL, so an action
    # is on disk before the server acknowledges it.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


def sessions(engine: AsyncEngine) -> async_sessionmaker[Any]:
    return async_sessionmaker(engine, expire_on_commit=False)


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration pointing at the packaged migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


async def migrate(engine: AsyncEngine) -> None:
    """Apply every migration not yet applied (creating the tables on first start)."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)


def _upgrade(connection: Connection) -> None:
    command.upgrade(alembic_config(connection), "head")
