"""Position builders for the Maatatahay rule tests, so tests read like the rules.

A position is built as the full state JSON (see ``codec.py``) and loaded through
``game.state_from_json``; then tests drive it through the checked path (``state.play``).

Tiles are named by their printed id (1-12, see ``data/rules.json``):

====  ============  =====  ==================  ========
id    name          fangs  arrows (facing N)   diamonds
====  ============  =====  ==================  ========
1     Elder         1      N                   2
2     Convert       1      S                   2
3     Scout         1      N E S W             1
4     Watcher       1      NE SE SW NW         1
5     Herald        1      N NE E              1
6     Spearman      2      N S                 1
7     Shieldbearer  2      E W                 1
8     Skirmisher    2      NE SW               1
9     Hunter        2      N                   2
10    Guardian      3      S                   2
11    Champion      3      --                  2
12    Chieftain     4      --                  3
====  ============  =====  ==================  ========

Environment arrows printed on the map: 2 on each corner, 1 on each other edge space, 0 inside.
The builder leaves the map without crystals and without relics unless asked, so only what a
test names is on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from meeple.core.outcome import Event
from meeple.games.maatatahay import Maatatahay, MaatatahayState

ELDER, CONVERT, SCOUT, WATCHER, HERALD = 1, 2, 3, 4, 5
SPEARMAN, SHIELDBEARER, SKIRMISHER, HUNTER = 6, 7, 8, 9
GUARDIAN, CHAMPION, CHIEFTAIN = 10, 11, 12
BALAN, WAZU = 0, 1
ALL_TILES = tuple(range(1, 13))

GAME = Maatatahay()
_TEMPLATE = GAME.new_initial_state(seed=1).to_json()
NAMES = [entry["space"] for entry in _TEMPLATE["board"]]


def sq(name: str) -> int:
    """The space index of a name like ``"c3"`` (row * 5 + column, rank 1 = row 0)."""
    return NAMES.index(name)


def game(**options: Any) -> Maatatahay:
    return Maatatahay(options=options) if options else GAME


def W(
    seat: int,
    tile: int,
    facing: str = "N",
    energy: int = 0,
    spirit: int = 0,
    alive: bool = True,
) -> dict[str, Any]:
    """A warrior on the board, in the codec's form."""
    return {
        "seat": seat,
        "tile": tile,
        "facing": facing,
        "alive": alive,
        "crystals": [energy, spirit],
    }


def dead(seat: int, tile: int, facing: str = "N") -> dict[str, Any]:
    """A face-down warrior."""
    return W(seat, tile, facing, alive=False)


def _warrior(spec: Any) -> dict[str, Any]:
    if isinstance(spec, dict):
        return spec
    return W(*spec)


def position(
    warriors: Mapping[str, Any] | None = None,
    *,
    to_place: tuple[int, int] | None = None,
    other: int | None = None,
    second: bool = False,
    storage: Iterable[Iterable[int]] = ((0, 0), (0, 0)),
    crystals: Mapping[str, tuple[int, int]] | None = None,
    relics: Iterable[str] = (),
    relics_taken: Iterable[int] = (),
    stream: list[tuple[int, int]] | None = None,
    decks: list[list[int]] | None = None,
    active: int = 0,
    lost: tuple[int, int] = (0, 0),
    spirit_track: int = 0,
    deaths_this_round: int = 0,
    supply: int = 30,
    bag: tuple[int, int] = (15, 15),
    round_: int = 1,
    phase: str | None = None,
    **options: Any,
) -> MaatatahayState:
    """A position, loaded through ``state_from_json``.

    ``warriors`` maps a space to ``W(...)`` (or a tuple ``(seat, tile, facing, energy,
    spirit, alive)``). ``to_place=(seat, tile)`` gives the place phase with that seat about
    to place that tile; ``other`` is the other seat's tile of the pair; ``second=True``
    makes it the second placement of the round (the other seat placed first). Without
    ``to_place`` the position is in the pick phase. Tiles not on the board or in the pair
    fill the stream (3 pairs) and the decks unless ``stream``/``decks`` are given.
    """
    warriors = {name: _warrior(spec) for name, spec in (warriors or {}).items()}
    data = {k: v for k, v in _TEMPLATE.items() if k != "board"}
    board = []
    relics = set(relics)
    for name in NAMES:
        entry: dict[str, Any] = {"space": name}
        if name in relics:
            entry["relic"] = True
        if crystals and name in crystals:
            entry["crystals"] = list(crystals[name])
        if name in warriors:
            entry["warrior"] = warriors[name]
        board.append(entry)
    data["board"] = board
    used: list[set[int]] = [set(), set()]
    for spec in warriors.values():
        used[spec["seat"]].add(spec["tile"])
    pair = None
    if to_place is not None:
        seat, tile = to_place
        used[seat].add(tile)
        if other is None:
            other = next(t for t in ALL_TILES if t not in used[1 - seat])
        used[1 - seat].add(other)
        pair = [tile, other] if seat == 0 else [other, tile]
        phase = phase or "place"
        data.update(
            pair=pair,
            placing=seat,
            first=1 - seat if second else seat,
            placements=1 if second else 0,
            decider=active,
        )
    else:
        phase = phase or "pick"
        data.update(pair=None, placing=None, first=None, placements=0, decider=None)
    free = [[t for t in ALL_TILES if t not in used[s]] for s in (0, 1)]
    if stream is None:
        stream = list(zip(free[0][:3], free[1][:3], strict=False))
    if decks is None:
        in_stream = [{p[0] for p in stream}, {p[1] for p in stream}]
        decks = [[t for t in free[s] if t not in in_stream[s]] for s in (0, 1)]
    data.update(
        phase=phase,
        round=round_,
        active=active,
        hot=None,
        stream=[list(p) for p in stream],
        decks=[list(d) for d in decks],
        storage=[list(s) for s in storage],
        relics_taken=list(relics_taken),
        bag=list(bag),
        supply=supply,
        lost=list(lost),
        spirit_track=spirit_track,
        deaths_this_round=deaths_this_round,
    )
    return game(**options).state_from_json(data)


# -- driving ---------------------------------------------------------------------------


def keep_all(state: MaatatahayState, seat: int) -> str:
    """The keep clause that adds nothing from storage (needs storage of at most 4)."""
    return f"{state.store_energy[seat]}e{state.store_spirit[seat]}s"


def place(
    state: MaatatahayState,
    seat: int,
    where: str,
    facing: str = "N",
    keep: str | None = None,
) -> list[Event]:
    """Place the seat's warrior (``"c3"`` or ``"c3 s1"``) and finish it: face ``facing``,
    keep ``keep`` (``"1e2s"``; default: keep everything). Returns all events."""
    events = state.play(seat, where)
    if keep is None:
        keep = keep_all(state, seat)
    events += state.play(seat, f"{facing} keep {keep}")
    return events


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def only(events: Iterable[Event], kind: str) -> Event:
    """The single event of that kind."""
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, f"expected one {kind!r} event, got {found}"
    return found[0]


def all_of(events: Iterable[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def at(state: MaatatahayState, name: str) -> dict[str, Any]:
    """The spectators' view of the warrior on a space (None if empty)."""
    return state.view(None)["board"][sq(name)]["warrior"]


def strength(state: MaatatahayState, name: str) -> int:
    return at(state, name)["strength"]


def alive(state: MaatatahayState, name: str) -> bool:
    return at(state, name)["alive"]


def storage(state: MaatatahayState, seat: int) -> tuple[int, int]:
    got = state.view(None)["storage"][seat]
    return got["energy"], got["spirit"]
