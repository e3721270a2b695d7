"""Every kind of event each game sends in ``update`` and ``snapshot.missed``, with its fields.

An event is one JSON object: ``kind``, ``seat`` (the seat it concerns; ``null`` for the
table), the kind's own fields, and ``audience`` on a sealed event (the seats that may see
it; no one else receives it). :data:`EVENTS` lists, per game, each kind's fields as JSON
types; ``a|b`` is either, and a trailing ``?`` marks a field that is not always there. The
engine's events are checked against it (tests/server/test_protocol_schema.py plays random
matches of every game and version), and :func:`event_schema` gives it as JSON Schema
(docs/schemas/events-<game>.json).
"""

from __future__ import annotations

from typing import Any

EVENTS: dict[str, dict[str, dict[str, str]]] = {
    "maatatahay": {
        "collect": {"seat": "integer", "energy": "integer", "spirit": "integer"},
        "death": {"seat": "integer", "space": "string"},
        "fight": {
            "seat": "integer",
            "space": "string",
            "strength": "integer",
            "against": "integer",
            "survives": "boolean",
        },
        "finish": {"seat": "integer", "space": "string", "facing": "string", "added": "object"},
        "game_over": {
            "seat": "null",
            "winners": "array",
            "draw": "boolean",
            "reason": "string",
            "scores": "array",
            "detail": "object",
        },
        "order": {"seat": "integer", "first": "integer"},
        "pick": {"seat": "integer", "pair": "integer", "tiles": "array"},
        "place": {"seat": "integer", "space": "string", "tile": "integer"},
        "relic": {
            "seat": "integer",
            "space": "string",
            "cost": "integer",
            "paid": "object",
            "drawn": "object",
            "order": "integer",
        },
        "spirit_removed": {"seat": "null", "spirit": "integer"},
        "spirit_track": {"seat": "null", "advance": "integer", "at": "integer"},
        "spirit_transfer": {"seat": "null", "to": "string", "spirit": "integer"},
        "support": {"seat": "integer", "arrows": "integer", "energy": "integer"},
    },
    "maiterra": {
        "bank": {
            "seat": "integer",
            "food": "integer",
            "wood": "integer",
            "brick": "integer",
            "coins": "integer",
        },
        "breach": {"seat": "null", "field": "string"},
        "build_failed": {"seat": "integer", "field": "string", "building": "string"},
        "built": {"seat": "integer", "field": "string", "building": "string"},
        "card": {"seat": "integer", "card": "string", "audience": "array"},
        "cards_drawn": {"seat": "integer", "drawn": "integer", "kept": "integer"},
        "claim_failed": {"seat": "integer", "field": "string"},
        "claimed": {"seat": "integer", "field": "string"},
        "conquest": {
            "seat": "integer",
            "field": "string",
            "from": "integer",
            "razed": "object",
            "fought": "boolean",
        },
        "draft_order": {"seat": "null", "rolls": "array", "order": "array"},
        "draft_stores": {"seat": "integer", "place": "integer", "stores": "object"},
        "drafted": {"seat": "integer", "field": "string"},
        "fight": {
            "seat": "null",
            "field": "string",
            "owner": "integer|null",
            "sides": "array",
            "winner": "array",
            "winner_lost": "object",
        },
        "game_over": {
            "seat": "null",
            "winners": "array",
            "draw": "boolean",
            "reason": "string",
            "scores": "array",
            "detail": "object",
        },
        "house_locked": {"seat": "integer"},
        "house_picked": {"seat": "integer", "house": "string", "audience": "array"},
        "houses": {"seat": "null", "houses": "array"},
        "marched": {"seat": "integer", "from": "string", "to": "string", "units": "array"},
        "order_failed": {"seat": "integer", "order": "string"},
        "orders": {"seat": "integer", "orders": "array"},
        "produced": {
            "seat": "integer",
            "food": "integer",
            "wood": "integer",
            "brick": "integer",
            "coins": "integer",
        },
        "pulled_back": {"seat": "integer", "from": "string", "to": "string", "units": "array"},
        "queued": {"seat": "integer", "order": "string", "queued": "integer", "audience": "array"},
        "resolve": {"seat": "null", "turn": "integer"},
        "road_fight": {
            "seat": "null",
            "edge": "array",
            "sides": "array",
            "winner": "array",
            "winner_lost": "object",
            "loser_lost": "object",
            "step": "integer?",
        },
        "sabotaged": {"seat": "integer", "field": "string"},
        "starvation": {"seat": "integer", "missing": "integer", "killed": "array"},
        "train_failed": {"seat": "integer", "field": "string", "unit": "string"},
        "trained": {"seat": "integer", "field": "string", "unit": "string"},
        "turn": {"seat": "null", "turn": "integer"},
        "taken_back": {
            "seat": "integer",
            "order": "string",
            "queued": "integer",
            "audience": "array",
        },
        "turn_ended": {"seat": "integer"},
    },
    "manafields": {
        "ability": {"seat": "integer", "unit": "integer", "target": "integer", "name": "string"},
        "ability_done": {"seat": "integer"},
        "damage": {"seat": "integer", "unit": "integer", "hp": "integer"},
        "destroyed": {"seat": "integer", "unit": "integer", "square": "string"},
        "explode": {"seat": "integer", "unit": "integer", "square": "string"},
        "faction_ability": {"seat": "integer", "faction": "string"},
        "fight": {
            "seat": "integer",
            "unit": "integer",
            "target": "integer",
            "dice": "integer",
            "auto_sixes": "integer",
            "to_hit": "integer",
            "to_hit_bonus": "integer",
            "hit_rolls": "array",
            "hits": "integer",
            "armour": "integer",
            "break_rolls": "array",
            "broken": "integer",
            "damage_per_die": "integer",
            "damage": "integer",
        },
        "game_over": {
            "seat": "null",
            "winners": "array",
            "draw": "boolean",
            "reason": "string",
            "scores": "array",
            "detail": "object",
        },
        "general_killed": {"seat": "integer", "unit": "integer"},
        "heal": {"seat": "integer", "unit": "integer", "hp": "integer"},
        "impact": {
            "seat": "integer",
            "unit": "integer",
            "target": "integer",
            "damage": "integer",
            "pinned": "boolean",
        },
        "move": {
            "seat": "integer",
            "unit": "integer",
            "from": "string",
            "to": "string",
            "cost": "integer",
        },
        "score": {
            "seat": "integer",
            "objectives": "integer",
            "general": "integer",
            "general_killed": "integer",
            "total": "integer",
            "score": "array",
        },
        "shoot": {
            "seat": "integer",
            "unit": "integer",
            "target": "integer",
            "dice": "integer",
            "auto_sixes": "integer",
            "to_hit": "integer",
            "to_hit_bonus": "integer",
            "hit_rolls": "array",
            "hits": "integer",
            "armour": "integer",
            "break_rolls": "array",
            "broken": "integer",
            "damage_per_die": "integer",
            "damage": "integer",
        },
        "teleport": {"seat": "integer", "unit": "integer", "square": "string"},
        "turn": {"seat": "integer", "turn": "integer", "op": "integer", "healed": "array"},
        "zombie": {"seat": "integer", "unit": "integer", "square": "string"},
    },
}
"""Per game, per event kind: each field's JSON type (``kind`` is every event's)."""


def _field(spec: str) -> tuple[dict[str, Any], bool]:
    """A field's JSON Schema and whether it is always there."""
    types = spec.rstrip("?").split("|")
    return {"type": types[0] if len(types) == 1 else types}, not spec.endswith("?")


def event_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of one event of ``game`` (a game's name, without its version)."""
    kinds = []
    for kind, fields in sorted(EVENTS[game].items()):
        properties: dict[str, Any] = {"kind": {"const": kind}}
        required = ["kind"]
        for name, spec in fields.items():
            properties[name], always = _field(spec)
            if always:
                required.append(name)
        kinds.append(
            {
                "title": kind,
                "type": "object",
                "properties": properties,
                "required": required,
                "additionalProperties": False,
            }
        )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{game} event",
        "description": "One event of an update's or a missed update's events (docs/protocol.md).",
        "oneOf": kinds,
    }
