"""FastAPI dependencies: the services and the account a request or socket speaks for."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, status
from starlette.requests import HTTPConnection

from meeple.server.auth import bearer
from meeple.server.ratelimit import Limiter, Limits, RateLimited
from meeple.server.repository import AccountRow
from meeple.server.services import Services


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


# -- rate limits ---------------------------------------------------------------------------


def limits(connection: HTTPConnection) -> Limits:
    """The app's limiters, built from its settings on first use (they live as long as the
    app: one set per server process)."""
    state = connection.app.state
    found: Limits | None = getattr(state, "limits", None)
    if found is None:
        services = get_services(connection)
        settings = services.settings
        cluster = services.matches.cluster
        found = Limits(
            login=Limiter(settings.login_per_minute, settings.login_burst, name="login"),
            guests=Limiter(settings.guests_per_minute, settings.guests_burst, name="guests"),
            rooms_by_address=Limiter(
                settings.rooms_per_address_per_minute,
                settings.rooms_per_address_burst,
                name="rooms-address",
            ),
            rooms_by_account=Limiter(
                settings.rooms_per_minute, settings.rooms_burst, name="rooms-account"
            ),
            shared=None if cluster is None else cluster.shared_buckets(),
        )
        state.limits = found
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


async def login_allowed(request: Request) -> None:
    """Logins and registrations: so many a minute per client address (password guessing)."""
    found = limits(request)
    try:
        await found.spend((found.login, client_address(request)), what="logins from this address")
    except RateLimited as refused:
        raise _limited(refused) from None


async def guest_allowed(request: Request) -> None:
    """New guests: so many a minute per client address (each is an account and a login, and
    costs a row in the database)."""
    found = limits(request)
    try:
        await found.spend((found.guests, client_address(request)), what="guests from this address")
    except RateLimited as refused:
        raise _limited(refused) from None


async def room_allowed(request: Request, account: AccountDep) -> None:
    """Opening rooms: so many a minute per account, and per client address."""
    found = limits(request)
    try:
        await found.spend(
            (found.rooms_by_account, f"account:{account.id}"),
            (found.rooms_by_address, client_address(request)),
            what="rooms opened",
        )
    except RateLimited as refused:
        raise _limited(refused) from None


LoginLimit = Depends(login_allowed)
GuestLimit = Depends(guest_allowed)
RoomLimit = Depends(room_allowed)
