"""The Daily over REST: the day's challenge, starting an attempt, the day's leaderboard."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, status
from pydantic import BaseModel, ConfigDict

from meeple.server.http.deps import AccountDep, MaybeAccountDep, ServicesDep, error
from meeple.server.http.routes.matches import summary
from meeple.server.modes.daily import DailyError, parse_day

router = APIRouter(prefix="/api/daily", tags=["daily"])

DateQuery = Annotated[str | None, Query(max_length=10, description="YYYY-MM-DD; today if none")]


class AttemptIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    practice: bool = False


@router.get("/{game}")
async def challenge(
    game: str, account: MaybeAccountDep, services: ServicesDep, date: DateQuery = None
) -> dict[str, Any]:
    """The day's challenge (seats, options, the bots' level; its seed once the day is over)
    and the caller's streak."""
    try:
        data = await services.daily.challenge(game, parse_day(date))
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
    if account is not None:
        data["streak"] = await services.daily.streak(account.id)
    return data


@router.post("/{game}", status_code=status.HTTP_201_CREATED)
async def attempt(
    game: str,
    account: AccountDep,
    services: ServicesDep,
    body: AttemptIn | None = None,
    date: DateQuery = None,
) -> dict[str, Any]:
    """Start an attempt: today's is scored once; practice and past days are unscored."""
    try:
        day = parse_day(date)
        master, scored = await services.daily.start(
            account, game, day, practice=body is not None and body.practice
        )
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
    data = summary(master, 0)
    data["daily"] = {**await services.daily.challenge(game, day), "scored": scored}
    return data


@router.get("/{game}/leaderboard")
async def leaderboard(
    game: str, services: ServicesDep, date: DateQuery = None
) -> list[dict[str, Any]]:
    """The day's finished scored attempts, best first: place, then score, then turns (while
    the day runs, without their matches)."""
    try:
        return await services.daily.leaderboard(game, parse_day(date))
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
