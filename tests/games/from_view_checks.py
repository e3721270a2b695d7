"""What the state-from-view tests share: the configurations of every shipped game, and the
key property at one position (``check_same_for_the_seat``) and over random matches.

Used by tests/games/test_state_from_view.py and, for whole matches, by
tests/games/test_state_from_view_whole_matches.py (a file of its own so that pytest-xdist,
which runs a file's tests on one worker, can run it next to the rest).
"""

from __future__ import annotations

import json
import random
from typing import Any, NamedTuple

import meeple.games
from meeple.core import (
    JSON,
    Game,
    GameInfo,
    InvalidOptions,
    State,
    game_class,
    load_game,
    registered,
    state_from_view,
)


def shipped() -> list[GameInfo]:
    prefix = meeple.games.__name__ + "."
    return [info for info in registered() if game_class(info.id).__module__.startswith(prefix)]


class Config(NamedTuple):
    game_id: str
    seats: int
    options: dict[str, Any]

    def __str__(self) -> str:
        options = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game_id}-{self.seats}p" + (f"-{options}" if options else "")

    def game(self) -> Game:
        return load_game(self.game_id, self.seats, self.options)


def _configs() -> list[Config]:
    """Every shipped game (each rules version) at every seat count, and each option's other
    values at the fewest seats that take them."""
    configs = []
    for info in shipped():
        for seats in range(info.min_seats, info.max_seats + 1):
            configs.append(Config(info.id, seats, {}))
        for spec in info.options:
            values = list(spec.choices or ()) if spec.choices else []
            if spec.choices is None and isinstance(spec.default, bool):
                values = [not spec.default]
            for value in values:
                if value == spec.default:
                    continue
                for seats in range(info.min_seats, info.max_seats + 1):
                    try:
                        load_game(info.id, seats, {spec.name: value})
                    except InvalidOptions:
                        continue
                    configs.append(Config(info.id, seats, {spec.name: value}))
                    break
    return configs


CONFIGS = _configs()


def wire(view: JSON) -> JSON:
    """The view as a client reads it off the socket."""
    loaded: JSON = json.loads(json.dumps(view))
    return loaded


def check_same_for_the_seat(state: State, seat: int, seed: int) -> State:
    """The key property at one position for one seat; the built state."""
    view = state.view(seat)
    built = state_from_view(state.game, wire(view), seat, seed)
    assert built.view(seat) == view
    assert built.legal_actions(seat) == state.legal_actions(seat)
    assert built.deciding_seats() == state.deciding_seats()
    assert built.outcome() == state.outcome()
    return built


def random_positions(game: Game, seed: int, most: int = 40) -> list[State]:
    """Every position of a random match (at most ``most``, evenly spread, always the first
    and the last)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    positions = [state.clone()]
    while not state.is_terminal():
        seat = rng.choice(state.deciding_seats())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        positions.append(state.clone())
    if len(positions) <= most:
        return positions
    step = len(positions) / (most - 1)
    return [positions[int(i * step)] for i in range(most - 1)] + [positions[-1]]


def check_random_matches(config: Config, matches: int, most: int) -> None:
    game = config.game()
    for match in range(matches):
        for position in random_positions(game, 1000 * match + len(str(config)), most):
            for seat in range(game.seats):
                check_same_for_the_seat(position, seat, seed=match)
