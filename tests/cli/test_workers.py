"""``--workers N`` writes what ``--workers 1`` writes: every match's seed comes from the run's
seed and the match's index, and the results come back in match order (cli/executor.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.analyse import annotate
from meeple.cli.executor import ExecutorUnavailable, default_workers, run_jobs
from meeple.cli.main import app
from meeple.cli.selfplay import match_seed, play_match
from meeple.core import MatchRecord, load_game

# Every test here starts worker processes or compares runs in them: the full run's.
pytestmark = pytest.mark.slow

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), catch_exceptions=False)


def square(number: int) -> int:
    return number * number


def test_run_jobs_yields_in_job_order_in_any_number_of_processes() -> None:
    jobs = list(range(40))
    assert list(run_jobs(square, jobs, workers=1)) == [n * n for n in jobs]
    assert list(run_jobs(square, jobs, workers=3, chunksize=2)) == [n * n for n in jobs]
    assert list(run_jobs(square, [], workers=2)) == []
    assert default_workers() >= 1


def test_an_unknown_executor_is_one_line() -> None:
    with pytest.raises(ExecutorUnavailable, match="--executor is pool or ray, not 'dask'"):
        run_jobs(square, [1], executor="dask")
    result = runner.invoke(app, ["selfplay", "maatatahay", "--executor", "dask"])
    assert result.exit_code == 2
    assert "--executor is pool or ray, not 'dask'" in result.output


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four random Maatatahay matches, one record a line, from --workers 1."""
    path = tmp_path_factory.mktemp("workers") / "one.jsonl"
    result = invoke("selfplay", "maatatahay", "--games", "4", "--seed", "7", "--out", str(path),
                    "--workers", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    return path


def test_selfplay_writes_the_same_records_with_two_workers(records: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.jsonl"
    result = invoke("selfplay", "maatatahay", "--games", "4", "--seed", "7", "--out", str(two),
                    "--workers", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert two.read_text(encoding="utf-8") == records.read_text(encoding="utf-8")
    game = load_game("maatatahay")
    expected = [play_match(game, match_seed(7, i), ["random"] * 2).dumps() for i in range(4)]
    assert records.read_text(encoding="utf-8").splitlines() == expected


def test_export_trajectories_writes_the_same_arrays_with_two_workers(
    records: Path, tmp_path: Path
) -> None:
    np = pytest.importorskip("numpy")
    arrays = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}.npz"
        result = invoke("export-trajectories", str(records), "--out", str(out),
                        "--workers", workers)  # fmt: skip
        assert result.exit_code == 0, result.output
        with np.load(out) as data:
            arrays.append({key: data[key] for key in data.files})
    one, two = arrays
    assert sorted(one) == sorted(two)
    for key, value in one.items():
        assert two[key].dtype == value.dtype, key
        assert np.array_equal(two[key], value), key
    found = MatchRecord.loads_all(records.read_text(encoding="utf-8"))
    for seat in (0, 1):
        acts = [(n, a) for n, r in enumerate(found) for s, a in r.actions if s == seat]
        assert one[f"seat{seat}_action"].tolist() == [a for _, a in acts]
        assert one[f"seat{seat}_episode"].tolist() == [n for n, _ in acts]


def test_export_refuses_a_record_that_does_not_replay_with_its_number(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    game = load_game("maatatahay")
    good = play_match(game, 1, ["random"] * 2)
    bad = play_match(game, 2, ["random"] * 2)
    state = bad.initial_state()
    for seat, action in bad.actions[:3]:
        state.apply(seat, action)
    seat = bad.actions[3][0]
    legal = set(state.legal_actions(seat))
    bad.actions[3] = (seat, next(a for a in range(game.num_distinct_actions()) if a not in legal))
    source = tmp_path / "mixed.jsonl"
    source.write_text(good.dumps() + "\n" + bad.dumps() + "\n", encoding="utf-8")
    result = runner.invoke(app, ["export-trajectories", str(source), "--workers", "2"])
    assert result.exit_code == 2
    assert "record #1 does not replay" in result.output


def test_replay_analyse_notes_the_same_with_two_workers(records: Path) -> None:
    notes = []
    for workers in ("1", "2"):
        result = invoke("replay", str(records), "--index", "2", "--analyse", "--json",
                        "--seconds", "0", "--iterations", "15", "--workers", workers)  # fmt: skip
        assert result.exit_code == 0, result.output
        notes.append(json.loads(result.stdout))
    assert notes[0] == notes[1]
    record = MatchRecord.loads_all(records.read_text(encoding="utf-8"))[1]
    serial = [note.to_json() for note in annotate(record, seconds=0.0, iterations=15)]
    assert notes[0] == serial


def _without_times(report: dict[str, Any]) -> dict[str, Any]:
    for line in report["lines"]:
        line.pop("seconds")
        line.pop("mean_move_ms")
    return report


def test_arena_rates_the_same_with_two_workers(tmp_path: Path) -> None:
    pytest.importorskip("openskill")
    pytest.importorskip("matplotlib")
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        result = invoke("arena", "maatatahay", "--bots", "random,greedy", "--games", "3",
                        "--move-seconds", "0", "--workers", workers, "--out", str(out))  # fmt: skip
        assert result.exit_code == 0, result.output
        text = (out / "maatatahay-arena.json").read_text(encoding="utf-8")
        reports.append(_without_times(json.loads(text)))
    assert reports[0] == reports[1]


def test_balance_counts_the_same_with_two_workers(tmp_path: Path) -> None:
    reports = []
    for workers in ("1", "2"):
        out = tmp_path / f"{workers}.json"
        result = invoke("balance", "maatatahay", "--games", "3", "--seed", "4", "--bots",
                        "random", "--workers", workers, "--json", str(out))  # fmt: skip
        assert result.exit_code == 0, result.output
        reports.append(out.read_text(encoding="utf-8"))
    assert reports[0] == reports[1]


def test_without_ray_the_ray_executor_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the cluster extra were missing
    with pytest.raises(ExecutorUnavailable, match=r"needs Ray.*meeple\[cluster\]"):
        run_jobs(square, [1], executor="ray")
    result = runner.invoke(app, ["selfplay", "maatatahay", "--executor", "ray"])
    assert result.exit_code == 2
    assert "pip install 'meeple[cluster]'" in result.output
