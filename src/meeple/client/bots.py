"""A bot of :mod:`meeple.ai` playing a seat at a server, from the seat's view alone.

A client never gets the state, only its seat's view; the searching bots need a state. So
each decision rebuilds one with :func:`meeple.core.state_from_view` (what the view hides
drawn from a seed), and the bot searches it as the server's bots search theirs, redrawing
the hidden parts each iteration, and stopped by the clock at the level's move time as the
server stops its own (:func:`meeple.ai.deadline.deadline`).

    game = load_game(summary["game"], summary["seats"], summary["options"])
    with client.connect(match_id) as table:
        play_seat(table, searching_policy(game, seat, "mcts-hard"))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import meeple.games  # noqa: F401  (registers every game)
from meeple.ai import LEVELS, MctsBot, make_bot
from meeple.ai.deadline import deadline
from meeple.client.client import Frame
from meeple.core import Action, Game, Seat, mix_seed, state_from_view

DEFAULT_MOVE_SECONDS = 1.0
"""The most time a searching bot that is not a level spends on one decision (the server's
``bot_move_seconds``)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision a :func:`searching_policy` took: for the caller to log."""

    version: int
    action: Action
    text: str
    seconds: float
    choices: int


def move_seconds(bot: str) -> float:
    """The time a bot may take on one decision: its level's, else the server's default."""
    level = LEVELS.get(bot.removeprefix("mcts-")) if bot.startswith("mcts-") else None
    return level.move_seconds if level is not None else DEFAULT_MOVE_SECONDS


def searching_policy(
    game: Game,
    seat: Seat,
    bot: str,
    *,
    seed: int = 0,
    seconds: float | None = None,
    on_decision: Callable[[Decision], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Callable[[Frame], Action]:
    """A policy (for :func:`meeple.client.play_seat`) that lets the bot called ``bot``
    choose for ``seat`` of ``game`` on a state rebuilt from each frame's view.

    ``seed`` seeds the bot and the redraw of what the view hides (each mixed with the
    frame's version, so a decision is the same when taken again); ``seconds`` caps a
    searching bot's time (default: its level's move time). ``on_decision`` hears of each
    decision taken.

    Raises:
        ValueError: for an unknown bot name (naming the known ones), at once.
        InvalidView: when a frame's view is not one of ``game`` for ``seat``.
    """
    make_bot(bot, seed)  # refuse an unknown name before the first frame
    cap = move_seconds(bot) if seconds is None else seconds

    def choose(frame: Frame) -> Action:
        started = clock()
        version = int(frame["version"])
        state = state_from_view(game, frame["view"], seat, mix_seed(seed, version, 0x5649))
        legal = state.legal_actions(seat)
        player = make_bot(bot, mix_seed(seed, version, seat))
        if len(legal) == 1:
            action = legal[0]
        elif isinstance(player, MctsBot):
            budget = player.budget.stopping_when(deadline(cap, clock))
            action = player.search(state, seat, budget).action
        else:
            action = player.select(state, seat)
        if on_decision is not None:
            on_decision(
                Decision(
                    version=version,
                    action=action,
                    text=state.action_to_string(seat, action),
                    seconds=clock() - started,
                    choices=len(legal),
                )
            )
        return action

    return choose


def trained_policy(
    game: Game, seat: Seat, act: Callable[[dict[str, Any]], int], *, seed: int = 0
) -> Callable[[Frame], Action]:
    """A policy for an agent trained on meeple's PettingZoo (or Gymnasium) environment.

    ``act`` gets what the environment gives ``seat_k``: ``{"observation": float32 vector,
    "action_mask": int8 vector}``, both made from a state rebuilt from the frame's view
    (:func:`meeple.core.state_from_view`; the view is all the observation encodes), and
    returns an action id. Needs NumPy (the ``research`` extra).
    """
    # NumPy only for this policy: the client itself plays without it.
    from meeple.core.encoding import action_mask, observation  # noqa: PLC0415

    def choose(frame: Frame) -> Action:
        version = int(frame["version"])
        state = state_from_view(game, frame["view"], seat, mix_seed(seed, version, 0x5649))
        return int(
            act({"observation": observation(state, seat), "action_mask": action_mask(state, seat)})
        )

    return choose


__all__ = [
    "DEFAULT_MOVE_SECONDS",
    "Decision",
    "move_seconds",
    "searching_policy",
    "trained_policy",
]
