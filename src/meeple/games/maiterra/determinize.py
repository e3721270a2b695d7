"""A Maiterra state from a seat's view (:class:`meeple.core.kit.FromView`).

Open to all (see :mod:`.view`): Lakeland, owners, buildings, armies, every seat's stores,
people and card count, who has ended the turn, the discard pile, the draft order still to
come. What the view hides is drawn from the seed:

- another seat's house while houses are being picked (locked, not yet shown): one of the
  houses at random;
- other seats' hands and the deck's order: the cards the seat has not seen (every copy but
  its hand and the discard pile) shuffled and dealt to each hand by its count, the rest the
  deck (whose count must match the view's);
- other seats' sealed orders: none (a seat that ended hands in an empty queue), and none
  taken back this turn; a bot's own :meth:`~meeple.core.game.State.resample` redraws a few
  each iteration. The seat's own queue and (rules version 3 on) its own ``taken_back``
  count are the view's: the count decides whether it may take back another order, so a
  state that dropped it would offer a take-back the real one refuses;
- the draft order already played: the first round's order is one whose snake order ends in
  the view's order still to come and gives each seat the fields it owns;
- the generator: seeded from the seed.

The built state goes through :func:`.codec.state_from_json`, so a view that no position
gives is refused as that position would be.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from meeple.core.errors import excerpt
from meeple.core.from_view import InvalidView
from meeple.core.game import Game, State
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Seat
from meeple.core.validate import Fields, expect_choice, expect_int, expect_object
from meeple.games.maiterra.codec import FORMAT, state_from_json
from meeple.games.maiterra.data import CARD_NAMES, CELLS, RESOURCES, cell_of
from meeple.games.maiterra.rules import MaiterraRulebook, MaiterraState

VIEW = (
    "game", "seat", "tribes", "phase", "turn", "turn_limit", "deciding", "sides", "targets",
    "side_points", "board", "seats", "queue", "max_orders", "draft_order", "deck", "discard",
    "outcome",
)  # fmt: skip
ROW = (
    "seat", "name", "house", "house_locked", *RESOURCES, "people", "workers", "fields",
    "points", "units", "cards", "ended",
)  # fmt: skip
FIELD = ("field", "terrain", "owner", "buildings", "armies")


def state_from_view(game: Game, view: JSON, seat: Seat, seed: int) -> State:
    """A state whose ``view(seat)`` is ``view`` (see the module docstring).

    Raises:
        InvalidView: for a malformed view, one that no position gives, or another game.
    """
    if not isinstance(game, MaiterraRulebook):
        raise InvalidView(f"{game.info.title} is not Maiterra: no Maiterra view fits it")
    return _build(game, view, seat, seed)


def _build(game: MaiterraRulebook, view: JSON, seat: Seat, seed: int) -> MaiterraState:
    """A state whose ``view(seat)`` is ``view``; what the view hides comes from ``seed``.

    Raises:
        InvalidView: for a malformed view, or one that no position gives.
    """
    seats = game.seats
    rng = Rng(mix_seed(seed, seat, 0x56494557))
    top = Fields(view, "view", required=VIEW, optional=("taken_back",), error=InvalidView)
    phase = top.raw("phase")
    terrain, owner, buildings, armies = _board(top.items("board", max_len=CELLS), seats)
    rows = [
        Fields(raw, f"view.seats[{s}]", required=ROW, optional=("hand",), error=InvalidView)
        for s, raw in enumerate(top.items("seats", length=seats))
    ]
    hand = rows[seat].items("hand", max_len=game.rules.hand_limit)
    discard = top.items("discard", max_len=len(CARD_NAMES) * game.rules.card_copies)
    hands = _deal(
        game, rows, seat, hand=hand, discard=discard, deck=top.integer("deck", 0, 999), rng=rng
    )
    houses = len(game.rules.houses)
    seat_rows = []
    for s, row in enumerate(rows):
        house = row.raw("house")
        if house is None and row.flag("house_locked"):
            house = game.rules.houses[rng.below(houses)]
        ended = row.raw("ended")
        seat_row = {
            **{name: row.raw(name) for name in RESOURCES},
            "people": row.raw("people"),
            "house": house,
            "cards": hands[s],
            "queue": top.raw("queue") if s == seat else [],
            "ended": phase == "over" if ended is None else ended,
        }
        if s == seat and top.has("taken_back"):
            seat_row["taken_back"] = top.raw("taken_back")
        seat_rows.append(seat_row)
    draft = top.items("draft_order", max_len=seats * game.rules.draft_fields)
    draft_order = _draft_order(game, draft, owner, rng) if phase == "draft" else draft
    outcome = top.raw("outcome")
    result = Fields(outcome, "view.outcome", error=InvalidView) if outcome is not None else None
    return state_from_json(
        game,
        {
            "format": FORMAT,
            "phase": phase,
            "turn": top.raw("turn"),
            "map": terrain,
            "owner": owner,
            "buildings": buildings,
            "armies": armies,
            "seats": seat_rows,
            "deck": hands[seats],
            "discard": discard,
            "draft_order": draft_order,
            "draft_step": len(draft_order) - len(draft),
            "winners": [] if result is None else result.items("winners", max_len=seats),
            "reason": "" if result is None else result.raw("reason"),
            "rng": Rng(rng.next_u64()).to_json(),
        },
    )


def _board(
    fields: list[Any], seats: int
) -> tuple[list[Any], list[Any], dict[str, Any], list[dict[str, Any]]]:
    """The codec's map, owners, buildings and armies from the view's fields (lakes are not
    listed)."""
    terrain: list[Any] = [None] * CELLS
    owner: list[Any] = [None] * CELLS
    buildings: dict[str, Any] = {}
    armies: list[dict[str, Any]] = [{} for _ in range(seats)]
    for index, raw in enumerate(fields):
        entry = Fields(raw, f"view.board[{index}]", required=FIELD, error=InvalidView)
        name = entry.raw("field")
        cell = cell_of(name) if isinstance(name, str) else None
        if cell is None or terrain[cell] is not None:
            raise InvalidView(f"{entry.path('field')} must name another field a1..e5, got {name!r}")
        terrain[cell] = entry.raw("terrain")
        if terrain[cell] is None:
            raise InvalidView(f"{entry.path('terrain')} must name a terrain")
        owner[cell] = entry.raw("owner")
        built = expect_object(entry.need("buildings"), entry.path("buildings"), error=InvalidView)
        if built:
            buildings[name] = built
        stacks = expect_object(entry.need("armies"), entry.path("armies"), error=InvalidView)
        for key, stack in stacks.items():
            army = expect_choice(
                key, [str(s) for s in range(seats)], entry.path("armies"), error=InvalidView
            )
            armies[army][name] = stack
    return terrain, owner, buildings, armies


def _deal(
    game: MaiterraRulebook,
    rows: list[Fields],
    seat: Seat,
    *,
    hand: list[Any],
    discard: list[Any],
    deck: int,
    rng: Rng,
) -> list[list[str]]:
    """Every seat's hand (the seat's own as shown), then the deck: the cards the seat has not
    seen, shuffled."""
    unseen = [game.rules.card_copies] * len(CARD_NAMES)
    for what, cards in (("view.discard", discard), (rows[seat].path("hand"), hand)):
        for i, card in enumerate(cards):
            index = expect_choice(card, CARD_NAMES, f"{what}[{i}]", error=InvalidView)
            unseen[index] -= 1
            if unseen[index] < 0:
                raise InvalidView(f"{what} shows more {card} cards than the game has")
    pool = [card for card, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    dealt: list[list[str]] = []
    for s, row in enumerate(rows):
        if s == seat:
            dealt.append(list(hand))
            continue
        count = row.integer("cards", 0, game.rules.hand_limit)
        if count > len(pool):
            raise InvalidView(f"{row.path('cards')} is {count}, more cards than are unseen")
        dealt.append([CARD_NAMES[c] for c in pool[:count]])
        del pool[:count]
    if len(pool) != deck:
        raise InvalidView(f"view.deck counts {deck} cards, but {len(pool)} are unseen")
    dealt.append([CARD_NAMES[c] for c in pool])
    return dealt


def _draft_order(game: MaiterraRulebook, rest: list[Any], owner: list[Any], rng: Rng) -> list[int]:
    """The whole draft order: a first round whose snake order ends in ``rest`` (the picks still
    to come) and whose picks so far give each seat the fields it owns."""
    seats, picks = game.seats, game.seats * game.rules.draft_fields
    for i, s in enumerate(rest):
        expect_int(s, f"view.draft_order[{i}]", 0, seats - 1, error=InvalidView)
    done = picks - len(rest)
    fits = []
    for first in permutations(range(seats)):
        order: list[int] = []
        for index in range(game.rules.draft_fields):
            backwards = game.rules.snake_draft and index % 2 == 1
            order.extend(reversed(first) if backwards else first)
        if order[done:] == rest and all(
            order[:done].count(s) == owner.count(s) for s in range(seats)
        ):
            fits.append(order)
    if not fits:
        raise InvalidView(
            f"no draft order ends in view.draft_order {excerpt(rest)} with the fields each "
            "seat owns"
        )
    return fits[rng.below(len(fits))]
