"""Two toy games that exercise every shape of the engine protocol, and broken variants of them.

``toy_tricks/1`` is sequential, two seats, with hidden hands and chance drawn from the state's
:class:`~meeple.core.Rng` after the deal. ``toy_orders/1`` is simultaneous, two to four seats,
with sealed orders: every deciding seat queues up to ``max_orders`` claims, then ends its turn
(or the turn timer hands its orders in, :meth:`State.hand_in`); when all have ended, the round
resolves. ``takeaway/1`` takes one to three stones from a pile, with a hidden number drawn at
every move that a bot must not see.

They are registered (each with a :class:`~meeple.core.GameKit` of generic parts: the final
returns as evaluator, no pruning, greedy lookahead as heuristic, the view as JSON on the
terminal) only when the tests import this module, never from ``src``. The broken variants at
the bottom are never registered: each breaks one rule of the protocol so the
tests can prove the conformance kit notices.
"""

from __future__ import annotations

from typing import Any, Self

import rich.json
from rich.console import RenderableType

from meeple.core import (
    JSON,
    Action,
    Event,
    Game,
    GameInfo,
    InvalidAction,
    InvalidOptions,
    InvalidState,
    OptionSpec,
    Outcome,
    Rng,
    Seat,
    State,
    mix_seed,
    register_kit,
)
from meeple.core.events import EventCatalogue, EventKind
from meeple.core.kit import (
    FINAL_RETURNS,
    BoardDrawing,
    GameKit,
    Rollout,
    final_returns,
    keep_all,
)
from meeple.core.lookahead import GreedyHeuristic

SUITS = "shdc"


def _ints(value: Any, what: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(x, int) and not isinstance(x, bool) for x in value
    ):
        raise InvalidState(f"{what} must be a list of integers, got {value!r}")
    return list(value)


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer in {low}..{high}, got {value!r}")
    return value


def _rng(value: Any) -> Rng:
    try:
        return Rng.from_json(value)
    except ValueError as error:
        raise InvalidState(f"bad rng: {error}") from error


# -- toy_tricks: sequential, hidden hands, chance ----------------------------------------


class ToyTricks(Game):
    """Two seats play one card each to a trick; the higher card of the led suit wins it.

    Each seat is dealt ``hand`` cards at random; after every trick, while two cards are left
    in the deck, the winner and then the other seat draw a random card from it. A seat must
    follow the led suit if it can. The seat with more tricks wins.
    """

    info = GameInfo(
        name="toy_tricks",
        version=1,
        title="Toy Tricks",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options=(
            OptionSpec("suits", 2, "number of suits", low=1, high=4),
            OptionSpec("ranks", 4, "cards per suit", low=2, high=9),
            OptionSpec("hand", 3, "cards dealt to each seat", low=1, high=6),
        ),
    )

    def _check_configuration(self) -> None:
        if 2 * self.option("hand") > self.cards:
            raise InvalidOptions(
                f"cannot deal two hands of {self.option('hand')} from {self.cards}"
            )

    @property
    def cards(self) -> int:
        return int(self.option("suits")) * int(self.option("ranks"))

    def num_distinct_actions(self) -> int:
        return self.cards

    def max_game_length(self) -> int:
        return self.cards

    def suit(self, card: int) -> int:
        return card // int(self.option("ranks"))

    def rank(self, card: int) -> int:
        return card % int(self.option("ranks"))

    def new_initial_state(self, seed: int) -> ToyTricksState:
        rng = Rng(mix_seed(seed))
        deck = list(range(self.cards))
        hands: list[list[int]] = [[], []]
        for _ in range(self.option("hand")):
            for hand in hands:
                hand.append(deck.pop(rng.below(len(deck))))
        return ToyTricksState(self, [sorted(h) for h in hands], deck, [], 0, [0, 0], rng)

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return f"{self.rank(action) + 1}{SUITS[self.suit(action)]}"

    def parse_action(self, text: str) -> Action:
        if (
            not isinstance(text, str)
            or len(text) != 2
            or text[0] not in "123456789"[: self.option("ranks")]
            or text[1] not in SUITS[: self.option("suits")]
        ):
            raise InvalidAction("a card is a rank digit and a suit letter", action=text)
        return SUITS.index(text[1]) * int(self.option("ranks")) + int(text[0]) - 1

    def state_from_json(self, data: JSON) -> ToyTricksState:
        if not isinstance(data, dict) or set(data) != {
            "hands",
            "deck",
            "trick",
            "leader",
            "tricks",
            "rng",
        }:
            raise InvalidState("a toy_tricks state has hands, deck, trick, leader, tricks, rng")
        hands = data["hands"]
        if not isinstance(hands, list) or len(hands) != 2:
            raise InvalidState("hands must be a list of two hands")
        hands = [sorted(_ints(h, "a hand")) for h in hands]
        deck = sorted(_ints(data["deck"], "deck"))
        trick = _ints(data["trick"], "trick")
        leader = _int(data["leader"], "leader", 0, 1)
        tricks = [_int(t, "tricks", 0, self.cards) for t in _ints(data["tricks"], "tricks")]
        cards = [*hands[0], *hands[1], *deck, *trick]
        if len(set(cards)) != len(cards) or not all(0 <= c < self.cards for c in cards):
            raise InvalidState("cards must be distinct cards of this deck")
        if len(tricks) != 2 or len(trick) > 1:
            raise InvalidState("two trick counts and at most one card on the table")
        follower_size = len(hands[1 - leader])
        if len(hands[leader]) + len(trick) != follower_size:
            raise InvalidState("hand sizes do not fit the trick")
        played = self.cards - len(cards)
        if played % 2 or sum(tricks) * 2 != played:
            raise InvalidState("trick counts do not fit the cards played")
        return ToyTricksState(self, hands, deck, trick, leader, tricks, _rng(data["rng"]))


class ToyTricksState(State):
    game: ToyTricks

    def __init__(
        self,
        game: ToyTricks,
        hands: list[list[int]],
        deck: list[int],
        trick: list[int],
        leader: Seat,
        tricks: list[int],
        rng: Rng,
    ) -> None:
        self.game = game
        self.hands = hands
        self.deck = deck
        self.trick = trick
        self.leader = leader
        self.tricks = tricks
        self.rng = rng

    def turn(self) -> Seat:
        return (self.leader + len(self.trick)) % 2

    def deciding_seats(self) -> tuple[Seat, ...]:
        if not self.hands[0] and not self.hands[1] and not self.trick:
            return ()
        return (self.turn(),)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.deciding_seats():
            return []
        hand = self.hands[seat]
        if self.trick:
            led = self.game.suit(self.trick[0])
            follow = [c for c in hand if self.game.suit(c) == led]
            if follow:
                return follow
        return list(hand)

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        game = self.game
        self.hands[seat].remove(action)
        self.trick.append(action)
        events = [Event("played", seat, {"card": game.format_action(action)})]
        if len(self.trick) < 2:
            return events
        lead, answer = self.trick
        follower = 1 - self.leader
        beats = game.suit(answer) == game.suit(lead) and game.rank(answer) > game.rank(lead)
        winner = follower if beats else self.leader
        self.tricks[winner] += 1
        self.trick = []
        self.leader = winner
        events.append(Event("trick_won", winner))
        if len(self.deck) >= 2:
            for drawer in (winner, 1 - winner):
                card = self.deck.pop(self.rng.below(len(self.deck)))
                self.hands[drawer].append(card)
                self.hands[drawer].sort()
                events.append(
                    Event("drew", drawer, {"card": game.format_action(card)}, audience=(drawer,))
                )
        return events

    def clone(self) -> Self:
        return type(self)(
            self.game,
            [list(h) for h in self.hands],
            list(self.deck),
            list(self.trick),
            self.leader,
            list(self.tricks),
            self.rng.copy(),
        )

    def outcome(self) -> Outcome | None:
        if self.deciding_seats():
            return None
        scores = (float(self.tricks[0]), float(self.tricks[1]))
        if self.tricks[0] == self.tricks[1]:
            return Outcome((), "tricks", scores)
        return Outcome((0,) if self.tricks[0] > self.tricks[1] else (1,), "tricks", scores)

    def discards(self) -> list[int]:
        held = {*self.hands[0], *self.hands[1], *self.deck, *self.trick}
        return [c for c in range(self.game.cards) if c not in held]

    def _view(self, seat: Seat | None) -> JSON:
        deciding = self.deciding_seats()
        return {
            "hand": None if seat is None else list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "trick": list(self.trick),
            "discards": self.discards(),
            "leader": self.leader,
            "tricks": list(self.tricks),
            "turn": deciding[0] if deciding else None,
        }

    def to_json(self) -> JSON:
        return {
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "trick": list(self.trick),
            "leader": self.leader,
            "tricks": list(self.tricks),
            "rng": self.rng.to_json(),
        }

    def _resample(self, seat: Seat, seed: int) -> Self:
        rng = Rng(mix_seed(seed, seat))
        other = 1 - seat
        pool = self.hands[other] + self.deck
        rng.shuffle(pool)
        size = len(self.hands[other])
        new = self.clone()
        new.hands[other] = sorted(pool[:size])
        new.deck = sorted(pool[size:])
        new.rng = Rng(rng.next_u64())
        return new


# -- toy_orders: simultaneous, sealed orders ------------------------------------------------

LETTERS = "abcdef"


class ToyOrders(Game):
    """Every seat secretly queues up to ``max_orders`` claims on regions, then ends its turn.

    When all seats have ended, a region claimed by exactly one seat passes to that seat; a
    contested region stays as it was. After ``rounds`` rounds the seat(s) owning the most
    regions win; if every seat ties, it is a draw.
    """

    info = GameInfo(
        name="toy_orders",
        version=1,
        title="Toy Orders",
        min_seats=2,
        max_seats=4,
        simultaneous=True,
        hidden_information=True,
        chance=False,
        options=(
            OptionSpec("regions", 4, "regions on the board", low=3, high=6),
            OptionSpec("max_orders", 2, "claims a seat may queue per round", low=1, high=3),
            OptionSpec("rounds", 3, "rounds in a match", low=1, high=4),
        ),
    )

    @property
    def end(self) -> Action:
        """The action that ends a seat's planning for the round."""
        return int(self.option("regions"))

    def num_distinct_actions(self) -> int:
        return self.end + 1

    def max_game_length(self) -> int:
        return int(self.option("rounds")) * self.seats * (int(self.option("max_orders")) + 1)

    def new_initial_state(self, seed: int) -> ToyOrdersState:
        return ToyOrdersState(
            self, 0, [None] * self.end, [[] for _ in range(self.seats)], [False] * self.seats
        )

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return "end" if action == self.end else LETTERS[action]

    def parse_action(self, text: str) -> Action:
        if text == "end":
            return self.end
        if isinstance(text, str) and len(text) == 1 and text in LETTERS[: self.end]:
            return LETTERS.index(text)
        raise InvalidAction("an order is a region letter or 'end'", action=text)

    def state_from_json(self, data: JSON) -> ToyOrdersState:
        if not isinstance(data, dict) or set(data) != {"round", "owners", "queues", "ended"}:
            raise InvalidState("a toy_orders state has round, owners, queues, ended")
        rounds = int(self.option("rounds"))
        round_ = _int(data["round"], "round", 0, rounds)
        owners = data["owners"]
        if not isinstance(owners, list) or len(owners) != self.end:
            raise InvalidState("owners must list every region")
        owners = [None if o is None else _int(o, "owner", 0, self.seats - 1) for o in owners]
        queues, ended = data["queues"], data["ended"]
        if not isinstance(queues, list) or len(queues) != self.seats:
            raise InvalidState("queues must list every seat's queue")
        queues = [_ints(q, "queue") for q in queues]
        if not isinstance(ended, list) or len(ended) != self.seats:
            raise InvalidState("ended must list every seat")
        if not all(isinstance(e, bool) for e in ended):
            raise InvalidState("ended holds booleans")
        for queue in queues:
            if len(queue) > self.option("max_orders") or len(set(queue)) != len(queue):
                raise InvalidState(f"bad queue {queue}")
            if not all(0 <= r < self.end for r in queue):
                raise InvalidState(f"bad region in queue {queue}")
        over = round_ == rounds
        if all(ended) or (over and (any(ended) or any(queues))):
            raise InvalidState("no round is half resolved")
        return ToyOrdersState(self, round_, owners, queues, list(ended))


class ToyOrdersState(State):
    game: ToyOrders

    def __init__(
        self,
        game: ToyOrders,
        round_: int,
        owners: list[Seat | None],
        queues: list[list[int]],
        ended: list[bool],
    ) -> None:
        self.game = game
        self.round = round_
        self.owners = owners
        self.queues = queues
        self.ended = ended

    def deciding_seats(self) -> tuple[Seat, ...]:
        if self.round >= self.game.option("rounds"):
            return ()
        return tuple(seat for seat, done in enumerate(self.ended) if not done)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.deciding_seats():
            return []
        queue = self.queues[seat]
        end = self.game.end
        if len(queue) >= self.game.option("max_orders"):
            return [end]
        return [r for r in range(end) if r not in queue] + [end]

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        if action != self.game.end:
            self.queues[seat].append(action)
            letter = LETTERS[action]
            return [Event("queued", seat, {"region": letter}, audience=(seat,))]
        self.ended[seat] = True
        events = [Event("ended", seat)]
        if all(self.ended):
            events.extend(self._resolve())
        return events

    def _resolve(self) -> list[Event]:
        events = []
        for region in range(self.game.end):
            claimants = [s for s, q in enumerate(self.queues) if region in q]
            if len(claimants) == 1:
                self.owners[region] = claimants[0]
                events.append(Event("claimed", claimants[0], {"region": LETTERS[region]}))
        self.round += 1
        self.queues = [[] for _ in self.queues]
        self.ended = [False for _ in self.ended]
        return events

    def _hand_in_action(self, seat: Seat) -> Action:
        """The turn timer ran out: the seat's queued orders stand, as if it had ended."""
        return self.game.end

    def clone(self) -> Self:
        return type(self)(
            self.game,
            self.round,
            list(self.owners),
            [list(q) for q in self.queues],
            list(self.ended),
        )

    def outcome(self) -> Outcome | None:
        if self.deciding_seats():
            return None
        counts = [self.owners.count(seat) for seat in range(self.game.seats)]
        best = max(counts)
        winners = tuple(s for s, c in enumerate(counts) if c == best)
        scores = tuple(float(c) for c in counts)
        if len(winners) == self.game.seats:
            return Outcome((), "regions", scores)
        return Outcome(winners, "regions", scores)

    def _view(self, seat: Seat | None) -> JSON:
        return {
            "round": self.round,
            "owners": list(self.owners),
            "ended": list(self.ended),
            "queue": None if seat is None else list(self.queues[seat]),
        }

    def to_json(self) -> JSON:
        return {
            "round": self.round,
            "owners": list(self.owners),
            "queues": [list(q) for q in self.queues],
            "ended": list(self.ended),
        }

    def _resample(self, seat: Seat, seed: int) -> Self:
        rng = Rng(mix_seed(seed, seat))
        new = self.clone()
        if not self.deciding_seats():
            return new
        limit = int(self.game.option("max_orders"))
        for other in range(self.game.seats):
            if other != seat:
                regions = list(range(self.game.end))
                rng.shuffle(regions)
                new.queues[other] = regions[: rng.below(limit + 1)]
        return new


# -- takeaway: a tiny sequential game with a hidden number --------------------------------


class TakeAway(Game):
    """A tiny fake game: take 1-3 stones from a pile; who takes the last stone wins.

    The pile starts at a seeded size, and a hidden "bonus" number drawn from the state's
    generator at every move stands for information a bot must not see.
    """

    info = GameInfo(
        name="takeaway",
        version=1,
        title="Take Away",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=True,
        chance=True,
    )

    def num_distinct_actions(self) -> int:
        return 3

    def max_game_length(self) -> int:
        return 40

    def new_initial_state(self, seed: int) -> TakeAwayState:
        rng = Rng(seed)
        return TakeAwayState(self, pile=10 + rng.below(10), turn=0, rng=rng, secret=0)

    def state_from_json(self, data: JSON) -> TakeAwayState:
        return TakeAwayState(
            self, data["pile"], data["turn"], Rng.from_json(data["rng"]), data["secret"]
        )

    def format_action(self, action: Action) -> str:
        return f"take {action + 1}"

    def parse_action(self, text: str) -> Action:
        return int(text.rsplit(maxsplit=1)[-1]) - 1


class TakeAwayState(State):
    def __init__(self, game: Game, pile: int, turn: int, rng: Rng, secret: int) -> None:
        self.game = game
        self.pile, self.turn, self.rng, self.secret = pile, turn, rng, secret
        self.resampled_with: int | None = None

    def deciding_seats(self) -> tuple[Seat, ...]:
        return () if self.pile == 0 else (self.turn,)

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.deciding_seats():
            return []
        return list(range(min(3, self.pile)))

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        self.pile -= action + 1
        self.secret = self.rng.below(1000)
        if self.pile:
            self.turn = 1 - self.turn
        return []

    def clone(self) -> Self:
        copy = type(self)(self.game, self.pile, self.turn, self.rng.copy(), self.secret)
        copy.resampled_with = self.resampled_with
        return copy

    def outcome(self) -> Outcome | None:
        return Outcome(winners=(self.turn,), reason="last_stone") if self.pile == 0 else None

    def _view(self, seat: Seat | None) -> JSON:
        # "seats" keeps an observation from being all zeros (pile 0, seat 0 to move), which
        # PettingZoo's api_test warns about: the adapter tests run every registered game.
        return {"pile": self.pile, "turn": self.turn, "seats": 2}

    def to_json(self) -> JSON:
        return {
            "pile": self.pile,
            "turn": self.turn,
            "rng": self.rng.to_json(),
            "secret": self.secret,
        }

    def _resample(self, seat: Seat, seed: int) -> Self:
        copy = type(self)(self.game, self.pile, self.turn, Rng(seed), secret=-1)
        copy.resampled_with = seed
        return copy


# -- the kits: generic parts, one registration each -----------------------------------------


def draw_json(view: JSON) -> RenderableType:
    """A toy game's terminal drawing: its view as pretty JSON."""
    return rich.json.JSON.from_data(view, indent=2)


def toy_kit(*games: type[Game], events: EventCatalogue) -> GameKit:
    """A kit of generic parts for ``games`` (one game's versions), with their ``events``."""
    return GameKit(
        name=games[0].info.name,
        games=games,
        evaluator=FINAL_RETURNS,
        move_order=keep_all,
        rollout=Rollout(),
        draw=BoardDrawing(draw_json),
        heuristic=GreedyHeuristic(final_returns),
        tensor=None,
        events=events,
    )


def _kind(meaning: str, **fields: str) -> EventKind:
    return EventKind(meaning, {"seat": "integer", **fields})


TOY_TRICKS_EVENTS = {
    "played": _kind("A seat played a card.", card="string"),
    "trick_won": _kind("A seat won the trick."),
    "drew": _kind("A seat drew a card (sealed).", card="string", audience="array"),
}
TOY_ORDERS_EVENTS = {
    "queued": _kind("A seat queued a claim (sealed).", region="string", audience="array"),
    "ended": _kind("A seat ended its turn."),
    "claimed": _kind("A seat alone claimed a region.", region="string"),
}

TOY_TRICKS_KIT = register_kit(toy_kit(ToyTricks, events=TOY_TRICKS_EVENTS))
TOY_ORDERS_KIT = register_kit(toy_kit(ToyOrders, events=TOY_ORDERS_EVENTS))
TAKEAWAY_KIT = register_kit(toy_kit(TakeAway, events={}))


# -- deliberately broken variants (never registered) -----------------------------------------


class _LeakyViewState(ToyTricksState):
    def view(self, seat: Seat | None) -> JSON:
        data = super().view(seat)
        data["hands"] = [list(h) for h in self.hands]
        return data


class _SharedCloneState(ToyTricksState):
    def clone(self) -> Self:
        new = super().clone()
        new.hands = self.hands
        return new


class _NothingHiddenState(ToyTricksState):
    def _resample(self, seat: Seat, seed: int) -> Self:
        return self.clone()


class _MutatingApplyState(ToyTricksState):
    """Counts every attempt in its state, even rejected ones."""

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        self.tricks[0] += 0 if isinstance(action, int) and not isinstance(action, bool) else 1
        return super().apply(seat, action)


class _UnsortedLegalState(ToyTricksState):
    def legal_actions(self, seat: Seat) -> list[Action]:
        return sorted(super().legal_actions(seat), reverse=True)


class _EarlyReturnsState(ToyTricksState):
    def returns(self) -> list[float]:
        return [float(t) for t in self.tricks]


class _TupleJsonState(ToyTricksState):
    def to_json(self) -> JSON:
        data = super().to_json()
        data["tricks"] = tuple(data["tricks"])
        return data


class _UnserialisableViewState(ToyTricksState):
    def view(self, seat: Seat | None) -> JSON:
        data = super().view(seat)
        data["trick"] = set(self.trick)
        return data


def _broken_tricks(name: str, state_cls: type[ToyTricksState], **overrides: Any) -> type[ToyTricks]:
    """A ToyTricks whose states are ``state_cls`` (and whose methods are ``overrides``)."""

    def new_initial_state(self: ToyTricks, seed: int) -> ToyTricksState:
        base = ToyTricks.new_initial_state(self, seed)
        return state_cls(
            self, base.hands, base.deck, base.trick, base.leader, base.tricks, base.rng
        )

    def state_from_json(self: ToyTricks, data: JSON) -> ToyTricksState:
        base = ToyTricks.state_from_json(self, data)
        return state_cls(
            self, base.hands, base.deck, base.trick, base.leader, base.tricks, base.rng
        )

    namespace: dict[str, Any] = {
        "new_initial_state": new_initial_state,
        "state_from_json": state_from_json,
        **overrides,
    }
    return type(name, (ToyTricks,), namespace)


def _off_by_one_parse(self: ToyTricks, text: str) -> Action:
    action = ToyTricks.parse_action(self, text)
    return action if action != 1 else 2


def _untyped_state_from_json(self: ToyTricks, data: JSON) -> ToyTricksState:
    if data == {}:
        raise KeyError("hands")
    return ToyTricks.state_from_json(self, data)


def _untyped_format(self: ToyTricks, action: Action) -> str:
    return f"{self.rank(action) + 1}{SUITS[self.suit(action) % 4]}"


_calls = [0]


def _forgetful_initial_state(self: ToyTricks, seed: int) -> ToyTricksState:
    _calls[0] += 1
    return ToyTricks.new_initial_state(self, seed + _calls[0])


class _LeakyOrdersState(ToyOrdersState):
    """Shows every seat's sealed orders to everyone."""

    def view(self, seat: Seat | None) -> JSON:
        data = super().view(seat)
        data["queues"] = [list(q) for q in self.queues]
        return data


class _HandInClearsState(ToyOrdersState):
    """Its turn timer throws the queued orders away: no single action does that."""

    def hand_in(self, seat: Seat) -> list[Event]:
        action = self.hand_in_action(seat)  # the usual checks, then the wrong deed
        self.queues[seat] = []
        return self.apply_unchecked(seat, action)


def _broken_orders(name: str, state_cls: type[ToyOrdersState]) -> type[ToyOrders]:
    """A ToyOrders whose states are ``state_cls``."""

    def new_initial_state(self: ToyOrders, seed: int) -> ToyOrdersState:
        base = ToyOrders.new_initial_state(self, seed)
        return state_cls(self, base.round, base.owners, base.queues, base.ended)

    def state_from_json(self: ToyOrders, data: JSON) -> ToyOrdersState:
        base = ToyOrders.state_from_json(self, data)
        return state_cls(self, base.round, base.owners, base.queues, base.ended)

    namespace = {"new_initial_state": new_initial_state, "state_from_json": state_from_json}
    return type(name, (ToyOrders,), namespace)


class ShortOrders(ToyOrders):
    """Claims a maximum match length that a match can exceed."""

    def max_game_length(self) -> int:
        return 3


BROKEN: dict[str, tuple[type[Game], str]] = {
    # name: (game class, a phrase the kit's error must contain)
    "leaky view": (_broken_tricks("LeakyView", _LeakyViewState), "view leakage"),
    "shared clone": (_broken_tricks("SharedClone", _SharedCloneState), "clone"),
    "nothing hidden": (_broken_tricks("NothingHidden", _NothingHiddenState), "hides nothing"),
    "mutating apply": (_broken_tricks("MutatingApply", _MutatingApplyState), "rejection"),
    "unsorted legal": (_broken_tricks("UnsortedLegal", _UnsortedLegalState), "ascending"),
    "early returns": (_broken_tricks("EarlyReturns", _EarlyReturnsState), "returns"),
    "tuple json": (_broken_tricks("TupleJson", _TupleJsonState), "plain JSON"),
    "set in view": (_broken_tricks("SetInView", _UnserialisableViewState), "view"),
    "off-by-one parse": (
        _broken_tricks("OffByOne", ToyTricksState, parse_action=_off_by_one_parse),
        "notation",
    ),
    "untyped state error": (
        _broken_tricks("UntypedState", ToyTricksState, state_from_json=_untyped_state_from_json),
        "KeyError",
    ),
    "untyped format error": (
        _broken_tricks("UntypedFormat", ToyTricksState, format_action=_untyped_format),
        "format_action",
    ),
    "forgetful seed": (
        _broken_tricks("Forgetful", ToyTricksState, new_initial_state=_forgetful_initial_state),
        "seed",
    ),
    "leaky orders": (_broken_orders("LeakyOrders", _LeakyOrdersState), "view leakage"),
    "short orders": (ShortOrders, "max_game_length"),
    "hand_in is no action": (
        _broken_orders("HandInClears", _HandInClearsState),
        "no record can hold it",
    ),
}
