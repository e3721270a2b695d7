"""The published message schemas: JSON Schema generated from the pydantic models.

``meeple schemas`` writes them into docs/schemas/ (``--check`` only says which differ):

- ``client-messages.json``: every WebSocket message a client sends (``action``, ``resume``,
  ``ping``);
- ``server-messages.json``: every frame the server sends on a match socket (``snapshot``,
  ``update``, ``error``, ``pong``, ``clock``, ``presence``);
- ``events-<game>.json``: every event kind of each of the project's games, with its fields;
- ``openapi.json``: the REST routes with their request and answer bodies (what the server
  serves at ``/openapi.json``).

and the event tables of docs/protocol.md (both from each game's kit, through
:mod:`meeple.server.live.events`).
tests/server/test_protocol_schema.py fails when the committed files differ from these.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from meeple.server.http.app import create_app
from meeple.server.live.events import event_schema, events_markdown, published
from meeple.server.live.protocol import ClientMessage, ServerMessage
from meeple.server.settings import Settings

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _messages(union: Any, title: str, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = TypeAdapter(union).json_schema()
    return {"$schema": DIALECT, "title": title, "description": description, **schema}


def schemas() -> dict[str, dict[str, Any]]:
    """Every published schema, by file name."""
    found = {
        "client-messages.json": _messages(
            ClientMessage,
            "Client message",
            "One frame a client sends on /ws/matches/{id} (docs/protocol.md).",
        ),
        "server-messages.json": _messages(
            ServerMessage,
            "Server message",
            "One frame the server sends on /ws/matches/{id} (docs/protocol.md).",
        ),
    }
    for game in published():
        found[f"events-{game}.json"] = event_schema(game)
    found["openapi.json"] = create_app(Settings()).openapi()
    return found


def text(schema: dict[str, Any]) -> str:
    """A schema file's text: stable key order as generated, two-space indents."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


EVENTS_START = "<!-- The event kinds: written by `meeple schemas` from each game's kit -->"
EVENTS_END = "<!-- End of the event kinds -->"


def protocol_page(page: str) -> str:
    """docs/protocol.md's text with its event tables (between the two markers) as the
    catalogue gives them.

    Raises:
        ValueError: the page lacks the markers.
    """
    head, found, rest = page.partition(EVENTS_START + "\n")
    _tables, ended, tail = rest.partition(EVENTS_END)
    if not found or not ended:
        raise ValueError(f"docs/protocol.md has no {EVENTS_START!r} ... {EVENTS_END!r}")
    return f"{head}{EVENTS_START}\n\n{events_markdown()}\n{EVENTS_END}{tail}"


def files(docs: Path) -> dict[Path, str]:
    """Every generated file under ``docs`` (the docs folder) with the text it should hold:
    ``schemas/*.json`` and ``protocol.md`` (its event tables)."""
    wanted = {docs / "schemas" / name: text(schema) for name, schema in schemas().items()}
    page = docs / "protocol.md"
    wanted[page] = protocol_page(page.read_text(encoding="utf-8"))
    return wanted


def stale(docs: Path) -> list[Path]:
    """The generated files under ``docs`` that differ from what the models give, are missing,
    or are left over (a schema file no model writes)."""
    wanted = files(docs)
    differ = [
        path
        for path, body in wanted.items()
        if not path.exists() or path.read_text(encoding="utf-8") != body
    ]
    extra = [path for path in sorted((docs / "schemas").glob("*.json")) if path not in wanted]
    return differ + extra


def write(docs: Path) -> list[Path]:
    """Write every generated file under ``docs`` that differs, and remove schema files no
    model writes; returns the files changed."""
    changed = stale(docs)
    (docs / "schemas").mkdir(parents=True, exist_ok=True)
    wanted = files(docs)
    for path in changed:
        if path in wanted:
            path.write_text(wanted[path], encoding="utf-8")
        else:
            path.unlink()
    return changed
