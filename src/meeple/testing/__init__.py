"""The conformance kit every meeple game must pass (shipped, reused by research adapters).

``run_conformance(load_game("toy_tricks"))`` plays random matches and checks, at every
step, the invariants of the engine protocol, clone and replay equivalence, notation and JSON
round trips, determinism, typed rejection of bad and hostile input (at every entry point:
nothing but a typed error, nothing changed, nothing long quoted back), clones that share
nothing, and that no seat's view leaks what resampling redraws. The ``check_*`` functions
are the pieces; :mod:`meeple.testing.strategies` holds Hypothesis strategies over games,
action ids and positions.

It imports only :mod:`meeple.core`, the standard library and Hypothesis.
"""

from meeple.testing.checks import (
    check_action_notation,
    check_clone,
    check_clone_independence,
    check_state,
    check_state_notation,
    check_view_leakage,
    play_to_end,
)
from meeple.testing.conformance import (
    ConformanceReport,
    check_action_properties,
    check_determinism,
    check_game_info,
    run_conformance,
    sampled,
)
from meeple.testing.hostile import HOSTILE_VALUES, attempt, check_hostile_inputs, entry_points
from meeple.testing.playouts import Playout, is_registered, play_random
from meeple.testing.records import check_malformed_records, check_replay
from meeple.testing.rejections import check_hand_in, check_malformed_states, check_rejections
from meeple.testing.support import ConformanceError, Where, random_move

__all__ = [
    "HOSTILE_VALUES",
    "ConformanceError",
    "ConformanceReport",
    "Playout",
    "Where",
    "attempt",
    "check_action_notation",
    "check_action_properties",
    "check_clone",
    "check_clone_independence",
    "check_determinism",
    "check_game_info",
    "check_hand_in",
    "check_hostile_inputs",
    "check_malformed_records",
    "check_malformed_states",
    "check_rejections",
    "check_replay",
    "check_state",
    "check_state_notation",
    "check_view_leakage",
    "entry_points",
    "is_registered",
    "play_random",
    "play_to_end",
    "random_move",
    "run_conformance",
    "sampled",
]
