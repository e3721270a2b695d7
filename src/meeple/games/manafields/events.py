"""Every kind of event Manafields's transitions make, with its meaning and fields.

The kit's ``events`` part (:mod:`meeple.core.events` says how a kind is described): the server
publishes it as docs/schemas/events-manafields.json and in docs/protocol.md's tables, and a test
checks the events of random matches against it. A rule that makes a new kind adds it here.
"""

from __future__ import annotations

from meeple.core.events import GAME_OVER, EventCatalogue, EventKind

EVENTS: EventCatalogue = {
    "ability": EventKind(
        "A seat's unit uses its Heroic Ability (name) on a target unit.",
        {"seat": "integer", "unit": "integer", "target": "integer", "name": "string"},
    ),
    "ability_done": EventKind(
        "A seat stops picking units for its ability.",
        {"seat": "integer"},
    ),
    "damage": EventKind(
        "A seat's unit is down to hp HP.",
        {"seat": "integer", "unit": "integer", "hp": "integer"},
    ),
    "destroyed": EventKind(
        "A seat's unit is destroyed on a square.",
        {"seat": "integer", "unit": "integer", "square": "string"},
    ),
    "explode": EventKind(
        "A seat's unit blows up on a square.",
        {"seat": "integer", "unit": "integer", "square": "string"},
    ),
    "faction_ability": EventKind(
        "A seat uses its faction's Faction Ability (5 Morale).",
        {"seat": "integer", "faction": "string"},
    ),
    "fight": EventKind(
        "A seat's unit fights a target in close combat: the dice, the rolls to hit and to "
        "break, and the damage.",
        {
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
    ),
    "game_over": GAME_OVER,
    "general_killed": EventKind(
        "A seat's General has fallen: 6 points to the other seat.",
        {"seat": "integer", "unit": "integer"},
    ),
    "heal": EventKind(
        "A seat's unit is healed to hp HP.",
        {"seat": "integer", "unit": "integer", "hp": "integer"},
    ),
    "impact": EventKind(
        "A seat's unit charges into a target: the damage, and whether it was pinned against "
        "the square behind.",
        {
            "seat": "integer",
            "unit": "integer",
            "target": "integer",
            "damage": "integer",
            "pinned": "boolean",
        },
    ),
    "move": EventKind(
        "A seat's unit moves from one square to another for cost OP (order points).",
        {
            "seat": "integer",
            "unit": "integer",
            "from": "string",
            "to": "string",
            "cost": "integer",
        },
    ),
    "score": EventKind(
        "A seat scores at the end of its turn: for objectives held, its General on one and an "
        "enemy General it killed; total, and score: both seats' scores.",
        {
            "seat": "integer",
            "objectives": "integer",
            "general": "integer",
            "general_killed": "integer",
            "total": "integer",
            "score": "array",
        },
    ),
    "shoot": EventKind(
        "A seat's unit shoots at a target: the dice, the rolls to hit and to break, and the "
        "damage.",
        {
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
    ),
    "teleport": EventKind(
        "A seat's unit teleports to a square.",
        {"seat": "integer", "unit": "integer", "square": "string"},
    ),
    "turn": EventKind(
        "A seat's turn begins with op order points; healed: the units healed on objectives "
        "(+1 HP).",
        {"seat": "integer", "turn": "integer", "op": "integer", "healed": "array"},
    ),
    "zombie": EventKind(
        "A destroyed unit rises on a square as the seat's Zombie.",
        {"seat": "integer", "unit": "integer", "square": "string"},
    ),
}
"""Per event kind: its meaning and its fields."""
