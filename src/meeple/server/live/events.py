"""The games' event catalogues as the protocol publishes them: JSON Schema and tables.

Each game lists every kind of event it sends in ``update`` and ``snapshot.missed`` in its
kit's ``events`` part (:mod:`meeple.core.events`: each kind's meaning in a line and its fields
as JSON types; ``a|b`` is either, and a trailing ``?`` marks a field that is not always there).
This module reads them through :func:`~meeple.core.registry.kit_for`: :func:`event_schema`
gives a game's as JSON Schema (docs/schemas/events-<game>.json) and :func:`events_markdown` the
project's games' (:func:`published`) as docs/protocol.md's tables. The engines' events are
checked against them (tests/server/test_protocol_schema.py plays random matches of every
registered game and version).
"""

from __future__ import annotations

from typing import Any

import meeple.games
from meeple.core.registry import kit_for, registered_kits


def published() -> list[str]:
    """The project's games, by name, sorted: those whose rules live in :mod:`meeple.games`.

    Their catalogues are published; a game registered from elsewhere (a test's toy, a
    plug-in) has a catalogue in its kit all the same, but no file in the project's docs.
    """
    package = f"{meeple.games.__name__}."
    return [kit.name for kit in registered_kits() if kit.games[0].__module__.startswith(package)]


def _field(spec: str) -> tuple[dict[str, Any], bool]:
    """A field's JSON Schema and whether it is always there."""
    types = spec.rstrip("?").split("|")
    return {"type": types[0] if len(types) == 1 else types}, not spec.endswith("?")


def event_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of one event of ``game`` (a registered game's name, without its
    version), from its kit's catalogue.

    Raises:
        UnknownGame: no kit is registered for ``game``.
    """
    kinds = []
    for kind, (meaning, fields) in sorted(kit_for(game).events.items()):
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
    """The event kinds of every game of the project (:func:`published`) as docs/protocol.md
    lists them: a table per game, each kind with its fields (``seat`` and ``audience``
    included where the kind has them) and its meaning. ``meeple schemas`` writes it into the
    page; a test fails when the page differs."""
    parts = []
    for game in published():
        rows = [
            f"#### {game.capitalize()}",
            "",
            "| kind | fields | what it means |",
            "|---|---|---|",
        ]
        for kind, (meaning, fields) in sorted(kit_for(game).events.items()):
            listed = ", ".join(f"`{name}` {_words(spec)}" for name, spec in fields.items())
            rows.append(f"| `{kind}` | {listed} | {meaning} |")
        parts.append("\n".join(rows))
    return "\n\n".join(parts) + "\n"


def _words(spec: str) -> str:
    """A field's type as the table reads it: ``integer``, ``integer or null``, ``array, if any``."""
    words = " or ".join(spec.rstrip("?").split("|"))
    return f"{words}, if any" if spec.endswith("?") else words
