"""The registry of games, by stable name and version.

Games register their class here when ``meeple.games`` is imported; records name a game by
``name/version`` so a stored match always finds the rules it was played under.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.errors import UnknownGame
from meeple.core.game import Game, GameInfo

_GAMES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class under its ``name/version`` (usable as a decorator)."""
    info = cls.info
    key = info.id
    existing = _GAMES.get(key)
    if existing is not None and existing is not cls:
        raise RuntimeError(f"two games claim the id {key}: {existing!r} and {cls!r}")
    _GAMES[key] = cls
    return cls


def game_class(game_id: str) -> type[Game]:
    """The class for ``name`` (latest version) or ``name/version``.

    Raises:
        UnknownGame: when nothing is registered under that id.
    """
    if not isinstance(game_id, str):
        raise UnknownGame(f"a game id is a string, got {game_id!r}")
    if "/" in game_id:
        cls = _GAMES.get(game_id)
        if cls is None:
            raise UnknownGame(f"no game {game_id!r}; known: {sorted(_GAMES)}")
        return cls
    versions = [c for c in _GAMES.values() if c.info.name == game_id]
    if not versions:
        raise UnknownGame(f"no game {game_id!r}; known: {sorted(_GAMES)}")
    return max(versions, key=lambda c: c.info.version)


def load_game(
    game_id: str, seats: int | None = None, options: Mapping[str, Any] | None = None
) -> Game:
    """A configured game: ``load_game("maatatahay", seats=2, options={...})``."""
    return game_class(game_id)(seats=seats, options=options)


def registered() -> list[GameInfo]:
    """Every registered game's info, sorted by id."""
    return [_GAMES[key].info for key in sorted(_GAMES)]
