"""The one-way import rule, checked by the real tool and by a clean interpreter."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN_IN_PURE_LAYERS = (
    "asyncio",
    "sqlite3",
    "sqlalchemy",
    "fastapi",
    "starlette",
    "socket",
    "typer",
    "rich",
)


def _lint_imports() -> str:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    return found or "lint-imports"


def test_import_linter_contracts_hold() -> None:
    result = subprocess.run(
        [_lint_imports(), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_games_and_ai_import_no_io_or_ui_modules() -> None:
    program = (
        "import json, sys\n"
        "import meeple.core, meeple.games, meeple.ai\n"
        f"bad = [m for m in {FORBIDDEN_IN_PURE_LAYERS!r} if m in sys.modules]\n"
        "print(json.dumps(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


def _function_local_meeple_imports(path: Path) -> list[str]:
    """``file:line`` of each import of a meeple module inside a function body."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            if any(name == "meeple" or name.startswith("meeple.") for name in names):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_function_local_import_dodges_a_cycle_in_core_games_or_ai() -> None:
    """A module of the pure layers imports what it needs at its top: where a function-local
    import was the only way, the modules formed a cycle (the import-linter contracts forbid
    the cycles; this keeps the dodge from coming back)."""
    found = [
        where
        for layer in ("core", "games", "ai")
        for path in sorted((ROOT / "src" / "meeple" / layer).rglob("*.py"))
        for where in _function_local_meeple_imports(path)
    ]
    assert found == []


def test_no_module_outside_the_games_names_a_game() -> None:
    """Every game-specific part is reached through the game's kit, so no shared layer names a
    game by its id (in code, strings or examples): a new game needs one package and one
    registration. Prose that explains a mechanism by a game's title ("Maiterra's planning")
    is not a lookup and is allowed."""
    source = ROOT / "src" / "meeple"
    names = {p.name for p in (source / "games").iterdir() if (p / "__init__.py").is_file()}
    assert len(names) >= 3, names
    named = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted(source.rglob("*.py"))
        if not path.is_relative_to(source / "games")
        for name in names
        if name in path.read_text(encoding="utf-8")
    ]
    assert named == []
