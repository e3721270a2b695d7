"""Every meeple game as an OpenSpiel Python game: ``pyspiel.load_game("meeple_<name>")``.

:func:`register_games` registers the latest version of each game of
:func:`meeple.core.registered` under ``meeple_<name>`` (importing this module calls it).
Parameters: ``seats``; ``seed`` and ``deals`` (see Chance); one parameter per scalar option of
the game (``meeple_<name>(option=value)``); ``options``, a JSON object, for
the rest. The mapping:

- **Dynamics.** SEQUENTIAL, or SIMULTANEOUS for games with simultaneous planning. At a node
  where several seats decide, OpenSpiel asks for one action per player; the adapter applies
  the deciding seats' actions in seat order (sealed decisions cannot depend on each other)
  and ignores the entries of seats that do not decide now, whose legal actions are empty.
  A node where one seat decides is an ordinary sequential node, in those games too.
- **In turns.** Every game with simultaneous planning is registered a second time as
  ``meeple_<name>_turns``, a SEQUENTIAL game for the algorithms that need one (``MCTSBot``,
  ``ISMCTSBot``): where several seats decide, the lowest of them decides alone until it no
  longer decides (its sealed orders one by one, then the end of its turn), then the next.
  Each seat's information state is still its meeple view, which never shows another seat's
  sealed decisions; :meth:`MeepleState.resample_from_infostate` redraws them.
- **Errors.** Actions are checked, and a refused one leaves the state as it was:
  ``apply_action`` / ``apply_actions`` raise :class:`~meeple.core.InvalidAction` for what is
  no integer (a float, a bool, numpy's floats, text, None) or is out of range, and the
  engine's :class:`~meeple.core.IllegalAction` (or another
  :class:`~meeple.core.GameError`) for an id that is not legal now; numpy's integers are
  taken as they are. Joint actions are all checked before any is applied. What pyspiel checks
  itself before the adapter sees a call (a player number in ``legal_actions`` or
  ``observation_string``) raises pyspiel's ``SpielError``.
- **Chance.** A meeple state draws every random event from its own generator, seeded when
  the match is created. OpenSpiel sees that as it is: one chance node at the root, *the
  deal*, whose outcome ``i`` (uniform over ``deals`` outcomes) seeds the match with
  ``mix_seed(seed, i)``; every later random event follows from it and stays hidden in the
  state, as a shuffled deck would. Games whose initial state does not depend on the seed
  and that never draw are DETERMINISTIC and have no deal. (OpenSpiel's other option for
  implicit randomness, SAMPLED_STOCHASTIC, cannot serialize Python games: pyspiel does not
  let Python implement the game's RNG-state hooks.)
- **Observations.** Strings are the canonical JSON of ``state.view(player)``; tensors come
  from :func:`meeple.core.encoding.encoder_for`. meeple views are meant to carry what a
  seat knows, so the information state is the view as well (no history is appended). Before
  the deal every seat observes ``{}`` and a zero tensor.
- **Clone and serialization.** pyspiel copies a Python state's ``__dict__``: the meeple state
  in it is copied with its own ``clone`` and pickled as its full JSON, generator included.
- **Returns** are meeple's: +1 per winner, -1 per other seat, 0 for all on a draw.

Python games are slower than C++ ones for algorithms that clone a lot (MCTS); see
``meeple bench-adapters`` and docs/research.md for figures.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import (
    Game,
    GameInfo,
    GameOver,
    InvalidAction,
    NotYourDecision,
    State,
    game_class,
    mix_seed,
    registered,
)
from meeple.core.encoding import canonical_json, encoder_for
from meeple.core.game import action_integer
from meeple.core.tensor import Vector

PREFIX = "meeple_"
TURNS = "_turns"
"""Suffix of the sequential form of a game with simultaneous planning (``meeple_<name>_turns``)."""
DEALS = 4096
"""Default number of outcomes of the deal; raise the ``deals`` parameter for more variety."""

_RESERVED = ("seats", "seed", "deals", "options")
_SCALARS = (bool, int, float, str)
_SEED_MASK = (1 << 63) - 1
_ZERO_SUM = pyspiel.GameType.Utility.ZERO_SUM
_SHARED = ("shared", -1)
_WHOLE = ("whole", -1)
"""Marks a position one seat's tensor was encoded whole for (see _Held.tensor)."""
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
_INT64_MAX = (1 << 63) - 1
_SPIEL_APPLY_ACTION = pyspiel.State.apply_action
_SPIEL_APPLY_ACTIONS = pyspiel.State.apply_actions


def short_name(info: GameInfo) -> str:
    """The OpenSpiel name of a meeple game: ``meeple_<name>``."""
    return PREFIX + info.name


def turns_name(info: GameInfo) -> str:
    """The OpenSpiel name of a simultaneous game's sequential form: ``meeple_<name>_turns``."""
    return short_name(info) + TURNS


def _scalar_options(info: GameInfo) -> dict[str, Any]:
    return {
        spec.name: spec.default
        for spec in info.options
        if isinstance(spec.default, _SCALARS) and spec.name not in _RESERVED
    }


def meeple_game(info: GameInfo, params: Mapping[str, Any]) -> Game:
    """The configured meeple game that OpenSpiel parameters describe."""
    options = json.loads(str(params.get("options", "{}")))
    if not isinstance(options, dict):
        raise ValueError(f"parameter 'options' must be a JSON object, got {options!r}")
    for name, default in _scalar_options(info).items():
        if name in params and params[name] != default:
            options[name] = params[name]
    return game_class(info.id)(seats=int(params.get("seats", info.min_seats)), options=options)


def _has_deal(info: GameInfo) -> bool:
    """Whether the game needs a seed: it draws during play or its setup depends on the seed."""
    if info.chance:
        return True
    game = game_class(info.id)(seats=info.min_seats)
    return bool(game.new_initial_state(0).to_json() != game.new_initial_state(1).to_json())


def game_type(info: GameInfo, turns: bool = False) -> pyspiel.GameType:
    """The pyspiel game type of a meeple game (shared by all its configurations); with
    ``turns``, that of its sequential form (see the module docstring)."""
    parameters: dict[str, Any] = {
        "seats": info.min_seats,
        "seed": 0,
        "deals": DEALS,
        **_scalar_options(info),
        "options": "{}",
    }
    kind = pyspiel.GameType
    simultaneous = info.simultaneous and not turns
    return kind(
        short_name=turns_name(info) if turns else short_name(info),
        long_name=f"meeple {info.title}" + (" in turns" if turns else ""),
        dynamics=kind.Dynamics.SIMULTANEOUS if simultaneous else kind.Dynamics.SEQUENTIAL,
        chance_mode=(
            kind.ChanceMode.EXPLICIT_STOCHASTIC
            if _has_deal(info)
            else kind.ChanceMode.DETERMINISTIC
        ),
        information=(
            kind.Information.IMPERFECT_INFORMATION
            if info.hidden_information or info.simultaneous or info.chance
            else kind.Information.PERFECT_INFORMATION
        ),
        utility=(
            kind.Utility.ZERO_SUM
            if info.min_seats == info.max_seats == 2
            else kind.Utility.GENERAL_SUM
        ),
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=info.max_seats,
        min_num_players=info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class MeepleGame(pyspiel.Game):  # type: ignore[misc]
    """A configured meeple game seen through OpenSpiel; :attr:`meeple` is the engine's game.

    :func:`register_games` makes one subclass per game, which sets :attr:`info` and
    :attr:`spiel_type`; pyspiel calls it with the parameters.
    """

    info: GameInfo
    spiel_type: pyspiel.GameType
    turns: bool = False
    """Whether this is the sequential form of a game with simultaneous planning."""

    def __init__(self, params: Any = None) -> None:
        params = dict(params or {})
        spiel_type = self.spiel_type
        self.meeple: Game = meeple_game(self.info, params)
        self.seed = int(params.get("seed", 0))
        self.deals = int(params.get("deals", DEALS))
        if self.deals < 1:
            raise ValueError(f"parameter 'deals' must be positive, got {self.deals}")
        self.dealt = spiel_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        game = self.meeple
        super().__init__(
            spiel_type,
            pyspiel.GameInfo(
                num_distinct_actions=game.num_distinct_actions(),
                max_chance_outcomes=self.deals if self.dealt else 0,
                num_players=game.seats,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0 if spiel_type.utility == _ZERO_SUM else None,
                max_game_length=game.max_game_length(),
            ),
            params,
        )

    def new_initial_state(self) -> MeepleState:
        """The deal (a chance node), or the opening position for a game without one."""
        if self.dealt:
            return MeepleState(self)
        return MeepleState(self, self.meeple.new_initial_state(self.seed))

    def hold(self, state: State) -> _Held:
        """The holder of a meeple state of this game: in turns or not."""
        return _HeldInTurns(state) if self.turns else _Held(state)

    def deal_seed(self, outcome: int) -> int:
        """The meeple seed that outcome ``outcome`` of the deal stands for."""
        return mix_seed(self.seed, outcome) & _SEED_MASK

    def wrap(self, state: State) -> MeepleState:
        """An OpenSpiel state around a meeple state of this game (with an empty history)."""
        return MeepleState(self, state)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return ViewObserver(self.meeple)


def _rebuild(
    game_id: str, seats: int, options: dict[str, Any], data: Any, turns: bool = False
) -> _Held:
    state = game_class(game_id)(seats=seats, options=options).state_from_json(data)
    return _HeldInTurns(state) if turns else _Held(state)


class _Held:
    """Holds the meeple state inside an OpenSpiel state's ``__dict__``.

    pyspiel clones a Python state by deep-copying its ``__dict__`` and serializes it by
    pickling that dict: this holder turns the first into :meth:`State.clone` and the second
    into the state's full JSON, so neither copies the game object. It also keeps what
    OpenSpiel asks for again and again of one position: the current player (pyspiel asks it
    several times a step) and each seat's view, string and tensor (the observation and the
    information state are asked for separately). :meth:`moved` forgets them.
    """

    __slots__ = ("cache", "legals", "player", "state")
    in_turns = False
    """Whether the state is held for a game's sequential form (see :class:`_HeldInTurns`)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.player: int | None = None
        self.legals: dict[int, list[int]] = {}  # by seat, kept apart: asked at every step
        self.cache: dict[tuple[str, int], Any] = {}

    def current_player(self) -> int:
        player = self.player
        if player is None:
            deciding = self.state.deciding_seats()
            if not deciding:
                player = _TERMINAL
            elif len(deciding) == 1:
                player = deciding[0]
            else:
                player = _SIMULTANEOUS
            self.player = player
        return player

    def moved(self) -> None:
        """The position changed: forget what was worked out for the last one."""
        self.player = None
        self.legals.clear()
        if self.cache:
            self.cache.clear()

    def legal(self, seat: int) -> list[int]:
        """The seat's legal actions (pyspiel asks for them, then the check of the action
        that follows needs them again)."""
        legal = self.legals.get(seat)
        if legal is None:
            legal = self.legals[seat] = self.state.legal_actions(seat)
        return legal

    def check(self, seat: int, action: int) -> None:
        """Raise the engine's typed error unless ``action`` is legal for ``seat`` now."""
        if action not in self.legal(seat):
            # The checked apply refuses it with the engine's own error, changing nothing.
            self.state.clone().apply(seat, action)
            raise InvalidAction("not a legal action now", seat=seat, action=action)

    def view(self, seat: int) -> Any:
        key = ("view", seat)
        view = self.cache.get(key)
        if view is None:
            view = self.cache[key] = self.state.view(seat)
        return view

    def string(self, seat: int) -> str:
        key = ("string", seat)
        text = self.cache.get(key)
        if text is None:
            text = self.cache[key] = canonical_json(self.view(seat))
        return str(text)

    def tensor(self, seat: int) -> Vector:
        """The seat's observation. The first one asked of a position is encoded whole (one
        call, which is all a sequential loop asks); from the second seat on, or at a
        simultaneous node (where OpenSpiel asks every player's in turn), what all seats
        share is encoded once and each seat's part added to a copy."""
        cache = self.cache
        key = ("tensor", seat)
        tensor = cache.get(key)
        if tensor is None:
            state = self.state
            state.game.check_seat(seat)  # the encoders trust their seat; the view checks it
            encoder = encoder_for(state.game)
            if _WHOLE not in cache and self.current_player() != _SIMULTANEOUS:
                cache[_WHOLE] = True
                tensor = cache[key] = encoder.observe(state, seat)
                return tensor
            if _SHARED in cache:
                shared = cache[_SHARED]
            else:
                shared = cache[_SHARED] = encoder.shared(state)
            tensor = cache[key] = encoder.personal(shared, state, seat)
        return tensor

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return type(self)(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        data = self.state.to_json()
        return (_rebuild, (game.id, game.seats, dict(game.options), data, self.in_turns))


class _HeldInTurns(_Held):
    """A held state of a game's sequential form: where several seats decide, the lowest of
    them is the current player (sealed decisions do not depend on each other, so taking
    them one seat after the other reaches every position the joint decisions reach)."""

    __slots__ = ()
    in_turns = True

    def current_player(self) -> int:
        player = self.player
        if player is None:
            deciding = self.state.deciding_seats()
            player = self.player = min(deciding) if deciding else _TERMINAL
        return player


class MeepleState(pyspiel.State):  # type: ignore[misc]
    """A meeple state seen through OpenSpiel; :attr:`meeple` is the engine's state."""

    def __init__(self, game: MeepleGame, state: State | None = None) -> None:
        super().__init__(game)
        # pyspiel's clone calls the class with the game alone and then copies __dict__ over;
        # a state without a meeple state is the deal.
        self._held: _Held | None = None if state is None else game.hold(state)

    @property
    def meeple(self) -> State:
        """The engine's state (raises before the deal)."""
        if self._held is None:
            raise ValueError("the match has not been dealt yet (a chance node)")
        return self._held.state

    # -- the standard API -------------------------------------------------------------

    def current_player(self) -> int:
        # pyspiel asks this about six times a step: the kept player is read here, without
        # a second call, once the position's is known.
        held = self._held
        if held is None:
            return _CHANCE
        player = held.player
        return held.current_player() if player is None else player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals: int = self.get_game().deals
        return [(outcome, 1.0 / deals) for outcome in range(deals)]

    def _legal_actions(self, player: int) -> list[int]:
        held = self._held
        if held is None:
            return []
        legal = held.legals.get(player)
        return held.legal(player) if legal is None else legal

    def apply_action(self, action: Any) -> None:
        """pyspiel's ``apply_action``, after refusing with :class:`InvalidAction` what is no
        integer (pyspiel's binding would take ``True`` or a numpy float32 as an id) and what
        is negative or past int64 (pyspiel would answer with its own errors)."""
        if type(action) is not int:
            action = action_integer(action)
        if not 0 <= action <= _INT64_MAX:
            raise InvalidAction("action ids are never negative or past int64", action=action)
        _SPIEL_APPLY_ACTION(self, action)

    def apply_actions(self, actions: Any) -> None:
        """pyspiel's ``apply_actions``, after refusing entries as :meth:`apply_action` does."""
        joint = [a if type(a) is int else action_integer(a) for a in actions]
        for action in joint:
            if not 0 <= action <= _INT64_MAX:
                raise InvalidAction("action ids are never negative or past int64", action=action)
        _SPIEL_APPLY_ACTIONS(self, joint)

    def _apply_action(self, action: int) -> None:
        if self._held is None:
            game: MeepleGame = self.get_game()
            if not 0 <= action < game.deals:
                raise InvalidAction(f"the deal's outcomes run 0..{game.deals - 1}", action=action)
            self._held = game.hold(game.meeple.new_initial_state(game.deal_seed(action)))
            return
        held = self._held
        seat = held.player
        if seat is None:
            seat = held.current_player()
        if seat < 0:
            deciding = list(held.state.deciding_seats())
            if not deciding:
                raise GameOver("the match is over", action=action)
            raise NotYourDecision(f"seats {deciding} decide at once: use apply_actions")
        legal = held.legals.get(seat)
        if legal is None or action not in legal:
            held.check(seat, action)
        held.moved()
        held.state.apply_unchecked(seat, action)

    def _apply_actions(self, actions: list[int]) -> None:
        """One action per player; the entries of seats that do not decide now are ignored.

        Every deciding seat's action is checked before any is applied: sealed decisions do
        not change each other's legal actions, so a refused joint action changes nothing.
        """
        held = self._held
        if held is None:
            raise NotYourDecision("joint actions before the deal (a chance node)")
        if held.in_turns:
            raise NotYourDecision("a game in turns takes one action at a time: apply_action")
        state = held.state
        seats = state.game.seats
        if len(actions) != seats:
            raise InvalidAction(f"a joint action has one entry per seat ({seats})")
        deciding = state.deciding_seats()
        if not deciding:
            raise GameOver("the match is over")
        for seat in deciding:
            held.check(seat, actions[seat])
        held.moved()
        for seat in deciding:
            if seat in state.deciding_seats():
                state.apply_unchecked(seat, actions[seat])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.meeple.game.format_action(action)

    def is_terminal(self) -> bool:
        held = self._held
        if held is None:
            return False
        player = held.player
        return (held.current_player() if player is None else player) == _TERMINAL

    def returns(self) -> list[float]:
        if self._held is None:
            return [0.0] * self.get_game().num_players()
        return self._held.state.returns()

    def __str__(self) -> str:
        if self._held is None:
            return "deal"
        return canonical_json(self._held.state.to_json())

    def view(self, player: int) -> Any:
        """The player's meeple view; ``{}`` before the deal."""
        return {} if self._held is None else self._held.view(player)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleState:
        """A state ``player_id`` cannot tell from this one, redrawn by meeple's ``resample``
        (what the seat cannot see: other seats' sealed decisions and hidden cards, the
        deck's order, the generator), seeded from one draw of ``probability_sampler``
        (a callable giving a float in [0, 1), as pyspiel's ``UniformProbabilitySampler``).
        Its information state for ``player_id`` is this one's; its history is empty."""
        seed = int(probability_sampler() * _SEED_MASK)
        return MeepleState(self.get_game(), self.meeple.resample(player_id, seed))


class ViewObserver:
    """The PyObserver of every meeple game: the view as a tensor and as canonical JSON."""

    def __init__(self, game: Game) -> None:
        self._encoder = encoder_for(game)
        self.tensor: Vector = np.zeros(self._encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: MeepleState, player: int) -> None:
        held = state._held
        if held is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = held.tensor(player)

    def string_from(self, state: MeepleState, player: int) -> str:
        held = state._held
        return "{}" if held is None else held.string(player)


_REGISTERED: dict[str, type[MeepleGame]] = {}


def register_games() -> list[str]:
    """Register each meeple game not yet known to pyspiel, and the sequential form of each
    game with simultaneous planning; returns all the names registered."""
    latest: dict[str, GameInfo] = {}
    for info in registered():
        if info.name not in latest or latest[info.name].version < info.version:
            latest[info.name] = info
    for info in latest.values():
        for turns in (False, True) if info.simultaneous else (False,):
            name = turns_name(info) if turns else short_name(info)
            if name in _REGISTERED:
                continue
            spiel_type = game_type(info, turns)
            # A class, not a closure: a function that only pyspiel's registry still holds at
            # exit is freed after the interpreter has shut down, which aborts the process.
            title = info.name.title().replace("_", "")
            cls = type(
                f"Meeple{title}{'Turns' if turns else ''}Game",
                (MeepleGame,),
                {"info": info, "spiel_type": spiel_type, "turns": turns, "__module__": __name__},
            )
            pyspiel.register_game(spiel_type, cls)
            _REGISTERED[name] = cls
    return sorted(_REGISTERED)


register_games()
