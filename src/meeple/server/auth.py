"""Passwords and login tokens.

Passwords are hashed with Argon2id (argon2-cffi), off the event loop. A login is a random
token given once to the client -- as a bearer token for API clients and as an HTTP-only
session cookie for browsers -- and stored only as its SHA-256, with an expiry.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from meeple.server.models import utcnow

_HASHER = PasswordHasher()


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_HASHER.hash, password)


async def check_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches the stored hash (never raises for a mismatch)."""
    try:
        return await asyncio.to_thread(_HASHER.verify, password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _HASHER.check_needs_rehash(password_hash)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def expiry(days: float) -> datetime:
    return utcnow() + timedelta(days=days)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if that is what it is."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()
