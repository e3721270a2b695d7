"""What a seat sees of a Maatatahay match, and sentences describing actions.

Everything on the table is open: the board, the stream, both storages, the relics, the bag
and supply counts. Hidden from everyone: the order of the face-down decks and the state's
generator (the next crystals out of the bag). A seat sees how many tiles each deck holds.
"""

from __future__ import annotations

from typing import Any

from meeple.core.types import JSON, Action, Seat
from meeple.games.maatatahay import notation as ids
from meeple.games.maatatahay.data import (
    DIRECTIONS,
    EMPTY,
    FACINGS,
    KEEPS,
    RULES,
    SPACES,
    TILES_PER_SEAT,
)
from meeple.games.maatatahay.rules import PHASES, SPACE_NAMES, MaatatahayState

TILES = RULES.tiles

# The view is sent after every action, so what never changes is worked out once here: each
# tile's printed face and its arrows at each facing (the spaces' names come from the rules).
_TILE_JSON = tuple(tile.to_json() for tile in TILES)
_ARROWS = tuple(
    tuple(tuple(DIRECTIONS[d] for d in tile.arrows_facing(facing)) for facing in range(4))
    for tile in TILES
)


def _tile(index: int) -> dict[str, Any]:
    face = _TILE_JSON[index]
    return {**face, "arrows": list(face["arrows"])}


def _seat_or_none(value: int) -> int | None:
    return None if value < 0 else value


def _warrior(state: MaatatahayState, space: int, uid: int) -> dict[str, Any]:
    index = uid % TILES_PER_SEAT
    tile = TILES[index]
    facing = state.facing[space]
    alive = state.living[space]
    return {
        "seat": uid // TILES_PER_SEAT,
        "tile": tile.id,
        "name": tile.name,
        "fangs": tile.fangs,
        "diamonds": tile.diamonds,
        "ability": tile.ability,
        "arrows": list(_ARROWS[index][facing]),
        "facing": FACINGS[facing],
        "alive": alive,
        "energy": state.energy[space],
        "spirit": state.spirit[space],
        "strength": state.strength(space) if alive else 0,
        "surrounded": alive and state.is_surrounded(space),
    }


def _board(state: MaatatahayState) -> list[dict[str, Any]]:
    tile, relic = state.tile, state.relic
    energy, spirit = state.ground_energy, state.ground_spirit
    return [
        {
            "space": SPACE_NAMES[space],
            "relic": relic[space],
            "crystals": {"energy": energy[space], "spirit": spirit[space]},
            "warrior": None if tile[space] == EMPTY else _warrior(state, space, tile[space]),
        }
        for space in range(SPACES)
    ]


def view(state: MaatatahayState, seat: Seat | None) -> JSON:
    outcome = state.outcome()
    relic = state.relic
    relic_costs = {
        SPACE_NAMES[s]: [state.relic_cost(0, s), state.relic_cost(1, s)]
        for s in range(SPACES)
        if relic[s]
    }
    taken = state.relics_taken
    return {
        "game": state.game.id,
        "seat": seat,
        "round": state.round,
        "phase": PHASES[state.phase],
        "active": state.active,
        "deciding": list(state.deciding_seats()),
        "decider": _seat_or_none(state.decider),
        "first": _seat_or_none(state.first),
        "placing": _seat_or_none(state.placing),
        "hot": None if state.hot < 0 else SPACE_NAMES[state.hot],
        "tribes": list(RULES.tribes),
        "board": _board(state),
        "stream": [[_tile(a), _tile(b)] for a, b in state.stream],
        "pair": None if state.pair is None else [_tile(state.pair[0]), _tile(state.pair[1])],
        "storage": [
            {"energy": state.store_energy[s], "spirit": state.store_spirit[s]} for s in (0, 1)
        ],
        "relics": [[i + 1 for i, taker in enumerate(taken) if taker == s] for s in (0, 1)],
        "relic_costs": relic_costs,
        "lost": list(state.lost),
        "spirit_track": state.spirit_track,
        "bag": {"energy": state.bag_energy, "spirit": state.bag_spirit},
        "supply": state.supply,
        "decks": [len(state.decks[0]), len(state.decks[1])],
        "free_spaces": state.free_spaces(),
        "scores": [state.score_breakdown(s)["total"] for s in (0, 1)],
        "options": dict(state.game.options),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def describe(state: MaatatahayState, seat: Seat, action: Action) -> str:
    """A sentence for people, e.g. "Wazu places Hunter (2 fangs) on c3"."""
    who = RULES.tribes[seat]
    if action < ids.ORDER:
        index = action - ids.PICK
        if index < len(state.stream):
            a, b = state.stream[index]
            return (
                f"{who} picks pair {index + 1}: {RULES.tribes[0]} {TILES[a].name} "
                f"({TILES[a].fangs}) and {RULES.tribes[1]} {TILES[b].name} ({TILES[b].fangs})"
            )
        return f"{who} picks pair {index + 1}"
    if action < ids.PLACE:
        first = action - ids.ORDER
        return f"{who} lets {RULES.tribes[first]} place first"
    if action < ids.FINISH:
        space, paid = divmod(action - ids.PLACE, ids.RELIC_CHOICES)
        name = "a warrior"
        if state.pair is not None:
            tile = TILES[state.pair[seat]]
            name = f"{tile.name} ({tile.fangs} {'fang' if tile.fangs == 1 else 'fangs'})"
        text = f"{who} places {name} on {SPACE_NAMES[space]}"
        if paid:
            cost = state.relic_cost(seat, space) if state.relic[space] else paid
            text += f" and buys the Temple Relic with {paid} Spirit and {cost - paid} Energy"
        return text
    facing, keep = divmod(action - ids.FINISH, len(KEEPS))
    energy, spirit = KEEPS[keep]
    added_e = state.store_energy[seat] - energy
    added_s = state.store_spirit[seat] - spirit
    text = f"{who} turns the warrior to face {FACINGS[facing]}"
    if added_e or added_s:
        text += f", adds {added_e} Energy and {added_s} Spirit from storage"
    return text + f", keeps {energy} Energy and {spirit} Spirit"
