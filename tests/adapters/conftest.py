"""Every registered game and seat count, the toy games included, for the adapter tests."""

from __future__ import annotations

import meeple.games  # noqa: F401  (registers the real games)
import tests.toygames  # noqa: F401  (registers toy_tricks and toy_orders)
from meeple.core import GameInfo, registered


def configurations() -> list[tuple[str, int]]:
    """(game name, seats) for every registered game at every seat count it allows."""
    latest: dict[str, GameInfo] = {}
    for info in registered():
        if info.name not in latest or latest[info.name].version < info.version:
            latest[info.name] = info
    return [
        (info.name, seats)
        for info in sorted(latest.values(), key=lambda i: i.name)
        for seats in range(info.min_seats, info.max_seats + 1)
    ]


CONFIGURATIONS = configurations()
IDS = [f"{name}-{seats}" for name, seats in CONFIGURATIONS]
