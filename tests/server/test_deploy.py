"""docs/deploy.md, tried: its nginx configuration, with a self-signed certificate from
openssl, in front of a real ``meeple serve``. Over https a guest registers, the session
cookie is ``Secure``, and a move is played through the match's socket over wss.

nginx is Debian's (``apt-get install nginx-light``; ``scripts/test`` installs it where it is
missing, as it does Chromium): without it this test fails.
"""

from __future__ import annotations

import json
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.conftest import ROOT, Server, free_port, sqlite_server

pytestmark = pytest.mark.slow


def _nginx_block() -> str:
    """The first ``nginx`` block of docs/deploy.md."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    found = re.search(r"```nginx\n(.*?)```", text, re.DOTALL)
    assert found, "docs/deploy.md has no nginx block"
    return found.group(1)


def _config(block: str, work: Path, port: int, upstream: int) -> str:
    """The block as docs/deploy.md gives it, on a loopback port, this run's certificate and
    server, inside the smallest nginx.conf that runs as a test (no root paths)."""
    block = re.sub(r"^\s*listen \[::\].*\n", "", block, flags=re.MULTILINE)
    block = re.sub(r"listen 443 ", f"listen 127.0.0.1:{port} ", block)
    block = block.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
    block = block.replace("/etc/ssl/certs/meeple.crt", str(work / "meeple.crt"))
    block = block.replace("/etc/ssl/private/meeple.key", str(work / "meeple.key"))
    temp = " ".join(
        f"{kind}_temp_path {work / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    return (
        f"daemon off; worker_processes 1; pid {work / 'nginx.pid'}; "
        f"error_log {work / 'error.log'} warn; user root;\n"
        "events { worker_connections 1024; }\n"
        f"http {{ access_log off; {temp} uwsgi_temp_path {work / 'uwsgi'}; "
        f"scgi_temp_path {work / 'scgi'};\n{block}\n}}\n"
    )


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: apt-get install nginx-light (scripts/test does it)")
    work = tmp_path / "nginx"
    work.mkdir()
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    certificate = ["-keyout", str(work / "meeple.key"), "-out", str(work / "meeple.crt")]
    subprocess.run(
        ["openssl", *request, "-subj", "/CN=127.0.0.1", *certificate],
        check=True,
        capture_output=True,
    )
    with sqlite_server(tmp_path, clean_log=True) as server:
        port = free_port()
        (work / "nginx.conf").write_text(_config(_nginx_block(), work, port, server.port))
        log = (work / "nginx.out").open("wb")
        proxy = subprocess.Popen(
            [nginx, "-p", str(work), "-c", str(work / "nginx.conf")],
            stdout=log,
            stderr=log,
        )
        log.close()  # the child keeps its own copy
        base = f"https://127.0.0.1:{port}"
        try:
            for _ in range(100):
                if proxy.poll() is not None:
                    raise RuntimeError(f"nginx stopped: {(work / 'nginx.out').read_text()}")
                try:
                    httpx.get(f"{base}/api/health", verify=False, timeout=2)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)
            yield server, base
        finally:
            proxy.terminate()
            proxy.wait(10)


def test_the_documented_proxy_serves_https_secure_cookies_and_wss(
    proxied: tuple[Server, str],
) -> None:
    _, base = proxied
    browser = httpx.Client(base_url=base, verify=False, timeout=10)
    with browser:
        page = browser.get("/")
        assert page.status_code == 200
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert page.headers["strict-transport-security"].startswith("max-age=")
        # The browser's own page registers: Origin is the proxy's https origin.
        origin = {"Origin": base}
        made = browser.post(
            "/api/accounts",
            json={"name": "deployed", "password": "kiwi-kiwi-kiwi"},
            headers=origin,
        )
        assert made.status_code == 201, made.text
        cookie = made.headers["set-cookie"].lower()
        assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
        match = browser.post(
            "/api/matches/solo",
            json={"game": "maatatahay", "bots": "random", "seat": 0},
            headers=origin,
        )
        assert match.status_code == 201, match.text
        session = made.cookies["meeple_session"]
    # Play through the socket, over wss, with the cookie as a browser would send it.
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    url = f"wss://{base.removeprefix('https://')}/ws/matches/{match.json()['id']}"
    with connect(
        url,
        ssl=context,
        additional_headers={"Cookie": f"meeple_session={session}", "Origin": base},
        open_timeout=10,
    ) as socket:
        frame = json.loads(socket.recv(timeout=10))
        while not (frame.get("type") in {"snapshot", "update"} and 0 in frame.get("deciding", ())):
            frame = json.loads(socket.recv(timeout=10))
        assert frame["legal"], frame  # the cookie made this socket seat 0
        socket.send(
            json.dumps(
                {"type": "action", "action": frame["legal"][0]["id"], "version": frame["version"]}
            )
        )
        while not (frame.get("type") == "update" and frame.get("ack") is not None):
            frame = json.loads(socket.recv(timeout=10))
        assert frame["version"] >= 1
    # Another origin's page, through the proxy, is refused as it would be directly.
    forged = httpx.post(
        f"{base}/api/matches/solo",
        json={"game": "maatatahay"},
        cookies={"meeple_session": session},
        headers={"Origin": "https://elsewhere.example"},
        verify=False,
    )
    assert forged.status_code == 403
    assert forged.json()["detail"]["code"] == "request/cross_origin"
