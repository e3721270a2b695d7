"""Replays, win-probability lines and hints over a real server, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx

import meeple.games  # noqa: F401
from meeple.ai import analyse
from meeple.core import MatchRecord, load_game
from meeple.server.http.routes.analysis import LINE_VERSIONS, replay_steps
from meeple.server.live.bots import AnalysisJob, BotRunner
from tests.server.conftest import Client, Server
from tests.server.test_live import play_out


def _ok(reply: httpx.Response, status: int = 200) -> Any:
    assert reply.status_code == status, reply.text
    return reply.json()


def _refused(reply: httpx.Response, status: int, code: str) -> str:
    assert reply.status_code == status, reply.text
    detail = reply.json()["detail"]
    assert detail["code"] == code, detail
    message: str = detail["message"]
    assert message
    return message


def _finished(client: Client, seed: int) -> tuple[dict[str, Any], MatchRecord]:
    """A Maatatahay solo match against the random bot, played to the end by random choices."""
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=seed)
    with client.socket(match["id"]) as socket:
        play_out(socket, 0, random.Random(seed), socket.recv())
    record = MatchRecord.from_json(_ok(client.get(f"/api/matches/{match['id']}/record")))
    return match, record


def test_a_replay_steps_through_the_record_as_the_engine_replays_it(server: Server) -> None:
    client = server.client().guest("Wazu")
    match, record = _finished(client, seed=21)
    public = _ok(client.get(f"/api/matches/{match['id']}/replay"))
    seat0 = _ok(client.get(f"/api/matches/{match['id']}/replay?seat=0"))
    steps, mine = public["steps"], seat0["steps"]
    assert len(steps) == len(mine) == len(record.actions) + 1
    assert public["game"] == record.game_id and public["seat"] is None and seat0["seat"] == 0
    assert [p["name"] for p in public["players"]] == ["Wazu", "random bot"]
    state = record.initial_state()
    assert steps[0] == {
        "version": 0,
        "seat": None,
        "action": None,
        "notation": None,
        "events": [],
        "view": state.view(None),
        "deciding": list(state.deciding_seats()),
    }
    for version, (seat, action) in enumerate(record.actions, start=1):
        notation = state.action_to_string(seat, action)
        events = state.apply(seat, action)
        step = steps[version]
        assert (step["version"], step["seat"], step["action"]) == (version, seat, action)
        assert step["notation"] == mine[version]["notation"] == notation
        assert step["events"] == [event.to_json() for event in events]
        assert mine[version]["events"] == [e.to_json() for e in events if e.visible_to(0)]
        assert step["view"] == state.view(None) and mine[version]["view"] == state.view(0)
        assert step["deciding"] == list(state.deciding_seats())
    outcome = state.outcome()
    assert outcome is not None and record.outcome is not None
    assert public["outcome"] == outcome.to_json() == record.outcome.to_json()

    # The same record, uploaded as the file `meeple replay` reads, gives the same steps.
    uploaded = _ok(client.post("/api/replays", content=record.dumps(indent=2)))
    assert uploaded["steps"] == steps and uploaded["outcome"] == public["outcome"]
    assert uploaded["match"] is None
    assert [p["name"] for p in uploaded["players"]] == ["Wazu", "random bot"]
    one_line = _ok(client.post("/api/replays?seat=0", content=record.dumps()))
    assert one_line["steps"] == mine


def test_refusals_have_codes_and_change_nothing(server: Server) -> None:
    client = server.client().guest("Ana")
    other = server.client().guest("Eve")
    playing = client.solo(game="maatatahay", seat=0, bots="random", seed=4)
    mid = playing["id"]
    before = _ok(client.get(f"/api/matches/{mid}"))
    _refused(client.get(f"/api/matches/{mid}/replay"), 409, "match/not_over")
    _refused(client.get("/api/matches/nothing-here/replay"), 404, "match/unknown")
    # While a solo match is played, only the caller's own seat is analysed.
    _refused(client.get(f"/api/matches/{mid}/analysis?seat=1"), 403, "analysis/not_your_seat")
    _refused(other.get(f"/api/matches/{mid}/analysis?seat=0"), 403, "analysis/not_your_seat")
    _refused(client.get(f"/api/matches/{mid}/analysis?seat=7"), 422, "analysis/bad_seat")
    _refused(
        client.get(f"/api/matches/{mid}/analysis?seat=0&iterations=5000"),
        422,
        "analysis/bad_iterations",
    )
    _refused(client.get(f"/api/matches/{mid}/analysis?seat=0&start=9"), 422, "analysis/bad_range")
    _refused(other.get(f"/api/matches/{mid}/hint"), 403, "hint/not_seated")
    _refused(client.get(f"/api/matches/{mid}/hint?iterations=0"), 422, "analysis/bad_iterations")
    assert client.get(f"/api/matches/{mid}/hint?iterations=50").status_code == 200
    anonymous = httpx.get(f"{server.base}/api/matches/{mid}/hint", timeout=10)
    assert anonymous.status_code == 401
    # A live table against people gets no hint and no line while it is played.
    host = server.client().guest("Host")
    room = _ok(host.post("/api/rooms", json={"game": "maatatahay", "timer": None}), 201)
    _ok(host.post(f"/api/rooms/{room['id']}/bots", json={"bots": "random"}))
    live = _ok(host.post(f"/api/rooms/{room['id']}/start"))
    assert live["mode"] == "custom"
    _refused(host.get(f"/api/matches/{live['id']}/hint"), 403, "hint/not_solo")
    _refused(host.get(f"/api/matches/{live['id']}/analysis?seat=0"), 403, "analysis/live")
    # Bad record files.
    bad = {
        "not JSON": b"{not json",
        "no format": json.dumps({"game": "maatatahay/1", "seats": 2, "seed": 1}).encode(),
        "not UTF-8": b'{"format": "\xff"}',
        "two records": b'{"a": 1}\n{"b": 2}',
    }
    for what, body in bad.items():
        message = _refused(client.post("/api/replays", content=body), 422, "record/invalid")
        assert message, what
    _, record = _finished(client, seed=8)
    broken = record.to_json(with_notation=False)
    broken["actions"] = [list(a) for a in record.actions]
    broken["actions"][3][0] = 1 - broken["actions"][3][0]  # the other seat, not deciding
    message = _refused(
        client.post("/api/replays", content=json.dumps(broken)), 422, "record/invalid"
    )
    assert "action #3" in message
    _refused(client.post("/api/replays?seat=5", content=record.dumps()), 422, "replay/bad_seat")
    huge = b'{"format": "meeple-record/1", "pad": "' + b"x" * (1 << 20) + b'"}'
    _refused(client.post("/api/replays", content=huge), 413, "replay/too_large")
    # The refused requests changed nothing.
    after = _ok(client.get(f"/api/matches/{mid}"))
    assert after["version"] == before["version"] and after["status"] == "playing"
    _refused(client.get(f"/api/matches/{mid}/record"), 409, "match/not_over")


def _line(ask: Callable[[int], httpx.Response]) -> dict[str, Any]:
    """A whole line, asked part after part (``start`` at each part's ``next``)."""
    line: dict[str, Any] = _ok(ask(0))
    while line["next"] is not None:
        part = _ok(ask(line["next"]))
        assert part["start"] == line["next"] and part["points"]
        line = {**part, "start": 0, "points": line["points"] + part["points"]}
    return line


def test_the_line_has_a_point_per_version_and_matches_analyse(server: Server) -> None:
    client = server.client().guest("Kai")
    match, record = _finished(client, seed=33)
    mid = match["id"]
    first = _ok(client.get(f"/api/matches/{mid}/analysis?seat=1&iterations=20"))
    assert first["next"] == len(first["points"]) == LINE_VERSIONS
    line = _line(
        lambda at: client.get(f"/api/matches/{mid}/analysis?seat=1&iterations=20&start={at}")
    )
    last = len(record.actions)
    assert (line["seat"], line["iterations"], line["versions"]) == (1, 20, last)
    assert [p["version"] for p in line["points"]] == list(range(last + 1))
    game = load_game(record.game_id)
    for version, state in enumerate(record.states()):
        point = line["points"][version]
        outcome = state.outcome()
        if outcome is not None:
            won = 1 in outcome.winners
            assert point["source"] == "outcome" and point["win_probability"] in (0.0, 0.5, 1.0)
            assert (point["win_probability"] == 1.0) == won
        elif 1 in state.deciding_seats():
            expected = analyse(state, 1, 20, seed=version).to_json()
            assert point["source"] == "search"
            assert point["win_probability"] == expected["win_probability"]
            assert point["best"] == expected["best"][0]["notation"]
        else:
            assert point == {"version": version, "win_probability": None, "best": None,
                             "source": None}  # fmt: skip
    assert game.id == record.game_id
    # Asked again (kept), or in parts, the line is the same.
    assert _ok(client.get(f"/api/matches/{mid}/analysis?seat=1&iterations=20")) == first
    part = _ok(client.get(f"/api/matches/{mid}/analysis?seat=1&iterations=20&start=5&end=9"))
    assert part["points"] == line["points"][5:10] and part["next"] == 10
    # The record, uploaded, gets the same line (the same positions, seeds and budget).
    uploaded = _line(
        lambda at: client.post(
            f"/api/replays/analysis?seat=1&iterations=20&start={at}", content=record.dumps()
        )
    )
    assert uploaded["points"] == line["points"] and uploaded["match"] is None
    anonymous = httpx.post(
        f"{server.base}/api/replays/analysis?seat=1", content=record.dumps(), timeout=10
    )
    assert anonymous.status_code == 401
    _refused(
        client.post("/api/replays/analysis?seat=3", content=record.dumps()),
        422,
        "analysis/bad_seat",
    )
    # Once the match is over, anyone logged in may analyse any seat.
    stranger = server.client().guest("Someone")
    assert _ok(stranger.get(f"/api/matches/{mid}/analysis?seat=0&iterations=20&end=3"))


def test_a_hint_in_a_solo_match_is_analyse_on_the_same_state(server: Server) -> None:
    client = server.client().guest("Ana")
    match = client.solo(game="manafields", seat=0, bots="random", seed=12)
    hint = _ok(client.get(f"/api/matches/{match['id']}/hint?iterations=60"))
    state = load_game(match["game"]).new_initial_state(12)
    expected = analyse(state, 0, 60, seed=0).to_json()
    assert hint == {"match": match["id"], "version": 0, **expected}
    assert hint["best"] and all(
        b["notation"] and 0 <= b["win_probability"] <= 1 for b in hint["best"]
    )
    # The line so far, during the match, is the seat's own: one point at version 0.
    line = _ok(client.get(f"/api/matches/{match['id']}/analysis?seat=0&iterations=60"))
    assert line["points"] == [
        {
            "version": 0,
            "win_probability": expected["win_probability"],
            "best": expected["best"][0]["notation"],
            "source": "search",
        }
    ]
    # Once the match is over there is nothing to hint.
    finished, _ = _finished(client, seed=2)
    _refused(client.get(f"/api/matches/{finished['id']}/hint"), 409, "match/over")


def test_the_server_answers_while_an_analysis_runs(server: Server) -> None:
    client = server.client().guest("Ana")
    match = client.solo(game="maiterra", seat=0, bots="random", seed=5)
    answer: dict[str, Any] = {}

    def ask() -> None:
        reply = httpx.get(
            f"{server.base}/api/matches/{match['id']}/hint?iterations=2500",
            headers=client.headers,
            timeout=120,
        )
        answer["reply"] = reply

    asking = threading.Thread(target=ask)
    asking.start()
    answered = 0
    while asking.is_alive():
        reply = httpx.get(f"{server.base}/api/health", timeout=5)
        assert reply.status_code == 200
        if asking.is_alive():
            answered += 1
    asking.join()
    assert answer["reply"].status_code == 200, answer["reply"].text
    assert answered >= 3  # the event loop answered while the search ran in the pool


# -- in-process: the replay's event filter and the runner's analyses ---------------------


def test_a_seats_replay_leaves_out_the_sealed_events_of_others() -> None:
    game = load_game("maiterra")
    record = MatchRecord.for_game(game, seed=3)
    state, rng = game.new_initial_state(3), random.Random(3)
    sealed = False
    while not sealed and not state.is_terminal():
        seat = state.deciding_seats()[0]
        action = rng.choice(state.legal_actions(seat))
        record.add(seat, action)
        sealed = any(event.audience is not None for event in state.apply(seat, action))
    assert sealed, "no sealed event in the match"
    everyone, seat0, seat1 = (replay_steps(record, s) for s in (None, 0, 1))
    last = everyone["steps"][-1]["events"]
    assert any("audience" in event for event in last)
    for mine, seat in ((seat0, 0), (seat1, 1)):
        shown = mine["steps"][-1]["events"]
        assert shown == [e for e in last if seat in e.get("audience", [seat])]
        assert mine["steps"][-1]["view"] == state.view(seat)
    assert everyone["steps"][-1]["view"] == state.view(None)


def test_the_runner_analyses_off_the_loop_and_keeps_its_answers() -> None:
    state = load_game("maatatahay").new_initial_state(1)
    job = AnalysisJob(
        game_id=state.game.id,
        seats=state.game.seats,
        options=dict(state.game.options),
        state=state.to_json(),
        seat=0,
        iterations=30,
        seed=4,
        seconds=60.0,
    )

    async def twice() -> tuple[Any, Any]:
        runner = BotRunner(0)
        try:
            first = await runner.analyse(job, key=("m", 0, 0, 30))
            again = await runner.analyse(replace(job, iterations=1), key=("m", 0, 0, 30))
            return first, again
        finally:
            runner.close()

    first, again = asyncio.run(twice())
    assert first == analyse(state, 0, 30, seed=4).to_json()
    assert again == first  # the kept answer: the job was not searched again
