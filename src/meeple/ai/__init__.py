"""Bots: pure, synchronous players that choose an action for a seat.

Every bot is built from a seed and is deterministic for that seed and the same sequence of
calls. Bots do no I/O and read no clock; a time budget, where one is wanted, is the caller's
business (the server runs search off its event loop behind one runner).
"""

from meeple.ai.base import Bot, BotFactory
from meeple.ai.greedy import GreedyBot
from meeple.ai.random_bot import RandomBot
from meeple.ai.registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "BotFactory", "GreedyBot", "RandomBot", "make_bot"]
