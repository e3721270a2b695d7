"""A match as a stream of NDJSON lines, for clients that follow rather than talk (matches over
days, bots modelled on lichess's bot API): ``GET /api/matches/{id}/stream``.

The lines are the frames the WebSocket would send to the caller's seat (spectators: the
public view): a snapshot first (with what came after ``?since=N``, N a version of the
caller's audience), then every update, clock and presence frame as it happens. Actions
still go over the WebSocket.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request, status
from fastapi.responses import StreamingResponse

from meeple.core import Seat
from meeple.server.http.deps import MaybeAccountDep, ServicesDep, error
from meeple.server.modes.daily import DailyError

router = APIRouter(prefix="/api/matches", tags=["matches"])

KEEPALIVE_SECONDS = 15.0
"""An empty line this often keeps proxies from closing a quiet stream."""


class StreamConnection:
    """A :class:`~meeple.server.live.master.Connection` that queues frames for a response."""

    def __init__(self, seat: Seat | None) -> None:
        self._seat = seat
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1024)

    @property
    def seat(self) -> Seat | None:
        return self._seat

    async def send(self, text: str) -> None:
        # A reader that stopped reading is dropped rather than let the queue grow.
        self.queue.put_nowait(text)


@router.get("/{match_id}/stream")
async def stream(  # noqa: PLR0917 (FastAPI: one parameter per query field)
    match_id: str,
    request: Request,
    account: MaybeAccountDep,
    services: ServicesDep,
    since: int | None = None,
    watch: bool = False,
) -> StreamingResponse:
    master = await services.matches.get(match_id)
    if master is None:
        raise error(status.HTTP_404_NOT_FOUND, "match/unknown", f"no match {match_id[:40]!r}")
    held = [
        h.seat for h in master.match.holders if account is not None and h.account_id == account.id
    ]
    seat = None if watch or not held else held[0]
    try:  # today's Daily attempts are watched by their player alone
        await services.daily.check_shown(master.match, account, seat)
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None
    if since is not None and not 0 <= since <= master.version_of(seat):
        since = None
    connection = StreamConnection(seat)

    async def lines() -> AsyncIterator[str]:
        await master.attach(connection, since)
        try:
            while not await request.is_disconnected():
                try:
                    text = await asyncio.wait_for(connection.queue.get(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    yield "\n"
                    continue
                yield text + "\n"
        finally:
            master.detach(connection)

    return StreamingResponse(lines(), media_type="application/x-ndjson")
