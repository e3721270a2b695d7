"""The protocol as a client written from the docs meets it: the published JSON Schemas are
what the models generate, every event the engines send is in them, every REST answer has a
model, and the socket's frames keep to them (errors echo ``ref``, whole seconds are integers)."""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

import meeple.games  # noqa: F401
import tests.pebbles  # noqa: F401  (a fourth game, registered from outside the project)
from meeple.cli.main import app
from meeple.core.registry import kit_for, load_game, registered
from meeple.server.http.app import create_app
from meeple.server.http.publish import protocol_page, schemas, stale
from meeple.server.live.events import event_schema, published
from meeple.server.live.protocol import ClockOut, SnapshotOut
from meeple.server.settings import Settings
from tests.server.conftest import Server

DOCS = Path(__file__).resolve().parents[2] / "docs"
FOLDER = DOCS / "schemas"
REGENERATE = "`meeple schemas` (`meeple schemas --check` names the files that differ)"


def _published(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((FOLDER / name).read_text(encoding="utf-8"))
    return found


def test_the_committed_schemas_are_what_the_models_generate() -> None:
    generated = schemas()
    committed = {path.name for path in FOLDER.glob("*.json")}
    assert committed == set(generated), (
        f"docs/schemas/ holds {sorted(committed)}, the models give {sorted(generated)}: "
        f"run {REGENERATE} and commit the result"
    )
    differ = [str(path.relative_to(DOCS)) for path in stale(DOCS)]
    assert not differ, (
        f"docs/{', docs/'.join(differ)} differ from what the models generate: "
        f"run {REGENERATE} and commit the result"
    )


def test_every_event_kind_has_a_meaning_and_protocol_md_lists_it() -> None:
    """Each game's catalogue says in a line what each kind means, and docs/protocol.md's
    tables are the catalogues': every kind of every game of the project, with its fields and
    that line (a game registered from elsewhere is not published)."""
    page = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert "pebbles" not in published()
    for game in published():
        kinds = kit_for(game).events
        section = page.split(f"#### {game.capitalize()}\n")[1].split("####")[0]
        for kind, (meaning, fields) in kinds.items():
            assert meaning.strip() and "\n" not in meaning and meaning.endswith("."), kind
            row = next(line for line in section.splitlines() if line.startswith(f"| `{kind}` |"))
            assert all(f"`{name}`" in row for name in fields), (game, kind, row)
        schema = _published(f"events-{game}.json")
        assert {one["title"]: one["description"] for one in schema["oneOf"]} == {
            kind: entry.meaning for kind, entry in kinds.items()
        }
    assert protocol_page(page) == page, f"docs/protocol.md's event tables: run {REGENERATE}"


def test_meeple_schemas_check_names_what_differs_and_writing_mends_it(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS / "schemas", docs / "schemas")
    shutil.copy(DOCS / "protocol.md", docs / "protocol.md")
    runner = CliRunner()
    ok = runner.invoke(app, ["schemas", "--check", "--docs", str(docs)])
    assert ok.exit_code == 0, ok.output
    (docs / "schemas" / "events-maiterra.json").write_text("{}\n", encoding="utf-8")
    (docs / "schemas" / "old.json").write_text("{}\n", encoding="utf-8")
    page = (docs / "protocol.md").read_text(encoding="utf-8")
    (docs / "protocol.md").write_text(page.replace("| `marched` |", "| `march` |"), "utf-8")
    checked = runner.invoke(app, ["schemas", "--check", "--docs", str(docs)])
    assert checked.exit_code == 1
    for name in ("events-maiterra.json", "old.json", "protocol.md"):
        assert name in checked.output
    written = runner.invoke(app, ["schemas", "--docs", str(docs)])
    assert written.exit_code == 0, written.output
    assert not (docs / "schemas" / "old.json").exists()
    assert runner.invoke(app, ["schemas", "--check", "--docs", str(docs)]).exit_code == 0
    assert (docs / "protocol.md").read_text(encoding="utf-8") == page


def _random_events(game_id: str, seats: int, options: dict[str, Any], seed: int) -> list[Any]:
    state = load_game(game_id, seats=seats, options=options).new_initial_state(seed)
    rng = random.Random(seed)
    events = []
    for _ in range(3000):
        if state.is_terminal():
            break
        seat = rng.choice(list(state.deciding_seats()))
        events += [e.to_json() for e in state.apply(seat, rng.choice(state.legal_actions(seat)))]
    return events


@pytest.mark.slow  # random matches of every game and version: about 28 s of one core
def test_every_event_the_engines_send_is_in_its_games_published_schema() -> None:
    """Random matches of every registered game, version and seat count: each event validates
    against its game's catalogue (kind known, fields present and of their types, none
    unlisted): the project's games' as published in docs/schemas/events-<game>.json, any other
    game's (the fourth, Pebbles) as its kit gives it."""
    checked: dict[str, set[str]] = {}
    shipped = published()
    for info in registered():
        schema = (
            _published(f"events-{info.name}.json")
            if info.name in shipped
            else event_schema(info.name)
        )
        validator = jsonschema.Draft202012Validator(schema)
        options: list[dict[str, Any]] = [{}]
        if info.name == "manafields":
            options = [{"faction0": "elves", "faction1": "undead"}, {"faction0": "undead"}]
        for seats in range(info.min_seats, info.max_seats + 1):
            for option in options:
                for seed in range(2):
                    for event in _random_events(info.id, seats, option, seed):
                        errors = list(validator.iter_errors(event))
                        assert not errors, (info.id, event, errors[0].message)
                        checked.setdefault(info.name, set()).add(event["kind"])
    assert {"game_over", "queued", "marched"} <= checked["maiterra"]
    assert {"game_over", "pick", "place"} <= checked["maatatahay"]
    assert {"game_over", "move", "fight"} <= checked["manafields"]
    assert checked["pebbles"] == {"took"}


def test_every_rest_answer_has_a_model_and_a_refusal_is_code_and_message() -> None:
    described = create_app(Settings()).openapi()
    bare = []
    for path, methods in described["paths"].items():
        for method, operation in methods.items():
            answers = operation["responses"]
            ok = next((answers[c] for c in answers if c.startswith("2")), None)
            assert ok is not None, (method, path)
            if ok.get("content") is None or path.endswith("/stream"):
                continue  # 204: no body; the stream: NDJSON lines of server-messages.json
            schema = ok["content"]["application/json"]["schema"]
            if schema in ({}, {"type": "object"}) or schema.get("additionalProperties") is True:
                bare.append(f"{method.upper()} {path}")
            if "422" in answers:
                refusal = answers["422"]["content"]["application/json"]["schema"]
                assert refusal == {"$ref": "#/components/schemas/HTTPValidationError"}
    assert not bare, f"answers without a model: {bare}"
    refusal = described["components"]["schemas"]["HTTPValidationError"]
    assert refusal["properties"]["detail"]["required"] == ["code", "message"]


def test_whole_seconds_are_sent_as_integers() -> None:
    """A turn of 60 s reads ``60`` on the socket, as the docs' examples show (it read 60.0)."""
    assert '"turn_seconds":60}' in ClockOut(deadline=None, turn_seconds=60.0).model_dump_json()
    snapshot = SnapshotOut.model_json_schema()["properties"]["turn_seconds"]
    assert {"type": "integer"} in snapshot["anyOf"]


def test_every_error_echoes_the_ref_of_the_message_it_refuses(server: Server) -> None:
    """Malformed, unknown, stale, illegal and flooded messages: each error carries the ref
    its message was sent with, and every frame keeps to docs/schemas/server-messages.json."""
    frames = jsonschema.Draft202012Validator(_published("server-messages.json"))
    client = server.client().guest()
    match = client.solo(game="manafields", seat=0, bots="random", seed=9)
    with client.socket(match["id"]) as socket:
        first = socket.recv()
        assert not list(frames.iter_errors(first))
        refused = [
            ({"type": "action", "action": 1, "version": "0", "ref": "bad-version"}, "message"),
            ({"type": "shout", "ref": "unknown"}, "message/unknown_type"),
            ({"type": "action", "version": 0, "ref": "no-action"}, "message/malformed"),
            ({"type": "action", "action": "zz", "version": 0, "ref": "no-such"}, "action/"),
            ({"type": "action", "action": 0, "version": 99, "ref": "ahead"}, ""),
        ]
        for message, code in refused:
            socket.send(message)
            error = socket.recv()
            assert not list(frames.iter_errors(error)), error
            assert error["type"] == "error" and error["code"].startswith(code), error
            assert error["ref"] == message["ref"], error
        for index in range(60):
            socket.send({"type": "ping", "ref": f"p{index}"})
        answers = [socket.recv() for _ in range(60)]
        flooded = [frame for frame in answers if frame["type"] == "error"]
        assert flooded and {frame["code"] for frame in flooded} == {"message/flood"}
        assert all(frame["ref"] is not None for frame in answers)
        assert sorted(frame["ref"] for frame in answers) == sorted(f"p{i}" for i in range(60))
        assert not [frame for frame in answers if list(frames.iter_errors(frame))]


@pytest.mark.parametrize("name", ["client-messages.json", "server-messages.json"])
def test_the_message_schemas_name_every_type(name: str) -> None:
    schema = _published(name)
    kinds = {
        part["properties"]["type"]["const"]
        for part in schema["$defs"].values()
        if "type" in part.get("properties", {}) and "const" in part["properties"]["type"]
    }
    expected = (
        {"action", "resume", "ping"}
        if name.startswith("client")
        else {"snapshot", "update", "error", "pong", "clock", "presence"}
    )
    assert kinds == expected


def _declared_only(described: dict[str, Any]) -> dict[str, Any]:
    """The REST schemas with every answer model closed: a field a body carries that its model
    does not declare fails validation (the models allow extra fields, which hides them)."""
    closed = copy.deepcopy(described)
    for model in closed["components"]["schemas"].values():
        if model.get("additionalProperties") is True:
            model["additionalProperties"] = False
    return closed


def _answer_validator(described: dict[str, Any], method: str, path: str) -> Any:
    schema = described["paths"][path][method]["responses"]
    ok = next(schema[code] for code in schema if code.startswith("2"))
    body = {**ok["content"]["application/json"]["schema"], "components": described["components"]}
    return jsonschema.Draft202012Validator(body)


def _play_to_the_end(socket: Any) -> dict[str, Any]:
    """Play the first legal action whenever the seat decides, until the match is over."""
    frame = socket.until("snapshot")
    while frame.get("outcome") is None:
        if frame.get("legal"):
            socket.send(
                {"type": "action", "action": frame["legal"][0]["id"], "version": frame["version"]}
            )
        frame = socket.recv()
        while frame["type"] not in ("update", "snapshot"):
            if frame["type"] == "error":
                socket.send({"type": "resume", "since": 0})
            frame = socket.recv()
    return frame


def test_every_field_the_lobby_reads_is_declared(server: Server) -> None:
    """The answers a newcomer's lobby reads (the bot ladder, the Daily after a visit, a
    finished match's mode and result, who is signed in, a rules page) and the socket's
    snapshot carry no field their published model leaves out; whole seconds are integers."""
    described = _declared_only(_published("openapi.json"))
    frames = jsonschema.Draft202012Validator(_published("server-messages.json"))
    for model in ("SnapshotOut", "PresenceOut", "LeavingInfo"):
        frames.schema["$defs"][model]["additionalProperties"] = False
    client = server.client().guest()
    match = client.solo(game="maatatahay", seat=0, bots="random", seed=4)
    with client.socket(match["id"]) as socket:
        last = _play_to_the_end(socket)
    assert last["outcome"] is not None
    started = client.post("/api/daily/maatatahay", json={})
    assert started.status_code == 201, started.text
    answers = {
        ("get", "/api/bots"): client.get("/api/bots"),
        ("get", "/api/daily/{game}"): client.get("/api/daily/maatatahay"),
        ("post", "/api/daily/{game}"): started,
        ("get", "/api/matches"): client.get("/api/matches"),
        ("get", "/api/session"): client.get("/api/session"),
        ("get", "/api/rules/{game}"): client.get("/api/rules/maiterra"),
    }
    for (method, path), answer in answers.items():
        assert answer.status_code < 300, (path, answer.text)
        errors = list(_answer_validator(described, method, path).iter_errors(answer.json()))
        assert not errors, (method, path, errors[0].message)
    assert answers["get", "/api/daily/{game}"].json()["played"]["over"] is False
    assert {"ladder", "first_match"} <= set(answers["get", "/api/bots"].json())
    finished = [m for m in answers["get", "/api/matches"].json() if m["id"] == match["id"]]
    assert finished[0]["result"] in {"won", "lost", "drew"} and finished[0]["mode"] == "solo"
    with client.socket(match["id"]) as socket:
        snapshot = socket.until("snapshot")
    assert not list(frames.iter_errors(snapshot))
    grace = SnapshotOut.model_json_schema()["properties"]["grace_seconds"]
    assert {"type": "integer"} in grace["anyOf"]
    assert (
        '"grace_seconds":60,'
        in SnapshotOut.model_validate({**snapshot, "grace_seconds": 60.0}).model_dump_json()
    )
