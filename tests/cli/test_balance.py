"""``meeple balance``: its tables add up, options are checked, runs merge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from meeple.cli.balance import credit, pairings
from meeple.cli.main import app
from meeple.core import load_game

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})
QUICK_MANAFIELDS = ("--option", "turn_limit=2")


def invoke(*args: str) -> Result:
    return runner.invoke(app, ["balance", *args], catch_exceptions=False)


def report_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.slow
def test_maiterra_tables_by_seat_draft_position_and_house(tmp_path: Path) -> None:
    out, png = tmp_path / "m.json", tmp_path / "m.png"
    result = invoke(
        "maiterra", "--seats", "3", "--games", "3", "--seed", "5",
        "--json", str(out), "--plot", str(png),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for header in ("| seat |", "| draft position |", "| house |", "| by draft position |"):
        assert header in result.stdout
    report = report_of(out)
    assert report["matches"] == 3 and report["seats"] == 3
    assert report["bots"] == ["heuristic"] * 3
    tables = report["tables"]
    assert sorted(tables["draft position"]) == ["1.", "2.", "3."]
    for table in ("seat", "draft position", "house"):
        entries = tables[table].values()
        assert sum(entry["games"] for entry in entries) == 9  # every seat of every match
        assert sum(entry["wins"] for entry in entries) == pytest.approx(3)
    assert len(report["rows"]) == 3
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_the_same_seed_plays_the_same_matches_in_any_number_of_workers(tmp_path: Path) -> None:
    paths = [tmp_path / "one.json", tmp_path / "two.json"]
    for path, workers in zip(paths, ("1", "2"), strict=True):
        args = ("maatatahay", "--games", "4", "--seed", "9", "--workers", workers)
        result = invoke(*args, "--bots", "random", "--json", str(path))
        assert result.exit_code == 0, result.output
    one, two = (report_of(path) for path in paths)
    assert one["rows"] == two["rows"] and one["tables"] == two["tables"]


@pytest.mark.slow
def test_manafields_plays_every_pairing_the_options_leave_open(tmp_path: Path) -> None:
    out = tmp_path / "mf.json"
    result = invoke(
        "manafields", "--games", "1", "--option", "faction0=elves", *QUICK_MANAFIELDS,
        "--json", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "| first | second | first seat wins | 95 % CI | draws | mean turns |" in result.stdout
    report = report_of(out)
    assert [(p["first"], p["second"]) for p in report["pairings"]] == [
        ("elves", "humans"), ("elves", "elves"), ("elves", "orcs"), ("elves", "undead"),
    ]  # fmt: skip
    assert report["matches"] == 4
    assert sorted(report["tables"]["faction"]) == ["elves", "humans", "orcs", "undead"]
    assert "elves-humans" in report["matchups"] or not report["matchups"]


@pytest.mark.slow
def test_merging_two_runs_adds_up_their_matches(tmp_path: Path) -> None:
    paths = []
    for seed in ("1", "2"):
        path = tmp_path / f"run{seed}.json"
        result = invoke(
            "manafields", "--games", "2", "--seed", seed, "--option", "faction0=elves",
            "--option", "faction1=orcs", *QUICK_MANAFIELDS, "--json", str(path),
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        paths.append(path)
    runs = [report_of(path)["pairings"][0] for path in paths]
    merged_path = tmp_path / "both.json"
    args = [arg for path in paths for arg in ("--merge", str(path))]
    result = invoke("manafields", *args, "--json", str(merged_path))
    assert result.exit_code == 0, result.output
    merged = report_of(merged_path)
    (pairing,) = merged["pairings"]
    assert pairing["games"] == 4 and merged["matches"] == 4 and merged["seed"] == [1, 2]
    for field in ("first_wins", "second_wins", "draws"):
        assert pairing[field] == runs[0][field] + runs[1][field]
    points = pairing["first_wins"] + pairing["draws"] / 2
    assert pairing["first_rate"] == points / 4
    assert pairing["mean_turns"] == pytest.approx(
        (runs[0]["mean_turns"] + runs[1]["mean_turns"]) / 2
    )
    assert merged["tables"]["seat"]["0"]["wins"] == pytest.approx(points)
    assert "| elves | orcs |" in result.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("maiterra", "--games", "1", "--option", "colour=red"), "colour"),
        (("maiterra", "--games", "1", "--option", "teams"), "name=value"),
        (("maiterra", "--games", "1", "--seats", "3", "--option", "teams=12"), "teams"),
        (("manafields", "--games", "1", "--option", "turn_limit=many"), "turn_limit"),
        (("manafields", "--games", "1", "--option", "faction0=dwarves"), "dwarves"),
        (("maiterra", "--games", "1", "--seats", "5"), "2 to 4 seats"),
        (("maiterra", "--games", "1", "--bots", "oracle"), "oracle"),
        (("maiterra", "--seats", "3"), "--games"),
        (("chess", "--games", "1"), "chess"),
    ],
)
def test_bad_input_is_a_one_line_error(args: tuple[str, ...], says: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert says in message and message.startswith("error:")


def test_merging_reports_of_another_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    assert invoke("maatatahay", "--games", "1", "--json", str(path)).exit_code == 0
    assert invoke("maiterra", "--merge", str(path)).exit_code == 2
    (tmp_path / "bad.json").write_text("[]", encoding="utf-8")
    assert invoke("maatatahay", "--merge", str(tmp_path / "bad.json")).exit_code == 2


def test_a_draw_counts_alike_for_every_seat_and_a_shared_win_is_split() -> None:
    assert credit({"winners": []}, 2) == [0.5, 0.5]
    assert credit({"winners": [0, 2]}, 4) == [0.5, 0.0, 0.5, 0.0]


def test_pairings_only_for_games_with_factions() -> None:
    assert pairings(load_game("maiterra"), {}) == []
    assert len(pairings(load_game("manafields"), {})) == 16
    assert pairings(load_game("manafields"), {"faction0": "orcs", "faction1": "elves"}) == [
        ("orcs", "elves")
    ]
