"""What the shared layers know of Manafields: its one :class:`~meeple.core.kit.GameKit`."""

from __future__ import annotations

import json
from importlib import resources

from meeple.core.kit import DrawingModule, GameKit, Rollout, ScaledEvaluator, TensorModule
from meeple.core.types import JSON
from meeple.games.manafields.bots import ManafieldsHeuristic
from meeple.games.manafields.determinize import state_from_view
from meeple.games.manafields.evaluate import evaluate_manafields
from meeple.games.manafields.events import EVENTS
from meeple.games.manafields.game import EARLIER_VERSIONS, Manafields
from meeple.games.manafields.move_order import manafields_moves


def tutorial() -> JSON:
    """The tutorial's steps, as published in ``data/tutorial.json``."""
    text = resources.files(__package__).joinpath("data/tutorial.json").read_text("utf-8")
    data: JSON = json.loads(text)
    return data


KIT = GameKit(
    name="manafields",
    games=(Manafields, *EARLIER_VERSIONS),
    # Six points read as a clear lead: a search values a score tanh(score / 6).
    evaluator=ScaledEvaluator(evaluate_manafields, scale=6.0),
    move_order=manafields_moves,
    # Random matches run 120-170 actions, and a turn is many small actions (move, attack,
    # ability... end): a random finish of the turn ruins what its first action set up, the
    # heuristic does not. Judge the leaf as soon as its turn is finished (measured: cut after
    # 24 more random actions, 0/4 against the heuristic bot; judged at once, 3/4).
    rollout=Rollout(playout_limit=0, finish_turn=True),
    draw=DrawingModule("meeple.games.manafields.draw"),
    heuristic=ManafieldsHeuristic(),
    tensor=TensorModule("meeple.games.manafields.tensor"),
    events=EVENTS,
    from_view=state_from_view,
    tutorial=tutorial,
)
