"""The compiled Maatatahay writer, where installed, is the one in use and writes the Python
one's vectors; the games without one work out in Python what it did.

It is the optional ``meeple-fast`` distribution (``pip install ./fast``): without it, or with
``MEEPLE_NO_EXT=1``, the Python path is the one in use, and these tests check that. CI
(``scripts/test``) installs it and checks that it imports, so there the comparisons run.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from importlib.util import find_spec
from typing import Any

import numpy as np
import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import Game, State, load_game
from meeple.core.encoding import encoder_for
from meeple.core.tensor import COMPILED_PACKAGE, NO_EXTENSIONS, compiled_module
from meeple.games.maatatahay.rules import PHASES
from meeple.games.maatatahay.tensor import MaatatahayEncoder
from meeple.games.manafields.data import FACTIONS
from meeple.games.manafields.tensor import ManafieldsEncoder

INSTALLED = find_spec(COMPILED_PACKAGE) is not None
WITHOUT_EXTENSIONS = os.environ.get(NO_EXTENSIONS) == "1" or not INSTALLED
needs_extensions = pytest.mark.skipif(
    not INSTALLED, reason="the compiled writers are not installed (pip install ./fast)"
)

MAATATAHAY_OPTIONS: list[dict[str, Any]] = [
    {"relic_blocks": blocks, "relic_scoring": scoring, "shrines": shrines}
    for blocks, scoring, shrines in itertools.product(
        (False, True), ("progressive", "standard"), ("fixed", "random")
    )
]
OPTION_IDS = ["-".join(str(v) for v in options.values()) for options in MAATATAHAY_OPTIONS]


def assert_same_vectors(compiled: Any, python: Any, state: State, seats: int) -> None:
    """The compiled encoder writes the Python one's float32 bytes: the shared part, each
    seat's observation, and each observation built from the shared part."""
    shared = compiled.shared(state)
    assert shared.dtype == np.float32
    assert shared.tobytes() == python.shared(state).tobytes()
    for seat in range(seats):
        vector = compiled.observe(state, seat)
        assert vector.dtype == np.float32
        assert vector.tobytes() == python.observe(state, seat).tobytes()
        assert compiled.personal(shared, state, seat).tobytes() == vector.tobytes()


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


def test_manafields_and_maiterra_have_no_compiled_writer() -> None:
    # Measured and removed (docs/research.md, "Compiled or pure Python").
    for name in ("manafields", "maiterra"):
        assert not encoder_for(load_game(name, 2)).compiled  # type: ignore[attr-defined]
    assert compiled_module("manafields", None) is None
    assert compiled_module("mask", None) is None


def test_the_installed_maatatahay_encoder_is_the_compiled_one() -> None:
    game = load_game("maatatahay", 2)
    encoder = encoder_for(game)
    assert isinstance(encoder, MaatatahayEncoder)
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
        assert_same_vectors(compiled, python, state, game.seats)
    assert phases == set(PHASES)


@needs_extensions
def test_compiled_maatatahay_encoder_refuses_another_games_state() -> None:
    encoder = MaatatahayEncoder(load_game("maatatahay", 2), compiled=True)
    other = load_game("manafields", 2).new_initial_state(0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.observe(other, 0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.shared(other)


@needs_extensions
def test_compiled_maatatahay_reads_fields_by_name() -> None:
    """The writer reads the state's fields by name (getattr), so a subclass reads alike:
    the same vectors, each a new array; a field never set raises AttributeError."""
    game = load_game("maatatahay", 2)
    encoder = MaatatahayEncoder(game, compiled=True)
    state_type = type(game.new_initial_state(0))
    derived = type("Derived", (state_type,), {"__slots__": ()})
    for state in itertools.islice(every_state(game, 2), 0, None, 7):
        other = derived.__new__(derived)
        for klass in state_type.__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(state, name):
                    setattr(other, name, getattr(state, name))
        vector = encoder.observe(state, 0)
        assert encoder.observe(other, 0).tobytes() == vector.tobytes()
        vector[:] = 9.0  # a new array each time: the next one starts from the template
        assert encoder.observe(state, 0).tobytes() == encoder.observe(other, 0).tobytes()
    unset = state_type.__new__(state_type)
    with pytest.raises(AttributeError, match="tile"):
        encoder.observe(unset, 0)


MANAFIELDS_OPTIONS: list[dict[str, Any]] = [
    {"faction0": first, "faction1": second, "deployment": deployment, "turn_limit": limit}
    for (first, second), (deployment, limit) in itertools.product(
        itertools.product(FACTIONS, FACTIONS), (("fixed", 15), ("shuffled", 3))
    )
]
MANAFIELDS_IDS = ["-".join(str(v) for v in options.values()) for options in MANAFIELDS_OPTIONS]


def manafields_moments(state: Any) -> set[str]:
    """The parts of a Manafields position that the vector shows only some of the time."""
    seen = set()
    if state.picks:
        seen.add("picking")
    if state.picked:
        seen.add("picked")
    if state.elf_free >= 0:
        seen.add("elf free")
    if state.frenzy:
        seen.add("frenzy")
    if any(state.rally):
        seen.add("rally")
    if any(state.owed):
        seen.add("owed")
    if any(state.controller(o) >= 0 for o in range(3)):
        seen.add("objective held")
    if any(state.points_now(s)["total"] for s in range(2)):
        seen.add("points now")
    if state.winner in (0, 1):
        seen.add("won")
    if state.winner == 2:
        seen.add("drawn")
    if any(hp <= 0 for hp in state.hp):
        seen.add("dead")
    return seen


def manafields_states(game: Game) -> Iterator[State]:
    """Every position of a few random playouts, and beside each a copy with the rarer
    fields set the way play sets them (random play seldom uses the Faction Abilities): the
    picks, the Orcs' frenzy, a rally, points owed, a drawn end."""
    rng = random.Random(0x4D46)
    for state in every_state(game, playouts=3):
        yield state
        other: Any = state.clone()
        other.picks = rng.randrange(3)
        other.picked = rng.sample(range(len(other.hp)), rng.randrange(3))
        other.frenzy = rng.random() < 0.5
        other.rally = [rng.random() < 0.5, rng.random() < 0.5]
        other.owed = [rng.choice((0, 6)), rng.choice((0, 6))]
        if other.winner >= 0 or rng.random() < 0.05:
            other.winner = rng.choice((0, 1, 2))
        yield other


@pytest.mark.parametrize("options", MANAFIELDS_OPTIONS, ids=MANAFIELDS_IDS)
def test_manafields_objectives_and_points_are_the_rules(options: dict[str, Any]) -> None:
    """The Python writer works out each objective's controller and each seat's points now
    itself (each General looked at once): the rules' answers, at every compared position."""
    game = load_game("manafields", 2, options)
    encoder = ManafieldsEncoder(game)
    for state in manafields_states(game):
        vector = encoder.observe(state, 0)
        held = encoder.layout.read(vector, "objectives")
        for objective in range(held.shape[0]):
            holder = state.controller(objective)  # type: ignore[attr-defined]
            expected = [float(seat == holder) for seat in range(game.seats)]
            assert list(held[objective]) == expected
        points = [state.points_now(seat)["total"] for seat in range(game.seats)]  # type: ignore[attr-defined]
        assert list(encoder.layout.read(vector, "points_now")) == points


def test_the_manafields_positions_compared_meet_every_moment() -> None:
    """The positions the test above reads show every part the vector shows only at times."""
    seen: set[str] = set()
    for options in MANAFIELDS_OPTIONS:
        for state in manafields_states(load_game("manafields", 2, options)):
            seen.update(manafields_moments(state))
    assert seen == {
        "picking",
        "picked",
        "elf free",
        "frenzy",
        "rally",
        "owed",
        "objective held",
        "points now",
        "won",
        "drawn",
        "dead",
    }
