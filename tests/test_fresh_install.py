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
import shutil
import socket
import subprocess
import sys
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


@pytest.mark.slow
def test_a_fresh_install_with_the_server_extra_serves_the_browser_client(
    tmp_path: Path, wheel: Path
) -> None:
    """What ``./scripts/serve`` does, in a non-editable install: the client's files travel in
    the package (package data), and ``meeple serve`` serves them next to the API."""
    env = no_compiler_env()
    env_dir = tmp_path / "venv"
    python = fresh_venv(env_dir)
    install = run(
        [str(python), "-m", "pip", "install", "--quiet", f"{wheel}[server]"], env, tmp_path
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
