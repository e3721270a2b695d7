"""The full state of a Manafields match as JSON, and back (docs/notation.md).

``to_json`` holds everything, the dice generator included; it is for storage and records.
Seats get :func:`.view.view`, which is the same minus the generator.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import InvalidState
from meeple.core.rng import Rng
from meeple.core.types import JSON
from meeple.games.manafields.combat import NO_TURN
from meeple.games.manafields.data import (
    ARMY,
    FACTIONS,
    NAMES,
    RULES,
    SLOTS,
    SQUARES,
    UNDEAD,
    UnitType,
    square_index,
)
from meeple.games.manafields.notation import LABELS
from meeple.games.manafields.rules import ManafieldsState

FORMAT = "manafields-state/1"
FLAGS = ("ordered", "moved", "fought", "shot", "used_ability", "blessed", "inspired", "warded")


def _label(slot: int) -> str | None:
    return None if slot < 0 else LABELS[slot]


def state_to_json(state: ManafieldsState) -> JSON:
    units = []
    for slot in range(SLOTS):
        entry: dict[str, Any] = {
            "slot": LABELS[slot],
            "type": state.unit[slot].id,
            "owner": state.owner[slot],
            "hp": state.hp[slot],
            "square": NAMES[state.pos[slot]],
            "last_order": state.last_order[slot],
            "targeted": state.targeted[slot],
        }
        for flag in FLAGS:
            entry[flag] = getattr(state, flag)[slot]
        units.append(entry)
    return {
        "format": FORMAT,
        "factions": [FACTIONS[f] for f in state.factions],
        "turn_limit": state.turn_limit,
        "turn": state.turn,
        "active": state.active,
        "op": state.op,
        "morale": list(state.morale),
        "score": list(state.score),
        "owed": list(state.owed),
        "rally": list(state.rally),
        "frenzy": state.frenzy,
        "fights_issued": state.fights_issued,
        "picks": state.picks,
        "picked": [LABELS[s] for s in state.picked],
        "elf_free": _label(state.elf_free),
        "winner": None if state.winner < 0 else ("draw" if state.winner == 2 else state.winner),
        "reason": state.reason or None,
        "units": units,
        "rng": state.rng.to_json(),
    }


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidState(f"{what} must be an integer in {low}..{high}, got {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidState(f"{what} must be true or false, got {value!r}")
    return value


def _slot(value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in LABELS:
        raise InvalidState(f"{what} must be a unit letter A-{LABELS[-1]}, got {value!r}")
    return LABELS.index(value)


def _pair(value: Any, what: str, read: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidState(f"{what} must list two seats, got {value!r}")
    return [read(v, what) for v in value]


def state_from_json(game: Any, data: JSON) -> ManafieldsState:
    """Rebuild a state; raises :class:`InvalidState` on anything malformed or impossible."""
    try:
        return _read(game, data)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise InvalidState(f"malformed Manafields state: {error!r}") from error


def _read(game: Any, data: JSON) -> ManafieldsState:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidState(f"a Manafields state is an object with format {FORMAT!r}")
    state = ManafieldsState(game)
    factions = [game.option("faction0"), game.option("faction1")]
    if data["factions"] != factions:
        raise InvalidState(f"factions must be {factions} (the match's options)")
    state.factions = (FACTIONS.index(factions[0]), FACTIONS.index(factions[1]))
    state.turn_limit = game.option("turn_limit")
    if data["turn_limit"] != state.turn_limit:
        raise InvalidState(f"turn_limit must be {state.turn_limit} (the match's options)")
    state.turn = _int(data["turn"], "turn", 0, 2 * state.turn_limit - 1)
    state.active = _int(data["active"], "active", 0, 1)
    if state.active != state.turn % 2:
        raise InvalidState("seat 0 plays the even turns, seat 1 the odd ones")
    state.op = _int(data["op"], "op", 0, RULES.turn["order_points"])
    state.morale = _pair(
        data["morale"], "morale", lambda v, w: _int(v, w, 0, RULES.turn["morale_max"])
    )
    state.score = _pair(data["score"], "score", lambda v, w: _int(v, w, 0, 100_000))
    state.owed = _pair(data["owed"], "owed", lambda v, w: _int(v, w, 0, 1_000))
    state.rally = _pair(data["rally"], "rally", _bool)
    state.frenzy = _bool(data["frenzy"], "frenzy")
    state.fights_issued = _int(data["fights_issued"], "fights_issued", 0, 1_000)
    state.picks = _int(data["picks"], "picks", 0, RULES.turn["faction_picks"])
    if not isinstance(data["picked"], list):
        raise InvalidState("picked must list unit letters")
    state.picked = [_slot(s, "picked") for s in data["picked"]]
    state.elf_free = -1 if data["elf_free"] is None else _slot(data["elf_free"], "elf_free")
    winner = data["winner"]
    if winner is None:
        state.winner = -1
    elif winner == "draw":
        state.winner = 2
    else:
        state.winner = _int(winner, "winner", 0, 1)
    reason = data["reason"]
    if (reason is None) != (state.winner < 0) or reason not in (None, "lead", "turn_limit"):
        raise InvalidState("reason is 'lead' or 'turn_limit' once the match is over, else null")
    state.reason = reason or ""
    if state.picks and FACTIONS[state.factions[state.active]] not in ("elves", "undead"):
        raise InvalidState("only the Elves and the Undead pick units for their Faction Ability")
    _read_units(state, data["units"], game.rosters)
    state.rng = Rng.from_json(data["rng"])
    return state


def _read_units(
    state: ManafieldsState, units: Any, rosters: tuple[tuple[UnitType, ...], ...]
) -> None:
    if not isinstance(units, list) or len(units) != SLOTS:
        raise InvalidState(f"units must list {SLOTS} slots")
    for slot, entry in enumerate(units):
        if not isinstance(entry, dict) or entry.get("slot") != LABELS[slot]:
            raise InvalidState(f"units[{slot}] must be the unit in slot {LABELS[slot]}")
        home = slot // ARMY
        original = rosters[state.factions[home]][slot % ARMY]
        kind = entry["type"]
        if kind not in (original.id, RULES.zombie.id):
            raise InvalidState(f"slot {LABELS[slot]} holds {original.id} or a risen zombie")
        unit = original if kind == original.id else RULES.zombie
        owner = _int(entry["owner"], "owner", 0, 1)
        if unit is RULES.zombie and state.factions[owner] != UNDEAD:
            raise InvalidState(f"the zombie in slot {LABELS[slot]} must serve the Undead")
        if unit is not RULES.zombie and owner != home:
            raise InvalidState(f"slot {LABELS[slot]} serves seat {home}")
        state.unit[slot] = unit
        state.owner[slot] = owner
        state.hp[slot] = _int(entry["hp"], "hp", 0, unit.hp)
        square = square_index(entry["square"]) if isinstance(entry["square"], str) else None
        if square is None or square in RULES.terrain or square >= SQUARES:
            raise InvalidState(f"slot {LABELS[slot]} stands on no open square")
        state.pos[slot] = square
        if state.hp[slot] > 0:
            if state.occ[square] >= 0:
                raise InvalidState(f"two units stand on {NAMES[square]}")
            state.place(slot, square)
        for name in ("last_order", "targeted"):
            getattr(state, name)[slot] = _int(entry[name], name, NO_TURN, state.turn)
        for flag in FLAGS:
            getattr(state, flag)[slot] = _bool(entry[flag], flag)
