"""Monte Carlo tree search over determinizations, sequential and simultaneous.

The search is information-set MCTS (Cowling, Powley and Whitehouse 2012, "SO-ISMCTS") in
its open-loop form. Every iteration starts from a fresh determinization,
``state.resample(seat, s)``: a position the searching seat cannot tell apart from the real
one, with everything it cannot see (decks, bags, sealed orders, the generator's future
draws) redrawn. So the search never peeks, and chance is handled by sampling: a node stands
for the sequence of decisions that led to it, whatever the hidden cards and dice were.

- Where one seat decides, that seat picks by UCB1 on its own mean return. An action is
  counted as *available* each time it was legal when its node was visited, and UCB uses
  that count instead of the parent's visits, as ISMCTS prescribes when legal actions
  differ between determinizations. Forced decisions (one legal action) make no node.
- Where several seats decide at once (Maiterra's planning), the node is *decoupled*
  (decoupled UCT, Lanctot et al.): every deciding seat builds its whole turn -- the order
  queue up to ending its turn -- in a tree of its own over its own actions, choosing
  by its own statistics and blind to what the others queue in the same turn. The joint
  turn then resolves, and the node below is keyed by everyone's whole turn.
- Below a new node, a leaf policy (:mod:`meeple.ai.rollout`) supplies the values.

A determinization is the search's own, so its transitions need no events: where the state
has an ``advance(seat, action)`` method (``apply_unchecked`` without building the events,
as Maatatahay's rules offer) the walk through the tree uses it.

Nothing here reads a clock; see :class:`~meeple.ai.search.Budget`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from meeple.ai.rollout import LeafPolicy, Playout
from meeple.ai.search import ActionStat, Budget, SearchResult
from meeple.core import Action, Seat, State, kit_for
from meeple.core.kit import MoveOrder

PLAN_LIMIT = 256
"""Safety cap on one seat's actions inside one simultaneous turn."""


class Edge:
    """An action taken from a node: its statistics and the node it leads to."""

    __slots__ = ("available", "child", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.child: Node | None = None


class Node:
    """A point of the tree: a sequence of decisions, whatever the hidden state was.

    ``edges`` holds the actions of sequential decisions, keyed by ``action * seats + seat``
    (the same history can leave different seats to decide in different determinizations).
    A simultaneous node holds one tree per deciding seat in ``plans`` and the nodes after
    each joint turn in ``after``.
    """

    __slots__ = ("after", "edges", "plans")

    def __init__(self) -> None:
        self.edges: dict[int, Edge] = {}
        self.plans: dict[Seat, Node] | None = None
        self.after: dict[tuple[tuple[Action, ...], ...], Node] | None = None

    def child(self, edge: Edge) -> Node:
        node = edge.child
        if node is None:
            node = edge.child = Node()
        return node


@dataclass(frozen=True, slots=True)
class MctsConfig:
    """The policy half of a search (the budget is the other half).

    Attributes:
        exploration: UCB1's constant on returns in ``[-1, 1]``.
        leaf: the leaf policy (random playouts by default).
        temperature: 0 plays the most visited action; above 0 the move is drawn with
            probability proportional to ``visits ** (1 / temperature)`` (weaker levels).
        prune: let the game's move order (its kit's ``move_order``) drop duplicate and
            dominated actions from the tree.
    """

    exploration: float = 1.0
    leaf: LeafPolicy = field(default_factory=Playout)
    temperature: float = 0.0
    prune: bool = True


Path = list[tuple[Edge, Seat]]


class Mcts:
    """A search policy; :meth:`run` is deterministic for a seed and an iteration budget."""

    def __init__(self, config: MctsConfig | None = None) -> None:
        self.config = config or MctsConfig()

    def run(self, state: State, seat: Seat, budget: Budget, seed: int) -> SearchResult:
        """Search ``state`` for ``seat`` and return its move with the root statistics.

        Raises:
            ValueError: when ``seat`` has no legal action in ``state``.
        """
        return self.grow(state, seat, budget, seed)[0]

    def grow(
        self, state: State, seat: Seat, budget: Budget, seed: int, root: Node | None = None
    ) -> tuple[SearchResult, Node]:
        """:meth:`run`, growing ``root`` (a tree kept from an earlier search of the same
        position, see :class:`MctsBot`) or a new tree; returns the result and the tree.

        Raises:
            ValueError: when ``seat`` has no legal action in ``state``.
        """
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(
                f"seat {seat} has no legal action here (deciding: {list(state.deciding_seats())})"
            )
        moves = kit_for(state).move_order if self.config.prune else None
        tree = _Tree(seat, state.game.seats, random.Random(seed), self.config.exploration, moves)
        if root is not None:
            tree.root = root
        leaf = self.config.leaf
        rng = tree.rng
        done = 0
        while not budget.exhausted(done):
            world = state.resample(seat, rng.getrandbits(64))
            path: Path = []
            tree.descend(world, path)
            values = world.returns() if world.is_terminal() else leaf(world, rng)
            for edge, mover in path:
                edge.visits += 1
                edge.total += values[mover]
            done += 1
        return tree.result(legal, done, self.config.temperature), tree.root


class _Tree:
    """The tree of one search and the walks through it."""

    __slots__ = ("exploration", "moves", "rng", "root", "seat", "seats")

    def __init__(
        self,
        seat: Seat,
        seats: int,
        rng: random.Random,
        exploration: float,
        moves: MoveOrder | None = None,
    ) -> None:
        self.root = Node()
        self.seat = seat
        self.seats = seats
        self.rng = rng
        self.exploration = exploration
        self.moves = moves

    def legal(self, world: State, seat: Seat) -> list[Action]:
        """The seat's legal actions in ``world`` that the search considers."""
        legal = world.legal_actions(seat)
        return legal if self.moves is None else self.moves(world, seat, legal)

    def descend(self, world: State, path: Path) -> None:
        """Walk from the root choosing by UCB, expand one edge, leave ``world`` at the leaf."""
        root = node = self.root
        step = getattr(world, "advance", world.apply_unchecked)
        while True:
            deciding = world.deciding_seats()
            if not deciding:
                return
            if len(deciding) > 1:
                key, grew = self.joint_turn(world, node, deciding, path)
                if grew:
                    return
                after = node.after
                if after is None:
                    after = node.after = {}
                next_node = after.get(key)
                if next_node is None:
                    next_node = after[key] = Node()
                node = next_node
                continue
            mover = deciding[0]
            legal = self.legal(world, mover)
            if len(legal) == 1 and not (node is root and mover == self.seat):
                step(mover, legal[0])
                continue
            action, edge, grew = self.choose(node, mover, legal)
            step(mover, action)
            path.append((edge, mover))
            if grew:
                return
            node = node.child(edge)

    def joint_turn(
        self, world: State, node: Node, deciding: tuple[Seat, ...], path: Path
    ) -> tuple[tuple[tuple[Action, ...], ...], bool]:
        """Every deciding seat plans its whole turn in its own tree; returns the joint turn.

        A seat's turn ends when it no longer decides, or when the turn resolves: the
        deciding seats then include one that had finished, or nobody decides (the match
        ended). Once a seat's tree has grown by one edge this iteration, the rest of its
        turn is played at random and not recorded. Returns the joint turn and whether
        any seat's tree grew.
        """
        plans = node.plans
        if plans is None:
            plans = node.plans = {}
        rng = self.rng
        joint: list[tuple[Action, ...]] = []
        any_grew = False
        for seat in deciding:
            trie = plans.get(seat)
            if trie is None:
                trie = plans[seat] = Node()
            first = node is self.root and seat == self.seat
            grew = False
            plan: list[Action] = []
            before = world.deciding_seats()
            while len(plan) < PLAN_LIMIT:
                legal = self.legal(world, seat)
                if not legal:
                    break
                if grew:
                    action = legal[int(rng.random() * len(legal))]
                elif len(legal) == 1 and not first:
                    action = legal[0]
                else:
                    action, edge, grew = self.choose(trie, seat, legal)
                    path.append((edge, seat))
                    if not grew:
                        trie = trie.child(edge)
                first = False
                world.apply_unchecked(seat, action)
                plan.append(action)
                after = world.deciding_seats()
                if seat not in after or any(other not in before for other in after):
                    break
                before = after
            joint.append(tuple(plan))
            any_grew = any_grew or grew
        return tuple(joint), any_grew

    def choose(self, node: Node, mover: Seat, legal: list[Action]) -> tuple[Action, Edge, bool]:
        """UCB1 over the legal actions with availability counts; expand an untried one first.

        Returns the action, its edge, and whether the edge is new.
        """
        edges = node.edges
        seats = self.seats
        untried: list[Action] = []
        best_action = -1
        best_edge: Edge | None = None
        best_score = -math.inf
        exploration = self.exploration
        log, sqrt = math.log, math.sqrt
        for action in legal:
            edge = edges.get(action * seats + mover)
            if edge is None:
                untried.append(action)
                continue
            edge.available += 1
            visits = edge.visits
            score = edge.total / visits + exploration * sqrt(log(edge.available) / visits)
            if score > best_score:
                best_action, best_edge, best_score = action, edge, score
        if untried:
            action = untried[int(self.rng.random() * len(untried))]
            edge = edges[action * seats + mover] = Edge()
            return action, edge, True
        if best_edge is None:  # every edge is backed up in the iteration that made it
            raise RuntimeError("a node without statistics")
        return best_action, best_edge, False

    def result(self, legal: list[Action], iterations: int, temperature: float) -> SearchResult:
        """The root seat's move: the most visited action (or one drawn by temperature)."""
        seat, seats = self.seat, self.seats
        tree = self.root
        if tree.plans is not None and seat in tree.plans:
            tree = tree.plans[seat]
        stats = []
        for action in legal:
            edge = tree.edges.get(action * seats + seat)
            if edge is not None and edge.visits:
                stats.append(ActionStat(action, edge.visits, edge.total / edge.visits))
        if not stats:  # the search never reached a choice of this seat
            return SearchResult(seat, legal[0], 0.0, iterations, (ActionStat(legal[0], 0, 0.0),))
        stats.sort(key=lambda s: (-s.visits, -s.value, s.action))
        chosen = stats[0]
        if temperature > 0 and len(stats) > 1:
            weights = [s.visits ** (1.0 / temperature) for s in stats]
            chosen = self.rng.choices(stats, weights=weights)[0]
        return SearchResult(seat, chosen.action, chosen.value, iterations, tuple(stats))


class MctsBot:
    """A bot that searches every decision with :class:`Mcts` under a fixed budget.

    Each decision draws its search seed from the bot's own generator, so a bot built with
    the same seed, asked the same questions, answers the same. :meth:`search` is the way
    in for callers that want the statistics or a budget of their own (a time limit).

    The bot keeps the subtree below the move it chose, with the position that move leads
    to. When its next question is that very position (it decides again before anyone
    else: a Maatatahay placement's finish after its place), the search grows the kept
    subtree instead of starting afresh: a node stands for a sequence of decisions, so the
    statistics gathered below the move are the new root's. Any other position drops it.
    Only sequential decisions are kept (a simultaneous turn's node is a seat's plan).
    """

    def __init__(
        self,
        seed: int,
        budget: Budget,
        config: MctsConfig | None = None,
        name: str = "mcts",
    ) -> None:
        self.seed = seed
        self.name = name
        self.budget = budget
        self.config = config or MctsConfig()
        self._rng = random.Random(seed)
        self._mcts = Mcts(self.config)
        self._kept: tuple[State, Seat, Node] | None = None

    def search(self, state: State, seat: Seat, budget: Budget | None = None) -> SearchResult:
        """Search ``state`` for ``seat``; ``budget`` replaces the bot's own for this call."""
        root = None
        kept, self._kept = self._kept, None
        if kept is not None and kept[1] == seat and kept[0] == state:
            root = kept[2]
        seed = self._rng.getrandbits(64)
        result, tree = self._mcts.grow(state, seat, budget or self.budget, seed, root)
        self._keep(state, seat, result.action, tree)
        return result

    def _keep(self, state: State, seat: Seat, action: Action, tree: Node) -> None:
        """Remember the subtree below ``action`` if ``seat`` decides alone right after it."""
        if tree.plans is not None or len(state.deciding_seats()) != 1:
            return
        edge = tree.edges.get(action * state.game.seats + seat)
        if edge is None or edge.child is None:
            return
        after = state.clone()
        after.apply_unchecked(seat, action)
        if after.deciding_seats() == (seat,):
            self._kept = (after, seat, edge.child)

    def select(self, state: State, seat: Seat) -> Action:
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        return self.search(state, seat).action

    def __repr__(self) -> str:
        return f"MctsBot(name={self.name!r}, seed={self.seed}, budget={self.budget.iterations})"
