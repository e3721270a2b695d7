"""FastAPI dependencies: the services and the account a request or socket speaks for."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, status
from starlette.requests import HTTPConnection

from meeple.server.auth import bearer
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


def error(status_code: int, code: str, message: str) -> HTTPException:
    """A REST refusal with the same ``{code, message}`` shape as the WebSocket errors."""
    return HTTPException(status_code, detail={"code": code, "message": message})
