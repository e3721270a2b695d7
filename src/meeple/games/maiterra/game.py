"""The Maiterra game object: rules configured with seats and teams; the factory of states."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from meeple.core.errors import InvalidAction, InvalidOptions
from meeple.core.game import GameInfo, OptionSpec
from meeple.core.outcome import Event
from meeple.core.types import JSON, Action, Seat
from meeple.games.maiterra import notation
from meeple.games.maiterra.codec import state_from_json, state_to_json
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    RESOURCES,
    RULES,
    UNIT_NAMES,
    cell_name,
    path_name,
)
from meeple.games.maiterra.notation import Order
from meeple.games.maiterra.reasons import why_order
from meeple.games.maiterra.redraw import resample
from meeple.games.maiterra.resolve import resolve_turn
from meeple.games.maiterra.rules import Budget, MaiterraRulebook, MaiterraState
from meeple.games.maiterra.view import describe, view


def parse_teams(text: str, seats: int) -> tuple[int, ...]:
    """Each seat's side (the lowest seat of its team) from a team string like ``"1122"``.

    An empty string means everyone against everyone.

    Raises:
        InvalidOptions: for a string that does not give every seat a team, a match of
            fewer than 3 seats, or a single team.
    """
    if text == "":
        return tuple(range(seats))
    if seats < 3:
        raise InvalidOptions("teams are for three and four seats")
    if len(text) != seats or not text.isdigit():
        raise InvalidOptions(f"teams must give one digit per seat, e.g. '1122'; got {text!r}")
    if len(set(text)) < 2:
        raise InvalidOptions("teams need at least two different team numbers")
    return tuple(text.index(digit) for digit in text)


class Maiterra(MaiterraRulebook):
    """Lakeland for two to four seats: everyone plans at once, the turn resolves for all.

    >>> game = Maiterra(seats=4, options={"teams": "1212"})
    >>> state = game.new_initial_state(seed=3)
    >>> state.deciding_seats()
    (0, 1, 2, 3)
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="maiterra",
        version=RULES.version,
        title="Maiterra",
        min_seats=2,
        max_seats=4,
        simultaneous=True,
        hidden_information=True,
        chance=True,
        options=(
            OptionSpec(
                "teams",
                "",
                "numbered teams at 3-4 seats, one digit per seat ('1122': seats 0+1 against "
                "2+3); empty: everyone against everyone",
            ),
        ),
    )

    def _check_configuration(self) -> None:
        teams = self.option("teams")
        if not isinstance(teams, str):
            raise InvalidOptions(f"option 'teams' must be a string, got {teams!r}")
        self._sides = parse_teams(teams, self.seats)

    def sides(self) -> tuple[int, ...]:
        """Each seat's side: the lowest seat of its team (its own number without teams)."""
        return self._sides

    def resolve_turn(self, state: MaiterraState) -> list[Event]:
        return resolve_turn(state)

    def redraw_hidden(self, state: MaiterraState, seat: Seat, seed: int) -> None:
        resample(state, seat, seed)

    def position_view(self, state: MaiterraState, seat: Seat | None) -> JSON:
        return view(state, seat)

    def position_json(self, state: MaiterraState) -> JSON:
        return state_to_json(state)

    def describe_move(self, state: MaiterraState, seat: Seat, action: Action) -> str:
        return describe(state, seat, action)

    def order_reason(self, state: MaiterraState, seat: Seat, order: Order, budget: Budget) -> str:
        return why_order(state, seat, order, budget)

    def num_distinct_actions(self) -> int:
        """Every id; ``takeback`` (the last id) only from rules version 3, so the earlier
        versions keep their number of actions."""
        return notation.NUM_ACTIONS if self.rules.take_backs else notation.TAKE_BACK

    def max_game_length(self) -> int:
        rules = self.rules
        picks = self.seats * (1 + rules.draft_fields)
        # A seat's turn: each order it keeps, each it takes back and queued first, and end.
        per_turn = rules.max_orders + 2 * rules.take_backs + 1
        return picks + rules.turn_limit * self.seats * per_turn

    def new_initial_state(self, seed: int) -> MaiterraState:
        return MaiterraState.setup(self, seed)

    def state_from_json(self, data: JSON) -> MaiterraState:
        return state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        action = notation.parse_action(text)
        if action >= self.num_distinct_actions():
            raise InvalidAction(
                f"queued orders are taken back from rules version 3 on; this match plays {self.id}",
                action=text,
            )
        return action

    def action_to_json(self, action: Action) -> JSON:
        data = super().action_to_json(action)
        order = notation.DECODED[action]
        kind = order.kind
        data["kind"] = notation.KINDS[kind]
        if kind == notation.K_HOUSE:
            data["house"] = RULES.houses[order.a]
        elif kind in (notation.K_DRAFT, notation.K_CLAIM, notation.K_SELL):
            data["field"] = cell_name(order.a)
        elif kind == notation.K_MARCH:
            data.update(
                field=cell_name(order.a), path=path_name(order.b), part=notation.PARTS[order.c]
            )
        elif kind == notation.K_PULLBACK:
            data.update(field=cell_name(order.a), direction=path_name(order.b))
        elif kind == notation.K_BUILD:
            data.update(field=cell_name(order.a), building=BUILDING_NAMES[order.b])
        elif kind == notation.K_TRAIN:
            data.update(field=cell_name(order.a), unit=UNIT_NAMES[order.b])
        elif kind == notation.K_TRADE:
            data.update(give=RESOURCES[order.a], get=RESOURCES[order.b])
        elif kind == notation.K_PLAY:
            data["card"] = CARD_NAMES[order.a]
            if order.b >= 0:
                data["target"] = (
                    RESOURCES[order.b] if CARD_NAMES[order.a] == "prospect" else cell_name(order.b)
                )
        return data


class Maiterra2(Maiterra):
    """Maiterra before queued orders could be taken back (``maiterra/2``), kept so that its
    records replay. See docs/rules/maiterra.md, Versions."""

    info: ClassVar[GameInfo] = dataclasses.replace(Maiterra.info, version=2)


class Maiterra1(Maiterra):
    """Maiterra as first written (``maiterra/1``), kept so that its records replay: road
    fights only between first steps, and Star draws only when its units lost a fight. See
    docs/rules/maiterra.md, Versions."""

    info: ClassVar[GameInfo] = dataclasses.replace(Maiterra.info, version=1)


EARLIER_VERSIONS: tuple[type[Maiterra], ...] = (Maiterra1, Maiterra2)
"""A class for each earlier rules version, oldest first; :class:`Maiterra` is the newest."""
