"""What a seat sees of a Manafields match, sentences for actions, and why one is illegal.

Nothing is hidden in Manafields but the dice still to come: every seat (and a spectator)
sees the whole position -- units, HP, flags, OP, Morale, score, objectives -- and not the
state's generator.
"""

from __future__ import annotations

from typing import Any

from meeple.core.types import JSON, Action, Seat
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import (
    FACTIONS,
    IN_ZONE,
    KINDS,
    NAMES,
    OBJECTIVES,
    RULES,
    SLOTS,
    SQUARES,
)
from meeple.games.manafields.rules import ManafieldsState

LABELS = ids.LABELS


def _unit(state: ManafieldsState, slot: int) -> dict[str, Any]:
    unit = state.unit[slot]
    alive = state.hp[slot] > 0
    return {
        "slot": LABELS[slot],
        "owner": state.owner[slot],
        "name": unit.name,
        "type": unit.id,
        "kind": KINDS[unit.kind],
        "general": slot == state.general[state.owner[slot]] and unit.kind == 0,
        "alive": alive,
        "hp": state.hp[slot],
        "max_hp": unit.hp,
        "square": NAMES[state.pos[slot]],
        "speed": unit.speed,
        "to_hit": unit.to_hit,
        "armour": unit.armour,
        "damage": unit.damage,
        "range": unit.range,
        "level": unit.level,
        "ability": None if unit.ability is None else unit.ability.to_json(),
        "ordered": state.ordered[slot],
        "moved": state.moved[slot],
        "fought": state.fought[slot],
        "shot": state.shot[slot],
        "used_ability": state.used_ability[slot],
        "blessed": state.blessed[slot],
        "inspired": state.inspired[slot],
        "warded": state.warded[slot],
        "last_order": state.last_order[slot],
        "targeted": state.targeted[slot],
    }


def view(state: ManafieldsState, seat: Seat | None) -> JSON:
    outcome = state.outcome()
    objectives = [
        {
            "name": RULES.objective_names[o],
            "squares": [NAMES[s] for s in RULES.objective_squares[o]],
            "controller": None if state.controller(o) < 0 else state.controller(o),
        }
        for o in range(OBJECTIVES)
    ]
    return {
        "game": state.game.id,
        "seat": seat,
        "turn": state.turn,
        "round": state.turn // 2 + 1,
        "turn_limit": state.turn_limit,
        "active": state.active,
        "deciding": list(state.deciding_seats()),
        "factions": [FACTIONS[f] for f in state.factions],
        "op": state.op,
        "morale": list(state.morale),
        "score": list(state.score),
        "lead": [state.score[0] - state.score[1], state.score[1] - state.score[0]],
        "lead_to_win": state.game.rules.turn["lead_to_win"],
        "points_now": [state.points_now(s)["total"] for s in (0, 1)],
        "owed": list(state.owed),
        "rally": list(state.rally),
        "frenzy": state.frenzy,
        "fights_issued": state.fights_issued,
        "picks": state.picks,
        "picked": [LABELS[s] for s in state.picked],
        "elf_free": None if state.elf_free < 0 else LABELS[state.elf_free],
        "board": {
            "width": RULES.width,
            "height": RULES.height,
            "terrain": sorted(NAMES[s] for s in RULES.terrain),
            "zones": [[NAMES[s] for s in range(SQUARES) if IN_ZONE[z][s]] for z in (0, 1)],
            "objectives": objectives,
        },
        "units": [_unit(state, slot) for slot in range(SLOTS)],
        "outcome": None if outcome is None else outcome.to_json(),
    }


def _name(state: ManafieldsState, slot: int) -> str:
    return f"{state.unit[slot].name} ({LABELS[slot]})"


def describe(state: ManafieldsState, seat: Seat, action: Action) -> str:
    """A sentence for people, e.g. "Humans: Knights (E) move b2 to b7 for 0 OP"."""
    who = RULES.faction_titles[state.factions[seat]]
    verb, slot, other = ids.decode(action)
    if verb == "end":
        return f"{who} end their turn"
    if verb == "done":
        return f"{who} stop picking units"
    if verb == "faction":
        return f"{who} use their Faction Ability (5 Morale)"
    if verb == "explode":
        return f"{who}: {_name(state, slot)} blows up"
    if verb == "teleport":
        return f"{who}: {_name(state, slot)} teleports to {NAMES[other]}"
    if verb == "move":
        cost = state.move_cost(slot)
        return (
            f"{who}: {_name(state, slot)} moves {NAMES[state.pos[slot]]} to {NAMES[other]}"
            f" for {cost} OP"
        )
    target = _name(state, other)
    if verb == "fight":
        return f"{who}: {_name(state, slot)} fights {target} for {state.fight_cost()} OP"
    if verb == "shoot":
        return f"{who}: {_name(state, slot)} shoots {target} for {state.shoot_cost(slot)} OP"
    ability = state.unit[slot].ability
    title = ability.name if ability is not None else "an ability"
    return f"{who}: {_name(state, slot)} uses {title} on {target}"


def why_illegal(state: ManafieldsState, seat: Seat, action: Action) -> str:
    """A short reason an action is not legal now."""
    verb, slot, other = ids.decode(action)
    if state.picks and verb not in ("done", "teleport", "explode"):
        return "the Faction Ability is picking units: pick one or say 'done'"
    if verb in ("done", "teleport", "explode") and not state.picks:
        return "no Faction Ability is picking units now"
    if verb == "faction":
        return "the Faction Ability needs 5 Morale and something to act on"
    if slot < 0:
        return "it is not among the legal actions"
    if state.owner[slot] != seat or state.hp[slot] <= 0:
        return f"unit {LABELS[slot]} is not one of your living units"
    if verb == "move":
        if state.move_cost(slot) > state.op:
            return f"the move costs {state.move_cost(slot)} OP and {state.op} are left"
        return f"{NAMES[other]} is not within Speed through open squares"
    if verb == "fight":
        if state.fought[slot]:
            return f"unit {LABELS[slot]} has already fought this turn"
        if state.fight_cost() > state.op:
            return "no Order Points are left"
        return f"{LABELS[other]} is not an adjacent enemy"
    if verb == "shoot":
        if state.unit[slot].range == 0:
            return f"unit {LABELS[slot]} cannot shoot"
        if state.shot[slot]:
            return f"unit {LABELS[slot]} has already shot this turn"
        if state.enemy_adjacent(slot):
            return f"unit {LABELS[slot]} is adjacent to an enemy"
        if state.shoot_cost(slot) > state.op:
            return f"the shot costs {state.shoot_cost(slot)} OP and {state.op} are left"
        return f"{LABELS[other]} is not a target in Range (Heroes next to their Troops are not)"
    if verb == "ability":
        if state.unit[slot].ability is None:
            return f"unit {LABELS[slot]} has no Heroic Ability"
        if state.used_ability[slot]:
            return f"unit {LABELS[slot]} has already used its ability this turn"
        return f"{LABELS[other]} is not a target of the ability"
    return "it is not among the legal actions"
