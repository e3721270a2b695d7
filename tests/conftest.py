"""Shared test settings: a deterministic Hypothesis profile, loaded unless one is named, and
the ``slow`` mark on every test that starts a server process."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import settings

# Helpers whose asserts are the tests' own: pytest rewrites them to show the values compared.
pytest.register_assert_rewrite("tests.games.from_view_checks")

settings.register_profile("ci", deadline=None, max_examples=50, derandomize=True, database=None)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A fixture whose return annotation names tests/server's ``Server`` (``Server``,
# ``Iterator[Server]``, ``Iterator[list[Server]]``) starts ``meeple serve`` processes.
_STARTS_A_SERVER = re.compile(r"\bServer\b")


def _starts_a_server(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    for definitions in info.name2fixturedefs.values():
        for definition in definitions:
            returns = getattr(definition.func, "__annotations__", {}).get("return")
            if returns is not None and _STARTS_A_SERVER.search(str(returns)):
                return True
    return False


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts a server process runs end to end: it is ``slow``, left out of the
    fast loop (``pytest -m "not slow"``), run by CI. That is any test using a fixture that
    gives a ``Server`` (tests/server's ``server``, tests/attacks' ``attacked_server``, a
    module's own), directly or through another fixture; a test that starts one in its body
    carries the mark itself."""
    for item in items:
        if _starts_a_server(item):
            item.add_marker(pytest.mark.slow)
