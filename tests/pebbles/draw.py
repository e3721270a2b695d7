"""Pebbles in the terminal: the pile as dots."""

from __future__ import annotations

from rich.text import Text

from meeple.core import JSON
from meeple.core.kit import BoardDrawing


def board(view: JSON) -> Text:
    pile = int(view["pile"]) if isinstance(view, dict) else 0
    return Text(f"Pebbles: {'●' * pile} ({pile} left)", style="bold")


DRAWING = BoardDrawing(board)
