"""The rules of Pebbles: the state and the transitions. Views and notation import these."""

from __future__ import annotations

from abc import abstractmethod
from typing import Self

from meeple.core import JSON, Action, Event, Game, Outcome, Rng, Seat, State, mix_seed

MAX_TAKE = 3
"""A seat takes one to this many pebbles: action ``a`` takes ``a + 1``."""


class PebblesRules(Game):
    """What the rules need of the game object: its pile, and its views (plugged in by the
    game class, so that the rules import no view)."""

    @property
    def pile(self) -> int:
        return int(self.option("pile"))

    @abstractmethod
    def view_of(self, state: PebblesState, seat: Seat | None) -> JSON: ...

    @abstractmethod
    def json_of(self, state: PebblesState) -> JSON: ...


class PebblesState(State):
    """The pile, the seat to move, and who took the last pebble."""

    game: PebblesRules

    def __init__(self, game: PebblesRules, pile: int, turn: Seat, rng: Rng) -> None:
        self.game = game
        self.pile = pile
        self.turn = turn
        self.rng = rng

    @classmethod
    def setup(cls, game: PebblesRules, seed: int) -> PebblesState:
        return cls(game, game.pile, 0, Rng(mix_seed(seed, 0x5045)))

    def deciding_seats(self) -> tuple[Seat, ...]:
        return () if self.pile == 0 else (self.turn,)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        return list(range(min(MAX_TAKE, self.pile))) if seat == self.turn and self.pile else []

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        taken = action + 1
        self.pile -= taken
        self.turn = 1 - seat
        return [Event("took", seat, {"pebbles": taken, "left": self.pile})]

    def clone(self) -> Self:
        return type(self)(self.game, self.pile, self.turn, Rng.from_json(self.rng.to_json()))

    def outcome(self) -> Outcome | None:
        if self.pile:
            return None
        # The seat that just moved took the last pebble; the turn has passed on.
        return Outcome((1 - self.turn,), "last_pebble")

    def _view(self, seat: Seat | None) -> JSON:
        return self.game.view_of(self, seat)

    def to_json(self) -> JSON:
        return self.game.json_of(self)

    def _resample(self, seat: Seat, seed: int) -> Self:
        return self.clone()  # nothing is hidden
