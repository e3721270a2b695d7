"""How long a match goes without a master when its worker dies: two real workers (`meeple
serve --redis-url`) on a fresh PostgreSQL database and the local Redis, a solo match
mastered by one and a client on the other; the master's worker is killed (SIGKILL) and the
time until the client gets the new master's snapshot is taken, the workers swapping roles
each round. Default ``claim_seconds`` (1 s).

    PYTHONPATH=. .venv/bin/python scripts/bench_failover.py [rounds]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from tests.server.conftest import Client, Server, run_pg

REDIS_URL = "redis://127.0.0.1:6379/0"


def main(rounds: int) -> None:
    name = f"meeple_failover_{uuid.uuid4().hex[:8]}"
    run_pg(f'CREATE DATABASE "{name}" TEMPLATE template0')
    url = f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    env = {"MEEPLE_REDIS_URL": REDIS_URL}
    with tempfile.TemporaryDirectory() as data:
        a, b = (Server(url, Path(data), env=env, start_seconds=120) for _ in range(2))
        try:
            a.start()
            b.start()
            times = []
            for round_ in range(rounds):
                owner, other = (a, b) if round_ % 2 == 0 else (b, a)
                host = Client(owner).guest("Failover")
                match = host.solo(game="maatatahay", seat=0, bots="random", seed=round_)
                client = Client(other)
                client.token = host.token
                with client.socket(match["id"]) as socket:
                    socket.recv()
                    start = time.monotonic()
                    owner.kill()
                    while socket.recv()["type"] != "snapshot":
                        pass
                    times.append(time.monotonic() - start)
                owner.restart()
        finally:
            a.stop()
            b.stop()
            run_pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    shown = ", ".join(f"{seconds:.2f}" for seconds in times)
    print(f"kill to the new master's snapshot, s: {shown}; median {statistics.median(times):.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
