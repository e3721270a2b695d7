"""From match records to training data: per-seat observation/mask/action/reward arrays.

Every decision of a record becomes one row for the seat that took it, with the same tensors a
learner sees in the environments: the seat's view encoded by
:func:`meeple.core.encoding.encoder_for` and its action mask, both taken *before* the
action. The reward is 0 except on a seat's last decision of a finished match, which carries
the seat's return (+1 win, -1 loss, 0 draw); ``done`` marks that row. Records of
unfinished matches give rows without a final reward.

Arrays, for each seat ``s`` (``N`` rows): ``seat{s}_observation`` float32 ``N x size``,
``seat{s}_action_mask`` int8 ``N x actions``, ``seat{s}_action`` int64, ``seat{s}_reward``
float32, ``seat{s}_done`` bool, ``seat{s}_episode`` int32 (the record's index); and
``meta``, a JSON string naming the game, seats, options and the encoder's size.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import Game, GameError, InvalidRecord, MatchRecord
from meeple.core.encoding import action_mask, encoder_for

FORMAT = "meeple-trajectories/1"


class _SeatRows:
    def __init__(self) -> None:
        self.observations: list[npt.NDArray[np.float32]] = []
        self.masks: list[npt.NDArray[np.int8]] = []
        self.actions: list[int] = []
        self.rewards: list[float] = []
        self.done: list[bool] = []
        self.episodes: list[int] = []


def trajectories(records: Iterable[MatchRecord]) -> dict[str, npt.NDArray[Any]]:
    """The arrays of the module docstring for records that all share one configured game.

    Raises:
        ValueError: when the records are of different games or configurations, or none.
        InvalidRecord: when a record does not replay.
    """
    game: Game | None = None
    rows: list[_SeatRows] = []
    for episode, record in enumerate(records):
        record_game = record.game()
        if game is None:
            game = record_game
            rows = [_SeatRows() for _ in range(game.seats)]
        elif record_game != game:
            raise ValueError(
                f"record #{episode} is {record_game!r}, the first was {game!r}: "
                "export one game configuration at a time"
            )
        _add_record(game, record, episode, rows)
    if game is None:
        raise ValueError("no records to export")
    encoder = encoder_for(game)
    arrays: dict[str, npt.NDArray[Any]] = {}
    for seat, seat_rows in enumerate(rows):
        prefix = f"seat{seat}_"
        arrays[prefix + "observation"] = np.array(seat_rows.observations, dtype=np.float32).reshape(
            -1, encoder.size
        )
        arrays[prefix + "action_mask"] = np.array(seat_rows.masks, dtype=np.int8).reshape(
            -1, game.num_distinct_actions()
        )
        arrays[prefix + "action"] = np.array(seat_rows.actions, dtype=np.int64)
        arrays[prefix + "reward"] = np.array(seat_rows.rewards, dtype=np.float32)
        arrays[prefix + "done"] = np.array(seat_rows.done, dtype=bool)
        arrays[prefix + "episode"] = np.array(seat_rows.episodes, dtype=np.int32)
    meta = {
        "format": FORMAT,
        "game": game.id,
        "seats": game.seats,
        "options": dict(game.options),
        "observation_size": encoder.size,
        "num_actions": game.num_distinct_actions(),
    }
    arrays["meta"] = np.array(json.dumps(meta))
    return arrays


def _add_record(game: Game, record: MatchRecord, episode: int, rows: list[_SeatRows]) -> None:
    encoder = encoder_for(game)
    state = record.initial_state()
    last_row: dict[int, int] = {}
    for seat, action in record.actions:
        seat_rows = rows[seat]
        seat_rows.observations.append(encoder.observe(state, seat))
        seat_rows.masks.append(action_mask(state, seat))
        seat_rows.actions.append(action)
        seat_rows.rewards.append(0.0)
        seat_rows.done.append(False)
        seat_rows.episodes.append(episode)
        last_row[seat] = len(seat_rows.actions) - 1
        try:
            state.apply(seat, action)
        except GameError as error:
            raise InvalidRecord(f"record #{episode} does not replay: {error}") from error
    if state.is_terminal():
        returns = state.returns()
        for seat, row in last_row.items():
            rows[seat].rewards[row] = returns[seat]
            rows[seat].done[row] = True


MAX_FILE_BYTES = 256 << 20
"""The largest records file read (as ``meeple``'s commands read them)."""


def read_records(path: Path) -> list[MatchRecord]:
    """Match records from a file in any form ``meeple`` writes: one record, pretty or on one
    line (``play``'s save), or many, one a line (``selfplay --out``) or pretty one after
    another; read as :meth:`MatchRecord.loads_all` reads them (UTF-8, checked).

    Raises:
        InvalidRecord: when the file is larger than :data:`MAX_FILE_BYTES` or a record in it
            is not valid.
        OSError: when the file cannot be read.
    """
    with path.open("rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise InvalidRecord(f"{str(path)!r} is larger than a records file may be (256 MiB)")
    return MatchRecord.loads_all(data)


def write_npz(records: Iterable[MatchRecord], out: Path) -> dict[str, npt.NDArray[Any]]:
    """Write the trajectories of ``records`` to a compressed ``.npz``; returns the arrays."""
    arrays = trajectories(records)
    np.savez_compressed(out, **arrays)  # type: ignore[arg-type]
    return arrays


def export_npz(records_path: Path, out: Path) -> dict[str, npt.NDArray[Any]]:
    """Write the trajectories of a records file to a compressed ``.npz``; returns the arrays."""
    return write_npz(read_records(records_path), out)
