"""Ranked matches over REST: queue, leave the queue, where I stand, the leaderboard, and an
account's ratings with their history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, status
from pydantic import BaseModel, ConfigDict, Field

from meeple.server.http import schemas
from meeple.server.http.deps import AccountDep, ServicesDep, error
from meeple.server.modes.ranked import DEFAULT_WAIT, MAX_WAIT, RankedError

router = APIRouter(tags=["ranked"])

AccountId = Annotated[int, Path(ge=1, le=2**31 - 1)]
"""An account's id as the database holds it (a 32-bit integer on PostgreSQL): a number past
that is refused as ``request/invalid`` rather than reaching the database."""


class QueueIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=40)]
    seats: int = 2
    options: dict[str, Any] = Field(default_factory=dict)
    faction: str | None = Field(
        default=None,
        max_length=20,
        description="the faction you play, in a game whose seats each play one; none: drawn",
    )
    wait: float = Field(
        default=DEFAULT_WAIT, gt=0, le=MAX_WAIT, description="seconds before the ticket times out"
    )


@router.post(
    "/api/ranked/queue",
    status_code=status.HTTP_201_CREATED,
    response_model=schemas.RankedTicket,
    response_model_exclude_unset=True,
)
async def queue(body: QueueIn, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Queue for a ranked match; the answer is where the caller stands (maybe matched)."""
    try:
        return await services.ranked.join(
            account, body.game, body.seats, body.options, body.wait, faction=body.faction
        )
    except RankedError as refused:
        raise error(refused.status, refused.code, refused.message) from None


@router.delete(
    "/api/ranked/queue",
    response_model=schemas.Left,
    response_model_exclude_unset=True,
)
async def leave(account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Leave the queue."""
    return {"left": await services.ranked.leave(account)}


@router.get(
    "/api/ranked/queue",
    response_model=schemas.RankedTicket,
    response_model_exclude_unset=True,
)
async def where(account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """``queued`` (waited, range), ``matched`` (the match and seat), ``timeout`` or ``none``."""
    return await services.ranked.status(account)


@router.get(
    "/api/ranked/leaderboard",
    response_model=list[schemas.Rating],
    response_model_exclude_unset=True,
)
async def leaderboard(
    services: ServicesDep,
    game: Annotated[str, Query(max_length=40)],
    seats: Annotated[int, Query(ge=1, le=64)] = 2,
) -> list[dict[str, Any]]:
    """The ratings of one game and seat count, established ones first, by ordinal."""
    return await services.ranked.leaderboard(game, seats)


@router.get(
    "/api/accounts/{account_id}/ratings",
    response_model=schemas.Ratings,
    response_model_exclude_unset=True,
)
async def ratings(account_id: AccountId, services: ServicesDep) -> dict[str, Any]:
    """An account's ranked ratings per game and seat count, and its rating history."""
    return await services.ranked.ratings_of(account_id)
