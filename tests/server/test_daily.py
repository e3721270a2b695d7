"""The Daily over a real server: the same challenge for two accounts and across a restart,
one scored attempt a day, practice and past days unscored, the day's leaderboard, today's
attempts private; and in-process, the unique key and the kept secret."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from meeple.server.modes.daily import Daily
from meeple.server.settings import Settings
from meeple.server.store.db import make_engine, migrate, sessions
from meeple.server.store.match_store import SeatHolder, StoredMatch
from meeple.server.store.models import DailyAttempt
from meeple.server.store.repository import Accounts, SqlMatchStore
from tests.server.conftest import Client, Server
from tests.server.test_live import play_out


def _ok(reply: Any, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


def test_the_daily_is_the_same_for_everyone_and_scored_once(server: Server) -> None:
    one = Client(server).guest("Daily One")
    two = Client(server).guest("Daily Two")
    today = datetime.now(UTC).date().isoformat()
    challenge = _ok(one.get("/api/daily/maatatahay"))
    assert challenge["date"] == today and challenge["seats"] == 2 and challenge["streak"] == 0
    assert challenge["seed"] is None  # published once the day is over
    assert _ok(two.get("/api/daily/maatatahay")) | {"streak": 0} == challenge
    first = _ok(one.post("/api/daily/maatatahay"), 201)
    assert first["mode"] == "daily" and first["daily"]["scored"]
    assert first["daily"]["seed"] == challenge["seed"]
    other = _ok(two.post("/api/daily/maatatahay", json={}), 201)
    assert other["daily"]["seed"] == challenge["seed"] and other["options"] == first["options"]
    assert [p["bot"] for p in other["players"]] == [p["bot"] for p in first["players"]]
    again = one.post("/api/daily/maatatahay")
    assert again.status_code == 409 and again.json()["detail"]["code"] == "daily/played"
    practice = _ok(one.post("/api/daily/maatatahay", json={"practice": True}), 201)
    assert not practice["daily"]["scored"] and practice["daily"]["seed"] == challenge["seed"]
    yesterday = (datetime.now(UTC).date() - timedelta(days=1)).isoformat()
    past = _ok(one.post("/api/daily/maatatahay", params={"date": yesterday}), 201)
    assert not past["daily"]["scored"] and past["daily"]["date"] == yesterday
    assert isinstance(past["daily"]["seed"], int)  # yesterday is over: its seed is shown
    assert _ok(two.get(f"/api/matches/{past['id']}"))["options"] == first["options"]
    assert _ok(one.get("/api/daily/maatatahay"))["streak"] == 1
    # One plays the attempt to the end; the leaderboard lists it, not the unfinished one.
    with one.socket(first["id"]) as socket:
        play_out(socket, 0, random.Random(9), socket.recv())
    board = _ok(one.get("/api/daily/maatatahay/leaderboard"))
    assert [entry["match"] for entry in board] == [None]  # named once the day is over
    (entry,) = board
    assert entry["account"] == one.account["id"] and entry["turns"] > 0 and entry["rank"] == 1
    assert entry["place"] in (1, 2) and entry["won"] == (entry["place"] == 1)
    # A second visit says at once what each played: one's result and rank, two's unfinished.
    played = _ok(one.get("/api/daily/maatatahay"))["played"]
    assert played == {"match": first["id"], "over": True, "of": 1} | {
        key: entry[key] for key in ("rank", "place", "won", "score", "turns")
    }
    assert _ok(two.get("/api/daily/maatatahay"))["played"] == {
        "match": other["id"],
        "over": False,
        "of": 1,
    }
    # Today's attempt is private: no record (it holds the seed), no replay but its player's.
    for client in (one, two):
        refused = client.get(f"/api/matches/{first['id']}/record")
        assert refused.status_code == 403 and refused.json()["detail"]["code"] == "daily/private"
    refused = two.get(f"/api/matches/{first['id']}/replay")
    assert refused.status_code == 403 and refused.json()["detail"]["code"] == "daily/private"
    assert _ok(one.get(f"/api/matches/{first['id']}/replay", params={"seat": 0}))["steps"]
    # The same challenge after a restart, from the same kept secret.
    seed_before = _ok(one.get("/api/daily/maatatahay", params={"date": yesterday}))["seed"]
    server.restart()
    assert _ok(two.get("/api/daily/maatatahay")) | {"streak": 0, "played": None} == challenge
    assert _ok(one.get("/api/daily/maatatahay", params={"date": yesterday}))["seed"] == seed_before
    again = two.post("/api/daily/maatatahay")
    assert again.status_code == 409 and again.json()["detail"]["code"] == "daily/played"
    refused = one.get("/api/daily/maatatahay", params={"date": "2999-01-01"})
    assert refused.status_code == 422 and refused.json()["detail"]["code"] == "daily/bad_date"


def test_one_scored_attempt_a_day_is_the_databases_key_and_the_secret_is_kept_once(
    tmp_path: Path,
) -> None:
    """In-process on a fresh SQLite file: a second scored attempt of the same account, game
    and day is refused by the unique key whoever stores it (a practice one is not); two
    servers without a ``daily_secret`` keep and read one secret; a given secret is used as
    it is, and today's seed is shown by neither."""

    async def run() -> None:
        engine = make_engine(Settings(data_dir=tmp_path))
        await migrate(engine)
        factory = sessions(engine)
        person = await Accounts(factory).create(
            name="ana", display_name="Ana", password_hash="x", kind="person"
        )
        store = SqlMatchStore(factory, engine)
        for match_id in ("m1", "m2", "m3"):
            await store.create_match(
                StoredMatch(match_id, "maatatahay/1", 2, {}, 1, "daily", [SeatHolder(0, "Ana")])
            )

        async def attempt(match_id: str, scored: bool) -> None:
            async with factory() as session, session.begin():
                session.add(
                    DailyAttempt(
                        match_id=match_id,
                        account_id=person.id,
                        game_id="maatatahay",
                        day="2026-12-05",
                        scored=scored,
                    )
                )

        await attempt("m1", scored=True)
        with pytest.raises(IntegrityError):
            await attempt("m2", scored=True)
        await attempt("m3", scored=False)

        def daily(secret: str | None) -> Daily:
            matches: Any = SimpleNamespace(
                settings=Settings(data_dir=tmp_path, daily_secret=secret)
            )
            return Daily(factory, matches)

        day = date(2026, 12, 4)
        one, two = daily(None), daily(None)
        kept = await asyncio.gather(one.seed("maatatahay", day), two.seed("maatatahay", day))
        assert kept[0] == kept[1]
        given = await daily("a secret of the operator's").seed("maatatahay", day)
        assert given != kept[0]
        assert (await one.challenge("maatatahay", datetime.now(UTC).date()))["seed"] is None
        assert (await one.challenge("maatatahay", day))["seed"] == kept[0]
        store.close()
        await engine.dispose()

    asyncio.run(run())
