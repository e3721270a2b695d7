"""The Daily over REST: the day's challenge, starting an attempt, the day's leaderboard."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query, status
from pydantic import BaseModel, ConfigDict

from meeple.server.http import schemas
from meeple.server.http.deps import AccountDep, MaybeAccountDep, ServicesDep, error
from meeple.server.http.routes.matches import summary
from meeple.server.modes.daily import DailyError, parse_day

router = APIRouter(prefix="/api/daily", tags=["daily"])

DateQuery = Annotated[str | None, Query(max_length=10, description="YYYY-MM-DD; today if none")]


class AttemptIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    practice: bool = False


@router.get(
    "/{game}",
    response_model=schemas.DailyBody,
    response_model_exclude_unset=True,
)
async def challenge(
    game: str, account: MaybeAccountDep, services: ServicesDep, date: DateQuery = None
) -> dict[str, Any]:
    """The day's challenge (seats, options, the bots' level; its seed once the day is over)
    and, for a signed-in caller, the streak and ``played``: the caller's scored attempt at
    that day's Daily (null if none yet), so a second visit shows the result at once."""
    try:
        day = parse_day(date)
        data = await services.daily.challenge(game, day)
        if account is not None:
            data["streak"] = await services.daily.streak(account.id)
            data["played"] = await _played_by(services, account.id, game, day)
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
    return data


async def _played_by(
    services: ServicesDep, account_id: int, game: str, day: date
) -> dict[str, Any] | None:
    """The account's scored attempt: its match, and once it is over its rank on the day's
    leaderboard (of how many), its place in the match, whether it won, its score and turns."""
    match = await services.daily.scored_attempt(account_id, game, day)
    if match is None:
        return None
    board = await services.daily.leaderboard(game, day)
    entry = next((e for e in board if e["account"] == account_id), None)
    played: dict[str, Any] = {"match": match, "over": entry is not None, "of": len(board)}
    if entry is not None:
        played.update({key: entry[key] for key in ("rank", "place", "won", "score", "turns")})
    return played


@router.post(
    "/{game}",
    status_code=status.HTTP_201_CREATED,
    response_model=schemas.DailyAttempt,
    response_model_exclude_unset=True,
)
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


@router.get(
    "/{game}/leaderboard",
    response_model=list[schemas.DailyEntry],
    response_model_exclude_unset=True,
)
async def leaderboard(
    game: str, services: ServicesDep, date: DateQuery = None
) -> list[dict[str, Any]]:
    """The day's finished scored attempts, best first: place, then score, then turns (while
    the day runs, without their matches)."""
    try:
        return await services.daily.leaderboard(game, parse_day(date))
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
