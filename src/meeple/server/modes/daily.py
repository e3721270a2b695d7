"""The Daily: for each game, one challenge a UTC day that everyone plays on the same terms.

The day's seed is derived from the server's secret (the ``daily_secret`` setting; unset, one
the server made once and keeps in ``server_secrets``, so every worker and every restart
agree): the first eight bytes of HMAC-SHA256 of ``daily/<game>/<date>`` under that secret.
The seed draws the map, the factions or the houses as the game's setup does, and the bots'
own seeds come from it, so nobody can play the day's challenge offline or see its hidden
decks. It is published once the day is over (a past day's challenge shows it, today's never).
The seat count, options and the bots' level come from :func:`challenges`. The person plays
seat 0; bots of that level play every other seat, everyone against everyone, no turn timer.

One scored attempt per account, game and day: a unique key on the scored attempts, so any
number of workers store one, and the one that loses the race gets the same ``daily/played``
as a second attempt gets. Practice plays the same challenge unscored, as often as one
likes; past days are playable, always unscored. A finished scored attempt goes to the day's
leaderboard with its place, turns and score; an account's streak is the run of consecutive
days, up to today or yesterday, on which it started a scored attempt.

Until the day is over, its attempts are private: nobody gets their record (it holds the
seed) or, but the player, a replay or analysis of them, nor watches one, and the day's
leaderboard names no match. Otherwise a second account could play the leader's moves again
for the same score.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from meeple.core import load_game, registered
from meeple.core.record import MAX_SEED
from meeple.server.live.master import MatchMaster
from meeple.server.live.matches import Matches, new_match_id
from meeple.server.modes.ranked import places_of
from meeple.server.store.match_store import SeatHolder, StoredMatch
from meeple.server.store.models import Account, DailyAttempt, Match, MatchAction, ServerSecret
from meeple.server.store.repository import AccountRow, SqlMatchStore


@dataclass(frozen=True, slots=True)
class Challenge:
    """What a game's Daily is played with, the same every day (the seed changes)."""

    seats: int
    options: dict[str, Any]
    bots: str


DAILY_BOT = "heuristic"
"""The bots' level in every Daily: the ladder's rule-of-thumb bot, the same in every game."""

SECRET = "daily"
"""The name the server's own Daily secret is kept under in ``server_secrets``."""


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


def published(day: date) -> bool:
    """Whether a day is over (UTC), so that its seed and its attempts are everyone's."""
    return day < today()


def daily_seed(secret: bytes, game_id: str, day: date) -> int:
    """The day's seed: the first eight bytes of HMAC-SHA256 of ``daily/<game>/<date>``
    under the server's secret, kept within :data:`MAX_SEED`."""
    message = f"daily/{game_id}/{day.isoformat()}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
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


def _challenge(game_id: str) -> Challenge:
    terms = challenges()
    challenge = terms.get(game_id)
    if challenge is None:
        raise DailyError(404, "daily/bad_game", f"Dailies: {list(terms)}")
    return challenge


def _order(entry: dict[str, Any]) -> tuple[int, float, int, str]:
    return (entry["place"], -float(entry["score"] or 0), entry["turns"], entry["at"])


def _played(game_id: str, match_id: str | None) -> DailyError:
    which = "" if match_id is None else f" (match {match_id})"
    return DailyError(
        409,
        "daily/played",
        f'today\'s {game_id} Daily is played{which}; practise it with {{"practice": true}}',
    )


class Daily:
    """Starting attempts, the leaderboards and the streaks."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], matches: Matches) -> None:
        self.sessions = sessions
        self.matches = matches
        self._secret: bytes | None = None

    async def _key(self) -> bytes:
        """The secret the seeds come from: the setting's, else the one kept in the database
        (made by the first worker to need it; another making one at the same moment finds
        the key taken and reads the first one's)."""
        if self._secret is None:
            given = self.matches.settings.daily_secret
            self._secret = (given if given is not None else await self._kept()).encode()
        return self._secret

    async def _kept(self) -> str:
        async with self.sessions() as session:
            row = await session.get(ServerSecret, SECRET)
            if row is not None:
                return row.value
        try:
            async with self.sessions() as session, session.begin():
                session.add(ServerSecret(name=SECRET, value=secrets.token_urlsafe(32)))
        except IntegrityError:
            pass  # another worker kept one first: that one is read below
        async with self.sessions() as session:
            row = await session.get(ServerSecret, SECRET)
            if row is None:  # pragma: no cover (written or found just above)
                raise RuntimeError("the Daily's secret was neither kept nor found")
            return row.value

    async def seed(self, game_id: str, day: date) -> int:
        return daily_seed(await self._key(), game_id, day)

    async def challenge(self, game_id: str, day: date) -> dict[str, Any]:
        """A day's terms; its seed only once the day is over."""
        challenge = _challenge(game_id)
        return {
            "game": game_id,
            "date": day.isoformat(),
            "seed": await self.seed(game_id, day) if published(day) else None,
            "seats": challenge.seats,
            "options": dict(challenge.options),
            "bots": challenge.bots,
            "seat": SEAT,
        }

    async def start(
        self, account: AccountRow, game_id: str, day: date, *, practice: bool = False
    ) -> tuple[MatchMaster, bool]:
        """Start an attempt; returns the match and whether it is scored.

        The match and its attempt are stored in one transaction: a scored attempt that
        the unique key refuses (another worker stored one first) leaves nothing behind.

        Raises:
            DailyError: ``daily/bad_game``, ``daily/played`` (a second scored attempt).
        """
        challenge = _challenge(game_id)
        scored = not practice and day == today()
        if scored:
            await self._not_played(account, game_id, day)
        game = load_game(game_id, seats=challenge.seats, options=dict(challenge.options))
        holders = [SeatHolder(SEAT, account.display_name, account_id=account.id)]
        holders += [
            SeatHolder(seat, f"{challenge.bots} bot", bot=challenge.bots)
            for seat in range(game.seats)
            if seat != SEAT
        ]
        match = StoredMatch(
            id=new_match_id(),
            game_id=game.id,
            seats=game.seats,
            options=dict(game.options),
            seed=await self.seed(game_id, day),
            mode="daily",
            holders=sorted(holders, key=lambda holder: holder.seat),
            created_by=account.id,
        )
        attempt = DailyAttempt(
            match_id=match.id,
            account_id=account.id,
            game_id=game_id,
            day=day.isoformat(),
            scored=scored,
        )
        try:
            async with self.sessions() as session, session.begin():
                await SqlMatchStore.add_match(session, match)
                session.add(attempt)
        except IntegrityError:
            if not scored:
                raise
            await self._not_played(account, game_id, day)
            raise _played(game_id, None) from None
        return await self.matches.begin(match), scored

    async def _not_played(self, account: AccountRow, game_id: str, day: date) -> None:
        done = await self.scored_attempt(account.id, game_id, day)
        if done is not None:
            raise _played(game_id, done)

    async def scored_attempt(self, account_id: int, game_id: str, day: date) -> str | None:
        """The match of the account's scored attempt at a day's Daily, if it made one."""
        async with self.sessions() as session:
            found = await session.scalar(
                select(DailyAttempt.match_id).where(
                    DailyAttempt.account_id == account_id,
                    DailyAttempt.game_id == game_id,
                    DailyAttempt.day == day.isoformat(),
                    DailyAttempt.scored,
                )
            )
        return None if found is None else str(found)

    async def private_until_day_ends(self, match_id: str) -> int | None:
        """The account whose attempt a match is, while it is an attempt at a Daily whose
        day is not over (its record, replays and lines are private until then); else None."""
        async with self.sessions() as session:
            found = (
                await session.execute(
                    select(DailyAttempt.account_id, DailyAttempt.day).where(
                        DailyAttempt.match_id == match_id
                    )
                )
            ).first()
        if found is None or published(date.fromisoformat(found.day)):
            return None
        return int(found.account_id)

    async def check_shown(
        self,
        match: StoredMatch,
        viewer: AccountRow | None,
        seat: int | None = None,
        *,
        record: bool = False,
    ) -> None:
        """Refuse what a Daily attempt would give away while its day runs: its record (it
        holds the seed) to anyone, and its replay, line or live frames to anyone but its
        player, who sees no seat but their own. Any other match passes at once.

        Raises:
            DailyError: ``daily/private`` (403).
        """
        if match.mode != "daily":
            return
        player = await self.private_until_day_ends(match.id)
        if player is None:
            return
        if record or viewer is None or viewer.id != player or seat not in (None, SEAT):
            what = "its record holds the seed" if record else "its moves would be copied"
            raise DailyError(
                403,
                "daily/private",
                f"today's Daily attempts are private until the day ends (00:00 UTC): {what}",
            )

    async def leaderboard(self, game_id: str, day: date) -> list[dict[str, Any]]:
        """The day's finished scored attempts: by place, then score (high), then turns.
        While the day runs no entry names its match (``match`` is null)."""
        _challenge(game_id)
        shown = published(day)
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
                    "match": match.id if shown else None,
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
