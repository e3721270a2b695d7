"""Match records become per-seat training arrays, encoded as the environments encode them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from meeple.adapters.trajectories import trajectories
from meeple.cli.main import app
from meeple.cli.selfplay import play_match
from meeple.core import MatchRecord, load_game
from meeple.core.encoding import action_mask, encoder_for


def records(name: str, seats: int, count: int) -> list[MatchRecord]:
    game = load_game(name, seats)
    return [play_match(game, seed, ["random"] * seats) for seed in range(count)]


@pytest.mark.parametrize(("name", "seats"), [("maatatahay", 2), ("toy_orders", 3)])
def test_rows_are_the_seats_decisions_with_their_views_masks_and_returns(
    name: str, seats: int
) -> None:
    matches = records(name, seats, 2)
    arrays = trajectories(matches)
    game = matches[0].game()
    encoder = encoder_for(game)
    expected_rows = {seat: 0 for seat in range(seats)}
    for record in matches:
        for seat, _ in record.actions:
            expected_rows[seat] += 1
    for seat in range(seats):
        prefix = f"seat{seat}_"
        assert arrays[prefix + "observation"].shape == (expected_rows[seat], encoder.size)
        assert arrays[prefix + "observation"].dtype == np.float32
        actions = arrays[prefix + "action"]
        masks = arrays[prefix + "action_mask"]
        assert masks[np.arange(len(actions)), actions].all()
        done = arrays[prefix + "done"]
        assert done.sum() == len(matches)
        finals = arrays[prefix + "reward"][done]
        assert list(finals) == [r.replay().returns()[seat] for r in matches]
        assert (arrays[prefix + "reward"][~done] == 0).all()
    # The first row of seat 0 is what the environments show at the start of match 0.
    state = matches[0].initial_state()
    first_seat = matches[0].actions[0][0]
    row = arrays[f"seat{first_seat}_observation"][0]
    np.testing.assert_array_equal(row, encoder.observe(state, first_seat))
    np.testing.assert_array_equal(
        arrays[f"seat{first_seat}_action_mask"][0], action_mask(state, first_seat)
    )
    meta = json.loads(str(arrays["meta"]))
    assert meta["game"] == game.id and meta["observation_size"] == encoder.size


def test_mixed_games_are_refused() -> None:
    with pytest.raises(ValueError, match="one game configuration at a time"):
        trajectories([*records("toy_orders", 2, 1), *records("toy_orders", 3, 1)])


@pytest.mark.slow
def test_export_trajectories_command_writes_npz(tmp_path: Path) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text("".join(r.dumps() + "\n" for r in records("maatatahay", 2, 2)))
    result = CliRunner().invoke(app, ["export-trajectories", str(source), "--format", "npz"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    with np.load(tmp_path / "records.npz") as data:
        assert data["seat0_action"].shape == (summary["rows"]["seat0_action"],)
        assert data["seat1_observation"].shape[1] == summary["observation_size"]


def test_export_trajectories_refuses_an_unknown_format(tmp_path: Path) -> None:
    source = tmp_path / "records.jsonl"
    source.write_text("")
    result = CliRunner().invoke(app, ["export-trajectories", str(source), "--format", "csv"])
    assert result.exit_code != 0
    assert "unknown format" in result.output
