"""Action masks of one size.

``mask_writer(size)`` returns a function from a list of legal action ids to a new int8
array, 1 at each of them: numpy's ``copy`` and ``put`` of a zeroed template. The
environments make one per game and call it at every observation. (A compiled writer was
measured and removed: about 0.6 µs a mask saved, not a gain worth a C compiler; see
docs/research.md, "Compiled or pure Python".)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

Mask = npt.NDArray[np.int8]


def mask_writer(size: int) -> Callable[[list[int]], Mask]:
    """A function writing masks of ``size`` ids (see the module docstring)."""
    template = np.zeros(size, np.int8)

    def mask(legal: list[int]) -> Mask:
        out = template.copy()
        out.put(legal, 1)
        return out

    return mask
