"""The ``meeple`` command line: play, replay, selfplay, bench, games (:mod:`meeple.cli.main`).

Importing the package fixes one thing in how typer draws ``--help``: it prints a flag's
Python type (``<bool>``) in the column of an option's value, as if ``--json`` or ``--help``
took one. A flag takes no value, so that column is left empty for it.
"""

from __future__ import annotations

from typer.core import TyperOption

# A typer that names this hook otherwise keeps its own drawing: the fix is cosmetic, and a
# newer typer must never stop the command from starting.
_display_type_rich = getattr(TyperOption, "display_type_rich", None)

if _display_type_rich is not None:
    _typer_display = _display_type_rich

    def _flag_takes_no_value(option: TyperOption, ctx: object) -> str | None:
        """What ``--help`` shows for the option's value: nothing for a flag."""
        if option.is_flag and not option.count:
            return None
        shown: str | None = _typer_display(option, ctx)
        return shown

    setattr(TyperOption, "display_type_rich", _flag_takes_no_value)  # noqa: B010
