"""scripts/balance_manafields.py: its tables add up, also when several runs are merged."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "balance_manafields.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("balance_manafields", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_merging_two_runs_adds_up_their_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    balance = _script()
    paths = []
    for seed in (1, 2):
        rows = [balance.play_pairing((f0, f1, 2, seed, 2)) for f0, f1 in [("elves", "orcs")]]
        table = balance.report(rows, 0.0)
        path = tmp_path / f"run{seed}.json"
        path.write_text(json.dumps(table))
        paths.append(path)
    runs = [json.loads(p.read_text())["pairings"][0] for p in paths]
    (merged,) = balance.merge(paths)
    assert merged["games"] == 4
    for field in ("first_wins", "second_wins", "draws"):
        assert merged[field] == runs[0][field] + runs[1][field]
    points = merged["first_wins"] + merged["draws"] / 2
    assert merged["first_rate"] == points / 4
    assert merged["mean_turns"] == (runs[0]["mean_turns"] + runs[1]["mean_turns"]) / 2
    assert sum(merged["ends"].values()) == 4
    table = balance.report([merged], 0.0)
    assert table["first_seat"]["games"] == 4 and table["first_seat"]["rate"] == points / 4
    assert "elves    orcs" in capsys.readouterr().out
