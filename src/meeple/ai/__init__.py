"""Bots: pure, synchronous players that choose an action for a seat.

Every bot is built from a seed and is deterministic for that seed and the same sequence of
calls. Bots do no I/O and read no clock; a time budget, where one is wanted, is the caller's
business (the server runs search off its event loop behind one runner): it passes a
:class:`Budget` whose ``should_stop`` it owns.
"""

from meeple.ai.analysis import Advice, Analysis, analyse
from meeple.ai.base import Bot, BotFactory
from meeple.ai.greedy import GreedyBot
from meeple.ai.heuristic import HeuristicBot
from meeple.ai.levels import LEVELS, Level, level
from meeple.ai.mcts import Mcts, MctsBot, MctsConfig
from meeple.ai.random_bot import RandomBot
from meeple.ai.registry import BOT_NAMES, make_bot
from meeple.ai.rollout import Playout
from meeple.ai.search import ActionStat, Budget, SearchResult

__all__ = [
    "BOT_NAMES",
    "LEVELS",
    "ActionStat",
    "Advice",
    "Analysis",
    "Bot",
    "BotFactory",
    "Budget",
    "GreedyBot",
    "HeuristicBot",
    "Level",
    "Mcts",
    "MctsBot",
    "MctsConfig",
    "Playout",
    "RandomBot",
    "SearchResult",
    "analyse",
    "level",
    "make_bot",
]
