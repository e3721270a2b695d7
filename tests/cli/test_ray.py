"""``--executor ray`` plays the jobs the pool plays and gives the same records: a local Ray
instance (two CPUs, no dashboard) runs them as Ray tasks. Needs the cluster extra."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from meeple.cli.balance import play_job, schedule
from meeple.cli.executor import run_jobs
from meeple.cli.main import app
from meeple.cli.selfplay import play_selfplay_job, selfplay_jobs
from meeple.core import load_game

ray = pytest.importorskip("ray")

pytestmark = pytest.mark.slow

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    """One local Ray instance for the module; run_jobs finds it started and keeps it."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_tasks_give_the_pools_records(local_ray: Any) -> None:
    game = load_game("maatatahay")
    jobs = selfplay_jobs(game, 11, 4, ["random", "greedy"])
    pool = list(run_jobs(play_selfplay_job, jobs, workers=2))
    on_ray = list(run_jobs(play_selfplay_job, jobs, executor="ray"))
    assert on_ray == pool
    assert local_ray.is_initialized()  # started by the fixture, left running by run_jobs


def test_balance_rows_on_ray_equal_the_pools(local_ray: Any) -> None:
    game = load_game("maiterra", seats=3)
    jobs = schedule(game, ["random"] * 3, 3, seed=5)
    assert list(run_jobs(play_job, jobs, executor="ray")) == list(run_jobs(play_job, jobs))


def test_selfplay_command_on_ray_writes_the_pools_file(local_ray: Any, tmp_path: Path) -> None:
    paths = {name: tmp_path / f"{name}.jsonl" for name in ("pool", "ray")}
    for executor, path in paths.items():
        result = runner.invoke(
            app,
            ["selfplay", "maatatahay", "--games", "3", "--seed", "2", "--bots", "random",
             "--executor", executor, "--workers", "2", "--out", str(path)],
            catch_exceptions=False,
        )  # fmt: skip
        assert result.exit_code == 0, result.output
    assert paths["ray"].read_text(encoding="utf-8") == paths["pool"].read_text(encoding="utf-8")
