# cython: language_level=3, boundscheck=True, wraparound=False, cdivision=True
"""Manafields' observation vector in compiled code.

The same vector as :class:`meeple.games.manafields.tensor.ManafieldsEncoder`'s Python
path, which stays the reference (``tests/adapters/test_fast_encoders.py`` proves the two
equal, float for float): this module reads the state's lists and writes the vector into a
copy of the encoder's template. Everything it needs to know about the layout and the rules
(each unit type's places and numbers, the objectives, the deployment zones, the scoring)
comes from that encoder, as offsets and tables, when it is made.
"""

from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_Release, PyObject_GetBuffer

# Bounds checks stay on (an index outside a list, or the vector, raises IndexError rather
# than reading or writing past it); they cost a comparison each.

cdef enum:
    MAX_SLOTS = 32
    MAX_TYPES = 64
    MAX_PLACES = 3
    MAX_OBJECTIVES = 8
    MAX_OBJECTIVE_SQUARES = 16
    MAX_SQUARES = 1024
    STAT_COUNT = 9


cdef inline int put(float* out, Py_ssize_t size, Py_ssize_t at, float value) except -1:
    if at < 0 or at >= size:
        raise IndexError(f"place {at} is outside the Manafields vector")
    out[at] = value
    return 0


cdef inline int within(int value, int limit, str what) except -1:
    """``value`` itself, once it is known to be in ``0 .. limit - 1`` (it indexes a C table)."""
    if value < 0 or value >= limit:
        raise IndexError(f"{what} {value} is outside the Manafields tables")
    return value


cdef class ManafieldsWriter:
    """Writes one Manafields position into a float32 buffer (see the module docstring)."""

    cdef int slots, squares, objectives, factions, seats
    cdef int seat_at, active_at, deciding_at, factions_at, picked_at, elf_at
    cdef int objectives_at, outcome_at, numbers_at
    cdef int owner_at, square_at
    cdef int lead_to_win, control_weight, objective_points, general_points
    cdef int general_kind
    cdef int n_places[MAX_TYPES]
    cdef int places[MAX_TYPES][MAX_SLOTS][MAX_PLACES]
    cdef int kind[MAX_TYPES]
    cdef int stats[MAX_TYPES][STAT_COUNT]
    cdef int objective_squares[MAX_OBJECTIVES][MAX_OBJECTIVE_SQUARES]
    cdef int n_objective_squares[MAX_OBJECTIVES]
    cdef int objective_of[MAX_SQUARES]
    cdef unsigned char in_zone[2][MAX_SQUARES]
    cdef dict type_index
    cdef object template, state_type

    def __init__(
        self,
        template,
        state_type,
        dict offsets,
        int slots,
        int factions,
        tuple type_ones,
        tuple kinds,
        tuple stats,
        tuple objective_squares,
        tuple objective_of,
        tuple in_zone,
        int lead_to_win,
        int control_weight,
        int objective_points,
        int general_points,
        int general_kind,
    ):
        """``type_ones``: per slot, a dict from each unit type's id to the places of its
        one-hots; ``kinds`` and ``stats``: per unit type, in the order of ``type_ones``'
        keys, its kind and its nine numbers."""
        cdef int t, s, i, o
        if str(template.dtype) != "float32":
            raise TypeError("the compiled Manafields encoder writes float32 vectors")
        self.template, self.state_type = template, state_type
        self.seats = 2
        self.slots, self.factions = slots, factions
        self.squares = len(objective_of)
        self.objectives = len(objective_squares)
        ids = list(type_ones[0]) if type_ones else []
        if (
            slots > MAX_SLOTS
            or len(ids) > MAX_TYPES
            or self.squares > MAX_SQUARES
            or self.objectives > MAX_OBJECTIVES
            or len(type_ones) != slots
            or len(kinds) != len(ids)
            or len(stats) != len(ids)
            or len(in_zone) != self.seats
        ):
            raise ValueError("the Manafields tables outgrew the compiled encoder's")
        self.type_index = {uid: t for t, uid in enumerate(ids)}
        for t, uid in enumerate(ids):
            self.kind[t] = kinds[t]
            if len(stats[t]) != STAT_COUNT:
                raise ValueError("a unit type has another number of stats than nine")
            for i in range(STAT_COUNT):
                self.stats[t][i] = stats[t][i]
            for s in range(slots):
                places = type_ones[s][uid]
                if len(places) > MAX_PLACES:
                    raise ValueError("a unit type has more one-hots than the encoder keeps")
                if s == 0:
                    self.n_places[t] = len(places)
                elif len(places) != self.n_places[t]:
                    raise ValueError("a unit type's one-hots differ from slot to slot")
                for i in range(len(places)):
                    self.places[t][s][i] = places[i]
        for o in range(self.objectives):
            self.n_objective_squares[o] = len(objective_squares[o])
            if self.n_objective_squares[o] > MAX_OBJECTIVE_SQUARES:
                raise ValueError("an objective has more squares than the encoder keeps")
            for i in range(self.n_objective_squares[o]):
                self.objective_squares[o][i] = objective_squares[o][i]
        for i in range(self.squares):
            self.objective_of[i] = objective_of[i]
            for s in range(self.seats):
                self.in_zone[s][i] = bool(in_zone[s][i])
        self.seat_at = offsets["seat"]
        self.active_at = offsets["active"]
        self.deciding_at = offsets["deciding"]
        self.factions_at = offsets["factions"]
        self.owner_at = offsets["units.owner"]
        self.square_at = offsets["units.square"]
        self.picked_at = offsets["picked"]
        self.elf_at = offsets["elf_free"]
        self.objectives_at = offsets["objectives"]
        self.outcome_at = offsets["outcome.winners"]
        self.numbers_at = offsets["turn"]
        self.lead_to_win, self.control_weight = lead_to_win, control_weight
        self.objective_points, self.general_points = objective_points, general_points
        self.general_kind = general_kind

    def observe(self, state, int seat):
        """A new vector: the template with ``state`` written and ``seat`` marked as the one
        looking (none for -1: the part every seat shares)."""
        if not isinstance(state, self.state_type):
            raise TypeError(f"a Manafields encoder cannot read {type(state).__name__}")
        vector = self.template.copy()
        cdef Py_buffer view
        PyObject_GetBuffer(vector, &view, PyBUF_WRITABLE)
        try:
            self._write(<float*>view.buf, view.len // sizeof(float), state, seat)
        finally:
            PyBuffer_Release(&view)
        return vector

    cdef int _write(self, float* out, Py_ssize_t size, state, int seat) except -1:
        cdef list units = state.unit
        cdef list owner = state.owner
        cdef list hp = state.hp
        cdef list pos = state.pos
        cdef list occ = state.occ
        cdef list ordered = state.ordered
        cdef list moved = state.moved
        cdef list fought = state.fought
        cdef list shot = state.shot
        cdef list used_ability = state.used_ability
        cdef list blessed = state.blessed
        cdef list inspired = state.inspired
        cdef list warded = state.warded
        cdef list last_order = state.last_order
        cdef list targeted = state.targeted
        cdef list morale = state.morale
        cdef list score = state.score
        cdef list owed = state.owed
        cdef list rally = state.rally
        general = state.general  # tuples in play; any sequence will do
        factions = state.factions
        cdef int slots = self.slots
        cdef int slot, s, o, i, t, who, unit_hp, square, winner, at
        cdef int types[MAX_SLOTS]
        cdef int alive[2]
        cdef int zone[2]
        cdef int weight[2]
        cdef int counts[2]
        cdef int controller[MAX_OBJECTIVES]
        cdef int points[2]
        cdef int held, on
        if len(units) != slots:
            raise ValueError("the state has another number of slots than the encoder")
        for slot in range(slots):
            types[slot] = self.type_index[units[slot].id]
        # Who may score: "your General must be outside of your deployment zone (or dead)".
        for s in range(self.seats):
            slot = general[s]
            alive[s] = (
                <int>hp[slot] > 0
                and <int>owner[slot] == s
                and self.kind[types[slot]] == self.general_kind
            )
            zone[s] = alive[s] and self.in_zone[s][within(pos[slot], self.squares, "square")]
            weight[s] = 0 if zone[s] else (self.control_weight if rally[s] else 1)
        # Each objective's controller: the seat with more units counted on it, or -1.
        for o in range(self.objectives):
            counts[0] = counts[1] = 0
            for i in range(self.n_objective_squares[o]):
                slot = occ[self.objective_squares[o][i]]
                if slot >= 0:
                    who = within(owner[slot], self.seats, "seat")
                    counts[who] += weight[who]
            controller[o] = -1 if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)
        # What each seat would score if its turn ended now.
        for s in range(self.seats):
            if zone[s]:
                points[s] = 0
                continue
            held = 0
            for o in range(self.objectives):
                if controller[o] == s:
                    held += 1
            points[s] = held * self.objective_points + <int>owed[s]
            if alive[s]:
                on = self.objective_of[within(pos[<int>general[s]], self.squares, "square")]
                if on >= 0 and controller[on] == s:
                    points[s] += self.general_points
        # One-hot blocks.
        if seat >= 0:
            put(out, size, self.seat_at + seat, 1.0)
        who = state.active
        winner = state.winner
        put(out, size, self.active_at + who, 1.0)
        if winner < 0:
            put(out, size, self.deciding_at + who, 1.0)
        for s in range(len(factions)):
            put(out, size, self.factions_at + s * self.factions + <int>factions[s], 1.0)
        for slot in state.picked:
            put(out, size, self.picked_at + <int>slot, 1.0)
        if <int>state.elf_free >= 0:
            put(out, size, self.elf_at + <int>state.elf_free, 1.0)
        for o in range(self.objectives):
            if controller[o] >= 0:
                put(out, size, self.objectives_at + o * self.seats + controller[o], 1.0)
        if winner >= 0:
            # A draw (2) has no winners.
            put(out, size, self.outcome_at + (self.seats if winner == 2 else winner), 1.0)
        for slot in range(slots):
            t = types[slot]
            put(out, size, self.owner_at + slot * self.seats + <int>owner[slot], 1.0)
            for i in range(self.n_places[t]):
                put(out, size, self.places[t][slot][i], 1.0)
            square = pos[slot]
            put(out, size, self.square_at + slot * self.squares + square, 1.0)
        # Numbers.
        at = self.numbers_at
        t = state.turn
        put(out, size, at, t)
        put(out, size, at + 1, t // 2 + 1)
        put(out, size, at + 2, <int>state.turn_limit)
        put(out, size, at + 3, <int>state.op)
        put(out, size, at + 4, <int>morale[0])
        put(out, size, at + 5, <int>morale[1])
        put(out, size, at + 6, <int>score[0])
        put(out, size, at + 7, <int>score[1])
        put(out, size, at + 8, <int>score[0] - <int>score[1])
        put(out, size, at + 9, <int>score[1] - <int>score[0])
        put(out, size, at + 10, self.lead_to_win)
        put(out, size, at + 11, points[0])
        put(out, size, at + 12, points[1])
        put(out, size, at + 13, <int>owed[0])
        put(out, size, at + 14, <int>owed[1])
        put(out, size, at + 15, <int>rally[0])
        put(out, size, at + 16, <int>rally[1])
        put(out, size, at + 17, <int>state.frenzy)
        put(out, size, at + 18, <int>state.fights_issued)
        put(out, size, at + 19, <int>state.picks)
        at += 20
        for slot in range(slots):
            t = types[slot]
            unit_hp = hp[slot]
            who = owner[slot]
            put(out, size, at, unit_hp > 0)
            put(out, size, at + 1, unit_hp)
            put(out, size, at + 2, slot == <int>general[who] and self.kind[t] == self.general_kind)
            put(out, size, at + 3, <int>ordered[slot])
            put(out, size, at + 4, <int>moved[slot])
            put(out, size, at + 5, <int>fought[slot])
            put(out, size, at + 6, <int>shot[slot])
            put(out, size, at + 7, <int>used_ability[slot])
            put(out, size, at + 8, <int>blessed[slot])
            put(out, size, at + 9, <int>inspired[slot])
            put(out, size, at + 10, <int>warded[slot])
            put(out, size, at + 11, <int>last_order[slot])
            put(out, size, at + 12, <int>targeted[slot])
            for i in range(STAT_COUNT):
                put(out, size, at + 13 + i, self.stats[t][i])
            at += 13 + STAT_COUNT
        return 0
