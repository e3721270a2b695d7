"""Alembic's environment: runs the migrations on the connection the server hands in.

The server migrates on startup (:func:`meeple.server.store.db.migrate`), passing its own
connection in ``config.attributes["connection"]``. Run by hand (``alembic upgrade head``
with ``sqlalchemy.url`` set), it opens an async engine of its own.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from meeple.server.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_on(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_own_engine(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as connection:
        await connection.run_sync(run_on)
    await engine.dispose()


given = config.attributes.get("connection")
if given is not None:
    run_on(given)
else:
    asyncio.run(run_own_engine(config.get_main_option("sqlalchemy.url") or ""))
