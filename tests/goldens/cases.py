"""The golden playthroughs: (file name, game id, seats, options, seed, chooser seed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

CASES: list[tuple[str, str, int, dict[str, Any], int, int]] = [
    ("maatatahay/seed1.txt", "maatatahay/1", 2, {}, 1, 1),
    ("maatatahay/seed2-standard.txt", "maatatahay/1", 2, {"relic_scoring": "standard"}, 2, 2),
    ("maatatahay/seed3-random-shrines.txt", "maatatahay/1", 2, {"shrines": "random"}, 3, 3),
]
