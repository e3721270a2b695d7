"""What the shared layers know of Maiterra: its one :class:`~meeple.core.kit.GameKit`."""

from __future__ import annotations

import json
from importlib import resources

from meeple.core.kit import DrawingModule, GameKit, Rollout, ScaledEvaluator, TensorModule
from meeple.core.types import JSON
from meeple.games.maiterra.bots import MaiterraHeuristic
from meeple.games.maiterra.determinize import state_from_view
from meeple.games.maiterra.evaluate import evaluate_maiterra
from meeple.games.maiterra.events import EVENTS
from meeple.games.maiterra.game import EARLIER_VERSIONS, Maiterra
from meeple.games.maiterra.move_order import maiterra_moves


def tutorial() -> JSON:
    """The tutorial's steps, as published in ``data/tutorial.json``."""
    text = resources.files(__package__).joinpath("data/tutorial.json").read_text("utf-8")
    data: JSON = json.loads(text)
    return data


KIT = GameKit(
    name="maiterra",
    games=(Maiterra, *EARLIER_VERSIONS),
    # Six points read as a clear lead: a search values a score tanh(score / 6).
    evaluator=ScaledEvaluator(evaluate_maiterra, scale=6.0),
    move_order=maiterra_moves,
    # Random Maiterra matches run about 500 actions: judge the leaf as soon as the turn the
    # heuristic finishes is planned.
    rollout=Rollout(playout_limit=0, finish_turn=True),
    draw=DrawingModule("meeple.games.maiterra.draw"),
    heuristic=MaiterraHeuristic(),
    tensor=TensorModule("meeple.games.maiterra.tensor"),
    events=EVENTS,
    from_view=state_from_view,
    # Its name before every game had a heuristic bot.
    heuristic_aliases=("maiterra-heuristic",),
    tutorial=tutorial,
)
