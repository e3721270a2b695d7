"""Regenerate every golden playthrough (run through scripts/regen-goldens)."""

from __future__ import annotations

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import load_game
from meeple.core.transcript import playthrough
from tests.goldens.cases import CASES, HERE


def main() -> None:
    for name, game_id, seats, options, seed, chooser in CASES:
        text, _ = playthrough(load_game(game_id, seats, options), seed, chooser)
        path = HERE / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
