"""Golden playthroughs: a readable, deterministic transcript of a whole match.

A transcript lists every decision (seat, id, notation, a sentence) with the events it
caused, and ends with the outcome and the final state's JSON. ``scripts/regen-goldens``
writes them for fixed seeds; a test regenerates them and diffs, so any change in the
rules' behaviour shows up as a reviewed change to a golden file.
"""

from __future__ import annotations

import json

from meeple.core.game import Game
from meeple.core.record import MatchRecord
from meeple.core.rng import Rng, mix_seed


def playthrough(game: Game, seed: int, chooser_seed: int) -> tuple[str, MatchRecord]:
    """Play ``game`` from ``seed``, choosing uniformly with a generator of ``chooser_seed``."""
    chooser = Rng(mix_seed(chooser_seed, 0x474F4C44))
    state = game.new_initial_state(seed)
    record = MatchRecord.for_game(game, seed=seed)
    lines = [
        f"# {game.info.title} ({game.id}) seats={game.seats} options={json.dumps(game.options)}",
        f"# seed={seed} chooser={chooser_seed}",
        "",
        "initial view: " + json.dumps(state.view(None), sort_keys=True),
        "",
    ]
    ply = 0
    while not state.is_terminal():
        seats = state.deciding_seats()
        seat = seats[chooser.below(len(seats))]
        legal = state.legal_actions(seat)
        action = legal[chooser.below(len(legal))]
        sentence = state.describe_action(seat, action)
        text = state.action_to_string(seat, action)
        events = state.apply(seat, action)
        record.add(seat, action)
        ply += 1
        lines.append(f"{ply:3d}. seat {seat}: {text!r} (#{action}, {len(legal)} legal) {sentence}")
        for event in events:
            lines.append("       " + json.dumps(event.to_json(), sort_keys=True))
    outcome = state.outcome()
    record.outcome = outcome
    lines += [
        "",
        "outcome: " + json.dumps(None if outcome is None else outcome.to_json(), sort_keys=True),
        "final state:",
        json.dumps(state.to_json(), sort_keys=True, indent=1),
        "",
    ]
    return "\n".join(lines), record
