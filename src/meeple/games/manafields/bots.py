"""A fast rule-of-thumb player for Manafields: the game's ``heuristic`` bot.

Each legal action gets a score from what it is worth on the table -- the expected damage of
an attack (from the attack procedure's odds, never from peeking at the dice to come), the
squares a Move gains towards the objectives, the General's safety, what an ability or the
Faction Ability does -- minus what its Order Points cost. The best action is taken; the
turn ends when nothing scores above zero. Ties go to the bot's own generator.

It reads the position's public fields directly: Manafields hides nothing but the dice, so
this is what ``state.view(seat)`` shows, without building the JSON.
"""

from __future__ import annotations

import random

from meeple.core.game import State
from meeple.core.kit import check_can_decide
from meeple.core.types import Action, Seat
from meeple.games.manafields import notation as ids
from meeple.games.manafields.combat import armour, attack_dice, damage_per_die, to_hit_bonus
from meeple.games.manafields.data import (
    ARCHERS,
    BEATS,
    BOLT,
    DIST,
    ELVES,
    GENERAL,
    HEAL,
    HERO,
    HUMANS,
    IN_ZONE,
    OBJECTIVE_OF,
    ORCS,
    ORTH,
    RAISE,
    RULES,
    SLOTS,
    STEP,
)
from meeple.games.manafields.evaluate import UNIT_VALUE
from meeple.games.manafields.rules import ManafieldsState

OP_PRICE = 0.35
OBJECTIVE_SQUARES = tuple(s for area in RULES.objective_squares for s in area)


def expected_damage(state: ManafieldsState, slot: int, target: int, fight: bool) -> float:
    """The attack procedure's mean damage, from its odds."""
    dice, auto = attack_dice(state, slot, fight)
    need = state.unit[slot].to_hit - to_hit_bonus(state, slot)
    p_hit = min(max((7 - need) / 6, 0.0), 1.0)
    p_break = min(max((7 - armour(state, target)) / 6, 0.0), 1.0)
    hits = auto + (dice - auto) * p_hit
    return hits * p_break * damage_per_die(state, slot, target, fight)


def unit_value(state: ManafieldsState, slot: int) -> float:
    return UNIT_VALUE[state.unit[slot].kind]


def harm_value(state: ManafieldsState, target: int, damage: float) -> float:
    """What dealing ``damage`` to ``target`` is worth: its share of the unit, more for a kill."""
    hp = state.hp[target]
    value = unit_value(state, target)
    share = min(damage, hp) / state.unit[target].hp * value
    if damage >= hp:
        share += 0.5 * value + (3.0 if state.unit[target].kind == GENERAL else 0.0)
    return share


class _Context:
    """What every action of one decision shares: the living enemies and their squares, and
    per unit (worked out when first asked) its Move cost, the objective squares open to it
    and the :meth:`ManafieldsHeuristic.place_value` of the square it stands on."""

    __slots__ = ("_cost", "_here", "_open", "enemies", "enemy_squares", "seat", "state")

    def __init__(self, state: ManafieldsState, seat: int, exclude: int = -1) -> None:
        self.state = state
        self.seat = seat
        enemies = [
            o for o in range(SLOTS) if state.hp[o] > 0 and state.owner[o] != seat and o != exclude
        ]
        self.enemies = frozenset(enemies)
        self.enemy_squares = [state.pos[o] for o in enemies]
        self._here: dict[int, float] = {}
        self._cost: dict[int, int] = {}
        self._open: dict[int, list[int]] = {}

    def move_cost(self, slot: int) -> int:
        cost = self._cost.get(slot)
        if cost is None:
            cost = self._cost[slot] = self.state.move_cost(slot)
        return cost

    def open_objectives(self, slot: int) -> list[int]:
        """The objective squares that are empty or hold ``slot`` itself."""
        squares = self._open.get(slot)
        if squares is None:
            occ = self.state.occ
            squares = [s for s in OBJECTIVE_SQUARES if occ[s] < 0 or occ[s] == slot]
            self._open[slot] = squares
        return squares

    def here(self, bot: ManafieldsHeuristic, slot: int) -> float:
        value = self._here.get(slot)
        if value is None:
            value = bot.place_value(self.state, self.seat, slot, self.state.pos[slot], self)
            self._here[slot] = value
        return value


class ManafieldsHeuristic:
    """The ``heuristic`` policy of Manafields: scores every legal action with its rules of
    thumb (see the module doc); ties go to the bot's generator, passed in as ``rng``."""

    def choose(self, state: State, seat: Seat, rng: random.Random) -> Action:
        actions = check_can_decide(state, seat)
        if len(actions) == 1 or not isinstance(state, ManafieldsState):
            return actions[0] if len(actions) == 1 else rng.choice(actions)
        best: list[Action] = []
        best_score = float("-inf")
        for action, value in zip(actions, self.scores(state, seat, actions), strict=True):
            if value > best_score + 1e-9:
                best, best_score = [action], value
            elif abs(value - best_score) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    # -- scores ----------------------------------------------------------------------------

    def scores(self, state: ManafieldsState, seat: int, actions: list[Action]) -> list[float]:
        """:meth:`score` of each action, with what they share worked out once."""
        context = _Context(state, seat)
        return [self.score(state, seat, action, context) for action in actions]

    def score(
        self, state: ManafieldsState, seat: int, action: int, context: _Context | None = None
    ) -> float:
        """What ``action`` is worth to ``seat``; ``context`` is the decision's shared part."""
        verb, slot, other = ids.decode(action)
        if verb == "end":
            return 0.0
        if verb == "done":
            return 0.01
        if verb == "faction":
            return self._faction(state, seat)
        if verb == "teleport":
            return 1.0 + (2.0 if state.unit[slot].kind == GENERAL else 0.0)
        if verb == "explode":
            return self._explosion(state, seat, slot)
        if verb == "move":
            if context is None:
                context = _Context(state, seat)
            cost = context.move_cost(slot)
            gain = self.place_value(state, seat, slot, other, context) - context.here(self, slot)
            return gain + self._impact(state, slot, other) - OP_PRICE * cost
        if verb in ("fight", "shoot"):
            fight = verb == "fight"
            cost = state.fight_cost() if fight else state.shoot_cost(slot)
            damage = expected_damage(state, slot, other, fight)
            return 0.2 + harm_value(state, other, damage) - OP_PRICE * cost * 0.5
        return self._ability(state, seat, slot, other)

    def place_value(
        self,
        state: ManafieldsState,
        seat: int,
        slot: int,
        square: int,
        context: _Context | None = None,
    ) -> float:
        """How good ``square`` is for the unit in ``slot``."""
        if context is None or state.owner[slot] != seat:
            context = _Context(state, seat, exclude=slot)
        unit = state.unit[slot]
        row = DIST[square]
        occ = state.occ
        nearest_objective = min((row[s] for s in context.open_objectives(slot)), default=0)
        value = -0.25 * nearest_objective
        if OBJECTIVE_OF[square] >= 0:
            value += 1.2
        enemies = context.enemies
        adjacent = sum(1 for n in ORTH[square] if occ[n] in enemies)
        if unit.kind == GENERAL:
            value -= 1.5 * adjacent
            if not IN_ZONE[seat][square]:
                value += 3.0
        elif unit.kind == HERO:
            value -= 0.6 * adjacent
        elif unit.kind == ARCHERS:
            in_range = any(row[p] <= unit.range for p in context.enemy_squares)
            value += (0.6 if in_range else 0.0) - 0.8 * adjacent
        else:
            for n in ORTH[square]:
                target = occ[n]
                if target in enemies:
                    value += 0.5 if BEATS.get(unit.kind) == state.unit[target].kind else 0.2
        return value

    def _impact(self, state: ManafieldsState, slot: int, square: int) -> float:
        if state.unit[slot].kind != 3 or state.enemy_adjacent(slot):
            return 0.0
        start = state.pos[slot]
        for direction in range(4):
            step = STEP[start][direction]
            while step >= 0 and state.occ[step] < 0 and step not in RULES.terrain:
                if step == square:
                    ahead = STEP[square][direction]
                    target = state.occ[ahead] if ahead >= 0 else -1
                    if target >= 0 and state.owner[target] != state.owner[slot]:
                        return harm_value(state, target, state.unit[slot].damage + 0.5)
                    return 0.0
                step = STEP[step][direction]
        return 0.0

    def _ability(self, state: ManafieldsState, seat: int, slot: int, target: int) -> float:
        ability = state.unit[slot].ability
        if ability is None:
            return -1.0
        cost = OP_PRICE * state.ability_cost(slot)
        if ability.effect == HEAL:
            healed = min(ability.amount, state.unit[target].hp - state.hp[target])
            return healed / state.unit[target].hp * unit_value(state, target) - cost
        if ability.effect == BOLT:
            return harm_value(state, target, ability.amount) - cost
        if ability.effect == RAISE:
            return 0.8 - cost
        engaged = state.enemy_adjacent(target) or state.unit[target].range > 0
        return (0.3 if engaged else 0.02) - cost

    def _faction(self, state: ManafieldsState, seat: int) -> float:
        faction = state.factions[seat]
        if faction == HUMANS:
            return 1.5
        if faction == ORCS:
            fights = sum(
                1 for s in state.living(seat) if not state.fought[s] and state.fight_targets(s)
            )
            return 0.6 * fights - 0.5
        if faction == ELVES:
            return 1.0
        return 0.5

    def _explosion(self, state: ManafieldsState, seat: int, slot: int) -> float:
        value = 0.0
        blast = state.game.rules.effects["zombie_explosion_damage"]
        for n in ORTH[state.pos[slot]]:
            victim = state.occ[n]
            if victim >= 0:
                harm = harm_value(state, victim, blast)
                value += harm if state.owner[victim] != seat else -harm
        return value - 0.3 * unit_value(state, slot)


__all__ = ["ManafieldsHeuristic", "expected_damage"]
