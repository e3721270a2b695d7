"""The registry of games, by stable name and version, and of each game's kit.

A game registers its classes and its :class:`~meeple.core.kit.GameKit` once, when
``meeple.games`` is imported (:func:`register_kit`). Records name a game by ``name/version`` so
a stored match always finds the rules it was played under; the id is parsed in one place, into
a :class:`GameId`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from meeple.core.errors import UnknownGame
from meeple.core.game import Game, GameInfo, State
from meeple.core.kit import GameKit

_GAMES: dict[str, type[Game]] = {}
_KITS: dict[str, GameKit] = {}


@dataclass(frozen=True, slots=True)
class GameId:
    """A game's id, parsed: ``name`` alone (the latest version) or ``name/version``."""

    name: str
    version: int | None = None

    @classmethod
    def parse(cls, text: object) -> GameId:
        """``"name"`` -> ``GameId("name")``; ``"name/2"`` -> ``GameId("name", 2)``.

        Raises:
            UnknownGame: for anything else (not a string, an empty name, a version that is not
                a positive whole number), quoting it.
        """
        if not isinstance(text, str):
            raise UnknownGame(f"a game id is a string, got {text!r}")
        name, slash, version = text.partition("/")
        if not name or (slash and not (version.isascii() and version.isdigit())):
            raise UnknownGame(f"{text!r} is not a game id (name or name/version)")
        if not slash:
            return cls(name)
        number = int(version)
        if number < 1:
            raise UnknownGame(f"{text!r} is not a game id: versions count from 1")
        return cls(name, number)

    def __str__(self) -> str:
        return self.name if self.version is None else f"{self.name}/{self.version}"


def register(cls: type[Game]) -> type[Game]:
    """Register a game class under its ``name/version`` (usable as a decorator)."""
    info = cls.info
    key = info.id
    existing = _GAMES.get(key)
    if existing is not None and existing is not cls:
        raise RuntimeError(f"two games claim the id {key}: {existing!r} and {cls!r}")
    _GAMES[key] = cls
    return cls


def register_kit(kit: GameKit) -> GameKit:
    """Register a game's kit and every Game class it holds: a game's one registration."""
    existing = _KITS.get(kit.name)
    if existing is not None and existing != kit:
        raise RuntimeError(f"two kits claim the game {kit.name!r}")
    for cls in kit.games:
        register(cls)
    _KITS[kit.name] = kit
    return kit


def game_class(game_id: str | GameId) -> type[Game]:
    """The class for ``name`` (latest version) or ``name/version``.

    Raises:
        UnknownGame: when nothing is registered under that id.
    """
    parsed = game_id if isinstance(game_id, GameId) else GameId.parse(game_id)
    if parsed.version is not None:
        cls = _GAMES.get(str(parsed))
        if cls is None:
            raise UnknownGame(f"no game {str(parsed)!r}; known: {sorted(_GAMES)}")
        return cls
    versions = [c for c in _GAMES.values() if c.info.name == parsed.name]
    if not versions:
        raise UnknownGame(f"no game {parsed.name!r}; known: {sorted(_GAMES)}")
    return max(versions, key=lambda c: c.info.version)


def kit_for(game: Game | State | GameInfo | GameId | str) -> GameKit:
    """The kit of a game, given the game, one of its states, its info or its id.

    Raises:
        UnknownGame: when the id does not parse or no kit is registered for the game.
    """
    if isinstance(game, State):
        name = game.game.info.name
    elif isinstance(game, Game):
        name = game.info.name
    elif isinstance(game, GameInfo | GameId):
        name = game.name
    else:
        name = GameId.parse(game).name
    kit = _KITS.get(name)
    if kit is None:
        raise UnknownGame(f"no kit registered for the game {name!r}; known: {sorted(_KITS)}")
    return kit


def load_game(
    game_id: str, seats: int | None = None, options: Mapping[str, Any] | None = None
) -> Game:
    """A configured game: ``load_game("name", seats=2, options={...})``."""
    return game_class(game_id)(seats=seats, options=options)


def registered() -> list[GameInfo]:
    """Every registered game's info, sorted by id."""
    return [_GAMES[key].info for key in sorted(_GAMES)]


def registered_kits() -> list[GameKit]:
    """Every registered kit, sorted by game name."""
    return [_KITS[name] for name in sorted(_KITS)]
