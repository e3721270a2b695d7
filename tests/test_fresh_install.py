"""A fresh ``pip install .`` needs no C compiler and plays.

The default install is pure Python: no extension is built, Cython is not fetched, NumPy and
the other extras stay out. The check makes a new virtual environment with ``CC`` and ``CXX``
set to ``/bin/false`` (any compiler call fails), installs the repository into it the way a
player would, and plays a match with ``meeple selfplay``. It needs the package index (pip
fetches typer and rich), and takes a while: it is marked slow, so the fast inner loop leaves
it to the full run (CI).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import venv
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, check=False, env=env, cwd=cwd, capture_output=True, text=True, timeout=900
    )


def fresh_venv(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A copy of the sources as a fresh clone holds them, a new venv, and an environment in
    which any compiler call fails: (source, venv, env)."""
    # A copy of the sources that git tracks (and the ones not yet added), without build
    # outputs or virtual environments, so the install sees what a fresh clone holds.
    source = tmp_path / "meeple"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "*.so", "*.c", "build", "*.egg-info", "__pycache__", ".*_cache"
        ),
    )
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "VIRTUAL_ENV", "PIP_REQUIRE_VIRTUALENV"}
    }
    env |= {"CC": "/bin/false", "CXX": "/bin/false", "LDSHARED": "/bin/false"}
    return source, env_dir, env


@pytest.mark.slow
def test_a_fresh_install_builds_nothing_and_plays(tmp_path: Path) -> None:
    source, env_dir, env = fresh_venv(tmp_path)
    python = env_dir / "bin" / "python"
    install = run([str(python), "-m", "pip", "install", "--quiet", str(source)], env, tmp_path)
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


@pytest.mark.slow
def test_a_fresh_install_with_the_server_extra_serves_the_browser_client(tmp_path: Path) -> None:
    """What ``./scripts/serve`` does, in a non-editable install: the client's files travel in
    the package (package data), and ``meeple serve`` serves them next to the API."""
    source, env_dir, env = fresh_venv(tmp_path)
    python = env_dir / "bin" / "python"
    install = run(
        [str(python), "-m", "pip", "install", "--quiet", f"{source}[server]"], env, tmp_path
    )
    assert install.returncode == 0, install.stdout + install.stderr
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env |= {"MEEPLE_DATA_DIR": str(tmp_path / "data")}
    server = subprocess.Popen(
        [str(env_dir / "bin" / "meeple"), "serve", "--port", str(port)],
        env=env,
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        page = httpx.get(f"{base}/", timeout=5)
        assert page.status_code == 200
        assert '<script type="module" src="/static/app.js">' in page.text
        for path in ("app.js", "vendor/preact-htm.js", "boards/generic.js", "style.css"):
            served = httpx.get(f"{base}/static/{path}", timeout=5)
            assert served.status_code == 200, path
            assert served.content
        assert httpx.get(f"{base}/static/nothing.js", timeout=5).status_code == 404
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=15)
    assert f"open http://127.0.0.1:{port} in a browser" in output
