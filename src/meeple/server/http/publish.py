"""The published message schemas: JSON Schema generated from the pydantic models.

``python -m meeple.server.http.publish [FOLDER]`` (``scripts/schemas``) writes into
docs/schemas/:

- ``client-messages.json``: every WebSocket message a client sends (``action``, ``resume``,
  ``ping``);
- ``server-messages.json``: every frame the server sends on a match socket (``snapshot``,
  ``update``, ``error``, ``pong``, ``clock``, ``presence``);
- ``events-<game>.json``: every event kind of each game, with its fields;
- ``openapi.json``: the REST routes with their request and answer bodies (what the server
  serves at ``/openapi.json``).

tests/server/test_protocol_schema.py fails when the committed files differ from these.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from meeple.server.http.app import create_app
from meeple.server.live.events import EVENTS, event_schema
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
    for game in sorted(EVENTS):
        found[f"events-{game}.json"] = event_schema(game)
    found["openapi.json"] = create_app(Settings()).openapi()
    return found


def text(schema: dict[str, Any]) -> str:
    """A schema file's text: stable key order as generated, two-space indents."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def write(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in schemas().items():
        path = folder / name
        path.write_text(text(schema), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path("docs/schemas")
    for path in write(folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
