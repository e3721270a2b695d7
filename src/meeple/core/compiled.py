"""Which engine modules run compiled: the optional mypyc build (docs/compiled.md).

The pure Python source is the reference and what a plain ``pip install`` gives.
``MEEPLE_MYPYC=1 pip install .`` (``scripts/build-compiled``) compiles the modules named in
:data:`COMPILED_MODULES` with mypyc instead: :data:`CORE_MODULES` and each game's
``data/compiled.json``. ``setup.py`` reads the same lists, so the build and
:func:`compiled_modules` (what a running meeple reports) never disagree. Nothing here
imports the modules it names.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

CORE_MODULES: tuple[str, ...] = (
    "meeple.core.rng",
    "meeple.core.hexgrid",
    "meeple.core.squaregrid",
)
"""Core's modules the compiled build compiles."""

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"
"""Each game names its own compiled modules in ``data/compiled.json`` (``{"modules": [...]}``,
names within the game's package), so a new game adds its list without touching core."""


def game_modules(games_dir: Path = GAMES_DIR) -> tuple[str, ...]:
    """Every game's compiled modules, games in the order of their package names."""
    found: list[str] = []
    for listing in sorted(games_dir.glob("*/data/compiled.json")):
        package = listing.parent.parent.name
        modules = json.loads(listing.read_text(encoding="utf-8"))["modules"]
        found.extend(f"meeple.games.{package}.{module}" for module in modules)
    return tuple(found)


COMPILED_MODULES: tuple[str, ...] = CORE_MODULES + game_modules()
"""The modules the compiled build compiles (docs/compiled.md says why these). Not the rules'
state classes: their ``clone`` builds the copy with ``object.__new__``, which a compiled class
refuses."""

EXTENSION_SUFFIXES = (".so", ".pyd")


def is_compiled(module: str) -> bool:
    """Whether ``module``, if it is imported, was loaded from a compiled extension."""
    loaded = sys.modules.get(module)
    path = getattr(loaded, "__file__", None) or ""
    return path.endswith(EXTENSION_SUFFIXES)


def compiled_modules() -> tuple[str, ...]:
    """The imported modules of :data:`COMPILED_MODULES` that run compiled, in its order.

    Empty in the pure build. Import ``meeple.games`` first to see every game's modules.
    """
    return tuple(module for module in COMPILED_MODULES if is_compiled(module))
