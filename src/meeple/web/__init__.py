"""The browser client: static files (ES modules, SVG, CSS) that ``meeple serve`` serves at ``/``.

Nothing here runs in Python; the package only says where the files are. The client speaks
the documented REST interface (docs/server.md) and the WebSocket protocol (docs/protocol.md)
and nothing else. No build step: ``static/vendor/preact-htm.js`` is htm's Preact bundle,
vendored unchanged.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""The client's files: ``index.html`` and the modules it imports."""
