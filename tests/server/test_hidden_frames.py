"""Nothing of another seat's hidden state reaches a seat over the wire, in every game.

A scripted match of each game is played over a real server (a person's seat playing random
legal actions against random bots), with a spectator's socket beside it and, half way, a
second socket of the person's that reconnects from version 0. Then the match is rebuilt from
what the server stored (the seed and the actions, read from its database), and every frame
each socket got is checked against the engine:

- its view is exactly the seat's view at its version (the spectators' view for a spectator);
- it is also exactly the view of *twins* of that state: states the engine redraws with what
  the seat cannot see changed (``State.resample``: other seats' houses, hands, sealed
  orders, the decks' order, the generator). For a spectator, twins redrawn for each seat.
  The legal actions and deciding seats are those of every twin too. A frame that carried
  anything of the hidden part would differ from some twin's;
- its events (in updates, and in a snapshot's ``missed``) are exactly the engine's events of
  that version that the seat may see, nothing sealed for another seat.

Maiterra's match has four seats in two teams (a teammate's hand and sealed orders are still
another seat's). The tests check that the twins did differ from the real state, so the
comparison was not empty.
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

import meeple.games  # noqa: F401
from meeple.core import Event, State, load_game
from meeple.server.live.master import MatchMaster
from meeple.server.store.match_store import MemoryMatchStore, SeatHolder, StoredMatch
from tests.server.conftest import Client, Server, Socket, sqlite_server

pytestmark = pytest.mark.slow

VERSIONS = 90
"""How far each scripted match is played (or to its end, if sooner)."""
TWINS = 2
"""Twins drawn per frame (and per seat, for a spectator's frame)."""


@dataclass(frozen=True)
class Script:
    game: str
    seats: int
    options: dict[str, Any]
    seat: int
    seed: int


SCRIPTS = [
    Script("maiterra", 4, {"teams": "1122"}, 0, 3),
    Script("maiterra", 2, {}, 1, 8),
    Script("maatatahay", 2, {}, 1, 5),
    Script("manafields", 2, {}, 0, 6),
]


@dataclass(frozen=True)
class Stored:
    """A match as the server's database holds it."""

    game_id: str
    seats: int
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, int]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """SQLite, whose file the test reads afterwards for the seed and the actions. The frame
    limit out of the way: a seat racing three bots resumes after every stale action."""
    with sqlite_server(
        tmp_path_factory.mktemp("hidden"),
        {"MEEPLE_FRAMES_PER_SECOND": "100000", "MEEPLE_FRAME_BURST": "100000"},
    ) as running:
        yield running


def stored(server: Server, match_id: str) -> Stored:
    """What the server stored for the match (read from its SQLite file)."""
    path = server.database_url.removeprefix("sqlite+aiosqlite:///")
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        game_id, seats, options, seed = db.execute(
            "SELECT game_id, seats, options, seed FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        actions = db.execute(
            "SELECT seat, action FROM match_actions WHERE match_id = ? ORDER BY number",
            (match_id,),
        ).fetchall()
    chosen = json.loads(options) if isinstance(options, str) else options
    return Stored(
        str(game_id), int(seats), chosen, int(seed), [(int(s), int(a)) for s, a in actions]
    )


def _play(client: Client, match_id: str, script: Script) -> tuple[list[Socket], int]:
    """Play the person's seat at random to :data:`VERSIONS`; the sockets (still open) and
    the seat's version where its play stopped (it decides, or the match is over)."""
    rng = random.Random(script.seed)
    seat = client.socket(match_id)
    watcher = client.socket(match_id, "?watch=true")
    sockets = [seat, watcher]
    frame = seat.recv()
    watcher.recv()
    version, reconnected, waiting = 0, False, False
    while True:
        if frame.get("ack") is not None:
            waiting = False
        if frame["type"] in ("snapshot", "update"):
            version = frame["version"]
            if not reconnected and version >= VERSIONS // 2:
                again = client.socket(match_id, "?since=0")
                again.recv()
                sockets.append(again)
                reconnected = True
            if frame["outcome"] is not None:
                break
            if script.seat in frame["deciding"] and not waiting:
                if version >= VERSIONS:
                    break
                choice = rng.choice(frame["legal"])["id"]
                seat.send({"type": "action", "action": choice, "version": version})
                waiting = True  # one action at a time: until its ack or refusal
        elif frame["type"] == "error":
            assert frame["code"] == "version/stale", frame
            seat.send({"type": "resume", "since": frame["version"]})
            waiting = False
        frame = seat.recv()
    return sockets, version


def _catch_up(sockets: list[Socket], seen: list[int | None], checker: Checker, upto: int) -> None:
    """Every socket reads its audience's updates up to action ``upto``, then closes."""
    for socket, seat in zip(sockets, seen, strict=True):
        wanted = checker.version_at(seat, upto)
        while not socket.frames or socket.frames[-1].get("version") != wanted:
            socket.recv()
        socket.close()


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _legal(state: State, seat: int | None) -> list[dict[str, Any]]:
    if seat is None:
        return []
    return [{"id": a, "text": state.action_to_string(seat, a)} for a in state.legal_actions(seat)]


class Checker:
    """The engine's states and events of the stored match, and the frame checks."""

    def __init__(self, match: Stored) -> None:
        game = load_game(match.game_id, seats=match.seats, options=match.options)
        self.hidden_information = game.info.hidden_information
        state = game.new_initial_state(match.seed)
        self.seats = match.seats
        self.actions = list(match.actions)
        self.states: list[State] = [state.clone()]
        self.events: list[list[Event]] = [[]]
        for actor, action in match.actions:
            self.events.append(state.apply(actor, action))
            self.states.append(state.clone())
        # Each audience's versions count what it could see: the master's own count, replayed.
        holders = [SeatHolder(s, f"seat {s}", None, "random") for s in range(match.seats)]
        replayed = MatchMaster(
            StoredMatch(
                "m",
                game.id,
                match.seats,
                match.options,
                match.seed,
                "solo",
                holders,
                actions=list(match.actions),
            ),
            MemoryMatchStore(),
            None,
        )
        self.applied = replayed.applied
        self.numbers: dict[int | None, dict[int, int]] = {}
        for index, seat in enumerate([*range(match.seats), None]):
            self.numbers[seat] = {0: 0} | {
                a.seen[index]: a.number for a in self.applied if a.changed[index]
            }
        self.twins_differing = 0
        self.frames_checked = 0
        self.versions_checked: set[tuple[int | None, int]] = set()
        self._checked: set[str] = set()

    def version_at(self, seat: int | None, number: int) -> int:
        """The audience's version after action ``number``."""
        return (
            0
            if number == 0
            else self.applied[number - 1].seen[self.seats if seat is None else seat]
        )

    def number_of(self, seat: int | None, version: int) -> int:
        """The action the audience's ``version`` followed."""
        return self.numbers[seat][version]

    def check(self, seat: int | None, frame: dict[str, Any]) -> None:
        if frame["type"] not in ("snapshot", "update"):
            return
        key = json.dumps([seat, {k: v for k, v in frame.items() if k != "ref"}], sort_keys=True)
        if key in self._checked:  # the same frame again (a resume): checked once
            return
        self._checked.add(key)
        version = self.number_of(seat, frame["version"])
        state = self.states[version]
        assert frame["view"] == _json(state.view(seat)), (seat, version)
        assert frame["legal"] == _legal(state, seat), (seat, version)
        redrawn_for = range(self.seats) if seat is None else [seat]
        for who in redrawn_for:
            for draw in range(TWINS):
                twin = state.resample(who, 1000 * version + draw)
                self.twins_differing += twin.to_json() != state.to_json()
                assert _json(twin.view(seat)) == frame["view"], (seat, version, who, draw)
                assert _legal(twin, seat) == frame["legal"], (seat, version, who, draw)
                assert list(twin.deciding_seats()) == frame["deciding"], (seat, version)
        if frame["type"] == "update":
            self.check_events(seat, version, frame["events"])
        ack = frame.get("ack")
        if ack is not None:  # the sender's own action, worded where it was played
            actor, action = self.actions[version - 1]
            assert (seat, ack["action"]["id"]) == (actor, action), (seat, version, ack)
            worded = self.states[version - 1].action_to_string(actor, action)
            assert ack["action"]["text"] == worded, (seat, version, ack)
        for missed in frame.get("missed", []):
            self.check_events(seat, self.number_of(seat, missed["version"]), missed["events"])
        self.frames_checked += 1
        self.versions_checked.add((seat, frame["version"]))

    def check_events(self, seat: int | None, version: int, sent: list[Any]) -> None:
        shown = [e.to_json() for e in self.events[version] if e.visible_to(seat)]
        assert sent == _json(shown), (seat, version)
        for event in sent:
            assert event.get("audience") is None or seat in event["audience"], (seat, event)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda s: f"{s.game}-{s.seats}p-seat{s.seat}")
def test_every_frame_is_the_view_of_any_state_that_differs_only_in_what_the_seat_cannot_see(
    server: Server, script: Script
) -> None:
    client = Client(server).guest("Seer")
    match = client.solo(
        game=script.game,
        seats=script.seats,
        options=script.options,
        seat=script.seat,
        bots="random",
        seed=script.seed,
    )
    sockets, version = _play(client, match["id"], script)
    found = stored(server, match["id"])
    assert found.seed == script.seed
    everything = Checker(found)
    upto = everything.number_of(script.seat, version)
    checker = Checker(replace(found, actions=found.actions[:upto]))
    seen = [script.seat, None, script.seat]
    _catch_up(sockets, seen, checker, upto)
    for socket, seat in zip(sockets, seen, strict=True):
        assert socket.frames[0]["seat"] == seat
        for frame in socket.frames:
            checker.check(seat, frame)
    # Both the seat and the spectator were shown every version, each one checked.
    # (The bots may have played before the sockets opened: from the later first snapshot.)
    for socket, seat in zip(sockets[:2], seen, strict=False):
        first = checker.number_of(seat, socket.frames[0]["version"])
        every = {checker.version_at(seat, n) for n in range(first, upto + 1)}
        assert {(seat, v) for v in every} <= checker.versions_checked, seat
    if checker.hidden_information:
        assert checker.twins_differing > 0


def test_the_check_catches_a_frame_that_carries_another_seats_secret() -> None:
    """In-process, no server: seat 0's view with seat 1's row as seat 1 sees it (its hand)
    is refused, and the twins the check draws for seat 0 do redraw seat 1's secrets."""
    options = {"teams": "1122"}
    game = load_game("maiterra", seats=4, options=options)
    state, rng, actions = game.new_initial_state(3), random.Random(1), []
    while True:
        seat = state.deciding_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        state.apply(seat, action)
        actions.append((seat, action))
        if state.view(1)["seats"][1].get("hand"):
            break
    checker = Checker(Stored(game.id, 4, options, 3, actions))
    honest = state.view(0)
    version = checker.version_at(0, len(actions))
    frame = {"type": "snapshot", "version": version, "view": _json(honest), "missed": []}
    frame |= {"legal": _legal(state, 0), "deciding": list(state.deciding_seats())}
    checker.check(0, frame)  # the honest frame passes
    leaky = _json(honest)
    leaky["seats"][1] = _json(state.view(1)["seats"][1])
    with pytest.raises(AssertionError):
        checker.check(0, {**frame, "view": leaky})
    hands = {json.dumps(state.resample(0, draw).view(1)["seats"][1]["hand"]) for draw in range(8)}
    assert len(hands) > 1
