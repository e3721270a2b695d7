"""A clean stop: under bot load SIGTERM stops the server within seconds with every
acknowledged action stored, the requests it cut off refused in type and its log clean, and
however the server ends (SIGKILL included) no child process of it is left.

Before, after a solo flood SIGTERM did not stop the server within 100 s (stopping, the bot
runner started its pool afresh once per queued job), and a server killed with SIGKILL left
its bot workers running. Later, multiprocessing's resource tracker (the pool's) was still
alive just after the server exited in about one stop of four, and the analyses the stop
cut off were answered a bare 500 with a traceback in the log.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from pathlib import Path

from tests.attacks.conftest import report
from tests.attacks.test_bot_starvation import Attacker, analyse_on, flood_solo, played_a_little
from tests.server.conftest import Client, Server, sqlite_server

LOAD = {"MEEPLE_SOLO_LIVE": "6"}
ANALYSIS_ANSWERS = {
    (200, None),
    (429, "rate/limited"),
    (503, "bots/busy"),
    (503, "server/stopping"),  # still open when stop_seconds had passed
}


def _children(pid: int) -> set[int]:
    """Every process descended from ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: the command may hold spaces, so split after its ')'.
        parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _loaded(server: Server) -> Attacker:
    """Expert matches played as fast as their bots answer, and long analyses besides."""
    attacker = Attacker(server, "127.0.0.4", "Load")
    attacker.run(flood_solo, attacker)
    deadline = time.monotonic() + 20
    while attacker.answers[(201, None)] < int(LOAD["MEEPLE_SOLO_LIVE"]):
        assert time.monotonic() < deadline, attacker.answers
        time.sleep(0.1)
    return attacker


def test_a_killed_server_leaves_no_bot_worker(tmp_path: Path) -> None:
    with sqlite_server(tmp_path, LOAD) as server:
        assert server.process is not None
        attacker = _loaded(server)
        try:
            time.sleep(1.0)  # the bots think
            children = _children(server.process.pid)
            assert children, "the server started no bot worker"
            server.kill()
            deadline = time.monotonic() + 5
            while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
                time.sleep(0.1)
            left = sorted(pid for pid in children if _alive(pid))
            log = server.log()
        finally:
            attacker.close()
            for pid in children:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)  # the test's own leftovers, never another's
        assert not left, f"{len(left)} of the server's {len(children)} children outlived it"
        # Nothing was left to clean up after it (a resource tracker would warn of semaphores).
        assert "Traceback" not in log and "resource_tracker" not in log, log


def test_sigterm_under_load_stops_within_seconds_with_every_ack_stored(tmp_path: Path) -> None:
    with sqlite_server(tmp_path, LOAD) as server:
        assert server.process is not None
        attacker = _loaded(server)
        analyst = Attacker(server, "127.0.0.5", "Analyst")
        line = played_a_little(analyst)
        for n in range(3):
            analyst.run(analyse_on, analyst, line, 1000 - n)
        # A player acting against the random bot the whole time: its acknowledgements.
        player = Client(server).guest("Player")
        match = player.solo(game="maatatahay", bots="random", seat=0)
        acked = 0
        stopping = threading.Event()

        def play() -> None:
            nonlocal acked
            try:
                with player.socket(match["id"]) as socket:
                    frame = socket.until("snapshot")
                    while not stopping.is_set() and frame.get("outcome") is None:
                        if 0 not in frame.get("deciding", ()):
                            frame = socket.recv(5)
                            continue
                        socket.send(
                            {
                                "type": "action",
                                "action": frame["legal"][0]["id"],
                                "version": frame["version"],
                            }
                        )
                        frame = socket.until_ack(5)
                        acked += 1
            except Exception:  # the server went away mid-frame: what was acked counts
                return

        thread = threading.Thread(target=play, daemon=True)
        thread.start()
        time.sleep(2.0)
        children = _children(server.process.pid)
        began = time.perf_counter()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(30)
        stopped = time.perf_counter() - began
        stopping.set()
        thread.join(10)
        attacker.close()
        analyst.close()
        answered = dict(analyst.answers)
        left = [pid for pid in children if _alive(pid)]
        log = server.log()
    with sqlite3.connect(tmp_path / "meeple.db") as database:
        (stored,) = database.execute(
            "SELECT count(*) FROM match_actions WHERE match_id = ? AND seat = 0", (match["id"],)
        ).fetchone()
    report(
        "SIGTERM under bot load",
        stopped_s=round(stopped, 2),
        acknowledged=acked,
        stored=stored,
        analyses=str(answered),
        children=len(children),
    )
    assert stopped < 10, f"SIGTERM took {stopped:.1f} s"
    assert acked > 0 and stored >= acked
    assert not left, f"{len(left)} children outlived the server"
    assert set(answered) <= ANALYSIS_ANSWERS, answered
    assert "Traceback" not in log and "resource_tracker" not in log, log[-4000:]
