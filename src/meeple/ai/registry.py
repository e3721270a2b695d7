"""Bots by name, so the CLI, the server and self-play can ask for one.

The names are the same for every game: ``random``, ``greedy``, ``heuristic`` (the game's own
rules of thumb, from its kit) and the MCTS levels. A game's kit may keep earlier names of its
heuristic bot (``heuristic_aliases``); they are accepted too.
"""

from __future__ import annotations

import meeple.games  # noqa: F401 (registers the games' kits, whose aliases are bot names)
from meeple.ai.base import Bot, BotFactory
from meeple.ai.greedy import GreedyBot
from meeple.ai.heuristic import HeuristicBot
from meeple.ai.levels import LEVELS
from meeple.ai.random_bot import RandomBot
from meeple.core.kit import HeuristicPolicy
from meeple.core.registry import registered_kits

_BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
}
_BOTS.update({lvl.bot_name: lvl.make for lvl in LEVELS.values()})


def _alias(name: str, policy: HeuristicPolicy) -> BotFactory:
    def make(seed: int) -> Bot:
        return HeuristicBot(seed, name, policy)

    return make


for _kit in registered_kits():
    for _name in _kit.heuristic_aliases:
        if _name in _BOTS:
            raise RuntimeError(f"the kit of {_kit.name!r} reuses the bot name {_name!r}")
        _BOTS[_name] = _alias(_name, _kit.heuristic)

BOT_NAMES: tuple[str, ...] = tuple(_BOTS)
"""The names :func:`make_bot` accepts: random, greedy, heuristic, the MCTS levels and the
games' earlier names of their heuristic bots."""


def make_bot(name: str, seed: int) -> Bot:
    """A new bot called ``name``, seeded with ``seed``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    factory = _BOTS.get(name)
    if factory is None:
        raise ValueError(f"no bot {name!r}; known: {', '.join(_BOTS)}")
    return factory(seed)
