"""Bots by name, so the CLI, the server and self-play can ask for one."""

from __future__ import annotations

from meeple.ai.base import Bot, BotFactory
from meeple.ai.greedy import GreedyBot
from meeple.ai.heuristic import HeuristicBot
from meeple.ai.levels import LEVELS
from meeple.ai.random_bot import RandomBot
from meeple.games.maiterra.bots import MaiterraHeuristic

_BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "maiterra-heuristic": lambda seed: HeuristicBot(
        seed, "maiterra-heuristic", MaiterraHeuristic()
    ),
}
_BOTS.update({lvl.bot_name: lvl.make for lvl in LEVELS.values()})

BOT_NAMES: tuple[str, ...] = tuple(_BOTS)
"""The names :func:`make_bot` accepts: random, greedy and the MCTS levels."""


def make_bot(name: str, seed: int) -> Bot:
    """A new bot called ``name``, seeded with ``seed``.

    Raises:
        ValueError: for an unknown name, listing the known ones.
    """
    factory = _BOTS.get(name)
    if factory is None:
        raise ValueError(f"no bot {name!r}; known: {', '.join(_BOTS)}")
    return factory(seed)
