# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Maatatahay's observation vector in compiled code.

The same vector as :class:`meeple.games.maatatahay.tensor.MaatatahayEncoder`'s Python
path, which stays the reference (``tests/adapters/test_fast_encoders.py`` proves the two
equal, float for float): this module reads the state's lists and writes the vector into a
copy of the encoder's template. Everything it needs to know about the layout and the rules
comes from that encoder, as offsets and tables, when it is made.
"""

from libc.string cimport memcpy
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer

# Bounds checks stay on (an index outside a list, or the vector, raises IndexError rather
# than reading or writing past it), except in the board's loop: there every list is checked
# to be a whole board long before it starts, and the neighbours' tables when the writer is
# made, so its indices cannot leave them (20 % of the writer's time).

cimport cython

# The state's fields are read by name (``getattr``, CPython's public PyObject_GetAttr): no
# object's layout is assumed.
FIELDS = (
    "tile",
    "facing",
    "living",
    "energy",
    "spirit",
    "relic",
    "ground_energy",
    "ground_spirit",
    "stream",
    "relics_taken",
    "store_energy",
    "store_spirit",
    "lost",
    "decks",
    "phase",
    "active",
    "decider",
    "first",
    "placing",
    "hot",
    "pair",
    "round",
    "spirit_track",
    "bag_energy",
    "bag_spirit",
    "supply",
)

cdef enum:
    F_TILE = 0
    F_FACING = 1
    F_LIVING = 2
    F_ENERGY = 3
    F_SPIRIT = 4
    F_RELIC = 5
    F_GROUND_ENERGY = 6
    F_GROUND_SPIRIT = 7
    F_STREAM = 8
    F_RELICS_TAKEN = 9
    F_STORE_ENERGY = 10
    F_STORE_SPIRIT = 11
    F_LOST = 12
    F_DECKS = 13
    F_PHASE = 14
    F_ACTIVE = 15
    F_DECIDER = 16
    F_FIRST = 17
    F_PLACING = 18
    F_HOT = 19
    F_PAIR = 20
    F_ROUND = 21
    F_SPIRIT_TRACK = 22
    F_BAG_ENERGY = 23
    F_BAG_SPIRIT = 24
    F_SUPPLY = 25

    N_FIELDS = 26

cdef enum:
    MAX_SPACES = 25
    MAX_TILES = 64
    MAX_NEAR = 4
    MAX_RELIC_POINTS = 32

cdef enum:
    NO_ABILITY = 0
    ELDER = 1
    CONVERT = 2


cdef inline int put(float* out, Py_ssize_t size, Py_ssize_t at, float value) except -1:
    if at < 0 or at >= size:
        raise IndexError(f"place {at} is outside the Maatatahay vector")
    out[at] = value
    return 0


@cython.final
cdef class MaatatahayWriter:
    """Writes one Maatatahay position into a float32 buffer (see the module docstring)."""

    cdef int spaces, per_seat, pairs, relics, seats, over
    cdef int phase_at, hot_at, warrior_at, facing_at, stream_at, pair_at, relics_at
    cdef int outcome_at, seat_at, numbers_at
    cdef int deciders_at[4]
    cdef int warriors, facings
    cdef int min_cost, base_cost
    cdef bint blocks, standard
    cdef int orth[MAX_SPACES][MAX_NEAR]
    cdef int n_orth[MAX_SPACES]
    cdef int diag[MAX_SPACES][MAX_NEAR]
    cdef int n_diag[MAX_SPACES]
    cdef int fangs[MAX_TILES]
    cdef int ability[MAX_TILES]
    cdef int diamonds[MAX_TILES]
    cdef int progressive[MAX_RELIC_POINTS]
    cdef int n_progressive
    cdef object template, state_type, empty, dtype
    cdef bytes blank
    cdef Py_ssize_t length

    def __init__(
        self,
        template,
        state_type,
        dict offsets,
        int per_seat,
        int pairs,
        int relics,
        int over,
        int facings,
        tuple orthogonal,
        tuple diagonal,
        tuple tiles,
        int min_cost,
        int base_cost,
        tuple progressive,
        bint blocks,
        bint standard,
    ):
        cdef int space, i
        if str(template.dtype) != "float32":
            raise TypeError("the compiled Maatatahay encoder writes float32 vectors")
        self.template, self.state_type = template, state_type
        # A new vector at every observation: numpy's empty, then the template's bytes
        # copied in (0.17 µs against 0.27 for template.copy(), at 1120 floats).
        import numpy
        self.empty, self.dtype = numpy.empty, template.dtype
        self.length = template.size
        self.blank = numpy.ascontiguousarray(template).tobytes()
        self.spaces = len(orthogonal)
        self.per_seat = per_seat
        self.seats = 2
        self.warriors = self.seats * per_seat
        if self.spaces > MAX_SPACES or per_seat > MAX_TILES or len(progressive) > MAX_RELIC_POINTS:
            raise ValueError("the Maatatahay tables outgrew the compiled encoder's")
        self.pairs, self.relics, self.over, self.facings = pairs, relics, over, facings
        self.min_cost, self.base_cost = min_cost, base_cost
        self.blocks, self.standard = blocks, standard
        self.seat_at = offsets["seat"]
        self.phase_at = offsets["phase"]
        self.hot_at = offsets["hot"]
        for i, name in enumerate(("active", "decider", "first", "placing")):
            self.deciders_at[i] = offsets[name]
        self.warrior_at = offsets["board.warrior"]
        self.facing_at = offsets["board.facing"]
        self.stream_at = offsets["stream"]
        self.pair_at = offsets["pair"]
        self.relics_at = offsets["relics"]
        self.outcome_at = offsets["outcome.winners"]
        self.numbers_at = offsets["round"]
        for space in range(self.spaces):
            self.n_orth[space] = len(orthogonal[space])
            self.n_diag[space] = len(diagonal[space])
            if self.n_orth[space] > MAX_NEAR or self.n_diag[space] > MAX_NEAR:
                raise ValueError("a space has more neighbours than the compiled encoder keeps")
            for i in range(self.n_orth[space]):
                self.orth[space][i] = orthogonal[space][i]
            for i in range(self.n_diag[space]):
                self.diag[space][i] = diagonal[space][i]
            for i in range(self.n_orth[space]):
                if not 0 <= self.orth[space][i] < self.spaces:
                    raise ValueError("a neighbour lies outside the board")
            for i in range(self.n_diag[space]):
                if not 0 <= self.diag[space][i] < self.spaces:
                    raise ValueError("a neighbour lies outside the board")
        for i, tile in enumerate(tiles):
            self.fangs[i] = tile.fangs
            self.diamonds[i] = tile.diamonds
            self.ability[i] = (
                ELDER if tile.ability == "elder"
                else CONVERT if tile.ability is not None
                else NO_ABILITY
            )
        self.n_progressive = len(progressive)
        for i in range(self.n_progressive):
            self.progressive[i] = progressive[i]

    cdef inline object _field(self, state, bint fast, int which):
        return getattr(state, FIELDS[which])

    @cython.boundscheck(False)
    cdef int _strength(self, list tile, list living, list energy, int space):
        """ "Energy Crystals increase Strength." Fangs + Energy + the Elder/Convert bonus."""
        cdef int uid = tile[space]
        cdef int kind = uid % self.per_seat
        cdef int seat = uid // self.per_seat
        cdef int value = self.fangs[kind] + <int>energy[space]
        cdef int i, other, wanted
        if self.ability[kind] == ELDER:
            wanted = seat
            for i in range(self.n_orth[space]):
                other = self.orth[space][i]
                if living[other] and <int>tile[other] // self.per_seat == wanted:
                    value += 1
        elif self.ability[kind] == CONVERT:
            wanted = 1 - seat
            for i in range(self.n_diag[space]):
                other = self.diag[space][i]
                if living[other] and <int>tile[other] // self.per_seat == wanted:
                    value += 1
        return value

    cdef int _relic_points(self, list taken, int seat):
        """ "Temple Relics score progressively: 1 / 2 / 3 / 4 / 5 VP", or by global order."""
        cdef int i, points = 0, count = 0
        cdef Py_ssize_t n = len(taken)
        for i in range(n):
            if <int>taken[i] == seat:
                count += 1
                points += i + 1
        if self.standard:
            return points
        points = 0
        for i in range(min(count, self.n_progressive)):
            points += self.progressive[i]
        return points

    def observe(self, state, int seat):
        """A new vector: the template with ``state`` written and ``seat`` marked as the one
        looking (none for -1: the part every seat shares)."""
        if type(state) is not self.state_type and not isinstance(state, self.state_type):
            raise TypeError(f"a Maatatahay encoder cannot read {type(state).__name__}")
        vector = self.empty(self.length, self.dtype)
        cdef Py_buffer view
        PyObject_GetBuffer(vector, &view, PyBUF_WRITABLE)
        try:
            if view.len != len(self.blank):
                raise ValueError("the new vector is not the template's size")
            memcpy(view.buf, <const char*>self.blank, view.len)
            self._write(<float*>view.buf, view.len // sizeof(float), state, seat)
        finally:
            PyBuffer_Release(&view)
        return vector

    @cython.boundscheck(False)
    cdef int _write(self, float* out, Py_ssize_t size, state, int seat) except -1:
        cdef bint fast = False
        cdef list tile = self._field(state, fast, F_TILE)
        cdef list facing = self._field(state, fast, F_FACING)
        cdef list living = self._field(state, fast, F_LIVING)
        cdef list energy = self._field(state, fast, F_ENERGY)
        cdef list spirit = self._field(state, fast, F_SPIRIT)
        cdef list relic = self._field(state, fast, F_RELIC)
        cdef list ground_energy = self._field(state, fast, F_GROUND_ENERGY)
        cdef list ground_spirit = self._field(state, fast, F_GROUND_SPIRIT)
        cdef list stream = self._field(state, fast, F_STREAM)
        cdef list taken = self._field(state, fast, F_RELICS_TAKEN)
        cdef list store_energy = self._field(state, fast, F_STORE_ENERGY)
        cdef list store_spirit = self._field(state, fast, F_STORE_SPIRIT)
        cdef list lost = self._field(state, fast, F_LOST)
        cdef list decks = self._field(state, fast, F_DECKS)
        cdef int spaces = self.spaces, per_seat = self.per_seat
        cdef int space, near, uid, i, n, who, phase, empty = 0, relics = 0
        cdef int friends0, friends1, surrounded, strength
        cdef int min_cost = self.min_cost, base_cost = self.base_cost
        cdef int scores[2]
        cdef int at
        cdef object a, b
        # The bounds the loops below rely on (they index without checking).
        if (
            len(tile) != spaces or len(facing) != spaces or len(living) != spaces
            or len(energy) != spaces or len(spirit) != spaces or len(relic) != spaces
            or len(ground_energy) != spaces or len(ground_spirit) != spaces
        ):
            raise ValueError("a board list is not as long as the board")
        if (
            len(store_energy) != 2 or len(store_spirit) != 2 or len(lost) != 2
            or len(decks) != 2
        ):
            raise ValueError("a per-seat list is not one entry a seat")
        if seat >= 0:
            put(out, size, self.seat_at + seat, 1.0)
        # One-hot blocks.
        phase = self._field(state, fast, F_PHASE)
        put(out, size, self.phase_at + phase, 1.0)
        who = self._field(state, fast, F_ACTIVE)
        if who >= 0:
            put(out, size, self.deciders_at[0] + who, 1.0)
        who = self._field(state, fast, F_DECIDER)
        if who >= 0:
            put(out, size, self.deciders_at[1] + who, 1.0)
        who = self._field(state, fast, F_FIRST)
        if who >= 0:
            put(out, size, self.deciders_at[2] + who, 1.0)
        who = self._field(state, fast, F_PLACING)
        if who >= 0:
            put(out, size, self.deciders_at[3] + who, 1.0)
        if self._field(state, fast, F_HOT) >= 0:
            put(out, size, self.hot_at + <int>self._field(state, fast, F_HOT), 1.0)
        n = min(len(stream), self.pairs)
        for i in range(n):
            a, b = stream[i]
            put(out, size, self.stream_at + i * self.warriors + <int>a, 1.0)
            put(out, size, self.stream_at + i * self.warriors + per_seat + <int>b, 1.0)
        pair = self._field(state, fast, F_PAIR)
        if pair is not None:
            put(out, size, self.pair_at + <int>pair[0], 1.0)
            put(out, size, self.pair_at + per_seat + <int>pair[1], 1.0)
        n = min(len(taken), self.relics)
        for i in range(n):
            put(out, size, self.relics_at + i * self.seats + <int>taken[i], 1.0)
        if phase == self.over:
            outcome = state.outcome()
            if outcome is not None:
                for winner in outcome.winners:
                    put(out, size, self.outcome_at + <int>winner, 1.0)
                if outcome.is_draw:
                    put(out, size, self.outcome_at + self.seats, 1.0)
        # Numbers: the round, then a block of ``spaces`` each, then the rest.
        at = self.numbers_at
        put(out, size, at, <int>self._field(state, fast, F_ROUND))
        at += 1
        scores[0] = scores[1] = 0
        for space in range(spaces):
            uid = tile[space]
            if relic[space]:
                relics += 1
                put(out, size, at + 5 * spaces + space, 1.0)
            if uid < 0:
                empty += 1
                if relic[space]:
                    # "Each orthogonally adjacent friendly Warrior reduces the cost by 1."
                    friends0 = friends1 = 0
                    for i in range(self.n_orth[space]):
                        near = self.orth[space][i]
                        if living[near]:
                            if <int>tile[near] // per_seat == 0:
                                friends0 += 1
                            else:
                                friends1 += 1
                    put(out, size, at + 8 * spaces + space, max(min_cost, base_cost - friends0))
                    put(out, size, at + 9 * spaces + space, max(min_cost, base_cost - friends1))
                put(out, size, at + 6 * spaces + space, <int>ground_energy[space])
                put(out, size, at + 7 * spaces + space, <int>ground_spirit[space])
                continue
            if uid >= self.warriors:
                raise ValueError(f"no warrior has the id {uid}")
            put(out, size, self.warrior_at + space * self.warriors + uid, 1.0)
            put(out, size, self.facing_at + space * self.facings + <int>facing[space], 1.0)
            put(out, size, at + spaces + space, <int>energy[space])
            put(out, size, at + 2 * spaces + space, <int>spirit[space])
            put(out, size, at + 6 * spaces + space, <int>ground_energy[space])
            put(out, size, at + 7 * spaces + space, <int>ground_spirit[space])
            if living[space]:
                put(out, size, at + space, 1.0)
                strength = self._strength(tile, living, energy, space)
                put(out, size, at + 3 * spaces + space, strength)
                surrounded = 1
                for i in range(self.n_orth[space]):
                    near = self.orth[space][i]
                    if <int>tile[near] < 0 and not (self.blocks and relic[near]):
                        surrounded = 0
                        break
                if surrounded:
                    put(out, size, at + 4 * spaces + space, 1.0)
                scores[uid // per_seat] += self.diamonds[uid % per_seat] + <int>spirit[space]
        at += 10 * spaces
        put(out, size, at, <int>store_energy[0])
        put(out, size, at + 1, <int>store_spirit[0])
        put(out, size, at + 2, <int>store_energy[1])
        put(out, size, at + 3, <int>store_spirit[1])
        put(out, size, at + 4, <int>lost[0])
        put(out, size, at + 5, <int>lost[1])
        put(out, size, at + 6, <int>self._field(state, fast, F_SPIRIT_TRACK))
        put(out, size, at + 7, <int>self._field(state, fast, F_BAG_ENERGY))
        put(out, size, at + 8, <int>self._field(state, fast, F_BAG_SPIRIT))
        put(out, size, at + 9, <int>self._field(state, fast, F_SUPPLY))
        put(out, size, at + 10, len(decks[0]))
        put(out, size, at + 11, len(decks[1]))
        # "Spaces with no warrior and no unclaimed Temple Relic."
        put(out, size, at + 12, empty - relics)
        put(out, size, at + 13, scores[0] + self._relic_points(taken, 0))
        put(out, size, at + 14, scores[1] + self._relic_points(taken, 1))
