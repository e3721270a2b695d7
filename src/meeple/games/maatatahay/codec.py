"""The full state of a Maatatahay match as JSON, and back (docs/notation.md).

``to_json`` holds everything, the face-down deck order and the generator included; it is
for storage and records, never for a seat (seats get :func:`.view.view`).
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import InvalidState
from meeple.core.rng import Rng
from meeple.core.types import JSON
from meeple.games.maatatahay.data import EMPTY, FACINGS, SPACES, TILES_PER_SEAT, space_name
from meeple.games.maatatahay.rules import FINISH, ORDER, OVER, PHASES, MaatatahayState

FORMAT = "maatatahay-state/1"


def state_to_json(state: MaatatahayState) -> JSON:
    board = []
    for space in range(SPACES):
        uid = state.tile[space]
        entry: dict[str, Any] = {"space": space_name(space)}
        if state.relic[space]:
            entry["relic"] = True
        if state.ground_energy[space] or state.ground_spirit[space]:
            entry["crystals"] = [state.ground_energy[space], state.ground_spirit[space]]
        if uid != EMPTY:
            entry["warrior"] = {
                "seat": uid // TILES_PER_SEAT,
                "tile": uid % TILES_PER_SEAT + 1,
                "facing": FACINGS[state.facing[space]],
                "alive": state.living[space],
                "crystals": [state.energy[space], state.spirit[space]],
            }
        board.append(entry)
    return {
        "format": FORMAT,
        "round": state.round,
        "phase": PHASES[state.phase],
        "active": state.active,
        "decider": None if state.decider < 0 else state.decider,
        "first": None if state.first < 0 else state.first,
        "placing": None if state.placing < 0 else state.placing,
        "placements": state.placements,
        "hot": None if state.hot < 0 else space_name(state.hot),
        "hot_was_closed": state.hot_was_closed,
        "pair": None if state.pair is None else [t + 1 for t in state.pair],
        "stream": [[a + 1, b + 1] for a, b in state.stream],
        "decks": [[t + 1 for t in deck] for deck in state.decks],
        "board": board,
        "storage": [[state.store_energy[s], state.store_spirit[s]] for s in (0, 1)],
        "relics_taken": list(state.relics_taken),
        "bag": [state.bag_energy, state.bag_spirit],
        "supply": state.supply,
        "lost": list(state.lost),
        "spirit_track": state.spirit_track,
        "deaths_this_round": state.deaths_this_round,
        "rng": state.rng.to_json(),
    }


def _int(value: Any, what: str, low: int = 0, high: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer in {low}..{high}, got {value!r}")
    return value


def _seat_or_none(value: Any, what: str) -> int:
    return -1 if value is None else _int(value, what, 0, 1)


def _pair(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidState(f"{what} must be [a, b], got {value!r}")
    return (_int(value[0], what, 0), _int(value[1], what, 0))


def _tile(value: Any, what: str) -> int:
    return _int(value, what, 1, TILES_PER_SEAT) - 1


def state_from_json(game: Any, data: JSON) -> MaatatahayState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible."""
    try:
        return _read(game, data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidState(f"malformed Maatatahay state: {error!r}") from error


def _read(game: Any, data: JSON) -> MaatatahayState:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidState(f"a Maatatahay state is an object with format {FORMAT!r}")
    state = MaatatahayState(game)
    state.round = _int(data["round"], "round", 1, 64)
    if data["phase"] not in PHASES:
        raise InvalidState(f"phase must be one of {PHASES}, got {data['phase']!r}")
    state.phase = PHASES.index(data["phase"])
    state.active = _int(data["active"], "active", 0, 1)
    state.decider = _seat_or_none(data["decider"], "decider")
    state.first = _seat_or_none(data["first"], "first")
    state.placing = _seat_or_none(data["placing"], "placing")
    state.placements = _int(data["placements"], "placements", 0, 1)
    state.pair = None
    if data["pair"] is not None:
        a, b = _pair(data["pair"], "pair")
        state.pair = (_tile(a, "pair"), _tile(b, "pair"))
    state.stream = []
    for item in data["stream"]:
        a, b = _pair(item, "stream")
        state.stream.append((_tile(a, "stream"), _tile(b, "stream")))
    if len(state.stream) > 3:
        raise InvalidState("the stream holds at most 3 pairs")
    decks = data["decks"]
    if not isinstance(decks, list) or len(decks) != 2:
        raise InvalidState("decks must be two lists")
    state.decks = [[_tile(t, "deck") for t in deck] for deck in decks]
    board = data["board"]
    if not isinstance(board, list) or len(board) != SPACES:
        raise InvalidState(f"board must list {SPACES} spaces")
    seen: set[int] = set()
    for space, entry in enumerate(board):
        if entry.get("space") != space_name(space):
            raise InvalidState(f"board entry {space} must be space {space_name(space)}")
        state.relic[space] = bool(entry.get("relic", False))
        energy, spirit = _pair(entry.get("crystals", [0, 0]), "ground crystals")
        state.ground_energy[space], state.ground_spirit[space] = energy, spirit
        warrior = entry.get("warrior")
        if warrior is None:
            continue
        if state.relic[space]:
            raise InvalidState(f"{space_name(space)} holds both a relic and a warrior")
        seat = _int(warrior["seat"], "warrior seat", 0, 1)
        uid = seat * TILES_PER_SEAT + _tile(warrior["tile"], "warrior tile")
        if uid in seen:
            raise InvalidState(f"warrior {uid} stands twice on the board")
        seen.add(uid)
        if warrior["facing"] not in FACINGS:
            raise InvalidState(f"facing must be one of {FACINGS}")
        state.tile[space] = uid
        state.facing[space] = FACINGS.index(warrior["facing"])
        if not isinstance(warrior["alive"], bool):
            raise InvalidState("warrior 'alive' must be true or false")
        state.living[space] = warrior["alive"]
        state.energy[space], state.spirit[space] = _pair(warrior["crystals"], "crystals")
    storage = data["storage"]
    if not isinstance(storage, list) or len(storage) != 2:
        raise InvalidState("storage must list two seats")
    for seat in (0, 1):
        state.store_energy[seat], state.store_spirit[seat] = _pair(storage[seat], "storage")
    state.relics_taken = [_int(s, "relic taker", 0, 1) for s in data["relics_taken"]]
    state.bag_energy, state.bag_spirit = _pair(data["bag"], "bag")
    state.supply = _int(data["supply"], "supply")
    state.lost = [_int(n, "lost", 0, TILES_PER_SEAT) for n in data["lost"]]
    if len(state.lost) != 2:
        raise InvalidState("lost must list two seats")
    state.spirit_track = _int(data["spirit_track"], "spirit_track", 0, 2 * TILES_PER_SEAT)
    state.deaths_this_round = _int(data["deaths_this_round"], "deaths_this_round", 0, 10)
    state.rng = Rng.from_json(data["rng"])
    hot_was_closed = data.get("hot_was_closed", False)
    if not isinstance(hot_was_closed, bool):
        raise InvalidState("hot_was_closed must be true or false")
    state.hot_was_closed = hot_was_closed
    hot = data["hot"]
    state.hot = -1
    if hot is not None:
        names = [space_name(s) for s in range(SPACES)]
        if hot not in names:
            raise InvalidState(f"hot must be a space name, got {hot!r}")
        state.hot = names.index(hot)
    _check_phase(state)
    return state


def _check_phase(state: MaatatahayState) -> None:
    """The fields each phase needs are present, so every phase can go on."""
    phase = state.phase
    if phase >= ORDER and phase != OVER and state.pair is None:
        raise InvalidState(f"phase {PHASES[phase]} needs the picked pair")
    if phase == ORDER and state.decider < 0:
        raise InvalidState("phase order needs the deciding seat")
    if phase > ORDER and phase != OVER and (state.placing < 0 or state.first < 0):
        raise InvalidState(f"phase {PHASES[phase]} needs 'first' and 'placing'")
    if phase == FINISH:
        if state.hot < 0 or state.tile[state.hot] == EMPTY:
            raise InvalidState("phase finish needs the hot tile on the board")
    elif state.hot >= 0:
        raise InvalidState("only the finish phase has a hot tile")
    if phase == 0 and not state.stream:
        raise InvalidState("phase pick needs a non-empty stream")
