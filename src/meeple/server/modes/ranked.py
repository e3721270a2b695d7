"""Ranked matches: a matchmaking queue per game and seat count, and OpenSkill ratings.

The rules: "Ranked matches, the Daily and the tutorial are always everyone against
everyone" and "A ranked match is fixed at 90 seconds." Maiterra is ranked at 2, 3 or 4
seats, Maatatahay and Manafields one against one.

Ranked is for registered accounts (a guest is refused with ``ranked/account_needed``), and it
is played by the rules as published: the game's default options, none chosen, so nobody can
queue for a table of their own that only their second account would meet. In a game whose
seats each play a faction (options ``faction0``, ``faction1``, ...: Manafields), each person
queues with the faction they will play, or none to have one drawn; the seats are drawn when
the match forms and each seat's faction option set to its player's faction. A faction is a
player's own choice: people of different factions meet.

The queue pairs the same two accounts at most ``ranked_pair_per_day`` times a UTC day (the
setting): past that, a group holding both is not formed, and each meets someone else. A
match the queue forms is always rated, so two accounts that keep meeting, one throwing its
matches to the other, stop gaining anything after that many.

The queue lives in the database (``ranked_tickets``), so that every worker of a server pairs
from one queue and anyone asking any worker learns where they stand: a ticket waits until
enough people of near rating are queued for the same game, seat count and options. Two
tickets fit when their ratings (mu) lie within both their ranges; a range starts at
:data:`BASE_RANGE` and widens by :data:`WIDEN_PER_SECOND` for every second waited. A
ticket not matched within its ``wait`` seconds times out. Pairing takes the queued tickets
with ``FOR UPDATE SKIP LOCKED`` (on PostgreSQL; one process on SQLite pairs under its own
lock): two workers pairing at once never put one ticket in two matches, and neither waits
for the other. A formed match and its tickets marked ``matched`` are stored in one
transaction.

A ranked match is rated when it ends: OpenSkill's Plackett-Luce model, the winners first,
the others by score when the game counts points (equal places tie), everyone tied in a
draw. Each seat is rated by what happened on the board, but a leaver cannot gain by leaving:
a leaver's own rating counts it as last place, below everyone who stayed, while those who
stayed are rated by the places the board gave them, the leaver's bot where it finished.
(Rating everyone with the leaver moved to last lifted a player above a bot that beat them: a
throw-away account that queued and left handed its opponent a win it lost on the board.)
When everyone left, places stand as the match ended.

A leaver is a seat its bot took over (its player away past the grace period) whose player
did not come back before the match ended. A player who connects to the match again before
its last action is no leaver, even if the bot played for them meanwhile (as on lichess and
BGA, coming back and finishing is what counts); leaving again past the grace period makes
them one again. Coming back after the end changes nothing. Leavers are stored
(``ranked_leavers``) as the bot takes a seat over and dropped as its player comes back, so a
server restart forgets none: a match is rated from the stored leavers, also one that ended
while the server was down (rated on the next leaderboard or ratings request, or as the
next ranked match mastered by that worker ends).

With many workers, the worker mastering a ranked match watches it (it follows every match
it becomes the master of: :meth:`Matches.on_master`) and rates it when it ends, keeping the
match's lock until it is rated; a match whose worker died before rating it is rated by the
next worker to settle, under that same lock. A match is rated once: its rating and the check
that it has none are one transaction.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import Counter
from collections.abc import Set
from dataclasses import dataclass, field
from datetime import UTC, datetime
from datetime import time as time_of_day
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from meeple.core import Seat, game_class, load_game, registered
from meeple.core.record import MAX_SEED
from meeple.server.live.master import MatchMaster
from meeple.server.live.matches import Matches, new_match_id
from meeple.server.modes.kinds import MODES, check_table
from meeple.server.store.match_store import SeatHolder, StoredMatch
from meeple.server.store.models import (
    Account,
    Match,
    MatchSeat,
    RankedTicket,
    Rating,
    RatingChange,
    utcnow,
)
from meeple.server.store.repository import AccountRow, SqlMatchStore

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
PAIR_EVERY = 0.5
"""Seconds between two pairings a worker runs for people asking where they stand (each one
queueing pairs at once): a thousand people asking every second cost two a second, not a
thousand."""


def pair_key(one: int, other: int) -> tuple[int, int]:
    return (one, other) if one < other else (other, one)


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
    joined: datetime = field(default_factory=utcnow)

    @property
    def key(self) -> tuple[str, int, str]:
        return (self.game, self.seats, json.dumps(self.options, sort_keys=True))

    def waited(self, now: datetime) -> float:
        return (now - self.joined).total_seconds()

    def range(self, now: datetime) -> float:
        return BASE_RANGE + WIDEN_PER_SECOND * self.waited(now)

    @classmethod
    def of(cls, row: RankedTicket, account: AccountRow) -> Ticket:
        return cls(
            account,
            row.game_id,
            row.seats,
            dict(row.options),
            row.mu,
            row.wait,
            row.faction,
            row.joined,
        )


def pairings(
    tickets: list[Ticket], now: datetime, spent: Set[tuple[int, int]] = frozenset()
) -> list[list[Ticket]]:
    """The groups the queue forms now, each as many tickets as seats: tickets of one game,
    seat count and options sorted by rating, a window of them taken when its spread of
    ratings lies within every member's range and no two of its accounts are a ``spent``
    pair (met as often today as they may: see :func:`pair_key`)."""
    groups: dict[tuple[str, int, str], list[Ticket]] = {}
    for ticket in tickets:
        groups.setdefault(ticket.key, []).append(ticket)
    formed: list[list[Ticket]] = []
    for group in groups.values():
        group.sort(key=lambda t: (t.mu, t.joined))
        need, start = group[0].seats, 0
        while start + need <= len(group):
            window = group[start : start + need]
            spread = window[-1].mu - window[0].mu
            ids = [t.account.id for t in window]
            met = any(pair_key(a, b) in spent for i, a in enumerate(ids) for b in ids[i + 1 :])
            if not met and all(spread <= t.range(now) for t in window):
                formed.append(window)
                del group[start : start + need]
            else:
                start += 1
    return formed


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


def _leavers_last(places: list[int], leavers: set[Seat]) -> list[int]:
    """The places with every leaver moved below everyone who stayed (leavers tie), numbered
    1, 2, ... again."""
    last = max(places) + 1
    moved = [last if seat in leavers else place for seat, place in enumerate(places)]
    distinct = sorted(set(moved))
    return [distinct.index(place) + 1 for place in moved]


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
        self.pair_per_day = matches.settings.ranked_pair_per_day
        self._lock = asyncio.Lock()
        self._rating = asyncio.Lock()
        self._watching: dict[str, asyncio.Task[None]] = {}
        self._paired_at = -PAIR_EVERY
        # Every ranked match mastered here, from startup on, and only those: a worker that
        # forwards to another's master neither watches nor rates.
        matches.on_master(self._follow, self._unfollow)

    async def _follow(self, master: MatchMaster) -> None:
        """A match mastered here from now on (rebuilt on startup, begun, claimed, taken over
        from a worker that died): a ranked one is watched, its stored leavers kept."""
        if master.match.mode != "ranked" or master.over or master.id in self._watching:
            return
        leavers = await self.store.ranked_leavers(master.id)
        await self._watch(master, leavers)
        # A stored leaver's bot plays on at once: its player had left before the restart or
        # the takeover, so no fresh grace period is waited out for it.
        await master.away_now(leavers)

    def _unfollow(self, match_id: str) -> None:
        """Another worker masters the match now: it watches and rates it."""
        task = self._watching.pop(match_id, None)
        if task is not None:
            task.cancel()
        self.matches.let_go(match_id)

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
            RankedError: ``ranked/account_needed`` (a guest), ``ranked/bad_game``,
                ``ranked/bad_seats``, ``ranked/bad_options``, ``ranked/bad_faction``.
        """
        if account.kind == "guest":
            raise RankedError(
                403,
                "ranked/account_needed",
                "ranked is for registered accounts: create one to queue (a guest plays solo, "
                "rooms and the Daily)",
            )
        counts = ranked_seats()
        if game_id not in counts:
            raise RankedError(422, "ranked/bad_game", f"ranked games: {list(counts)}")
        if seats not in counts[game_id]:
            raise RankedError(
                422, "ranked/bad_seats", f"{game_id} is ranked at {counts[game_id]} seats"
            )
        factions = faction_choices(game_id, seats)
        if options:
            hint = " (the seats are drawn: queue with your own 'faction')" if factions else ""
            raise RankedError(
                422,
                "ranked/bad_options",
                f"ranked is played by the published rules, the game's default options: "
                f"{sorted(options)[:8]} cannot be chosen{hint}",
            )
        game = load_game(game_id, seats=seats)
        check_table("ranked", dict(game.options), TIMER)
        table = dict(game.options)
        if factions is not None:
            if faction is not None and faction not in factions:
                raise RankedError(
                    422, "ranked/bad_faction", f"{game_id}'s factions: {list(factions)}"
                )
            for seat in range(seats):
                del table[f"faction{seat}"]
        elif faction is not None:
            raise RankedError(422, "ranked/bad_faction", f"{game_id}'s seats play no faction")
        mu = (await self._rating_of(account.id, game_id, seats))[0]
        async with self._lock:
            async with self.sessions() as session, session.begin():
                row = await session.get(RankedTicket, account.id, with_for_update=True)
                if row is None:
                    row = RankedTicket(account_id=account.id)
                    session.add(row)
                # Queueing again replaces the ticket, and forgets how the last one ended.
                row.status, row.game_id, row.seats, row.options = "queued", game_id, seats, table
                row.faction, row.mu, row.wait = faction, mu, min(max(wait, 1.0), MAX_WAIT)
                row.joined, row.match_id, row.seat = utcnow(), None, None
            await self._pair()
        return await self.status(account)

    async def leave(self, account: AccountRow) -> bool:
        """Leave the queue (and forget how a ticket ended); whether one was queued."""
        async with self._lock, self.sessions() as session, session.begin():
            row = await session.get(RankedTicket, account.id, with_for_update=True)
            if row is None:
                return False
            await session.delete(row)
            return row.status == "queued"

    async def status(self, account: AccountRow) -> dict[str, Any]:
        """Where the caller stands: ``none``, ``queued``, ``matched`` or ``timeout``."""
        async with self._lock:
            if time.monotonic() - self._paired_at >= PAIR_EVERY:
                await self._pair()
        async with self.sessions() as session:
            row = await session.get(RankedTicket, account.id)
            if row is None:
                return {"status": "none"}
            if row.status == "matched":
                return {
                    "status": "matched",
                    "game": row.game_id,
                    "seats": row.seats,
                    "match": row.match_id,
                    "seat": row.seat,
                    "faction": row.faction,
                    "socket": f"/ws/matches/{row.match_id}",
                }
            if row.status != "queued":
                return {"status": row.status, "game": row.game_id, "seats": row.seats}
            alike = (
                await session.scalars(
                    select(RankedTicket.options).where(
                        RankedTicket.status == "queued",
                        RankedTicket.game_id == row.game_id,
                        RankedTicket.seats == row.seats,
                    )
                )
            ).all()
        ticket = Ticket.of(row, account)
        now = utcnow()
        return {
            "status": "queued",
            "bot": account.is_bot,
            "game": row.game_id,
            "seats": row.seats,
            "options": ticket.options,
            "faction": row.faction,
            "waited": round(ticket.waited(now), 2),
            "range": round(ticket.range(now), 2),
            "queued": sum(1 for options in alike if options == ticket.options),
        }

    async def _pair(self) -> None:
        """Time out old tickets, then form every match the queue allows (under the lock).

        The queued tickets are taken ``FOR UPDATE SKIP LOCKED``: those another worker is
        pairing right now are left to it. The matches formed and the tickets marked
        ``matched`` are committed together, then each match begins here."""
        now = utcnow()
        self._paired_at = time.monotonic()
        formed: list[StoredMatch] = []
        async with self.sessions() as session, session.begin():
            found = (
                await session.execute(
                    select(RankedTicket, Account)
                    .join(Account, Account.id == RankedTicket.account_id)
                    .where(RankedTicket.status == "queued")
                    .order_by(RankedTicket.joined, RankedTicket.account_id)
                    .with_for_update(of=RankedTicket, skip_locked=True)
                )
            ).all()
            rows: dict[int, RankedTicket] = {}
            tickets: list[Ticket] = []
            for row, account in found:
                ticket = Ticket.of(
                    row, AccountRow(account.id, account.name, account.display_name, account.kind)
                )
                if ticket.waited(now) > ticket.wait:
                    row.status = "timeout"
                    continue
                rows[row.account_id] = row
                tickets.append(ticket)
            spent = await self._spent_pairs(session, [t.account.id for t in tickets], now)
            for window in pairings(tickets, now, spent):
                match = self._form(window)
                await SqlMatchStore.add_match(session, match)
                for holder in match.holders:
                    assert holder.account_id is not None
                    row = rows[holder.account_id]
                    row.status, row.match_id, row.seat = "matched", match.id, holder.seat
                    row.faction = match.options.get(f"faction{holder.seat}")
                formed.append(match)
        for match in formed:
            try:
                await self.matches.begin(match)
            except Exception:  # stored as playing: a worker claims it, a restart rebuilds it
                log.exception("ranked match %s did not begin", match.id)

    async def _spent_pairs(
        self, session: AsyncSession, queued: list[int], now: datetime
    ) -> set[tuple[int, int]]:
        """The pairs of queued accounts that have met in :attr:`pair_per_day` ranked matches
        formed today (UTC) already, each as :func:`pair_key`."""
        if len(queued) < 2:
            return set()
        midnight = datetime.combine(now.date(), time_of_day.min, tzinfo=UTC)
        found = (
            await session.execute(
                select(MatchSeat.match_id, MatchSeat.account_id)
                .join(Match, Match.id == MatchSeat.match_id)
                .where(
                    Match.mode == "ranked",
                    Match.created_at >= midnight,
                    MatchSeat.account_id.in_(queued),
                )
            )
        ).all()
        seated: dict[str, list[int]] = {}
        for match_id, account_id in found:
            if account_id is not None:
                seated.setdefault(match_id, []).append(account_id)
        met: Counter[tuple[int, int]] = Counter()
        for ids in seated.values():
            met.update(pair_key(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
        return {pair for pair, count in met.items() if count >= self.pair_per_day}

    @staticmethod
    def _form(tickets: list[Ticket]) -> StoredMatch:
        """The match a group of tickets forms: seats drawn, each seat's faction set."""
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
        return StoredMatch(
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

    async def _watch(self, master: MatchMaster, leavers: set[Seat]) -> None:
        """Keep the match's leavers stored while it is played, and rate it when it ends
        (its lock kept until then)."""
        watch = LeaverWatch(master, leavers)
        self.matches.hold(master.id)
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
        except Exception:  # the next leaderboard or ratings request rates it
            log.exception("rating ranked match %s failed", match_id)
        finally:
            self.matches.let_go(match_id)

    # -- ratings -----------------------------------------------------------------------

    async def _rating_of(self, account_id: int, game_id: str, seats: int) -> tuple[float, float]:
        async with self.sessions() as session:
            row = await session.get(Rating, (account_id, game_id, seats))
            return (START_MU, START_SIGMA) if row is None else (row.mu, row.sigma)

    async def settle(self) -> int:
        """Rate every finished ranked match not rated yet, but those whose leavers are still
        being stored (their watch rates them next, here or on the worker mastering them);
        returns how many."""
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
            count = 0
            for match_id in found:
                if match_id not in self._watching and await self._rate_once(match_id):
                    count += 1
            return count

    async def _rate_once(self, match_id: str) -> bool:
        """Rate a finished match, unless another worker's master still holds its lock (it
        rates the match itself); whether it was rated now. Held here already or not at all:
        a finished match merely read into memory here (its page opened) is not held."""
        cluster = self.matches.cluster
        if cluster is None or match_id in cluster.owned:
            return await self._rate(match_id, await self.store.ranked_leavers(match_id))
        if not await cluster.claim(match_id):
            return False
        try:
            return await self._rate(match_id, await self.store.ranked_leavers(match_id))
        finally:
            await cluster.release(match_id)

    async def _rate(self, match_id: str, leavers: set[Seat]) -> bool:
        """Rate the match from its outcome and leavers; False when it was rated already
        (checked in the same transaction), or by another worker in the same moment (its
        commit won: the rating history's key refused this one, nothing of it was stored; a
        match left unrated that way is rated on the next leaderboard or ratings request), or
        there is nobody to rate."""
        try:
            return await self._rate_in_one_transaction(match_id, leavers)
        except IntegrityError:
            log.info("match %s was rated by another worker at the same time", match_id)
            return False

    async def _rate_in_one_transaction(self, match_id: str, leavers: set[Seat]) -> bool:
        model = _model()
        async with self.sessions() as session, session.begin():
            match = await session.get(Match, match_id)
            if match is None:
                return False
            done = select(RatingChange.match_id).where(RatingChange.match_id == match_id)
            if await session.scalar(done.limit(1)) is not None:
                return False
            seats = (
                await session.scalars(
                    select(MatchSeat).where(MatchSeat.match_id == match_id).order_by(MatchSeat.seat)
                )
            ).all()
            game_id = match.game_id.split("/")[0]  # ratings outlive a game's version
            board = places_of(match.outcome, match.seats)
            if len(leavers) >= match.seats:  # everyone left: places stand as the match ended
                leavers = set()
            left = _leavers_last(board, leavers)
            rated = [s for s in seats if s.account_id is not None]
            if len({s.account_id for s in rated}) < 2:
                return False
            rows: list[Rating] = []
            for holder in rated:
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
            # Those who stayed, by the board; a leaver, as last below them (see the module).
            by_board = model.rate(teams, ranks=[board[s.seat] for s in rated])
            by_leaving = model.rate(teams, ranks=[left[s.seat] for s in rated]) if leavers else []
            now = utcnow()
            for index, (holder, row) in enumerate(zip(rated, rows, strict=True)):
                assert holder.account_id is not None
                gone = holder.seat in leavers
                team = (by_leaving if gone else by_board)[index]
                place = (left if gone else board)[holder.seat]
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
        return True

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
