"""Which engine modules run compiled: the optional mypyc build (docs/compiled.md).

The pure Python source is the reference and what a plain ``pip install`` gives.
``MEEPLE_MYPYC=1 pip install .`` (``scripts/build-compiled``) compiles the modules named in
:data:`COMPILED_MODULES` with mypyc instead; ``setup.py`` reads the list from this file, so the
build and :func:`compiled_modules` (what a running meeple reports) never disagree. Nothing here
imports the modules it names.
"""

from __future__ import annotations

import sys

COMPILED_MODULES: tuple[str, ...] = (
    "meeple.core.rng",
    "meeple.core.hexgrid",
    "meeple.core.squaregrid",
    "meeple.games.maatatahay.scoring",
    "meeple.games.maatatahay.evaluate",
    "meeple.games.maatatahay.move_order",
    "meeple.games.maiterra.lakeland",
    "meeple.games.maiterra.tables",
    "meeple.games.maiterra.combat",
    "meeple.games.maiterra.fights",
    "meeple.games.maiterra.resolve",
    "meeple.games.maiterra.bots",
    "meeple.games.maiterra.evaluate",
    "meeple.games.maiterra.move_order",
    "meeple.games.manafields.position",
    "meeple.games.manafields.legal",
    "meeple.games.manafields.combat",
    "meeple.games.manafields.scoring",
    "meeple.games.manafields.bots",
    "meeple.games.manafields.evaluate",
    "meeple.games.manafields.move_order",
)
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
