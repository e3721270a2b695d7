"""Every kind of event Maatatahay's transitions make, with its meaning and fields.

The kit's ``events`` part (:mod:`meeple.core.events` says how a kind is described): the server
publishes it as docs/schemas/events-maatatahay.json and in docs/protocol.md's tables, and a test
checks the events of random matches against it. A rule that makes a new kind adds it here.
"""

from __future__ import annotations

from meeple.core.events import GAME_OVER, EventCatalogue, EventKind

EVENTS: EventCatalogue = {
    "collect": EventKind(
        "A seat puts the Energy and Spirit crystals it picks up into its storage.",
        {"seat": "integer", "energy": "integer", "spirit": "integer"},
    ),
    "death": EventKind(
        "A seat's warrior on a space dies and is turned face down.",
        {"seat": "integer", "space": "string"},
    ),
    "fight": EventKind(
        "A surrounded warrior of the seat fights: its strength against the attackers', and "
        "whether it survives.",
        {
            "seat": "integer",
            "space": "string",
            "strength": "integer",
            "against": "integer",
            "survives": "boolean",
        },
    ),
    "finish": EventKind(
        "A seat turns its placed warrior to face a direction; added: the crystals put on it.",
        {"seat": "integer", "space": "string", "facing": "string", "added": "object"},
    ),
    "game_over": GAME_OVER,
    "order": EventKind(
        "Who places first this round: first is that seat.",
        {"seat": "integer", "first": "integer"},
    ),
    "pick": EventKind(
        "A seat picks a pair of tiles (pair: its number); tiles: the Balan's and the Wazu's.",
        {"seat": "integer", "pair": "integer", "tiles": "array"},
    ),
    "place": EventKind(
        "A seat places a tile (its id) on a space.",
        {"seat": "integer", "space": "string", "tile": "integer"},
    ),
    "relic": EventKind(
        "A seat takes the Temple Relic on a space: what it cost and paid, the crystals drawn, "
        "and which relic it is in order.",
        {
            "seat": "integer",
            "space": "string",
            "cost": "integer",
            "paid": "object",
            "drawn": "object",
            "order": "integer",
        },
    ),
    "spirit_removed": EventKind(
        "Spirit crystals of the dead leave the game.",
        {"seat": "null", "spirit": "integer"},
    ),
    "spirit_track": EventKind(
        "The Spirit track advances (advance steps) and stands at at.",
        {"seat": "null", "advance": "integer", "at": "integer"},
    ),
    "spirit_transfer": EventKind(
        "Spirit crystals of the dead go to the warrior on the space to.",
        {"seat": "null", "to": "string", "spirit": "integer"},
    ),
    "support": EventKind(
        "Support arrows (arrows) give the seat's warrior Energy.",
        {"seat": "integer", "arrows": "integer", "energy": "integer"},
    ),
}
"""Per event kind: its meaning and its fields."""
