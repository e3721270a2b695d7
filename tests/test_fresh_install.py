"""A fresh ``pip install .`` needs no C compiler and plays.

The default install is pure Python: no extension is built, Cython is not fetched, NumPy and
the other extras stay out. The module builds the repository's wheel once, the way pip does
for ``pip install .`` (in an isolated build environment), with ``CC`` and ``CXX`` set to
``/bin/false`` so that any compiler call fails; the wheel must be pure Python
(``py3-none-any``). Each test then makes a new virtual environment of its own, installs that
wheel into it the way a player would, and plays a match (``meeple selfplay``) or serves the
browser client (``meeple serve``). Building once instead of once per test is what pip does
anyway: ``pip install .`` is a wheel build followed by the wheel's install. It needs the
package index (pip fetches setuptools, typer and rich) and takes a while: it is marked slow,
so the fast inner loop leaves it to the full run (CI).
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import socket
import subprocess
import sys
import time
import venv
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import GENEROUS_LIMITS, Client, Server, Socket

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, check=False, env=env, cwd=cwd, capture_output=True, text=True, timeout=900
    )


def no_compiler_env() -> dict[str, str]:
    """The environment outside any virtual environment, in which any compiler call fails."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV"}
    }
    return env | {"CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}


def fresh_venv(path: Path) -> Path:
    """A new virtual environment (with pip) at ``path``; its python."""
    venv.EnvBuilder(with_pip=True, clear=True).create(path)
    return path / "bin" / "python"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``pip install .`` builds from a copy of the sources as a fresh clone holds
    them, built with every compiler call failing; it must be pure Python."""
    tmp_path = tmp_path_factory.mktemp("fresh-wheel")
    # A copy of the sources that git tracks (and the ones not yet added), without build
    # outputs or virtual environments, so the build sees what a fresh clone holds.
    source = tmp_path / "meeple"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "*.so", "*.c", "build", "*.egg-info", "__pycache__", ".*_cache"
        ),
    )
    # pip builds it in an isolated build environment of its own (setuptools from the index),
    # so the interpreter that runs pip lends the build nothing.
    built = run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", "dist", str(source)],
        no_compiler_env(),
        tmp_path,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = list((tmp_path / "dist").glob("meeple-*.whl"))
    assert len(wheels) == 1, wheels
    # Nothing compiled in it: a pure Python wheel for any platform.
    assert wheels[0].name.endswith("-py3-none-any.whl"), wheels[0].name
    return wheels[0]


@pytest.mark.slow
def test_a_fresh_install_builds_nothing_and_plays(tmp_path: Path, wheel: Path) -> None:
    env = no_compiler_env()
    env_dir = tmp_path / "venv"
    python = fresh_venv(env_dir)
    install = run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], env, tmp_path)
    assert install.returncode == 0, install.stdout + install.stderr
    # Nothing compiled came with it, and no extra.
    probe = run(
        [
            str(python),
            "-c",
            "import importlib.util as u, json; "
            "print(json.dumps({m: u.find_spec(m) is not None for m in "
            "('meeple', 'meeple_fast', 'Cython', 'numpy', 'matplotlib', 'hypothesis')}))",
        ],
        env,
        tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    found = json.loads(probe.stdout)
    assert found == {
        "meeple": True,
        "meeple_fast": False,
        "Cython": False,
        "numpy": False,
        "matplotlib": False,
        "hypothesis": False,
    }
    meeple = env_dir / "bin" / "meeple"
    played = run([str(meeple), "selfplay", "maatatahay", "--games", "1"], env, tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    record = json.loads(played.stdout.splitlines()[0])
    assert record["game"].startswith("maatatahay")


@pytest.fixture(scope="module")
def served_venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A fresh virtual environment holding what ``./scripts/serve`` installs: meeple with its
    ``server`` extra and nothing else (the wheel instead of the editable checkout; the same
    requirements). Its folder."""
    tmp_path = tmp_path_factory.mktemp("served")
    env_dir = tmp_path / "venv"
    python = fresh_venv(env_dir)
    install = run(
        [str(python), "-m", "pip", "install", "--quiet", f"{wheel}[server]"],
        no_compiler_env(),
        tmp_path,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    # The server's own libraries came with the extra; no other extra's did.
    probe = run(
        [
            str(python),
            "-c",
            "import importlib.util as u, json; "
            "print(json.dumps({m: u.find_spec(m) is not None for m in "
            "('uvicorn', 'openskill', 'limits', 'hypothesis', 'numpy', 'pytest', 'ray')}))",
        ],
        no_compiler_env(),
        tmp_path,
    )
    assert probe.returncode == 0, probe.stderr
    assert json.loads(probe.stdout) == {
        "uvicorn": True,
        "openskill": True,
        "limits": True,
        "hypothesis": False,
        "numpy": False,
        "pytest": False,
        "ray": False,
    }
    return env_dir


@contextmanager
def serving(env_dir: Path, data: Path, **settings: str) -> Iterator[tuple[str, Path]]:
    """``meeple serve`` of ``env_dir`` on a free loopback port, its data in ``data``, as
    ``./scripts/serve`` starts it (``MEEPLE_*`` settings added); its address and the file its
    output goes to. Stopped afterwards (SIGTERM)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = no_compiler_env() | {"MEEPLE_DATA_DIR": str(data)}
    env |= {f"MEEPLE_{name}": value for name, value in settings.items()}
    data.mkdir(parents=True, exist_ok=True)
    log = data / "serve.log"
    with log.open("w") as output:  # the child keeps its own copy of the descriptor
        server = subprocess.Popen(
            [str(env_dir / "bin" / "meeple"), "serve", "--port", str(port)],
            env=env,
            cwd=data,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "no answer within 60 s: " + log.read_text()
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        yield base, log
    finally:
        server.terminate()
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.mark.slow
def test_a_fresh_install_with_the_server_extra_serves_the_browser_client(
    tmp_path: Path, served_venv: Path
) -> None:
    """What ``./scripts/serve`` does, in a non-editable install: the client's files travel in
    the package (package data), and ``meeple serve`` serves them next to the API."""
    with serving(served_venv, tmp_path / "data") as (base, log):
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200
        assert '<script type="module" src="/static/app.js">' in page.text
        for path in ("app.js", "vendor/preact-htm.js", "boards/generic.js", "style.css"):
            served = httpx.get(f"{base}/static/{path}", timeout=5)
            assert served.status_code == 200, path
            assert served.content
        assert httpx.get(f"{base}/static/nothing.js", timeout=5).status_code == 404
    assert f"open {base} in a browser" in log.read_text()


# -- every mode through the API, on the server extra alone ---------------------------------


def _ok(reply: httpx.Response, status: int = 200) -> Any:
    assert reply.status_code == status, (reply.request.url, reply.text)
    return reply.json()


def _account(server: Server) -> Client:
    """A registered account (ranked is for them): a name of its own, a password that is
    neither the name nor a common one, logged in with its bearer token."""
    client = Client(server)
    name = f"Fresh{secrets.token_hex(5)}"
    made = _ok(
        client.post("/api/accounts", json={"name": name, "password": secrets.token_urlsafe(18)}),
        201,
    )
    client.token, client.account = made["token"], made["account"]
    return client


def _play_together(
    sockets: dict[int, Socket], rng: random.Random, on_turn: Callable[[], None] | None = None
) -> dict[str, Any]:
    """Each seat plays a random legal action whenever it decides, until the match ends; the
    outcome. A seat acts once on each position it is shown (an action sent on a position
    that moved on is answered ``version/stale``, and the seat asks for the match again).
    ``on_turn`` is called the first time seat 0 decides (before it acts)."""
    frames = {seat: sock.recv() for seat, sock in sockets.items()}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for seat, sock in sockets.items():
            frame = frames[seat]
            if frame.get("outcome") is not None:
                outcome: dict[str, Any] = frame["outcome"]
                return outcome
            if seat in frame.get("deciding", ()) and frame.get("legal"):
                if on_turn is not None and seat == 0:
                    on_turn()
                    on_turn = None
                action = rng.choice(frame["legal"])["id"]
                sock.send({"type": "action", "action": action, "version": frame["version"]})
                frames[seat] = {"type": "sent"}
        for seat, sock in sockets.items():
            try:
                got = sock.recv(timeout=0.05)
            except TimeoutError:
                continue
            if got["type"] in ("snapshot", "update"):
                frames[seat] = got
            elif got["type"] == "error":
                assert got["code"] == "version/stale", got
                sock.send({"type": "resume", "since": got["version"]})
    raise AssertionError(f"the match did not end: {frames}")


def _play_alone(
    client: Client, match_id: str, seed: int, on_turn: Callable[[], None] | None = None
) -> dict[str, Any]:
    """The caller's seat 0 against the match's bots, to the end; the outcome."""
    with client.socket(match_id) as sock:
        return _play_together({0: sock}, random.Random(seed), on_turn)


def _seat_two(server: Server, body: dict[str, Any]) -> tuple[Client, Client, str]:
    """A room (``POST /api/rooms`` with ``body``) whose host is joined by a second account
    through its private code and started; the two and the match's id."""
    host, guest = _account(server), _account(server)
    room = _ok(host.post("/api/rooms", json=body), 201)
    _ok(guest.post("/api/rooms/join", json={"code": room["code"]}))
    _ok(guest.post(f"/api/rooms/{room['id']}/ready", json={"ready": True}))
    started = _ok(host.post(f"/api/rooms/{room['id']}/start"))
    assert started["status"] == "playing"
    return host, guest, room["id"]


def _seats_of(match: dict[str, Any], *clients: Client) -> dict[int, Client]:
    ids = [player.get("account") for player in match["players"]]
    return {ids.index(client.account["id"]): client for client in clients if client.account}


def _play_seated(clients: dict[int, Client], match_id: str, seed: int) -> dict[str, Any]:
    with clients[0].socket(match_id) as first, clients[1].socket(match_id) as second:
        return _play_together({0: first, 1: second}, random.Random(seed))


@pytest.mark.slow
def test_the_server_extra_alone_plays_every_mode(tmp_path: Path, served_venv: Path) -> None:
    """A match of every mode through the HTTP and WebSocket API of a server installed as
    ``./scripts/serve`` installs it, so a library a mode needs and the extra lacks fails
    here (ranked was never rated so once: OpenSkill was missing). The quotas are the tests'
    generous ones (every request comes from 127.0.0.1); nothing else is changed."""
    generous = {name: "100000" for name in GENEROUS_LIMITS}
    with serving(served_venv, tmp_path / "data", **generous) as (base, log):
        server = Server("", tmp_path / "data", port=int(base.rsplit(":", 1)[1]))
        ana = _account(server)

        # Solo, with a hint on the way; then its replay (stored and uploaded) and analysis.
        solo = _ok(
            ana.post("/api/matches/solo", json={"game": "maatatahay", "bots": "random"}), 201
        )
        hints: list[Any] = []

        def hint() -> None:
            hints.append(_ok(ana.get(f"/api/matches/{solo['id']}/hint?iterations=20")))

        assert _play_alone(ana, solo["id"], seed=1, on_turn=hint) is not None
        assert len(hints) == 1 and hints[0]
        replay = _ok(ana.get(f"/api/matches/{solo['id']}/replay"))
        record = _ok(ana.get(f"/api/matches/{solo['id']}/record"))
        assert len(replay["steps"]) == len(record["actions"]) + 1
        uploaded = _ok(ana.post("/api/replays", content=json.dumps(record)))
        assert uploaded["steps"] == replay["steps"]
        line = _ok(ana.get(f"/api/matches/{solo['id']}/analysis?seat=0&iterations=20"))
        assert line

        # A room: two accounts, a private code, played to the end.
        host, guest, room = _seat_two(server, {"game": "maatatahay", "timer": None})
        match = _ok(host.get(f"/api/matches/{room}"))
        assert match["mode"] == "custom"
        assert _play_seated(_seats_of(match, host, guest), room, seed=2) is not None

        # Over days: a room without a timer; whose turn it is shows in the list of matches.
        host, guest, days = _seat_two(server, {"game": "maatatahay", "mode": "days", "timer": None})
        match = _ok(host.get(f"/api/matches/{days}"))
        assert match["mode"] == "days"
        seats = _seats_of(match, host, guest)
        turns = {
            seat: next(m for m in _ok(c.get("/api/matches")) if m["id"] == days)["your_turn"]
            for seat, c in seats.items()
        }
        assert sorted(turns.values()) == [False, True], turns
        assert _play_seated(seats, days, seed=3) is not None

        # Ranked: two accounts queue, meet, play, and are rated on the leaderboard.
        one, two = _account(server), _account(server)
        for client in (one, two):
            queue = {"game": "maatatahay", "seats": 2}
            _ok(client.post("/api/ranked/queue", json=queue), 201)
        deadline = time.monotonic() + 30
        while (found := _ok(one.get("/api/ranked/queue")))["status"] != "matched":
            assert found["status"] == "queued" and time.monotonic() < deadline, found
            time.sleep(0.2)
        ranked = found["match"]
        match = _ok(one.get(f"/api/matches/{ranked}"))
        assert match["mode"] == "ranked"
        assert _play_seated(_seats_of(match, one, two), ranked, seed=4) is not None
        # Rated as the match ends, on the worker that masters it: asked until it shows.
        players = {one.account["id"], two.account["id"]}
        deadline = time.monotonic() + 30
        while True:
            board = _ok(one.get("/api/ranked/leaderboard?game=maatatahay&seats=2"))
            if players <= {entry["account"] for entry in board}:
                break
            assert time.monotonic() < deadline, (board, log.read_text()[-4000:])
            time.sleep(0.2)
        for client in (one, two):
            ratings = _ok(client.get(f"/api/accounts/{client.account['id']}/ratings"))
            assert [change["match"] for change in ratings["history"]] == [ranked]

        # The Daily: today's scored attempt, played to the end, on the day's leaderboard.
        daily = _ok(ana.get("/api/daily/maatatahay"))
        attempt = _ok(ana.post("/api/daily/maatatahay", json={}), 201)
        assert attempt["mode"] == "daily" and attempt["daily"]["scored"], (daily, attempt)
        assert _play_alone(ana, attempt["id"], seed=5) is not None
        board = _ok(ana.get("/api/daily/maatatahay/leaderboard"))
        assert [entry["account"] for entry in board] == [ana.account["id"]]

        # A tutorial, step by step with each step's example (it needs no account).
        tutorial = _ok(httpx.get(f"{base}/api/tutorials/maatatahay", timeout=10))
        for step in tutorial["steps"]:
            check = {"step": step["index"], "action": step["example"]}
            answer = _ok(httpx.post(f"{base}/api/tutorials/maatatahay/check", json=check))
            assert answer["ok"] is True, (step, answer)
    output = log.read_text(errors="replace")
    assert "Traceback" not in output and "Exception in ASGI" not in output, output[-4000:]
