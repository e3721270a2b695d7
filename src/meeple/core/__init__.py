"""The protocol every meeple game speaks. No I/O, no clock, no global randomness."""

from meeple.core.errors import (
    GameError,
    GameOver,
    IllegalAction,
    InvalidAction,
    InvalidOptions,
    InvalidRecord,
    InvalidSeat,
    InvalidState,
    NotYourDecision,
    UnknownGame,
)
from meeple.core.from_view import InvalidView, NoStateFromView, state_from_view
from meeple.core.game import Game, GameInfo, OptionSpec, State, apply_all, legal_actions_by_seat
from meeple.core.kit import GameKit
from meeple.core.outcome import Event, Outcome
from meeple.core.record import MatchRecord
from meeple.core.registry import (
    GameId,
    game_class,
    kit_for,
    load_game,
    register,
    register_kit,
    registered,
)
from meeple.core.rng import Rng, mix_seed
from meeple.core.tutorial import InvalidTutorial, Tutorial, load_tutorial
from meeple.core.types import JSON, Action, Seat

__all__ = [
    "JSON",
    "Action",
    "Event",
    "Game",
    "GameError",
    "GameId",
    "GameInfo",
    "GameKit",
    "GameOver",
    "IllegalAction",
    "InvalidAction",
    "InvalidOptions",
    "InvalidRecord",
    "InvalidSeat",
    "InvalidState",
    "InvalidTutorial",
    "InvalidView",
    "MatchRecord",
    "NoStateFromView",
    "NotYourDecision",
    "OptionSpec",
    "Outcome",
    "Rng",
    "Seat",
    "State",
    "Tutorial",
    "UnknownGame",
    "apply_all",
    "game_class",
    "kit_for",
    "legal_actions_by_seat",
    "load_game",
    "load_tutorial",
    "mix_seed",
    "register",
    "register_kit",
    "registered",
    "state_from_view",
]
