"""The match master: the one authority over a live match.

Modelled on boardgame.io's master, with storage and transport passed in: a
:class:`MatchMaster` is given a :class:`~meeple.server.store.match_store.MatchStore` and speaks to
:class:`Connection` objects, so tests run it in-process with a memory store and fake
connections, and the server runs it with the database and WebSockets.

For each action it checks the seat and the version, applies it through the engine (on a
copy), **stores it before acknowledging**, then moves to the new state and pushes every
seat its own view (``State.view(seat)``) with the events it may see, and spectators the
public view. A refused action gets a typed error on its connection only and changes nothing.

Versions: each audience -- each seat, and the spectators -- has its own version, the number
of changes *it* could see. An accepted action raises the version of every audience whose
frame it changed (an event it may see, or its view, legal actions, deciding seats or
outcome; the acting seat always) and only those audiences get an update. A sealed order in
Maiterra changes its own seat's frame only, so another seat or a spectator learns nothing
of it, not even that one was queued; "has ended" changes everyone's. The number of
accepted actions (:attr:`MatchMaster.version`, the record's numbering) stays on the server.

A seat acts against the version it last saw; the action is stale when that seat's legal
actions have changed since then. In sequential play every move changes the next seat's
choices, so this is the usual strict check; in simultaneous planning (Maiterra) another
seat's sealed orders leave a seat's choices as they were, so seats can queue orders at the
same time without refusals.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

import orjson

from meeple.ai import make_bot
from meeple.core import JSON, Action, Event, GameError, Seat, State, load_game, mix_seed
from meeple.server.live.bots import BotJob, BotRunner, BotsClosed, default_bot
from meeple.server.live.presence import Presence
from meeple.server.live.protocol import (
    MATCH_OVER,
    SEAT_WRONG,
    STORE_FAILED,
    VERSION_STALE,
    ActionIn,
    ActionInfo,
    ClockOut,
    ErrorOut,
    LeavingInfo,
    MissedOut,
    PingIn,
    PlayerInfo,
    PongOut,
    PresenceOut,
    ProtocolError,
    ResumeIn,
    SnapshotOut,
    encode,
    parse_client_message,
)
from meeple.server.store.match_store import MatchStore, StaleWrite, StoredMatch
from meeple.server.store.models import utcnow

log = logging.getLogger(__name__)

# Refusals a person can meet, in words (the code beside each is for programs).
_AHEAD = "Your page is ahead of the match; reload it to see the match as it stands."
_CHANGED = "The match moved on before your action arrived; look again and choose anew."
_NOT_STORED = "The server could not keep your action, so nothing changed; send it again."

BOT_RETRIES = 8
"""How often a bot tries again after a failed decision or store before it gives up."""

INLINE_BOTS = frozenset({"random"})
"""Bots whose decision costs microseconds (a pick among the legal actions): they decide on
the event loop, as :func:`meeple.server.live.bots.decide` would, with no trip to the bot process.
Every other bot (greedy and heuristic take milliseconds, the searching bots up to their
budget) decides in the pool."""

WAIT_FOR_PLAYER = frozenset({"solo"})
"""Modes whose bots think only while a seat's player is connected: a solo match nobody
watches costs no CPU, however many of them an account leaves open."""


class Connection(Protocol):
    """Where the master sends one client's frames. ``seat`` is None for a spectator."""

    @property
    def seat(self) -> Seat | None: ...

    async def send(self, text: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Applied:
    """One accepted action and the events it made (kept to replay missed updates).

    ``number`` is its place in the record; ``seen`` each audience's version after it (the
    seats in order, then the spectators) and ``changed`` whether it raised that version."""

    number: int
    seat: Seat
    action: int
    events: tuple[Event, ...]
    seen: tuple[int, ...]
    changed: tuple[bool, ...]


def _audience(index: int, seats: int) -> Seat | None:
    """The audience at ``index`` of :attr:`Applied.seen`: a seat, or None (spectators)."""
    return None if index == seats else index


class MatchMaster:
    """The authority over one match. Build with :meth:`rebuild` from its stored record."""

    def __init__(
        self,
        match: StoredMatch,
        store: MatchStore,
        bots: BotRunner | None,
        *,
        max_message_bytes: int = 16 * 1024,
        bot_move_seconds: float = 1.0,
        turn_seconds: float | None = None,
        grace_seconds: float | None = None,
    ) -> None:
        self.match = match
        self.store = store
        self.bots = bots
        self.max_message_bytes = max_message_bytes
        self.bot_move_seconds = bot_move_seconds
        self.game = load_game(match.game_id, seats=match.seats, options=match.options)
        self.state: State = self.game.new_initial_state(match.seed)
        self.applied: list[Applied] = []
        self._choices: list[tuple[int, ...]] = [self._legal_key(s) for s in range(match.seats)]
        # Where each seat's choices last changed: its own version then, and the action's number.
        self._changed_at: list[int] = [0] * match.seats
        self._changed_number: list[int] = [0] * match.seats
        # Each audience's version (the seats, then the spectators) and what its frame held
        # after the last action that did not hand it an event (None: not worked out then).
        self._seen: list[int] = [0] * (match.seats + 1)
        self._frames: list[bytes | None] = [None] * (match.seats + 1)
        self.connections: set[Connection] = set()
        # Notation the engine words the same in every position is worded once per action.
        self._notation: dict[Action, str] | None = (
            {} if type(self.state).action_to_string is State.action_to_string else None
        )
        self._lock = asyncio.Lock()
        self._bot_task: asyncio.Task[None] | None = None
        self.turn_seconds = turn_seconds
        self.presence = Presence(grace_seconds, self._connected, self._went_away)
        self._clock_task: asyncio.Task[None] | None = None
        self._closed = False
        self._armed_for: datetime | None = None
        # Replayed without the per-action stale bookkeeping: after a rebuild an action sent
        # against any earlier version is stale (clients get a fresh snapshot on connecting).
        # The audiences' versions come out as they did live: they are worked out alike.
        for seat, action in list(match.actions):
            after = self.state.clone()
            events = after.apply(seat, action)
            self._count(after, seat, action, events)
            self.state = after
        if self.applied:
            self._choices = [self._legal_key(s) for s in range(match.seats)]
            self._changed_at = self._seen[: match.seats]
            self._changed_number = [self.version] * match.seats
        self.deadline: datetime | None = match.deadline if turn_seconds else None
        self._timed: frozenset[Seat] = (
            frozenset(self.state.deciding_seats()) if self.deadline else frozenset()
        )

    @classmethod
    def rebuild(
        cls, match: StoredMatch, store: MatchStore, bots: BotRunner | None, **kw: Any
    ) -> MatchMaster:
        """The master of a stored match, its state replayed from seed and actions."""
        return cls(match, store, bots, **kw)

    # -- where the match stands --------------------------------------------------------

    @property
    def id(self) -> str:
        return self.match.id

    @property
    def version(self) -> int:
        """The number of accepted actions: the record's numbering, private to the server
        (clients see their audience's version, :meth:`version_of`)."""
        return len(self.applied)

    def version_of(self, seat: Seat | None) -> int:
        """The version ``seat``'s audience has seen (None: the spectators')."""
        return self._seen[self.match.seats if seat is None else seat]

    @property
    def public_version(self) -> int:
        """The spectators' version: what the lobby and the REST summary show."""
        return self._seen[-1]

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` stopped it (another master replaced it, or shutdown)."""
        return self._closed

    def _legal_key(self, seat: Seat) -> tuple[int, ...]:
        return tuple(self.state.legal_actions(seat))

    def _advance(self, after: State, seat: Seat, action: int, events: list[Event]) -> None:
        """Count the action (:meth:`_count`), move to ``after``, note whose choices changed."""
        self._count(after, seat, action, events)
        self.state = after
        for other in range(self.match.seats):
            key = self._legal_key(other)
            if key != self._choices[other]:
                self._choices[other] = key
                self._changed_at[other] = self._seen[other]
                self._changed_number[other] = self.version

    def _count(self, after: State, seat: Seat, action: int, events: list[Event]) -> None:
        """Raise the version of each audience whose frame the action changes, ``self.state``
        still the position before it: the acting seat's and any that may see one of its
        events at once; for the others, what their frame would hold (view, legal actions,
        deciding seats, outcome) is compared before and after. Live and in a replay alike,
        so a rebuilt master (after a restart, on another worker) counts the same."""
        seats = self.match.seats
        changed = []
        for index in range(seats + 1):
            audience = _audience(index, seats)
            if index == seat or any(event.visible_to(audience) for event in events):
                self._frames[index] = None
                changed.append(True)
                continue
            before = self._frames[index]
            if before is None:
                before = self._frame_key(self.state, audience)
            now = self._frame_key(after, audience)
            self._frames[index] = now
            changed.append(now != before)
        for index, moved in enumerate(changed):
            if moved:
                self._seen[index] += 1
        self.applied.append(
            Applied(
                len(self.applied) + 1,
                seat,
                action,
                tuple(events),
                tuple(self._seen),
                tuple(changed),
            )
        )

    @staticmethod
    def _frame_key(state: State, audience: Seat | None) -> bytes:
        """What an update to ``audience`` would hold in ``state``, but for its version and
        events (and the deadline, which moves only with the deciding seats)."""
        legal = () if audience is None else state.legal_actions(audience)
        outcome = state.outcome()
        return orjson.dumps(
            [
                state.view(audience),
                list(legal),
                list(state.deciding_seats()),
                None if outcome is None else outcome.to_json(),
            ],
            option=orjson.OPT_NON_STR_KEYS,
        )

    def _name(self, seat: int) -> str:
        """The seat as the board names it (Red, Wazu, Humans), for refusals people read."""
        if 0 <= seat < self.game.seats:
            return self.state.seat_name(seat)
        return "a seat this match does not have"

    def bot_of(self, seat: Seat) -> str | None:
        """The bot playing ``seat``: its own, or the game's default while its player is away."""
        holder = self.match.holders[seat]
        if holder.bot is None and seat in self.presence.away:
            return default_bot()
        return holder.bot

    def players(self) -> list[PlayerInfo]:
        return [
            PlayerInfo(seat=h.seat, name=h.name, bot=h.bot, account=h.account_id)
            for h in self.match.holders
        ]

    def _outcome(self) -> Any:
        outcome = self.state.outcome()
        return None if outcome is None else outcome.to_json()

    def _legal(self, seat: Seat | None) -> list[dict[str, Any]]:
        """The seat's legal actions now, as _advance last computed them (``ActionInfo``)."""
        if seat is None:
            return []
        return [{"id": action, "text": self._text(seat, action)} for action in self._choices[seat]]

    def _text(self, seat: Seat, action: Action) -> str:
        """The action's notation in the current position."""
        known = self._notation
        if known is None:
            return self.state.action_to_string(seat, action)
        text = known.get(action)
        if text is None:
            text = known[action] = self.state.action_to_string(seat, action)
        return text

    def _seat_sees(self, seat: Seat | None) -> tuple[JSON, list[dict[str, Any]]]:
        """The seat's view and legal actions now, for one frame.

        Not kept for later frames of the same version: a view is a few hundred small
        objects, and a thousand live matches each holding one between actions gave the
        garbage collector's young passes that many more to walk, which cost the server more
        CPU per round trip (load script, 200 clients) than a second build at a snapshot
        saves. Within one update, every connection of a seat shares one frame."""
        return self.state.view(seat), self._legal(seat)

    @staticmethod
    def _visible(events: Iterable[Event], seat: Seat | None) -> list[Any]:
        return [event.to_json() for event in events if event.visible_to(seat)]

    def snapshot(
        self, seat: Seat | None, since: int | None = None, ref: str | None = None
    ) -> SnapshotOut:
        """The match as ``seat`` sees it, with the updates after ``since`` when given."""
        index = self.match.seats if seat is None else seat
        version = self._seen[index]
        missed = []
        if since is not None and 0 <= since <= version:
            missed = [
                MissedOut(version=a.seen[index], events=self._visible(a.events, seat))
                for a in self.applied
                if a.changed[index] and a.seen[index] > since
            ]
        view, legal = self._seat_sees(seat)
        return SnapshotOut(
            match=self.id,
            game=self.game.id,
            seat=seat,
            version=version,
            players=self.players(),
            view=view,
            legal=[ActionInfo.model_construct(**item) for item in legal],
            deciding=list(self.state.deciding_seats()),
            status="over" if self.over else "playing",
            outcome=self._outcome(),
            deadline=self._deadline_text(),
            turn_seconds=self.turn_seconds,
            away=sorted(self.presence.away),
            leaving=self._leaving(),
            grace_seconds=self.presence.grace_seconds,
            missed=missed,
            ref=ref,
        )

    def _deadline_text(self) -> str | None:
        return None if self.deadline is None else self.deadline.isoformat()

    # -- connections ---------------------------------------------------------------------

    async def attach(self, connection: Connection, since: int | None = None) -> None:
        """Add a connection and send it a snapshot (with what it missed after ``since``)."""
        async with self._lock:
            self.connections.add(connection)
            returned = connection.seat is not None and self.presence.returned(connection.seat)
            await self._send(connection, self.snapshot(connection.seat, since).model_dump_json())
        if returned:
            await self._presence()
        self.wake()

    def detach(self, connection: Connection) -> None:
        """Forget a connection; a timed match's seat left with none starts its grace period."""
        self.connections.discard(connection)
        if connection.seat is not None:
            self._maybe_away(connection.seat)

    # -- presence: a player away past the grace period is played by a bot ------------------

    def _connected(self, seat: Seat) -> bool:
        return any(connection.seat == seat for connection in self.connections)

    def _maybe_away(self, seat: Seat) -> None:
        holder = self.match.holders[seat]
        if holder.account_id is not None and holder.bot is None and not self.over:
            self.presence.left(seat)

    async def away_now(self, seats: Iterable[Seat]) -> None:
        """Seats whose players had already left (stored leavers of a match rebuilt after a
        restart or a takeover): played by their bots at once rather than after a fresh grace
        period, while none of them has a connection here."""
        if self.over:
            return
        changed = False
        for seat in seats:
            holder = self.match.holders[seat]
            if holder.account_id is not None and holder.bot is None:
                changed |= self.presence.away_now(seat)
        if changed:
            await self._went_away()

    async def _went_away(self) -> None:
        """A grace period began or ended: everyone is told (a bot may now play a seat)."""
        if not self.over:
            await self._presence()
            self.wake_bots()

    def _leaving(self) -> list[LeavingInfo]:
        return [
            LeavingInfo(seat=seat, deadline=deadline.isoformat())
            for seat, deadline in self.presence.leaving().items()
        ]

    async def _presence(self) -> None:
        frame = PresenceOut(away=sorted(self.presence.away), leaving=self._leaving())
        text = frame.model_dump_json()
        await asyncio.gather(*(self._send(c, text) for c in list(self.connections)))

    async def receive(self, connection: Connection, text: str | bytes) -> None:
        """Handle one frame from a connection; a refusal goes to that connection only."""
        ref: str | None = None
        try:
            message = parse_client_message(text, self.max_message_bytes)
            ref = message.ref
            if isinstance(message, ActionIn):
                await self.play(connection, message)
            elif isinstance(message, ResumeIn):
                async with self._lock:
                    seen = self.version_of(connection.seat)
                    if message.since > seen:
                        raise ProtocolError(VERSION_STALE, _AHEAD)
                    out = self.snapshot(connection.seat, message.since, ref)
                    await self._send(connection, out.model_dump_json())
            elif isinstance(message, PingIn):
                await self._send(connection, PongOut(ref=ref).model_dump_json())
        except ProtocolError as error:
            await self.refuse(connection, error, ref)

    async def refuse(
        self, connection: Connection, error: ProtocolError, ref: str | None = None
    ) -> None:
        version = self.version_of(connection.seat)
        ref = ref if ref is not None else error.ref  # a refused message's own, when it had one
        out = ErrorOut(code=error.code, message=error.message, version=version, ref=ref)
        await self._send(connection, out.model_dump_json())

    # -- actions -------------------------------------------------------------------------

    async def play(self, connection: Connection, message: ActionIn) -> None:
        """A seat's action from a connection: checked, stored, acknowledged, broadcast.

        Raises:
            ProtocolError: with the engine's code or ``seat/wrong``, ``version/stale``,
                ``server/store_failed``; nothing has changed then.
        """
        seat = connection.seat
        if seat is None:
            raise ProtocolError(SEAT_WRONG, "You are watching this match: you hold no seat in it.")
        if message.seat is not None and message.seat != seat:
            raise ProtocolError(
                SEAT_WRONG, f"You play {self._name(seat)}, not {self._name(message.seat)}."
            )
        try:
            action = self.game.action_from_json(message.action)
        except GameError as error:
            raise ProtocolError.from_game(error) from None
        await self.submit(
            seat, action, version=None, seen=message.version, origin=connection, ref=message.ref
        )

    async def submit(
        self,
        seat: Seat,
        action: int,
        *,
        version: int | None,
        seen: int | None = None,
        origin: Connection | None = None,
        ref: str | None = None,
        bot: str | None = None,
    ) -> int:
        """Apply ``seat``'s action; returns the new :attr:`version`. ``version`` (a number of
        actions, the server's own callers') and ``seen`` (the seat's version, a client's)
        None skip their checks; ``bot`` names the bot acting, refused if that bot no longer
        plays the seat.

        Shielded: once begun, storing, moving on and telling everyone run to the end even if
        the caller is cancelled, so the match never falls behind what it stored.
        """
        return await asyncio.shield(self._submit(seat, action, version, seen, origin, ref, bot))

    async def _submit(  # noqa: PLR0917 (submit's arguments, passed through the shield)
        self,
        seat: Seat,
        action: int,
        version: int | None,
        seen: int | None,
        origin: Connection | None,
        ref: str | None,
        bot: str | None,
    ) -> int:
        async with self._lock:
            if bot is not None and self.bot_of(seat) != bot:
                raise ProtocolError(SEAT_WRONG, f"{self._name(seat)}'s player is back.")
            if version is not None and version > self.version:
                raise ProtocolError(VERSION_STALE, _AHEAD)
            if version is not None and version < self._changed_number[seat]:
                raise ProtocolError(VERSION_STALE, _CHANGED)
            if seen is not None:
                if seen > self._seen[seat]:
                    raise ProtocolError(VERSION_STALE, _AHEAD)
                if seen < self._changed_at[seat]:
                    raise ProtocolError(VERSION_STALE, _CHANGED)
            if self.over:
                raise ProtocolError(MATCH_OVER, "The match is over.")
            after = self.state.clone()
            try:
                events = after.apply(seat, action)
            except GameError as error:
                raise ProtocolError.from_game(error) from None
            outcome = after.outcome()
            number = self.version + 1
            before = self.state.deciding_seats()
            if seat in after.deciding_seats() and self._ends_turn(seat, action):
                before = ()  # the seat ended its turn and decides again: a new turn
            deadline, timed = self._clock_after(after, before)
            # The notation of the action in the position it was played in (the ack's).
            worded = None if origin is None else self._text(seat, action)
            try:
                await self.store.append_action(
                    self.id,
                    number,
                    seat,
                    action,
                    outcome=None if outcome is None else outcome.to_json(),
                    deadline=deadline,
                )
            except StaleWrite:
                raise ProtocolError(STORE_FAILED, _NOT_STORED) from None
            except Exception:
                log.exception("storing action %d of match %s failed", number, self.id)
                raise ProtocolError(STORE_FAILED, _NOT_STORED) from None
            self.deadline, self._timed = deadline, timed
            self.match.actions.append((seat, action))
            if outcome is not None:
                self.match.status = "over"
                self.match.outcome = outcome.to_json()
            self._advance(after, seat, action, events)
            ack = None
            if origin is not None:
                # protocol.AckInfo, in the update the sender gets: one frame, not two.
                ack = {"action": {"id": action, "text": worded}, "ref": ref}
            await self._broadcast(events, origin, ack)
        self.wake()
        return number

    async def _broadcast(
        self,
        events: list[Event],
        origin: Connection | None = None,
        ack: dict[str, Any] | None = None,
    ) -> None:
        """Each connection whose audience the action changed (:meth:`_count`) gets its
        seat's view, its audience's version and the events its seat may see; the others get
        nothing. The connection that sent the action (``origin``) gets ``ack`` in its copy.

        One text per audience (a seat, or the spectators): built once, the view and JSON
        included, and sent as it is to every connection of that audience. The sender's copy
        is the one frame encoded apart, and its seat's shared text is encoded only when
        another connection of that seat needs it.
        """
        seats = self.match.seats
        changed = self.applied[-1].changed
        connections = [c for c in self.connections if changed[seats if c.seat is None else c.seat]]
        if not connections:
            return
        updates: dict[Seat | None, dict[str, Any]] = {}
        deciding = list(self.state.deciding_seats())
        outcome = self._outcome()
        deadline = self._deadline_text()
        for connection in connections:
            seat = connection.seat
            if seat not in updates:
                view, legal = self._seat_sees(seat)
                # protocol.UpdateOut, as a dict: the engine's output needs no validation.
                updates[seat] = {
                    "type": "update",
                    "version": self.version_of(seat),
                    "events": self._visible(events, seat),
                    "view": view,
                    "legal": legal,
                    "deciding": deciding,
                    "outcome": outcome,
                    "deadline": deadline,
                }
        texts: dict[Seat | None, str] = {}

        def frame(connection: Connection) -> str:
            seat = connection.seat
            if connection is origin and ack is not None:
                return encode({**updates[seat], "ack": ack})
            text = texts.get(seat)
            if text is None:
                text = texts[seat] = encode(updates[seat])
            return text

        if len(connections) == 1:
            await self._send(connections[0], frame(connections[0]))
            return
        await asyncio.gather(
            *(self._send(connection, frame(connection)) for connection in connections)
        )

    async def _send(self, connection: Connection, text: str) -> None:
        try:
            await connection.send(text)
        except Exception:  # a closed socket: drop it, the match goes on
            log.debug("dropping a connection of match %s", self.id, exc_info=True)
            self.connections.discard(connection)

    # -- the turn timer -------------------------------------------------------------------

    def _clock_runs(self, state: State) -> bool:
        """Whether the timer runs now: always in a sequential game; in a simultaneous one
        only while the engine has something to hand in (Maiterra's house pick and draft are
        Decisions, with no timer)."""
        if not self.game.info.simultaneous:
            return True
        for seat in state.deciding_seats():
            try:
                state.hand_in_action(seat)
            except GameError:
                continue
            return True
        return False

    def _ends_turn(self, seat: Seat, action: int) -> bool:
        """Whether ``action`` is what the timer would hand in for ``seat`` (ends its turn)."""
        if self.turn_seconds is None or not self.game.info.simultaneous:
            return False
        try:
            return self.state.hand_in_action(seat) == action
        except GameError:
            return False

    def _clock_after(
        self, state: State, deciding_before: tuple[Seat, ...]
    ) -> tuple[datetime | None, frozenset[Seat]]:
        """The deadline once ``state`` stands, and the seats it times.

        One deadline per turn: it is kept while the seats deciding are among those that
        decided before (a seat ends its turn, or plays on within it) and set afresh when a
        seat that did not decide must now.
        """
        if self.turn_seconds is None or state.is_terminal() or not self._clock_runs(state):
            return None, frozenset()
        deciding = frozenset(state.deciding_seats())
        if self.deadline is not None and deciding <= frozenset(deciding_before):
            return self.deadline, self._timed
        return utcnow() + timedelta(seconds=self.turn_seconds), deciding

    async def start(self) -> None:
        """Set the first deadline if the match has a timer and none is stored; start the
        grace period of every seat with no one connected; wake up."""
        if self.turn_seconds is not None and self.deadline is None and not self.over:
            await self._new_deadline()
        for seat in range(self.game.seats):
            self._maybe_away(seat)
        self.wake()

    async def _new_deadline(self) -> None:
        async with self._lock:
            self.deadline = None
            self.deadline, self._timed = self._clock_after(self.state, ())
            await self.store.set_deadline(self.id, self.deadline)
            clock = ClockOut(deadline=self._deadline_text(), turn_seconds=self.turn_seconds)
            text = clock.model_dump_json()
            await asyncio.gather(*(self._send(c, text) for c in list(self.connections)))

    def wake(self) -> None:
        """Start the bots if one of theirs decides, and the clock for the current deadline."""
        if self._closed:
            return
        self.wake_bots()
        self._arm()

    def _arm(self) -> None:
        if self.deadline is None or self.deadline == self._armed_for:
            return
        task = self._clock_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        self._armed_for = self.deadline
        self._clock_task = asyncio.get_running_loop().create_task(self._ring(self.deadline))

    async def _ring(self, deadline: datetime) -> None:
        delay = (deadline - utcnow()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            await self._expire(deadline)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the turn timer of match %s failed", self.id)

    async def _expire(self, deadline: datetime) -> None:
        """The timer reached zero: "At zero nothing you queued is lost: every seat that has
        not ended its turn hands in the orders it has queued, as they stand, and a seat with
        none passes." (the engine's ``hand_in_action``). A game with nothing to hand in (the
        sequential games) has the seat's bot take its decisions until the turn passes."""
        if self.game.info.simultaneous:
            for seat in sorted(self._timed):
                if self.deadline == deadline and seat in self.state.deciding_seats():
                    await self._decide_for(seat)
        else:
            for _ in range(256):
                seats = [s for s in self.state.deciding_seats() if s in self._timed]
                if self.deadline != deadline or self.over or not seats:
                    break
                await self._decide_for(seats[0])
        if self.deadline == deadline and not self.over:
            # The same seats decide on (a lone seat's next turn): the clock starts again.
            await self._new_deadline()
            self.wake()

    async def _decide_for(self, seat: Seat) -> None:
        version = self.version
        try:
            action = self.state.hand_in_action(seat)
        except GameError:
            if self.bots is None:
                return
            name = self.bot_of(seat) or default_bot()
            try:
                action = await self.bots.choose(self._job(seat, name), self._owner)
            except BotsClosed:  # the server is stopping
                return
        try:
            await self.submit(seat, action, version=None)
        except ProtocolError as error:
            if self.version == version:
                log.error("timer for seat %d of match %s: %s", seat, self.id, error.message)

    # -- bots ------------------------------------------------------------------------------

    def _job(self, seat: Seat, name: str) -> BotJob:
        return BotJob(
            game_id=self.game.id,
            seats=self.game.seats,
            options=dict(self.game.options),
            state=self.state.to_json(),
            seat=seat,
            bot=name,
            seed=mix_seed(self.match.seed, self.version, seat),
            move_seconds=self.bot_move_seconds,
        )

    def _decide_here(self, seat: Seat, name: str) -> Action:
        """What :func:`meeple.server.live.bots.decide` answers for this seat now, on the event
        loop: the same bot with the same seed on the same state (for :data:`INLINE_BOTS`)."""
        legal = self.state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        return make_bot(name, mix_seed(self.match.seed, self.version, seat)).select(
            self.state, seat
        )

    @property
    def _owner(self) -> object:
        """Whose turn this match's bot moves take in the pool: the account that made the
        match (its many matches take one turn between them), else the match."""
        return self.match.created_by if self.match.created_by is not None else self.id

    def _unwatched(self) -> bool:
        """A match whose bots wait for a seat's player (:data:`WAIT_FOR_PLAYER`) and has
        none connected."""
        return self.match.mode in WAIT_FOR_PLAYER and not any(
            connection.seat is not None for connection in self.connections
        )

    def wake_bots(self) -> None:
        """Start the bot loop if a bot's seat decides and none is thinking (and, in a solo
        match, a seat's player is connected)."""
        if self.bots is None or self.over or self._closed or self._unwatched():
            return
        if not any(self.bot_of(seat) for seat in self.state.deciding_seats()):
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._play_bots())

    async def _play_bots(self) -> None:
        """Bots decide one at a time, each on the state as it was when asked."""
        if self.bots is None:
            return
        failures = 0
        while True:
            if failures:
                # A store or a worker that failed may recover: try again, less and less often.
                if failures > BOT_RETRIES:
                    log.error("bots of match %s stopped after %d failures", self.id, failures)
                    return
                await asyncio.sleep(min(5.0, 0.1 * 2**failures))
            job: BotJob | None = None
            chosen: Action = 0
            async with self._lock:
                seat = next((s for s in self.state.deciding_seats() if self.bot_of(s)), None)
                if seat is None or self._unwatched():  # attach wakes the bots again
                    return
                name = self.bot_of(seat) or ""
                version = self.version
                if name in INLINE_BOTS:
                    chosen = self._decide_here(seat, name)
                else:
                    job = self._job(seat, name)
            try:
                action = chosen if job is None else await self.bots.choose(job, self._owner)
                await self.submit(seat, action, version=version, bot=name)
                failures = 0
            except ProtocolError as error:
                if error.code == SEAT_WRONG:  # the player came back while the bot thought
                    continue
                # Another seat acted while the bot thought: ask again on the new state.
                log.info("bot at seat %d of match %s: %s", seat, self.id, error.message)
                if self.version == version:
                    log.error("bot %s refused on an unchanged match %s", name, self.id)
                    failures += 1
            except asyncio.CancelledError:
                raise
            except BotsClosed:  # the server is stopping
                return
            except Exception:
                log.exception("bot %s at seat %d of match %s failed", name, seat, self.id)
                failures += 1

    async def close(self) -> None:
        """Stop the bots, the clock and the grace periods (the server is shutting down)."""
        self._closed = True
        for task in (self._bot_task, self._clock_task, *self.presence.tasks()):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
