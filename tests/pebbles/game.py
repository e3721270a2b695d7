"""The Pebbles game object: the rules configured with options, their views and notation."""

from __future__ import annotations

from meeple.core import JSON, Action, GameInfo, InvalidAction, InvalidState, OptionSpec, Rng, Seat
from tests.pebbles.rules import MAX_TAKE, PebblesRules, PebblesState


class Pebbles(PebblesRules):
    """Take one to three pebbles; who takes the last one wins."""

    info = GameInfo(
        name="pebbles",
        version=1,
        title="Pebbles",
        min_seats=2,
        max_seats=2,
        simultaneous=False,
        hidden_information=False,
        chance=False,
        options=(OptionSpec("pile", 9, "pebbles on the pile at the start", low=1, high=40),),
    )

    def num_distinct_actions(self) -> int:
        return MAX_TAKE

    def max_game_length(self) -> int:
        return self.pile

    def new_initial_state(self, seed: int) -> PebblesState:
        return PebblesState.setup(self, seed)

    def format_action(self, action: Action) -> str:
        self.check_action_range(action)
        return f"take{action + 1}"

    def parse_action(self, text: str) -> Action:
        if isinstance(text, str) and text in {f"take{n}" for n in range(1, MAX_TAKE + 1)}:
            return int(text[4:]) - 1
        raise InvalidAction(f"an action is take1..take{MAX_TAKE}", action=text)

    def view_of(self, state: PebblesState, seat: Seat | None) -> JSON:
        outcome = state.outcome()
        return {
            "game": self.id,
            "pile": state.pile,
            "turn": state.turn,
            "outcome": None if outcome is None else outcome.to_json(),
        }

    def json_of(self, state: PebblesState) -> JSON:
        return {"pile": state.pile, "turn": state.turn, "rng": state.rng.to_json()}

    def state_from_json(self, data: JSON) -> PebblesState:
        if not isinstance(data, dict):
            raise InvalidState(f"a Pebbles state is an object, got {data!r}")
        pile, turn = data.get("pile"), data.get("turn")
        if type(pile) is not int or not 0 <= pile <= self.pile:
            raise InvalidState(f"pile must be 0..{self.pile}, got {pile!r}")
        if type(turn) is not int or turn not in (0, 1):
            raise InvalidState(f"turn must be 0 or 1, got {turn!r}")
        text = data.get("rng")
        if not isinstance(text, str):
            raise InvalidState(f"rng must be a string, got {text!r}")
        try:
            rng = Rng.from_json(text)
        except ValueError as error:
            raise InvalidState(f"bad rng: {error}") from error
        return PebblesState(self, pile, turn, rng)
