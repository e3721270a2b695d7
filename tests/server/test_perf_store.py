"""The SQLite store's writer thread: group commits, refusals and the rows read back as the
ORM writes them (in-process, on a fresh SQLite file). Speed is the load script's business
(scripts/loadtest); these check that the fast path keeps every guarantee."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from meeple.server.settings import Settings
from meeple.server.store.db import make_engine, migrate, sessions
from meeple.server.store.match_store import SeatHolder, StaleWrite, StoredMatch
from meeple.server.store.models import utcnow
from meeple.server.store.repository import Accounts, SqlMatchStore


def _match(match_id: str, account: int) -> StoredMatch:
    return StoredMatch(
        match_id,
        "maatatahay/1",
        2,
        {"size": 5},
        7,
        "custom",
        [SeatHolder(0, "Ana", account, ready=True), SeatHolder(1, "random bot", bot="random")],
        code=f"C{match_id}",
        public=True,
        turn_seconds=90,
    )


def test_the_sqlite_writer_commits_batches_and_refuses_a_second_writer(tmp_path: Path) -> None:
    async def run() -> None:
        engine = make_engine(Settings(data_dir=tmp_path))
        await migrate(engine)
        factory = sessions(engine)
        ana = await Accounts(factory).create(
            name="ana", display_name="Ana", password_hash="x", kind="person"
        )
        store = SqlMatchStore(factory, engine)
        orm = SqlMatchStore(factory)  # the same tables through the ORM, for comparison
        assert store._sqlite is not None and orm._sqlite is None
        await asyncio.gather(*(store.create_match(_match(f"m{i}", ana.id)) for i in range(8)))
        await orm.create_match(_match("orm", ana.id))
        fast, slow = await store.load_match("m0"), await store.load_match("orm")
        assert fast is not None and slow is not None
        # Written by the thread, read by the ORM: the same as the ORM's own row.
        assert fast.code == "Cm0" and slow.code == "Corm"
        for name in ("options", "holders", "public", "turn_seconds", "status", "seed", "mode"):
            assert getattr(fast, name) == getattr(slow, name), name
        # Many matches move at once: one batch, each caller back once its action is on disk.
        deadline = utcnow() + timedelta(seconds=90)
        await asyncio.gather(
            *(store.append_action(f"m{i}", 1, 0, 10 + i, deadline=deadline) for i in range(8))
        )
        # A batch where one action number is taken: that caller loses, the others store.
        results = await asyncio.gather(
            store.append_action("m0", 1, 0, 99),
            store.append_action("m1", 2, 1, 20),
            store.append_action("m2", 2, 1, 21, outcome={"winners": [1], "reason": "test"}),
            return_exceptions=True,
        )
        assert isinstance(results[0], StaleWrite) and list(results[1:]) == [None, None]
        m0, m1, m2 = [await store.load_match(f"m{i}") for i in range(3)]
        assert m0 is not None and m1 is not None and m2 is not None
        assert m0.actions == [(0, 10)] and m1.actions == [(0, 11), (1, 20)]
        assert m0.deadline == deadline  # a zone-aware UTC time, as the ORM reads it
        assert (m2.status, m2.outcome) == ("over", {"winners": [1], "reason": "test"})
        assert {m.id for m in await store.playing_matches()} == {
            "orm",
            *(f"m{i}" for i in range(8) if i != 2),
        }
        await store.set_deadline("m1", None)
        reloaded = await store.load_match("m1")
        assert reloaded is not None and reloaded.deadline is None
        # The ORM's writers and the writer thread share the file.
        await orm.append_action("m3", 2, 1, 5)
        with pytest.raises(StaleWrite):
            await store.append_action("m3", 2, 1, 6)
        store.close()
        await engine.dispose()

    asyncio.run(run())
