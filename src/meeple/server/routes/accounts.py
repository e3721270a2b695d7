"""Accounts: register, log in and out, play as a guest, who am I."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from meeple.server.auth import (
    check_password,
    expiry,
    hash_password,
    needs_rehash,
    new_token,
    token_hash,
)
from meeple.server.deps import (
    AccountDep,
    GuestLimit,
    LoginLimit,
    ServicesDep,
    error,
    request_token,
)
from meeple.server.repository import AccountRow, NameTaken
from meeple.server.services import Services

router = APIRouter(prefix="/api", tags=["accounts"])

Name = Annotated[str, Field(min_length=3, max_length=40, pattern=r"^[A-Za-z0-9_.-]+$")]
Password = Annotated[str, Field(min_length=8, max_length=200)]
DisplayName = Annotated[str, Field(min_length=1, max_length=40)]


class RegisterIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    password: Password
    display_name: DisplayName | None = None
    bot: bool = Field(default=False, description="A bot account: plays through the same API.")


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Name
    password: Password


class GuestIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    display_name: DisplayName


class LoginOut(BaseModel):
    account: dict[str, Any]
    token: str
    expires_at: str


async def _log_in(services: Services, account: AccountRow, response: Response) -> LoginOut:
    token = new_token()
    expires = expiry(services.settings.token_days)
    await services.accounts.add_token(account.id, token_hash(token), expires)
    response.set_cookie(
        services.settings.cookie_name,
        token,
        max_age=int(services.settings.token_days * 86400),
        httponly=True,
        samesite="lax",
        secure=services.settings.cookie_secure,
    )
    return LoginOut(account=account.to_json(), token=token, expires_at=expires.isoformat())


@router.post("/accounts", status_code=status.HTTP_201_CREATED, dependencies=[LoginLimit])
async def register(body: RegisterIn, services: ServicesDep, response: Response) -> LoginOut:
    """Create an account (a person's, or a bot's with ``bot: true``) and log it in.
    Counts towards the address's login limit (``429 rate/limited`` past it)."""
    try:
        account = await services.accounts.create(
            name=body.name,
            display_name=body.display_name or body.name,
            password_hash=await hash_password(body.password),
            kind="bot" if body.bot else "person",
        )
    except NameTaken:
        raise error(
            status.HTTP_409_CONFLICT, "account/name_taken", f"{body.name!r} is taken"
        ) from None
    return await _log_in(services, account, response)


@router.post("/sessions", dependencies=[LoginLimit])
async def login(body: LoginIn, services: ServicesDep, response: Response) -> LoginOut:
    """Log in with name and password: a bearer token, and the session cookie. So many tries
    a minute per client address (``429 rate/limited``, with ``Retry-After``, past them)."""
    found = await services.accounts.by_name(body.name)
    if found is None or found[1] is None or not await check_password(found[1], body.password):
        raise error(
            status.HTTP_401_UNAUTHORIZED, "auth/bad_login", "no account with that name and password"
        )
    account, stored = found
    if stored is not None and needs_rehash(stored):
        await services.accounts.set_password_hash(account.id, await hash_password(body.password))
    return await _log_in(services, account, response)


@router.delete("/sessions", status_code=status.HTTP_204_NO_CONTENT)
async def logout(request: Request, services: ServicesDep, response: Response) -> None:
    """End this login (the token or cookie stops working)."""
    token = request_token(request, services)
    if token:
        await services.accounts.drop_token(token_hash(token))
    response.delete_cookie(services.settings.cookie_name)


@router.post("/guests", status_code=status.HTTP_201_CREATED, dependencies=[GuestLimit])
async def guest(body: GuestIn, services: ServicesDep, response: Response) -> LoginOut:
    """Play without an account: a guest with a display name and a login like any other."""
    account = await services.accounts.create(
        name=None, display_name=body.display_name, password_hash=None, kind="guest"
    )
    return await _log_in(services, account, response)


@router.get("/me")
async def me(account: AccountDep) -> dict[str, Any]:
    return account.to_json()
