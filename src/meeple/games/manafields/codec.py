"""The full state of a Manafields match as JSON, and back (docs/notation.md).

``to_json`` holds everything, the dice generator included; it is for storage and records.
Seats get :func:`.view.view`, which is the same minus the generator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from meeple.core.errors import InvalidState, excerpt
from meeple.core.types import JSON
from meeple.core.validate import Fields, check_can_continue, expect_bool, expect_choice, expect_int
from meeple.games.manafields.combat import NO_TURN
from meeple.games.manafields.data import (
    ARMY,
    ELVES,
    FACTIONS,
    HUMANS,
    NAMES,
    OBJECTIVES,
    ORCS,
    RULES,
    SLOTS,
    SQUARES,
    UNDEAD,
    UnitType,
    square_index,
)
from meeple.games.manafields.notation import LABELS
from meeple.games.manafields.rules import ManafieldsRulebook, ManafieldsState

FORMAT = "manafields-state/1"
T = TypeVar("T")
FLAGS = ("ordered", "moved", "fought", "shot", "used_ability", "blessed", "inspired", "warded")


def _label(slot: int) -> str | None:
    return None if slot < 0 else LABELS[slot]


def state_to_json(state: ManafieldsState) -> JSON:
    units = []
    for slot in range(SLOTS):
        entry: dict[str, Any] = {
            "slot": LABELS[slot],
            "type": state.unit[slot].id,
            "owner": state.owner[slot],
            "hp": state.hp[slot],
            "square": NAMES[state.pos[slot]],
            "last_order": state.last_order[slot],
            "targeted": state.targeted[slot],
        }
        for flag in FLAGS:
            entry[flag] = getattr(state, flag)[slot]
        units.append(entry)
    return {
        "format": FORMAT,
        "factions": [FACTIONS[f] for f in state.factions],
        "turn_limit": state.turn_limit,
        "turn": state.turn,
        "active": state.active,
        "op": state.op,
        "morale": list(state.morale),
        "score": list(state.score),
        "owed": list(state.owed),
        "rally": list(state.rally),
        "frenzy": state.frenzy,
        "fights_issued": state.fights_issued,
        "picks": state.picks,
        "picked": [LABELS[s] for s in state.picked],
        "elf_free": _label(state.elf_free),
        "winner": None if state.winner < 0 else ("draw" if state.winner == 2 else state.winner),
        "reason": state.reason or None,
        "units": units,
        "rng": state.rng.to_json(),
    }


TOP = (
    "format", "factions", "turn_limit", "turn", "active", "op", "morale", "score", "owed",
    "rally", "frenzy", "fights_issued", "picks", "picked", "elf_free", "winner", "reason",
    "units", "rng",
)  # fmt: skip
UNIT = ("slot", "type", "owner", "hp", "square", "last_order", "targeted", *FLAGS)


def state_from_json(game: ManafieldsRulebook, data: JSON) -> ManafieldsState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible.

    Every field is checked for its type and range; the factions and turn limit are the
    match's options; the seat to play is the turn's; scores fit the turns played and the
    12-point lead (the match ends at once when a seat reaches it); each slot holds its
    card's unit (or a risen Zombie) within the card's HP, living units on distinct open
    squares; the Faction Abilities' marks belong to their factions; and the position must
    be able to go on (see docs/notation.md, Limits).
    """
    top = Fields(data, "state", required=TOP)
    if top.raw("format") != FORMAT:
        raise InvalidState(
            f"a Manafields state has format {FORMAT!r}, got {excerpt(top.raw('format'))}"
        )
    state = ManafieldsState(game)
    factions = [game.option("faction0"), game.option("faction1")]
    if top.raw("factions") != factions:
        raise InvalidState(
            f"state.factions must be {factions} (the match's options), "
            f"got {excerpt(top.raw('factions'))}"
        )
    state.factions = (FACTIONS.index(factions[0]), FACTIONS.index(factions[1]))
    numbers = game.rules
    turn = numbers.turn
    limit = game.option("turn_limit")
    state.turn_limit = top.integer("turn_limit", limit, limit)
    state.turn = top.integer("turn", 0, 2 * limit - 1)
    state.active = top.integer("active", 0, 1)
    if state.active != state.turn % 2:
        raise InvalidState("seat 0 plays the even turns, seat 1 the odd ones")
    most_op = turn["first_turn_order_points"] if state.turn == 0 else turn["order_points"]
    state.op = top.integer("op", 0, most_op)
    state.morale = _two(top, "morale", lambda v, w: expect_int(v, w, 0, turn["morale_max"]))
    state.owed = _two(
        top, "owed", lambda v, w: expect_int(v, w, 0, numbers.scoring["enemy_general_killed"])
    )
    state.rally = _two(top, "rally", expect_bool)
    state.frenzy = top.flag("frenzy")
    free_fights = numbers.effects["orcs_free_fights"]
    state.fights_issued = top.integer("fights_issued", 0, turn["order_points"] + free_fights)
    state.picks = top.integer("picks", 0, turn["faction_picks"])
    state.picked = [
        _slot(s, f"state.picked[{i}]")
        for i, s in enumerate(top.items("picked", max_len=turn["faction_picks"]))
    ]
    elf_free = top.raw("elf_free")
    state.elf_free = -1 if elf_free is None else _slot(elf_free, "state.elf_free")
    winner = top.raw("winner")
    state.winner = -1 if winner is None else 2 if winner == "draw" else top.integer("winner", 0, 1)
    reason = top.raw("reason")
    if (reason is None) != (state.winner < 0) or reason not in (None, "lead", "turn_limit"):
        raise InvalidState("reason is 'lead' or 'turn_limit' once the match is over, else null")
    state.reason = reason or ""
    state.score = [
        expect_int(v, f"state.score[{seat}]", 0, _most_points(state, seat))
        for seat, v in enumerate(top.items("score", length=2))
    ]
    _read_units(state, top.items("units", length=SLOTS), game.rosters, game.rules.zombie)
    state.rng = top.rng()
    _check_turn(state)
    check_can_continue(state)
    return state


def _two(top: Fields, key: str, read: Callable[[Any, str], T]) -> list[T]:
    """A value per seat."""
    return [read(v, f"{top.path(key)}[{seat}]") for seat, v in enumerate(top.items(key, length=2))]


def _most_points(state: ManafieldsState, seat: int) -> int:
    """The most points ``seat`` can hold: its start, and the most a turn brings for every
    turn it has ended (the one being played too, once the match is over)."""
    ended = (state.turn + 1 - seat) // 2 + (1 if state.winner >= 0 and state.active == seat else 0)
    numbers = state.game.rules
    scoring = numbers.scoring
    most_per_turn = (
        OBJECTIVES * scoring["objective"]
        + scoring["general_on_objective"]
        + scoring["enemy_general_killed"]
    )  # the most points a seat can score at the end of one of its turns
    start = numbers.turn["second_player_start_points"] if seat == 1 else 0
    return start + ended * most_per_turn


def _slot(value: Any, what: str) -> int:
    return expect_choice(value, LABELS, what)


def _read_units(
    state: ManafieldsState,
    units: list[Any],
    rosters: tuple[tuple[UnitType, ...], ...],
    zombie: UnitType,
) -> None:
    for slot, raw in enumerate(units):
        label = LABELS[slot]
        entry = Fields(raw, f"state.units[{slot}]", required=UNIT)
        if entry.raw("slot") != label:
            raise InvalidState(f"state.units[{slot}] must be the unit in slot {label}")
        home = slot // ARMY
        original = rosters[state.factions[home]][slot % ARMY]
        kind = entry.raw("type")
        if kind not in (original.id, zombie.id):
            raise InvalidState(f"slot {label} holds {original.id} or a risen zombie")
        unit = original if kind == original.id else zombie
        owner = entry.integer("owner", 0, 1)
        if unit is zombie and state.factions[owner] != UNDEAD:
            raise InvalidState(f"the zombie in slot {label} must serve the Undead")
        if unit is not zombie and owner != home:
            raise InvalidState(f"slot {label} serves seat {home}")
        state.unit[slot] = unit
        state.owner[slot] = owner
        state.hp[slot] = entry.integer("hp", 0, unit.hp)
        square = entry.raw("square")
        square = square_index(square) if isinstance(square, str) and len(square) <= 3 else None
        if square is None or square in RULES.terrain or square >= SQUARES:
            raise InvalidState(f"slot {label} stands on no open square")
        state.pos[slot] = square
        if state.hp[slot] > 0:
            if state.occ[square] >= 0:
                raise InvalidState(f"two units stand on {NAMES[square]}")
            state.place(slot, square)
        for name in ("last_order", "targeted"):
            getattr(state, name)[slot] = entry.integer(name, NO_TURN, state.turn)
            if NO_TURN < getattr(state, name)[slot] < 0:
                raise InvalidState(f"slot {label}'s {name} is a turn number or {NO_TURN}")
        for flag in FLAGS:
            getattr(state, flag)[slot] = entry.flag(flag)
        if state.ordered[slot] != (state.last_order[slot] == state.turn):
            raise InvalidState(f"slot {label} has an order this turn exactly when 'ordered'")
        if not state.ordered[slot] and any(
            getattr(state, flag)[slot] for flag in ("moved", "fought", "shot", "used_ability")
        ):
            raise InvalidState(f"slot {label} moved, fought, shot or used its ability unordered")


def _check_turn(state: ManafieldsState) -> None:
    """The marks of the turn belong to the seat playing it, and the scores to the turns."""
    active = state.active
    faction = state.factions[active]
    for seat in (0, 1):
        if state.rally[seat] and state.factions[seat] != HUMANS:
            raise InvalidState("only the Humans rally")
    if state.frenzy and faction != ORCS:
        raise InvalidState("only the Orcs' turn has a frenzy")
    if state.picks and faction not in (ELVES, UNDEAD):
        raise InvalidState("only the Elves and the Undead pick units for their Faction Ability")
    if len(set(state.picked)) != len(state.picked) or (state.picked and faction != ELVES):
        raise InvalidState("only the Elves pick units to teleport, each once")
    if (
        state.picks
        and faction == ELVES
        and len(state.picked) + state.picks != state.game.rules.turn["faction_picks"]
    ):
        raise InvalidState("the Elves' picks so far and to come make the Faction Ability's")
    free = state.elf_free
    if free >= 0 and not (
        faction == ELVES
        and state.owner[free] == active
        and state.hp[free] > 0
        and state.fought[free]
    ):
        raise InvalidState("the Elves' free move belongs to a living unit of theirs that fought")
    lead = state.game.rules.turn["lead_to_win"]
    ahead = state.score[active] - state.score[1 - active]
    if state.winner < 0:
        if state.turn > 0 and -ahead >= lead:
            raise InvalidState(f"seat {1 - active} leads by {lead} or more, so the match is over")
        return
    if state.picks or free >= 0:
        raise InvalidState("the match is over: no picks and no free move are left")
    if state.reason == "lead" and (state.winner != active or ahead < lead):
        raise InvalidState(f"a lead win goes to the seat that just scored a lead of {lead}")
    if state.reason == "turn_limit":
        a, b = state.score
        if state.turn != 2 * state.turn_limit - 1 or ahead >= lead:
            raise InvalidState("the turn limit ends the match after its last turn only")
        if state.winner != (0 if a > b else 1 if b > a else 2):
            raise InvalidState("at the turn limit the higher score wins (equal scores draw)")
