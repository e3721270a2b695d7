"""The games this server hosts and the bots it can seat."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from meeple.ai import BOT_NAMES, LEVELS
from meeple.core import registered
from meeple.server.http import schemas
from meeple.server.live.bots import default_bot

router = APIRouter(prefix="/api", tags=["games"])


@router.get(
    "/games",
    response_model=list[schemas.GameSummary],
    response_model_exclude_unset=True,
)
async def games() -> list[dict[str, Any]]:
    """Every registered game's info: id, seats, options."""
    return [info.to_json() for info in registered()]


LADDER: tuple[tuple[str, str, str], ...] = (
    ("random", "Beginner", "random moves"),
    ("greedy", "Easy", "greedy: the order that looks best now"),
    ("mcts-easy", "Fair", "a short look ahead"),
    ("heuristic", "Medium", "the game's own rules of thumb"),
    ("mcts-normal", "Strong", "searches 200 lines a decision"),
    ("mcts-hard", "Hard", "searches every decision in depth"),
    ("mcts-expert", "Expert", "the strongest; about a second a move"),
)
"""The bots a form offers, weakest first, each with its strength in a word and a line on how
it plays: the order measured in docs/ai.md, "The ladder" (random < greedy < mcts-easy <
heuristic < mcts-normal < mcts-hard < mcts-expert). The same names play every game, each
through that game's own knowledge; the earlier names of a game's heuristic bot (its kit's
``heuristic_aliases``) stay accepted but are not offered."""

FIRST_MATCH = "greedy"
"""The level a solo form starts at: an easy one, which a newcomer can beat in a first match
(the default ``heuristic`` won 14-0 against one in four rounds of Manafields)."""


@router.get(
    "/bots",
    response_model=schemas.Bots,
    response_model_exclude_unset=True,
)
async def bots() -> dict[str, Any]:
    """The bot names a match may seat, the one a seat gets unless told, the search levels
    among them, and ``ladder``: the bots a form offers, weakest first, with their strength
    (``label``) and how they play (``plays``); ``first_match`` is the one a solo form starts
    at."""
    return {
        "bots": list(BOT_NAMES),
        "default": default_bot(),
        "ladder": [{"bot": bot, "label": label, "plays": plays} for bot, label, plays in LADDER],
        "first_match": FIRST_MATCH,
        "levels": [
            {
                "bot": level.bot_name,
                "iterations": level.iterations,
                "description": level.description,
            }
            for level in LEVELS.values()
        ],
    }
