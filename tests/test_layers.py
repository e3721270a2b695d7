"""The one-way import rule, checked by the real tool and by a clean interpreter."""

from __future__ import annotations

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
