"""``meeple bot``: a bot account joins a person's room by its code and plays its seat from the
seat's view alone (a state rebuilt from each view, searched by mcts-easy), against a real
server, in a real child process."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from meeple.client import (
    Client,
    Decision,
    play_seat,
    random_policy,
    searching_policy,
    trained_policy,
)
from meeple.core import State, load_game
from tests.server.conftest import Server

ROOT = Path(__file__).resolve().parents[2]


def _bot_account(server: Server) -> str:
    with Client(server.base) as bot:
        reply = bot.register(f"bot-{uuid.uuid4().hex[:8]}", "beep-boop-beep", bot=True)
        assert reply["account"]["bot"] is True
        return str(reply["token"])


def _meeple_bot(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "meeple", "bot", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _open_room_for_the_bot(
    person: Client, server: Server, game: str, token: str, *extra: str
) -> tuple[dict[str, Any], subprocess.Popen[str]]:
    """The person opens a private room; ``meeple bot --join CODE`` takes seat 1 and gets ready;
    the person starts the match."""
    room = person.open_room(game, timer=None, public=False)
    process = _meeple_bot(
        "--server", server.base, "--token", token, "--join", room["code"], "--bot", "mcts-easy",
        "--seconds", "0.5", *extra,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        seats = person.call("GET", f"/api/rooms/{room['id']}")["players"]
        if len(seats) > 1 and seats[1].get("ready"):
            break
        assert process.poll() is None, process.communicate()
        time.sleep(0.2)
    else:
        raise AssertionError("the bot did not get ready")
    person.start(room["id"])
    return room, process


def test_meeple_bot_joins_a_room_by_code_and_plays_maatatahay_to_the_end(server: Server) -> None:
    token = _bot_account(server)
    with Client(server.base) as person:
        person.guest("Wazu")
        room, process = _open_room_for_the_bot(person, server, "maatatahay", token, "--once")
        with person.connect(room["id"]) as table:
            final = play_seat(table, random_policy(3), timeout=60)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 0, err
        assert final["outcome"] is not None
        decisions = [line for line in out.splitlines() if f"{room['id']} seat 1 v" in line]
        assert len(decisions) >= 10, out
        assert "the match is over" in out
        record = person.record(room["id"])
        assert record.replay().outcome().to_json() == final["outcome"]


def test_meeple_bot_plays_maiterra_turns_of_sealed_orders_and_stops_on_ctrl_c(
    server: Server,
) -> None:
    token = _bot_account(server)
    with Client(server.base) as person:
        person.guest("Ana")
        room, process = _open_room_for_the_bot(person, server, "maiterra", token)
        turn = [0]
        pick = random_policy(4)

        def host(frame: dict[str, Any]) -> int | str | None:
            turn[0] = frame["view"]["turn"]
            return pick(frame)

        with person.connect(room["id"]) as table:
            play_seat(table, host, timeout=60, stop=lambda: turn[0] >= 3)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=30)
        assert process.returncode == 0, err
        assert out.rstrip().endswith("stopped"), out
        decisions = [line for line in out.splitlines() if f"{room['id']} seat 1 v" in line]
        assert any(": end " in line for line in decisions), out  # it ended turns
        assert any(": end " not in line for line in decisions[2:]), out  # and queued orders
        # One action out at a time: never two decisions on one version, however many of the
        # other seat's sealed orders came in meanwhile.
        versions = [line.split(" v", 1)[1].split(":", 1)[0] for line in decisions]
        assert len(versions) == len(set(versions)), out
        summary = person.match(room["id"])
        # The public version: what a spectator saw (ended turns, not the sealed orders).
        assert summary["status"] == "playing" and summary["version"] > 5


def test_meeple_bot_refuses_a_bad_token_an_unknown_bot_and_a_person_in_one_line(
    server: Server,
) -> None:
    with Client(server.base) as person:
        guest = str(person.guest("Wazu")["token"])
    for args, words in (
        (["--token", "not-a-token", "--bot", "mcts-easy"], "does not know this token"),
        (["--token", "whatever", "--bot", "mcts-impossible"], "no bot 'mcts-impossible'"),
        (["--token", guest, "--bot", "mcts-easy"], "Wazu is no bot account"),
    ):
        process = _meeple_bot("--server", server.base, *args)
        out, err = process.communicate(timeout=60)
        assert process.returncode == 2, (out, err)
        assert words in err
        assert len(err.strip().splitlines()) == 1, err


# -- the policies, on frames made here (no server) -------------------------------------------


def _frames(game_id: str, seats: int, seed: int) -> list[tuple[State, int, dict[str, Any]]]:
    """Positions of a random match with a deciding seat, and the frame that seat would get."""
    game = load_game(game_id, seats)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    found = []
    version = 0
    while not state.is_terminal() and version < 400:
        seat = rng.choice(state.deciding_seats())
        if version % 9 == 0:
            legal = [{"id": a, "text": game.format_action(a)} for a in state.legal_actions(seat)]
            frame = {"type": "update", "version": version, "view": state.view(seat), "legal": legal}
            found.append((state.clone(), seat, frame))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        version += 1
    return found


@pytest.mark.parametrize(
    ("game_id", "seats"), [("maatatahay", 2), ("maiterra", 3), ("manafields", 2)]
)
def test_a_searching_policy_decides_legally_from_the_frame_alone(game_id: str, seats: int) -> None:
    told: list[Decision] = []
    for state, seat, frame in _frames(game_id, seats, seed=5)[:6]:
        policy = searching_policy(state.game, seat, "mcts-easy", seed=1, on_decision=told.append)
        action = policy(frame)
        assert action in state.legal_actions(seat)
        assert told[-1].action == action and told[-1].version == frame["version"]
        assert told[-1].choices == len(frame["legal"])


def test_a_searching_policy_refuses_an_unknown_bot_at_once() -> None:
    with pytest.raises(ValueError, match="no bot 'mcts-impossible'"):
        searching_policy(load_game("maatatahay"), 0, "mcts-impossible")


@pytest.mark.parametrize(
    ("game_id", "seats"), [("maatatahay", 2), ("maiterra", 4), ("manafields", 2)]
)
def test_a_trained_policy_gets_the_observation_and_mask_the_environment_gives(
    game_id: str, seats: int
) -> None:
    """An agent trained on the PettingZoo environment sees, at a server, what it saw there:
    the seat's observation and action mask of the real position (from the view alone)."""
    np = pytest.importorskip("numpy")  # the research extra
    encoding = pytest.importorskip("meeple.core.encoding")
    seen: list[dict[str, Any]] = []

    def agent(obs: dict[str, Any]) -> int:
        seen.append(obs)
        return int(np.flatnonzero(obs["action_mask"])[0])

    for state, seat, frame in _frames(game_id, seats, seed=6):
        action = trained_policy(state.game, seat, agent)(frame)
        assert np.array_equal(seen[-1]["observation"], encoding.observation(state, seat))
        assert np.array_equal(seen[-1]["action_mask"], encoding.action_mask(state, seat))
        assert action == state.legal_actions(seat)[0]
