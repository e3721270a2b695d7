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

# The same matches at each rules version: (folder, game id).
_MAITERRA_VERSIONS = (
    ("maiterra", "maiterra/1"),
    ("maiterra-2", "maiterra/2"),
    ("maiterra-3", "maiterra/3"),
)
CASES += [
    (f"{folder}/{name}", game_id, seats, options, seed, seed)
    for folder, game_id in _MAITERRA_VERSIONS
    for name, seats, options, seed in (
        ("2-seats-seed4.txt", 2, {}, 4),
        ("3-seats-seed12.txt", 3, {}, 12),
        ("4-seats-seed17.txt", 4, {}, 17),
        ("2v2-teams-seed11.txt", 4, {"teams": "1122"}, 11),
    )
]
