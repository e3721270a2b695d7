"""The full state of a Maatatahay match as JSON, and back (docs/notation.md).

``to_json`` holds everything, the face-down deck order and the generator included; it is
for storage and records, never for a seat (seats get :func:`.view.view`).
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import InvalidState, excerpt
from meeple.core.types import JSON
from meeple.core.validate import (
    Fields,
    check_can_continue,
    expect_choice,
    expect_int,
    expect_list,
)
from meeple.games.maatatahay.data import EMPTY, FACINGS, RULES, SPACES, TILES_PER_SEAT, space_name
from meeple.games.maatatahay.rules import (
    FINISH,
    ORDER,
    OVER,
    PHASES,
    PICK,
    PLACE,
    MaatatahayRulebook,
    MaatatahayState,
    owner,
)

TRIBES = RULES.tribes

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


TOP = (
    "format", "round", "phase", "active", "decider", "first", "placing", "placements", "hot",
    "pair", "stream", "decks", "board", "storage", "relics_taken", "bag", "supply", "lost",
    "spirit_track", "deaths_this_round", "rng",
)  # fmt: skip
ENERGY = RULES.bag_energy + RULES.supply_energy
"""Every Energy crystal of the game: no one count of them can be larger."""
SPIRIT = RULES.bag_spirit
SHRINES = sum(RULES.shrines)
NAMES = tuple(space_name(space) for space in range(SPACES))


def state_from_json(game: MaatatahayRulebook, data: JSON) -> MaatatahayState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible.

    Every field is checked for its type and range, no warrior tile is in two places at
    once (deck, stream, the picked pair, the board), the fields of each phase agree, and
    the position must be able to go on (see docs/notation.md, Limits).
    """
    top = Fields(data, "state", required=TOP, optional=("hot_was_closed",))
    if top.raw("format") != FORMAT:
        raise InvalidState(
            f"a Maatatahay state has format {FORMAT!r}, got {excerpt(top.raw('format'))}"
        )
    state = MaatatahayState(game)
    state.round = top.integer("round", 1, TILES_PER_SEAT)
    state.phase = top.choice("phase", PHASES)
    state.active = top.integer("active", 0, 1)
    state.decider = top.integer_or_none("decider", 0, 1)
    state.first = top.integer_or_none("first", 0, 1)
    state.placing = top.integer_or_none("placing", 0, 1)
    state.placements = top.integer("placements", 0, 1)
    pair = top.raw("pair")
    state.pair = None if pair is None else _pair_of_tiles(pair, "state.pair")
    state.stream = [
        _pair_of_tiles(item, f"state.stream[{i}]")
        for i, item in enumerate(top.items("stream", max_len=RULES.stream_pairs))
    ]
    decks = top.items("decks", length=2)
    state.decks = [
        [
            _tile(t, f"state.decks[{seat}][{i}]")
            for i, t in enumerate(expect_list(deck, f"state.decks[{seat}]", max_len=TILES_PER_SEAT))
        ]
        for seat, deck in enumerate(decks)
    ]
    _read_board(state, top.items("board", length=SPACES))
    state.index_board()
    storage = top.items("storage", length=2)
    for seat in (0, 1):
        energy, spirit = _crystals(storage[seat], f"state.storage[{seat}]")
        state.store_energy[seat], state.store_spirit[seat] = energy, spirit
    state.relics_taken = [
        expect_int(s, f"state.relics_taken[{i}]", 0, 1)
        for i, s in enumerate(top.items("relics_taken", max_len=SHRINES))
    ]
    state.bag_energy, state.bag_spirit = _crystals(top.need("bag"), "state.bag")
    state.supply = top.integer("supply", 0, ENERGY)
    state.lost = [
        expect_int(n, f"state.lost[{seat}]", 0, TILES_PER_SEAT)
        for seat, n in enumerate(top.items("lost", length=2))
    ]
    state.spirit_track = top.integer("spirit_track", 0, 2 * TILES_PER_SEAT)
    state.deaths_this_round = top.integer("deaths_this_round", 0, 2 * TILES_PER_SEAT)
    state.rng = top.rng()
    state.hot_was_closed = top.flag("hot_was_closed", default=False)
    hot = top.raw("hot")
    state.hot = -1 if hot is None else expect_choice(hot, NAMES, "state.hot")
    _check_tiles(state)
    _check_phase(state)
    check_can_continue(state)
    return state


def _tile(value: Any, what: str) -> int:
    """A tile id 1-12 as the tile's index 0-11."""
    return expect_int(value, what, 1, TILES_PER_SEAT) - 1


def _pair_of_tiles(value: Any, what: str) -> tuple[int, int]:
    balan, wazu = expect_list(value, what, length=2)
    return (_tile(balan, f"{what}[0]"), _tile(wazu, f"{what}[1]"))


def _crystals(value: Any, what: str) -> tuple[int, int]:
    energy, spirit = expect_list(value, what, length=2)
    return (
        expect_int(energy, f"{what}[0]", 0, ENERGY),
        expect_int(spirit, f"{what}[1]", 0, SPIRIT),
    )


def _read_board(state: MaatatahayState, board: list[Any]) -> None:
    for space, raw in enumerate(board):
        what = f"state.board[{space}]"
        entry = Fields(raw, what, required=("space",), optional=("relic", "crystals", "warrior"))
        if entry.raw("space") != NAMES[space]:
            raise InvalidState(
                f"{what}.space must be {NAMES[space]!r}, got {excerpt(entry.raw('space'))}"
            )
        state.relic[space] = entry.flag("relic", default=False)
        energy, spirit = _crystals(entry.raw("crystals", [0, 0]), f"{what}.crystals")
        state.ground_energy[space], state.ground_spirit[space] = energy, spirit
        if not entry.has("warrior"):
            continue
        warrior = entry.child("warrior", required=("seat", "tile", "facing", "alive", "crystals"))
        if state.relic[space]:
            raise InvalidState(f"{NAMES[space]} holds both a relic and a warrior")
        if energy or spirit:
            raise InvalidState(f"crystals lie on {NAMES[space]} under a warrior")
        seat = warrior.integer("seat", 0, 1)
        state.tile[space] = seat * TILES_PER_SEAT + _tile(
            warrior.need("tile"), warrior.path("tile")
        )
        state.facing[space] = warrior.choice("facing", FACINGS)
        state.living[space] = warrior.flag("alive")
        energy, spirit = _crystals(warrior.need("crystals"), warrior.path("crystals"))
        state.energy[space], state.spirit[space] = energy, spirit


def _placed_this_round(state: MaatatahayState, seat: int) -> bool:
    """Whether ``seat`` has put this round's warrior on the board already."""
    if state.phase == PLACE:
        return state.placements == 1 and seat == state.first
    if state.phase == FINISH:
        return seat == state.placing or (state.placements == 1 and seat == state.first)
    return False


def _check_tiles(state: MaatatahayState) -> None:
    """No warrior tile is in two places: each seat's deck, its half of the stream and of
    the picked pair (until placed) and its warriors on the board hold each tile at most once."""
    on_board = [
        [uid % TILES_PER_SEAT for uid in state.tile if uid != EMPTY and owner(uid) == seat]
        for seat in (0, 1)
    ]
    for seat in (0, 1):
        tiles = state.decks[seat] + [pair[seat] for pair in state.stream] + on_board[seat]
        if state.pair is not None and not _placed_this_round(state, seat):
            tiles.append(state.pair[seat])
        if len(set(tiles)) != len(tiles):
            twice = next(t for t in tiles if tiles.count(t) > 1)
            raise InvalidState(f"{TRIBES[seat]} tile {twice + 1} is in two places at once")
    if len(state.relics_taken) + sum(state.relic) > SHRINES:
        raise InvalidState(f"the map has {SHRINES} Temple Relics, taken or not")


def _check_phase(state: MaatatahayState) -> None:
    """The fields each phase needs are there, and only those, so every phase can go on."""
    phase, name = state.phase, PHASES[state.phase]
    mid_round = phase in (ORDER, PLACE, FINISH)
    if mid_round != (state.pair is not None):
        raise InvalidState(f"phase {name} {'needs the' if mid_round else 'has no'} picked pair")
    if mid_round != (state.decider >= 0):
        raise InvalidState(f"phase {name} {'needs' if mid_round else 'has no'} deciding seat")
    placing = phase in (PLACE, FINISH)
    if placing != (state.first >= 0) or placing != (state.placing >= 0):
        raise InvalidState(f"phase {name} {'needs' if placing else 'has no'} 'first' and 'placing'")
    if placing and state.placing != (state.first if state.placements == 0 else 1 - state.first):
        raise InvalidState("'placing' must be 'first' for the first placement, else the other seat")
    if not placing and state.placements:
        raise InvalidState(f"phase {name} has no placement finished")
    if phase in (PICK, ORDER, OVER) and state.deaths_this_round:
        raise InvalidState(f"phase {name} has no deaths this round")
    if (phase == FINISH) != (state.hot >= 0):
        raise InvalidState("only the finish phase has a hot tile, and it needs one")
    if phase == FINISH and state.pair is not None:
        seat = state.placing
        if (
            state.tile[state.hot] != seat * TILES_PER_SEAT + state.pair[seat]
            or not state.living[state.hot]
        ):
            raise InvalidState(
                f"the hot tile on {NAMES[state.hot]} must be the placing seat's warrior of the pair"
            )
    if state.hot_was_closed and (phase != FINISH or state.game.option("relic_blocks") is not True):
        raise InvalidState("hot_was_closed is true only in the finish phase with relic_blocks")
    if phase == PICK and state.end_reason() is not None:
        raise InvalidState(f"the match is over ({state.end_reason()}), yet the phase is pick")
    if phase == OVER and state.end_reason() is None:
        raise InvalidState("the phase is over, yet no end condition holds")
