"""``meeple bot``: a bot account plays its seats at a server with one of meeple's bots.

It logs in with the account's token, joins the rooms whose codes it is given and gets ready
in every room it sits in, then follows its matches (``GET /api/matches``) and plays every
seat it holds, one thread and one WebSocket each, through :mod:`meeple.client`: each frame
where the seat decides is turned back into a state (:func:`meeple.core.state_from_view`),
the named bot chooses under its level's move time, and the action goes out with the frame's
version. One line per decision and per match end; Ctrl-C stops.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meeple.ai import BOT_NAMES
from meeple.cli.common import console, fail
from meeple.core import GameError, load_game

if TYPE_CHECKING:
    from meeple.client import Client, ClientError
    from meeple.client.bots import Decision

POLL_SECONDS = 2.0
"""How often the list of matches is read again for new matches and rooms."""

TRIES = 3
"""How many times a seat is taken up again after its connection failed (the server went away,
a refusal) while its match is still being played; then the seat is left to the server's
timers."""


def run_bot(  # noqa: PLR0917 (typer: one parameter per option)
    token: Annotated[str, typer.Option(help="The bot account's login token.")],
    bot: Annotated[
        str, typer.Option("--bot", help="The bot that plays: mcts-easy … mcts-expert, heuristic…")
    ] = "mcts-normal",
    server: Annotated[str, typer.Option(help="The server's address.")] = "http://127.0.0.1:8000",
    join: Annotated[
        list[str] | None,
        typer.Option(metavar="CODE", help="A room's private code to join (repeatable)."),
    ] = None,
    once: Annotated[
        bool, typer.Option(help="Play the matches and rooms it holds now, then stop.")
    ] = False,
    seconds: Annotated[
        float | None,
        typer.Option(help="The most seconds a decision takes (default: the level's move time)."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seeds the bot's choices.")] = 0,
) -> None:
    """Play a bot account's seats at a server with one of meeple's bots."""
    try:
        from meeple.client import Client, ClientError  # noqa: PLC0415  (an optional extra)
        from meeple.client.bots import move_seconds  # noqa: PLC0415
    except ImportError as error:
        raise fail(f"the bot needs the extra: pip install 'meeple[server]' ({error})") from error
    if bot not in BOT_NAMES:
        raise fail(f"no bot {bot[:40]!r}; known: {', '.join(BOT_NAMES)}")
    if seconds is not None and not seconds > 0:
        raise fail(f"--seconds must be positive, got {seconds}")
    out = console()
    with Client(server, token=token) as client:
        try:
            account = client.me()
            if account.get("bot") is not True:
                raise fail(
                    f"{account.get('display_name') or 'this account'} is no bot account: "
                    "meeple bot plays a bot account's seats (register one with bot: true)"
                )
            for code in join or []:
                room = client.join_code(code)
                out.print(f"joined room {room['id']} ({room['game']}) by its code")
        except ClientError as error:
            raise fail(_refusal(error)) from error
        except OSError as error:
            raise fail(f"cannot reach {server}: {error}") from error
        name = account.get("display_name") or account.get("name") or "bot"
        cap = seconds if seconds is not None else move_seconds(bot)
        out.print(f"{name} plays as {bot} ({cap:g} s a decision) at {server}; Ctrl-C stops")
        table = Tables(client, bot, seconds, seed)
        try:
            table.follow(once)
        except KeyboardInterrupt:
            table.stop.set()
            table.wait(5.0)
            out.print("stopped")
            return
        except ClientError as error:
            table.stop.set()
            raise fail(_refusal(error)) from error
        except OSError as error:
            table.stop.set()
            raise fail(f"lost the server at {server}: {error}") from error
        table.wait(2.0)


def _refusal(error: ClientError) -> str:
    if error.status == 401:
        return f"the server does not know this token ({error.message})"
    return str(error.message)


class Tables:
    """The matches a bot account follows: one thread per seat it holds in a match."""

    def __init__(self, client: Client, bot: str, seconds: float | None, seed: int) -> None:
        self.client = client
        self.bot = bot
        self.seconds = seconds
        self.seed = seed
        self.stop = threading.Event()
        self.threads: dict[tuple[str, int], threading.Thread] = {}
        self.tries: dict[tuple[str, int], int] = {}
        self.readied: set[str] = set()
        self._print = threading.Lock()

    def say(self, line: str) -> None:
        with self._print:
            console().print(line, soft_wrap=True)

    def follow(self, once: bool) -> None:
        """Start a thread for each match being played, get ready in each waiting room; with
        ``once``, return when nothing is left waiting or being played."""
        while not self.stop.is_set():
            pending = 0
            for match in self.client.matches():
                status, seat = match.get("status"), match.get("seat")
                if status == "waiting":
                    pending += 1
                    if match["id"] not in self.readied:
                        self.client.ready(match["id"])
                        self.readied.add(match["id"])
                        self.say(f"ready in room {match['id']} ({match['game']}), seat {seat}")
                elif status == "playing" and isinstance(seat, int):
                    pending += self._playing(match["id"], seat)
            alive = any(thread.is_alive() for thread in self.threads.values())
            if once and not pending and not alive:
                if not self.threads:
                    self.say("no match or room to play")
                return
            self.stop.wait(POLL_SECONDS)

    def wait(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        for thread in self.threads.values():
            thread.join(max(0.0, end - time.monotonic()))

    def _playing(self, match_id: str, seat: int) -> bool:
        """Whether a thread plays the seat, started (or started again, at most :data:`TRIES`
        times in all) here."""
        key = (match_id, seat)
        thread = self.threads.get(key)
        if thread is not None and thread.is_alive():
            return True
        if self.tries.get(key, 0) >= TRIES:
            return False
        self.tries[key] = self.tries.get(key, 0) + 1
        thread = threading.Thread(
            target=self._play, args=key, name=f"seat {seat} of {match_id}", daemon=True
        )
        self.threads[key] = thread
        thread.start()
        return True

    def _play(self, match_id: str, seat: int) -> None:
        """Play one seat of one match to its end (or until stopped); any failure is one line."""
        from websockets.exceptions import WebSocketException  # noqa: PLC0415

        from meeple.client import ClientError, play_seat  # noqa: PLC0415
        from meeple.client.bots import searching_policy  # noqa: PLC0415

        where = f"{match_id} seat {seat}"

        def told(decision: Decision) -> None:
            if self.stop.is_set():
                return
            self.say(
                f"{where} v{decision.version}: {decision.text} "
                f"({decision.choices} choices, {decision.seconds:.2f} s)"
            )

        try:
            summary = self.client.match(match_id)
            game = load_game(summary["game"], summary["seats"], summary["options"])
            search = searching_policy(
                game, seat, self.bot, seed=self.seed, seconds=self.seconds, on_decision=told
            )

            def policy(frame: dict[str, Any]) -> int | None:
                action = search(frame)
                # Stopped while it searched: send nothing.
                return None if self.stop.is_set() else int(action)

            with self.client.connect(match_id, seat=seat) as table:
                last = play_seat(table, policy, timeout=None, stop=self.stop.is_set)
        except (ClientError, GameError, OSError, TimeoutError, WebSocketException) as error:
            self.say(f"{where}: stopped playing: {error}")
            return
        outcome = last.get("outcome")
        if outcome is not None:
            winners = outcome.get("winners") or []
            result = "a draw" if not winners else f"won by seat(s) {winners}"
            self.say(f"{where}: the match is over, {result} ({outcome.get('reason')})")
