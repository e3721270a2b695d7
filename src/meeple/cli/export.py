"""``meeple export-trajectories``: match records to training arrays (needs a research extra)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from meeple.cli.common import fail, read_records, write_error
from meeple.core import GameError

FORMATS = ("npz",)


def export_trajectories(
    records: Annotated[
        Path,
        typer.Argument(
            help="Match records: one (play's save) or many, one a line (selfplay --out)."
        ),
    ],
    output_format: Annotated[str, typer.Option("--format", help="Output format: npz.")] = "npz",
    out: Annotated[
        Path | None, typer.Option(help="Where to write (default: RECORDS with .npz).")
    ] = None,
) -> None:
    """Per-seat observation, action-mask, action and reward arrays, as the adapters see them."""
    if output_format not in FORMATS:
        raise fail(f"unknown format {output_format!r}; known: {', '.join(FORMATS)}")
    try:
        # Imported here: numpy comes with the research extras, which the rest of the CLI
        # does not need.
        from meeple.adapters.trajectories import write_npz  # noqa: PLC0415
    except ImportError as error:
        raise fail(f"{error}; install meeple[gymnasium] (numpy) to export trajectories") from error
    target = out if out is not None else records.with_suffix(".npz")
    try:
        arrays = write_npz(read_records(records), target)
    except OSError as error:
        raise fail(write_error(target, error)) from error
    except (ValueError, GameError) as error:
        raise fail(str(error)) from error
    meta = json.loads(str(arrays["meta"]))
    rows = {key: len(value) for key, value in arrays.items() if key.endswith("_action")}
    typer.echo(json.dumps({"out": str(target), **meta, "rows": rows}))
