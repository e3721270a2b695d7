"""The observation encoding, moved to :mod:`meeple.core.encoding` (names kept here for callers).

The tensor base lives in :mod:`meeple.core.tensor`, each game's writer in
``meeple.games.<name>.tensor``; the adapters read every tensor through
:func:`meeple.core.encoding.encoder_for`.
"""

from __future__ import annotations

from meeple.core.encoding import (
    Encoder,
    EncoderFactory,
    ViewEncoder,
    action_mask,
    canonical_json,
    encoder_for,
    observation,
    register_encoder,
    tensor_factory,
)
from meeple.core.tensor import VALUE_BOUND, TensorWriter, Vector

__all__ = [
    "VALUE_BOUND",
    "Encoder",
    "EncoderFactory",
    "TensorWriter",
    "Vector",
    "ViewEncoder",
    "action_mask",
    "canonical_json",
    "encoder_for",
    "observation",
    "register_encoder",
    "tensor_factory",
]
