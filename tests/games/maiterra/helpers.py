"""Position builders for Maiterra tests: a full 5 x 5 Lakeland, chosen houses, scripted dice."""

from __future__ import annotations

from meeple.core.outcome import Event
from meeple.core.rng import Rng
from meeple.games.maiterra import Maiterra, MaiterraState
from meeple.games.maiterra.data import RULES, cell_of
from meeple.games.maiterra.rules import PLAN

VALE = RULES.terrains.index("vale")
HOUSE = {name.lower(): index for index, name in enumerate(RULES.houses)}


class Dice(Rng):
    """A generator that answers ``below`` from a script (die value ``v`` is ``v - 1``)."""

    def __init__(self, *rolls: int) -> None:
        super().__init__(0)
        self.script = [r - 1 for r in rolls]

    def below(self, n: int) -> int:
        if not self.script:
            return 0
        value = self.script.pop(0)
        if not 0 <= value < n:
            raise AssertionError(f"scripted {value + 1} does not fit below({n})")
        return value


def cell(name: str) -> int:
    found = cell_of(name)
    if found is None:
        raise ValueError(name)
    return found


def planning(
    seats: int = 2, teams: str = "", houses: tuple[str, ...] | None = None, seed: int = 0
) -> MaiterraState:
    """Turn 1 planning on an all-land 5 x 5 board of vales, nobody owning anything."""
    state = Maiterra(seats=seats, options={"teams": teams}).new_initial_state(seed)
    state.terrain = [VALE] * 25
    names = houses or ("tower",) * seats
    state.house = [HOUSE[name] for name in names]
    state.res = [[20, 0, 0, 0] for _ in range(seats)]  # food enough that nobody starves
    state.start_turn(1)
    state.ended = [False] * seats  # the tests place armies after this
    assert state.phase == PLAN
    return state


def own(state: MaiterraState, seat: int, *names: str) -> None:
    for name in names:
        state.owner[cell(name)] = seat


def army(state: MaiterraState, seat: int, name: str, soldiers: int = 0, cavalry: int = 0) -> None:
    state.soldiers[seat][cell(name)] = soldiers
    state.cavalry[seat][cell(name)] = cavalry


def units(state: MaiterraState, seat: int, name: str) -> tuple[int, int]:
    return state.soldiers[seat][cell(name)], state.cavalry[seat][cell(name)]


def play_turn(state: MaiterraState, orders: dict[int, list[str]], *rolls: int) -> list[Event]:
    """Queue each seat's orders, script the dice, end every turn; the turn's events."""
    if rolls:
        state.rng = Dice(*rolls)
    for seat, texts in orders.items():
        for text in texts:
            state.play(seat, text)
    events: list[Event] = []
    for seat in state.deciding_seats():
        events.extend(state.play(seat, "end"))
    return events


def kinds(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.kind == kind]
