"""Every game that ``meeple.games`` registers passes the conformance kit.

Configurations: every supported seat count with default options, and every non-default
option value (each choice, the other boolean, an integer option's bounds) at the fewest
seats. The test fails, rather than skips, when ``meeple.games`` registers nothing.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

import meeple.games  # registers the games
from meeple.core import GameInfo, MatchRecord, game_class, load_game, registered
from meeple.testing import check_clone, check_rejections, check_state, run_conformance
from meeple.testing.strategies import games, match_records, playout_prefixes


def _shipped() -> list[GameInfo]:
    """Registered games that live in meeple.games (not test toys registered by other tests)."""
    prefix = meeple.games.__name__ + "."
    return [info for info in registered() if game_class(info.id).__module__.startswith(prefix)]


class Config(NamedTuple):
    game_id: str
    seats: int
    options: dict[str, Any]
    playouts: int

    def __str__(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game_id}-{self.seats}p" + (f"-{options}" if options else "")


def _configs() -> list[Config]:
    configs = []
    for info in _shipped():
        for seats in range(info.min_seats, info.max_seats + 1):
            configs.append(Config(info.id, seats, {}, 4 if seats == info.min_seats else 1))
        for spec in info.options:
            if spec.choices is not None:
                values = list(spec.choices)
            elif isinstance(spec.default, bool):
                values = [True, False]
            elif isinstance(spec.default, int):
                values = [v for v in (spec.low, spec.high) if v is not None]
            else:
                values = []
            for value in values:
                if value != spec.default:
                    configs.append(Config(info.id, info.min_seats, {spec.name: value}, 1))
    return configs


CONFIGS = _configs()
SHIPPED_IDS = [info.id for info in _shipped()]


def test_meeple_games_registers_games():
    assert SHIPPED_IDS, "importing meeple.games registered no game"


@pytest.mark.slow
@pytest.mark.parametrize(
    "config", CONFIGS or [pytest.param(None, id="no-registered-games")], ids=str
)
def test_game_passes_the_conformance_kit(config: Config | None):
    assert config is not None, "importing meeple.games registered no game"
    game = load_game(config.game_id, config.seats, config.options)
    report = run_conformance(game, playouts=config.playouts, seed=len(str(config)))
    assert report.playouts == config.playouts
    assert report.longest <= game.max_game_length()


@pytest.mark.slow
@given(games(SHIPPED_IDS), st.data())
def test_property_any_reachable_state_keeps_the_invariants(game, data):
    state = data.draw(playout_prefixes(game))
    rng = random.Random(0)
    check_state(state)
    check_clone(state, rng)
    check_rejections(state, rng)


@pytest.mark.slow
@given(games(SHIPPED_IDS), st.data())
def test_property_records_survive_their_text_and_replay(game, data):
    record = data.draw(match_records(game))
    loaded = MatchRecord.loads(record.dumps())
    assert loaded.actions == record.actions
    assert loaded.replay() == record.replay()
