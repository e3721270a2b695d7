"""Maatatahay's positions and transitions.

A round (the rule text's "Turn"):

1. "The Active Player chooses a pair of Warrior tiles, one for each player." (``pick``)
2. "The player receiving the weaker Warrior chooses who plays first. If tied, the Active
   Player chooses." (``first``)
3. "Players take turns placing and activating their Warriors." Each placement is two
   decisions: where (``place``: collect crystals or buy the relic, then support arrows fire)
   and how it ends (``finish``: facing, crystals added from storage; then life and death).
4. "After both players have played, advance the Spirit Track by the total number of
   Warriors that died."
5. "Draw a new pair and switch the Active Player." Then the end conditions are checked.

Board arrays are indexed by space (``row * 5 + col``; see :mod:`.data`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

from meeple.core.compiled import abc_bookkeeping, mypyc_attr
from meeple.core.game import Game, State
from meeple.core.outcome import Event, Outcome
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Action, Seat
from meeple.games.maatatahay import notation as ids
from meeple.games.maatatahay import scoring
from meeple.games.maatatahay.data import (
    AROUND,
    DIAGONAL,
    EMPTY,
    FACINGS,
    KEEPS,
    ORTHOGONAL,
    RULES,
    SPACES,
    TILES_PER_SEAT,
    ArrowTargets,
    RuleData,
    arrow_targets,
    space_name,
)

PICK, ORDER, PLACE, FINISH, OVER = range(5)
PHASES = ("pick", "order", "place", "finish", "over")
NKEEPS = len(KEEPS)
# FINISH_IDS[tile][energy][spirit]: every facing ("rotate it in any direction"), times every way
# to keep at most 4 of the crystals in storage (holding more than 4 of one colour offers
# the same choices as holding 4).
FINISH_IDS = tuple(
    tuple(
        tuple(
            tuple(
                ids.FINISH + f * NKEEPS + k
                for f in range(4)
                for k, (e, s) in enumerate(KEEPS)
                if e <= energy and s <= spirit
            )
            for spirit in range(RULES.storage_limit + 1)
        )
        for energy in range(RULES.storage_limit + 1)
    )
    for tile in range(TILES_PER_SEAT)
)
PLACE_IDS = tuple(ids.PLACE + space * ids.RELIC_CHOICES for space in range(SPACES))
STORAGE_LIMIT = RULES.storage_limit  # every rulebook plays with it (it fixes the action ids)
SPACE_NAMES = tuple(space_name(space) for space in range(SPACES))

# The board as bitmasks (bit ``space``): the rules keep which spaces hold a warrior, which
# an unclaimed relic and which a living warrior of each seat, so "is it surrounded", "how
# many friends stand next to the relic" and "which spaces are free" are a few integer
# operations instead of loops over the neighbours.
BITS = tuple(1 << space for space in range(SPACES))
ORTHOGONAL_BITS = tuple(sum(BITS[n] for n in near) for near in ORTHOGONAL)
AROUND_BITS = tuple(sum(BITS[n] for n in near) for near in AROUND)


def _place_ids_of_bits(first: int, width: int) -> tuple[tuple[int, ...], ...]:
    """``[bits]``: the place ids (no relic) of spaces ``first .. first + width - 1`` whose
    bits are set, ascending."""
    return tuple(
        tuple(PLACE_IDS[first + i] for i in range(width) if bits >> i & 1)
        for bits in range(1 << width)
    )


# The free spaces' place ids in three look-ups: spaces 0-8, 9-16 and 17-24.
PLACES_LOW, PLACES_MID, PLACES_HIGH = (
    _place_ids_of_bits(0, 9),
    _place_ids_of_bits(9, 8),
    _place_ids_of_bits(17, 8),
)
# The decoded form of every place and finish id, looked up instead of divided out.
PLACE_MOVES = tuple(divmod(i, ids.RELIC_CHOICES) for i in range(SPACES * ids.RELIC_CHOICES))
FINISH_MOVES = tuple((facing, keep) for facing in range(len(FACINGS)) for keep in KEEPS)


def owner(uid: int) -> int:
    """Warriors are numbered ``seat * 12 + tile index``."""
    return uid // TILES_PER_SEAT


@mypyc_attr(native_class=False)  # the game class subclasses it in plain Python
class MaatatahayRulebook(Game):
    """What the rules ask of their game object beyond core's :class:`Game`.

    A position's per-seat view, its JSON form and an action's description are written by
    :mod:`.view` and :mod:`.codec`, which read the rules; the game class
    (:class:`~meeple.games.maatatahay.game.Maatatahay`) plugs them in, so the rules import
    none of them.
    """

    rules: RuleData
    """The numbers this game plays with: the published ones (``data/rules.json``), or those
    passed to it. The rules read every number here, never from a module."""
    arrow_targets: ArrowTargets
    """Where :attr:`rules`' tiles point (kept with them)."""
    relic_blocks: bool
    """The option ``relic_blocks``, read once (the rules ask it at every placement)."""
    relic_costs: tuple[int, ...]
    """A relic's cost by the number of friendly warriors orthogonally next to it."""

    def __init__(
        self,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        rules: RuleData | None = None,
    ) -> None:
        """``rules``: numbers to play with instead of the published ones (a balance
        search's candidate, :func:`~meeple.games.maatatahay.data.load_rules`).

        Raises:
            InvalidOptions: as :class:`Game` does.
            ValueError: when ``rules`` change the tiles per seat or the storage limit, which
                fix the action ids.
        """
        super().__init__(seats, options)
        if rules is None:
            rules = RULES
        elif (len(rules.tiles), rules.storage_limit) != (TILES_PER_SEAT, RULES.storage_limit):
            raise ValueError(
                f"Maatatahay's action ids fix {TILES_PER_SEAT} tiles a seat and a storage "
                f"limit of {RULES.storage_limit}; got {len(rules.tiles)} and "
                f"{rules.storage_limit}"
            )
        self.rules = rules
        self.arrow_targets = arrow_targets(rules)
        self.relic_blocks = self.option("relic_blocks") is True
        self.relic_costs = tuple(
            max(rules.relic_min_cost, rules.relic_base_cost - friends) for friends in range(5)
        )

    @abstractmethod
    def position_view(self, state: MaatatahayState, seat: Seat | None) -> JSON:
        """What ``seat`` (None: a spectator) sees of ``state``."""

    @abstractmethod
    def position_json(self, state: MaatatahayState) -> JSON:
        """The whole of ``state`` as JSON."""

    @abstractmethod
    def describe_move(self, state: MaatatahayState, seat: Seat, action: Action) -> str:
        """``seat``'s legal ``action`` in ``state``, told in words."""


class MaatatahayState(State):
    """A Maatatahay position. Create through :meth:`Maatatahay.new_initial_state`."""

    __slots__ = (
        "active",
        "alive",
        "bag_energy",
        "bag_spirit",
        "deaths_this_round",
        "decider",
        "decks",
        "energy",
        "facing",
        "first",
        "game",
        "ground_energy",
        "ground_spirit",
        "hot",
        "hot_was_closed",
        "living",
        "lost",
        "occupied",
        "pair",
        "phase",
        "placements",
        "placing",
        "relic",
        "relics",
        "relics_taken",
        "rng",
        "round",
        "spirit",
        "spirit_track",
        "store_energy",
        "store_spirit",
        "stream",
        "supply",
        "tile",
    )

    game: MaatatahayRulebook

    def __init__(self, game: MaatatahayRulebook, source: MaatatahayState | None = None) -> None:
        """A position before setup or, given ``source``, an independent copy of it (what
        :meth:`clone` makes: the one constructor serves both, as a compiled class runs its
        ``__init__`` on every new object and so cannot be copied through ``object.__new__``)."""
        self.game = game
        if source is None:
            self.round = 1
            self.phase = PICK
            self.active = 0
            self.decider = -1
            self.first = -1
            self.placing = -1
            self.placements = 0
            self.hot = -1  # the space of the warrior being placed (the "hot tile")
            self.hot_was_closed = False  # it was a relic that closed its neighbours' sides
            self.pair: tuple[int, int] | None = None
            self.stream: list[tuple[int, int]] = []
            self.decks: list[list[int]] = [[], []]
            self.tile = [EMPTY] * SPACES
            self.facing = [0] * SPACES
            self.living = [False] * SPACES
            self.energy = [0] * SPACES
            self.spirit = [0] * SPACES
            self.ground_energy = [0] * SPACES
            self.ground_spirit = [0] * SPACES
            self.relic = [False] * SPACES
            # The board's bitmasks (see BITS), kept by the rules as they change the lists above;
            # whoever writes those lists directly (the codec) calls index_board() after.
            self.occupied = 0  # spaces holding a warrior, living or face down
            self.relics = 0  # spaces holding an unclaimed Temple Relic
            self.alive = [0, 0]  # per seat, the spaces of its living warriors
            self.store_energy = [0, 0]
            self.store_spirit = [0, 0]
            self.relics_taken: list[int] = []  # seats, in global order of acquisition
            self.bag_energy = 0
            self.bag_spirit = 0
            self.supply = 0
            self.lost = [0, 0]
            self.spirit_track = 0
            self.deaths_this_round = 0
            self.rng = Rng(0)
            return
        self.round = source.round
        self.phase = source.phase
        self.active = source.active
        self.decider = source.decider
        self.first = source.first
        self.placing = source.placing
        self.placements = source.placements
        self.hot = source.hot
        self.hot_was_closed = source.hot_was_closed
        self.pair = source.pair
        self.stream = source.stream[:]
        self.decks = [source.decks[0][:], source.decks[1][:]]
        self.tile = source.tile[:]
        self.facing = source.facing[:]
        self.living = source.living[:]
        self.energy = source.energy[:]
        self.spirit = source.spirit[:]
        self.ground_energy = source.ground_energy[:]
        self.ground_spirit = source.ground_spirit[:]
        self.relic = source.relic[:]
        self.occupied = source.occupied
        self.relics = source.relics
        self.alive = source.alive[:]
        self.store_energy = source.store_energy[:]
        self.store_spirit = source.store_spirit[:]
        self.relics_taken = source.relics_taken[:]
        self.bag_energy = source.bag_energy
        self.bag_spirit = source.bag_spirit
        self.supply = source.supply
        self.lost = source.lost[:]
        self.spirit_track = source.spirit_track
        self.deaths_this_round = source.deaths_this_round
        self.rng = source.rng.copy()

    # -- setup -------------------------------------------------------------------------

    @classmethod
    def setup(cls, game: MaatatahayRulebook, seed: int) -> MaatatahayState:
        """Shuffle both decks, deal the stream, scatter the map crystals, pick who starts."""
        state = cls(game)
        rng = state.rng = Rng(mix_seed(seed, 0x4D414154))
        shrines = list(game.rules.shrines)
        if game.option("shrines") == "random":
            inner = [r * 5 + c for r in range(1, 4) for c in range(1, 4)]
            rng.shuffle(inner)
            shrines = [False] * SPACES
            for space in inner[: sum(game.rules.shrines)]:
                shrines[space] = True
        state.relic = shrines
        state.index_board()
        rules = game.rules
        state.bag_energy, state.bag_spirit = rules.bag_energy, rules.bag_spirit
        state.supply = rules.supply_energy
        draw, crystals = state._draw_is_spirit, rules.map_crystals
        ground_energy, ground_spirit = state.ground_energy, state.ground_spirit
        for space in range(SPACES):
            if shrines[space]:
                continue
            for _ in range(crystals[space]):
                got = draw()
                if got is None:
                    break
                if got:
                    ground_spirit[space] += 1
                else:
                    ground_energy[space] += 1
        for seat in (0, 1):
            deck = list(range(TILES_PER_SEAT))
            rng.shuffle(deck)
            state.decks[seat] = deck
        for _ in range(game.rules.stream_pairs):
            state.stream.append((state.decks[0].pop(), state.decks[1].pop()))
        state.active = rng.below(2)
        return state

    def index_board(self) -> None:
        """Work out the board's bitmasks from the per-space lists."""
        occupied = relics = 0
        alive = [0, 0]
        for space in range(SPACES):
            uid = self.tile[space]
            if uid != EMPTY:
                occupied |= BITS[space]
                if self.living[space]:
                    alive[uid // TILES_PER_SEAT] |= BITS[space]
            if self.relic[space]:
                relics |= BITS[space]
        self.occupied, self.relics, self.alive = occupied, relics, alive

    def _draw_is_spirit(self) -> bool | None:
        """Draw one crystal from the bag; True for Spirit, False for Energy, None if empty."""
        total = self.bag_energy + self.bag_spirit
        if total == 0:
            return None
        if self.rng.below(total) < self.bag_spirit:
            self.bag_spirit -= 1
            return True
        self.bag_energy -= 1
        return False

    # -- who decides -------------------------------------------------------------------

    def deciding_seats(self) -> tuple[Seat, ...]:
        phase = self.phase
        if phase == PICK:
            return (self.active,)
        if phase == ORDER:
            return (self.decider,)
        if phase == OVER:
            return ()
        return (self.placing,)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        phase = self.phase
        if phase == PLACE:
            return self._legal_places(seat) if seat == self.placing else []
        if phase == FINISH:
            return self._legal_finishes(seat) if seat == self.placing else []
        if phase == PICK:
            return list(range(len(self.stream))) if seat == self.active else []
        if phase == ORDER:
            return [ids.ORDER, ids.ORDER + 1] if seat == self.decider else []
        return []

    def _legal_places(self, seat: int) -> list[int]:
        relics = self.relics
        free = ~(self.occupied | relics)
        actions = [
            *PLACES_LOW[free & 0x1FF],
            *PLACES_MID[free >> 9 & 0xFF],
            *PLACES_HIGH[free >> 17 & 0xFF],
        ]
        spirit = self.store_spirit[seat]
        if spirit == 0 or not relics:  # a relic always costs at least one Spirit crystal
            return actions
        energy = self.store_energy[seat]
        costs = self.game.relic_costs
        friends = self.alive[seat]
        bought = False
        while relics:
            bit = relics & -relics
            relics ^= bit
            space = bit.bit_length() - 1
            cost = costs[(ORTHOGONAL_BITS[space] & friends).bit_count()]
            # Pay ``paid`` Spirit and the rest Energy: at least one Spirit, at most the cost.
            first = PLACE_IDS[space]
            for paid in range(max(1, cost - energy), min(spirit, cost) + 1):
                actions.append(first + paid)
                bought = True
        if bought:
            actions.sort()
        return actions

    def _legal_finishes(self, seat: int) -> list[int]:
        energy = min(self.store_energy[seat], STORAGE_LIMIT)
        spirit = min(self.store_spirit[seat], STORAGE_LIMIT)
        return list(FINISH_IDS[self.tile[self.hot] % TILES_PER_SEAT][energy][spirit])

    def relic_cost(self, seat: int, space: int) -> int:
        """ "Pay up to 4 Crystals ... Each orthogonally adjacent friendly Warrior reduces the
        cost by 1, to a minimum of 1 Spirit Crystal." """
        friends = 0
        tile, living = self.tile, self.living
        for near in ORTHOGONAL[space]:
            if living[near] and tile[near] // TILES_PER_SEAT == seat:
                friends += 1
        return max(self.game.rules.relic_min_cost, self.game.rules.relic_base_cost - friends)

    def seat_name(self, seat: Seat) -> str:
        """The seat's tribe: Balan or Wazu."""
        return self.game.rules.tribes[seat]

    def why_illegal(self, seat: Seat, action: Action) -> str:
        phase = PHASES[self.phase]
        if action < ids.ORDER:
            if self.phase != PICK:
                return f"pairs are picked in the pick phase; this is the {phase} phase"
            return f"the stream holds {len(self.stream)} pair(s)"
        if action < ids.PLACE:
            return f"who places first is chosen in the order phase; this is the {phase} phase"
        if action < ids.FINISH:
            if self.phase != PLACE:
                return f"warriors are placed in the place phase; this is the {phase} phase"
            space, paid = divmod(action - ids.PLACE, ids.RELIC_CHOICES)
            name = space_name(space)
            if self.tile[space] != EMPTY:
                return f"{name} is taken"
            if self.relic[space] and paid == 0:
                return f"{name} holds a Temple Relic: say how many Spirit crystals you pay"
            if not self.relic[space]:
                return f"{name} holds no Temple Relic to pay for"
            cost = self.relic_cost(seat, space)
            return (
                f"the relic on {name} costs {cost} with at least 1 Spirit crystal; you hold "
                f"{self.store_energy[seat]} Energy and {self.store_spirit[seat]} Spirit"
            )
        if self.phase != FINISH:
            return f"a placement is finished in the finish phase; this is the {phase} phase"
        energy, spirit = KEEPS[(action - ids.FINISH) % NKEEPS]
        return (
            f"you cannot keep {energy} Energy and {spirit} Spirit: storage holds "
            f"{self.store_energy[seat]} Energy and {self.store_spirit[seat]} Spirit"
        )

    # -- transitions -------------------------------------------------------------------

    # Each step takes ``events``, the list it tells what happened into, or None when nobody
    # reads them (a search's :meth:`advance` and :meth:`random_playout`): building the
    # events is about a ninth of a playout, and skipping it changes nothing else.

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        self._act(seat, action, events)
        return events

    def advance(self, seat: Seat, action: Action) -> None:
        """:meth:`apply_unchecked` without the events: the same transition, the same random
        draws, for a search that reads none of them."""
        self._act(seat, action, None)

    def _act(self, seat: Seat, action: Action, events: list[Event] | None) -> None:
        if action >= ids.FINISH:
            facing, keep = FINISH_MOVES[action - ids.FINISH]
            self._finish(seat, facing, keep, events)
        elif action >= ids.PLACE:
            space, paid = PLACE_MOVES[action - ids.PLACE]
            self._place(seat, space, paid, events)
        elif action >= ids.ORDER:
            self._order(seat, action - ids.ORDER, events)
        else:
            self._pick(seat, action - ids.PICK, events)

    def random_playout(self, rand: Callable[[], float], limit: int | None = None) -> int:
        """Play uniformly random actions until the match ends or ``limit`` were played;
        returns how many were played.

        At every decision the deciding seat plays ``legal[int(rand() * len(legal))]`` of
        its legal actions (``legal_actions``' list, ascending): the very positions and
        draws of a loop over ``deciding_seats``, ``legal_actions`` and ``apply_unchecked``
        (:class:`meeple.ai.rollout.Playout`'s), without the events, the seat checks or
        the lists of picks, orders and finishes.
        """
        played = 0
        while self.phase != OVER and (limit is None or played < limit):
            phase = self.phase
            if phase == PLACE:
                seat = self.placing
                places = self._legal_places(seat)
                space, paid = PLACE_MOVES[places[int(rand() * len(places))] - ids.PLACE]
                self._place(seat, space, paid, None)
            elif phase == FINISH:
                seat = self.placing
                finishes = FINISH_IDS[self.tile[self.hot] % TILES_PER_SEAT][
                    min(self.store_energy[seat], STORAGE_LIMIT)
                ][min(self.store_spirit[seat], STORAGE_LIMIT)]
                facing, keep = FINISH_MOVES[finishes[int(rand() * len(finishes))] - ids.FINISH]
                self._finish(seat, facing, keep, None)
            elif phase == PICK:
                self._pick(self.active, int(rand() * len(self.stream)), None)
            else:
                self._order(self.decider, int(rand() * 2), None)
            played += 1
        return played

    def _pick(self, seat: int, index: int, events: list[Event] | None) -> None:
        pair = self.stream.pop(index)
        self.pair = pair
        tiles = self.game.rules.tiles
        fangs0, fangs1 = tiles[pair[0]].fangs, tiles[pair[1]].fangs
        # "The player receiving the weaker Warrior chooses who plays first. If tied, the
        # Active Player chooses."
        self.decider = 0 if fangs0 < fangs1 else 1 if fangs1 < fangs0 else self.active
        self.phase = ORDER
        if events is not None:
            numbers = [pair[0] + 1, pair[1] + 1]
            events.append(Event("pick", seat, {"pair": index + 1, "tiles": numbers}))

    def _order(self, seat: int, first: int, events: list[Event] | None) -> None:
        self.first = self.placing = first
        self.placements = 0
        self.phase = PLACE
        if events is not None:
            events.append(Event("order", seat, {"first": first}))

    def _place(self, seat: int, space: int, paid: int, events: list[Event] | None) -> None:
        pair = self.pair
        if pair is None:
            raise RuntimeError("a warrior is placed only after a pair was picked")
        tile_index = pair[seat]
        uid = seat * TILES_PER_SEAT + tile_index
        if events is not None:
            events.append(
                Event("place", seat, {"space": SPACE_NAMES[space], "tile": tile_index + 1})
            )
        bit = BITS[space]
        if self.relics & bit:
            self.hot_was_closed = self.game.relic_blocks
            self._buy_relic(seat, space, paid, events)
        else:
            self.hot_was_closed = False
            energy, spirit = self.ground_energy[space], self.ground_spirit[space]
            if energy or spirit:
                self.store_energy[seat] += energy
                self.store_spirit[seat] += spirit
                self.ground_energy[space] = self.ground_spirit[space] = 0
                if events is not None:
                    events.append(Event("collect", seat, {"energy": energy, "spirit": spirit}))
        tile, facing = self.tile, self.facing
        tile[space] = uid
        facing[space] = 0
        self.living[space] = True
        self.spirit[space] = 0
        self.occupied |= bit
        alive = self.alive
        friends = alive[seat] & AROUND_BITS[space]
        alive[seat] |= bit
        # "After placement, friendly Support Arrows pointing toward the new Warrior give it
        # Energy Crystals (purple)" -- and the map's own arrows at the edge (a Decision).
        arrows = self.game.rules.environment_arrows[space]
        if friends:
            targets = self.game.arrow_targets
            while friends:
                near_bit = friends & -friends
                friends ^= near_bit
                near = near_bit.bit_length() - 1
                if space in targets[tile[near] % TILES_PER_SEAT][facing[near]][near]:
                    arrows += 1
        given = min(arrows, self.supply)
        self.supply -= given
        self.energy[space] = given
        if arrows and events is not None:
            events.append(Event("support", seat, {"arrows": arrows, "energy": given}))
        self.hot = space
        self.phase = FINISH

    def _buy_relic(
        self, seat: int, space: int, paid_spirit: int, events: list[Event] | None
    ) -> None:
        cost = self.relic_cost(seat, space)
        paid_energy = cost - paid_spirit
        self.store_spirit[seat] -= paid_spirit
        self.store_energy[seat] -= paid_energy
        self.bag_spirit += paid_spirit
        self.bag_energy += paid_energy
        self.relic[space] = False
        self.relics &= ~BITS[space]
        self.relics_taken.append(seat)
        drawn = [0, 0]
        for _ in range(self.game.rules.relic_reward):
            got = self._draw_is_spirit()
            if got is None:
                break
            drawn[got] += 1
        self.store_energy[seat] += drawn[0]
        self.store_spirit[seat] += drawn[1]
        if events is None:
            return
        events.append(
            Event(
                "relic",
                seat,
                {
                    "space": SPACE_NAMES[space],
                    "cost": cost,
                    "paid": {"energy": paid_energy, "spirit": paid_spirit},
                    "drawn": {"energy": drawn[0], "spirit": drawn[1]},
                    "order": len(self.relics_taken),
                },
            )
        )

    def _finish(
        self, seat: int, facing: int, keep: tuple[int, int], events: list[Event] | None
    ) -> None:
        space = self.hot
        store_energy, store_spirit = self.store_energy, self.store_spirit
        added_energy = store_energy[seat] - keep[0]
        added_spirit = store_spirit[seat] - keep[1]
        store_energy[seat], store_spirit[seat] = keep
        self.energy[space] += added_energy
        self.spirit[space] += added_spirit
        self.facing[space] = facing
        if events is not None:
            events.append(
                Event(
                    "finish",
                    seat,
                    {
                        "space": SPACE_NAMES[space],
                        "facing": FACINGS[facing],
                        "added": {"energy": added_energy, "spirit": added_spirit},
                    },
                )
            )
        self._life_and_death(space, events)
        self.hot = -1
        self.hot_was_closed = False
        self.placements += 1
        if self.placements == 1:
            self.placing = 1 - self.first
            self.phase = PLACE
        else:
            self._end_round(events)

    def strength(self, space: int) -> int:
        """ "Energy Crystals increase Strength." Fangs + Energy + the Elder/Convert bonus."""
        if not self.living[space]:
            return 0
        uid = self.tile[space]
        tile = self.game.rules.tiles[uid % TILES_PER_SEAT]
        value = tile.fangs + self.energy[space]
        if tile.ability is not None:
            seat = uid // TILES_PER_SEAT
            if tile.ability == "elder":
                near, wanted = ORTHOGONAL[space], seat
            else:
                near, wanted = DIAGONAL[space], 1 - seat
            for other in near:
                if self.living[other] and self.tile[other] // TILES_PER_SEAT == wanted:
                    value += 1
        return value

    def is_surrounded(self, space: int) -> bool:
        """ "Completely surrounded orthogonally": no orthogonal neighbour is vacant.

        The board's edge is not vacant; an unclaimed Temple Relic is, unless the option
        ``relic_blocks`` says otherwise; a face-down warrior is not.
        """
        blocks = self.game.relic_blocks
        tile, relic = self.tile, self.relic
        for near in ORTHOGONAL[space]:
            if tile[near] == EMPTY and (not blocks or not relic[near]):
                return False
        return True

    def _life_and_death(self, placed: int, events: list[Event] | None) -> None:
        """ "Whenever a Warrior becomes completely surrounded orthogonally, it must fight
        alone." Only the new warrior and its orthogonal neighbours can have just become
        surrounded; all fights are judged on the board as it stands, then the dead fall.
        """
        tile, living, alive = self.tile, self.living, self.alive
        # What is_surrounded reads, as bitmasks: the sides a warrior or (with relic_blocks)
        # an unclaimed relic closes, and the living warriors.
        closed = self.occupied | self.relics if self.game.relic_blocks else self.occupied
        standing = alive[0] | alive[1]
        surrounded = []
        sides = ORTHOGONAL_BITS[placed]
        if standing & BITS[placed] and closed & sides == sides:
            surrounded.append(placed)
        # With relic_blocks, a relic's space already closed its neighbours' sides: placing
        # on it surrounds nobody new but the warrior placed.
        if not self.hot_was_closed:
            for space in ORTHOGONAL[placed]:
                sides = ORTHOGONAL_BITS[space]
                if standing & BITS[space] and closed & sides == sides:
                    surrounded.append(space)
        if not surrounded:
            return
        dying = []
        for space in surrounded:
            seat = tile[space] // TILES_PER_SEAT
            attack = 0
            for near in ORTHOGONAL[space]:
                if living[near] and tile[near] // TILES_PER_SEAT != seat:
                    attack += self.strength(near)
            defence = self.strength(space)
            # "Equal or higher -> survives; Lower -> dies"
            survives = defence >= attack
            if events is not None:
                events.append(
                    Event(
                        "fight",
                        seat,
                        {
                            "space": SPACE_NAMES[space],
                            "strength": defence,
                            "against": attack,
                            "survives": survives,
                        },
                    )
                )
            if not survives:
                dying.append(space)
        if not dying:
            return
        spirit_freed = 0
        for space in dying:
            seat = tile[space] // TILES_PER_SEAT
            living[space] = False
            alive[seat] &= ~BITS[space]
            self.supply += self.energy[space]
            self.energy[space] = 0
            spirit_freed += self.spirit[space]
            self.spirit[space] = 0
            self.lost[seat] += 1
            self.deaths_this_round += 1
            if events is not None:
                events.append(Event("death", seat, {"space": SPACE_NAMES[space]}))
        # "Its Spirit Crystals are transferred to the newly placed Warrior. If the newly
        # placed Warrior itself dies, its Spirit Crystals are removed instead."
        if living[placed]:
            self.spirit[placed] += spirit_freed
            if spirit_freed and events is not None:
                events.append(
                    Event(
                        "spirit_transfer", None, {"to": SPACE_NAMES[placed], "spirit": spirit_freed}
                    )
                )
        elif spirit_freed and events is not None:
            events.append(Event("spirit_removed", None, {"spirit": spirit_freed}))

    def _end_round(self, events: list[Event] | None) -> None:
        self.spirit_track += self.deaths_this_round
        if events is not None:
            events.append(
                Event(
                    "spirit_track",
                    None,
                    {"advance": self.deaths_this_round, "at": self.spirit_track},
                )
            )
        self.deaths_this_round = 0
        self.pair = None
        self.decider = self.first = self.placing = -1
        self.placements = 0
        if self.decks[0] and self.decks[1]:
            self.stream.append((self.decks[0].pop(), self.decks[1].pop()))
        self.active = 1 - self.active
        reason = self.end_reason()
        if reason is None:
            self.round += 1
            self.phase = PICK
            return
        self.phase = OVER
        if events is not None:
            outcome = self.outcome()
            if outcome is not None:
                events.append(Event("game_over", None, outcome.to_json()))

    # -- the end -----------------------------------------------------------------------

    def free_spaces(self) -> int:
        """Spaces with no warrior and no unclaimed Temple Relic."""
        # An unclaimed relic's space never holds a warrior.
        return SPACES - (self.occupied | self.relics).bit_count()

    def end_reason(self) -> str | None:
        """ "The game ends after a turn if: Either player has lost 6 Warriors; 1 or fewer
        free spaces remain; or All Warriors have been played." """
        if max(self.lost) >= self.game.rules.lost_to_end:
            return "six_lost"
        if self.free_spaces() <= self.game.rules.free_spaces_to_end:
            return "board_full"
        if not self.stream:
            return "all_played"
        return None

    def relic_points(self, seat: int) -> int:
        return scoring.relic_points(self, seat)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Diamonds and Spirit crystals on surviving warriors, and relics."""
        return scoring.score_breakdown(self, seat)

    def outcome(self) -> Outcome | None:
        return scoring.outcome(self) if self.phase == OVER else None

    # -- copies, views, JSON -----------------------------------------------------------

    def clone(self) -> MaatatahayState:
        """An independent copy: every list copied, the scalars and the game shared (written
        out in ``__init__``)."""
        return MaatatahayState(self.game, self)

    def _resample(self, seat: Seat, seed: int) -> MaatatahayState:
        """Redraw what no seat can see: the order of both face-down decks and the bag.

        Each deck is sorted before it is shuffled, so the redraw depends on which tiles are
        left (what the seat can know), never on the order they really lie in.
        """
        new = self.clone()
        rng = Rng(mix_seed(seed, seat, 0x5245))
        for deck in new.decks:
            deck.sort()
            rng.shuffle(deck)
        new.rng = Rng(rng.next_u64())
        return new

    def _view(self, seat: Seat | None) -> JSON:
        return self.game.position_view(self, seat)

    def to_json(self) -> JSON:
        return self.game.position_json(self)

    def _describe_action(self, seat: Seat, action: Action) -> str:
        return self.game.describe_move(self, seat, action)


abc_bookkeeping(MaatatahayState)  # the compiled class lacks its own (meeple.core.compiled)
