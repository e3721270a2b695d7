"""Manafields' observation vector, written from the state's fields.

Nothing is hidden in Manafields but the dice still to come (see
:mod:`meeple.games.manafields.view`): the vector holds the whole position and never the
generator. Seats are absolute; ``seat`` says which one is looking. Squares run ``a1, b1 ..``
(rank 1 first, ``row × width + col``); units sit in their fixed slots ``A`` .. ``L``.

The one-hot blocks come first, then the numbers (see :class:`BlockEncoder`). The sizes come
from the game's data tables: the board, the army size, the unit types of every roster.
"""

from __future__ import annotations

from meeple.core import Game, State
from meeple.core.tensor import BlockEncoder, Vector
from meeple.games.manafields.combat import NO_TURN
from meeple.games.manafields.data import (
    EFFECTS,
    FACTIONS,
    GENERAL,
    IN_ZONE,
    KINDS,
    OBJECTIVE_OF,
    OBJECTIVES,
    RULES,
    SLOTS,
    SQUARES,
    UNIT_TYPES,
    UnitType,
    unit_types,
)
from meeple.games.manafields.rules import ManafieldsState

SEATS = 2
TYPES = tuple(UNIT_TYPES)
"""Every unit type's id: each faction's roster in order, then the Zombie."""
TURNS = 2 * RULES.turn["max_turn_limit"] + 2
POINTS = 1000
OBJECTIVE_SQUARES = RULES.objective_squares
SLOT_FLAGS = (
    "ordered",
    "moved",
    "fought",
    "shot",
    "used_ability",
    "blessed",
    "inspired",
    "warded",
)
STATS = ("max_hp", "speed", "to_hit", "armour", "damage", "range", "level")
ABILITY_NUMBERS = ("ability_range", "ability_amount")
UNIT_NUMBERS = ("alive", "hp", "general", *SLOT_FLAGS, "last_order", "targeted")


def _stats(unit: UnitType) -> list[int]:
    ability = unit.ability
    return [
        unit.hp,
        unit.speed,
        unit.to_hit,
        unit.armour,
        unit.damage,
        unit.range,
        unit.level,
        0 if ability is None else ability.range,
        0 if ability is None else ability.amount,
    ]


class ManafieldsEncoder(BlockEncoder):
    """The blocks are laid out (and explained) in ``__init__``.

    Python only: a compiled writer was measured end to end through the PettingZoo
    environment at about 1.5 times the Python one's episodes a second (at the line, not over
    it) and removed (see docs/research.md, "Compiled or pure Python")."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        add = self.layout.add
        # One-hot blocks.
        add("seat", SEATS, "one-hot: the seat looking")
        add("active", SEATS, "one-hot: the seat whose turn it is")
        add("deciding", SEATS, "1 for each seat that decides now")
        add("factions", (SEATS, len(FACTIONS)), "one-hot per seat: " + ", ".join(FACTIONS))
        add("units.owner", (SLOTS, SEATS), "one-hot per slot: the unit's seat")
        add("units.type", (SLOTS, len(TYPES)), "one-hot per slot: each roster's units, Zombie")
        add("units.kind", (SLOTS, len(KINDS)), "one-hot per slot: " + ", ".join(KINDS))
        add("units.ability", (SLOTS, len(EFFECTS)), "one-hot per slot: the ability's effect")
        add("units.square", (SLOTS, SQUARES), "one-hot per slot: its square (dead: last)")
        add("picked", SLOTS, "1 for each unit the Faction Ability picked")
        add("elf_free", SLOTS, "one-hot: the unit with the Elves' free order")
        add("objectives", (OBJECTIVES, SEATS), "one-hot per objective: its controller")
        add("outcome.winners", SEATS, "1 for each winner once the match is over")
        add("outcome.draw", 1, "1 if the match ended drawn")
        self.add_options()
        # Numbers, written as one list in this order.
        add("turn", 1, "the turn (a seat's turn; 0 first)", high=TURNS)
        add("round", 1, "the round (a turn of each seat)", high=TURNS)
        add("turn_limit", 1, "rounds before the higher score wins", high=TURNS)
        add("op", 1, "Order Points left", high=POINTS)
        add("morale", SEATS, "each seat's Morale", high=POINTS)
        add("score", SEATS, "each seat's score", low=-POINTS, high=POINTS)
        add("lead", SEATS, "each seat's score less the other's", low=-POINTS, high=POINTS)
        add("lead_to_win", 1, "the lead that wins", high=POINTS)
        add("points_now", SEATS, "what each seat would score now", high=POINTS)
        add("owed", SEATS, "points owed for killed Generals", high=POINTS)
        add("rally", SEATS, "1 if the seat's rally is on")
        add("frenzy", 1, "1 while the Orcs' frenzy lasts")
        add("fights_issued", 1, "fights issued this turn", high=POINTS)
        add("picks", 1, "units the Faction Ability may still pick", high=SLOTS)
        add(
            "units.numbers",
            (SLOTS, len(UNIT_NUMBERS) + len(STATS) + len(ABILITY_NUMBERS)),
            "per slot: " + ", ".join(UNIT_NUMBERS + STATS + ABILITY_NUMBERS),
            low=NO_TURN,
            high=TURNS + POINTS,
        )
        self.finish(numbers_from="turn")
        self.signed = True  # a lead below 0, the slots' last orders at NO_TURN
        at = self.offset
        self._active, self._deciding = at("active"), at("deciding")
        self._factions = at("factions")
        self._picked, self._elf, self._objectives = at("picked"), at("elf_free"), at("objectives")
        self._outcome = at("outcome.winners")
        self._owner = [at("units.owner") + s * SEATS for s in range(SLOTS)]
        self._square = [at("units.square") + s * SQUARES for s in range(SLOTS)]
        # Per slot and type: the places of its type, kind and ability one-hots.
        type_at, kind_at, ability_at = at("units.type"), at("units.kind"), at("units.ability")
        self._type_ones: list[dict[str, tuple[int, ...]]] = []
        types = unit_types(game.info.version)  # the same ids in every version, maybe not cards
        for slot in range(SLOTS):
            ones = {}
            for index, (uid, unit) in enumerate(types.items()):
                places = [
                    type_at + slot * len(TYPES) + index,
                    kind_at + slot * len(KINDS) + unit.kind,
                ]
                if unit.ability is not None:
                    places.append(ability_at + slot * len(EFFECTS) + unit.ability.effect)
                ones[uid] = tuple(places)
            self._type_ones.append(ones)
        self._stats = {uid: _stats(unit) for uid, unit in types.items()}

    def shared(self, state: State) -> Vector:
        if not isinstance(state, ManafieldsState):
            raise TypeError(f"a Manafields encoder cannot read {type(state).__name__}")
        ones = [self._active + state.active]
        ones += [self._deciding + s for s in state.deciding_seats()]
        ones += [self._factions + s * len(FACTIONS) + f for s, f in enumerate(state.factions)]
        ones += [self._picked + slot for slot in state.picked]
        if state.elf_free >= 0:
            ones.append(self._elf + state.elf_free)
        controllers, points = _control(state)
        for objective, holder in enumerate(controllers):
            if holder >= 0:
                ones.append(self._objectives + objective * SEATS + holder)
        outcome = state.outcome()
        if outcome is not None:
            ones += [self._outcome + winner for winner in outcome.winners]
            if outcome.is_draw:
                ones.append(self._outcome + SEATS)
        score = state.score
        numbers = [
            state.turn,
            state.turn // 2 + 1,
            state.turn_limit,
            state.op,
            *state.morale,
            *score,
            score[0] - score[1],
            score[1] - score[0],
            RULES.turn["lead_to_win"],
            points[0],
            points[1],
            *state.owed,
            *state.rally,
            state.frenzy,
            state.fights_issued,
            state.picks,
        ]
        generals = state.general
        for slot in range(SLOTS):
            unit, owner, hp = state.unit[slot], state.owner[slot], state.hp[slot]
            ones.append(self._owner[slot] + owner)
            ones += self._type_ones[slot][unit.id]
            ones.append(self._square[slot] + state.pos[slot])
            numbers += (
                hp > 0,
                hp,
                slot == generals[owner] and unit.kind == 0,
                state.ordered[slot],
                state.moved[slot],
                state.fought[slot],
                state.shot[slot],
                state.used_ability[slot],
                state.blessed[slot],
                state.inspired[slot],
                state.warded[slot],
                state.last_order[slot],
                state.targeted[slot],
            )
            numbers += self._stats[unit.id]
        return self.write(ones, numbers)


def _control(state: ManafieldsState) -> tuple[list[int], tuple[int, int]]:
    """Each objective's controller and what each seat would score now: what
    :func:`~meeple.games.manafields.scoring.controller` and
    :func:`~meeple.games.manafields.scoring.points_now` work out, with each seat's General
    looked at once rather than once per objective and seat (the tests hold the vectors to
    theirs)."""
    hp, owner, unit, pos, occ = state.hp, state.owner, state.unit, state.pos, state.occ
    numbers = state.game.rules
    in_zone = [False, False]
    general_on = [-1, -1]
    weights = [1, 1]
    for seat in (0, 1):
        slot = state.general[seat]
        if hp[slot] > 0 and owner[slot] == seat and unit[slot].kind == GENERAL:
            general_on[seat] = OBJECTIVE_OF[pos[slot]]
            in_zone[seat] = IN_ZONE[seat][pos[slot]]
        # "nothing while its General stands alive in its deployment zone; 3 under the
        # Humans' Faction Ability"
        if in_zone[seat]:
            weights[seat] = 0
        elif state.rally[seat]:
            weights[seat] = numbers.effects["humans_control_weight"]
    controllers = []
    for squares in OBJECTIVE_SQUARES:
        counts = [0, 0]
        for square in squares:
            slot = occ[square]
            if slot >= 0:
                counts[owner[slot]] += weights[owner[slot]]
        controllers.append(-1 if counts[0] == counts[1] else 0 if counts[0] > counts[1] else 1)
    points = [0, 0]
    for seat in (0, 1):
        if in_zone[seat]:
            continue
        held = controllers.count(seat)
        on = general_on[seat]
        scoring = numbers.scoring
        general = scoring["general_on_objective"] if on >= 0 and controllers[on] == seat else 0
        points[seat] = held * scoring["objective"] + general + state.owed[seat]
    return controllers, (points[0], points[1])


def writer(game: Game) -> ManafieldsEncoder:
    """The game's tensor writer factory (what its kit's ``tensor`` holds)."""
    return ManafieldsEncoder(game)
