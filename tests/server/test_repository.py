"""The database layer in-process on a fresh SQLite file: migrations, tokens, the match store."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from meeple.server.settings import Settings
from meeple.server.store.accounts import token_hash
from meeple.server.store.db import make_engine, migrate, sessions
from meeple.server.store.match_store import SeatHolder, StaleWrite, StoredMatch
from meeple.server.store.models import Base, utcnow
from meeple.server.store.repository import Accounts, SqlMatchStore


def test_the_default_database_is_an_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert settings.resolved_database_url() == f"sqlite+aiosqlite:///{tmp_path / 'meeple.db'}"
    given = Settings(data_dir=tmp_path, database_url="postgresql+asyncpg://u@h/db")
    assert given.resolved_database_url() == "postgresql+asyncpg://u@h/db"


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEEPLE_PORT", "9001")
    monkeypatch.setenv("MEEPLE_DATA_DIR", str(tmp_path))
    settings = Settings()
    assert settings.port == 9001 and settings.data_dir == tmp_path


def test_migrations_create_what_the_models_describe(tmp_path: Path) -> None:
    async def run() -> None:
        engine = make_engine(Settings(data_dir=tmp_path / "new"))
        await migrate(engine)
        await migrate(engine)  # a second start finds nothing to do
        async with engine.connect() as connection:
            diff = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
        await engine.dispose()
        assert diff == []

    asyncio.run(run())
    assert (tmp_path / "new" / "meeple.db").exists()


def test_expired_tokens_log_nobody_in_and_stores_refuse_a_second_writer(tmp_path: Path) -> None:
    async def run() -> None:
        engine = make_engine(Settings(data_dir=tmp_path))
        await migrate(engine)
        factory = sessions(engine)
        accounts = Accounts(factory)
        person = await accounts.create(
            name="ana", display_name="Ana", password_hash="x", kind="person"
        )
        await accounts.add_token(person.id, token_hash("live"), utcnow() + timedelta(hours=1))
        await accounts.add_token(person.id, token_hash("old"), utcnow() - timedelta(seconds=1))
        assert await accounts.by_token(token_hash("live")) == person
        assert await accounts.by_token(token_hash("old")) is None
        store = SqlMatchStore(factory)
        match = StoredMatch(
            "m",
            "maatatahay/1",
            2,
            {},
            1,
            "solo",
            [SeatHolder(0, "Ana", person.id), SeatHolder(1, "bot", bot="random")],
        )
        await store.create_match(match)
        await store.append_action("m", 1, 1, 3)
        with pytest.raises(StaleWrite):
            await store.append_action("m", 1, 1, 4)
        loaded = await store.load_match("m")
        assert loaded is not None and loaded.actions == [(1, 3)]
        assert [m.id for m in await store.playing_matches()] == ["m"]
        await store.append_action("m", 2, 0, 5, outcome={"winners": [0], "reason": "test"})
        assert await store.playing_matches() == []
        await engine.dispose()

    asyncio.run(run())
