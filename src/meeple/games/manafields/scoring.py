"""The end and the start of a turn: scoring, the 12-point lead, the turn limit, upkeep.

"Players score points at the end of each of their turns for the following: 1 point for each
objective that you control; 1 point if your General is standing on an objective that you
control; 6 points for killing the enemy General. Players control objectives if there are
more friendly than enemy units standing on them. Note that your General must be outside of
your deployment zone (or dead) in order for your units to count towards objectives, and in
order to score points."
"""

from __future__ import annotations

from collections.abc import Sequence

from meeple.core.outcome import Event
from meeple.games.manafields.combat import hero_on_objective
from meeple.games.manafields.data import OBJECTIVE_OF, OBJECTIVES, RULES, SLOTS
from meeple.games.manafields.position import Position

_NO_FLAGS = (False,) * SLOTS


def control_weight(state: Position, seat: int) -> int:
    """What each of a seat's units counts on an objective: nothing while its General stands
    alive in its deployment zone; 3 under the Humans' Faction Ability."""
    if state.general_in_zone(seat):
        return 0
    return state.rules().effects["humans_control_weight"] if state.rally[seat] else 1


def controller(state: Position, objective: int) -> int:
    """The seat with more units counted on the objective, or -1."""
    counts = [0, 0]
    weights = (control_weight(state, 0), control_weight(state, 1))
    for square in RULES.objective_squares[objective]:
        slot = state.occ[square]
        if slot >= 0:
            counts[state.owner[slot]] += weights[state.owner[slot]]
    if counts[0] == counts[1]:
        return -1
    return 0 if counts[0] > counts[1] else 1


def _controllers(state: Position, weights: Sequence[int] | None = None) -> list[int]:
    """Every objective's :func:`controller`, the seats' weights (:func:`control_weight`,
    when the caller has them) worked out once."""
    if weights is None:
        weights = (control_weight(state, 0), control_weight(state, 1))
    occ, owner = state.occ, state.owner
    out = []
    for squares in RULES.objective_squares:
        counts = [0, 0]
        for square in squares:
            slot = occ[square]
            if slot >= 0:
                counts[owner[slot]] += weights[owner[slot]]
        out.append(-1 if counts[0] == counts[1] else 0 if counts[0] > counts[1] else 1)
    return out


def points_now(
    state: Position, seat: int, controllers: Sequence[int] | None = None
) -> dict[str, int]:
    """What the seat would score if its turn ended now.

    ``controllers``, when the caller has worked them out already, are each objective's
    :func:`controller` in this state (the encoders show them too, and ask for both seats)."""
    return _points(state, seat, state.general_in_zone(seat), controllers)


def _points(
    state: Position, seat: int, in_zone: bool, controllers: Sequence[int] | None
) -> dict[str, int]:
    """:func:`points_now`, told whether the seat's General stands in its zone."""
    if in_zone:
        return {"objectives": 0, "general": 0, "general_killed": 0, "total": 0}
    if controllers is None:
        weights = [0, 0]
        if state.rally[seat]:
            weights[seat] = state.rules().effects["humans_control_weight"]
        else:
            weights[seat] = 1
        weights[1 - seat] = control_weight(state, 1 - seat)
        controllers = _controllers(state, weights)
    held = [o for o in range(OBJECTIVES) if controllers[o] == seat]
    general = 0
    if state.general_alive(seat):
        on = OBJECTIVE_OF[state.pos[state.general[seat]]]
        if on >= 0 and on in held:
            general = state.rules().scoring["general_on_objective"]
    objectives = len(held) * state.rules().scoring["objective"]
    killed = state.owed[seat]
    return {
        "objectives": objectives,
        "general": general,
        "general_killed": killed,
        "total": objectives + general + killed,
    }


def end_turn(state: Position, events: list[Event]) -> None:
    """Score, then the match ends on a 12-point lead or after the last turn, or the other
    seat starts its turn."""
    seat = state.active
    in_zone = state.general_in_zone(seat)
    points = _points(state, seat, in_zone, None)
    if not in_zone:
        state.owed[seat] = 0  # General's 6 points wait while your General is in your zone
    state.score[seat] += points["total"]
    events.append(Event("score", seat, {**points, "score": list(state.score)}))
    other = 1 - seat
    if state.score[seat] - state.score[other] >= state.rules().turn["lead_to_win"]:
        finish(state, seat, "lead", events)
        return
    if state.turn + 1 >= 2 * state.turn_limit:
        a, b = state.score
        finish(state, 0 if a > b else 1 if b > a else 2, "turn_limit", events)
        return
    state.turn += 1
    state.active = other
    start_turn(state, events)


def finish(state: Position, winner: int, reason: str, events: list[Event]) -> None:
    state.winner, state.reason = winner, reason
    state.picks = 0
    outcome = state.outcome()
    if outcome is not None:
        events.append(Event("game_over", None, outcome.to_json()))


def start_turn(state: Position, events: list[Event]) -> None:
    """3 OP; this turn's orders and effects cleared; the seat's wards and rally end ("until
    your next turn"); units on an objective with a friendly Hero heal 1 HP."""
    seat = state.active
    state.op = state.rules().turn["order_points"]
    for flags in (
        state.ordered,
        state.moved,
        state.fought,
        state.shot,
        state.used_ability,
        state.blessed,
        state.inspired,
    ):
        flags[:] = _NO_FLAGS  # in place: the lists are the state's own
    state.rally[seat] = False
    state.frenzy = False
    state.fights_issued = 0
    state.picks = 0
    state.picked = []
    healed = []
    owner, warded, hp, pos, unit = state.owner, state.warded, state.hp, state.pos, state.unit
    for slot in range(SLOTS):
        if owner[slot] == seat:
            warded[slot] = False
            if (
                hp[slot] > 0
                and OBJECTIVE_OF[pos[slot]] >= 0
                and hp[slot] < unit[slot].hp
                and hero_on_objective(state, slot)
            ):
                hp[slot] += state.rules().effects["objective_hero_heal"]
                healed.append(slot)
    events.append(Event("turn", seat, {"turn": state.turn, "op": state.op, "healed": healed}))
