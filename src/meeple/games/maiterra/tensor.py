"""Maiterra's observation vector, written from the state's fields.

What a seat sees (see :mod:`meeple.games.maiterra.view`): Lakeland, owners, buildings,
armies, every seat's stores, people and points, how many cards each holds, who has ended the
turn, the discard pile -- and of its own: its hand, its queued orders and its house. Never
read: another seat's queue, cards or (until every house is locked) house, the deck's order
and the generator. Seats are absolute; ``seat`` says which one is looking. Cells run ``a1,
b1 .. e5`` over the 5 × 5 grid (``row × 5 + col``); lakes and cells outside the seat
count's region are all 0.

The one-hot blocks come first, then the numbers (see :class:`BlockEncoder`). The sizes come
from the game's data tables and the seat count.
"""

from __future__ import annotations

from array import array
from itertools import chain
from typing import Any

import numpy as np

from meeple.core import Game, Seat, State
from meeple.core.tensor import BlockEncoder, Vector
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    CARD_NAMES,
    CELLS,
    NUM_BUILDINGS,
    RESOURCES,
    RULES,
    WORKER_BUILDINGS,
)
from meeple.games.maiterra.lakeland import LAKE
from meeple.games.maiterra.notation import DECODED
from meeple.games.maiterra.resolve import side_points, side_target
from meeple.games.maiterra.rules import NO_SEAT, PHASES, PLAN, MaiterraState

AMOUNT = 10_000
"""The bound of the counts (stores, people, armies...): far above any seen in play."""
SEAT_NUMBERS = (
    "house_locked",
    *RESOURCES,
    "people",
    "workers",
    "fields",
    "points",
    "units",
    "cards",
    "ended",
)
ORDER_PARTS = ("a", "b", "c")


class MaiterraEncoder(BlockEncoder):
    """The blocks are laid out (and explained) in ``__init__``."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        seats = self.seats = game.seats
        add = self.layout.add
        drafts = seats * RULES.draft_fields
        terrains, houses = RULES.terrains, RULES.houses
        # One-hot blocks.
        add("seat", seats, "one-hot: the seat looking")
        add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        add("deciding", seats, "1 for each seat that decides now")
        add("sides", (seats, seats), "one-hot per seat: its side (the lowest seat of its team)")
        add("board.terrain", (CELLS, len(terrains)), "one-hot per cell: " + ", ".join(terrains))
        add("board.owner", (CELLS, seats), "one-hot per cell: the seat holding the field")
        add("houses", (seats, len(houses)), "one-hot per seat: its house, where shown")
        add("queue", (RULES.max_orders, len(ids.KINDS)), "one-hot per queued order: its kind")
        add("draft_order", (drafts, seats), "one-hot: the seats still to draft, in order")
        add("outcome.winners", seats, "1 for each winner once the match is over")
        add("outcome.draw", 1, "1 if the match ended drawn")
        self.add_options()
        # Numbers, written as one list in this order.
        add("turn", 1, "the turn", high=AMOUNT)
        add("turn_limit", 1, "the last turn", high=AMOUNT)
        add("max_orders", 1, "orders a seat may queue", high=AMOUNT)
        add("targets", seats, "each side's target (by side; 0 for no side)", high=AMOUNT)
        add("side_points", seats, "each side's points (by side)", high=AMOUNT)
        add(
            "board.buildings",
            (CELLS, NUM_BUILDINGS),
            "per cell: each building's count",
            high=AMOUNT,
        )
        add("board.armies", (seats, 2, CELLS), "per seat: soldiers, cavalry per cell", high=AMOUNT)
        add(
            "seats",
            (seats, len(SEAT_NUMBERS)),
            "per seat: " + ", ".join(SEAT_NUMBERS),
            low=-AMOUNT,
            high=AMOUNT,
        )
        add("hand", len(CARD_NAMES), "the looking seat's cards, by card", high=AMOUNT)
        add(
            "queue.parts",
            (RULES.max_orders, len(ORDER_PARTS)),
            "per queued order: its numbers a, b, c (-1 for none; see notation's Order)",
            low=-1,
            high=AMOUNT,
        )
        add("deck", 1, "cards in the deck", high=AMOUNT)
        add("discard", len(CARD_NAMES), "the discard pile, by card", high=AMOUNT)
        self.finish(numbers_from="turn")
        at = self.offset
        self._phase, self._deciding = at("phase"), at("deciding")
        self._sides, self._houses = at("sides"), at("houses")
        self._terrain = [at("board.terrain") + c * len(terrains) for c in range(CELLS)]
        self._owner = [at("board.owner") + c * seats for c in range(CELLS)]
        self._queue, self._draft = at("queue"), at("draft_order")
        self._outcome, self._hand, self._parts = (
            at("outcome.winners"),
            at("hand"),
            at("queue.parts"),
        )
        self._maps: dict[tuple[int, ...], _Land] = {}
        self._rules = [RULES.turn_limit, RULES.max_orders]
        self._board_at, self._board_end, self._deck = at("board.buildings"), at("seats"), at("deck")
        self._template[self._parts : self._deck] = -1  # no order queued
        self._last_board: _Board | None = None
        self._last_shared: tuple[tuple[Any, ...], Vector] | None = None
        self._side_targets: dict[tuple[int, ...], list[int]] = {}

    def shared(self, state: State) -> Vector:
        """What every seat sees (see :meth:`_shared_now`), kept while what it reads stays.

        Queueing an order changes only the seat's own queue, so most consecutive positions
        of a match share this part (about 4 in 5 along random play); the last one is kept
        with a copy of every field it was read from, and a new vector is the kept one's
        copy while all of them are equal."""
        if not isinstance(state, MaiterraState):
            raise TypeError(f"a Maiterra encoder cannot read {type(state).__name__}")
        read = (
            state.phase,
            state.turn,
            state.draft_step,
            state.winners,
            state.side,
            len(state.deck),
            # lists of numbers
            state.terrain,
            state.house,
            state.ended,
            state.people,
            state.discard,
            state.draft_order,
            state.owner,
            state.buildings,
            # lists of lists, one a seat
            state.res,
            state.cards,
            state.soldiers,
            state.cavalry,
        )
        kept = self._last_shared
        if kept is not None and kept[0] == read:
            return kept[1].copy()
        out = self._shared_now(state)
        # One tuple, replaced whole: the check above never pairs one read with another's
        # vector. Copies, since the state's lists change in place.
        copied = (
            *read[:6],
            *[numbers[:] for numbers in read[6:14]],
            *[[row[:] for row in rows] for rows in read[14:]],
        )
        self._last_shared = (copied, out.copy())
        return out

    def _shared_now(self, state: MaiterraState) -> Vector:
        seats = self.seats
        ones = [self._phase + state.phase]
        ones += [self._deciding + s for s in state.deciding_seats()]
        ones += [self._sides + s * seats + side for s, side in enumerate(state.side)]
        if NO_SEAT not in state.house:  # once all are locked, every house is shown
            for other, house in enumerate(state.house):
                ones.append(self._houses + other * len(RULES.houses) + house)
        remaining = state.draft_order[state.draft_step :]
        ones += [self._draft + i * seats + s for i, s in enumerate(remaining)]
        outcome = state.outcome()
        if outcome is not None:
            ones += [self._outcome + winner for winner in outcome.winners]
            if outcome.is_draw:
                ones.append(self._outcome + seats)
        board = self._board(state)
        ones += board.ones
        out = self.blank(ones)
        self.put_numbers(out, self._numbers, [state.turn, *self._rules, *board.sides])
        out[self._board_at : self._board_end] = board.values
        planning = state.phase == PLAN
        workers, fields, units = board.workers, board.fields, board.units
        numbers: list[int] = []
        for other in range(seats):
            numbers.append(state.house[other] != NO_SEAT)
            numbers += state.res[other]
            numbers += (
                state.people[other],
                workers[other],
                fields[other],
                RULES.points_per_field * fields[other],
                units[other],
                len(state.cards[other]),
                planning and state.ended[other],
            )
        self.put_numbers(out, self._board_end, numbers)
        # The hand and the queued orders are the seat's own (personalize); the template
        # holds them empty.
        self.put_numbers(out, self._deck, [len(state.deck), *_counts(state.discard)])
        return out

    def personalize(self, out: Vector, state: State, seat: Seat) -> None:
        """The seat's house (before every house is locked), hand and queued orders."""
        if not isinstance(state, MaiterraState):
            raise TypeError(f"a Maiterra encoder cannot read {type(state).__name__}")
        out[self._seat + seat] = 1.0
        house = state.house[seat]
        if house != NO_SEAT and NO_SEAT in state.house:
            out[self._houses + seat * len(RULES.houses) + house] = 1.0
        cards = state.cards[seat]
        if cards:
            out[self._hand : self._hand + len(CARD_NAMES)] = _counts(cards)
        queue = state.queue[seat][: RULES.max_orders]
        if queue:
            kinds: list[int] = []
            parts: list[int] = []
            for index, action in enumerate(queue):
                order = DECODED[action]
                kinds.append(self._queue + index * len(ids.KINDS) + order.kind)
                parts += (order.a, order.b, order.c)
            out.put(kinds, 1.0)
            out[self._parts : self._parts + len(parts)] = parts

    def _board(self, state: MaiterraState) -> _Board:
        """What the shared part reads off the teams, owners, buildings and armies.

        Most decisions (queueing orders, drafting) change none of them, so the last board
        is kept and worked out again only when one of the lists differs."""
        land = self._map(state.terrain)
        lists = [state.side, state.owner, state.buildings, *state.soldiers, *state.cavalry]
        last = self._last_board
        if last is not None and last.land is land and last.lists == lists:
            return last
        # Replaced whole: a check above never pairs one board's lists with another's values.
        board = self._last_board = _Board(self, state, land, [part[:] for part in lists])
        return board

    def _targets(self, state: MaiterraState) -> list[int]:
        """Each side's target (0 for no side): fixed by the teams, worked out once per teams."""
        key = tuple(state.side)
        targets = self._side_targets.get(key)
        if targets is None:
            targets = [0] * self.seats
            for side in set(key):
                targets[side] = side_target(state, side)
            self._side_targets[key] = targets
        return targets

    def _map(self, terrain: list[int]) -> _Land:
        """What a map fixes for the whole match, worked out once per map."""
        key = tuple(terrain)
        land = self._maps.get(key)
        if land is None:
            if len(self._maps) >= 64:
                self._maps.clear()
            land = self._maps[key] = _Land(self, key)
        return land


class _Board:
    """One board's one-hots (terrain, owners), each seat's workers, fields and units, each
    side's target and points, and the buildings and armies blocks with the lakes' places
    0 (the view has no entry for a lake)."""

    __slots__ = ("fields", "land", "lists", "ones", "sides", "units", "values", "workers")

    def __init__(
        self, encoder: MaiterraEncoder, state: MaiterraState, land: _Land, lists: list[Any]
    ) -> None:
        self.land, self.lists = land, lists
        seats = encoder.seats
        owner, buildings = state.owner, state.buildings
        self.ones = list(land.terrain_ones)
        self.workers, self.fields = [0] * seats, [0] * seats
        for cell in land.cells:
            holder = owner[cell]
            if holder >= 0:
                self.ones.append(encoder._owner[cell] + holder)
                self.fields[holder] += 1
                base = cell * NUM_BUILDINGS
                for kind in WORKER_BUILDINGS:
                    self.workers[holder] += buildings[base + kind]
        self.units = [sum(state.soldiers[s]) + sum(state.cavalry[s]) for s in range(seats)]
        points = [0] * seats
        for side, total in side_points(state).items():  # the owners' fields, by side
            points[side] = total
        self.sides = encoder._targets(state) + points
        armies = [row for s in range(seats) for row in (state.soldiers[s], state.cavalry[s])]
        values = np.frombuffer(array("q", chain(buildings, *armies)), np.int64)
        self.values = values.astype(np.float32)
        self.values[land.lake_places - encoder._board_at] = 0.0


class _Land:
    """A map's land cells, their terrain one-hots, and the places that lakes clear."""

    __slots__ = ("cells", "lake_places", "terrain_ones")

    def __init__(self, encoder: MaiterraEncoder, terrain: tuple[int, ...]) -> None:
        self.cells = [cell for cell in range(CELLS) if terrain[cell] != LAKE]
        self.terrain_ones = [encoder._terrain[cell] + terrain[cell] for cell in self.cells]
        lakes = [cell for cell in range(CELLS) if terrain[cell] == LAKE]
        buildings, armies = encoder.offset("board.buildings"), encoder.offset("board.armies")
        places = [buildings + c * NUM_BUILDINGS + k for c in lakes for k in range(NUM_BUILDINGS)]
        places += [armies + row * CELLS + c for row in range(2 * encoder.seats) for c in lakes]
        self.lake_places = np.array(places, dtype=np.intp)


def _counts(cards: list[int]) -> list[int]:
    counts = [0] * len(CARD_NAMES)
    for card in cards:
        counts[card] += 1
    return counts


def writer(game: Game) -> MaiterraEncoder:
    """The game's tensor writer factory (what its kit's ``tensor`` holds)."""
    return MaiterraEncoder(game)
