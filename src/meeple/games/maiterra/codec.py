"""The full state of a Maiterra match as JSON, and back (docs/notation.md).

``to_json`` holds everything -- sealed orders, locked houses, hands, the deck order and the
generator -- for storage and records, never for a seat (seats get :func:`.view.view`).
Queued orders are stored in notation and re-checked one by one when read back.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import GameError, InvalidState
from meeple.core.rng import Rng
from meeple.core.types import JSON
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    CELLS,
    NUM_BUILDINGS,
    RESOURCES,
    RULES,
    cell_name,
    cell_of,
)
from meeple.games.maiterra.lakeland import LAKE
from meeple.games.maiterra.rules import DRAFT, HOUSES, NO_SEAT, OVER, PHASES, PLAN, MaiterraState

FORMAT = "maiterra-state/1"


def state_to_json(state: MaiterraState) -> JSON:
    armies = []
    for seat in range(state.seats):
        armies.append(
            {
                cell_name(c): [state.soldiers[seat][c], state.cavalry[seat][c]]
                for c in range(CELLS)
                if state.soldiers[seat][c] or state.cavalry[seat][c]
            }
        )
    buildings = {}
    for cell in range(CELLS):
        row = state.buildings[cell * NUM_BUILDINGS : (cell + 1) * NUM_BUILDINGS]
        if any(row):
            buildings[cell_name(cell)] = {BUILDING_NAMES[k]: n for k, n in enumerate(row) if n}
    return {
        "format": FORMAT,
        "phase": PHASES[state.phase],
        "turn": state.turn,
        "map": [None if t == LAKE else RULES.terrains[t] for t in state.terrain],
        "owner": [None if o < 0 else o for o in state.owner],
        "buildings": buildings,
        "armies": armies,
        "seats": [
            {
                **{RESOURCES[i]: state.res[seat][i] for i in range(4)},
                "people": state.people[seat],
                "house": None if state.house[seat] < 0 else RULES.houses[state.house[seat]],
                "cards": [CARD_NAMES[c] for c in state.cards[seat]],
                "queue": [ids.format_action(a) for a in state.queue[seat]],
                "ended": state.ended[seat],
            }
            for seat in range(state.seats)
        ],
        "deck": [CARD_NAMES[c] for c in state.deck],
        "discard": [CARD_NAMES[c] for c in state.discard],
        "draft_order": list(state.draft_order),
        "draft_step": state.draft_step,
        "winners": list(state.winners),
        "reason": state.reason,
        "rng": state.rng.to_json(),
    }


def _int(value: Any, what: str, low: int = 0, high: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer in {low}..{high}, got {value!r}")
    return value


def _name(value: Any, names: tuple[str, ...], what: str) -> int:
    if not isinstance(value, str) or value not in names:
        raise InvalidState(f"{what} must be one of {list(names)}, got {value!r}")
    return names.index(value)


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length}"
        raise InvalidState(f"{what} must be a list{size}, got {value!r}")
    return value


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidState(f"{what} must be an object, got {value!r}")
    return value


def _cell(name: Any, what: str) -> int:
    cell = cell_of(name) if isinstance(name, str) else None
    if cell is None:
        raise InvalidState(f"{what} must name a cell a1..e5, got {name!r}")
    return cell


def state_from_json(game: Any, data: JSON) -> MaiterraState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible."""
    try:
        return _read(game, data)
    except InvalidState:
        raise
    except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidState(f"malformed Maiterra state: {error!r}") from error


def _read(game: Any, data: JSON) -> MaiterraState:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidState(f"a Maiterra state is an object with format {FORMAT!r}")
    state = MaiterraState(game)
    seats = game.seats
    state.phase = _name(data["phase"], PHASES, "phase")
    state.turn = _int(data["turn"], "turn", 0, RULES.turn_limit)
    terrain = _list(data["map"], "map", CELLS)
    state.terrain = [LAKE if t is None else _name(t, RULES.terrains, "terrain") for t in terrain]
    owners = _list(data["owner"], "owner", CELLS)
    for cell, owner in enumerate(owners):
        state.owner[cell] = NO_SEAT if owner is None else _int(owner, "owner", 0, seats - 1)
        if owner is not None and not state.is_land(cell):
            raise InvalidState(f"{cell_name(cell)} is a lake and cannot be owned")
    for name, row in _dict(data["buildings"], "buildings").items():
        cell = _cell(name, "buildings")
        if state.owner[cell] < 0:
            raise InvalidState(f"buildings stand on {name}, which nobody owns")
        for building, count in _dict(row, "buildings").items():
            kind = _name(building, BUILDING_NAMES, "building")
            state.buildings[cell * NUM_BUILDINGS + kind] = _int(
                count, "building count", 1, state.slots(cell, kind)
            )
    armies = _list(data["armies"], "armies", seats)
    for seat, army in enumerate(armies):
        for name, stack in _dict(army, "army").items():
            cell = _cell(name, "army")
            if not state.is_land(cell):
                raise InvalidState(f"an army stands in the lake at {name}")
            pair = _list(stack, "army stack", 2)
            state.soldiers[seat][cell] = _int(pair[0], "soldiers", 0, 999)
            state.cavalry[seat][cell] = _int(pair[1], "cavalry", 0, 999)
    rows = _list(data["seats"], "seats", seats)
    for seat, raw in enumerate(rows):
        row = _dict(raw, "seat")
        state.res[seat] = [_int(row[r], r, 0, RULES.storage_cap) for r in RESOURCES]
        state.people[seat] = _int(row["people"], "people", 0, 999)
        house = row["house"]
        state.house[seat] = NO_SEAT if house is None else _name(house, RULES.houses, "house")
        state.cards[seat] = [_name(c, CARD_NAMES, "card") for c in _list(row["cards"], "cards")]
        if len(state.cards[seat]) > RULES.hand_limit:
            raise InvalidState(f"a seat holds at most {RULES.hand_limit} cards")
        if not isinstance(row["ended"], bool):
            raise InvalidState("'ended' must be true or false")
        state.ended[seat] = row["ended"]
    state.deck = [_name(c, CARD_NAMES, "card") for c in _list(data["deck"], "deck")]
    state.discard = [_name(c, CARD_NAMES, "card") for c in _list(data["discard"], "discard")]
    state.draft_order = [
        _int(s, "draft order", 0, seats - 1) for s in _list(data["draft_order"], "draft_order")
    ]
    state.draft_step = _int(data["draft_step"], "draft_step", 0, len(state.draft_order))
    state.winners = tuple(_int(s, "winner", 0, seats - 1) for s in _list(data["winners"], "w"))
    if not isinstance(data["reason"], str):
        raise InvalidState("reason must be text")
    state.reason = data["reason"]
    state.rng = Rng.from_json(data["rng"])
    _check_phase(state)
    for seat, row in enumerate(rows):
        for text in _list(row["queue"], "queue"):
            action = ids.parse_action(text)
            if state.phase != PLAN or action not in state.legal_orders(seat):
                raise InvalidState(f"seat {seat} cannot have queued {text!r}")
            state.queue[seat].append(action)
    return state


def _check_phase(state: MaiterraState) -> None:
    """Every phase can go on from what the state holds."""
    phase = state.phase
    if phase == HOUSES and NO_SEAT not in state.house:
        raise InvalidState("every house is locked, yet the phase is houses")
    if phase != HOUSES and NO_SEAT in state.house:
        raise InvalidState(f"phase {PHASES[phase]} needs every house locked")
    if phase == DRAFT:
        if state.draft_step >= len(state.draft_order):
            raise InvalidState("the draft needs a seat to pick")
        if not any(state.is_land(c) and state.owner[c] < 0 for c in range(CELLS)):
            raise InvalidState("the draft needs a free field")
    elif state.draft_order or state.draft_step:
        raise InvalidState("only the draft has a draft order")
    if phase == PLAN and all(state.ended):
        raise InvalidState("a turn needs a seat still planning")
    if phase != PLAN and any(state.ended) != (phase == OVER):
        raise InvalidState("only a turn (or the end) has seats that ended")
    if (phase == OVER) != bool(state.reason):
        raise InvalidState("the end, and only the end, has a reason")
    if phase != OVER and state.winners:
        raise InvalidState("only the end has winners")
    if phase in (PLAN, OVER) and state.turn < 1:
        raise InvalidState("turns count from 1")
    if phase in (HOUSES, DRAFT) and state.turn != 0:
        raise InvalidState("turn 0 is the house pick and the draft")
