"""Type aliases shared by the protocol."""

from __future__ import annotations

from typing import Any, TypeAlias

Seat: TypeAlias = int
"""A seat number, ``0 .. seats-1``."""

Action: TypeAlias = int
"""A dense action id, ``0 .. num_distinct_actions-1``."""

JSON: TypeAlias = Any
"""A JSON-ready value: dict, list, str, int, float, bool or None."""
