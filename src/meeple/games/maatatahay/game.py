"""The Maatatahay game object: rules configured with options; the factory of states."""

from __future__ import annotations

from typing import ClassVar

from meeple.core.game import GameInfo, OptionSpec
from meeple.core.types import JSON, Action, Seat
from meeple.games.maatatahay import notation
from meeple.games.maatatahay.codec import state_from_json, state_to_json
from meeple.games.maatatahay.data import KEEPS, RULES
from meeple.games.maatatahay.rules import MaatatahayRulebook, MaatatahayState
from meeple.games.maatatahay.view import describe, view


class Maatatahay(MaatatahayRulebook):
    """Two tribes place warriors on a 5x5 map, surround and are surrounded.

    >>> game = Maatatahay()
    >>> state = game.new_initial_state(seed=7)
    >>> state.deciding_seats() == (state.active,)
    True
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="maatatahay",
        version=1,
        title="Maatatahay",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options=(
            OptionSpec(
                "relic_scoring",
                "progressive",
                "progressive: your 1st relic 1 VP, 2nd 2 VP ... (the basic game); "
                "standard: by global order, the 1st relic anyone takes 1 VP, the 2nd 2 VP ...",
                choices=("progressive", "standard"),
            ),
            OptionSpec(
                "shrines",
                "fixed",
                "fixed: Temple Relics on b2, d2, c3, b4, d4; random: 5 of the 9 inner spaces",
                choices=("fixed", "random"),
            ),
            OptionSpec(
                "relic_blocks",
                False,
                "whether an unclaimed Temple Relic closes a side of a warrior like a tile does",
            ),
        ),
    )

    def position_view(self, state: MaatatahayState, seat: Seat | None) -> JSON:
        return view(state, seat)

    def position_json(self, state: MaatatahayState) -> JSON:
        return state_to_json(state)

    def describe_move(self, state: MaatatahayState, seat: Seat, action: Action) -> str:
        return describe(state, seat, action)

    def num_distinct_actions(self) -> int:
        return notation.NUM_ACTIONS

    def max_game_length(self) -> int:
        # At most 12 rounds of pick, first, and two placements of two decisions each.
        return len(RULES.tiles) * 6

    def new_initial_state(self, seed: int) -> MaatatahayState:
        return MaatatahayState.setup(self, seed)

    def state_from_json(self, data: JSON) -> MaatatahayState:
        return state_from_json(self, data)

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return notation.format_action(action)

    def parse_action(self, text: str) -> Action:
        return notation.parse_action(text)

    def action_to_json(self, action: Action) -> JSON:
        data = super().action_to_json(action)
        if action < notation.ORDER:
            data.update(kind="pick", pair=action - notation.PICK + 1)
        elif action < notation.PLACE:
            data.update(kind="first", seat=action - notation.ORDER)
        elif action < notation.FINISH:
            space, paid = divmod(action - notation.PLACE, notation.RELIC_CHOICES)
            data.update(kind="place", space=space, spirit_paid=paid)
        else:
            facing, keep = divmod(action - notation.FINISH, len(KEEPS))
            data.update(
                kind="finish",
                facing="NESW"[facing],
                keep={"energy": KEEPS[keep][0], "spirit": KEEPS[keep][1]},
            )
        return data
