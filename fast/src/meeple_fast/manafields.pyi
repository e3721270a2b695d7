from typing import Any

import numpy as np
import numpy.typing as npt

class ManafieldsWriter:
    def __init__(
        self,
        template: npt.NDArray[np.float32],
        state_type: type,
        offsets: dict[str, int],
        slots: int,
        factions: int,
        type_ones: tuple[dict[str, tuple[int, ...]], ...],
        kinds: tuple[int, ...],
        stats: tuple[tuple[int, ...], ...],
        objective_squares: tuple[tuple[int, ...], ...],
        objective_of: tuple[int, ...],
        in_zone: tuple[tuple[bool, ...], ...],
        lead_to_win: int,
        control_weight: int,
        objective_points: int,
        general_points: int,
        general_kind: int,
    ) -> None: ...
    def observe(self, state: Any, seat: int) -> npt.NDArray[np.float32]: ...
