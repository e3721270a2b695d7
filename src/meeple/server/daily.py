"""The Daily: for each game, one challenge a UTC day that everyone plays on the same terms.

The day's challenge is derived from the date alone, so every server shows the same one:
its seed is the hash of ``daily/<game>/<date>`` (the seed draws the map, the factions or
the houses as the game's setup does), and the seat count, options and the bots' level come
from :func:`challenges`. The person plays seat 0; bots of that level play every other seat,
everyone against everyone, with no turn timer.

One scored attempt per account, game and day: a second is refused (``daily/played``) unless
it asks to practise, which plays the same challenge unscored. Past days are playable,
always unscored. A finished scored attempt goes to the day's leaderboard with its place,
turns and score; an account's streak is the run of consecutive days, up to today or
yesterday, on which it started a scored attempt.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from meeple.core import registered
from meeple.core.record import MAX_SEED
from meeple.server.master import MatchMaster
from meeple.server.matches import Matches
from meeple.server.models import Account, DailyAttempt, Match, MatchAction
from meeple.server.ranked import places_of
from meeple.server.repository import AccountRow


@dataclass(frozen=True, slots=True)
class Challenge:
    """What a game's Daily is played with, the same every day (the seed changes)."""

    seats: int
    options: dict[str, Any]
    bots: str


DAILY_BOT = "heuristic"
"""The bots' level in every Daily: the ladder's rule-of-thumb bot, the same in every game."""


def challenges() -> dict[str, Challenge]:
    """Each registered game's Daily terms, by the game's name: the middle of its seat range
    (rounded up: a game for 2 to 4 seats is played at 3, a 1v1 game at 2), its default
    options, and :data:`DAILY_BOT` in every other seat."""
    return {
        info.name: Challenge((info.min_seats + info.max_seats + 1) // 2, {}, DAILY_BOT)
        for info in registered()
    }


SEAT = 0
"""The seat the person plays."""


class DailyError(Exception):
    """A refused Daily request: a stable code, a sentence and the HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def today() -> date:
    return datetime.now(UTC).date()


def daily_seed(game_id: str, day: date) -> int:
    """The day's seed: the first eight bytes of SHA-256 of ``daily/<game>/<date>``."""
    digest = hashlib.sha256(f"daily/{game_id}/{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def parse_day(text: str | None) -> date:
    """The day a request names (YYYY-MM-DD), today if none; never a day still to come."""
    if not text:
        return today()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise DailyError(422, "daily/bad_date", "a date is YYYY-MM-DD") from None
    if day > today():
        raise DailyError(422, "daily/bad_date", "that Daily has not come yet")
    return day


def challenge_json(game_id: str, day: date) -> dict[str, Any]:
    challenge = _challenge(game_id)
    return {
        "game": game_id,
        "date": day.isoformat(),
        "seed": daily_seed(game_id, day),
        "seats": challenge.seats,
        "options": dict(challenge.options),
        "bots": challenge.bots,
        "seat": SEAT,
    }


def _challenge(game_id: str) -> Challenge:
    terms = challenges()
    challenge = terms.get(game_id)
    if challenge is None:
        raise DailyError(404, "daily/bad_game", f"Dailies: {list(terms)}")
    return challenge


def _order(entry: dict[str, Any]) -> tuple[int, float, int, str]:
    return (entry["place"], -float(entry["score"] or 0), entry["turns"], entry["at"])


class Daily:
    """Starting attempts, the leaderboards and the streaks."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], matches: Matches) -> None:
        self.sessions = sessions
        self.matches = matches
        self._lock = asyncio.Lock()

    async def start(
        self, account: AccountRow, game_id: str, day: date, *, practice: bool = False
    ) -> tuple[MatchMaster, bool]:
        """Start an attempt; returns the match and whether it is scored.

        Raises:
            DailyError: ``daily/bad_game``, ``daily/played`` (a second scored attempt).
        """
        challenge = _challenge(game_id)
        scored = not practice and day == today()
        async with self._lock:
            if scored:
                async with self.sessions() as session:
                    done = await session.scalar(
                        select(DailyAttempt.match_id).where(
                            DailyAttempt.account_id == account.id,
                            DailyAttempt.game_id == game_id,
                            DailyAttempt.day == day.isoformat(),
                            DailyAttempt.scored,
                        )
                    )
                if done is not None:
                    raise DailyError(
                        409,
                        "daily/played",
                        f"today's {game_id} Daily is played (match {done}); "
                        'practise it with {"practice": true}',
                    )
            master = await self.matches.create_solo(
                account,
                game_id,
                seats=challenge.seats,
                options=dict(challenge.options),
                seat=SEAT,
                bots=challenge.bots,
                seed=daily_seed(game_id, day),
                mode="daily",
            )
            async with self.sessions() as session, session.begin():
                session.add(
                    DailyAttempt(
                        match_id=master.id,
                        account_id=account.id,
                        game_id=game_id,
                        day=day.isoformat(),
                        scored=scored,
                    )
                )
        return master, scored

    async def leaderboard(self, game_id: str, day: date) -> list[dict[str, Any]]:
        """The day's finished scored attempts: by place, then score (high), then turns."""
        _challenge(game_id)
        async with self.sessions() as session:
            found = (
                await session.execute(
                    select(DailyAttempt, Match, Account)
                    .join(Match, Match.id == DailyAttempt.match_id)
                    .join(Account, Account.id == DailyAttempt.account_id)
                    .where(
                        DailyAttempt.game_id == game_id,
                        DailyAttempt.day == day.isoformat(),
                        DailyAttempt.scored,
                        Match.status == "over",
                    )
                )
            ).all()
            ids = [attempt.match_id for attempt, _, _ in found]
            actions = dict(
                (
                    await session.execute(
                        select(MatchAction.match_id, func.count())
                        .where(MatchAction.match_id.in_(ids), MatchAction.seat == SEAT)
                        .group_by(MatchAction.match_id)
                    )
                ).all()
            )
        board = []
        for attempt, match, account in found:
            outcome = match.outcome or {}
            scores = outcome.get("scores")
            turn = (outcome.get("detail") or {}).get("turn")
            board.append(
                {
                    "account": account.id,
                    "name": account.display_name,
                    "bot": account.kind == "bot",
                    "match": match.id,
                    "won": SEAT in (outcome.get("winners") or []),
                    "place": places_of(outcome, match.seats)[SEAT],
                    "turns": int(turn) if isinstance(turn, int) else actions.get(match.id, 0),
                    "score": None if scores is None else scores[SEAT],
                    "at": attempt.created_at.isoformat(),
                }
            )
        board.sort(key=_order)
        for rank, entry in enumerate(board, start=1):
            entry["rank"] = rank
        return board

    async def streak(self, account_id: int) -> int:
        """Consecutive days, ending today or yesterday, with a scored attempt."""
        async with self.sessions() as session:
            days = set(
                (
                    await session.scalars(
                        select(DailyAttempt.day)
                        .where(DailyAttempt.account_id == account_id, DailyAttempt.scored)
                        .distinct()
                    )
                ).all()
            )
        day = today()
        if day.isoformat() not in days:
            day -= timedelta(days=1)
        count = 0
        while day.isoformat() in days:
            count += 1
            day -= timedelta(days=1)
        return count
