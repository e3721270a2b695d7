"""``meeple tutorial GAME``: a guided first match, one rule a step, in the terminal.

The steps are the game's own data (its kit's ``tutorial``); :mod:`meeple.core.tutorial`
builds each step's position and checks what the learner types. A wrong action is explained
and the position stays as it was; ``hint`` shows an action that does what the step asks,
``quit`` leaves.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from meeple.cli.common import console, fail, open_game
from meeple.cli.render import render_view, report_events
from meeple.core.game import Game
from meeple.core.registry import kit_for, load_game
from meeple.core.tutorial import (
    InvalidTutorial,
    Tutorial,
    check_action,
    check_tutorial,
    load_tutorial,
    next_state,
    step_state,
)


def _tutorial_of(name: str) -> tuple[Game, Tutorial]:
    info = open_game(name).info
    provide = kit_for(info.name).tutorial
    if provide is None:
        raise fail(f"{info.title} has no tutorial")
    try:
        tutorial = load_tutorial(provide())
        game = load_game(info.name, seats=tutorial.seats, options=tutorial.options)
        check_tutorial(game, tutorial)
        return game, tutorial
    except (InvalidTutorial, ValueError) as error:
        raise fail(f"the tutorial of {info.title} is broken: {error}") from error


def tutorial(
    game: Annotated[str, typer.Argument(help="The game to learn, as 'meeple games' lists it")],
) -> None:
    """A guided first match: short steps that each teach one rule on a prepared position."""
    rules, steps = _tutorial_of(game)
    out = console()
    name = rules.info.name
    out.print(
        f"[bold]{escape(rules.info.title)}: a guided first match[/] ({len(steps.steps)} steps)."
    )
    out.print("Type an action in the game's notation; 'hint' shows one that works, 'quit' leaves.")
    state = step_state(rules, steps, 0)
    index = 0
    while True:
        step = steps.steps[index]
        out.print()
        out.print(f"[bold]Step {index + 1}/{len(steps.steps)}: {escape(step.title)}[/]")
        out.print(render_view(state.view(step.seat), name))
        out.print(escape(step.text), soft_wrap=True)
        start = state
        while True:
            try:
                line = out.input(escape(f"step {index + 1}> ")).strip()
            except EOFError:
                return
            if line in {"quit", "exit", "q"}:
                out.print("Tutorial left.")
                return
            if line == "hint":
                if step.to_win:
                    legal = state.legal_actions(step.seat)
                    out.print(f"Try: {escape(state.action_to_string(step.seat, legal[0]))}")
                    continue
                out.print(f"Try: {escape(step.example)}")
                continue
            if not line:
                continue
            done = check_action(rules, step, state, line)
            if not done.ok:
                out.print(f"[red]Not yet:[/] {escape(done.message)}", soft_wrap=True)
                continue
            report = report_events(done.events, name, done.state.view(step.seat))
            if report is not None:
                out.print(report)
            if step.to_win and not done.done:
                state = done.state
                if state.is_terminal():  # not won: the position starts again
                    out.print(f"[red]{escape(done.message)}[/]", soft_wrap=True)
                    state = start
                out.print(render_view(state.view(step.seat), name))
                continue
            out.print(f"[green]Well done:[/] {escape(done.message)}", soft_wrap=True)
            following = next_state(rules, steps, index, done)
            if following is None:
                out.print(
                    "[bold]Tutorial complete.[/] "
                    f"Try a whole match of {escape(rules.info.title)}: 'meeple play {name}'."
                )
                return
            state = following
            index += 1
            break


__all__ = ["tutorial"]
