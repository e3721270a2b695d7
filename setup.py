"""meeple's optional compiled build: the engines through mypyc, as black and mypy ship themselves.

A plain ``pip install .`` builds pure Python meeple, the reference; it needs no compiler and
this file then adds nothing to pyproject.toml's configuration. With ``MEEPLE_MYPYC=1`` in the
environment (``scripts/build-compiled``), the modules ``meeple.core.compiled`` names are
compiled to C extensions by mypyc (which mypy ships) and a C compiler. docs/compiled.md tells
how to build and check it.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
# The mypy whose mypyc the build was checked with (scripts/check-compiled).
MYPYC_REQUIREMENT = "mypy>=2.4"


def compiled_module_names() -> list[str]:
    """``meeple.core.compiled.COMPILED_MODULES``: core's list and each game's
    ``data/compiled.json``. That module is loaded from its file alone (it imports only the
    standard library), so the build never imports meeple and reads the lists the running
    meeple reads."""
    path = HERE / "src/meeple/core/compiled.py"
    spec = importlib.util.spec_from_file_location("meeple_compiled_lists", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.COMPILED_MODULES)


def compiled_extensions() -> list[object]:
    """The mypyc extensions, or none while pip only asks for the build's requirements."""
    try:
        from mypyc.build import mypycify  # noqa: PLC0415 (only the compiled build has it)
    except ImportError:
        return []
    paths = [f"src/{name.replace('.', '/')}.py" for name in compiled_module_names()]
    # One group: the modules call each other natively and mypyc's runtime is compiled once
    # (separate=True, a group per module, takes over twice the CPU). Imports the compiled
    # modules make of others are followed silently (checked by mypy's own run, not compiled).
    # A game's notation must stay out of the group: with it, mypy checks the group as one
    # import cycle and cannot infer the notation constants the rules read at import time.
    extensions = mypycify(
        ["--follow-imports=silent", *paths],
        opt_level=os.environ.get("MEEPLE_MYPYC_OPT_LEVEL", "3"),
    )
    for extension in extensions:
        for source in extension.sources:
            if source.endswith(".c"):
                clear_weak_references(Path(source))
    return list(extensions)


# A compiled class whose bases include a plain Python class (the rules' state classes derive
# from core's State) gets a __dict__ and a weak reference list after its native fields. Before
# Python 3.12 the C that mypyc writes treats that list as an owned reference: the collector is
# told of it and the deallocator drops a reference to the first weak reference instead of
# clearing them all (mypyc/mypyc#1102), so a weak reference to a dead state dangles and the
# next collection can crash the interpreter (Hypothesis takes weak references to what it
# draws). Rewritten here as CPython's own classes do it: not visited, and cleared with
# PyObject_ClearWeakRefs. tests/test_compiled.py checks that weak references to states die.
_WEAK_LIST = (
    r"\*\(\(PyObject \*\*\)\(\(char \*\)self \+ sizeof\(PyObject \*\) \+ sizeof\((\w+)\)\)\)"
)
_VISIT_WEAK_LIST = re.compile(r"Py_VISIT\(" + _WEAK_LIST + r"\);")
_CLEAR_WEAK_LIST = re.compile(r"Py_CLEAR\(" + _WEAK_LIST + r"\);")


def clear_weak_references(source: Path) -> None:
    """Rewrite one generated C file's handling of the weak reference list (see above)."""
    text = source.read_text(encoding="utf-8")
    text = _VISIT_WEAK_LIST.sub("/* the weak reference list owns no reference */", text)
    text = _CLEAR_WEAK_LIST.sub(
        r"if (*((PyObject **)((char *)self + sizeof(PyObject *) + sizeof(\1))) != NULL)"
        r" PyObject_ClearWeakRefs((PyObject *)self);",
        text,
    )
    source.write_text(text, encoding="utf-8")


if os.environ.get("MEEPLE_MYPYC") == "1":
    # setup_requires makes pip's isolated build install mypy first, then run this again.
    setup(setup_requires=[MYPYC_REQUIREMENT], ext_modules=compiled_extensions())
else:
    setup()
