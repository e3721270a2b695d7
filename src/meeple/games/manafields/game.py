"""The Manafields game object: rules configured with options; the factory of states."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from meeple.core.game import GameInfo, OptionSpec
from meeple.core.types import JSON, Action, Seat
from meeple.games.manafields import notation
from meeple.games.manafields.codec import state_from_json, state_to_json
from meeple.games.manafields.data import FACTIONS, NAMES, RULES
from meeple.games.manafields.rules import MAX_ACTIONS_PER_TURN, ManafieldsRulebook, ManafieldsState
from meeple.games.manafields.view import describe, view, why_illegal


class Manafields(ManafieldsRulebook):
    """Two armies of Humans, Elves, Orcs or Undead fight over three objectives.

    >>> game = Manafields(options={"faction0": "elves", "faction1": "undead"})
    >>> state = game.new_initial_state(seed=7)
    >>> state.deciding_seats(), state.op
    ((0,), 2)
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="manafields",
        version=RULES.version,
        title="Manafields",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=False,
        chance=True,
        options=(
            OptionSpec(
                "faction0", "humans", "the faction of seat 0 (who plays first)", choices=FACTIONS
            ),
            OptionSpec(
                "faction1",
                "orcs",
                "the faction of seat 1 (who starts with 1 point)",
                choices=FACTIONS,
            ),
            OptionSpec(
                "turn_limit",
                RULES.turn["default_turn_limit"],
                "rounds (a turn of each seat) after which the higher score wins; equal is a draw",
                low=1,
                high=RULES.turn["max_turn_limit"],
            ),
            OptionSpec(
                "deployment",
                "fixed",
                "fixed: each army on the squares its roster names; shuffled: on random squares"
                " of its deployment zone, drawn from the seed",
                choices=("fixed", "shuffled"),
            ),
        ),
    )

    def position_view(self, state: ManafieldsState, seat: Seat | None) -> JSON:
        return view(state, seat)

    def position_json(self, state: ManafieldsState) -> JSON:
        return state_to_json(state)

    def describe_move(self, state: ManafieldsState, seat: Seat, action: Action) -> str:
        return describe(state, seat, action)

    def illegal_reason(self, state: ManafieldsState, seat: Seat, action: Action) -> str:
        return why_illegal(state, seat, action)

    def num_distinct_actions(self) -> int:
        return notation.NUM_ACTIONS

    def max_game_length(self) -> int:
        return 2 * int(self.option("turn_limit")) * MAX_ACTIONS_PER_TURN

    def new_initial_state(self, seed: int) -> ManafieldsState:
        return ManafieldsState.setup(self, seed)

    def state_from_json(self, data: JSON) -> ManafieldsState:
        return state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def action_to_json(self, action: Action) -> JSON:
        data = super().action_to_json(action)
        verb, slot, other = notation.decode(action)
        data["kind"] = verb
        if slot >= 0:
            data["unit"] = notation.LABELS[slot]
        if verb in ("move", "teleport"):
            data["square"] = NAMES[other]
        elif other >= 0:
            data["target"] = notation.LABELS[other]
        return data


class Manafields1(Manafields):
    """Manafields with the first unit cards (``manafields/1``), kept so that its records
    replay; everything but the cards is the same. See docs/rules/manafields.md, Versions."""

    info: ClassVar[GameInfo] = dataclasses.replace(Manafields.info, version=1)


class Manafields2(Manafields):
    """Manafields with the unit cards of ``manafields/2`` (the Undead's deployed Zombie
    before the Ghouls), kept so that its records replay. See docs/rules/manafields.md,
    Versions."""

    info: ClassVar[GameInfo] = dataclasses.replace(Manafields.info, version=2)


EARLIER_VERSIONS: tuple[type[Manafields], ...] = (Manafields1, Manafields2)
"""A class for each earlier rules version, oldest first; :class:`Manafields` is the newest."""
