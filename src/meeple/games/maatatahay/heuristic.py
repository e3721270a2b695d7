"""Maatatahay's ``heuristic`` bot: a placement and its reply, judged by rules of thumb.

"Surrounding your opponent's warriors to defeat them while allocating your valuable unit in a
safe spot is the key to victory." Every decision is tried on a determinization of the
position (``state.resample``: the decks and the crystal bag redrawn, as the seat cannot see
them) through the engine itself, so the fights the placement starts are judged exactly; the
position after it is then scored by :func:`evaluate`:

- the points on the table: diamonds and Spirit crystals on living warriors, and relics;
- a little for every living warrior (more survivors break a tie), its strength, its arrows
  pointing at open spaces (support for a later friendly warrior), and the crystals in
  storage (Energy for strength, Spirit for relics and points) while its seat places again;
  a little less for a warrior with two open sides and an enemy beside it;
- the *surround threat*: for each seat, the best placement its next warrior could make to
  close the last open side of enemy warriors ("Whenever a Warrior becomes completely
  surrounded orthogonally, it must fight alone") -- worked out on the board with that
  warrior's strength there (fangs, support arrows, the Energy of its storage and of the
  space), the dead's diamonds, Spirit crystals and presence counted as its gain, its own
  loss counted if it dies in the hole. The seat that places next (in this round, with its
  warrior known from the pair) threatens at nearly full weight; the other seat, and both
  seats between rounds, at less.

Decisions:

- *pick* a pair: each pair is played into the choice of who places first and the
  placement that follows, the placing seat taking its best placement (finished by a quick
  rule: all Energy on the warrior);
- *first*: each choice is played into the first placement, whose best few candidates are
  each played against the other seat's best reply;
- *where* to place: every free space and every way to pay for a relic, each finished with a
  few storage choices (keep what can be kept, put all Energy on the warrior, put everything
  on it) facing the way its arrows reach the most open spaces; when the other seat places
  next in the same round, the best eight are played on against its best reply, and the
  placement whose reply leaves the most is taken;
- *how it ends*: every facing that reaches different open spaces times every way to keep
  crystals, each judged after its life and death (and, for the first placement of a round,
  the best eight against the reply);
- in the last round ("The game ends after a turn if ... 1 or fewer free spaces remain; or All
  Warriors have been played"), every choice of both seats is searched to the end of the
  match (a finish by the quick ways only), when that takes at most 4,000 positions; the
  final count decides.

Measured (docs/ai.md): the reply search won 158 of 200 paired matches against the same rules
judged one placement deep; weighing the reply when choosing who places first won 112-85 of
200 more, and the search of the last round 106-72 of 180 more. Two other terms played worse
and were dropped: a rough chance of survival for every warrior (the enemy strength beside
it, and more for each open side, against its own; 16-44 in 60 paired matches against not
having it), and counting a warrior half lost once the enemies beside it are stronger than
it (61-138 of 200).

Ties are drawn from the caller's generator. It reads only what ``state.view(seat)`` shows.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from meeple.core.errors import GameError
from meeple.core.game import State
from meeple.core.types import Action, Seat
from meeple.games.maatatahay import notation as ids
from meeple.games.maatatahay.data import (
    ARROW_TARGETS,
    DIAGONAL,
    DISTINCT_FACINGS,
    EMPTY,
    KEEPS,
    ORTHOGONAL,
    RULES,
    SPACES,
    TILES_PER_SEAT,
)
from meeple.games.maatatahay.rules import (
    FINISH,
    ORDER,
    OVER,
    PICK,
    PLACE,
    MaatatahayState,
)

WIN_BONUS = 100.0
"""Added for a won match (subtracted for a lost one), above any difference in points."""


@dataclass(frozen=True, slots=True)
class Weights:
    """The rules of thumb's numbers, in points (see :func:`evaluate`)."""

    living: float = 0.6
    """A living warrior beyond its points: it breaks ties, closes sides and attacks."""
    strength: float = 0.06
    arrow: float = 0.12
    """Per arrow of a living warrior pointing at an open space."""
    stored_energy: float = 0.25
    stored_spirit: float = 0.8
    next_threat: float = 0.9
    """How much of its best surround the seat that surely places next is expected to make."""
    later_threat: float = 0.35
    """The same for a seat whose next placement comes after the other seat's (or unknown)."""
    exposure: float = 0.08
    """Per point at stake on a warrior with two open sides and an enemy next to it."""
    replies: int = 8
    """How many of the best placements are played on against the other seat's best reply,
    when it places next in the same round (0: none)."""
    endgame_nodes: int = 4000
    """In the last round, search every choice of both seats to the end when that takes at
    most this many positions (0: never)."""
    order_replies: bool = True
    """Whether the choice of who places first weighs each placement against the reply."""


DEFAULT_WEIGHTS = Weights()

NKEEPS = len(KEEPS)
STORAGE_LIMIT = RULES.storage_limit


class NotMaatatahay(GameError):
    """The Maatatahay heuristic was handed a position of another game."""

    code = "bot/wrong_game"


def _owner(uid: int) -> int:
    return uid // TILES_PER_SEAT


# -- the evaluation --------------------------------------------------------------------------


def _points(state: MaatatahayState, seat: int) -> int:
    """ "Score VP from: Diamonds on surviving Warriors, Spirit Crystals on surviving
    Warriors, Temple Relics." """
    return state.score_breakdown(seat)["total"]


def _placements_left(state: MaatatahayState) -> tuple[int, ...]:
    """The seats still to place a warrior in the round under way (in order)."""
    if state.phase in (PLACE, FINISH):
        if state.placements == 0:
            return (state.placing, 1 - state.placing)
        return (state.placing,)
    return ()


def _last_round(state: MaatatahayState) -> bool:
    """Whether the match ends after the round under way (or already has).

    "The game ends after a turn if: Either player has lost 6 Warriors; 1 or fewer free
    spaces remain; or All Warriors have been played."
    """
    if state.phase == OVER:
        return True
    if max(state.lost) >= RULES.lost_to_end:
        return True
    if state.phase in (PICK, ORDER):
        # The next round always has two placements; it is the last if it leaves the map full
        # or uses the last pair.
        pairs = len(state.stream)
        return (pairs <= 1 and not state.decks[0]) or state.free_spaces() - 2 <= 1
    remaining = len(_placements_left(state))
    if not state.stream and not (state.decks[0] and state.decks[1]):
        return True
    return state.free_spaces() - remaining <= RULES.free_spaces_to_end


def _places_again(state: MaatatahayState, seat: int) -> bool:
    """Whether ``seat`` places another warrior before the match ends (as far as is known)."""
    if state.phase == OVER:
        return False
    if seat in _placements_left(state):
        return True
    return not _last_round(state)


def _support_at(state: MaatatahayState, seat: int, space: int) -> int:
    """ "Friendly Support Arrows pointing toward the new Warrior give it Energy Crystals",
    with the map's own arrows; limited by the supply."""
    arrows = RULES.environment_arrows[space]
    tile, living, facing = state.tile, state.living, state.facing
    for near in DIAGONAL[space] + ORTHOGONAL[space]:
        other = tile[near]
        if (
            other != EMPTY
            and living[near]
            and _owner(other) == seat
            and space in ARROW_TARGETS[other % TILES_PER_SEAT][facing[near]][near]
        ):
            arrows += 1
    return min(arrows, state.supply)


def _warrior_value(state: MaatatahayState, space: int, living: float) -> float:
    """What a living warrior is worth to its seat: its diamonds, its Spirit, its presence."""
    uid = state.tile[space]
    return state.game.rules.tiles[uid % TILES_PER_SEAT].diamonds + state.spirit[space] + living


def surround_gain(
    state: MaatatahayState,
    seat: int,
    tile_index: int,
    space: int,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """What ``seat`` gains by placing warrior ``tile_index`` on the open ``space`` now.

    The warrior's strength there is its fangs, the support arrows at ``space``, and every
    Energy crystal of its storage and of the space (all of them put on it). The fights are
    judged as the rules judge them: "Compare its Strength against the combined Strength of the
    surrounding enemies: Equal or higher -> survives; Lower -> dies", all on the board as it
    stands, and "Its Spirit Crystals are transferred to the newly placed Warrior". The board
    is changed for the count and put back as it was.
    """
    tile, living, energy, spirit = state.tile, state.living, state.energy, state.spirit
    if tile[space] != EMPTY:
        return 0.0
    strength_bonus = state.store_energy[seat] + state.ground_energy[space]
    if state.relic[space]:
        cost = state.relic_cost(seat, space)
        if (
            state.store_spirit[seat] < 1
            or cost > state.store_spirit[seat] + state.store_energy[seat]
        ):
            return 0.0
        strength_bonus = max(0, state.store_energy[seat] - (cost - 1))
    uid = seat * TILES_PER_SEAT + tile_index
    tile[space], living[space] = uid, True
    saved_energy, saved_spirit = energy[space], spirit[space]
    energy[space] = _support_at(state, seat, space) + strength_bonus
    spirit[space] = 0
    try:
        dying = []
        for candidate in (space, *ORTHOGONAL[space]):
            if not living[candidate] or not state.is_surrounded(candidate):
                continue
            side = _owner(tile[candidate])
            attack = 0
            for near in ORTHOGONAL[candidate]:
                if living[near] and _owner(tile[near]) != side:
                    attack += state.strength(near)
            if attack > state.strength(candidate):
                dying.append(candidate)
        if not dying:
            return 0.0
        gain = 0.0
        freed = 0
        for candidate in dying:
            value = _warrior_value(state, candidate, weights.living)
            freed += spirit[candidate]
            gain += -value if _owner(tile[candidate]) == seat else value
        if space not in dying:
            gain += freed
        return gain
    finally:
        tile[space], living[space] = EMPTY, False
        energy[space], spirit[space] = saved_energy, saved_spirit


def open_sides(state: MaatatahayState) -> tuple[list[bool], list[int]]:
    """Per space: whether it leaves a side open ("an empty space or an unclaimed relic
    leaves it open", unless relics block), and how many of its orthogonal sides are open."""
    tile = state.tile
    if state.game.option("relic_blocks") is True:
        relic = state.relic
        is_open = [uid == EMPTY and not relic[s] for s, uid in enumerate(tile)]
    else:
        is_open = [uid == EMPTY for uid in tile]
    counts = [0] * SPACES
    for space in range(SPACES):
        n = 0
        for near in ORTHOGONAL[space]:
            if is_open[near]:
                n += 1
        counts[space] = n
    return is_open, counts


def best_surround(
    state: MaatatahayState,
    seat: int,
    tile_index: int,
    weights: Weights = DEFAULT_WEIGHTS,
    sides: tuple[list[bool], list[int]] | None = None,
) -> float:
    """The most ``seat`` gains by one placement of ``tile_index`` (see :func:`surround_gain`).

    Only spaces where a warrior can become surrounded are tried: the last open side of a
    living warrior, or a space closed on all four sides.
    """
    tile, living, relic = state.tile, state.living, state.relic
    is_open, counts = sides if sides is not None else open_sides(state)
    tried: set[int] = set()
    best = 0.0
    for space in range(SPACES):
        if tile[space] == EMPTY:
            if counts[space] == 0 and not relic[space]:
                tried.add(space)
        elif living[space] and counts[space] == 1:
            for near in ORTHOGONAL[space]:
                if is_open[near]:
                    tried.add(near)
    for space in tried:
        best = max(best, surround_gain(state, seat, tile_index, space, weights))
    return best


def _likely_tile(state: MaatatahayState, seat: int) -> int | None:
    """The warrior ``seat`` places next: known in the round, else its strongest in the stream."""
    if state.pair is not None and seat in _placements_left(state):
        return state.pair[seat]
    if not state.stream:
        return None
    tiles = state.game.rules.tiles
    return max((pair[seat] for pair in state.stream), key=lambda t: tiles[t].fangs)


def _threat(
    state: MaatatahayState, seat: int, weights: Weights, sides: tuple[list[bool], list[int]]
) -> float:
    tile_index = _likely_tile(state, seat)
    if tile_index is None or not _places_again(state, seat):
        return 0.0
    return best_surround(state, seat, tile_index, weights, sides)


def _exposure(state: MaatatahayState, space: int, gaps: int, weights: Weights) -> float:
    """What a warrior with two open sides and an enemy beside it risks: two more tiles
    close it in, and the enemies next to it then attack it together."""
    if gaps != 2:
        return 0.0
    side = _owner(state.tile[space])
    tile, living = state.tile, state.living
    if not any(living[n] and _owner(tile[n]) != side for n in ORTHOGONAL[space]):
        return 0.0
    return weights.exposure * _warrior_value(state, space, weights.living)


def evaluate(state: MaatatahayState, seat: Seat, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good ``state`` is for ``seat``, in points; the opposite for the other seat."""
    other = 1 - seat
    if state.phase == OVER:
        points = float(_points(state, seat) - _points(state, other))
        return points + WIN_BONUS * state.returns()[seat]
    value = float(state.relic_points(seat) - state.relic_points(other))
    tile, living, facing = state.tile, state.living, state.facing
    sides = open_sides(state)
    counts = sides[1]
    for space in range(SPACES):
        uid = tile[space]
        if uid == EMPTY or not living[space]:
            continue
        tile_index = uid % TILES_PER_SEAT
        gaps = counts[space]
        own = _warrior_value(state, space, weights.living)
        own += weights.strength * state.strength(space) - _exposure(state, space, gaps, weights)
        arrows = 0
        for target in ARROW_TARGETS[tile_index][facing[space]][space]:
            if tile[target] == EMPTY:
                arrows += 1
        own += weights.arrow * arrows
        value += own if _owner(uid) == seat else -own
    for who, sign in ((seat, 1.0), (other, -1.0)):
        if _places_again(state, who):
            value += sign * (
                weights.stored_energy * min(state.store_energy[who], STORAGE_LIMIT)
                + weights.stored_spirit * min(state.store_spirit[who], STORAGE_LIMIT)
            )
    left = _placements_left(state)
    for who, sign in ((seat, 1.0), (other, -1.0)):
        threat = _threat(state, who, weights, sides)
        if threat:
            weight = weights.next_threat if left and left[0] == who else weights.later_threat
            value += sign * weight * threat
    return value


# -- quick finishes for the lookahead --------------------------------------------------------


def _open_targets(state: MaatatahayState, tile_index: int, facing: int, space: int) -> int:
    return sum(1 for t in ARROW_TARGETS[tile_index][facing][space] if state.tile[t] == EMPTY)


def _quick_facing(state: MaatatahayState) -> int:
    """The facing whose arrows reach the most open spaces (the first such)."""
    space = state.hot
    tile_index = state.tile[space] % TILES_PER_SEAT
    return max(
        DISTINCT_FACINGS[tile_index],
        key=lambda f: (_open_targets(state, tile_index, f, space), -f),
    )


def _quick_keeps(state: MaatatahayState, seat: int) -> list[tuple[int, int]]:
    """A few ways to end a placement: keep all that fits (Spirit first), put every Energy
    crystal on the warrior, or put everything on it."""
    energy, spirit = state.store_energy[seat], state.store_spirit[seat]
    kept_spirit = min(spirit, STORAGE_LIMIT)
    kept_energy = min(energy, STORAGE_LIMIT - kept_spirit)
    keeps = [(kept_energy, kept_spirit), (0, kept_spirit), (0, 0)]
    return list(dict.fromkeys(keeps))


def _finish_action(facing: int, keep: tuple[int, int]) -> Action:
    return ids.FINISH + facing * NKEEPS + KEEPS.index(keep)


def _useful_facings(state: MaatatahayState) -> tuple[int, ...]:
    """One facing per set of open spaces its arrows reach ("rotate it in any direction"):
    facings reaching the same open spaces are one choice."""
    space = state.hot
    tile_index = state.tile[space] % TILES_PER_SEAT
    seen: dict[frozenset[int], int] = {}
    for facing in DISTINCT_FACINGS[tile_index]:
        useful = frozenset(
            t for t in ARROW_TARGETS[tile_index][facing][space] if state.tile[t] == EMPTY
        )
        seen.setdefault(useful, facing)
    return tuple(seen.values())


# -- the policy ------------------------------------------------------------------------------


class MaatatahayHeuristic:
    """The ``heuristic`` bot's knowledge of Maatatahay (see the module docstring).

    Keeps no state: every random choice comes from the ``rng`` handed to :meth:`choose`.
    """

    name = "heuristic"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action:
        """The action ``seat`` takes; ``seat`` must be one of ``state.deciding_seats()``.

        Raises:
            NotMaatatahay: ``state`` is not a Maatatahay position.
            ValueError: ``seat`` has no legal action.
        """
        if not isinstance(state, MaatatahayState):
            raise NotMaatatahay(
                f"the Maatatahay heuristic plays Maatatahay, not {state.game.info.name!r}"
            )
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(
                f"seat {seat} has no legal action here (deciding: {list(state.deciding_seats())})"
            )
        if len(legal) == 1:
            return legal[0]
        world = state.resample(seat, rng.getrandbits(64))
        candidates = self._finishes(world, seat, legal) if world.phase == FINISH else legal
        if self.weights.endgame_nodes and _last_round(world):
            solved = self._solve_round(world, seat, candidates)
            if solved is not None:
                best = max(score for score, _ in solved)
                tied = [action for score, action in solved if score >= best - 1e-9]
                return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]
        scores = [(self.action_value(world, seat, action), action) for action in candidates]
        if self.weights.replies > 0 and world.phase in (PLACE, FINISH) and world.placements == 0:
            scores.sort(key=lambda item: -item[0])
            scores = [
                (self.reply_value(world, seat, action), action)
                for _, action in scores[: self.weights.replies]
            ]
        best = max(score for score, _ in scores)
        tied = [action for score, action in scores if score >= best - 1e-9]
        return tied[0] if len(tied) == 1 else tied[rng.randrange(len(tied))]

    def _solve_round(
        self, world: MaatatahayState, seat: int, candidates: list[Action]
    ) -> list[tuple[float, Action]] | None:
        """The last round searched to its end, every choice of both seats (a finish: the
        quick ways), or None when that takes more than ``endgame_nodes`` positions."""
        budget = [self.weights.endgame_nodes]
        scores = []
        for action in candidates:
            child = world.clone()
            child.apply_unchecked(seat, action)
            value = self._minimax(child, seat, budget)
            if value is None:
                return None
            scores.append((value, action))
        return scores

    def _minimax(self, state: MaatatahayState, seat: int, budget: list[int]) -> float | None:
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if state.phase in (PICK, OVER):
            return evaluate(state, seat, self.weights)
        (mover,) = state.deciding_seats()
        if state.phase == FINISH:
            facing = _quick_facing(state)
            actions = [_finish_action(facing, keep) for keep in _quick_keeps(state, mover)]
        else:
            actions = state.legal_actions(mover)
        best = float("-inf") if mover == seat else float("inf")
        for action in actions:
            child = state.clone()
            child.apply_unchecked(mover, action)
            value = self._minimax(child, seat, budget)
            if value is None:
                return None
            best = max(best, value) if mover == seat else min(best, value)
        return best

    def action_value(self, world: MaatatahayState, seat: int, action: Action) -> float:
        """How good ``action`` is for ``seat`` in ``world`` (a position it may change freely
        by cloning): the action played, the placement it leads to finished, then judged."""
        child = world.clone()
        child.apply_unchecked(seat, action)
        if child.phase in (PICK, OVER) or world.phase == FINISH:
            return evaluate(child, seat, self.weights)
        if child.phase == FINISH:
            return self._best_finish(child, seat, quick=False)[0]
        if child.phase == ORDER:
            decider = child.decider
            values = [self._order_value(child, decider, first) for first in (0, 1)]
            mine = max(values)
            return mine if decider == seat else -mine
        # The place phase after the order: the placer's best placement, against the
        # other seat's best reply.
        placer = child.placing
        if self.weights.order_replies:
            value = self._best_place_against_reply(child, placer)
        else:
            value = self._best_place(child, placer)
        return value if placer == seat else -value

    def _best_place_against_reply(self, state: MaatatahayState, seat: int) -> float:
        """The best placement's value for ``seat`` when the other seat replies in the round:
        the best few by themselves, then each against the best reply."""
        scored = []
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply_unchecked(seat, action)
            scored.append((self._best_finish(child, seat, quick=True)[0], action))
        scored.sort(key=lambda item: -item[0])
        return max(
            self.reply_value(state, seat, action) for _, action in scored[: self.weights.replies]
        )

    def reply_value(self, world: MaatatahayState, seat: int, action: Action) -> float:
        """``action`` played and its placement finished (by the best quick finish), then the
        other seat's best placement in reply: its value for ``seat``."""
        child = world.clone()
        child.apply_unchecked(seat, action)
        if child.phase == FINISH:
            child.apply_unchecked(seat, self._best_finish(child, seat, quick=False)[1])
        if child.phase != PLACE:
            return evaluate(child, seat, self.weights)
        return -self._best_place(child, child.placing)

    def _order_value(self, state: MaatatahayState, seat: int, first: int) -> float:
        child = state.clone()
        child.apply_unchecked(seat, ids.ORDER + first)
        value = self._best_place(child, first)
        return value if first == seat else -value

    def _best_place(self, state: MaatatahayState, seat: int) -> float:
        """The best placement's value for ``seat`` (quick finishes only)."""
        best = float("-inf")
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply_unchecked(seat, action)
            best = max(best, self._best_finish(child, seat, quick=True)[0])
        return best

    def _best_finish(self, state: MaatatahayState, seat: int, quick: bool) -> tuple[float, Action]:
        """The best of the quick ways to end the placement under way, and its value."""
        facing = _quick_facing(state)
        if quick:
            keeps = [(0, min(state.store_spirit[seat], STORAGE_LIMIT))]
        else:
            keeps = _quick_keeps(state, seat)
        best, best_action = float("-inf"), -1
        for keep in keeps:
            action = _finish_action(facing, keep)
            child = state.clone()
            child.apply_unchecked(seat, action)
            value = evaluate(child, seat, self.weights)
            if value > best:
                best, best_action = value, action
        return best, best_action

    def _finishes(self, state: MaatatahayState, seat: int, legal: Iterable[Action]) -> list[Action]:
        """The finishes worth judging: one facing per set of open spaces its arrows reach."""
        facings = set(_useful_facings(state))
        kept = [a for a in legal if (a - ids.FINISH) // NKEEPS in facings]
        return kept or list(legal)
