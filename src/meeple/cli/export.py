"""``meeple export-trajectories``: match records to training arrays (needs a research extra).

The records are encoded one per job, on ``--workers`` processes or on Ray
(:mod:`meeple.cli.executor`), and the per-record arrays joined in record order, so the file
is the one :func:`meeple.adapters.trajectories.write_npz` writes in one process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from meeple.cli.common import fail, read_records, write_error
from meeple.cli.executor import (
    AddressOption,
    ExecutorOption,
    ExecutorUnavailable,
    WorkersOption,
    check_executor,
    run_jobs,
)
from meeple.core import GameError, InvalidRecord, MatchRecord

if TYPE_CHECKING:
    import numpy.typing as npt

FORMATS = ("npz",)


@dataclass(frozen=True)
class RecordJob:
    """Encode record number ``episode`` (JSON); ``first`` is the file's first record, whose
    game configuration every record must share."""

    first: str
    record: str
    episode: int


def encode_record(job: RecordJob) -> dict[str, npt.NDArray[Any]]:
    """One record's arrays (in a worker process, or on Ray), its rows numbered ``episode``;
    refused with the words the one-process export uses."""
    import numpy as np  # noqa: PLC0415 (the research extra)

    from meeple.adapters.trajectories import trajectories  # noqa: PLC0415

    game = MatchRecord.loads(job.first).game()
    record = MatchRecord.loads(job.record)
    record_game = record.game()
    if record_game != game:
        raise ValueError(
            f"record #{job.episode} is {record_game!r}, the first was {game!r}: "
            "export one game configuration at a time"
        )
    try:
        arrays = trajectories([record])
    except InvalidRecord as error:
        cause = error.__cause__ if error.__cause__ is not None else error
        raise InvalidRecord(f"record #{job.episode} does not replay: {cause}") from None
    for key, value in arrays.items():
        if key.endswith("_episode"):
            arrays[key] = np.full_like(value, job.episode)
    return arrays


def joined(parts: list[dict[str, npt.NDArray[Any]]]) -> dict[str, npt.NDArray[Any]]:
    """The per-record arrays one after the other, as one export of all the records."""
    import numpy as np  # noqa: PLC0415 (the research extra)

    if not parts:
        raise ValueError("no records to export")
    out = {key: np.concatenate([part[key] for part in parts]) for key in parts[0] if key != "meta"}
    out["meta"] = parts[0]["meta"]
    return out


def export_trajectories(  # noqa: PLR0917 (typer: one parameter per option)
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
    workers: WorkersOption = None,
    executor: ExecutorOption = "pool",
    address: AddressOption = None,
) -> None:
    """Per-seat observation, action-mask, action and reward arrays, as the adapters see them."""
    if output_format not in FORMATS:
        raise fail(f"unknown format {output_format!r}; known: {', '.join(FORMATS)}")
    if (wrong := check_executor(executor)) is not None:
        raise fail(wrong)
    try:
        # Imported here: numpy comes with the research extras, which the rest of the CLI
        # does not need.
        import numpy as np  # noqa: PLC0415

        import meeple.adapters.trajectories  # noqa: F401, PLC0415
    except ImportError as error:
        raise fail(f"{error}; install meeple[gymnasium] (numpy) to export trajectories") from error
    target = out if out is not None else records.with_suffix(".npz")
    try:
        found = read_records(records)
        texts = [record.dumps() for record in found]
        jobs = [RecordJob(texts[0], text, episode) for episode, text in enumerate(texts)]
        if not jobs:
            raise ValueError("no records to export")
        parts = list(
            run_jobs(encode_record, jobs, workers=workers, executor=executor, address=address)
        )
        arrays = joined(parts)
        np.savez_compressed(target, **arrays)  # type: ignore[arg-type]
    except OSError as error:
        raise fail(write_error(target, error)) from error
    except ExecutorUnavailable as error:
        raise fail(str(error)) from error
    except (ValueError, GameError) as error:
        raise fail(str(error)) from error
    meta = json.loads(str(arrays["meta"]))
    rows = {key: len(value) for key, value in arrays.items() if key.endswith("_action")}
    typer.echo(json.dumps({"out": str(target), **meta, "rows": rows}))
