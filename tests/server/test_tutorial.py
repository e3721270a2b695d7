"""The tutorial over REST: the steps with their views, and the stateless check; the rules
pages; the session a signed-out page asks for."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from meeple.server.http.routes.tutorial import render_rules
from tests.server.conftest import Server

GAMES = ["maatatahay", "maiterra", "manafields"]


@pytest.mark.parametrize("name", GAMES)
def test_every_step_passes_with_its_example_and_leads_to_the_next(
    server: Server, name: str
) -> None:
    client = server.client()  # no account: the tutorial needs none
    reply = client.get(f"/api/tutorials/{name}")
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["game"].startswith(f"{name}/")
    steps = data["steps"]
    assert 5 <= len(steps) <= 12
    for index, step in enumerate(steps):
        assert step["index"] == index and step["title"] and step["text"]
        assert step["view"]["game"].startswith(name)
        texts = [a["text"] for a in step["legal"]]
        assert step["example"] in texts
        played: list[str] = []
        if step["to_win"]:  # played on: the line that wins, its earlier actions sent along
            *played, _last = step["solution"]
            for at, action in enumerate(played):
                on = client.post(
                    f"/api/tutorials/{name}/check",
                    json={"step": index, "action": action, "played": played[:at]},
                ).json()
                assert on["ok"] and not on["done"] and not on["over"], on
        answer = client.post(
            f"/api/tutorials/{name}/check",
            json={
                "step": index,
                "action": step["solution"][-1] if played else step["example"],
                "played": played,
            },
        ).json()
        assert answer["ok"] is True, answer
        assert answer["done"] is True
        assert answer["message"] == ("You won! " if step["to_win"] else "") + step["success"]
        assert answer["next"] == (index + 1 if index + 1 < len(steps) else None)
        assert answer["view"] != step["view"]


def test_a_wrong_action_is_explained_and_the_position_stays(server: Server) -> None:
    client = server.client()
    steps = client.get("/api/tutorials/maiterra").json()["steps"]
    march = next(
        i for i, s in enumerate(steps) if "any_of" in s["expect"] and "march" in s["example"]
    )
    step = steps[march]
    end = next(a for a in step["legal"] if a["text"] == "end")
    answer = client.post(
        "/api/tutorials/maiterra/check", json={"step": march, "action": end["id"]}
    ).json()
    assert answer["ok"] is False
    assert answer["message"] == step["wrong"]
    assert answer["view"] == step["view"] and answer["legal"] == step["legal"]
    assert answer["next"] is None
    illegal = client.post(
        "/api/tutorials/maiterra/check", json={"step": march, "action": "fly a1"}
    ).json()
    assert illegal["ok"] is False and "not Maiterra notation" in illegal["message"]
    assert illegal["view"] == step["view"]


def test_unknown_games_and_steps_are_refused(server: Server) -> None:
    client = server.client()
    assert client.get("/api/tutorials/chess").status_code == 404
    reply = client.post("/api/tutorials/maatatahay/check", json={"step": 99, "action": "pick 1"})
    assert reply.status_code == 422
    assert reply.json()["detail"]["code"] == "tutorial/step"


def test_the_session_says_who_is_signed_in_without_an_error(server: Server) -> None:
    client = server.client()
    assert client.get("/api/me").status_code == 401  # the API stays honest for other clients
    nobody = client.get("/api/session")
    assert nobody.status_code == 200 and nobody.json() == {"account": None}
    client.guest("Ana")
    signed_in = client.get("/api/session").json()["account"]
    assert signed_in == client.get("/api/me").json()
    assert signed_in["display_name"] == "Ana"


@pytest.mark.parametrize("name", GAMES)
def test_each_rules_page_is_its_docs_page_rendered(server: Server, name: str) -> None:
    reply = server.client().get(f"/api/rules/{name}")  # no account needed
    assert reply.status_code == 200, reply.text
    page = reply.json()
    assert page["game"] == name and page["title"] == name.capitalize()
    assert page["html"].startswith(f"<h1>{page['title']}</h1>")
    assert "<h2>Decisions</h2>" in page["html"] and "<table>" in page["html"]
    assert server.client().get("/api/rules/chess").status_code == 404


def test_the_packaged_rules_pages_are_the_docs_pages() -> None:
    """The game packages carry docs/rules/<game>.md as data/rules.md (a link to it), so an
    installed wheel serves the page and docs/rules stays the one source."""
    root = Path(__file__).resolve().parents[2]
    for name in GAMES:
        packaged = resources.files(f"meeple.games.{name}") / "data" / "rules.md"
        docs = root / "docs" / "rules" / f"{name}.md"
        assert packaged.read_text(encoding="utf-8") == docs.read_text(encoding="utf-8")


def test_rules_text_cannot_inject_markup() -> None:
    html = render_rules(
        "a <script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))"
        "\n\n| a |\n|---|\n| one<br>two |\n"
    )
    assert "<script" not in html and "<img" not in html and 'href="javascript' not in html
    assert "&lt;script&gt;" in html and "<td>one<br>two</td>" in html


def test_a_check_replays_a_bounded_number_of_earlier_actions(server: Server) -> None:
    """A tutorial needs no login, and a check replays the actions sent with it: a list past
    the bound is refused unread, typed, before any is played."""
    client = server.client()
    reply = client.post(
        "/api/tutorials/maatatahay/check",
        json={"step": 0, "action": 0, "played": [0] * 501},
    )
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"]["code"] == "request/invalid"
