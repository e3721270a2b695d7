"""Every kind of event each game sends in ``update`` and ``snapshot.missed``, with its fields.

An event is one JSON object: ``kind``, ``seat`` (the seat it concerns; ``null`` for the
table), the kind's own fields, and ``audience`` on a sealed event (the seats that may see
it; no one else receives it). :data:`EVENTS` lists, per game, each kind's meaning in a line
and its fields as JSON types; ``a|b`` is either, and a trailing ``?`` marks a field that is
not always there. The
engine's events are checked against it (tests/server/test_protocol_schema.py plays random
matches of every game and version), and :func:`event_schema` gives it as JSON Schema
(docs/schemas/events-<game>.json) and :func:`events_markdown` as docs/protocol.md's tables.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Kind(NamedTuple):
    """One kind of event: what it means, in a line, and its fields."""

    meaning: str
    fields: dict[str, str]
    """Each field's JSON type (``kind`` is every event's)."""


GAME_OVER = Kind(
    "The match is over: the outcome's fields (winners, draw, reason, scores, detail).",
    {
        "seat": "null",
        "winners": "array",
        "draw": "boolean",
        "reason": "string",
        "scores": "array",
        "detail": "object",
    },
)

EVENTS: dict[str, dict[str, Kind]] = {
    "maatatahay": {
        "collect": Kind(
            "A seat puts the Energy and Spirit crystals it picks up into its storage.",
            {"seat": "integer", "energy": "integer", "spirit": "integer"},
        ),
        "death": Kind(
            "A seat's warrior on a space dies and is turned face down.",
            {"seat": "integer", "space": "string"},
        ),
        "fight": Kind(
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
        "finish": Kind(
            "A seat turns its placed warrior to face a direction; added: the crystals put on it.",
            {"seat": "integer", "space": "string", "facing": "string", "added": "object"},
        ),
        "game_over": GAME_OVER,
        "order": Kind(
            "Who places first this round: first is that seat.",
            {"seat": "integer", "first": "integer"},
        ),
        "pick": Kind(
            "A seat picks a pair of tiles (pair: its number); tiles: the Balan's and the Wazu's.",
            {"seat": "integer", "pair": "integer", "tiles": "array"},
        ),
        "place": Kind(
            "A seat places a tile (its id) on a space.",
            {"seat": "integer", "space": "string", "tile": "integer"},
        ),
        "relic": Kind(
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
        "spirit_removed": Kind(
            "Spirit crystals of the dead leave the game.",
            {"seat": "null", "spirit": "integer"},
        ),
        "spirit_track": Kind(
            "The Spirit track advances (advance steps) and stands at at.",
            {"seat": "null", "advance": "integer", "at": "integer"},
        ),
        "spirit_transfer": Kind(
            "Spirit crystals of the dead go to the warrior on the space to.",
            {"seat": "null", "to": "string", "spirit": "integer"},
        ),
        "support": Kind(
            "Support arrows (arrows) give the seat's warrior Energy.",
            {"seat": "integer", "arrows": "integer", "energy": "integer"},
        ),
    },
    "maiterra": {
        "bank": Kind(
            "A seat gets resources and coins from the bank.",
            {
                "seat": "integer",
                "food": "integer",
                "wood": "integer",
                "brick": "integer",
                "coins": "integer",
            },
        ),
        "breach": Kind(
            "The wall on a field is broken.",
            {"seat": "null", "field": "string"},
        ),
        "build_failed": Kind(
            "A seat's building on a field was not built; what it cost is refunded.",
            {"seat": "integer", "field": "string", "building": "string"},
        ),
        "built": Kind(
            "A seat built a building on a field.",
            {"seat": "integer", "field": "string", "building": "string"},
        ),
        "card": Kind(
            "The card a seat drew (sealed: that seat alone sees it).",
            {"seat": "integer", "card": "string", "audience": "array"},
        ),
        "cards_drawn": Kind(
            "A seat drew cards (drawn) and kept some (kept).",
            {"seat": "integer", "drawn": "integer", "kept": "integer"},
        ),
        "claim_failed": Kind(
            "A seat's claim on a field failed; the wood and coin are refunded.",
            {"seat": "integer", "field": "string"},
        ),
        "claimed": Kind(
            "A seat claimed a field.",
            {"seat": "integer", "field": "string"},
        ),
        "conquest": Kind(
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
        "draft_order": Kind(
            "The draft's dice: each seat's roll and the order in which seats pick fields.",
            {"seat": "null", "rolls": "array", "order": "array"},
        ),
        "draft_stores": Kind(
            "A seat gets its starting stores for its place in the draft order.",
            {"seat": "integer", "place": "integer", "stores": "object"},
        ),
        "drafted": Kind(
            "A seat drafted a field.",
            {"seat": "integer", "field": "string"},
        ),
        "fight": Kind(
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
        "house_locked": Kind(
            "A seat locked in its house (which one stays hidden until all are locked).",
            {"seat": "integer"},
        ),
        "house_picked": Kind(
            "The house a seat chose (sealed: that seat alone sees it).",
            {"seat": "integer", "house": "string", "audience": "array"},
        ),
        "houses": Kind(
            "Every seat's house, once all are locked, in seat order.",
            {"seat": "null", "houses": "array"},
        ),
        "marched": Kind(
            "A seat's units marched from one field to another.",
            {"seat": "integer", "from": "string", "to": "string", "units": "array"},
        ),
        "order_failed": Kind(
            "A seat could not pay for a queued order, which does nothing.",
            {"seat": "integer", "order": "string"},
        ),
        "orders": Kind(
            "The orders a seat handed in this turn, revealed as the turn resolves.",
            {"seat": "integer", "orders": "array"},
        ),
        "produced": Kind(
            "What a seat's fields produced: resources and coins.",
            {
                "seat": "integer",
                "food": "integer",
                "wood": "integer",
                "brick": "integer",
                "coins": "integer",
            },
        ),
        "pulled_back": Kind(
            "A seat's units pulled back from a field to another.",
            {"seat": "integer", "from": "string", "to": "string", "units": "array"},
        ),
        "queued": Kind(
            "A seat queued an order (queued: its orders so far); sealed: that seat alone sees it.",
            {"seat": "integer", "order": "string", "queued": "integer", "audience": "array"},
        ),
        "resolve": Kind(
            "The turn's orders resolve, all seats' at once.",
            {"seat": "null", "turn": "integer"},
        ),
        "road_fight": Kind(
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
        "sabotaged": Kind(
            "A seat's buildings on a field were sabotaged and made nothing.",
            {"seat": "integer", "field": "string"},
        ),
        "starvation": Kind(
            "A seat was short of food (missing) and lost units (killed).",
            {"seat": "integer", "missing": "integer", "killed": "array"},
        ),
        "train_failed": Kind(
            "A seat's unit on a field was not trained; what it cost is refunded.",
            {"seat": "integer", "field": "string", "unit": "string"},
        ),
        "trained": Kind(
            "A seat trained a unit on a field.",
            {"seat": "integer", "field": "string", "unit": "string"},
        ),
        "turn": Kind(
            "A turn begins: every seat plans its orders at once.",
            {"seat": "null", "turn": "integer"},
        ),
        "taken_back": Kind(
            "A seat took back its last queued order (queued: its orders left); sealed: that seat "
            "alone sees it.",
            {"seat": "integer", "order": "string", "queued": "integer", "audience": "array"},
        ),
        "turn_ended": Kind(
            "A seat ended its turn: its orders are handed in.",
            {"seat": "integer"},
        ),
    },
    "manafields": {
        "ability": Kind(
            "A seat's unit uses its Heroic Ability (name) on a target unit.",
            {"seat": "integer", "unit": "integer", "target": "integer", "name": "string"},
        ),
        "ability_done": Kind(
            "A seat stops picking units for its ability.",
            {"seat": "integer"},
        ),
        "damage": Kind(
            "A seat's unit is down to hp HP.",
            {"seat": "integer", "unit": "integer", "hp": "integer"},
        ),
        "destroyed": Kind(
            "A seat's unit is destroyed on a square.",
            {"seat": "integer", "unit": "integer", "square": "string"},
        ),
        "explode": Kind(
            "A seat's unit blows up on a square.",
            {"seat": "integer", "unit": "integer", "square": "string"},
        ),
        "faction_ability": Kind(
            "A seat uses its faction's Faction Ability (5 Morale).",
            {"seat": "integer", "faction": "string"},
        ),
        "fight": Kind(
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
        "general_killed": Kind(
            "A seat's General has fallen: 6 points to the other seat.",
            {"seat": "integer", "unit": "integer"},
        ),
        "heal": Kind(
            "A seat's unit is healed to hp HP.",
            {"seat": "integer", "unit": "integer", "hp": "integer"},
        ),
        "impact": Kind(
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
        "move": Kind(
            "A seat's unit moves from one square to another for cost OP (order points).",
            {
                "seat": "integer",
                "unit": "integer",
                "from": "string",
                "to": "string",
                "cost": "integer",
            },
        ),
        "score": Kind(
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
        "shoot": Kind(
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
        "teleport": Kind(
            "A seat's unit teleports to a square.",
            {"seat": "integer", "unit": "integer", "square": "string"},
        ),
        "turn": Kind(
            "A seat's turn begins with op order points; healed: the units healed on objectives "
            "(+1 HP).",
            {"seat": "integer", "turn": "integer", "op": "integer", "healed": "array"},
        ),
        "zombie": Kind(
            "A destroyed unit rises on a square as the seat's Zombie.",
            {"seat": "integer", "unit": "integer", "square": "string"},
        ),
    },
}
"""Per game, per event kind: its meaning and its fields."""


def _field(spec: str) -> tuple[dict[str, Any], bool]:
    """A field's JSON Schema and whether it is always there."""
    types = spec.rstrip("?").split("|")
    return {"type": types[0] if len(types) == 1 else types}, not spec.endswith("?")


def event_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of one event of ``game`` (a game's name, without its version)."""
    kinds = []
    for kind, (meaning, fields) in sorted(EVENTS[game].items()):
        properties: dict[str, Any] = {"kind": {"const": kind}}
        required = ["kind"]
        for name, spec in fields.items():
            properties[name], always = _field(spec)
            if always:
                required.append(name)
        kinds.append(
            {
                "title": kind,
                "description": meaning,
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


def events_markdown() -> str:
    """Every game's event kinds as docs/protocol.md lists them: a table per game, each kind
    with its fields (``seat`` and ``audience`` included where the kind has them) and its
    meaning. ``meeple schemas`` writes it into the page; a test fails when the page differs."""
    parts = []
    for game in sorted(EVENTS):
        rows = [
            f"#### {game.capitalize()}",
            "",
            "| kind | fields | what it means |",
            "|---|---|---|",
        ]
        for kind, (meaning, fields) in sorted(EVENTS[game].items()):
            listed = ", ".join(f"`{name}` {_words(spec)}" for name, spec in fields.items())
            rows.append(f"| `{kind}` | {listed} | {meaning} |")
        parts.append("\n".join(rows))
    return "\n\n".join(parts) + "\n"


def _words(spec: str) -> str:
    """A field's type as the table reads it: ``integer``, ``integer or null``, ``array, if any``."""
    words = " or ".join(spec.rstrip("?").split("|"))
    return f"{words}, if any" if spec.endswith("?") else words
