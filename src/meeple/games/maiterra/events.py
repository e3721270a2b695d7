"""Every kind of event Maiterra's transitions make, with its meaning and fields.

The kit's ``events`` part (:mod:`meeple.core.events` says how a kind is described): the server
publishes it as docs/schemas/events-maiterra.json and in docs/protocol.md's tables, and a test
checks the events of random matches against it. A rule that makes a new kind adds it here.
"""

from __future__ import annotations

from meeple.core.events import GAME_OVER, EventCatalogue, EventKind

EVENTS: EventCatalogue = {
    "bank": EventKind(
        "A seat gets resources and coins from the bank.",
        {
            "seat": "integer",
            "food": "integer",
            "wood": "integer",
            "brick": "integer",
            "coins": "integer",
        },
    ),
    "breach": EventKind(
        "The wall on a field is broken.",
        {"seat": "null", "field": "string"},
    ),
    "build_failed": EventKind(
        "A seat's building on a field was not built; what it cost is refunded.",
        {"seat": "integer", "field": "string", "building": "string"},
    ),
    "built": EventKind(
        "A seat built a building on a field.",
        {"seat": "integer", "field": "string", "building": "string"},
    ),
    "card": EventKind(
        "The card a seat drew (sealed: that seat alone sees it).",
        {"seat": "integer", "card": "string", "audience": "array"},
    ),
    "cards_drawn": EventKind(
        "A seat drew cards (drawn) and kept some (kept).",
        {"seat": "integer", "drawn": "integer", "kept": "integer"},
    ),
    "claim_failed": EventKind(
        "A seat's claim on a field failed; the wood and coin are refunded.",
        {"seat": "integer", "field": "string"},
    ),
    "claimed": EventKind(
        "A seat claimed a field.",
        {"seat": "integer", "field": "string"},
    ),
    "conquest": EventKind(
        "A seat took a field (from: the seat that held it), razing buildings; fought: whether "
        "a fight came first.",
        {
            "seat": "integer",
            "field": "string",
            "from": "integer",
            "razed": "object",
            "fought": "boolean",
        },
    ),
    "draft_order": EventKind(
        "The draft's dice: each seat's roll and the order in which seats pick fields.",
        {"seat": "null", "rolls": "array", "order": "array"},
    ),
    "draft_stores": EventKind(
        "A seat gets its starting stores for its place in the draft order.",
        {"seat": "integer", "place": "integer", "stores": "object"},
    ),
    "drafted": EventKind(
        "A seat drafted a field.",
        {"seat": "integer", "field": "string"},
    ),
    "fight": EventKind(
        "A fight on a field: the sides, the winners and what the winners lost; owner: the "
        "seat that held the field.",
        {
            "seat": "null",
            "field": "string",
            "owner": "integer|null",
            "sides": "array",
            "winner": "array",
            "winner_lost": "object",
        },
    ),
    "game_over": GAME_OVER,
    "house_locked": EventKind(
        "A seat locked in its house (which one stays hidden until all are locked).",
        {"seat": "integer"},
    ),
    "house_picked": EventKind(
        "The house a seat chose (sealed: that seat alone sees it).",
        {"seat": "integer", "house": "string", "audience": "array"},
    ),
    "houses": EventKind(
        "Every seat's house, once all are locked, in seat order.",
        {"seat": "null", "houses": "array"},
    ),
    "marched": EventKind(
        "A seat's units marched from one field to another.",
        {"seat": "integer", "from": "string", "to": "string", "units": "array"},
    ),
    "order_failed": EventKind(
        "A seat could not pay for a queued order, which does nothing.",
        {"seat": "integer", "order": "string"},
    ),
    "orders": EventKind(
        "The orders a seat handed in this turn, revealed as the turn resolves.",
        {"seat": "integer", "orders": "array"},
    ),
    "produced": EventKind(
        "What a seat's fields produced: resources and coins.",
        {
            "seat": "integer",
            "food": "integer",
            "wood": "integer",
            "brick": "integer",
            "coins": "integer",
        },
    ),
    "pulled_back": EventKind(
        "A seat's units pulled back from a field to another.",
        {"seat": "integer", "from": "string", "to": "string", "units": "array"},
    ),
    "queued": EventKind(
        "A seat queued an order (queued: its orders so far); sealed: that seat alone sees it.",
        {"seat": "integer", "order": "string", "queued": "integer", "audience": "array"},
    ),
    "resolve": EventKind(
        "The turn's orders resolve, all seats' at once.",
        {"seat": "null", "turn": "integer"},
    ),
    "road_fight": EventKind(
        "A fight on the road between two fields (edge): the sides, the winners and what each "
        "side lost.",
        {
            "seat": "null",
            "edge": "array",
            "sides": "array",
            "winner": "array",
            "winner_lost": "object",
            "loser_lost": "object",
            "step": "integer?",
        },
    ),
    "sabotaged": EventKind(
        "A seat's buildings on a field were sabotaged and made nothing.",
        {"seat": "integer", "field": "string"},
    ),
    "starvation": EventKind(
        "A seat was short of food (missing) and lost units (killed).",
        {"seat": "integer", "missing": "integer", "killed": "array"},
    ),
    "train_failed": EventKind(
        "A seat's unit on a field was not trained; what it cost is refunded.",
        {"seat": "integer", "field": "string", "unit": "string"},
    ),
    "trained": EventKind(
        "A seat trained a unit on a field.",
        {"seat": "integer", "field": "string", "unit": "string"},
    ),
    "turn": EventKind(
        "A turn begins: every seat plans its orders at once.",
        {"seat": "null", "turn": "integer"},
    ),
    "taken_back": EventKind(
        "A seat took back its last queued order (queued: its orders left); sealed: that seat "
        "alone sees it.",
        {"seat": "integer", "order": "string", "queued": "integer", "audience": "array"},
    ),
    "turn_ended": EventKind(
        "A seat ended its turn: its orders are handed in.",
        {"seat": "integer"},
    ),
}
"""Per event kind: its meaning and its fields."""
