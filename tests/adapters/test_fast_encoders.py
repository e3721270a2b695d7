"""The compiled encoders are the ones in use, and write the Python encoders' vectors.

``pip install -e .`` (which ``scripts/test`` runs) compiles them, so a missing one fails
here rather than being skipped; ``MEEPLE_NO_EXT=1`` asks for the Python path on purpose,
and then the tests check that it is the one in use.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.adapters.encoders.layout import NO_EXTENSIONS
from meeple.adapters.encoders.maatatahay import MaatatahayEncoder
from meeple.adapters.encoding import encoder_for
from meeple.core import Game, State, load_game
from meeple.games.maatatahay.rules import PHASES

WITHOUT_EXTENSIONS = os.environ.get(NO_EXTENSIONS) == "1"
needs_extensions = pytest.mark.skipif(
    WITHOUT_EXTENSIONS, reason=f"{NO_EXTENSIONS}=1 asks for the Python encoders"
)

MAATATAHAY_OPTIONS: list[dict[str, Any]] = [
    {"relic_blocks": blocks, "relic_scoring": scoring, "shrines": shrines}
    for blocks, scoring, shrines in itertools.product(
        (False, True), ("progressive", "standard"), ("fixed", "random")
    )
]
OPTION_IDS = ["-".join(str(v) for v in options.values()) for options in MAATATAHAY_OPTIONS]
PLAYOUTS = 12


def every_state(game: Game, playouts: int = PLAYOUTS) -> Iterator[State]:
    """Every position of seeded random playouts, the end included."""
    for seed in range(playouts):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while True:
            yield state.clone()
            deciding = state.deciding_seats()
            if not deciding:
                break
            seat = deciding[rng.randrange(len(deciding))]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))


def test_the_installed_maatatahay_encoder_is_the_compiled_one() -> None:
    game = load_game("maatatahay", 2)
    encoder = encoder_for(game)
    assert isinstance(encoder, MaatatahayEncoder)
    # Without a compiler the install still works, with the Python encoder; CI has one,
    # so a missing extension is a broken build, not a reason to skip.
    assert encoder.compiled is not WITHOUT_EXTENSIONS
    assert not MaatatahayEncoder(game, compiled=False).compiled


@needs_extensions
@pytest.mark.parametrize("options", MAATATAHAY_OPTIONS, ids=OPTION_IDS)
def test_compiled_maatatahay_vectors_equal_the_python_ones(options: dict[str, Any]) -> None:
    game = load_game("maatatahay", 2, options)
    compiled = MaatatahayEncoder(game, compiled=True)
    python = MaatatahayEncoder(game, compiled=False)
    phases = set()
    for state in every_state(game):
        phases.add(PHASES[state.phase])  # type: ignore[attr-defined]
        shared = compiled.shared(state)
        assert shared.dtype == np.float32
        assert shared.tobytes() == python.shared(state).tobytes()
        for seat in range(game.seats):
            vector = compiled.observe(state, seat)
            assert vector.dtype == np.float32
            assert vector.tobytes() == python.observe(state, seat).tobytes()
            assert compiled.personal(shared, state, seat).tobytes() == vector.tobytes()
    assert phases == set(PHASES)


@needs_extensions
def test_compiled_maatatahay_encoder_refuses_another_games_state() -> None:
    encoder = MaatatahayEncoder(load_game("maatatahay", 2), compiled=True)
    other = load_game("manafields", 2).new_initial_state(0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.observe(other, 0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.shared(other)
