"""Golden playthroughs: regenerate each and diff against the checked-in transcript."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

import meeple.games  # noqa: F401
from meeple.core import MatchRecord, load_game
from meeple.core.transcript import playthrough
from tests.goldens.cases import CASES, HERE


@pytest.mark.parametrize(("name", "game_id", "seats", "options", "seed", "chooser"), CASES)
def test_golden_playthrough_is_unchanged(
    name: str, game_id: str, seats: int, options: dict[str, Any], seed: int, chooser: int
) -> None:
    text, record = playthrough(load_game(game_id, seats, options), seed, chooser)
    golden = (HERE / name).read_text(encoding="utf-8")
    if text != golden:
        diff = "\n".join(
            difflib.unified_diff(
                golden.splitlines(), text.splitlines(), "golden", "now", lineterm="", n=2
            )
        )
        pytest.fail(f"{name} changed; if intended, run scripts/regen-goldens\n{diff[:4000]}")
    again = MatchRecord.loads(record.dumps()).replay()
    assert again.outcome() == record.outcome
