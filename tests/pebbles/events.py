"""Every kind of event Pebbles' transitions make, with its meaning and fields: the kit's
``events`` part."""

from __future__ import annotations

from meeple.core.events import EventCatalogue, EventKind

EVENTS: EventCatalogue = {
    "took": EventKind(
        "A seat took pebbles from the pile; left: the pebbles still on it.",
        {"seat": "integer", "pebbles": "integer", "left": "integer"},
    ),
}
"""Per event kind: its meaning and its fields."""
