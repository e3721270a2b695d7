"""Every meeple game as a PettingZoo environment: AEC for all, Parallel for simultaneous play.

``aec_env(game_id)`` and ``parallel_env(game_id, seats=4, options={...})``.
Agents are ``seat_0 .. seat_{n-1}``. An observation is a dict: ``observation``, the seat's
view encoded by :func:`meeple.core.encoding.encoder_for` (float32), and ``action_mask``
(int8, one entry per action id, 1 where legal). Rewards come at the end: meeple's returns,
+1 per winner, -1 per other seat, 0 for all on a draw.

- **AEC.** The agent to act is the first seat that decides now. In simultaneous planning
  several seats decide at once; their sealed decisions do not depend on each other, so
  taking them one seat at a time (each seeing only its own view) is the same game.
- **Parallel.** Every live agent sends an action each step; those of seats that decide now
  are applied in seat order, the others' are ignored (their masks are all zero). Meant for
  games with simultaneous planning; it also plays sequential games, one seat per step.
- **Illegal actions.** An action id the mask forbids ends the episode: the seat that sent it
  gets ``illegal_reward`` (default -1), every other seat 0, and its info says
  ``illegal_action``. (PettingZoo's terminate-on-illegal policy, built in.)
- **Malformed actions** are refused, and the environment stays as it was: what is no integer
  (a float, a bool, numpy's floats, text, None) or lies outside the action space raises
  :class:`~meeple.core.InvalidAction`, as does a Parallel step without an action from a
  seat that decides (every deciding seat's action is checked before any is applied).
  numpy's integers are taken as they are.
- **Seeding.** ``reset(seed=s)`` seeds a generator that draws each match's seed, so equal
  seeds give equal episodes; ``reset()`` goes on with the next match of that sequence.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

import meeple.games  # noqa: F401  (registers the games)
from meeple.adapters.masks import mask_writer
from meeple.core import Game, InvalidAction, Seat, State, load_game
from meeple.core.encoding import canonical_json, encoder_for

SEED_BITS = 53
"""Match seeds stay below 2**53, as in match records."""


def agent_name(seat: Seat) -> str:
    return f"seat_{seat}"


class _Table:
    """What both environments share: the configured game, its spaces, the match, seeding."""

    def __init__(
        self,
        game: str | Game,
        seats: int | None,
        options: Mapping[str, Any] | None,
        illegal_reward: float,
    ) -> None:
        self.game = game if isinstance(game, Game) else load_game(game, seats, options)
        info = self.game.info
        self.encoder = encoder_for(self.game)
        self.illegal_reward = float(illegal_reward)
        self.agents_all = [agent_name(seat) for seat in range(self.game.seats)]
        size = self.game.num_distinct_actions()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        self.encoder.low, self.encoder.high, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for agent in self.agents_all
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.agents_all}
        self.size = size
        self.name = f"meeple_{info.name}_v{info.version}"
        # Looked up once: a step calls both (a compiled writer's observe directly).
        self._encode = self.encoder.observe
        self._mask = mask_writer(size)
        self._seeds = random.Random()
        self.state: State = self.game.new_initial_state(0)
        self.illegal: Seat | None = None
        self._legal: dict[Seat, list[int]] = {}

    def new_match(self, seed: int | None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.state = self.game.new_initial_state(self._seeds.getrandbits(SEED_BITS))
        self.illegal = None
        self._legal.clear()

    def legal(self, seat: Seat) -> list[int]:
        """The seat's legal actions now, worked out once per position (the mask and the
        check of the action that follows both need them)."""
        legal = self._legal.get(seat)
        if legal is None:
            legal = self._legal[seat] = self.state.legal_actions(seat)
        return legal

    def observe(self, seat: Seat) -> dict[str, Any]:
        state = self.state
        legal = self._legal.get(seat)  # self.legal(seat), without a call at every step
        if legal is None:
            legal = self._legal[seat] = state.legal_actions(seat)
        return {"observation": self._encode(state, seat), "action_mask": self._mask(legal)}

    def observe_seats(self, seats: list[Seat]) -> list[dict[str, Any]]:
        """Several seats' observations of the position: what they share is encoded once."""
        state, encoder, mask = self.state, self.encoder, self._mask
        shared = encoder.shared(state)
        return [
            {
                "observation": encoder.personal(shared, state, seat),
                "action_mask": mask(self.legal(seat)),
            }
            for seat in seats
        ]

    def play(
        self, seat: Seat, action: Any, deciding: tuple[Seat, ...] = ()
    ) -> tuple[Seat, ...] | None:
        """Apply a seat's action and return the seats that decide next; None (and the match
        ends) if it was illegal.

        ``deciding``: the seats that decide at this node, where the caller knows them. While
        several do, their decisions are sealed (one seat's does not change another's
        options), so the legal actions worked out for the others who still decide are kept
        for the rest of the node; everything else is worked out again.

        Raises:
            InvalidAction: for what is no action id (nothing changes).
        """
        action = self.action_id(action)
        legal = self._legal.get(seat)
        if legal is None:
            legal = self.legal(seat)
        if action not in legal:
            self.illegal = seat
            return None
        # Checked just above: a seat that does not decide has no legal action.
        self.state.apply_unchecked(seat, action)
        after = self.state.deciding_seats()
        if len(deciding) > 1:
            self._legal = {
                other: kept
                for other, kept in self._legal.items()
                if other != seat and other in deciding and other in after
            }
        else:
            self._legal.clear()
        return after

    def action_id(self, action: Any) -> int:
        """``action`` as an id of the action space (numpy's integers too).

        Raises:
            InvalidAction: for what is no integer, or an integer outside the space.
        """
        if type(action) is not int or not 0 <= action < self.size:
            return self.game.coerce_action(action)
        return action

    def over(self) -> bool:
        return self.illegal is not None or self.state.is_terminal()

    def final_rewards(self) -> list[float]:
        if self.illegal is not None:
            return [
                self.illegal_reward if seat == self.illegal else 0.0
                for seat in range(self.game.seats)
            ]
        return self.state.returns()

    def info(self, seat: Seat) -> dict[str, Any]:
        return {"illegal_action": True} if self.illegal == seat else {}

    def render(self) -> str:
        return canonical_json(self.state.view(None))


class _AgentIterable:
    """What MeepleAECEnv.agent_iter returns: each ``iter`` of it is a fresh generator."""

    def __init__(self, env: MeepleAECEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class MeepleAECEnv(AECEnv):  # type: ignore[misc]
    """A meeple game as a PettingZoo AEC environment (see the module docstring)."""

    def __init__(
        self,
        game: str | Game,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = _Table(game, seats, options, illegal_reward)
        self.metadata = {
            "name": self.table.name,
            "render_modes": ["ansi"],
            "is_parallelizable": self.table.game.info.simultaneous,
        }
        self.possible_agents = list(self.table.agents_all)
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.render_mode = render_mode
        self._start()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        deciding = self.table.state.deciding_seats()
        if deciding:
            self.agent_selection = agent_name(deciding[0])

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.new_match(seed)
        self._start()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self._seats[agent])

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """AECEnv.agent_iter: the agent to act while any is live, at most ``max_iter`` times
        (a generator: PettingZoo's iterator calls a Python ``__next__`` at every step)."""
        return _AgentIterable(self, max_iter)

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, Any] | None, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, with the observation made here rather than through observe."""
        agent = self.agent_selection
        observation = None
        if observe:
            # _Table.observe, written out (a call is a tenth of a microsecond).
            table = self.table
            seat = self._seats[agent]
            legal = table._legal.get(seat)
            if legal is None:
                legal = table._legal[seat] = table.state.legal_actions(seat)
            observation = {
                "observation": table._encode(table.state, seat),
                "action_mask": table._mask(legal),
            }
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        # AECEnv sets the agent's _cumulative_rewards to 0 here: they are 0 already, as
        # rewards come at the end only and a seat that steps after it is dead.
        # _Table.play, written out: a step is a few microseconds, a call a tenth of one.
        seat = self._seats[agent]
        if type(action) is not int or not 0 <= action < table.size:
            action = table.game.coerce_action(action)  # InvalidAction, and nothing changes
        legal = table._legal.get(seat)
        if legal is None:
            legal = table.legal(seat)
        if action in legal:
            state = table.state
            state.apply_unchecked(seat, action)
            table._legal.clear()
            deciding = state.deciding_seats()
            if deciding:
                # Rewards come at the end only: until then they stay the 0s _start set.
                self.agent_selection = self.possible_agents[deciding[0]]
                return
        else:
            table.illegal = seat
        for other, reward in zip(self.agents, table.final_rewards(), strict=True):
            self.rewards[other] = reward
            self.terminations[other] = True
            self.infos[other] = table.info(self._seats[other])
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


class MeepleParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A meeple game as a PettingZoo Parallel environment (see the module docstring)."""

    def __init__(
        self,
        game: str | Game,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.table = _Table(game, seats, options, illegal_reward)
        self.metadata = {"name": self.table.name, "render_modes": ["ansi"]}
        self.possible_agents = list(self.table.agents_all)
        self.observation_spaces = self.table.observation_spaces
        self.action_spaces = self.table.action_spaces
        self.render_mode = render_mode
        self.agents: list[str] = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observations(self, agents: list[str]) -> dict[str, Any]:
        seats = self._seats
        return dict(zip(agents, self.table.observe_seats([seats[a] for a in agents]), strict=True))

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.table.new_match(seed)
        self.agents = list(self.possible_agents)
        return self._observations(self.agents), {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
        table = self.table
        deciding = table.state.deciding_seats()
        for seat in deciding:
            if agent_name(seat) not in actions:
                raise InvalidAction(f"{agent_name(seat)} decides now and sent no action", seat=seat)
            table.action_id(actions[agent_name(seat)])  # all checked before any is applied
        now = deciding
        for seat in deciding:
            if seat not in now:
                continue
            after = table.play(seat, actions[agent_name(seat)], now)
            if after is None:
                break
            now = after
        live = list(self.agents)
        over = table.over()
        rewards = dict.fromkeys(live, 0.0)
        if over:
            rewards = dict(zip(live, table.final_rewards(), strict=True))
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, False)
        if table.illegal is None:
            infos: dict[str, dict[str, Any]] = {agent: {} for agent in live}
        else:
            infos = {agent: table.info(self._seats[agent]) for agent in live}
        observations = self._observations(live)
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.table.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""


def aec_env(
    game: str | Game,
    seats: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> MeepleAECEnv:
    """The AEC environment of a game: ``aec_env(game_id)``."""
    return MeepleAECEnv(game, seats, options, **kwargs)


def parallel_env(
    game: str | Game,
    seats: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> MeepleParallelEnv:
    """The Parallel environment of a game: ``parallel_env(game_id, seats=3)``."""
    return MeepleParallelEnv(game, seats, options, **kwargs)
