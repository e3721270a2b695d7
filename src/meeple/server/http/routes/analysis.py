"""Replays, win-probability lines and hints over REST (docs/analysis.md).

A replay is every version of a finished match (or of an uploaded record): the view, the
action that led there with its notation and seat, and that step's events. Lines and hints
ask :func:`meeple.ai.analyse` through the bot runner's process pool, never on the event
loop, with a fixed seed per position (its version) so the same question gets the same
answer; the runner keeps the answers by match, seat, version and iterations. A hint goes
before any analysis in the bot queue. Hints, lines and uploaded records (which need a
login) are counted per account and per client address (``429 rate/limited`` past the
quota), and a full bot queue answers ``503 bots/busy``; both with ``Retry-After``.

Who may ask: a replay (like the record) once the match is over, by anyone; a line once the
match is over for any seat, and while a solo match is played for the caller's own seat up
to the current version; a hint only in a solo match, for the caller's seat, now. A hint in
a match against people would be help no one else gets. While its day runs, a Daily attempt
is replayed and analysed by its player alone, at their own seat (``daily/private``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request, status

from meeple.core import Game, GameError, InvalidRecord, MatchRecord, Seat, State
from meeple.server.http import schemas
from meeple.server.http.deps import (
    AccountDep,
    AnalysisLimit,
    HintLimit,
    MaybeAccountDep,
    ReplayLimit,
    ServicesDep,
    bots_busy,
    error,
)
from meeple.server.live.bots import AnalysisJob, BotRunner, BotsBusy, Priority
from meeple.server.live.master import MatchMaster
from meeple.server.modes.daily import DailyError
from meeple.server.store.repository import AccountRow

router = APIRouter(tags=["analysis"])

LINE_ITERATIONS = 200
"""Search iterations per position of a win-probability line, unless asked otherwise."""
MAX_LINE_ITERATIONS = 1000
LINE_VERSIONS = 25
"""The most positions one line request analyses (ask again with ``start`` at its ``next``)."""
HINT_ITERATIONS = 800
MAX_HINT_ITERATIONS = 2500
POSITION_SECONDS = 10.0
"""A safety cap on one position's search; the iteration budget decides the answer."""
MAX_RECORD_BYTES = 1 << 20
"""The largest record file ``POST /api/replays`` reads."""
MAX_REPLAY_ACTIONS = 3000
"""The most actions a replay steps through (every game's longest match is shorter)."""


# -- replays ------------------------------------------------------------------------------


def replay_steps(record: MatchRecord, seat: Seat | None) -> dict[str, Any]:
    """Every version of ``record``: seat ``seat``'s view (the public view for None), the
    action that led there with its seat and notation, and the events of that step -- all of
    them for None (a finished match hides nothing), those ``seat`` may see otherwise.

    Raises:
        InvalidRecord: when the record does not replay.
    """
    state = record.initial_state()
    steps = [_step(state, seat, 0, None, None, None, [])]
    for index, (actor, action) in enumerate(record.actions):
        try:
            notation = state.action_to_string(actor, action)
            events = state.apply(actor, action)
        except GameError as refused:
            raise InvalidRecord(
                f"action #{index} does not replay (seat {actor}): {refused.reason}"
            ) from refused
        shown = [e.to_json() for e in events if seat is None or e.visible_to(seat)]
        steps.append(_step(state, seat, index + 1, actor, action, notation, shown))
    outcome = state.outcome()
    return {
        "game": record.game_id,
        "seats": record.seats,
        "options": dict(record.options),
        "seat": seat,
        "outcome": None if outcome is None else outcome.to_json(),
        "steps": steps,
    }


def _step(  # noqa: PLR0917 (one step's fields, in the order the JSON lists them)
    state: State,
    seat: Seat | None,
    version: int,
    actor: Seat | None,
    action: int | None,
    notation: str | None,
    events: list[Any],
) -> dict[str, Any]:
    return {
        "version": version,
        "seat": actor,
        "action": action,
        "notation": notation,
        "events": events,
        "view": state.view(seat),
        "deciding": list(state.deciding_seats()),
    }


def _check_seat(seat: int | None, seats: int, code: str) -> None:
    if seat is not None and not 0 <= seat < seats:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            code,
            f"seat {seat} is not a seat of this match (seats 0 to {seats - 1})",
        )


async def _replay(record: MatchRecord, seat: Seat | None) -> dict[str, Any]:
    """:func:`replay_steps` on a thread, so a long record does not hold up the event loop."""
    try:
        return await asyncio.to_thread(replay_steps, record, seat)
    except GameError as refused:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT, InvalidRecord.code, str(refused)
        ) from None


async def _find(services: ServicesDep, match_id: str) -> MatchMaster:
    master = await services.matches.get(match_id)
    if master is None:
        raise error(status.HTTP_404_NOT_FOUND, "match/unknown", f"no match {match_id[:40]!r}")
    return master


async def _daily_shown(
    services: ServicesDep, master: MatchMaster, viewer: AccountRow | None, seat: Seat | None
) -> None:
    """Today's Daily attempts are replayed and analysed by their player alone, at their seat."""
    try:
        await services.daily.check_shown(master.match, viewer, seat)
    except DailyError as refused:
        raise error(refused.status, refused.code, refused.message) from None


@router.get(
    "/api/matches/{match_id}/replay",
    response_model=schemas.Replay,
    response_model_exclude_unset=True,
)
async def match_replay(
    match_id: str, account: MaybeAccountDep, services: ServicesDep, seat: int | None = None
) -> dict[str, Any]:
    """Every step of a finished match, as the spectators or seat ``seat`` saw it."""
    master = await _find(services, match_id)
    if not master.over:
        raise error(
            status.HTTP_409_CONFLICT,
            "match/not_over",
            "a replay shows every hidden thing, so it is given once the match is over",
        )
    _check_seat(seat, master.game.seats, "replay/bad_seat")
    await _daily_shown(services, master, account, seat)
    replay = await _replay(master.match.record(), seat)
    replay["match"] = master.id
    replay["players"] = [player.model_dump() for player in master.players()]
    return replay


async def _read_record(request: Request) -> MatchRecord:
    """The one match record in the request's body (at most :data:`MAX_RECORD_BYTES`)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_RECORD_BYTES:
        raise _too_large()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_RECORD_BYTES:
            raise _too_large()
    try:
        records = MatchRecord.loads_all(bytes(body))
    except InvalidRecord as refused:
        raise error(status.HTTP_422_UNPROCESSABLE_CONTENT, refused.code, str(refused)) from None
    if len(records) != 1:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            InvalidRecord.code,
            f"the file holds {len(records)} records; open one at a time",
        )
    record = records[0]
    if len(record.actions) > MAX_REPLAY_ACTIONS:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            "replay/too_long",
            f"the record lists {len(record.actions)} actions; a replay steps through at most "
            f"{MAX_REPLAY_ACTIONS}",
        )
    return record


@router.post(
    "/api/replays",
    dependencies=[ReplayLimit],
    response_model=schemas.Replay,
    response_model_exclude_unset=True,
)
async def record_replay(
    request: Request, account: AccountDep, seat: int | None = None
) -> dict[str, Any]:
    """The steps of an uploaded match record (``meeple-record/1``); nothing is stored.
    Logged in, so many a minute per account and per client address (``429 rate/limited``):
    a small record replays into many views."""
    record = await _read_record(request)
    _check_seat(seat, record.seats, "replay/bad_seat")
    replay = await _replay(record, seat)
    replay["match"] = None
    names = record.players or []
    replay["players"] = [
        {"seat": s, "name": names[s] if s < len(names) else f"seat {s}", "bot": None}
        for s in range(record.seats)
    ]
    return replay


def _too_large() -> Exception:
    return error(
        status.HTTP_413_CONTENT_TOO_LARGE,
        "replay/too_large",
        f"a record file may hold at most {MAX_RECORD_BYTES // 1024} KiB",
    )


# -- lines and hints ----------------------------------------------------------------------


def _own_seats(master: MatchMaster, account: AccountRow) -> list[Seat]:
    return [h.seat for h in master.match.holders if h.account_id == account.id]


def _iterations(iterations: int, most: int) -> int:
    if not 1 <= iterations <= most:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            "analysis/bad_iterations",
            f"iterations lie in 1 to {most}, got {iterations}",
        )
    return iterations


@dataclass(frozen=True, slots=True)
class _Analyst:
    """Analyses the positions of one match for lines and hints: ``analyse(state, seat)`` in
    the runner's pool, seeded by the position's version, kept by the runner under
    ``match`` (a match id, or an uploaded record's digest), seat, version and iterations;
    queued at ``priority`` in the turn of the account that asked (``owner``)."""

    bots: BotRunner
    game: Game
    match: str
    iterations: int
    owner: int
    priority: Priority = Priority.ANALYSIS

    async def analyse(self, state: State, version: int, seat: Seat) -> Any:
        job = AnalysisJob(
            game_id=self.game.id,
            seats=self.game.seats,
            options=dict(self.game.options),
            state=state.to_json(),
            seat=seat,
            iterations=self.iterations,
            seed=version,
            seconds=POSITION_SECONDS,
        )
        try:
            return await self.bots.analyse(
                job,
                key=(self.match, seat, version, self.iterations),
                priority=self.priority,
                owner=self.owner,
            )
        except BotsBusy as refused:
            raise bots_busy(refused) from None

    async def point(self, state: State, version: int, seat: Seat) -> dict[str, Any]:
        """One version of the line: the search where the seat decides, the outcome at the
        end, and no figure where someone else decides (the seat's chance there would need
        a search the seat does not make)."""
        point: dict[str, Any] = {"version": version, "win_probability": None, "best": None}
        if state.is_terminal():
            point["win_probability"] = (state.returns()[seat] + 1.0) / 2.0
            point["source"] = "outcome"
        elif seat in state.deciding_seats():
            found = await self.analyse(state, version, seat)
            point["win_probability"] = found["win_probability"]
            point["best"] = found["best"][0]["notation"] if found["best"] else None
            point["source"] = "search"
        else:
            point["source"] = None
        return point

    async def line(
        self, record: MatchRecord, seat: Seat, start: int, end: int | None
    ) -> dict[str, Any]:
        """The points from ``start`` to ``end`` (at most :data:`LINE_VERSIONS` of them).

        Raises:
            InvalidRecord: when the record does not replay.
        """
        last = len(record.actions)
        if start < 0 or start > last or (end is not None and end < start):
            raise error(
                status.HTTP_422_UNPROCESSABLE_CONTENT,
                "analysis/bad_range",
                f"versions run from 0 to {last}; asked for {start} to {end}",
            )
        end = min(last, start + LINE_VERSIONS - 1, last if end is None else end)
        points = []
        for version, state in enumerate(record.states()):
            if version > end:
                break
            if version >= start:
                points.append(await self.point(state, version, seat))
        return {
            "seat": seat,
            "iterations": self.iterations,
            "versions": last,
            "start": start,
            "end": end,
            "next": end + 1 if end < last else None,
            "points": points,
        }


@router.get(
    "/api/matches/{match_id}/analysis",
    dependencies=[AnalysisLimit],
    response_model=schemas.WinLine,
    response_model_exclude_unset=True,
)
async def win_line(  # noqa: PLR0917 (the query's parameters)
    match_id: str,
    account: AccountDep,
    services: ServicesDep,
    seat: int,
    iterations: int = LINE_ITERATIONS,
    start: int = 0,
    end: int | None = None,
) -> dict[str, Any]:
    """Seat ``seat``'s chance to win at each version from ``start`` to ``end`` (at most
    :data:`LINE_VERSIONS` of them), with the best action where the seat decides."""
    master = await _find(services, match_id)
    _check_seat(seat, master.game.seats, "analysis/bad_seat")
    await _daily_shown(services, master, account, seat)
    if not master.over:
        if master.match.mode != "solo":
            raise error(
                status.HTTP_403_FORBIDDEN,
                "analysis/live",
                "a match against people is analysed once it is over",
            )
        if seat not in _own_seats(master, account):
            raise error(
                status.HTTP_403_FORBIDDEN,
                "analysis/not_your_seat",
                f"while the match is played you may analyse only your own seat, not seat {seat}",
            )
    iterations = _iterations(iterations, MAX_LINE_ITERATIONS)
    analyst = _Analyst(services.bots, master.game, master.id, iterations, account.id)
    # The actions as they stand now: a solo match's line runs to its current version.
    line = await analyst.line(master.match.record(), seat, start, end)
    return {"match": master.id, **line}


@router.post(
    "/api/replays/analysis",
    dependencies=[AnalysisLimit],
    response_model=schemas.WinLine,
    response_model_exclude_unset=True,
)
async def record_line(  # noqa: PLR0917 (the query's parameters)
    request: Request,
    account: AccountDep,
    services: ServicesDep,
    seat: int,
    iterations: int = LINE_ITERATIONS,
    start: int = 0,
    end: int | None = None,
) -> dict[str, Any]:
    """The line of an uploaded record, as for a match (a record holds its seed: nothing in
    it is hidden any more); kept under the digest of what decides the positions."""
    record = await _read_record(request)
    _check_seat(seat, record.seats, "analysis/bad_seat")
    iterations = _iterations(iterations, MAX_LINE_ITERATIONS)
    try:
        game = record.game()
        analyst = _Analyst(services.bots, game, _digest(record), iterations, account.id)
        line = await analyst.line(record, seat, start, end)
    except GameError as refused:
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT, InvalidRecord.code, str(refused)
        ) from None
    return {"match": None, **line}


def _digest(record: MatchRecord) -> str:
    """A name for a record's positions: its game, start and actions (not its players)."""
    what = [record.game_id, record.seats, record.options, record.seed, record.start_state]
    text = json.dumps([*what, record.actions], sort_keys=True, separators=(",", ":"))
    return "record:" + hashlib.sha256(text.encode()).hexdigest()


@router.get(
    "/api/matches/{match_id}/hint",
    dependencies=[HintLimit],
    response_model=schemas.Hint,
    response_model_exclude_unset=True,
)
async def hint(
    match_id: str, account: AccountDep, services: ServicesDep, iterations: int = HINT_ITERATIONS
) -> dict[str, Any]:
    """The best actions for the caller's seat now, in a solo match. A hint goes before
    every analysis in the bot queue (a player waits on it), after the live moves."""
    master = await _find(services, match_id)
    if master.match.mode != "solo":
        raise error(
            status.HTTP_403_FORBIDDEN,
            "hint/not_solo",
            "hints are given only in solo matches: against people they would be cheating",
        )
    seats = _own_seats(master, account)
    if not seats:
        raise error(status.HTTP_403_FORBIDDEN, "hint/not_seated", "you hold no seat here")
    if master.over:
        raise error(status.HTTP_409_CONFLICT, "match/over", "the match is over")
    iterations = _iterations(iterations, MAX_HINT_ITERATIONS)
    state, version = master.state.clone(), master.version
    deciding = state.deciding_seats()
    seat = next((s for s in seats if s in deciding), None)
    if seat is None:
        raise error(
            status.HTTP_409_CONFLICT,
            "hint/not_your_turn",
            "it is not your turn: a hint comes when you have something to decide",
        )
    analyst = _Analyst(services.bots, master.game, master.id, iterations, account.id, Priority.HINT)
    # The seat's own version (its frames'): the number of actions would count sealed orders.
    seen = master.version_of(seat)
    found = await analyst.analyse(state, version, seat)
    return {"match": master.id, "version": seen, **found}
