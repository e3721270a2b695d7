"""The games this server hosts and the bots it can seat."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from meeple.ai import BOT_NAMES, LEVELS
from meeple.core import registered
from meeple.server.live.bots import default_bot

router = APIRouter(prefix="/api", tags=["games"])


@router.get("/games")
async def games() -> list[dict[str, Any]]:
    """Every registered game's info: id, seats, options."""
    return [info.to_json() for info in registered()]


@router.get("/bots")
async def bots() -> dict[str, Any]:
    """The bot names a match may seat, the one a seat gets unless told, and the search levels
    among them."""
    return {
        "bots": list(BOT_NAMES),
        "default": default_bot(),
        "levels": [
            {
                "bot": level.bot_name,
                "iterations": level.iterations,
                "description": level.description,
            }
            for level in LEVELS.values()
        ],
    }
