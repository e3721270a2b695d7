"""A Maatatahay state from a seat's view (:class:`meeple.core.kit.FromView`).

Everything on the table is open (see :mod:`.view`): the board, the stream, the picked pair,
both storages, the relics and who took them, the bag, the supply and the count of each deck.
What the view does not hold is drawn or worked out:

- the order of each face-down deck: its tiles are those of the seat's twelve that are
  neither on the board, in the stream nor in the picked pair; they are shuffled from the
  seed (each deck's count must match the view's);
- the generator (the next crystals out of the bag): seeded from the seed;
- the deaths of the round being played: every warrior lost but not yet on the Spirit Track;
- which placement of the round is being played: the first when the seat placing is the
  one chosen to place first;
- whether the warrior being finished stood on a Temple Relic's space (it matters only with
  ``relic_blocks``): with the fixed shrines the space says so; with random shrines, when
  the last relic taken is the placing seat's.

The built state goes through :func:`.codec.state_from_json`, so a view that no position
gives is refused as that position would be.
"""

from __future__ import annotations

from typing import Any

from meeple.core.from_view import InvalidView
from meeple.core.game import Game, State
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Seat
from meeple.core.validate import Fields, expect_int, expect_list
from meeple.games.maatatahay.codec import FORMAT, NAMES, state_from_json
from meeple.games.maatatahay.data import SPACES, TILES_PER_SEAT
from meeple.games.maatatahay.rules import MaatatahayRulebook, MaatatahayState

VIEW = (
    "game", "seat", "round", "phase", "active", "deciding", "decider", "first", "placing",
    "hot", "tribes", "board", "stream", "pair", "storage", "relics", "relic_costs", "lost",
    "spirit_track", "bag", "supply", "decks", "free_spaces", "scores", "options", "outcome",
)  # fmt: skip
WARRIOR = (
    "seat", "tile", "name", "fangs", "diamonds", "ability", "arrows", "facing", "alive",
    "energy", "spirit", "strength", "surrounded",
)  # fmt: skip
INNER = frozenset(r * 5 + c for r in range(1, 4) for c in range(1, 4))


def state_from_view(game: Game, view: JSON, seat: Seat, seed: int) -> State:
    """A state whose ``view(seat)`` is ``view`` (see the module docstring).

    Raises:
        InvalidView: for a malformed view, one that no position gives, or another game.
    """
    if not isinstance(game, MaatatahayRulebook):
        raise InvalidView(f"{game.info.title} is not Maatatahay: no Maatatahay view fits it")
    return _build(game, view, seat, seed)


def _build(game: MaatatahayRulebook, view: JSON, seat: Seat, seed: int) -> MaatatahayState:
    """A state whose ``view(seat)`` is ``view``; the decks' order and the bag's next draws
    come from ``seed``.

    Raises:
        InvalidView: for a malformed view, or one that no position gives.
    """
    top = Fields(view, "view", required=VIEW, error=InvalidView)
    board, on_board = _board(top.items("board", length=SPACES))
    stream = [
        _pair(item, f"view.stream[{i}]")
        for i, item in enumerate(top.items("stream", max_len=TILES_PER_SEAT))
    ]
    raw_pair = top.raw("pair")
    pair = None if raw_pair is None else _pair(raw_pair, "view.pair")
    counts = [
        expect_int(n, f"view.decks[{s}]", 0, TILES_PER_SEAT, error=InvalidView)
        for s, n in enumerate(top.items("decks", length=2))
    ]
    rng = Rng(mix_seed(seed, seat, 0x56494557))
    decks = []
    for s in (0, 1):
        seen = on_board[s] | {p[s] for p in stream} | ({pair[s]} if pair else set())
        deck = [t for t in range(1, TILES_PER_SEAT + 1) if t not in seen]
        if len(deck) != counts[s]:
            raise InvalidView(
                f"view.decks[{s}] counts {counts[s]} tiles, but {len(deck)} of that seat's "
                "tiles are neither on the board, in the stream nor in the picked pair"
            )
        rng.shuffle(deck)
        decks.append(deck)
    lost = [
        expect_int(n, f"view.lost[{s}]", 0, TILES_PER_SEAT, error=InvalidView)
        for s, n in enumerate(top.items("lost", length=2))
    ]
    track = top.integer("spirit_track", 0, 2 * TILES_PER_SEAT)
    if track > sum(lost):
        raise InvalidView(f"view.spirit_track is {track}, yet only {sum(lost)} warriors died")
    phase = top.raw("phase")
    first, placing = top.raw("first"), top.raw("placing")
    placements = 1 if phase in ("place", "finish") and first != placing else 0
    hot = top.raw("hot")
    storage = [
        _crystals(item, f"view.storage[{s}]")
        for s, item in enumerate(top.items("storage", length=2))
    ]
    bag = _crystals(top.need("bag"), "view.bag")
    state = state_from_json(
        game,
        {
            "format": FORMAT,
            "round": top.raw("round"),
            "phase": phase,
            "active": top.raw("active"),
            "decider": top.raw("decider"),
            "first": first,
            "placing": placing,
            "placements": placements,
            "hot": hot,
            "hot_was_closed": _hot_was_closed(game, top, hot, placing),
            "pair": None if pair is None else list(pair),
            "stream": [list(p) for p in stream],
            "decks": decks,
            "board": board,
            "storage": storage,
            "relics_taken": _relics_taken(top.items("relics", length=2)),
            "bag": bag,
            "supply": top.raw("supply"),
            "lost": lost,
            "spirit_track": track,
            "deaths_this_round": sum(lost) - track,
            "rng": Rng(rng.next_u64()).to_json(),
        },
    )
    return state


def _tile_id(value: Any, what: str) -> int:
    """The id (1-12) of a tile as the view shows it (an object with its ``id``)."""
    tile = Fields(value, what, error=InvalidView)
    return expect_int(tile.need("id"), tile.path("id"), 1, TILES_PER_SEAT, error=InvalidView)


def _pair(value: Any, what: str) -> tuple[int, int]:
    first, second = expect_list(value, what, length=2, error=InvalidView)
    return (_tile_id(first, f"{what}[0]"), _tile_id(second, f"{what}[1]"))


def _crystals(value: Any, what: str) -> list[int]:
    crystals = Fields(value, what, required=("energy", "spirit"), error=InvalidView)
    return [crystals.integer("energy", 0, 999), crystals.integer("spirit", 0, 999)]


def _board(spaces: list[Any]) -> tuple[list[dict[str, Any]], list[set[int]]]:
    """The codec's board from the view's, and the tile ids each seat has on it."""
    board: list[dict[str, Any]] = []
    on_board: list[set[int]] = [set(), set()]
    for space, raw in enumerate(spaces):
        what = f"view.board[{space}]"
        entry = Fields(
            raw, what, required=("space", "relic", "crystals", "warrior"), error=InvalidView
        )
        out: dict[str, Any] = {"space": entry.raw("space")}
        if entry.flag("relic"):
            out["relic"] = True
        ground = _crystals(entry.need("crystals"), entry.path("crystals"))
        if any(ground):
            out["crystals"] = ground
        if entry.raw("warrior") is not None:
            warrior = entry.child("warrior", required=WARRIOR)
            owner = warrior.integer("seat", 0, 1)
            tile = warrior.integer("tile", 1, TILES_PER_SEAT)
            on_board[owner].add(tile)
            out["warrior"] = {
                "seat": owner,
                "tile": tile,
                "facing": warrior.raw("facing"),
                "alive": warrior.raw("alive"),
                "crystals": [warrior.raw("energy"), warrior.raw("spirit")],
            }
        board.append(out)
    return board, on_board


def _relics_taken(relics: list[Any]) -> list[int]:
    """Who took each relic, in the order taken, from each seat's list of order numbers."""
    taken: dict[int, int] = {}
    for s, orders in enumerate(relics):
        for i, order in enumerate(
            expect_list(orders, f"view.relics[{s}]", max_len=SPACES, error=InvalidView)
        ):
            number = expect_int(order, f"view.relics[{s}][{i}]", 1, SPACES, error=InvalidView)
            if number in taken:
                raise InvalidView(f"relic number {number} was taken twice in view.relics")
            taken[number] = s
    if sorted(taken) != list(range(1, len(taken) + 1)):
        raise InvalidView(f"view.relics must number the relics taken 1, 2, ...: {sorted(taken)}")
    return [taken[n] for n in range(1, len(taken) + 1)]


def _hot_was_closed(game: MaatatahayRulebook, top: Fields, hot: Any, placing: Any) -> bool:
    """Whether the warrior being finished was placed on a Temple Relic with ``relic_blocks``
    (see the module docstring)."""
    if hot is None or game.option("relic_blocks") is not True or hot not in NAMES:
        return False
    space = NAMES.index(hot)
    if game.option("shrines") == "fixed":
        return bool(game.rules.shrines[space])
    relics = top.items("relics", length=2)
    latest = max(
        (n for orders in relics if isinstance(orders, list) for n in orders if isinstance(n, int)),
        default=0,
    )
    return (
        space in INNER and type(placing) is int and placing in (0, 1) and latest in relics[placing]
    )
