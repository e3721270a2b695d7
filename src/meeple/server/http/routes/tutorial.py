"""The guided first match over REST: each game's tutorial steps and a stateless check.

``GET /api/tutorials/{game}`` gives the steps, each with the learner seat's view of its
prepared position and the seat's legal actions there (with their notation).
``POST /api/tutorials/{game}/check`` with ``{step, action}`` (an action id or its notation)
answers ``{ok, message, view, legal, events, next}``: whether the action did what the step
asks, the step's explanation or the engine's reason when it did not, and the position after it
(the same position when it did not). Nothing is stored: every step's position is rebuilt
from the game's data (a ``"previous"`` position after the step before's example).

``GET /api/rules/{game}`` gives the game's rules page (docs/rules/<game>.md, which each game
package carries as ``data/rules.md``, a link to that file, so an installed wheel holds a copy
and docs/rules stays the one source) rendered to HTML that holds no HTML of the page's own.
"""

from __future__ import annotations

import asyncio
from functools import cache
from importlib import resources
from typing import Annotated, Any

from fastapi import APIRouter, status
from markdown_it import MarkdownIt
from pydantic import BaseModel, ConfigDict, Field

from meeple.core import Game, GameError, State
from meeple.core.registry import kit_for, load_game
from meeple.core.tutorial import (
    InvalidTutorial,
    Tutorial,
    check_action,
    check_tutorial,
    load_tutorial,
    play_on,
    step_state,
)
from meeple.core.types import Seat
from meeple.server.http import schemas
from meeple.server.http.deps import error

router = APIRouter(prefix="/api/tutorials", tags=["tutorial"])
rules_router = APIRouter(prefix="/api/rules", tags=["tutorial"])


MAX_PLAYED = 500
"""The most earlier actions a check of a step played on to a win replays (its solutions are
a handful; a learner who fumbles a whole short endgame stays far below)."""


class CheckBody(BaseModel):
    """A learner's action at one step: its index and the action (id or notation)."""

    model_config = ConfigDict(strict=True)
    step: int
    action: int | str
    played: Annotated[list[int | str], Field(max_length=MAX_PLAYED)] = []
    """On a step played on to a win: the learner's actions before this one, in order (each
    check replays them all, and a tutorial needs no login: so many at most)."""


@cache
def _prepared(name: str) -> tuple[Game, Tutorial, tuple[State, ...]]:
    """The game's tutorial with every step's position, built once (positions never change)."""
    provide = kit_for(name).tutorial
    if provide is None:
        raise InvalidTutorial(f"{kit_for(name).games[-1].info.title} has no tutorial")
    tutorial = load_tutorial(provide())
    game = load_game(name, seats=tutorial.seats, options=tutorial.options)
    check_tutorial(game, tutorial)  # every example passes, every scripted answer is legal
    states = tuple(step_state(game, tutorial, i) for i in range(len(tutorial.steps)))
    return game, tutorial, states


def _tutorial(name: str) -> tuple[Game, Tutorial, tuple[State, ...]]:
    try:
        return _prepared(kit_for(name).name)
    except GameError as unknown:
        raise error(status.HTTP_404_NOT_FOUND, unknown.code, str(unknown)) from None
    except InvalidTutorial as missing:
        raise error(status.HTTP_404_NOT_FOUND, "tutorial/none", str(missing)) from None


def _legal(state: State, seat: Seat) -> list[dict[str, Any]]:
    return [
        {"id": action, "text": state.action_to_string(seat, action)}
        for action in state.legal_actions(seat)
    ]


@router.get(
    "/{game}",
    response_model=schemas.TutorialBody,
    response_model_exclude_unset=True,
)
async def tutorial_steps(game: str) -> dict[str, Any]:
    """The game's tutorial: every step with its text, its seat, its view and legal actions."""
    rules, tutorial, states = await asyncio.to_thread(_tutorial, game)
    return {
        "game": rules.id,
        "title": rules.info.title,
        "seats": tutorial.seats,
        "steps": [
            {
                "index": index,
                **step.to_json(),
                "view": state.view(step.seat),
                "legal": _legal(state, step.seat),
                "deciding": list(state.deciding_seats()),
            }
            for index, (step, state) in enumerate(zip(tutorial.steps, states, strict=True))
        ],
    }


@router.post(
    "/{game}/check",
    response_model=schemas.TutorialBody,
    response_model_exclude_unset=True,
)
async def check(game: str, body: CheckBody) -> dict[str, Any]:
    """Whether ``body.action`` does what step ``body.step`` asks; the position after it."""
    rules, tutorial, states = await asyncio.to_thread(_tutorial, game)
    if not 0 <= body.step < len(tutorial.steps):
        raise error(
            status.HTTP_422_UNPROCESSABLE_CONTENT,
            "tutorial/step",
            f"step {body.step} is not a step of this tutorial (0 to {len(tutorial.steps) - 1})",
        )
    step, state = tutorial.steps[body.step], states[body.step]
    if body.played:
        if not step.to_win:
            raise error(
                status.HTTP_422_UNPROCESSABLE_CONTENT,
                "tutorial/step",
                "only a step played on to a win goes on from earlier actions",
            )
        try:
            played = [
                a if isinstance(a, str) else _notation(rules, state, step.seat, a)
                for a in body.played
            ]
            state = await asyncio.to_thread(play_on, rules, step, state, played)
        except (GameError, InvalidTutorial) as refused:
            message = refused.reason if isinstance(refused, GameError) else str(refused)
            raise error(status.HTTP_422_UNPROCESSABLE_CONTENT, "tutorial/played", message) from None
    if isinstance(body.action, str):
        text = body.action
    else:
        try:
            text = _notation(rules, state, step.seat, body.action)
        except GameError as refused:
            return _answer(False, refused.reason, step.seat, state, [], None)
    done = check_action(rules, step, state, text)
    following = body.step + 1 if done.done and body.step + 1 < len(tutorial.steps) else None
    events = [e.to_json() for e in done.events if e.visible_to(step.seat)]
    answer = _answer(done.ok, done.message, step.seat, done.state, events, following)
    return {**answer, "done": done.done, "over": done.state.is_terminal()}


def _notation(rules: Game, state: State, seat: Seat, action: int) -> str:
    return state.action_to_string(seat, rules.coerce_action(action))


def _answer(  # noqa: PLR0917 (the answer's fields, in the order the JSON lists them)
    ok: bool,
    message: str,
    seat: Seat,
    state: State,
    events: list[Any],
    following: int | None,
) -> dict[str, Any]:
    return {
        "ok": ok,
        "message": message,
        "view": state.view(seat),
        "legal": _legal(state, seat),
        "deciding": list(state.deciding_seats()),
        "events": events,
        "next": following,
    }


@cache
def _rules_page(name: str) -> dict[str, str]:
    """The rules page of game ``name`` as HTML (see :func:`render_rules`)."""
    kit = kit_for(name)
    package = kit.games[-1].__module__.rpartition(".")[0]
    text = (resources.files(package) / "data" / "rules.md").read_text(encoding="utf-8")
    info = kit.games[-1].info
    return {"game": info.name, "title": info.title, "html": render_rules(text)}


def render_rules(text: str) -> str:
    """Markdown ``text`` as HTML holding no markup of the text's own but ``<br>``: CommonMark
    with tables and ``html`` off, so any HTML in the text comes out as text, and links are
    only of safe schemes (markdown-it's check). The one tag the pages use inside table
    cells, ``<br>``, is put back as a line break: a fixed string, nothing else is."""
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    page: str = markdown.render(text)
    return page.replace("&lt;br&gt;", "<br>")


@rules_router.get("/{game}", response_model=schemas.RulesPage)
async def rules_page(game: str) -> dict[str, str]:
    """The game's rules page, ``{game, title, html}``: the rules with every number, then the
    Decisions this platform made where the rule texts are silent."""
    try:
        name = kit_for(game).name
    except GameError as unknown:
        raise error(status.HTTP_404_NOT_FOUND, unknown.code, str(unknown)) from None
    return await asyncio.to_thread(_rules_page, name)
