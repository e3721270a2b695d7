"""What the shared layers know of Maatatahay: its one :class:`~meeple.core.kit.GameKit`."""

from __future__ import annotations

import json
from importlib import resources

from meeple.core.kit import DrawingModule, GameKit, Rollout, ScaledEvaluator, TensorModule
from meeple.core.types import JSON
from meeple.games.maatatahay.determinize import state_from_view
from meeple.games.maatatahay.evaluate import evaluate_maatatahay
from meeple.games.maatatahay.events import EVENTS
from meeple.games.maatatahay.game import Maatatahay
from meeple.games.maatatahay.heuristic import MaatatahayHeuristic
from meeple.games.maatatahay.move_order import maatatahay_moves


def tutorial() -> JSON:
    """The tutorial's steps, as published in ``data/tutorial.json``."""
    text = resources.files(__package__).joinpath("data/tutorial.json").read_text("utf-8")
    data: JSON = json.loads(text)
    return data


KIT = GameKit(
    name="maatatahay",
    games=(Maatatahay,),
    # Four points read as a clear lead: a search values a score tanh(score / 4).
    evaluator=ScaledEvaluator(evaluate_maatatahay, scale=4.0),
    move_order=maatatahay_moves,
    # Random matches run about 60 actions: a playout to the end is cheap enough.
    rollout=Rollout(playout_limit=None, finish_turn=False),
    draw=DrawingModule("meeple.games.maatatahay.draw"),
    heuristic=MaatatahayHeuristic(),
    tensor=TensorModule("meeple.games.maatatahay.tensor"),
    events=EVENTS,
    from_view=state_from_view,
    tutorial=tutorial,
)
