"""The games' own encoders show a seat what its view shows, and nothing else.

Over states from seeded random playouts of every game, seat count and option set:

- the vector is a function of the view alone: equal for a state and its resamplings (which
  keep the view and redraw the hidden parts), equal for a state whose hidden parts were
  rebuilt by hand, and equal wherever two states give a seat equal views;
- it stays within the encoder's bounds;
- the part all seats share (``shared``, encoded once per position by the adapters that show
  a position to several seats) holds nothing one seat alone sees;
- each block holds the view's values (``test_encoders_blocks.py``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import Game, State, load_game
from meeple.core.encoding import ViewEncoder, canonical_json, encoder_for
from meeple.core.rng import Rng
from meeple.core.tensor import BlockEncoder
from meeple.games.maiterra.data import RULES
from meeple.games.maiterra.tensor import MaiterraEncoder

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("maatatahay", 2, {}),
    ("maatatahay", 2, {"relic_scoring": "standard", "shrines": "random", "relic_blocks": True}),
    ("manafields", 2, {}),
    ("manafields", 2, {"faction0": "elves", "faction1": "undead", "deployment": "shuffled"}),
    ("manafields", 2, {"faction0": "orcs", "faction1": "humans", "turn_limit": 3}),
    ("maiterra", 2, {}),
    ("maiterra", 3, {}),
    ("maiterra", 4, {}),
    ("maiterra", 4, {"teams": "1212"}),
    ("maiterra", 3, {"teams": "112"}),
]
IDS = [
    f"{name}-{seats}-{'-'.join(map(str, options.values())) or 'default'}"
    for name, seats, options in CASES
]
PLAYOUTS = 3
SAMPLES_PER_PLAYOUT = 12


def sample_states(game: Game, playouts: int = PLAYOUTS) -> Iterator[State]:
    """About ``SAMPLES_PER_PLAYOUT`` states spread along each seeded random playout, the
    first decisions and the end included."""
    for seed in range(playouts):
        rng = random.Random(seed)
        trail: list[State] = []
        state = game.new_initial_state(seed)
        while True:
            trail.append(state.clone())
            deciding = state.deciding_seats()
            if not deciding:
                break
            seat = deciding[rng.randrange(len(deciding))]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
        stride = max(1, len(trail) // SAMPLES_PER_PLAYOUT)
        yield from trail[:3]
        yield from trail[3:-1:stride]
        yield trail[-1]


def rebuild_hidden(state: State, seat: int, rng: random.Random) -> State:
    """A copy of ``state`` whose hidden parts (for ``seat``) were changed by hand."""
    new = state.clone()
    new.rng = Rng(rng.getrandbits(64))  # type: ignore[attr-defined]
    name = state.game.info.name
    if name == "maatatahay":
        for deck in new.decks:  # type: ignore[attr-defined]
            rng.shuffle(deck)
            deck.reverse()
    elif name == "maiterra":
        others = [s for s in range(state.game.seats) if s != seat]
        pool = list(new.deck)  # type: ignore[attr-defined]
        for other in others:
            pool += new.cards[other]  # type: ignore[attr-defined]
        rng.shuffle(pool)
        for other in others:
            size = len(new.cards[other])  # type: ignore[attr-defined]
            new.cards[other], pool = pool[:size], pool[size:]  # type: ignore[attr-defined]
            new.queue[other] = new.queue[other][:0]  # type: ignore[attr-defined]
        new.deck = pool  # type: ignore[attr-defined]
        if -1 in new.house:  # type: ignore[attr-defined]
            for other in others:
                if new.house[other] != -1:  # type: ignore[attr-defined]
                    new.house[other] = rng.randrange(len(RULES.houses))  # type: ignore[attr-defined]
    return new


@pytest.fixture(scope="module", params=CASES, ids=IDS)
def case(request: pytest.FixtureRequest) -> tuple[Game, BlockEncoder, list[State]]:
    name, seats, options = request.param
    game = load_game(name, seats, options)
    encoder = encoder_for(game)
    assert isinstance(encoder, BlockEncoder)
    return game, encoder, list(sample_states(game))


def test_the_games_use_their_own_encoders(case: tuple[Game, BlockEncoder, list[State]]) -> None:
    game, encoder, _ = case
    assert type(encoder).__name__.lower() == f"{game.info.name}encoder"
    assert encoder.size == encoder.layout.size == encoder.low.size == encoder.high.size


def test_the_vector_is_a_function_of_the_view(
    case: tuple[Game, BlockEncoder, list[State]],
) -> None:
    game, encoder, states = case
    rng = random.Random(7)
    seen: dict[tuple[int, str], Any] = {}
    for index, state in enumerate(states):
        for seat in range(game.seats):
            view = canonical_json(state.view(seat))
            vector = encoder.observe(state, seat)
            assert vector.dtype == np.float32 and vector.shape == (encoder.size,)
            assert (vector >= encoder.low).all() and (vector <= encoder.high).all()
            others: list[tuple[str, State]] = [
                ("resampled", state.resample(seat, index * 31 + k)) for k in range(2)
            ]
            others.append(("rebuilt", rebuild_hidden(state, seat, rng)))
            for how, other in others:
                assert canonical_json(other.view(seat)) == view, f"{how}: the view changed"
                np.testing.assert_array_equal(encoder.observe(other, seat), vector, err_msg=how)
            earlier = seen.setdefault((seat, view), vector)
            np.testing.assert_array_equal(earlier, vector)


def test_the_shared_part_is_what_every_seat_sees(
    case: tuple[Game, BlockEncoder, list[State]],
) -> None:
    """``shared`` depends only on what all seats see (it survives any seat's resampling), is
    left as it was by ``personal``, and ``personal`` gives what ``observe`` gives."""
    game, encoder, states = case
    for index, state in enumerate(states):
        shared = encoder.shared(state)
        before = shared.copy()
        for seat in range(game.seats):
            np.testing.assert_array_equal(
                encoder.personal(shared, state, seat), encoder.observe(state, seat)
            )
            resampled = state.resample(seat, index * 17 + seat)
            np.testing.assert_array_equal(encoder.shared(resampled), before)
        np.testing.assert_array_equal(shared, before)


def test_different_views_mostly_give_different_vectors(
    case: tuple[Game, BlockEncoder, list[State]],
) -> None:
    """The vector keeps what the view says: of the sampled (seat, view) pairs, almost all
    get a vector of their own (the view's free text, e.g. its game id, is not encoded)."""
    game, encoder, states = case
    views = {}
    for state in states:
        for seat in range(game.seats):
            views[canonical_json(state.view(seat))] = encoder.observe(state, seat).tobytes()
    assert len(set(views.values())) >= 0.95 * len(views)


def test_the_layout_tiles_the_vector(case: tuple[Game, BlockEncoder, list[State]]) -> None:
    _, encoder, _ = case
    at = 0
    for block in encoder.layout.blocks.values():
        assert block.offset == at and block.low < block.high
        at = block.end
    assert at == encoder.size
    assert "| `seat` |" in encoder.layout.markdown()


def test_generic_encoder_still_encodes_a_view() -> None:
    game = load_game("maatatahay", 2)
    generic = ViewEncoder.learn(game, playouts=1)
    state = game.new_initial_state(3)
    np.testing.assert_array_equal(generic.observe(state, 1), generic.encode(state.view(1)))


def test_numbers_outside_a_byte_are_written_whole_and_floats_refused() -> None:
    encoder = encoder_for(load_game("maatatahay"))
    assert isinstance(encoder, BlockEncoder)
    out = np.zeros(6, np.float32)
    encoder.put_numbers(out, 1, [3, True, 255])
    encoder.put_numbers(out, 4, [256, -7])
    assert out.tolist() == [0, 3, 1, 255, 256, -7]
    with pytest.raises(TypeError):
        encoder.put_numbers(out, 0, [1.5])  # type: ignore[list-item]


MAITERRA_CASES = [case for case in CASES if case[0] == "maiterra"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "seats", "options"),
    MAITERRA_CASES,
    ids=[IDS[CASES.index(case)] for case in MAITERRA_CASES],
)
def test_maiterra_keeps_its_shared_part_only_while_it_is_right(
    name: str, seats: int, options: dict[str, Any]
) -> None:
    """Along matches played in place (the state's lists change under the kept copies, as in
    the environments), the kept shared part is always the one worked out afresh."""
    game = load_game(name, seats, options)
    kept, fresh = MaiterraEncoder(game), MaiterraEncoder(game)
    hits = 0

    def afresh(seat: int | None) -> bytes:
        fresh._last_shared = fresh._last_board = None
        vector = fresh.shared(state) if seat is None else fresh.observe(state, seat)
        return vector.tobytes()

    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while True:
            before = kept._last_shared
            shared = kept.shared(state)
            hits += kept._last_shared is before
            assert shared.tobytes() == afresh(None)
            shared[:] = 7.0  # the caller's vector is its own: the kept one stays as it was
            for seat in range(seats):
                assert kept.observe(state, seat).tobytes() == afresh(seat)
            deciding = state.deciding_seats()
            if not deciding:
                break
            seat = deciding[rng.randrange(len(deciding))]
            state.apply_unchecked(seat, rng.choice(state.legal_actions(seat)))
    assert hits > 0
