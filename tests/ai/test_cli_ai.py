"""The AI's command-line faces: the arena, hints in play, replay --analyse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.toygames import ToyOrders
from typer.testing import CliRunner, Result

import meeple.cli.play
from meeple.cli.analyse import MoveNote, annotate
from meeple.cli.arena import (
    MatchResult,
    run_arena,
    schedule,
    search_speed,
    summarise,
    to_markdown,
    wilson,
    write_report,
)
from meeple.cli.main import app
from meeple.cli.selfplay import play_match
from meeple.core import MatchRecord, load_game

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_wilson_interval_brackets_the_proportion() -> None:
    low, high = wilson(40, 40)
    assert 0.91 < low < 0.92 and high == 1.0
    low, high = wilson(10, 20)
    assert low == pytest.approx(1 - high)
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_round_robin_covers_every_pair_in_both_seats() -> None:
    game = load_game("maatatahay")
    jobs = schedule(["a", "b", "c"], game, 2, seed=1, move_seconds=None)
    assert len(jobs) == 6
    assert {job.lineup for job in jobs} == {
        ("a", "b"),
        ("b", "a"),
        ("a", "c"),
        ("c", "a"),
        ("b", "c"),
        ("c", "b"),
    }
    assert len({job.seed for job in jobs}) == 6
    with pytest.raises(ValueError, match="two bots"):
        schedule(["a"], game, 2, seed=1, move_seconds=None)


def test_four_seats_with_two_bots_deal_the_seats_out() -> None:
    jobs = schedule(["a", "b"], ToyOrders(seats=4), 2, seed=0, move_seconds=None)
    assert [job.lineup for job in jobs] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_summary_rates_the_winner_above_the_loser() -> None:
    game = load_game("maatatahay")
    results = [
        MatchResult(i, ("x", "y") if i % 2 else ("y", "x"), (i % 2 ^ 1,), 10, [5, 5], [0.1, 0.2])
        for i in range(6)
    ]
    report = summarise(["x", "y"], game, results, 6, None)
    assert [line.bot for line in report.lines] == ["x", "y"]
    best = report.lines[0]
    assert (best.wins, best.losses, best.games) == (6, 0, 6)
    assert best.low > 0.5
    assert report.lines[0].mu > report.lines[1].mu
    pair = next(p for p in report.pairs if p.bot == "x")
    assert (pair.games, pair.wins, pair.score) == (6, 6, 6.0)
    assert "| x | 6 | 6-0-0 |" in to_markdown(report)


@pytest.mark.slow
def test_a_small_arena_writes_json_markdown_and_a_plot(tmp_path: Path) -> None:
    game = ToyOrders(seats=3)
    seen: list[MatchResult] = []
    report = run_arena(game, ["random", "mcts-easy"], 2, seed=3, on_result=seen.append)
    assert len(seen) == report.matches == 2
    paths = write_report(report, tmp_path)
    data = json.loads(paths[0].read_text(encoding="utf-8"))
    assert {line["bot"] for line in data["lines"]} == {"random", "mcts-easy"}
    assert all(line["games"] == 2 for line in data["lines"])
    assert paths[1].read_text(encoding="utf-8").startswith("### toy_orders/1")
    assert paths[2].read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_the_arena_command(tmp_path: Path) -> None:
    result = invoke(
        "arena", "maatatahay", "--bots", "random,greedy", "--games", "2",
        "--workers", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "| random vs" not in result.output
    assert (tmp_path / "maatatahay-arena.md").exists()
    bad = invoke("arena", "maatatahay", "--bots", "random,deep-thought")
    assert bad.exit_code == 2


def test_hint_in_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meeple.cli.play, "HINT_SECONDS", 0.02)
    result = invoke("play", "maatatahay", "--vs", "mcts-easy", "--seed", "2", input="hint\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Hint for Balan" in result.output  # the tribe, not a seat number
    assert "% to win" in result.output


def _record(tmp_path: Path) -> Path:
    record = play_match(load_game("maatatahay"), 5, ["random", "random"])
    path = tmp_path / "match.json"
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def test_annotate_judges_every_action_of_a_record(tmp_path: Path) -> None:
    record = MatchRecord.loads(_record(tmp_path).read_text(encoding="utf-8"))
    notes = list(annotate(record, seconds=0.0, iterations=12))
    assert len(notes) == len(record.actions)
    assert any(note.forced for note in notes) or all(note.best for note in notes)
    judged = [note for note in notes if not note.forced]
    assert judged and all(0.0 <= note.best_win <= 1.0 for note in judged)
    assert all(note.loss >= 0.0 for note in notes)


def test_marks_follow_the_drop_in_winning_chances() -> None:
    def note(played: float) -> MoveNote:
        return MoveNote(0, 0, "a", played, "b", 0.8, forced=False)

    assert [note(p).mark for p in (0.8, 0.74, 0.65, 0.5)] == ["", "?!", "?", "??"]


@pytest.mark.slow
def test_replay_analyse_prints_a_table_or_json(tmp_path: Path) -> None:
    path = _record(tmp_path)
    table = invoke("replay", str(path), "--analyse", "--seconds", "0.005")
    assert table.exit_code == 0, table.output
    assert "chance to win" in table.output
    as_json = invoke("replay", str(path), "--analyse", "--json", "--seconds", "0.005")
    notes = json.loads(as_json.output)
    assert notes[0]["index"] == 0 and "best_win_probability" in notes[0]


def test_search_speed_counts_iterations_per_second() -> None:
    assert search_speed(ToyOrders(seats=2), seconds=0.02, positions=2) > 0
