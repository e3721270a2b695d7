"""Names, passwords and login tokens.

Passwords are hashed with Argon2id (argon2-cffi), off the event loop. A login is a random
token given once to the client -- as a bearer token for API clients and as an HTTP-only
session cookie for browsers -- and stored only as its SHA-256, with an expiry.

The rules for names and passwords (docs/security.md, "Browser safety") refuse with
:class:`Refused`, whose ``code`` is the REST refusal's (``account/...``):

- a login name is trimmed and NFKC-normalised, 3 to 40 letters, digits, ``_``, ``.`` or
  ``-``, starting with a letter or digit; two names are the same account when their
  :func:`name_key` (NFKC and case-folded) is equal, so ``Ana`` and ``ana`` are one name;
- a display name (a person's or a guest's) is trimmed, its spaces run together, 1 to 40
  characters, none of them a control, format (bidi, zero-width), private or unassigned one;
- no person or guest is named like a bot: nothing ending in "bot", nor a bot's name;
- a password is 10 to 200 characters, not the name, and not one of the 30,000 commonest
  (zxcvbn's list).
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from meeple.ai import BOT_NAMES
from meeple.server.store.models import utcnow

_HASHER = PasswordHasher()

NAME_LENGTH: Final = (3, 40)
DISPLAY_LENGTH: Final = (1, 40)
PASSWORD_LENGTH: Final = (10, 200)
_NAME_PUNCTUATION: Final = frozenset("_.-")
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Controls, formats (bidi marks and overrides, zero-width joiners), surrogates, private
use, unassigned, line and paragraph separators."""
_MOST_MARKS: Final = 3
"""The most combining marks on one letter (more only stack glyphs over their neighbours)."""


class Refused(ValueError):
    """A name or password the rules refuse: ``code`` (``account/...``) and why, in words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def name_key(name: str) -> str:
    """What makes two login names the same: NFKC, case-folded, NFKC again (Unicode's
    recipe for caseless matching of identifiers)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def _bot_like(name: str) -> bool:
    """Whether a name reads as a bot's: its letters end in "bot" (digits after it aside),
    or are a bot's name ("mcts-hard", "heuristic")."""
    letters = re.sub(r"[\W_]+", "", name_key(name)).rstrip("0123456789")
    if letters.endswith("bot"):
        return True
    return any(letters == re.sub(r"[\W_]+", "", bot) for bot in BOT_NAMES)


def _characters(text: str, what: str) -> None:
    marks = 0
    for char in text:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES:
            raise Refused(
                f"account/{what}_characters",
                f"a {what.replace('_', ' ')} may not hold the invisible or control "
                f"character U+{ord(char):04X}",
            )
        marks = marks + 1 if category.startswith("M") else 0
        if marks > _MOST_MARKS:
            raise Refused(
                f"account/{what}_characters",
                f"a {what.replace('_', ' ')} may not stack more than {_MOST_MARKS} accents "
                "on one letter",
            )


def _length(text: str, bounds: tuple[int, int], what: str) -> None:
    low, high = bounds
    if not low <= len(text) <= high:
        raise Refused(
            f"account/{what}_length",
            f"a {what.replace('_', ' ')} is {low} to {high} characters long (this one: "
            f"{len(text)})",
        )


def check_name(name: str, *, bot: bool = False) -> str:
    """A login name as it is kept (trimmed, NFKC), or :class:`Refused`."""
    name = unicodedata.normalize("NFKC", name).strip()
    _length(name, NAME_LENGTH, "name")
    _characters(name, "name")
    for char in name:
        if not (unicodedata.category(char)[0] in "LMN" or char in _NAME_PUNCTUATION):
            raise Refused(
                "account/name_characters",
                f"a name holds letters, digits, '_', '.' and '-' only, not {char!r}",
            )
    if not unicodedata.category(name[0]).startswith(("L", "N")):
        raise Refused("account/name_characters", "a name starts with a letter or a digit")
    if not bot and _bot_like(name):
        raise Refused("account/name_bot", f"{name!r} reads as a bot's name; people pick another")
    return name


def check_display_name(display_name: str, *, bot: bool = False) -> str:
    """A display name as it is kept (NFKC, trimmed, one space between words), or
    :class:`Refused`."""
    display_name = " ".join(unicodedata.normalize("NFKC", display_name).split())
    _length(display_name, DISPLAY_LENGTH, "display_name")
    _characters(display_name, "display_name")
    if not bot and _bot_like(display_name):
        raise Refused(
            "account/display_name_bot",
            f"{display_name!r} reads as a bot's name; people and guests pick another",
        )
    return display_name


@cache
def _common_passwords() -> frozenset[str]:
    from zxcvbn.frequency_lists import (  # type: ignore[import-untyped]  # noqa: PLC0415
        FREQUENCY_LISTS,  # 30,000 words, read on the first registration
    )

    return frozenset(FREQUENCY_LISTS["passwords"])


def check_password_rules(password: str, name: str) -> None:
    """:class:`Refused` unless the password is long enough, not the name and not common."""
    _length(password, PASSWORD_LENGTH, "password")
    folded = name_key(password)
    key = name_key(name)
    if folded == key or (len(key) >= 4 and key in folded):
        raise Refused("account/password_name", "a password may not be or hold the name")
    if folded in _common_passwords() or folded.rstrip("0123456789!.") in _common_passwords():
        raise Refused(
            "account/password_common",
            "that password is among the commonest ones guessers try first; pick another",
        )


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_HASHER.hash, password)


async def check_password(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash (never raises for a mismatch). With no
    hash (no such account, or a guest) it checks against a stand-in hash all the same and
    answers False, so a login takes as long whether the name exists or not."""
    try:
        matched = await asyncio.to_thread(
            _HASHER.verify, password_hash or _stand_in_hash(), password
        )
    except (VerificationError, InvalidHashError):
        return False
    return matched and password_hash is not None


@cache
def _stand_in_hash() -> str:
    """A hash of a random password with the hasher's own parameters (no password is it)."""
    return _HASHER.hash(secrets.token_urlsafe(32))


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
