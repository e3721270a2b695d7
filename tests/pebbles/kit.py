"""Pebbles' one :class:`~meeple.core.GameKit`."""

from __future__ import annotations

from meeple.core.kit import DrawingModule, GameKit, Rollout, ScaledEvaluator, keep_all
from tests.pebbles.bots import PebblesHeuristic, evaluate
from tests.pebbles.events import EVENTS
from tests.pebbles.game import Pebbles

KIT = GameKit(
    name="pebbles",
    games=(Pebbles,),
    evaluator=ScaledEvaluator(evaluate, scale=1.0),
    move_order=keep_all,
    rollout=Rollout(),
    draw=DrawingModule("tests.pebbles.draw"),
    heuristic=PebblesHeuristic(),
    tensor=None,
    events=EVENTS,
)
