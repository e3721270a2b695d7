"""Files pass between commands (issue 19, items 1-3).

Every producer of match records -- ``selfplay --out`` (one a line), ``play``'s in-game
``save`` and its game-over offer (pretty), ``play --save`` (pretty, rewritten after every
action) -- is read by every consumer: ``replay`` (with ``--index`` in a file of many, and
``--analyse``), ``play --load``, the in-game ``load``, ``export-trajectories``. A saved
match remembers who played it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.common import read_record, read_records
from meeple.core import InvalidRecord, MatchRecord

# Whole matches played, saved and replayed (some analysed) through the commands: the full run's.
pytestmark = pytest.mark.slow

runner = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})
ALWAYS_FIRST = "1\n" * 300


def invoke(*args: str, input: str | None = None) -> Result:
    from meeple.cli.main import app  # noqa: PLC0415

    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


# -- producers -----------------------------------------------------------------------------


def by_selfplay(folder: Path) -> Path:
    path = folder / "selfplay.jsonl"
    result = invoke("selfplay", "maatatahay", "--games", "2", "--seed", "4", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


def by_play_save_flag(folder: Path) -> Path:
    path = folder / "flag.json"
    result = invoke(
        "play", "maatatahay", "--seed", "2", "--vs", "random", "--save", str(path),
        input=ALWAYS_FIRST,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"meeple replay {path}" in result.output
    return path


def by_in_game_save(folder: Path) -> Path:
    path = folder / "in-game.json"
    result = invoke(
        "play", "maatatahay", "--seed", "2", "--vs", "random", input=f"1\n1\nsave {path}\nquit\n"
    )
    assert result.exit_code == 0, result.output
    return path


def _to_the_end() -> str:
    """Option 1 at each of the person's decisions of the seed-2 match, to its end."""
    result = invoke("play", "maatatahay", "--seed", "2", "--vs", "random", input=ALWAYS_FIRST)
    decisions = result.output.count("Balan>")
    assert "Game over" in result.output
    return "1\n" * decisions


def by_game_over_offer(folder: Path) -> Path:
    path = folder / "end.json"
    script = _to_the_end() + f"{path}\n"
    result = invoke("play", "maatatahay", "--seed", "2", "--vs", "random", input=script)
    assert result.exit_code == 0, result.output
    assert "Save this match?" in result.output
    return path


def by_server_download(folder: Path) -> Path:
    """The body of ``GET /api/matches/{id}/record``: the record's ``to_json()`` as JSON on
    one line (FastAPI's encoding), as ``curl -o`` saves it."""
    record = read_record(by_play_save_flag(folder))
    record.players = ["Wazu", "random"]  # the server names people by their account
    path = folder / "download.json"
    path.write_text(json.dumps(record.to_json(), separators=(",", ":")), encoding="utf-8")
    return path


PRODUCERS: dict[str, Callable[[Path], Path]] = {
    "server's record download": by_server_download,
    "selfplay --out": by_selfplay,
    "play --save": by_play_save_flag,
    "play's save": by_in_game_save,
    "play's game-over save": by_game_over_offer,
}


@pytest.fixture(scope="module", params=sorted(PRODUCERS))
def produced(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return PRODUCERS[request.param](tmp_path_factory.mktemp("records"))


def _index_args(path: Path) -> list[str]:
    return ["--index", "2"] if len(read_records(path)) > 1 else []


def test_replay_reads_it(produced: Path) -> None:
    result = invoke("replay", str(produced), *_index_args(produced))
    assert result.exit_code == 0, result.output
    assert "#1 seat" in result.output


def test_replay_as_json_reads_it(produced: Path) -> None:
    result = invoke("replay", str(produced), "--json", *_index_args(produced))
    assert result.exit_code == 0, result.output
    json.loads(result.stdout)


def test_play_load_reads_it(produced: Path) -> None:
    result = invoke(
        "play", "maatatahay", "--load", str(produced), *_index_args(produced), input="quit\n"
    )
    assert result.exit_code == 0, result.output


def test_in_game_load_reads_it(produced: Path) -> None:
    suffix = " 1" if len(read_records(produced)) > 1 else ""
    result = invoke(
        "play", "maatatahay", "--seed", "9", "--vs", "random",
        input=f"load {produced}{suffix}\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Loaded {produced}" in result.output
    assert "✗" not in result.output


def test_export_trajectories_reads_it(produced: Path, tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    out = tmp_path / "rows.npz"
    result = invoke("export-trajectories", str(produced), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.exists()


def test_replay_analyse_reads_it(produced: Path) -> None:
    records = read_records(produced)
    short = min(range(len(records)), key=lambda i: len(records[i].actions))
    result = invoke(
        "replay", str(produced), "--analyse", "--seconds", "0.01", "--json",
        *(["--index", str(short + 1)] if len(records) > 1 else []),
    )  # fmt: skip
    assert result.exit_code == 0, result.output


# -- many records in one file ----------------------------------------------------------------


def test_replay_of_many_says_how_many_and_picks_with_index(tmp_path: Path) -> None:
    path = by_selfplay(tmp_path)
    refused = invoke("replay", str(path))
    assert refused.exit_code == 2
    assert "holds 2 match records" in refused.output and "--index" in refused.output
    second = invoke("replay", str(path), "--index", "2")
    assert second.exit_code == 0
    assert "record 2 of 2" in second.output
    assert invoke("replay", str(path), "--index", "3").exit_code == 2


def test_pretty_records_one_after_another_and_a_list_are_read(tmp_path: Path) -> None:
    records = read_records(by_selfplay(tmp_path))
    pretty = tmp_path / "pretty.json"
    pretty.write_text("\n".join(r.dumps(indent=2) for r in records), encoding="utf-8")
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([r.to_json() for r in records], indent=1), encoding="utf-8")
    for path in (pretty, listed):
        assert [r.actions for r in read_records(path)] == [r.actions for r in records]


def test_a_bad_record_among_many_is_named_by_its_number(tmp_path: Path) -> None:
    records = read_records(by_selfplay(tmp_path))
    path = tmp_path / "bad.jsonl"
    path.write_text(records[0].dumps() + '\n{"format": "nope"}\n', encoding="utf-8")
    with pytest.raises(InvalidRecord, match="record #2"):
        read_records(path)


def test_a_missing_file_is_said_in_words(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2
    assert "there is no such file" in result.output and "Errno" not in result.output


def test_the_adapters_reader_reads_every_form(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from meeple.adapters.trajectories import read_records as adapter_read  # noqa: PLC0415

    for path in (by_selfplay(tmp_path), by_in_game_save(tmp_path)):
        assert [r.actions for r in adapter_read(path)] == [r.actions for r in read_records(path)]


# -- play --save writes as the match goes ------------------------------------------------------


def test_play_save_keeps_every_action_even_after_quit(tmp_path: Path) -> None:
    path = tmp_path / "live.json"
    result = invoke(
        "play", "maatatahay", "--seed", "2", "--vs", "random", "--save", str(path),
        input="1\n1\n1\nquit\n",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    record = read_record(path)
    assert len(record.actions) >= 3
    assert f"meeple replay {path}" in result.output
    assert not list(tmp_path.glob(".*tmp"))  # the temporary file was renamed over


def test_a_finished_match_saved_at_the_end_holds_its_outcome(tmp_path: Path) -> None:
    path = by_game_over_offer(tmp_path)
    record = read_record(path)
    assert record.outcome is not None
    assert record.replay().is_terminal()


def test_an_empty_answer_at_game_over_saves_nothing(tmp_path: Path) -> None:
    script = _to_the_end() + "\n"
    result = invoke("play", "maatatahay", "--seed", "2", "--vs", "random", input=script)
    assert result.exit_code == 0
    assert "Save this match?" in result.output and "Saved to" not in result.output


def test_option_numbers_past_the_end_are_no_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke("play", "maatatahay", "--seed", "2", "--vs", "random", input=ALWAYS_FIRST)
    assert result.exit_code == 0
    assert "give a file name" in result.output
    assert list(tmp_path.iterdir()) == []


# -- --load remembers who played --------------------------------------------------------------


def test_load_restores_the_bot_and_the_seat(tmp_path: Path) -> None:
    path = tmp_path / "easy.json"
    invoke(
        "play", "maatatahay", "--seed", "2", "--vs", "greedy", "--seat", "1",
        "--save", str(path), input="quit\n",
    )  # fmt: skip
    assert read_record(path).players == ["greedy", "human"]
    result = invoke("play", "maatatahay", "--load", str(path), input="quit\n")
    assert "you are seat 1 against the greedy bot" in result.output
    overridden = invoke("play", "maatatahay", "--load", str(path), "--vs", "random", input="quit\n")
    assert "against the random bot" in overridden.output


def test_load_of_a_hot_seat_match_stays_hot_seat(tmp_path: Path) -> None:
    path = tmp_path / "hot.json"
    invoke(
        "play", "maatatahay", "--seed", "2", "--vs", "human", "--save", str(path),
        input="1\nquit\n",
    )  # fmt: skip
    result = invoke("play", "maatatahay", "--load", str(path), input="quit\n")
    assert "hot seat" in result.output


def test_selfplay_records_name_their_bots_for_load(tmp_path: Path) -> None:
    record: MatchRecord = read_records(by_selfplay(tmp_path))[0]
    assert record.players is not None


def test_play_save_to_a_folder_that_is_not_there_stops_before_the_match() -> None:
    result = invoke("play", "maatatahay", "--save", "/nowhere/at/all.json", input="quit\n")
    assert result.exit_code == 2
    assert "cannot write '/nowhere/at/all.json': its folder does not exist" in result.output
    assert "Balan>" not in result.output


def test_in_game_load_of_many_asks_which(tmp_path: Path) -> None:
    path = by_selfplay(tmp_path)
    result = invoke(
        "play", "maatatahay", "--seed", "9", "--vs", "random",
        input=f"load {path}\nload {path} 2\nquit\n",
    )  # fmt: skip
    assert "holds 2 match records; load one with load FILE N (1 to 2)" in result.output
    assert f"Loaded {path}" in result.output
