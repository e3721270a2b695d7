"""schemathesis against the server's own OpenAPI description (``/openapi.json``): for every
REST operation, requests drawn from its schema (valid ones and, separately, ones that break
it) on a real ``meeple serve``; none may be answered with a 5xx, and the server keeps
serving.

Each request carries a guest's bearer token, so the routes behind a login are reached past
their ``401`` (a logout gets a login of its own). Bounded: a few examples per operation and
mode.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.server.conftest import Server, sqlite_server

pytestmark = pytest.mark.slow

EXAMPLES = {GenerationMode.POSITIVE: 5, GenerationMode.NEGATIVE: 2}
"""Per operation; drawing requests that break a schema costs more, so fewer of those."""


@pytest.fixture(scope="module")
def openapi_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """SQLite; bots on a thread of the server (the routes start matches against bots)."""
    with sqlite_server(
        tmp_path_factory.mktemp("openapi"), {"MEEPLE_BOT_MOVE_SECONDS": "0.05"}, clean_log=True
    ) as running:
        yield running


def _token(server: Server) -> str:
    reply = httpx.post(f"{server.base}/api/guests", json={"display_name": "Fuzz"}, timeout=10)
    assert reply.status_code == 201, reply.text
    return str(reply.json()["token"])


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_no_request_drawn_from_the_openapi_description_gets_a_5xx(
    openapi_server: Server, mode: GenerationMode
) -> None:
    schema = schemathesis.openapi.from_url(f"{openapi_server.base}/openapi.json")
    failures: list[str] = []
    shared = _token(openapi_server)
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @settings(
            max_examples=EXAMPLES[mode],
            deadline=None,
            derandomize=True,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode))
        def call(case: Any) -> None:
            # Logging out ends the login it is sent with: that case gets one of its own.
            token = _token(openapi_server) if case.method == "DELETE" else shared
            headers = {"Authorization": f"Bearer {token}"}
            response = case.call(base_url=openapi_server.base, headers=headers, timeout=30)
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> {response.status_code}: "
                    f"{response.text[:300]}\n{case.as_curl_command()}"
                )

        try:
            call()
        except Unsatisfiable:
            assert mode is GenerationMode.NEGATIVE  # nothing in it can be broken
    assert operations > 30
    assert not failures, "\n\n".join(failures)
    assert httpx.get(f"{openapi_server.base}/api/health", timeout=10).status_code == 200
