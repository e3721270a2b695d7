"""Shared test settings: a deterministic Hypothesis profile, loaded unless one is named; a
run of more than one file on every core; and the ``slow`` mark on every test that starts a
server process."""

from __future__ import annotations

import os
import re
from collections.abc import Generator
from pathlib import Path

import pytest
from hypothesis import settings

# Helpers whose asserts are the tests' own: pytest rewrites them to show the values compared.
pytest.register_assert_rewrite("tests.games.from_view_checks")

settings.register_profile("ci", deadline=None, max_examples=50, derandomize=True, database=None)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _one_file(config: pytest.Config) -> bool:
    """Whether the run names tests of one file only (``tests/x.py``, ``tests/x.py::test_y``)."""
    here = config.invocation_params.dir
    files = {(here / arg.split("::")[0]).resolve() for arg in config.args}
    return len(files) == 1 and next(iter(files)).is_file()


@pytest.hookimpl(wrapper=True)
def pytest_cmdline_main(config: pytest.Config) -> Generator[None, object, object]:
    """More than one file runs on every core: pytest-xdist's ``-n auto --dist loadfile``
    (a file's tests together on one worker, so its module fixtures start once), as
    ``./scripts/test`` runs them. One file runs in this process, where starting workers
    would cost more than they save. Given ``-n`` (``-n 0``: in this process) or ``--dist``,
    or inside a worker, the run is left as asked."""
    option = config.option
    if (
        getattr(option, "numprocesses", 0) is None
        and getattr(option, "dist", None) == "no"
        and not getattr(option, "tx", None)
        and not hasattr(config, "workerinput")
        and not _one_file(config)
    ):
        option.numprocesses = "auto"
        option.dist = "loadfile"
    return (yield)


# A fixture whose return annotation names tests/server's ``Server`` (``Server``,
# ``Iterator[Server]``, ``Iterator[list[Server]]``) starts ``meeple serve`` processes.
_STARTS_A_SERVER = re.compile(r"\bServer\b")
ATTACKS = Path(__file__).resolve().parent / "attacks"


def _starts_a_server(item: pytest.Item) -> bool:
    if ATTACKS in item.path.parents:
        return True  # every attack runs against a real server
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
    module's own), directly or through another fixture, and every test in tests/attacks; a
    test elsewhere that starts one in its body carries the mark itself."""
    for item in items:
        if _starts_a_server(item):
            item.add_marker(pytest.mark.slow)
