"""Online custom rooms over REST: open, list, join (from the list or by code), ready, leave,
kick, fill with bots, start. Once started, the room's id is its match's id."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, status
from pydantic import BaseModel, ConfigDict, Field

from meeple.core import GameError
from meeple.server.http import schemas
from meeple.server.http.deps import (
    AccountDep,
    JoinCodeLimit,
    MaybeAccountDep,
    RoomLimit,
    ServicesDep,
    error,
)
from meeple.server.http.routes.matches import summary
from meeple.server.modes.rooms import RoomError, room_json

router = APIRouter(prefix="/api/rooms", tags=["rooms"])

BotNames = list[Annotated[str, Field(max_length=40)]] | Annotated[str, Field(max_length=40)] | None


class RoomIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=40)]
    seats: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    timer: int | None = Field(default=90, description="60, 90 (default) or 120 s; null: off")
    public: bool = True
    mode: Literal["custom", "lan", "days"] = Field(
        default="custom", description="live online, on the Wi-Fi, or over days (no timer)"
    )


class CodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    code: Annotated[str, Field(max_length=12)]


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int | None = None


class ReadyIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    ready: bool = True


class KickIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int


class FillIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    bots: BotNames = None


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    dependencies=[RoomLimit],
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def create_room(body: RoomIn, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Open a room; the caller is its host, at seat 0. The answer holds the private code.
    So many a minute per account and per client address (``429 rate/limited`` past them)."""
    try:
        room = await services.rooms.create(
            account,
            body.game,
            seats=body.seats,
            options=body.options,
            timer=body.timer,
            public=body.public,
            mode=body.mode,
        )
    except GameError as refused:
        raise error(422, refused.code, str(refused)) from None
    return room_json(room, account)


@router.get(
    "",
    response_model=list[schemas.Room],
    response_model_exclude_unset=True,
)
async def list_rooms(services: ServicesDep) -> list[dict[str, Any]]:
    """The listed rooms waiting for players."""
    return [room_json(room) for room in await services.rooms.listed()]


@router.post(
    "/join",
    dependencies=[JoinCodeLimit],
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def join_by_code(body: CodeIn, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Join a room, listed or not, by its private code. So many codes a minute per account
    and per client address (``429 rate/limited``), and a code of a room no longer waiting
    answers ``404 room/unknown`` as an unknown code does, so codes cannot be probed."""
    room = await services.rooms.by_code(body.code)
    if room.status != "waiting":
        raise RoomError(404, "room/unknown", "no room has that code")
    room = await services.rooms.join(account, room.id)
    return room_json(room, account)


@router.get(
    "/{room_id}",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def get_room(room_id: str, account: MaybeAccountDep, services: ServicesDep) -> dict[str, Any]:
    return room_json(await services.rooms.get(room_id), account)


@router.post(
    "/{room_id}/join",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def join(
    room_id: str, body: JoinIn, account: AccountDep, services: ServicesDep
) -> dict[str, Any]:
    """Take a seat (the first open one unless ``seat`` is given) in a listed room."""
    room = await services.rooms.get(room_id)
    if not room.public:
        raise RoomError(403, "room/private", "join this room with its code")
    return room_json(await services.rooms.join(account, room_id, body.seat), account)


@router.post(
    "/{room_id}/ready",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def ready(
    room_id: str, body: ReadyIn, account: AccountDep, services: ServicesDep
) -> dict[str, Any]:
    return room_json(await services.rooms.ready(account, room_id, body.ready), account)


@router.post(
    "/{room_id}/leave",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def leave(room_id: str, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Give up one's seat; the host leaving closes the room."""
    return room_json(await services.rooms.leave(account, room_id), account)


@router.post(
    "/{room_id}/kick",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def kick(
    room_id: str, body: KickIn, account: AccountDep, services: ServicesDep
) -> dict[str, Any]:
    return room_json(await services.rooms.kick(account, room_id, body.seat), account)


@router.post(
    "/{room_id}/bots",
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def fill(
    room_id: str, body: FillIn, account: AccountDep, services: ServicesDep
) -> dict[str, Any]:
    """The host seats bots in every open seat."""
    return room_json(await services.rooms.fill(account, room_id, body.bots), account)


@router.post(
    "/{room_id}/start",
    response_model=schemas.MatchSummary,
    response_model_exclude_unset=True,
)
async def start(room_id: str, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """The host starts the match; the answer is the match with its WebSocket path."""
    master = await services.rooms.start(account, room_id)
    return summary(master, 0)


@router.post(
    "/rematch/{match_id}",
    status_code=status.HTTP_201_CREATED,
    response_model=schemas.Room,
    response_model_exclude_unset=True,
)
async def rematch(match_id: str, account: AccountDep, services: ServicesDep) -> dict[str, Any]:
    """Play the same table again once the match is over (a solo match starts at once; a room
    opens with the same seats and waits for its people to get ready)."""
    room = await services.rooms.rematch(account, match_id)
    return room_json(room, account)
