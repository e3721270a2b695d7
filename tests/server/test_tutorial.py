"""The tutorial over REST: the steps with their views, and the stateless check."""

from __future__ import annotations

import pytest

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
    assert 5 <= len(steps) <= 8
    for index, step in enumerate(steps):
        assert step["index"] == index and step["title"] and step["text"]
        assert step["view"]["game"].startswith(name)
        texts = [a["text"] for a in step["legal"]]
        assert step["example"] in texts
        answer = client.post(
            f"/api/tutorials/{name}/check", json={"step": index, "action": step["example"]}
        ).json()
        assert answer["ok"] is True, answer
        assert answer["message"] == step["success"]
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
