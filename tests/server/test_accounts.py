"""Accounts over a real server: register, log in, guests, bots, cookies and bearer tokens."""

from __future__ import annotations

import uuid
from pathlib import Path

import httpx
import sqlalchemy as sa
from alembic import command

from meeple.server.store.db import alembic_config
from tests.server.conftest import Client, Server


def test_register_log_in_and_out(server: Server) -> None:
    client = Client(server)
    name = f"wazu-{uuid.uuid4().hex[:8]}"
    made = client.post("/api/accounts", json={"name": name, "password": "kiwi-kiwi-kiwi"})
    assert made.status_code == 201, made.text
    assert made.json()["account"]["kind"] == "person"
    again = client.post("/api/accounts", json={"name": name, "password": "another-one"})
    assert again.status_code == 409
    assert again.json()["detail"]["code"] == "account/name_taken"
    wrong = client.post("/api/sessions", json={"name": name, "password": "not-the-password"})
    assert wrong.status_code == 401
    login = client.post("/api/sessions", json={"name": name, "password": "kiwi-kiwi-kiwi"})
    assert login.status_code == 200
    token = login.json()["token"]
    me = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 200 and me.json()["name"] == name
    # The session cookie works the same for browsers.
    cookie = login.cookies.get("meeple_session")
    assert cookie == token
    by_cookie = httpx.get(f"{server.base}/api/me", cookies={"meeple_session": cookie})
    assert by_cookie.status_code == 200 and by_cookie.json()["name"] == name
    out = client.request("DELETE", "/api/sessions", headers={"Authorization": f"Bearer {token}"})
    assert out.status_code == 204
    gone = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
    assert gone.status_code == 401
    assert gone.json()["detail"]["code"] == "auth/required"


def test_guests_and_bot_accounts(server: Server) -> None:
    guest = Client(server).guest("Balan")
    assert guest.account is not None
    assert guest.account["kind"] == "guest" and guest.account["name"] is None
    assert guest.get("/api/me").json()["display_name"] == "Balan"
    bot = Client(server).post(
        "/api/accounts",
        json={"name": f"bot-{uuid.uuid4().hex[:8]}", "password": "beep-boop-beep", "bot": True},
    )
    assert bot.status_code == 201
    assert bot.json()["account"]["bot"] is True and bot.json()["account"]["kind"] == "bot"


def test_bad_account_requests_are_refused(server: Server) -> None:
    client = Client(server)
    extra = client.post(
        "/api/accounts", json={"name": "okname", "password": "long-enough-pw", "admin": True}
    )
    # One shape for every refusal: a code and a sentence naming the field.
    assert extra.status_code == 422
    assert extra.json()["detail"]["code"] == "request/invalid", extra.text
    assert "body." in extra.json()["detail"]["message"]
    # The rules for names and passwords answer with their own codes, in plain words.
    for body, code in (
        ({"name": "x", "password": "long-enough-pw"}, "account/name_length"),
        ({"name": "   ", "password": "long-enough-pw"}, "account/name_length"),
        ({"name": "has space", "password": "long-enough-pw"}, "account/name_characters"),
        ({"name": "rtl\u202eevil", "password": "long-enough-pw"}, "account/name_characters"),
        ({"name": "mcts-hard", "password": "long-enough-pw"}, "account/name_bot"),
        ({"name": "Sneaky_Bot", "password": "long-enough-pw"}, "account/name_bot"),
        ({"name": "okname", "password": "short"}, "account/password_length"),
        ({"name": "okname-long", "password": "OKNAME-LONG"}, "account/password_name"),
        ({"name": "okname", "password": "password123"}, "account/password_common"),
        (
            {"name": "okname", "password": "long-enough-pw", "display_name": "a\u200bb"},
            "account/display_name_characters",
        ),
    ):
        refused = client.post("/api/accounts", json=body)
        assert refused.status_code == 422, (body, refused.text)
        assert refused.json()["detail"]["code"] == code, (body, refused.text)
        assert refused.json()["detail"]["message"]
    for display_name, code in (
        ("", "account/display_name_length"),
        ("  \t ", "account/display_name_length"),
        ("x" * 41, "account/display_name_length"),
        ("\u202eevil", "account/display_name_characters"),
        ("mcts-hard bot", "account/display_name_bot"),
        ("Heuristic", "account/display_name_bot"),
    ):
        refused = client.post("/api/guests", json={"display_name": display_name})
        assert refused.status_code == 422, (display_name, refused.text)
        assert refused.json()["detail"]["code"] == code, (display_name, refused.text)
    assert client.get("/api/me", headers={"Authorization": "Bearer nonsense"}).status_code == 401


def test_names_are_one_whatever_their_case_and_are_kept_tidy(server: Server) -> None:
    client = Client(server)
    name = f"Ana-{uuid.uuid4().hex[:8]}"
    made = client.post("/api/accounts", json={"name": f"  {name} ", "password": "kiwi-kiwi-kiwi"})
    assert made.status_code == 201, made.text
    assert made.json()["account"]["name"] == name  # trimmed
    for other in (name.lower(), name.upper(), name.replace("A", "\uff21")):  # full-width A
        again = client.post("/api/accounts", json={"name": other, "password": "another-one"})
        assert again.status_code == 409, (other, again.text)
        assert again.json()["detail"]["code"] == "account/name_taken"
    # Logging in takes the name in any case.
    login = client.post("/api/sessions", json={"name": name.upper(), "password": "kiwi-kiwi-kiwi"})
    assert login.status_code == 200 and login.json()["account"]["name"] == name
    guest = client.post("/api/guests", json={"display_name": "  Ana   la\tfleur "})
    assert guest.status_code == 201 and guest.json()["account"]["display_name"] == "Ana la fleur"
    # A bot account may be named like a bot.
    bot = client.post(
        "/api/accounts",
        json={"name": f"x{uuid.uuid4().hex[:6]}-bot", "password": "beep-boop-beep", "bot": True},
    )
    assert bot.status_code == 201, bot.text


def test_games_and_bots_are_listed(server: Server) -> None:
    client = Client(server)
    games = {game["name"] for game in client.get("/api/games").json()}
    assert {"maiterra", "maatatahay", "manafields"} <= games
    bots = client.get("/api/bots").json()
    assert "mcts-easy" in bots["bots"] and bots["levels"]


def test_the_rest_interface_has_its_openapi_description(server: Server) -> None:
    spec = Client(server).get("/openapi.json").json()
    paths = set(spec["paths"])
    assert {"/api/accounts", "/api/sessions", "/api/guests", "/api/matches/solo"} <= paths
    assert {"/api/rooms", "/api/rooms/join", "/api/matches/{match_id}/record"} <= paths


def test_the_migration_keeps_the_oldest_of_names_that_clash_and_renames_the_others(
    tmp_path: Path,
) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.db'}")
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0006")
        for name in ("Ana", "ana", "Bob", "ANA", None):
            connection.execute(
                sa.text(
                    "INSERT INTO accounts (name, display_name, kind, created_at)"
                    " VALUES (:name, 'x', 'person', '2026-01-01')"
                ),
                {"name": name},
            )
        command.upgrade(alembic_config(connection), "0007")
        rows = connection.execute(sa.text("SELECT name, name_key FROM accounts ORDER BY id"))
        assert [tuple(row) for row in rows] == [
            ("Ana", "ana"),
            ("ana-2", "ana-2"),
            ("Bob", "bob"),
            ("ANA-4", "ana-4"),
            (None, None),
        ]
        command.downgrade(alembic_config(connection), "0006")
    engine.dispose()
