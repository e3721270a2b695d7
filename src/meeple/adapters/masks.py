"""Action masks of one size, written as cheaply as the install allows.

``mask_writer(size)`` returns a function from a list of legal action ids to a new int8
array, 1 at each of them: the compiled writer (``meeple_fast.mask``) where it is installed,
else numpy's ``copy`` and ``put`` of a zeroed template (``MEEPLE_NO_EXT=1`` chooses that
path).
The environments make one per game and call it at every observation.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from meeple.core.tensor import compiled_module

Mask = npt.NDArray[np.int8]


def mask_writer(size: int, *, compiled: bool | None = None) -> Callable[[list[int]], Mask]:
    """A function writing masks of ``size`` ids (see the module docstring).

    ``compiled``: None uses the compiled writer where it is built, False never does, True
    insists (ImportError without it)."""
    template = np.zeros(size, np.int8)
    fast = compiled_module("mask", compiled)
    if fast is not None:
        compiled_mask: Callable[[list[int]], Mask] = fast.MaskWriter(template).mask
        return compiled_mask

    def mask(legal: list[int]) -> Mask:
        out = template.copy()
        out.put(legal, 1)
        return out

    return mask
