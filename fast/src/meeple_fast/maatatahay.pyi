from typing import Any

import numpy as np
import numpy.typing as npt

class MaatatahayWriter:
    def __init__(
        self,
        template: npt.NDArray[np.float32],
        state_type: type,
        offsets: dict[str, int],
        per_seat: int,
        pairs: int,
        relics: int,
        over: int,
        facings: int,
        orthogonal: tuple[tuple[int, ...], ...],
        diagonal: tuple[tuple[int, ...], ...],
        tiles: tuple[Any, ...],
        min_cost: int,
        base_cost: int,
        progressive: tuple[int, ...],
        blocks: bool,
        standard: bool,
    ) -> None: ...
    def observe(self, state: Any, seat: int) -> npt.NDArray[np.float32]: ...
