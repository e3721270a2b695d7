"""Shared test settings: a deterministic Hypothesis profile, loaded unless one is named, and
the ``slow`` mark on every end-to-end server test."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# Helpers whose asserts are the tests' own: pytest rewrites them to show the values compared.
pytest.register_assert_rewrite("tests.games.from_view_checks")

settings.register_profile("ci", deadline=None, max_examples=50, derandomize=True, database=None)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts a server process (tests/server's ``server`` fixture) runs end to
    end: it is ``slow``, left out of the fast loop (``pytest -m "not slow"``), run by CI."""
    for item in items:
        names = getattr(item, "fixturenames", ())
        if "server" in names or "attacked_server" in names:
            item.add_marker(pytest.mark.slow)
