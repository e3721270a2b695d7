"""The server's services, shared by the routes: settings, database, accounts, live matches."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from meeple.server.auth import token_hash
from meeple.server.bots import BotRunner
from meeple.server.db import make_engine, migrate, sessions
from meeple.server.matches import Matches
from meeple.server.repository import AccountRow, Accounts, SqlMatchStore
from meeple.server.rooms import Rooms
from meeple.server.settings import Settings


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

    @classmethod
    async def open(cls, settings: Settings) -> Services:
        """Connect, migrate the database to the newest schema, rebuild live matches."""
        engine = make_engine(settings)
        await migrate(engine)
        factory = sessions(engine)
        store = SqlMatchStore(factory, engine)
        bots = BotRunner(settings.bot_workers)
        matches = Matches(store, bots, settings)
        rooms = Rooms(store, matches)
        services = cls(settings, engine, factory, Accounts(factory), store, bots, matches, rooms)
        await matches.start()
        return services

    async def account_for(self, token: str | None) -> AccountRow | None:
        if not token:
            return None
        return await self.accounts.by_token(token_hash(token))

    async def close(self) -> None:
        await self.matches.close()
        self.bots.close()
        self.store.close()
        await self.engine.dispose()
