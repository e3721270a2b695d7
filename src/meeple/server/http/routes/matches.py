"""Matches over REST: create a solo match, look one up, list mine, download the record."""

from __future__ import annotations

import asyncio
import weakref
from typing import Annotated, Any

from fastapi import APIRouter, Request, status
from pydantic import BaseModel, ConfigDict, Field

from meeple.core import GameError
from meeple.core.record import MAX_SEED
from meeple.server.http import schemas
from meeple.server.http.deps import (
    AccountDep,
    ServicesDep,
    SoloLimit,
    check_solo_live,
    client_address,
    error,
    solo_made,
)
from meeple.server.live.master import MatchMaster
from meeple.server.modes.daily import DailyError

router = APIRouter(prefix="/api/matches", tags=["matches"])

_making: weakref.WeakValueDictionary[int | str, asyncio.Lock] = weakref.WeakValueDictionary()
"""Per account, while a solo match is made: the count of its matches in play and the new
one are one step, so requests at once cannot pass the quota together (in this worker)."""


class SoloIn(BaseModel):
    """One person against bots. Maiterra teams come as an option: ``{"teams": "1122"}``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=40)]
    seats: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    seat: int = 0
    bots: (
        list[Annotated[str, Field(max_length=40)]] | Annotated[str, Field(max_length=40)] | None
    ) = None
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None


def summary(master: MatchMaster, you: int | None = None) -> dict[str, Any]:
    """A match as the lobby shows it (no view: that comes over the WebSocket)."""
    data: dict[str, Any] = {
        "id": master.id,
        "game": master.game.id,
        "seats": master.game.seats,
        "options": dict(master.game.options),
        "mode": master.match.mode,
        "players": [player.model_dump() for player in master.players()],
        "status": "over" if master.over else "playing",
        # The spectators' version: a seat's sealed orders (Maiterra) leave it as it was.
        "version": master.public_version,
        "deciding": list(master.state.deciding_seats()),
        "socket": f"/ws/matches/{master.id}",
    }
    if you is not None:
        data["seat"] = you
    outcome = master.state.outcome()
    if outcome is not None:
        data["outcome"] = outcome.to_json()
    return data


@router.post(
    "/solo",
    status_code=status.HTTP_201_CREATED,
    dependencies=[SoloLimit],
    response_model=schemas.MatchSummary,
    response_model_exclude_unset=True,
)
async def create_solo(
    body: SoloIn, request: Request, account: AccountDep, services: ServicesDep
) -> dict[str, Any]:
    """A match with the caller at ``seat`` and bots of the chosen levels in the other seats.
    So many in play at once (``429 match/too_many``) and a minute (``429 rate/limited``) per
    account and client address; none while the bot queue is full (``503 bots/busy``)."""
    address = client_address(request)
    # One at a time per account and per address: requests at once would pass the count together.
    making, making_here = _making.get(account.id), _making.get(address)
    if making is None:
        making = _making[account.id] = asyncio.Lock()
    if making_here is None:
        making_here = _making[address] = asyncio.Lock()
    try:
        async with making, making_here:
            await check_solo_live(services, account, address)
            master = await services.matches.create_solo(
                account,
                body.game,
                seats=body.seats,
                options=body.options,
                seat=body.seat,
                bots=body.bots,
                seed=body.seed,
            )
            solo_made(address, master.id)
    except GameError as refused:
        raise error(status.HTTP_422_UNPROCESSABLE_CONTENT, refused.code, str(refused)) from None
    except ValueError as refused:
        raise error(status.HTTP_422_UNPROCESSABLE_CONTENT, "match/invalid", str(refused)) from None
    return summary(master, body.seat)


@router.get(
    "",
    response_model=list[schemas.MatchSummary],
    response_model_exclude_unset=True,
)
async def my_matches(account: AccountDep, services: ServicesDep) -> list[dict[str, Any]]:
    """The caller's matches and rooms, newest first: each with its seat, its kind of table
    (``mode``) and, while it is played, whether it is the caller's turn (the "your turn" list
    of matches over days). Finished matches and waiting rooms come as a line each, without
    loading them; a finished one says how it ended for the caller (``result``: ``won``,
    ``lost`` or ``drew``)."""
    found = []
    for line in await services.store.matches_of(account.id):
        if line.status == "playing":
            master = await services.matches.get(line.id)
            if master is not None:
                data = summary(master, line.seat)
                data["your_turn"] = line.seat in master.state.deciding_seats()
                found.append(data)
                continue
        data = {
            "id": line.id,
            "game": line.game_id,
            "status": line.status,
            "seat": line.seat,
            "mode": line.mode,
            "your_turn": False,
        }
        if line.outcome is not None:
            data["result"] = result_for(line.outcome, line.seat)
        found.append(data)
    return found


def result_for(outcome: dict[str, Any], seat: int) -> str:
    """How a finished match ended for a seat: ``won``, ``lost`` or ``drew``."""
    if outcome.get("draw"):
        return "drew"
    return "won" if seat in (outcome.get("winners") or []) else "lost"


async def _find(services: ServicesDep, match_id: str) -> MatchMaster:
    master = await services.matches.get(match_id)
    if master is None:
        raise error(status.HTTP_404_NOT_FOUND, "match/unknown", f"no match {match_id[:40]!r}")
    return master


@router.get(
    "/{match_id}",
    response_model=schemas.MatchSummary,
    response_model_exclude_unset=True,
)
async def get_match(match_id: str, services: ServicesDep) -> dict[str, Any]:
    return summary(await _find(services, match_id))


@router.get(
    "/{match_id}/record",
    response_model=schemas.RecordBody,
    response_model_exclude_unset=True,
)
async def record(match_id: str, services: ServicesDep) -> dict[str, Any]:
    """The match record for ``meeple replay`` -- once the match is over.

    The record holds the seed, which decides every hidden and random thing, so it is not
    given out while the match is being played.
    """
    master = await _find(services, match_id)
    if not master.over:
        raise error(
            status.HTTP_409_CONFLICT,
            "match/not_over",
            "the record (with its seed) is given out when the match is over",
        )
    try:  # today's Daily attempts: not even to their player (the seed is the day's)
        await services.daily.check_shown(master.match, None, record=True)
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
    data: dict[str, Any] = master.match.record().to_json()
    return data
