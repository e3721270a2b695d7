"""The compiled writers, where installed, are the ones in use and write the Python ones' vectors.

They are the optional ``meeple-fast`` distribution (``pip install ./fast``): without it, or
with ``MEEPLE_NO_EXT=1``, the Python path is the one in use, and these tests check that. CI
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
from meeple.adapters.masks import mask_writer
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


def test_the_installed_encoders_are_the_compiled_ones() -> None:
    # Without meeple-fast the install works with the Python encoders.
    for name, kind in (("maatatahay", MaatatahayEncoder), ("manafields", ManafieldsEncoder)):
        game = load_game(name, 2)
        encoder = encoder_for(game)
        assert isinstance(encoder, kind)
        assert encoder.compiled is not WITHOUT_EXTENSIONS
        assert not kind(game, compiled=False).compiled  # type: ignore[call-arg]


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


@needs_extensions
@pytest.mark.parametrize("options", MANAFIELDS_OPTIONS, ids=MANAFIELDS_IDS)
def test_compiled_manafields_vectors_equal_the_python_ones(options: dict[str, Any]) -> None:
    game = load_game("manafields", 2, options)
    compiled = ManafieldsEncoder(game, compiled=True)
    python = ManafieldsEncoder(game, compiled=False)
    assert compiled.compiled and not python.compiled
    for state in manafields_states(game):
        assert_same_vectors(compiled, python, state, game.seats)


def test_the_manafields_positions_compared_meet_every_moment() -> None:
    """The positions the test above compares show every part the vector shows only at times."""
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


@needs_extensions
def test_compiled_manafields_encoder_refuses_another_games_state() -> None:
    encoder = ManafieldsEncoder(load_game("manafields", 2), compiled=True)
    other = load_game("maatatahay", 2).new_initial_state(0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.observe(other, 0)
    with pytest.raises(TypeError, match="cannot read"):
        encoder.shared(other)


def test_the_installed_mask_writer_is_the_compiled_one() -> None:
    compiled = mask_writer(8)
    python = mask_writer(8, compiled=False)
    assert (type(compiled) is not type(python)) is not WITHOUT_EXTENSIONS


@needs_extensions
def test_compiled_masks_equal_the_python_ones() -> None:
    compiled = mask_writer(40, compiled=True)
    python = mask_writer(40, compiled=False)
    rng = random.Random(7)
    for _ in range(200):
        legal = sorted(rng.sample(range(40), rng.randrange(41)))
        mask = compiled(legal)
        assert mask.dtype == np.int8
        assert mask.tobytes() == python(legal).tobytes()
        mask[0] = 5  # each mask is a new array: the next one starts from zeros again
    assert compiled([]).tobytes() == bytes(40)
    with pytest.raises(IndexError):
        compiled([40])
    with pytest.raises(IndexError):
        compiled([-1])


@needs_extensions
def test_compiled_mask_writer_refuses_a_template_not_zeroed() -> None:
    fast = compiled_module("mask", True)
    assert fast is not None
    with pytest.raises(ValueError, match="zeros"):
        fast.MaskWriter(np.ones(4, np.int8))
