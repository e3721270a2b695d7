"""Attacks, damage and death: the rule text's attack procedure and what follows a kill.

"When making an attack (with a Fight Order, or a Shoot Order), the procedure is as follows:
1) Gather a number of dice equal to the attacking unit's remaining HP 2) Roll those dice
"To Hit" the target. 3) Remove all results that are lower than the attacking unit's To Hit
stat. 4) Roll the remaining dice "To Break" the enemy's armour. 5) Remove all results that
are lower than the target unit's Armour stat. 6) Multiply the number of remaining dice by
the attacking unit's Damage stat."

Every die is a d6 drawn from the state's generator, so a seed and the actions replay.
"""

from __future__ import annotations

from typing import Any

from meeple.core.outcome import Event
from meeple.games.manafields.data import (
    ARCHERS,
    BEATS,
    BIT,
    CAVALRY,
    DIST,
    GENERAL,
    HERO,
    HUMANS,
    INFANTRY,
    NAMES,
    OBJECTIVE_OF,
    ORCS,
    ORTH,
    RULES,
    STEP,
    TERRAIN_MASK,
    UNDEAD,
    ZOMBIE,
)
from meeple.games.manafields.position import Position

NO_TURN = -10
"""``last_order`` / ``targeted`` of a unit that never had one (long before turn 0)."""


def roll(state: Position, count: int) -> list[int]:
    below = state.rng.below
    return [below(6) + 1 for _ in range(count)]


def hero_on_objective(state: Position, slot: int) -> bool:
    """A friendly Hero stands on the objective the unit stands on."""
    objective = OBJECTIVE_OF[state.pos[slot]]
    if objective < 0:
        return False
    seat = state.owner[slot]
    for other in range(len(state.hp)):
        if (
            state.hp[other] > 0
            and state.owner[other] == seat
            and state.unit[other].kind <= HERO
            and OBJECTIVE_OF[state.pos[other]] == objective
        ):
            return True
    return False


def adjacent_to_friend(state: Position, slot: int) -> bool:
    seat, occ, owner = state.owner[slot], state.occ, state.owner
    return any(occ[n] >= 0 and owner[occ[n]] == seat for n in ORTH[state.pos[slot]])


def attack_dice(state: Position, slot: int, fight: bool) -> tuple[int, int]:
    """``(dice, automatic sixes)`` the attacker gathers.

    Dice: its remaining HP; an injured Orc Troop receiving a Fight Order adds 7, up to
    its original HP. Automatic 6s To Hit (they replace rolled dice, at most all of them):
    Infantry targeted by a Fight Order last turn, and Archers that received no order this
    turn or their previous turn, score as many as their level.
    """
    unit = state.unit[slot]
    hp = state.hp[slot]
    dice = hp
    if fight and state.faction_of(slot) == ORCS and unit.is_troop and hp < unit.hp:
        dice = min(hp + state.rules().effects["orcs_injured_extra_dice"], unit.hp)
    auto = 0
    if (unit.kind == INFANTRY and state.targeted[slot] == state.turn - 1) or (
        unit.kind == ARCHERS and not state.ordered[slot] and state.last_order[slot] < state.turn - 2
    ):
        auto = unit.level
    return dice, min(auto, dice)


def to_hit_bonus(state: Position, slot: int) -> int:
    bonus = state.rules().effects["bless_to_hit"] if state.blessed[slot] else 0
    if OBJECTIVE_OF[state.pos[slot]] >= 0 and hero_on_objective(state, slot):
        bonus += state.rules().effects["objective_hero_to_hit"]
    return bonus


def damage_per_die(state: Position, slot: int, target: int, fight: bool) -> int:
    unit = state.unit[slot]
    damage = unit.damage
    if BEATS.get(unit.kind) == state.unit[target].kind:
        damage += state.rules().effects["rock_paper_scissors_damage"]
    if (
        fight
        and unit.is_troop
        and state.faction_of(slot) == HUMANS
        and adjacent_to_friend(state, slot)
    ):
        damage += state.rules().effects["humans_adjacent_damage"]
    if state.inspired[slot]:
        damage += state.rules().effects["inspire_damage"]
    return damage


def armour(state: Position, slot: int) -> int:
    return state.unit[slot].armour + (
        state.rules().effects["ward_armour"] if state.warded[slot] else 0
    )


def attack(state: Position, slot: int, target: int, fight: bool, events: list[Event]) -> None:
    """The attack procedure, then the damage dealt."""
    dice, auto = attack_dice(state, slot, fight)
    bonus = to_hit_bonus(state, slot)
    to_hit = state.unit[slot].to_hit
    hit_rolls = roll(state, dice - auto)
    hits = auto + sum(1 for r in hit_rolls if r + bonus >= to_hit)
    break_rolls = roll(state, hits)
    need = armour(state, target)
    broken = sum(1 for r in break_rolls if r >= need)
    per_die = damage_per_die(state, slot, target, fight)
    damage = broken * per_die
    data: dict[str, Any] = {
        "unit": slot,
        "target": target,
        "dice": dice,
        "auto_sixes": auto,
        "to_hit": state.unit[slot].to_hit,
        "to_hit_bonus": bonus,
        "hit_rolls": hit_rolls,
        "hits": hits,
        "armour": need,
        "break_rolls": break_rolls,
        "broken": broken,
        "damage_per_die": per_die,
        "damage": damage,
    }
    events.append(Event("fight" if fight else "shoot", state.active, data))
    if damage:
        deal_damage(state, target, damage, events)


def deal_damage(state: Position, target: int, amount: int, events: list[Event]) -> None:
    hp = state.hp[target] - amount
    if hp > 0:
        state.hp[target] = hp
        events.append(Event("damage", state.owner[target], {"unit": target, "hp": hp}))
        return
    destroy(state, target, events)


def destroy(state: Position, slot: int, events: list[Event]) -> None:
    """A unit dies: Morale for its destroyer, the General's 6 points, Zombies rising."""
    owner = state.owner[slot]
    enemy = 1 - owner
    square = state.pos[slot]
    unit = state.unit[slot]
    state.hp[slot] = 0
    state.occ[square] = -1
    state.occupied &= ~(1 << BIT[square])
    events.append(Event("destroyed", owner, {"unit": slot, "square": NAMES[square]}))
    if owner != state.active:
        state.morale[state.active] = min(
            state.morale[state.active] + 1, state.rules().turn["morale_max"]
        )
    if unit.kind == GENERAL and slot == state.general[owner]:
        state.owed[enemy] += state.rules().scoring["enemy_general_killed"]
        events.append(Event("general_killed", owner, {"unit": slot}))
    if (
        unit.kind != ZOMBIE
        and state.factions[enemy] == UNDEAD
        and _undead_hero_near(state, enemy, square)
    ):
        rise(state, slot, enemy, events)


def _undead_hero_near(state: Position, seat: int, square: int) -> bool:
    reach = state.rules().effects["undead_raise_distance"]
    for hero in range(len(state.hp)):
        if (
            state.hp[hero] > 0
            and state.owner[hero] == seat
            and state.unit[hero].kind <= HERO
            and DIST[state.pos[hero]][square] <= reach
        ):
            return True
    return False


def rise(state: Position, slot: int, seat: int, events: list[Event]) -> None:
    """The dead unit in ``slot`` returns on its square as a Zombie of ``seat``."""
    square = state.pos[slot]
    zombie = state.rules().zombie
    state.unit[slot] = zombie
    state.owner[slot] = seat
    state.hp[slot] = zombie.hp
    state.occ[square] = slot
    state.occupied |= 1 << BIT[square]
    state.reset_unit_flags(slot)
    events.append(Event("zombie", seat, {"unit": slot, "square": NAMES[square]}))


def cavalry_impact(state: Position, slot: int, start: int, end: int, events: list[Event]) -> None:
    """Impact damage after a straight move (the caller checked the start had no enemy
    adjacent): the enemy on the next square in the direction of travel takes the Cavalry's
    Damage, plus its level if the square behind that enemy is not empty."""
    direction = _straight(state, start, end)
    if direction < 0:
        return
    ahead = STEP[end][direction]
    if ahead < 0:
        return
    target = state.occ[ahead]
    if target < 0 or state.owner[target] == state.owner[slot]:
        return
    damage = damage_per_die(state, slot, target, fight=False)
    behind = STEP[ahead][direction]
    pinned = behind >= 0 and (state.occ[behind] >= 0 or behind in RULES.terrain)
    if pinned:
        damage += state.unit[slot].level
    events.append(
        Event(
            "impact",
            state.active,
            {"unit": slot, "target": target, "damage": damage, "pinned": pinned},
        )
    )
    deal_damage(state, target, damage, events)


def _straight_lines() -> tuple[dict[int, tuple[int, int]], ...]:
    """_LINES[start][end]: ``(direction, bitboard)`` for every square on a straight line
    from ``start`` (0 N, 1 E, 2 S, 3 W), the bitboard holding the squares from the first
    step up to ``end``, all of which a straight move must find free."""
    lines = []
    for start in range(len(STEP)):
        ends: dict[int, tuple[int, int]] = {}
        for direction in range(4):
            square, path = STEP[start][direction], 0
            while square >= 0:
                path |= 1 << BIT[square]
                ends[square] = (direction, path)
                square = STEP[square][direction]
        lines.append(ends)
    return tuple(lines)


_LINES = _straight_lines()


def _straight(state: Position, start: int, end: int) -> int:
    """The direction (0 N, 1 E, 2 S, 3 W) of a straight move over free squares, else -1:
    ``end`` on a line from ``start`` with no unit and no terrain on the way."""
    line = _LINES[start].get(end)
    if line is None or line[1] & (state.occupied | TERRAIN_MASK):
        return -1
    return line[0]


def explode(state: Position, slot: int, events: list[Event]) -> None:
    """A Zombie blows up: it is destroyed and deals 3 Damage to every adjacent unit."""
    square = state.pos[slot]
    events.append(Event("explode", state.owner[slot], {"unit": slot, "square": NAMES[square]}))
    destroy(state, slot, events)
    for neighbour in ORTH[square]:
        victim = state.occ[neighbour]
        if victim >= 0:
            deal_damage(state, victim, state.rules().effects["zombie_explosion_damage"], events)


__all__ = [
    "CAVALRY",
    "attack",
    "cavalry_impact",
    "deal_damage",
    "destroy",
    "explode",
    "rise",
    "roll",
]
