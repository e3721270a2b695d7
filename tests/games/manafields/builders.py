"""Positions for Manafields rule tests: only the named units alive, on the named squares.

Slots: ``A``-``F`` are seat 0's army in roster order (General, Hero, then four Troops:
see data/rules.json), ``G``-``L`` seat 1's.

The worked examples were written against the first unit cards, so positions are built with
``manafields/1``: the rules are the same in every version, only the cards differ.
"""

from __future__ import annotations

from typing import Any

from meeple.core.rng import Rng
from meeple.core.types import Action
from meeple.games.manafields import Manafields1, ManafieldsState
from meeple.games.manafields.data import RULES, square_index
from meeple.games.manafields.notation import LABELS, parse_action


def slot(letter: str) -> int:
    return LABELS.index(letter)


def sq(name: str) -> int:
    index = square_index(name)
    assert index is not None, name
    return index


def position(
    units: dict[str, str | tuple[str, int]],
    faction0: str = "humans",
    faction1: str = "orcs",
    *,
    turn: int = 2,
    seed: int = 1,
    **options: Any,
) -> ManafieldsState:
    """Seat ``turn % 2`` to play with 3 OP; only ``units`` (letter -> square or
    (square, hp)) alive; every other unit dead where it was deployed."""
    game = Manafields1(options={"faction0": faction0, "faction1": faction1, **options})
    state = game.new_initial_state(0)
    for index in range(len(state.hp)):
        if state.hp[index] > 0:
            state.lift(index)
        state.hp[index] = 0
    for letter, where in units.items():
        square, hp = (where, None) if isinstance(where, str) else where
        index = slot(letter)
        assert sq(square) not in RULES.terrain, f"{letter} on terrain {square}"
        state.hp[index] = state.unit[index].hp if hp is None else hp
        state.place(index, sq(square))
    state.turn = turn
    state.active = turn % 2
    state.op = 3
    state.score = [0, 1]
    state.rng = Rng(seed)
    return state


def act(state: ManafieldsState, text: str) -> list[Any]:
    """Apply a notation for the active seat, checked."""
    return state.play(state.active, text)


def legal_texts(state: ManafieldsState) -> set[str]:
    return {state.game.format_action(a) for a in state.legal_actions(state.active)}


def is_legal(state: ManafieldsState, text: str) -> bool:
    action: Action = parse_action(text)
    return action in state.legal_actions(state.active)


def event(events: list[Any], kind: str) -> dict[str, Any]:
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind!r} event in {[e.kind for e in events]}"
    return dict(found[0].data)
