"""A seat's view drawn in the terminal by its game's drawing (its kit's ``draw``).

A drawing takes only what :meth:`State.view` returns, so the terminal shows a seat exactly
what the engine lets it see. A view of a game this install does not know (a newer server's)
is shown as pretty JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import rich.json
from rich.console import ConsoleRenderable, RenderableType, RichCast

from meeple.core import UnknownGame, kit_for
from meeple.core.outcome import Event
from meeple.core.types import JSON

Renderer = Callable[[JSON], RenderableType]


def render_json(view: JSON) -> RenderableType:
    """A view of an unknown game: pretty JSON."""
    return rich.json.JSON.from_data(view, indent=2)


def _renderable(drawn: object) -> RenderableType:
    """What a game's drawing made, checked to be something rich can print."""
    if isinstance(drawn, ConsoleRenderable | RichCast | str):
        return drawn
    raise TypeError(f"a drawing returned {type(drawn).__name__}, which rich cannot print")


def renderer_for(game_name: str) -> Renderer:
    """The drawing of a game name or ``name/version``, or :func:`render_json` for a game this
    install does not know."""
    try:
        board = kit_for(game_name).draw.board
    except UnknownGame:
        return render_json
    return lambda view: _renderable(board(view))


def render_view(view: JSON, game_name: str | None = None) -> RenderableType:
    """Render a view; the game is named by ``game_name`` or the view's ``"game"`` field."""
    if game_name is None:
        game_name = str(view.get("game", "")) if isinstance(view, dict) else ""
    return renderer_for(game_name)(view)


def report_events(events: Sequence[Event], game_name: str, view: JSON) -> RenderableType | None:
    """The game's report of ``events`` (None when its drawing tells nothing of them)."""
    report = kit_for(game_name).draw.report(events, view)
    return None if report is None else _renderable(report)


__all__ = ["Renderer", "render_json", "render_view", "renderer_for", "report_events"]
