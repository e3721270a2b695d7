"""Which engine modules run compiled: the optional mypyc build (docs/compiled.md).

The pure Python source is the reference and what a plain ``pip install`` gives.
``MEEPLE_MYPYC=1 pip install .`` (``scripts/build-compiled``) compiles the modules named in
:data:`COMPILED_MODULES` with mypyc instead: :data:`CORE_MODULES` and each game's
``data/compiled.json``. ``setup.py`` reads the same lists, so the build and
:func:`compiled_modules` (what a running meeple reports) never disagree. Nothing here
imports the modules it names.
"""

from __future__ import annotations

import abc
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

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
"""The modules the compiled build compiles (docs/compiled.md says why these)."""

_Class = TypeVar("_Class")

if TYPE_CHECKING:
    from mypy_extensions import i64 as i64  # noqa: PLC0414 (re-exported)
    from mypy_extensions import mypyc_attr as mypyc_attr  # noqa: PLC0414 (re-exported)
else:
    i64 = int
    """mypyc's 64-bit machine integer (``mypy_extensions.i64``) where compiled; ``int`` in
    the pure build, which needs no mypy_extensions. Arithmetic on it must stay within
    64 signed bits: compiled, nothing checks it."""

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_Class], _Class]:
        """What a compiled module's class asks of mypyc, e.g. ``native_class=False`` for a
        class that plain Python subclasses. mypyc reads the decorator from the source (as
        ``mypy_extensions.mypyc_attr``, the name mypy resolves this one to); at run time it
        changes nothing, so the pure build needs no mypy_extensions."""
        return lambda cls: cls


def abc_bookkeeping(cls: type) -> None:
    """Give ``cls``, a class derived from an abstract base class, its own ``isinstance``
    bookkeeping where it lacks it (call it after the class, at module level).

    ``ABCMeta`` sets that up when it creates a class; mypyc builds a compiled class from a
    template and never calls it, so a compiled state class would answer ``isinstance`` with
    its base's records (every ``State`` is then a ``MaatatahayState``) and write its answers
    into them (``isinstance(state, State)`` turns false for a class once asked about another
    game's). A class that ``ABCMeta`` made (the pure build) is left as it is."""
    if "_abc_impl" not in cls.__dict__:
        abc_init = getattr(abc, "_abc_init")  # noqa: B009 (private to abc; not in its stubs)
        abc_init(cls)


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
