"""The levels a lobby offers: each a search budget and a policy.

``make_bot("mcts-expert", seed)`` builds one (see :mod:`meeple.ai.registry`). A level's
budget is a number of iterations, so a level plays the same on every machine and the same
seed gives the same game. ``move_seconds`` is the level's promise about time: the caller
that owns a clock (the CLI, the arena, the server) stops the search there if the machine
is slower than the one the level was calibrated on (see ``Budget.should_stop``).
"""

from __future__ import annotations

from dataclasses import dataclass

from meeple.ai.mcts import MctsBot, MctsConfig
from meeple.ai.rollout import Playout
from meeple.ai.search import Budget


@dataclass(frozen=True, slots=True)
class Level:
    """A named strength: ``iterations`` per decision and how the search plays."""

    name: str
    iterations: int
    temperature: float = 0.0
    playout_actions: int | None = None
    move_seconds: float = 1.0
    description: str = ""

    @property
    def bot_name(self) -> str:
        return f"mcts-{self.name}"

    def config(self) -> MctsConfig:
        return MctsConfig(
            leaf=Playout(max_actions=self.playout_actions), temperature=self.temperature
        )

    def budget(self) -> Budget:
        return Budget(self.iterations)

    def make(self, seed: int) -> MctsBot:
        """A bot of this level, seeded."""
        return MctsBot(seed, self.budget(), self.config(), name=self.bot_name)


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            "easy",
            iterations=40,
            temperature=1.0,
            description="a short look ahead; plays its top moves in proportion to their visits",
        ),
        Level("normal", iterations=200, description="a fair opponent for a first match"),
        Level("hard", iterations=800, description="searches every decision in depth"),
        Level(
            "expert",
            iterations=2500,
            description="the strongest level; about a second a move on a laptop core",
        ),
    )
}
"""The levels, weakest first."""


def level(name: str) -> Level:
    """The level called ``name`` (``"hard"`` or ``"mcts-hard"``).

    Raises:
        ValueError: for an unknown level, listing the known ones.
    """
    key = name.removeprefix("mcts-")
    found = LEVELS.get(key)
    if found is None:
        raise ValueError(f"no level {name!r}; known: {', '.join(LEVELS)}")
    return found
