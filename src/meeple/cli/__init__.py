"""The ``meeple`` command line: play, replay, selfplay, bench, games (:mod:`meeple.cli.main`).

Importing the package fixes one thing in how typer draws ``--help``: it prints a flag's
Python type (``<bool>``) in the column of an option's value, as if ``--json`` or ``--help``
took one. A flag takes no value, so that column is left empty for it.
"""

from __future__ import annotations

from typer.core import TyperOption

_display_type_rich = TyperOption.display_type_rich


def _flag_takes_no_value(option: TyperOption, ctx: object) -> str | None:
    """What ``--help`` shows for the option's value: nothing for a flag."""
    if option.is_flag and not option.count:
        return None
    return _display_type_rich(option, ctx)  # type: ignore[arg-type]


setattr(TyperOption, "display_type_rich", _flag_takes_no_value)  # noqa: B010
