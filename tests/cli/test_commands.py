"""The ``meeple`` commands, driven through Typer's CliRunner with piped input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from meeple.cli.main import app
from meeple.cli.render import render_json, render_view, renderer_for
from meeple.cli.undo import branches_of
from meeple.core import MatchRecord, load_game
from meeple.games.maatatahay.draw import render_maatatahay

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
MANY_ONES = "1\n" * 400


def invoke(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def saved(path: Path) -> MatchRecord:
    return MatchRecord.loads(path.read_text(encoding="utf-8"))


# -- play ----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("vs", ["random", "greedy"])
def test_play_a_whole_match_by_always_choosing_the_first_option(vs: str) -> None:
    result = invoke("play", "maatatahay", "--vs", vs, "--seed", "7", input=MANY_ONES)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert "Scores: Balan" in result.output
    assert "bot) played" in result.output


@pytest.mark.slow
def test_play_hot_seat_to_the_end() -> None:
    result = invoke("play", "maatatahay", "--vs", "human", "--seed", "3", input=MANY_ONES)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert "bot" not in result.output.split("\n", 1)[1]
    assert "Wazu>" in result.output and "Balan>" in result.output


@pytest.mark.slow
def test_play_as_the_second_seat() -> None:
    result = invoke("play", "maatatahay", "--seat", "1", "--seed", "4", input=MANY_ONES)
    assert result.exit_code == 0, result.output
    assert "Wazu>" in result.output and "Balan>" not in result.output


def test_a_bad_entry_explains_and_changes_nothing(tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    script = f"save {before}\nfoo\n99\nz9\nsave {after}\nquit\n"
    result = invoke("play", "maatatahay", "--vs", "random", "--seed", "1", input=script)
    assert result.exit_code == 0, result.output
    assert "✗" in result.output
    assert "'foo'" in result.output
    assert "there is no option 99" in result.output
    assert saved(before).actions == saved(after).actions
    assert saved(before).replay() == saved(after).replay()


def test_undo_takes_back_to_the_previous_decision(tmp_path: Path) -> None:
    start, undone, moved = tmp_path / "start.json", tmp_path / "undone.json", tmp_path / "m.json"
    script = f"save {start}\n1\n1\nsave {moved}\nundo\nsave {undone}\nquit\n"
    result = invoke("play", "maatatahay", "--vs", "greedy", "--seed", "2", input=script)
    assert result.exit_code == 0, result.output
    assert "Taken back" in result.output
    # The record branches off (meta.undone holds the stretch before, see meeple.cli.undo).
    kept = [action for stretch in branches_of(saved(undone)) for action in stretch.actions]
    kept += saved(undone).actions
    assert len(saved(moved).actions) > len(kept)
    # One human decision (and any bot replies) is gone: the history is a prefix of before.
    assert kept == saved(moved).actions[: len(kept)]
    assert kept[-1:] != saved(moved).actions[-1:]
    assert len(kept) >= len(saved(start).actions)
    assert saved(undone).replay() is not None


def test_undo_with_nothing_to_undo() -> None:
    result = invoke("play", "maatatahay", "--vs", "human", "--seed", "2", input="undo\nquit\n")
    assert result.exit_code == 0
    assert "nothing to undo" in result.output


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    first, second, third = (tmp_path / f"{n}.json" for n in ("a", "b", "c"))
    invoke("play", "maatatahay", "--seed", "5", input=f"1\n1\n1\n1\nsave {first}\nquit\n")
    result = invoke("play", "maatatahay", "--load", str(first), input=f"save {second}\nquit\n")
    assert result.exit_code == 0, result.output
    assert saved(first).actions == saved(second).actions
    assert saved(first).seed == saved(second).seed == 5
    result = invoke(
        "play", "maatatahay", "--seed", "9", input=f"load {first}\nsave {third}\nquit\n"
    )
    assert "Loaded" in result.output
    assert saved(third).actions == saved(first).actions


def test_load_of_a_broken_file_is_an_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{nope", encoding="utf-8")
    result = invoke("play", "maatatahay", "--load", str(broken))
    assert result.exit_code == 2
    assert "not JSON" in result.output
    result = invoke("play", "maatatahay", "--seed", "1", input=f"load {broken}\nquit\n")
    assert result.exit_code == 0
    assert "not JSON" in result.output


def test_unknown_game_and_opponent_exit_2() -> None:
    assert invoke("play", "chess").exit_code == 2
    assert invoke("play", "maatatahay", "--vs", "oracle").exit_code == 2
    assert invoke("play", "maatatahay", "--seat", "2").exit_code == 2


# -- replay --------------------------------------------------------------------------------


@pytest.fixture
def finished_record(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    result = invoke("selfplay", "maatatahay", "--games", "1", "--seed", "3", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.slow
def test_replay_prints_every_action_and_board(finished_record: Path) -> None:
    record = saved(finished_record)
    result = invoke("replay", str(finished_record))
    assert result.exit_code == 0, result.output
    game = record.game()
    for index, (_, action) in enumerate(record.actions, start=1):
        assert f"#{index} " in result.output
        assert game.format_action(action) in result.output
    assert "Outcome" in result.output


@pytest.mark.slow
def test_replay_step_waits_for_enter(finished_record: Path) -> None:
    result = invoke("replay", str(finished_record), "--step", input="\n" * 200)
    assert result.exit_code == 0, result.output


def test_replay_json_prints_the_outcome_and_the_final_state(
    tmp_path: Path, finished_record: Path
) -> None:
    result = invoke("replay", str(finished_record), "--json")
    assert result.exit_code == 0
    record = saved(finished_record)
    state = record.replay()
    assert json.loads(result.stdout) == {
        "game": record.game().id,
        "outcome": state.outcome().to_json(),  # type: ignore[union-attr]
        "state": state.to_json(),
    }
    assert json.loads(result.stdout)["outcome"]["reason"]
    data = json.loads(finished_record.read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:3]
    data.pop("outcome", None)
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(data), encoding="utf-8")
    result = invoke("replay", str(unfinished), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["outcome"] is None


def test_replay_of_an_invalid_record_exits_2(tmp_path: Path, finished_record: Path) -> None:
    data = json.loads(finished_record.read_text(encoding="utf-8"))
    data["actions"][3] = [data["actions"][3][0], 10**6]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    result = invoke("replay", str(bad))
    assert result.exit_code == 2
    assert "action #3 does not replay" in result.output
    assert invoke("replay", str(bad), "--json").exit_code == 2
    assert invoke("replay", str(tmp_path / "missing.json")).exit_code == 2


# -- selfplay, bench, games ---------------------------------------------------------------


@pytest.mark.slow
def test_selfplay_writes_n_replayable_records() -> None:
    result = invoke(
        "selfplay", "maatatahay", "--games", "3", "--seed", "8", "--bots", "random,greedy"
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    for line in lines:
        record = MatchRecord.loads(line)
        final = record.replay()
        assert final.is_terminal()
        assert record.outcome == final.outcome()
        assert record.players == ["random bot", "greedy bot"]
    assert len({MatchRecord.loads(line).seed for line in lines}) == 3


@pytest.mark.slow
def test_selfplay_is_deterministic_per_seed(tmp_path: Path) -> None:
    outs = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for out in outs:
        invoke("selfplay", "maatatahay", "--games", "2", "--seed", "1", "--out", str(out))
    assert outs[0].read_text() == outs[1].read_text()


def test_selfplay_rejects_unknown_bots() -> None:
    result = invoke("selfplay", "maatatahay", "--bots", "random,oracle")
    assert result.exit_code == 2
    result = invoke("selfplay", "maatatahay", "--bots", "random,random,random")
    assert result.exit_code == 2


def test_bench_prints_json() -> None:
    result = invoke("bench", "--game", "maatatahay", "--seconds", "0.05")
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)
    assert entry["game"] == "maatatahay/1"
    assert entry["games"] >= 1
    assert entry["games_per_second"] > 0
    assert entry["actions_per_second"] > 0
    assert entry["mean_length"] > 0


def test_games_lists_maatatahay() -> None:
    result = invoke("games")
    assert result.exit_code == 0
    assert "maatatahay/1" in result.output
    result = invoke("games", "--json")
    assert "maatatahay/1" in [info["id"] for info in json.loads(result.stdout)]


# -- rendering -----------------------------------------------------------------------------


def rendered(renderable: object, width: int = 140) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_maatatahay_board_shows_coordinates_scores_and_the_stream() -> None:
    game = load_game("maatatahay")
    state = game.new_initial_state(11)
    text = rendered(render_view(state.view(0)))
    for file in "abcde":
        assert f" {file} " in text
    for rank in "12345":
        assert f" {rank} " in text
    assert "Scores: Balan 0  Wazu 0" in text
    assert "Stream:" in text and " 1) B: " in text
    assert "relic" in text
    assert "Round 1" in text


def test_maatatahay_board_shows_warriors_after_a_match() -> None:
    record = MatchRecord.for_game(load_game("maatatahay"), seed=3)
    state = record.initial_state()
    while not state.is_terminal():
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    text = rendered(render_maatatahay(state.view(None)))
    assert "⚔" in text
    assert "face down" in text or "B " in text
    assert "win" in text or "Draw" in text


def test_unknown_games_render_as_json() -> None:
    assert renderer_for("nosuchgame") is render_json
    assert renderer_for("maatatahay") is not render_json
    assert '"pile": 3' in rendered(render_view({"game": "nosuchgame/1", "pile": 3}))
