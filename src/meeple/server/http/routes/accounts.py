"""Accounts: register, log in and out, play as a guest, who am I."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field

from meeple.server.http import schemas
from meeple.server.http.deps import (
    AccountDep,
    GuestLimit,
    LoginLimit,
    MaybeAccountDep,
    ServicesDep,
    error,
    request_token,
)
from meeple.server.services import Services
from meeple.server.store.accounts import (
    Refused,
    check_display_name,
    check_name,
    check_password,
    check_password_rules,
    expiry,
    hash_password,
    needs_rehash,
    new_token,
    token_hash,
)
from meeple.server.store.repository import AccountRow, NameTaken

router = APIRouter(prefix="/api", tags=["accounts"])

# Only the shape here: the rules (meeple.server.store.accounts) refuse with their own
# account/ codes.
Name = Annotated[str, Field(max_length=200, description="3 to 40 letters, digits, _ . -")]
Password = Annotated[
    str, Field(max_length=200, description="10 or more characters, not the name, not common")
]
DisplayName = Annotated[str, Field(max_length=200, description="1 to 40 characters")]


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


def _secure(request: Request, services: Services) -> bool:
    """Whether the cookie is ``Secure``: always with ``cookie_secure``, else when the request
    came over https (directly, or through a proxy uvicorn trusts: ``X-Forwarded-Proto``)."""
    return services.settings.cookie_secure or request.url.scheme == "https"


async def _log_in(
    services: Services, account: AccountRow, request: Request, response: Response
) -> LoginOut:
    token = new_token()
    expires = expiry(services.settings.token_days)
    await services.accounts.add_token(account.id, token_hash(token), expires)
    # Strict: no other site's page, link or form sends it. The guard's origin check
    # (meeple.server.http.guard) also covers pages of this site on another port or host.
    response.set_cookie(
        services.settings.cookie_name,
        token,
        max_age=int(services.settings.token_days * 86400),
        httponly=True,
        samesite="strict",
        secure=_secure(request, services),
    )
    return LoginOut(account=account.to_json(), token=token, expires_at=expires.isoformat())


def _refused(refused: Refused) -> Exception:
    return error(status.HTTP_422_UNPROCESSABLE_CONTENT, refused.code, refused.message)


@router.post("/accounts", status_code=status.HTTP_201_CREATED, dependencies=[LoginLimit])
async def register(
    body: RegisterIn, services: ServicesDep, request: Request, response: Response
) -> LoginOut:
    """Create an account (a person's, or a bot's with ``bot: true``) and log it in.
    Counts towards the address's login limit (``429 rate/limited`` past it). A name or
    password the rules refuse is ``422`` with its ``account/...`` code (docs/security.md)."""
    try:
        name = check_name(body.name, bot=body.bot)
        display_name = check_display_name(body.display_name or name, bot=body.bot)
        check_password_rules(body.password, name)
    except Refused as refused:
        raise _refused(refused) from None
    try:
        account = await services.accounts.create(
            name=name,
            display_name=display_name,
            password_hash=await hash_password(body.password),
            kind="bot" if body.bot else "person",
        )
    except NameTaken:
        raise error(
            status.HTTP_409_CONFLICT,
            "account/name_taken",
            f"{name!r} is taken (names are the same whatever their case)",
        ) from None
    return await _log_in(services, account, request, response)


@router.post("/sessions", dependencies=[LoginLimit])
async def login(
    body: LoginIn, services: ServicesDep, request: Request, response: Response
) -> LoginOut:
    """Log in with name (in any case) and password: a bearer token, and the session cookie.
    So many tries a minute per client address (``429 rate/limited``, with ``Retry-After``,
    past them). A password is checked against a stand-in hash when the name is nobody's,
    so the answer takes as long either way."""
    found = await services.accounts.by_name(body.name)
    stored = None if found is None else found[1]
    matched = await check_password(stored, body.password)  # for a name nobody has too
    if found is None or not matched:
        raise error(
            status.HTTP_401_UNAUTHORIZED, "auth/bad_login", "no account with that name and password"
        )
    account = found[0]
    if stored is not None and needs_rehash(stored):
        await services.accounts.set_password_hash(account.id, await hash_password(body.password))
    return await _log_in(services, account, request, response)


@router.delete("/sessions", status_code=status.HTTP_204_NO_CONTENT)
async def logout(request: Request, services: ServicesDep, response: Response) -> None:
    """End this login (the token or cookie stops working)."""
    token = request_token(request, services)
    if token:
        await services.accounts.drop_token(token_hash(token))
    response.delete_cookie(
        services.settings.cookie_name,
        httponly=True,
        samesite="strict",
        secure=_secure(request, services),
    )


@router.post("/guests", status_code=status.HTTP_201_CREATED, dependencies=[GuestLimit])
async def guest(
    body: GuestIn, services: ServicesDep, request: Request, response: Response
) -> LoginOut:
    """Play without an account: a guest with a display name and a login like any other.
    The display name follows the rules for names shown to others (docs/security.md)."""
    try:
        display_name = check_display_name(body.display_name)
    except Refused as refused:
        raise _refused(refused) from None
    account = await services.accounts.create(
        name=None, display_name=display_name, password_hash=None, kind="guest"
    )
    return await _log_in(services, account, request, response)


@router.get(
    "/me",
    response_model=schemas.Account,
    response_model_exclude_unset=True,
)
async def me(account: AccountDep) -> dict[str, Any]:
    return account.to_json()


@router.get("/session", response_model=schemas.SignedIn)
async def session(account: MaybeAccountDep) -> dict[str, Any]:
    """Who the token or cookie signs in, or ``{"account": null}`` when nobody: a page that
    may be signed out asks this and meets no error (``GET /api/me`` answers 401 then)."""
    return {"account": account.to_json() if account is not None else None}
