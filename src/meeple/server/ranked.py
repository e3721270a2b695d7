"""Ranked matches: a matchmaking queue per game and seat count, and OpenSkill ratings.

The rules: "Ranked matches, the Daily and the tutorial are always everyone against
everyone" and "A ranked match is fixed at 90 seconds." Maiterra is ranked at 2, 3 or 4
seats, Maatatahay and Manafields one against one.

In a game whose seats each play a faction (options ``faction0``, ``faction1``, ...: Manafields),
each person queues with the faction they will play, or none to have one drawn; the seats are
drawn when the match forms and each seat's faction option set to its player's faction. People
of different factions meet; the other options must be the same.

The queue lives in memory: a ticket waits until enough people of near rating are queued
for the same game, seat count and options. Two tickets fit when their ratings (mu) lie
within both their ranges; a range starts at :data:`BASE_RANGE` and widens by
:data:`WIDEN_PER_SECOND` for every second waited. A ticket not matched within its ``wait``
seconds times out.

A ranked match is rated when it ends: OpenSkill's Plackett-Luce model, the winners first,
the others by score when the game counts points (equal places tie), everyone tied in a
draw. A leaver loses as last place, below everyone who stayed; when everyone left, places
stand as the match ended.

A leaver is a seat its bot took over (its player away past the grace period) whose player
did not come back before the match ended. A player who connects to the match again before
its last action is no leaver, even if the bot played for them meanwhile (as on lichess and
BGA, coming back and finishing is what counts); leaving again past the grace period makes
them one again. Coming back after the end changes nothing. Leavers are stored
(``ranked_leavers``) as the bot takes a seat over and dropped as its player comes back, so a
server restart forgets none: a match is rated from the stored leavers, also one that ended
while the server was down (rated on the next queue, leaderboard or ratings request).
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from meeple.core import Seat, game_class, load_game, registered
from meeple.core.record import MAX_SEED
from meeple.server.master import MatchMaster
from meeple.server.matches import Matches, new_match_id
from meeple.server.models import Account, Match, MatchSeat, Rating, RatingChange, utcnow
from meeple.server.modes import MODES, check_table
from meeple.server.repository import AccountRow, SqlMatchStore
from meeple.server.store import SeatHolder, StoredMatch

log = logging.getLogger(__name__)


def ranked_seats() -> dict[str, tuple[int, ...]]:
    """The seat counts each registered game is ranked at, by the game's name: every count it
    is played at, always everyone against everyone."""
    return {info.name: tuple(range(info.min_seats, info.max_seats + 1)) for info in registered()}


START_MU = 25.0
START_SIGMA = 25.0 / 3
PROVISIONAL_GAMES = 10
"""A rating stays provisional for an account's first ten rated matches (per game and seats)."""
BASE_RANGE = 3.0
WIDEN_PER_SECOND = 0.5
DEFAULT_WAIT = 300.0
MAX_WAIT = 3600.0
TIMER = MODES["ranked"].default_timer


class RankedError(Exception):
    """A refused ranked request: a stable code, a sentence and the HTTP status."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass(slots=True)
class Ticket:
    """One account waiting in the queue."""

    account: AccountRow
    game: str
    seats: int
    options: dict[str, Any]
    mu: float
    wait: float
    faction: str | None = None
    """The faction this account plays (games whose seats each play one); None: drawn."""
    joined: float = field(default_factory=time.monotonic)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.game, self.seats, json.dumps(self.options, sort_keys=True))

    def waited(self, now: float) -> float:
        return now - self.joined

    def range(self, now: float) -> float:
        return BASE_RANGE + WIDEN_PER_SECOND * self.waited(now)


def faction_choices(game_id: str, seats: int) -> tuple[str, ...] | None:
    """The factions a seat of the game may play, when each of its seats plays one (options
    ``faction0`` .. ``faction{seats-1}`` with the same choices); None otherwise."""
    specs = {spec.name: spec for spec in game_class(game_id).info.options}
    found = [specs.get(f"faction{seat}") for seat in range(seats)]
    first = found[0]
    if first is None or first.choices is None:
        return None
    if any(spec is None or spec.choices != first.choices for spec in found):
        return None
    return tuple(str(choice) for choice in first.choices)


def places_of(outcome: dict[str, Any] | None, seats: int) -> list[int]:
    """Each seat's place (1 is first; equal places tie) from a stored outcome."""
    if not outcome or not outcome.get("winners"):
        return [1] * seats
    winners = {int(s) for s in outcome["winners"]}
    scores = outcome.get("scores")
    others = [s for s in range(seats) if s not in winners]
    places = [1] * seats
    if scores is None:
        for seat in others:
            places[seat] = 2
        return places
    distinct = sorted({float(scores[s]) for s in others}, reverse=True)
    for seat in others:
        places[seat] = 2 + distinct.index(float(scores[seat]))
    return places


class LeaverWatch:
    """Listens to one live ranked match as a spectator would, to keep its leavers.

    Attached to the match's master like a connection: every frame the master sends (a seat
    away or back, each update, the final one) lets it compare the seats a bot plays for the
    away (``presence.away``) and the seats with a connection against the leavers it knows.
    Nothing is stored here, no frame waits on the database: each new set of leavers, and
    the set at the end, goes on :attr:`changes` for :meth:`Ranked._keep_leavers` to store.
    """

    def __init__(self, master: MatchMaster, leavers: set[Seat]) -> None:
        self.master = master
        self.leavers = set(leavers)
        self.changes: asyncio.Queue[tuple[frozenset[Seat], bool]] = asyncio.Queue()
        self.done = False

    @property
    def seat(self) -> Seat | None:
        return None

    async def send(self, text: str) -> None:
        if self.done:
            return
        master = self.master
        over = master.over
        away = master.presence.away
        back = {c.seat for c in master.connections if c.seat is not None} - away
        leavers = (self.leavers | away) - back
        if leavers != self.leavers or over:
            self.leavers = leavers
            self.changes.put_nowait((frozenset(leavers), over))
        if over:  # who had left is settled: a return now changes nothing
            self.done = True
            master.detach(self)


def _model() -> Any:
    from openskill.models import PlackettLuce  # noqa: PLC0415 (an optional extra)

    return PlackettLuce()


def rating_json(row: Rating, account: Account | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": row.game_id,
        "seats": row.seats,
        "mu": round(row.mu, 4),
        "sigma": round(row.sigma, 4),
        "ordinal": round(row.mu - 3 * row.sigma, 4),
        "games": row.games,
        "provisional": row.provisional,
    }
    if account is not None:
        data["account"] = account.id
        data["name"] = account.display_name
        data["bot"] = account.kind == "bot"
    return data


class Ranked:
    """The ranked queue and the ratings."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], store: SqlMatchStore, matches: Matches
    ) -> None:
        self.sessions = sessions
        self.store = store
        self.matches = matches
        self._lock = asyncio.Lock()
        self._rating = asyncio.Lock()
        self._queue: dict[int, Ticket] = {}
        self._ended: dict[int, dict[str, Any]] = {}
        self._watching: dict[str, asyncio.Task[None]] = {}

    async def start(self) -> int:
        """Watch the leavers of every ranked match being played (rebuilt on startup), their
        stored leavers kept; returns how many."""
        async with self.sessions() as session:
            found = (
                await session.scalars(
                    select(Match.id).where(Match.mode == "ranked", Match.status == "playing")
                )
            ).all()
        watched = 0
        for match_id in found:
            master = await self.matches.get(match_id)
            if master is not None and match_id not in self._watching:
                await self._watch(master, await self.store.ranked_leavers(match_id))
                watched += 1
        return watched

    def close(self) -> None:
        for task in self._watching.values():
            task.cancel()
        self._watching.clear()

    # -- the queue ---------------------------------------------------------------------

    async def join(
        self,
        account: AccountRow,
        game_id: str,
        seats: int,
        options: dict[str, Any] | None = None,
        wait: float = DEFAULT_WAIT,
        *,
        faction: str | None = None,
    ) -> dict[str, Any]:
        """Queue for a ranked match (one ticket per account; queueing again replaces it).
        ``faction``: the one this account plays, in a game whose seats each play one.

        Raises:
            RankedError: ``ranked/bad_game``, ``ranked/bad_seats``, ``ranked/bad_options``,
                ``ranked/bad_faction``.
        """
        counts = ranked_seats()
        if game_id not in counts:
            raise RankedError(422, "ranked/bad_game", f"ranked games: {list(counts)}")
        if seats not in counts[game_id]:
            raise RankedError(
                422, "ranked/bad_seats", f"{game_id} is ranked at {counts[game_id]} seats"
            )
        try:
            game = load_game(game_id, seats=seats, options=options or {})
            check_table("ranked", dict(game.options), TIMER)
        except ValueError as refused:
            raise RankedError(422, "ranked/bad_options", str(refused)) from None
        table = dict(game.options)
        factions = faction_choices(game_id, seats)
        if factions is not None:
            chosen = sorted(set(options or {}) & {f"faction{seat}" for seat in range(seats)})
            if chosen:
                raise RankedError(
                    422,
                    "ranked/bad_options",
                    f"the seats are drawn: queue with your own faction ('faction'), not {chosen}",
                )
            if faction is not None and faction not in factions:
                raise RankedError(
                    422, "ranked/bad_faction", f"{game_id}'s factions: {list(factions)}"
                )
            for seat in range(seats):
                del table[f"faction{seat}"]
        elif faction is not None:
            raise RankedError(422, "ranked/bad_faction", f"{game_id}'s seats play no faction")
        mu = (await self._rating_of(account.id, game_id, seats))[0]
        ticket = Ticket(account, game_id, seats, table, mu, min(max(wait, 1.0), MAX_WAIT), faction)
        async with self._lock:
            self._ended.pop(account.id, None)
            self._queue[account.id] = ticket
            await self._pair()
        return await self.status(account)

    async def leave(self, account: AccountRow) -> bool:
        async with self._lock:
            self._ended.pop(account.id, None)
            return self._queue.pop(account.id, None) is not None

    async def status(self, account: AccountRow) -> dict[str, Any]:
        """Where the caller stands: ``none``, ``queued``, ``matched`` or ``timeout``."""
        async with self._lock:
            await self._pair()
            ticket = self._queue.get(account.id)
            if ticket is not None:
                now = time.monotonic()
                return {
                    "status": "queued",
                    "bot": ticket.account.is_bot,
                    "game": ticket.game,
                    "seats": ticket.seats,
                    "options": ticket.options,
                    "faction": ticket.faction,
                    "waited": round(ticket.waited(now), 2),
                    "range": round(ticket.range(now), 2),
                    "queued": sum(1 for t in self._queue.values() if t.key == ticket.key),
                }
            return self._ended.get(account.id, {"status": "none"})

    async def _pair(self) -> None:
        """Time out old tickets, then form every match the queue allows (under the lock)."""
        now = time.monotonic()
        for account_id, ticket in list(self._queue.items()):
            if ticket.waited(now) > ticket.wait:
                del self._queue[account_id]
                self._ended[account_id] = {
                    "status": "timeout",
                    "game": ticket.game,
                    "seats": ticket.seats,
                }
        groups: dict[tuple[str, int, str], list[Ticket]] = {}
        for ticket in self._queue.values():
            groups.setdefault(ticket.key, []).append(ticket)
        for tickets in groups.values():
            tickets.sort(key=lambda t: t.mu)
            need, start = tickets[0].seats, 0
            while start + need <= len(tickets):
                window = tickets[start : start + need]
                spread = window[-1].mu - window[0].mu
                if all(spread <= t.range(now) for t in window):
                    await self._form(window)
                    del tickets[start : start + len(window)]
                else:
                    start += 1

    async def _form(self, tickets: list[Ticket]) -> None:
        first = tickets[0]
        order = list(tickets)
        draw = secrets.SystemRandom()
        draw.shuffle(order)  # who sits first is drawn
        options = dict(first.options)
        factions = faction_choices(first.game, first.seats)
        if factions is not None:
            for seat, ticket in enumerate(order):
                options[f"faction{seat}"] = ticket.faction or draw.choice(factions)
        holders = [
            SeatHolder(seat, t.account.display_name, account_id=t.account.id, ready=True)
            for seat, t in enumerate(order)
        ]
        match = StoredMatch(
            id=new_match_id(),
            game_id=load_game(first.game, seats=first.seats, options=options).id,
            seats=first.seats,
            options=options,
            seed=secrets.randbelow(MAX_SEED + 1),
            mode="ranked",
            holders=holders,
            status="playing",
            turn_seconds=TIMER,
        )
        await self.store.create_match(match)
        master = await self.matches.begin(match)
        await self._watch(master, set())
        for seat, ticket in enumerate(order):
            del self._queue[ticket.account.id]
            self._ended[ticket.account.id] = {
                "status": "matched",
                "game": ticket.game,
                "seats": ticket.seats,
                "match": match.id,
                "seat": seat,
                "faction": options.get(f"faction{seat}") if factions is not None else None,
                "socket": f"/ws/matches/{match.id}",
            }

    async def _watch(self, master: MatchMaster, leavers: set[Seat]) -> None:
        """Keep the match's leavers stored while it is played, and rate it when it ends."""
        watch = LeaverWatch(master, leavers)
        self._watching[master.id] = asyncio.get_running_loop().create_task(
            self._keep_leavers(watch)
        )
        await master.attach(watch)

    async def _keep_leavers(self, watch: LeaverWatch) -> None:
        """Store each new set of leavers in turn; at the end, rate the match."""
        match_id = watch.master.id
        try:
            while True:
                leavers, over = await watch.changes.get()
                try:
                    await self.store.set_ranked_leavers(match_id, set(leavers))
                except Exception:  # the next change stores the whole set again
                    log.exception("storing the leavers of ranked match %s failed", match_id)
                if over:
                    break
        finally:
            self._watching.pop(match_id, None)
        try:
            await self.settle()
        except Exception:  # the next queue, leaderboard or ratings request rates it
            log.exception("rating ranked match %s failed", match_id)

    # -- ratings -----------------------------------------------------------------------

    async def _rating_of(self, account_id: int, game_id: str, seats: int) -> tuple[float, float]:
        async with self.sessions() as session:
            row = await session.get(Rating, (account_id, game_id, seats))
            return (START_MU, START_SIGMA) if row is None else (row.mu, row.sigma)

    async def settle(self) -> int:
        """Rate every finished ranked match not rated yet, but those whose leavers are still
        being stored (their watch rates them next); returns how many."""
        async with self._rating:
            async with self.sessions() as session:
                rated = select(RatingChange.match_id).distinct()
                found = (
                    await session.scalars(
                        select(Match.id)
                        .where(Match.mode == "ranked", Match.status == "over")
                        .where(Match.id.not_in(rated))
                        .order_by(Match.updated_at, Match.id)
                    )
                ).all()
            found = [match_id for match_id in found if match_id not in self._watching]
            for match_id in found:
                await self._rate(match_id, await self.store.ranked_leavers(match_id))
            return len(found)

    async def _rate(self, match_id: str, leavers: set[Seat]) -> None:
        model = _model()
        async with self.sessions() as session, session.begin():
            match = await session.get(Match, match_id)
            if match is None:
                return
            seats = (
                await session.scalars(
                    select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
                )
            ).all()
            game_id = match.game_id.split("/")[0]  # ratings outlive a game's version
            places = places_of(match.outcome, match.seats)
            if len(leavers) >= match.seats:  # everyone left: places stand as the match ended
                leavers = set()
            last = max(places) + 1
            places = [last if seat in leavers else place for seat, place in enumerate(places)]
            distinct = sorted(set(places))
            places = [distinct.index(place) + 1 for place in places]
            rated = [(s, places[s.seat]) for s in seats if s.account_id is not None]
            if len({s.account_id for s, _ in rated}) < 2:
                return
            rows: list[Rating] = []
            for holder, _ in rated:
                row = await session.get(Rating, (holder.account_id, game_id, match.seats))
                if row is None:
                    row = Rating(
                        account_id=holder.account_id,
                        game_id=game_id,
                        seats=match.seats,
                        mu=START_MU,
                        sigma=START_SIGMA,
                        games=0,
                        provisional=True,
                    )
                    session.add(row)
                rows.append(row)
            teams = [[model.rating(mu=row.mu, sigma=row.sigma)] for row in rows]
            after = model.rate(teams, ranks=[place for _, place in rated])
            now = utcnow()
            for (holder, place), row, team in zip(rated, rows, after, strict=True):
                assert holder.account_id is not None
                session.add(
                    RatingChange(
                        match_id=match_id,
                        account_id=holder.account_id,
                        game_id=game_id,
                        seats=match.seats,
                        place=place,
                        mu_before=row.mu,
                        sigma_before=row.sigma,
                        mu=team[0].mu,
                        sigma=team[0].sigma,
                        created_at=now,
                    )
                )
                row.mu, row.sigma = team[0].mu, team[0].sigma
                row.games += 1
                row.provisional = row.games < PROVISIONAL_GAMES
                row.updated_at = now

    async def leaderboard(self, game_id: str, seats: int, limit: int = 100) -> list[dict[str, Any]]:
        """Established ratings first, each group by ordinal (mu - 3 sigma), best first."""
        await self.settle()
        async with self.sessions() as session:
            found = (
                await session.execute(
                    select(Rating, Account)
                    .join(Account, Account.id == Rating.account_id)
                    .where(Rating.game_id == game_id, Rating.seats == seats)
                )
            ).all()
        board = [rating_json(row, account) for row, account in found]
        board.sort(key=lambda r: (r["provisional"], -r["ordinal"]))
        for rank, entry in enumerate(board[:limit], start=1):
            entry["rank"] = rank
        return board[:limit]

    async def ratings_of(self, account_id: int) -> dict[str, Any]:
        """An account's ratings and its rating history, newest first."""
        await self.settle()
        async with self.sessions() as session:
            rows = (
                await session.scalars(select(Rating).where(Rating.account_id == account_id))
            ).all()
            history = (
                await session.scalars(
                    select(RatingChange)
                    .where(RatingChange.account_id == account_id)
                    .order_by(RatingChange.created_at.desc())
                    .limit(200)
                )
            ).all()
        return {
            "account": account_id,
            "ratings": [rating_json(row) for row in rows],
            "history": [
                {
                    "match": h.match_id,
                    "game": h.game_id,
                    "seats": h.seats,
                    "place": h.place,
                    "mu_before": round(h.mu_before, 4),
                    "sigma_before": round(h.sigma_before, 4),
                    "mu": round(h.mu, 4),
                    "sigma": round(h.sigma, 4),
                    "at": h.created_at.isoformat(),
                }
                for h in history
            ],
        }
