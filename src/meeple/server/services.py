"""The server's services, shared by the routes: settings, database, accounts, live matches."""

from __future__ import annotations

import gc
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from meeple.server.live.bots import BotRunner
from meeple.server.live.matches import Matches
from meeple.server.modes.daily import Daily
from meeple.server.modes.ranked import Ranked
from meeple.server.modes.rooms import Rooms
from meeple.server.settings import Settings
from meeple.server.store.accounts import token_hash
from meeple.server.store.db import make_engine, migrate, sessions
from meeple.server.store.repository import AccountRow, Accounts, SqlMatchStore

FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation between two full ones (Python's default: 10)."""


def _steady_collector() -> None:
    """Keep the garbage collector from stopping the event loop for long.

    A full collection walks every object: with a thousand live matches it took about 0.3 s,
    a stall every client sees (the p99 of the load script). What was built at startup
    (modules, the app, rebuilt matches) is frozen out of its walks, and full collections come
    a hundred times less often; young objects are collected as before.
    """
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


@dataclass(slots=True)
class Services:
    """The server's live parts, built by :meth:`open` and torn down by :meth:`close`."""

    settings: Settings
    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    accounts: Accounts
    store: SqlMatchStore
    bots: BotRunner
    matches: Matches
    rooms: Rooms
    ranked: Ranked
    daily: Daily

    @classmethod
    async def open(cls, settings: Settings) -> Services:
        """Connect, migrate the database to the newest schema, rebuild live matches."""
        engine = make_engine(settings)
        if settings.redis_url:
            from meeple.server.cluster.workers import migrate_alone  # noqa: PLC0415 (redis, if asked)

            await migrate_alone(engine)
        else:
            await migrate(engine)
        factory = sessions(engine)
        store = SqlMatchStore(factory, engine)
        bots = BotRunner(
            settings.bot_workers, queue=settings.bot_queue, quick=settings.bot_quick_workers
        )
        cluster = None
        if settings.redis_url:
            from meeple.server.cluster.workers import Cluster  # noqa: PLC0415 (redis: only when asked)

            cluster = Cluster(engine, settings.redis_url, settings.claim_seconds)
        matches = Matches(store, bots, settings, cluster)
        rooms = Rooms(store, matches)
        ranked = Ranked(factory, store, matches)  # follows the ranked matches mastered here
        daily = Daily(factory, matches)
        services = cls(
            settings, engine, factory, Accounts(factory), store, bots, matches, rooms, ranked, daily
        )
        await matches.start()
        _steady_collector()
        return services

    async def account_for(self, token: str | None) -> AccountRow | None:
        if not token:
            return None
        return await self.accounts.by_token(token_hash(token))

    async def close(self) -> None:
        self.ranked.close()
        await self.matches.close()
        self.bots.close()
        self.store.close()
        await self.engine.dispose()
