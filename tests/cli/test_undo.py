"""Undo never shows what chance holds next.

Undo goes back by replaying the record; were that all, taking an action back and taking it
again would draw the very tile pair, roll the very dice the person just saw. So undo redraws
what no seat can see at the position it returns to, and the record branches off there
(``meta.undone`` keeps the stretch before); where a redraw would move what some seat knows
(Maiterra's hands and sealed orders), undo stops at the last thing the table was shown.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import meeple.games  # noqa: F401
from meeple.cli.main import app
from meeple.cli.undo import UNDONE, UndoRefused, branches_of, redraw_unseen, take_back
from meeple.core import JSON, MatchRecord, Seat, State, load_game
from meeple.games.maiterra import notation as ids
from meeple.games.maiterra.rules import PLAN

runner = CliRunner(env={"COLUMNS": "140", "NO_COLOR": "1"})


def _played(name: str, plies: int, seed: int = 5) -> MatchRecord:
    """A record of ``plies`` random actions (fewer if the match ends) of a fresh match."""
    record = MatchRecord.for_game(load_game(name), seed=seed)
    state = record.initial_state()
    chooser = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        seat = state.deciding_seats()[0]
        action = chooser.choice(state.legal_actions(seat))
        state.apply(seat, action)
        record.add(seat, action)
    return record


def _future(state: State, seat: Seat, moves: list[tuple[Seat, int]]) -> list[JSON]:
    """What ``seat`` sees -- its view and the events shown to it, dice and draws included --
    while ``moves`` are played from ``state`` (as long as they are legal)."""
    seen = []
    for who, action in moves:
        if action not in state.legal_actions(who):
            break
        events = state.apply(who, action)
        shown = [event.to_json() for event in events if event.visible_to(seat)]
        seen.append({"view": state.view(seat), "events": shown})
    return seen


@pytest.mark.parametrize(("name", "plies"), [("maatatahay", 6), ("manafields", 110)])
def test_taking_an_action_back_and_again_draws_a_new_future(name: str, plies: int) -> None:
    """The person's decision, taken back and taken again, and the same moves after it:
    the draws and rolls they see differ from the ones they saw the first time."""
    record = _played(name, plies + 60)
    seat, _ = record.actions[plies]
    first = MatchRecord(record.game_id, record.seats, record.options, record.seed)
    first.actions = record.actions[:plies]
    before = first.replay()
    ahead = record.actions[plies:]
    seen_first = _future(before.clone(), seat, ahead)
    assert len(seen_first) == len(ahead)
    played = MatchRecord(record.game_id, record.seats, record.options, record.seed)
    played.actions = record.actions[: plies + 1]
    alike = 0
    for entropy in range(8):
        back = take_back(played, [], {seat}, seat, entropy)
        assert back.redrawn
        assert back.state.view(seat) == before.view(seat)  # the same position, to the eye
        assert back.state.to_json() != before.to_json()  # but not the same future
        alike += _future(back.state, seat, ahead) == seen_first
    assert alike <= 1


def test_the_branched_record_replays_and_keeps_the_history(tmp_path: Path) -> None:
    record = _played("manafields", 12)
    seat, _ = record.actions[-1]
    back = take_back(record, [], {seat}, seat, 99)
    assert back.record.seed is None and back.record.start_state is not None
    (stretch,) = back.branches
    assert stretch.seed == record.seed
    assert stretch.actions == record.actions[:-1]
    path = tmp_path / "branched.json"
    path.write_text(back.record.dumps(), encoding="utf-8")
    loaded = MatchRecord.loads(path.read_text(encoding="utf-8"))
    assert loaded.replay() == back.state
    assert [b.actions for b in branches_of(loaded)] == [stretch.actions]
    # A second undo reaches into the stretch before: one more decision back.
    again = take_back(loaded, branches_of(loaded), {seat}, seat, 100)
    assert len(again.branches) == 1
    kept = [index for index, (who, _) in enumerate(record.actions) if who == seat][-2]
    assert again.branches[0].actions == record.actions[:kept]


def test_a_redraw_keeps_every_seats_view_or_is_not_made() -> None:
    state = _played("maatatahay", 5).replay()
    redrawn = redraw_unseen(state, 0, 7)
    assert redrawn is not None
    for who in (None, 0, 1):
        assert redrawn.view(who) == state.view(who)
    maiterra = _maiterra_planning(3)
    assert redraw_unseen(maiterra, 0, 7) is None  # others' sealed orders would move


def _maiterra_planning(seats: int) -> State:
    state = load_game("maiterra", seats=seats).new_initial_state(4)
    while state.phase != PLAN:  # type: ignore[attr-defined]
        seat = state.deciding_seats()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    for other in range(1, seats):  # the others seal an order each and end
        state.apply(other, next(a for a in state.legal_actions(other) if a != ids.END))
        state.apply(other, ids.END)
    return state


def test_maiterra_undo_takes_back_a_sealed_order_but_not_a_resolved_turn() -> None:
    record = MatchRecord.for_game(load_game("maiterra", seats=3), seed=4)
    state = _maiterra_planning(3)
    record.start_state = state.to_json()
    record.seed = None
    order = next(a for a in state.legal_actions(0) if a != ids.END)
    record.add(0, order)
    back = take_back(record, [], {0}, 0, 1)
    assert not back.redrawn
    assert back.record.actions == []
    assert back.state == state
    record.add(0, ids.END)  # the turn resolves: dice, cards, all shown
    with pytest.raises(UndoRefused, match="showed the table something"):
        take_back(record, [], {0}, 0, 1)


def test_undo_at_the_terminal_branches_the_saved_record(tmp_path: Path) -> None:
    path = tmp_path / "after-undo.json"
    script = f"1\n1\nundo\n1\nsave {path}\nquit\n"
    result = runner.invoke(
        app, ["play", "manafields", "--seed", "3"], input=script, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    assert "drawn afresh" in result.output
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seed"] is None and isinstance(data["start"], dict)
    assert data["meta"][UNDONE][0]["seed"] == 3
    replayed = runner.invoke(app, ["replay", str(path), "--json"], catch_exceptions=False)
    assert replayed.exit_code == 0, replayed.output


def test_nothing_to_undo_says_so() -> None:
    with pytest.raises(UndoRefused, match="nothing to undo"):
        take_back(MatchRecord.for_game(load_game("maatatahay"), seed=1), [], {0}, 0, 1)
