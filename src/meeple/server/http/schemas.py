"""The REST answers' bodies, as the routes' response models: ``/openapi.json`` describes them
and docs/schemas/openapi.json publishes them.

Each model lists the fields a client may rely on. A body may carry more (a field added later
comes in the body before it comes here; a client ignores what it does not know), so the
models allow extra fields rather than drop them. The engine's own shapes (a view, an event,
an outcome) are the protocol's (:mod:`meeple.server.live.protocol`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from meeple.server.live.protocol import ActionInfo, Events, Outcome, PlayerInfo, View


class Body(BaseModel):
    """A REST answer: the fields listed, and any a newer server adds."""

    model_config = ConfigDict(extra="allow")


class Account(Body):
    """An account as ``GET /api/me`` and a login give it."""

    id: int
    name: str | None
    display_name: str
    kind: Literal["guest", "registered", "bot"] | str
    bot: bool


class SignedIn(Body):
    """Who the request signs in (``GET /api/session``): the account, or null for nobody."""

    account: Account | None


class Health(Body):
    """The server is up; ``lan``: it serves a Wi-Fi room on the local network."""

    ok: bool
    lan: bool


class Option(Body):
    name: str
    default: Any
    description: str
    choices: list[Any] | None = None
    low: int | None = None
    high: int | None = None


class GameSummary(Body):
    """One registered game (``GET /api/games``): ``id`` is ``name/version``."""

    id: str
    name: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    simultaneous: bool
    hidden_information: bool
    chance: bool
    options: list[Option]


class MatchSummary(Body):
    """A match as the lobby shows it (no view: that comes over the WebSocket). ``seat`` is the
    caller's where it holds one; ``version`` is the spectators'; ``socket`` is the path to
    open; ``outcome`` comes once it is over. A finished match in ``GET /api/matches`` and a
    room waiting to fill come as ``id``, ``game``, ``status``, ``seat``, ``mode`` (the kind of
    table: ``solo``, ``custom``, ``ranked``, ``daily``, ...) and ``your_turn``; a finished
    one adds ``result``, how it ended for the caller: ``won``, ``lost`` or ``drew``."""

    id: str
    game: str
    status: str
    seats: int | None = None
    options: dict[str, Any] | None = None
    mode: str | None = None
    players: list[PlayerInfo] | None = None
    version: int | None = None
    deciding: list[int] | None = None
    socket: str | None = None
    seat: int | None = None
    your_turn: bool | None = None
    outcome: Outcome = None
    result: Literal["won", "lost", "drew"] | None = None


class RoomPlayer(Body):
    seat: int
    name: str | None
    account: int | None
    bot: str | None
    ready: bool
    open: bool


class Room(Body):
    """A room as it fills. ``code`` (the private code) only to the people seated in it;
    ``socket`` once it has started (the match's)."""

    id: str
    game: str
    seats: int
    options: dict[str, Any]
    mode: str
    timer: int | None
    public: bool
    status: str
    host: int | None
    players: list[RoomPlayer]
    code: str | None = None
    socket: str | None = None


class RecordBody(Body):
    """A finished match's record (``meeple-record/1``), for ``meeple replay``."""

    format: str
    game: str
    seats: int
    options: dict[str, Any]
    seed: int
    actions: list[list[int]]
    players: list[Any] | None = None
    outcome: Outcome = None


class ReplayStep(Body):
    version: int
    seat: int | None
    action: int | None
    notation: str | None
    events: Events
    view: View
    deciding: list[int]


class Replay(Body):
    """Every step of a finished match, as ``seat`` sees it (all of it for ``null``)."""

    game: str
    seats: int
    options: dict[str, Any]
    seat: int | None
    outcome: Outcome
    steps: list[ReplayStep]


class LinePoint(Body):
    version: int
    win_probability: float | None
    best: Any = None


class WinLine(Body):
    """A seat's chance to win after each version, from ``start`` to ``end``; ``next`` is the
    ``start`` of the following page, or null."""

    seat: int
    iterations: int
    versions: int
    start: int
    end: int
    next: int | None
    points: list[LinePoint]


class Hint(Body):
    """The best action found for the caller's seat now (solo matches)."""

    match: str
    version: int


class Left(Body):
    left: bool


class RankedTicket(Body):
    """Where the caller stands in the ranked queue: ``status`` ``none``, ``queued`` (with
    how long it has waited and the rating range it accepts) or ``matched`` (with the match,
    its seat and the socket to open)."""

    status: str
    game: str | None = None
    seats: int | None = None
    match: str | None = None
    seat: int | None = None
    socket: str | None = None


class Rating(Body):
    game: str
    seats: int
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool
    account: int | None = None
    name: str | None = None
    bot: bool | None = None


class Ratings(Body):
    account: int
    ratings: list[Rating]
    history: list[dict[str, Any]]


class DailyChallenge(Body):
    """A day's Daily (``GET /api/daily/{game}``): its terms, its ``seed`` once the day is
    over, the seat the player takes and the bots' level."""

    game: str
    date: str
    seed: int | None
    seats: int
    options: dict[str, Any]
    bots: str
    seat: int


class DailyPlayed(Body):
    """The caller's scored attempt at a day's Daily: its ``match``, whether it is ``over``
    and the number of finished attempts on the day (``of``); once over, its ``rank`` among
    them (from 1), its ``place`` in the match (1: won), ``won``, ``score`` and ``turns``."""

    match: str
    over: bool
    of: int
    rank: int | None = None
    place: int | None = None
    won: bool | None = None
    score: int | float | None = None
    turns: int | None = None


class DailyBody(DailyChallenge):
    """The day's challenge; to a signed-in caller also ``streak`` (consecutive days with a
    scored attempt) and ``played``: the caller's scored attempt, or null before it plays."""

    streak: int | None = None
    played: DailyPlayed | None = None


class DailyTerms(DailyChallenge):
    """The terms of the Daily an attempt plays; ``scored``: whether it counts for the day."""

    scored: bool


class DailyAttempt(MatchSummary):
    """An attempt just started (``POST /api/daily/{game}``): its match, and the Daily's terms."""

    daily: DailyTerms


class DailyEntry(Body):
    """One row of a Daily's leaderboard, best first: ``rank`` from 1, the player, its
    ``place`` in the match, ``score`` and ``turns``; ``match`` only once the day is over."""

    rank: int
    account: int
    name: str
    bot: bool
    match: str | None
    won: bool
    place: int
    turns: int
    score: int | float | None
    at: str


class TutorialBody(Body):
    """A tutorial's steps, or the answer to a tried step."""


class RulesPage(Body):
    """A game's rules page (``GET /api/rules/{game}``): ``game`` (its name), ``title`` and
    ``html``, docs/rules/<game>.md rendered with no markup of its own but ``<br>``."""

    game: str
    title: str
    html: str


class Rung(Body):
    """A bot on the ladder: its name, its strength in a word, how it plays."""

    bot: str
    label: str
    plays: str


class Level(Body):
    """A search level: the bot, its iterations a decision, a line on it."""

    bot: str
    iterations: int
    description: str


class Bots(Body):
    """The bots a match may seat (``bots``), the one a seat gets unless told (``default``),
    ``ladder``: the bots a form offers, weakest first, with their strength; ``first_match``:
    the one a solo form starts at; ``levels``: the search levels among them."""

    bots: list[str]
    default: str
    ladder: list[Rung]
    first_match: str
    levels: list[Level]


__all__ = [
    "Account",
    "ActionInfo",
    "Bots",
    "DailyAttempt",
    "DailyBody",
    "DailyChallenge",
    "DailyEntry",
    "DailyPlayed",
    "DailyTerms",
    "GameSummary",
    "Health",
    "Hint",
    "Left",
    "Level",
    "LinePoint",
    "MatchSummary",
    "RankedTicket",
    "Rating",
    "Ratings",
    "RecordBody",
    "Replay",
    "ReplayStep",
    "Room",
    "RoomPlayer",
    "RulesPage",
    "Rung",
    "SignedIn",
    "TutorialBody",
    "WinLine",
]
