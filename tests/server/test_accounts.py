"""Accounts over a real server: register, log in, guests, bots, cookies and bearer tokens."""

from __future__ import annotations

import uuid

import httpx

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
    for body in (
        {"name": "x", "password": "long-enough-pw"},
        {"name": "has space", "password": "long-enough-pw"},
        {"name": "okname", "password": "short"},
        {"name": "okname", "password": "long-enough-pw", "admin": True},
    ):
        refused = client.post("/api/accounts", json=body)
        assert refused.status_code == 422
        # One shape for every refusal: a code and a sentence naming the field.
        assert refused.json()["detail"]["code"] == "request/invalid", refused.text
        assert "body." in refused.json()["detail"]["message"]
    assert client.post("/api/guests", json={"display_name": ""}).status_code == 422
    assert client.get("/api/me", headers={"Authorization": "Bearer nonsense"}).status_code == 401


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
