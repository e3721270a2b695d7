"""FastAPI dependencies: the services and the account a request or socket speaks for."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, status
from starlette.requests import HTTPConnection

from meeple.server.http.ratelimit import Counts, Limit, RateLimited
from meeple.server.live.bots import BotsBusy
from meeple.server.services import Services
from meeple.server.settings import Settings
from meeple.server.store.accounts import bearer
from meeple.server.store.repository import AccountRow


def get_services(connection: HTTPConnection) -> Services:
    services: Services = connection.app.state.services
    return services


def request_token(connection: HTTPConnection, services: Services) -> str | None:
    """The bearer token, else the session cookie."""
    return bearer(connection.headers.get("authorization")) or connection.cookies.get(
        services.settings.cookie_name
    )


def socket_token(connection: HTTPConnection, services: Services) -> str | None:
    """A WebSocket's token. Browsers send cookies with a socket opened by any page, so the
    session cookie counts only when the socket comes from a page of this server (its
    ``Origin`` names the ``Host`` it connects to); a bearer token counts always."""
    token = bearer(connection.headers.get("authorization"))
    if token:
        return token
    origin = connection.headers.get("origin")
    if origin is not None and urlsplit(origin).netloc != connection.headers.get("host"):
        return None
    return connection.cookies.get(services.settings.cookie_name)


async def optional_account(
    request: Request, services: Annotated[Services, Depends(get_services)]
) -> AccountRow | None:
    return await services.account_for(request_token(request, services))


async def require_account(
    account: Annotated[AccountRow | None, Depends(optional_account)],
) -> AccountRow:
    if account is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            detail={"code": "auth/required", "message": "log in or play as a guest first"},
            headers={"WWW-Authenticate": "Bearer"},
        )
    return account


ServicesDep = Annotated[Services, Depends(get_services)]
AccountDep = Annotated[AccountRow, Depends(require_account)]
MaybeAccountDep = Annotated[AccountRow | None, Depends(optional_account)]


def error(
    status_code: int, code: str, message: str, headers: dict[str, str] | None = None
) -> HTTPException:
    """A REST refusal with the same ``{code, message}`` shape as the WebSocket errors."""
    return HTTPException(status_code, detail={"code": code, "message": message}, headers=headers)


# -- rate limits and quotas ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits, built from its settings, and where they count."""

    counts: Counts
    login: Limit
    """Logins and registrations, per client address."""
    guests: Limit
    """Guests created, per client address."""
    rooms_by_address: Limit
    rooms_by_account: Limit
    by_account: dict[str, Limit]
    """The quotas by what they count (solo, hints, analyses, replays, join codes)."""
    by_address: dict[str, Limit]
    """The same, per client address (:attr:`Settings.per_address_factor` times as many)."""

    @classmethod
    def of(cls, settings: Settings, counts: Counts) -> Limits:
        quotas = {
            "solo": (settings.solo_per_minute, settings.solo_burst),
            "hints": (settings.hints_per_minute, settings.hints_burst),
            "analyses": (settings.analyses_per_minute, settings.analyses_burst),
            "replays": (settings.replays_per_minute, settings.replays_burst),
            "join-codes": (settings.join_codes_per_minute, settings.join_codes_burst),
        }
        factor = settings.per_address_factor
        return cls(
            counts,
            login=Limit.of("login", settings.login_per_minute, settings.login_burst),
            guests=Limit.of("guests", settings.guests_per_minute, settings.guests_burst),
            rooms_by_address=Limit.of(
                "rooms-address",
                settings.rooms_per_address_per_minute,
                settings.rooms_per_address_burst,
            ),
            rooms_by_account=Limit.of(
                "rooms-account", settings.rooms_per_minute, settings.rooms_burst
            ),
            by_account={
                name: Limit.of(f"{name}-account", rate, burst)
                for name, (rate, burst) in quotas.items()
            },
            by_address={
                name: Limit.of(
                    f"{name}-address", rate * factor, min(1 << 30, math.ceil(burst * factor))
                )
                for name, (rate, burst) in quotas.items()
            },
        )


def limits(connection: HTTPConnection) -> Limits:
    """The app's limits, built from its settings on first use (they live as long as the
    app: one set per server process), counted in Redis when the server has many workers."""
    state = connection.app.state
    found: Limits | None = getattr(state, "limits", None)
    if found is None:
        services = get_services(connection)
        settings = services.settings
        cluster = services.matches.cluster
        counts = (
            Counts()
            if cluster is None or settings.redis_url is None
            else Counts(settings.redis_url, prefix=cluster.space + "limit")
        )
        found = state.limits = Limits.of(settings, counts)
    return found


def client_address(connection: HTTPConnection) -> str:
    """The address a request comes from (the proxy's, unless uvicorn trusts its headers)."""
    return connection.client.host if connection.client is not None else "unknown"


def _limited(refused: RateLimited) -> HTTPException:
    return error(
        status.HTTP_429_TOO_MANY_REQUESTS,
        "rate/limited",
        f"too many {refused.what}; try again in {refused.retry_after} s",
        headers={"Retry-After": str(refused.retry_after)},
    )


def bots_busy(refused: BotsBusy) -> HTTPException:
    """``503 bots/busy``: the bot queue is full (new work waits for the live moves)."""
    return error(
        status.HTTP_503_SERVICE_UNAVAILABLE,
        "bots/busy",
        f"the bots are busy ({refused.queued} jobs waiting); try again in {refused.retry_after} s",
        headers={"Retry-After": str(refused.retry_after)},
    )


async def login_allowed(request: Request) -> None:
    """Logins and registrations: so many a minute per client address (password guessing)."""
    found = limits(request)
    try:
        await found.counts.spend(
            (found.login, client_address(request)), what="logins from this address"
        )
    except RateLimited as refused:
        raise _limited(refused) from None


async def guest_allowed(request: Request) -> None:
    """New guests: so many a minute per client address (each is an account and a login, and
    costs a row in the database)."""
    found = limits(request)
    try:
        await found.counts.spend(
            (found.guests, client_address(request)), what="guests from this address"
        )
    except RateLimited as refused:
        raise _limited(refused) from None


async def room_allowed(request: Request, account: AccountDep) -> None:
    """Opening rooms: so many a minute per account, and per client address."""
    found = limits(request)
    try:
        await found.counts.spend(
            (found.rooms_by_account, f"account:{account.id}"),
            (found.rooms_by_address, client_address(request)),
            what="rooms opened",
        )
    except RateLimited as refused:
        raise _limited(refused) from None


async def spend_quota(request: Request, account: AccountRow, name: str, what: str) -> None:
    """One of quota ``name`` from the account and from its client address, or none.

    Raises:
        HTTPException: ``429 rate/limited`` with ``Retry-After`` when either is spent.
    """
    found = limits(request)
    try:
        await found.counts.spend(
            (found.by_account[name], f"account:{account.id}"),
            (found.by_address[name], client_address(request)),
            what=what,
        )
    except RateLimited as refused:
        raise _limited(refused) from None


async def solo_allowed(request: Request, account: AccountDep, services: ServicesDep) -> None:
    """A new solo match: refused while the bot queue is full (``503 bots/busy``) and past
    so many a minute per account and per client address (``429 rate/limited``). How many
    the account has in play is checked as the match is made (:func:`check_solo_live`)."""
    refused = services.bots.busy()
    if refused is not None:
        raise bots_busy(refused)
    await spend_quota(request, account, "solo", "solo matches started")


_SOLO_FROM: dict[str, set[str]] = {}
"""The solo matches made from each client address through this worker that may still be in
play (checked against the database before each new one; finished ones are dropped)."""

SOLO_FROM_ADDRESSES = 4096
"""Past this many addresses held, those whose matches are all over are forgotten at once."""


async def check_solo_live(services: Services, account: AccountRow, address: str) -> None:
    """Refuse a solo match to an account with :attr:`Settings.solo_live` in play, and to a
    client address from which :attr:`Settings.per_address_factor` times as many are (made
    through this worker: with many workers each counts its own).

    Raises:
        HTTPException: ``429 match/too_many`` with ``Retry-After``.
    """
    most = services.settings.solo_live
    if await services.store.playing_count(account.id, "solo") >= most:
        raise error(
            status.HTTP_429_TOO_MANY_REQUESTS,
            "match/too_many",
            f"you have {most} solo matches in play: finish or resign one first",
            headers={"Retry-After": "60"},
        )
    if len(_SOLO_FROM) > SOLO_FROM_ADDRESSES:
        playing = await services.store.playing_among(set().union(*_SOLO_FROM.values()))
        for held in list(_SOLO_FROM):
            _SOLO_FROM[held] &= playing
            if not _SOLO_FROM[held]:
                del _SOLO_FROM[held]
    made = _SOLO_FROM.get(address)
    if not made:
        return
    made &= await services.store.playing_among(made)
    most_here = int(most * services.settings.per_address_factor)
    if len(made) >= most_here:
        raise error(
            status.HTTP_429_TOO_MANY_REQUESTS,
            "match/too_many",
            f"{most_here} solo matches made from your address are in play: "
            "finish or resign one first",
            headers={"Retry-After": "60"},
        )


def solo_made(address: str, match_id: str) -> None:
    """Count a new solo match against the address it was made from."""
    _SOLO_FROM.setdefault(address, set()).add(match_id)


async def hint_allowed(request: Request, account: AccountDep) -> None:
    await spend_quota(request, account, "hints", "hints asked for")


async def analysis_allowed(request: Request, account: AccountDep) -> None:
    await spend_quota(request, account, "analyses", "analyses asked for")


async def replay_allowed(request: Request, account: AccountDep) -> None:
    await spend_quota(request, account, "replays", "record files uploaded")


async def join_code_allowed(request: Request, account: AccountDep) -> None:
    """Room codes tried: so many a minute per account and per address (codes are short:
    guessing them must be slow)."""
    await spend_quota(request, account, "join-codes", "room codes tried")


LoginLimit = Depends(login_allowed)
GuestLimit = Depends(guest_allowed)
RoomLimit = Depends(room_allowed)
SoloLimit = Depends(solo_allowed)
HintLimit = Depends(hint_allowed)
AnalysisLimit = Depends(analysis_allowed)
ReplayLimit = Depends(replay_allowed)
JoinCodeLimit = Depends(join_code_allowed)
