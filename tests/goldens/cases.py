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

_MANAFIELDS = ("humans", "elves", "orcs", "undead")
# Every pairing at each rules version: (folder, game id, first seed).
_MANAFIELDS_VERSIONS = (
    ("manafields", "manafields/1", 10),
    ("manafields-2", "manafields/2", 30),
    ("manafields-3", "manafields/3", 50),
)
CASES += [
    (
        f"{folder}/{a}-{b}.txt",
        game_id,
        2,
        {"faction0": a, "faction1": b, "turn_limit": 2},
        first + i,
        first + i,
    )
    for folder, game_id, first in _MANAFIELDS_VERSIONS
    for i, (a, b) in enumerate((a, b) for a in _MANAFIELDS for b in _MANAFIELDS)
]

CASES += [
    ("maiterra/2-seats-seed4.txt", "maiterra/1", 2, {}, 4, 4),
    ("maiterra/3-seats-seed12.txt", "maiterra/1", 3, {}, 12, 12),
    ("maiterra/4-seats-seed17.txt", "maiterra/1", 4, {}, 17, 17),
    ("maiterra/2v2-teams-seed11.txt", "maiterra/1", 4, {"teams": "1122"}, 11, 11),
]
