"""OpenSkill ratings: the winner gains, a tie moves equals alike, a lone name stays put."""

from __future__ import annotations

import pytest

from meeple.core.ratings import RatingTable

pytest.importorskip("openskill")


def test_everyone_starts_at_mu_25_sigma_25_thirds() -> None:
    table = RatingTable(["random", "greedy"])
    start = table["random"]
    assert start.mu == pytest.approx(25.0) and start.sigma == pytest.approx(25.0 / 3)
    assert start.ordinal == pytest.approx(start.mu - 3 * start.sigma)


def test_the_winner_gains_and_the_loser_falls() -> None:
    table = RatingTable(["random", "greedy"])
    table.rate({"greedy": 1.0, "random": 2.0})
    assert table["greedy"].mu > 25.0 > table["random"].mu
    assert table["greedy"].sigma < 25.0 / 3


def test_a_tie_between_equals_keeps_them_equal() -> None:
    table = RatingTable(["a", "b"])
    table.rate({"a": 1.0, "b": 1.0})
    assert table["a"] == table["b"]
    assert table["a"].mu == pytest.approx(25.0)


def test_a_match_of_one_name_changes_nothing() -> None:
    table = RatingTable(["a", "b"])
    before = table["a"]
    table.rate({"a": 1.0})
    assert table["a"] == before


def test_the_same_matches_in_the_same_order_give_the_same_ratings() -> None:
    matches = [{"a": 1.0, "b": 2.0}, {"b": 1.0, "c": 2.0}, {"a": 1.0, "c": 1.0}]
    tables = [RatingTable("abc"), RatingTable("abc")]
    for table in tables:
        for places in matches:
            table.rate(places)
    assert [tables[0][n] for n in "abc"] == [tables[1][n] for n in "abc"]
