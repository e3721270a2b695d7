"""Terminal renderers of a seat's view, by game name, with a JSON fallback.

A renderer takes only what :meth:`State.view` returns, so the terminal shows a seat exactly
what the engine lets it see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rich.json
from rich.console import RenderableType

from meeple.core.outcome import Event
from meeple.core.types import JSON
from meeple.games.maatatahay.draw import render_maatatahay
from meeple.games.maiterra.draw import render_maiterra, report_maiterra
from meeple.games.manafields.draw import render_manafields

Renderer = Callable[[JSON], RenderableType]
Reporter = Callable[[Sequence[Event], JSON], RenderableType | None]
"""Events a transition made (those the viewer may see) and the viewer's view after it ->
a readable report, or None when there is nothing worth telling."""

_RENDERERS: dict[str, Renderer] = {
    "maatatahay": render_maatatahay,
    "maiterra": render_maiterra,
    "manafields": render_manafields,
}
_REPORTERS: dict[str, Reporter] = {
    "maiterra": report_maiterra,
}


def render_json(view: JSON) -> RenderableType:
    """The fallback: the view as pretty JSON."""
    return rich.json.JSON.from_data(view, indent=2)


def register_renderer(game_name: str, renderer: Renderer) -> Renderer:
    _RENDERERS[game_name] = renderer
    return renderer


def renderer_for(game_name: str) -> Renderer:
    """The renderer for a game name or ``name/version``, or :func:`render_json`."""
    return _RENDERERS.get(game_name.split("/", 1)[0], render_json)


def render_view(view: JSON, game_name: str | None = None) -> RenderableType:
    """Render a view; the game is named by ``game_name`` or the view's ``"game"`` field."""
    if game_name is None:
        game_name = str(view.get("game", "")) if isinstance(view, dict) else ""
    return renderer_for(game_name)(view)


def report_events(events: Sequence[Event], game_name: str, view: JSON) -> RenderableType | None:
    """A game's report of ``events`` (None for a game without a reporter)."""
    reporter = _REPORTERS.get(game_name.split("/", 1)[0])
    return None if reporter is None else reporter(events, view)


__all__ = [
    "Renderer",
    "Reporter",
    "register_renderer",
    "render_json",
    "render_view",
    "renderer_for",
    "report_events",
]
