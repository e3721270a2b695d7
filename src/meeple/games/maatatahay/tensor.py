"""Maatatahay's observation vector, written from the state's fields.

Everything on the table is open (see :mod:`meeple.games.maatatahay.view`), so the vector
holds the board, stream, storages, relics, bag and supply -- and never the order of the
face-down decks or the generator: only the decks' sizes. Seats are absolute (seat 0 is
Balan); ``seat`` says which one is looking. Spaces run ``a1, b1 .. e5`` (rank 1 first).

The one-hot blocks come first, then the numbers, so a vector is written with two numpy
calls: the list of places that are 1, and one list of all the numbers.

Where the compiled writer is installed (``meeple_fast.maatatahay``, from ``pip install
./fast``), the encoder uses it: the same vector, float for float, in a tenth of the time.
The Python path below is the default install's, and the reference the tests hold the
compiled one to (``MEEPLE_NO_EXT=1`` chooses it where both are there).
"""

from __future__ import annotations

from typing import Any

from meeple.core import Game, State
from meeple.core.tensor import BlockEncoder, Vector, compiled_module
from meeple.games.maatatahay.data import (
    DIAGONAL,
    EMPTY,
    FACINGS,
    ORTHOGONAL,
    RULES,
    SPACES,
    TILES_PER_SEAT,
)
from meeple.games.maatatahay.rules import OVER, PHASES, MaatatahayState

SEATS = 2
WARRIORS = SEATS * TILES_PER_SEAT
DIAMONDS = tuple(RULES.tiles[uid % TILES_PER_SEAT].diamonds for uid in range(WARRIORS))
CRYSTALS = RULES.bag_energy + RULES.bag_spirit + RULES.supply_energy
RELICS = sum(RULES.shrines)
MIN_COST, BASE_COST = RULES.relic_min_cost, RULES.relic_base_cost

_Board = tuple[list[list[Any]], list[int], list[int], tuple[int, int]]
"""The board lists last seen, and their one-hots, numbers and board scores."""


class MaatatahayEncoder(BlockEncoder):
    """The blocks are laid out (and explained) in ``__init__``.

    ``compiled``: None uses the compiled writer where it is built, False never does, True
    insists (ImportError without it)."""

    def __init__(self, game: Game, *, compiled: bool | None = None) -> None:
        super().__init__(game)
        add = self.layout.add
        # One-hot blocks.
        add("seat", SEATS, "one-hot: the seat looking")
        add("phase", len(PHASES), "one-hot: " + ", ".join(PHASES))
        for name in ("active", "decider", "first", "placing"):
            add(name, SEATS, "one-hot seat (all 0 for none)")
        add("hot", SPACES, "one-hot: the space of the warrior being placed")
        add("board.warrior", (SPACES, WARRIORS), "one-hot: seat × tiles + tile index")
        add("board.facing", (SPACES, len(FACINGS)), "one-hot: " + " ".join(FACINGS))
        add("stream", (RULES.stream_pairs, SEATS, TILES_PER_SEAT), "one-hot tile per pair, seat")
        add("pair", (SEATS, TILES_PER_SEAT), "one-hot tile per seat of the picked pair")
        add("relics", (RELICS, SEATS), "one-hot: who took the 1st, 2nd ... relic")
        add("outcome.winners", SEATS, "1 for each winner once the match is over")
        add("outcome.draw", 1, "1 if the match ended drawn")
        self.add_options()
        # Numbers, written as one list in this order.
        add("round", 1, "the round", high=TILES_PER_SEAT + 1)
        add("board.alive", SPACES, "1 under a living warrior")
        add("board.energy", SPACES, "Energy on the warrior", high=CRYSTALS)
        add("board.spirit", SPACES, "Spirit on the warrior", high=CRYSTALS)
        strongest = max(t.fangs for t in RULES.tiles) + CRYSTALS + 4
        add("board.strength", SPACES, "the living warrior's Strength", high=strongest)
        add("board.surrounded", SPACES, "1 if the living warrior is surrounded")
        add("board.relic", SPACES, "1 where an unclaimed Temple Relic stands")
        add("board.ground_energy", SPACES, "Energy crystals on the ground", high=CRYSTALS)
        add("board.ground_spirit", SPACES, "Spirit crystals on the ground", high=CRYSTALS)
        add("board.relic_cost", (SEATS, SPACES), "each seat's cost of the relic", high=CRYSTALS)
        add("storage", (SEATS, 2), "Energy, Spirit in each seat's storage", high=CRYSTALS)
        add("lost", SEATS, "warriors each seat lost", high=TILES_PER_SEAT)
        add("spirit_track", 1, "the Spirit Track", high=WARRIORS)
        add("bag", 2, "Energy, Spirit in the bag", high=CRYSTALS)
        add("supply", 1, "Energy in the supply", high=CRYSTALS)
        add("decks", SEATS, "tiles left in each face-down deck", high=TILES_PER_SEAT)
        add("free_spaces", 1, "spaces with no warrior and no relic", high=SPACES)
        add("scores", SEATS, "each seat's score now", high=10 * CRYSTALS)
        self.finish(numbers_from="round")
        at = self.offset
        self._phase, self._hot = at("phase"), at("hot")
        self._deciders = (at("active"), at("decider"), at("first"), at("placing"))
        self._warrior = [at("board.warrior") + s * WARRIORS for s in range(SPACES)]
        self._facing = [at("board.facing") + s * len(FACINGS) for s in range(SPACES)]
        self._stream = [at("stream") + p * WARRIORS for p in range(RULES.stream_pairs)]
        self._pair, self._relics, self._outcome = at("pair"), at("relics"), at("outcome.winners")
        self._relics_block = game.option("relic_blocks") is not False
        self._last_board: _Board | None = None
        # Per warrior id: its seat, Fangs and, per space, the neighbours its ability counts
        # and the seat they must belong to (None: no ability). Index -1 is an empty space.
        self._seat_of = [uid // TILES_PER_SEAT for uid in range(WARRIORS)] + [-1]
        self._fangs = [RULES.tiles[uid % TILES_PER_SEAT].fangs for uid in range(WARRIORS)]
        self._bonus = [_ability_neighbours(uid) for uid in range(WARRIORS)]
        self._places = list(zip(self._warrior, self._facing, strict=True))
        self._standard = game.option("relic_scoring") == "standard"
        progressive = RULES.progressive_relic_points
        self._progressive = [sum(progressive[:count]) for count in range(RELICS + 1)]
        fast = compiled_module("maatatahay", compiled)
        if fast is not None:
            self.use_writer(
                fast.MaatatahayWriter(
                    self.template,
                    MaatatahayState,
                    {name: block.offset for name, block in self.layout.blocks.items()},
                    TILES_PER_SEAT,
                    RULES.stream_pairs,
                    RELICS,
                    OVER,
                    len(FACINGS),
                    ORTHOGONAL,
                    DIAGONAL,
                    RULES.tiles,
                    MIN_COST,
                    BASE_COST,
                    RULES.progressive_relic_points,
                    self._relics_block,
                    self._standard,
                )
            )

    def shared(self, state: State) -> Vector:
        if not isinstance(state, MaatatahayState):
            raise TypeError(f"a Maatatahay encoder cannot read {type(state).__name__}")
        ones = [self._phase + state.phase]
        deciders = self._deciders
        if state.active >= 0:
            ones.append(deciders[0] + state.active)
        if state.decider >= 0:
            ones.append(deciders[1] + state.decider)
        if state.first >= 0:
            ones.append(deciders[2] + state.first)
        if state.placing >= 0:
            ones.append(deciders[3] + state.placing)
        if state.hot >= 0:
            ones.append(self._hot + state.hot)
        for at, (a, b) in zip(self._stream, state.stream, strict=False):
            ones += (at + a, at + TILES_PER_SEAT + b)
        if state.pair is not None:
            ones += (self._pair + state.pair[0], self._pair + TILES_PER_SEAT + state.pair[1])
        taken = state.relics_taken
        relics_at = self._relics
        for i, taker in enumerate(taken[:RELICS]):
            ones.append(relics_at + SEATS * i + taker)
        if state.phase == OVER:
            outcome = state.outcome()
            if outcome is not None:
                ones += [self._outcome + winner for winner in outcome.winners]
                if outcome.is_draw:
                    ones.append(self._outcome + SEATS)
        tile, relic = state.tile, state.relic
        board_ones, board_numbers, scores = self._kept_board(state)
        ones += board_ones
        # "Temple Relics score progressively: 1 / 2 / 3 / 4 / 5 VP", or by global order.
        if self._standard:
            relics0 = sum(i + 1 for i, taker in enumerate(taken) if taker == 0)
            relics1 = sum(i + 1 for i, taker in enumerate(taken) if taker == 1)
        else:
            count1 = taken.count(1)
            relics0 = self._progressive[min(len(taken) - count1, RELICS)]
            relics1 = self._progressive[min(count1, RELICS)]
        numbers = [
            state.round,
            *board_numbers,
            state.store_energy[0],
            state.store_spirit[0],
            state.store_energy[1],
            state.store_spirit[1],
            *state.lost,
            state.spirit_track,
            state.bag_energy,
            state.bag_spirit,
            state.supply,
            len(state.decks[0]),
            len(state.decks[1]),
            # "Spaces with no warrior and no unclaimed Temple Relic."
            tile.count(EMPTY) - relic.count(True),
            scores[0] + relics0,
            scores[1] + relics1,
        ]
        return self.write(ones, numbers)

    def _kept_board(self, state: MaatatahayState) -> tuple[list[int], list[int], tuple[int, int]]:
        """The board's one-hots and numbers and each seat's board score (see :meth:`_board`).

        Picking a pair and choosing who goes first leave the board as it was, so the last
        board's are kept and worked out again only when one of its lists differs."""
        lists: list[list[Any]] = [
            state.tile,
            state.facing,
            state.living,
            state.energy,
            state.spirit,
            state.relic,
            state.ground_energy,
            state.ground_spirit,
        ]
        last = self._last_board
        if last is not None and last[0] == lists:
            return last[1], last[2], last[3]
        ones, numbers, scores = self._board(state)
        # One tuple, replaced whole: the check above never pairs one board with another's.
        self._last_board = ([part[:] for part in lists], ones, numbers, scores)
        return ones, numbers, scores

    def _board(self, state: MaatatahayState) -> tuple[list[int], list[int], tuple[int, int]]:
        """The per-space one-hots and numbers (with the view's Strength, surrounded and relic
        costs), and each seat's diamonds and Spirit on living warriors.

        Plain Python over the 25 spaces, with the rules' per-warrior tables looked up once:
        NumPy's calls cost more than this whole loop on arrays this small."""
        tile, living, relic = state.tile, state.living, state.relic
        energy, spirit, facing = state.energy, state.spirit, state.facing
        alive = [0] * SPACES
        energies = [0] * SPACES
        spirits = [0] * SPACES
        strength = [0] * SPACES
        surrounded = [0] * SPACES
        cost = [0] * (SEATS * SPACES)
        score0 = score1 = 0
        ones: list[int] = []
        seat_of, fangs, bonus, places = self._seat_of, self._fangs, self._bonus, self._places
        blocks = self._relics_block
        for space in range(SPACES):
            uid = tile[space]
            if uid < 0:
                if relic[space]:
                    # "Each orthogonally adjacent friendly Warrior reduces the cost by 1."
                    friends0 = friends1 = 0
                    for near in ORTHOGONAL[space]:
                        if living[near]:
                            if seat_of[tile[near]] == 0:
                                friends0 += 1
                            else:
                                friends1 += 1
                    cost[space] = max(MIN_COST, BASE_COST - friends0)
                    cost[SPACES + space] = max(MIN_COST, BASE_COST - friends1)
                continue
            warrior_at, facing_at = places[space]
            ones += (warrior_at + uid, facing_at + facing[space])
            crystals = energies[space] = energy[space]
            spirits[space] = spirit[space]
            if living[space]:
                alive[space] = 1
                # "Energy Crystals increase Strength." Fangs + Energy + the Elder/Convert bonus.
                value = fangs[uid] + crystals
                counted = bonus[uid][space]
                if counted is not None:
                    wanted = counted[1]
                    for other in counted[0]:
                        if living[other] and seat_of[tile[other]] == wanted:
                            value += 1
                strength[space] = value
                for near in ORTHOGONAL[space]:
                    if tile[near] < 0 and not (blocks and relic[near]):
                        break
                else:
                    surrounded[space] = 1
                if uid < TILES_PER_SEAT:
                    score0 += DIAMONDS[uid] + spirit[space]
                else:
                    score1 += DIAMONDS[uid] + spirit[space]
        numbers = [
            *alive,
            *energies,
            *spirits,
            *strength,
            *surrounded,
            *relic,
            *state.ground_energy,
            *state.ground_spirit,
            *cost,
        ]
        return ones, numbers, (score0, score1)


def _ability_neighbours(uid: int) -> list[tuple[tuple[int, ...], int] | None]:
    """Per space, the neighbours warrior ``uid``'s ability counts and the seat they must be
    of (None without such an ability): "Elder: gains Strength from orthogonally adjacent
    allies." "Convert: gains Strength from diagonally adjacent enemies." """
    tile = RULES.tiles[uid % TILES_PER_SEAT]
    seat = uid // TILES_PER_SEAT
    if tile.ability is None:
        return [None] * SPACES
    if tile.ability == "elder":
        return [(ORTHOGONAL[space], seat) for space in range(SPACES)]
    return [(DIAGONAL[space], 1 - seat) for space in range(SPACES)]


def writer(game: Game) -> MaatatahayEncoder:
    """The game's tensor writer factory (what its kit's ``tensor`` holds)."""
    return MaatatahayEncoder(game)
