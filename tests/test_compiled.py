"""The compiled build (mypyc, docs/compiled.md) plays exactly as the pure source.

Skipped unless the meeple imported here is the compiled one: ``scripts/check-compiled``
builds it into a temporary virtualenv and runs this module there, with the golden records
(tests/test_goldens.py) and the conformance kit (tests/test_conformance.py). The pure source
to compare with is this checkout's ``src/``, played in a child process.
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

import meeple
import meeple.games  # registers the games
from meeple.core import State, load_game, registered
from meeple.core.compiled import COMPILED_MODULES, compiled_modules, is_compiled

REPO = Path(__file__).resolve().parents[1]
PURE_SOURCE = REPO / "src"

for _name in COMPILED_MODULES:
    importlib.import_module(_name)

pytestmark = pytest.mark.skipif(
    not compiled_modules(),
    reason=f"the pure build is imported (meeple from {Path(meeple.__file__).parent})",
)


def playout_digest(game_id: str, seats: int, seed: int, matches: int) -> str:
    """A digest of ``matches`` random matches: every legal action list, every action's
    events, a clone, a resample for each seat and a view for each seat along the way, the
    final state's JSON and returns. Equal digests: the same play, draw for draw."""
    game = load_game(game_id, seats)
    rng = random.Random(seed)
    digest = hashlib.sha256()

    def put(value: object) -> None:
        digest.update(json.dumps(value, sort_keys=True, default=repr).encode())

    for match in range(matches):
        state = game.new_initial_state(rng.getrandbits(64))
        step = 0
        while deciding := state.deciding_seats():
            seat = deciding[step % len(deciding)]
            legal = state.legal_actions(seat)
            put(legal)
            action = rng.choice(legal)
            put(game.format_action(action))
            if step % 5 == 0:
                put(state.clone().to_json())
                for other in range(seats):
                    put(state.resample(other, match * 1000 + step).to_json())
                    put(state.view(other))
            put([event.to_json() for event in state.apply(seat, action)])
            step += 1
        put(state.to_json())
        put(state.returns())
    return digest.hexdigest()


def configurations() -> list[tuple[str, int]]:
    return [
        (info.id, seats)
        for info in registered()
        if info.name in ("maatatahay", "maiterra", "manafields")
        for seats in range(info.min_seats, info.max_seats + 1)
    ]


def test_every_listed_module_runs_compiled() -> None:
    missing = [name for name in COMPILED_MODULES if not is_compiled(name)]
    assert not missing, f"imported from Python source, not compiled: {missing}"
    print(f"compiled: {len(compiled_modules())} modules from {Path(meeple.__file__).parent}")


@pytest.mark.parametrize(("game_id", "seats"), configurations())
def test_random_matches_equal_the_pure_source(game_id: str, seats: int) -> None:
    here = playout_digest(game_id, seats, seed=seats, matches=3)
    child = (
        "import sys\n"
        f"sys.path[:0] = [{str(PURE_SOURCE)!r}, {str(REPO)!r}]\n"
        "from meeple.core.compiled import compiled_modules\n"
        "from tests.test_compiled import playout_digest\n"
        "assert not compiled_modules(), compiled_modules()\n"
        f"print(playout_digest({game_id!r}, {seats}, seed={seats}, matches=3))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    pure = subprocess.run(
        [sys.executable, "-c", child], capture_output=True, text=True, env=env, check=False
    )
    assert pure.returncode == 0, pure.stderr[-3000:]
    assert pure.stdout.strip() == here


@pytest.mark.parametrize(("game_id", "seats"), configurations())
def test_weak_references_to_states_die_with_them(game_id: str, seats: int) -> None:
    """A compiled state class derives from core's plain Python State; setup.py rewrites how
    its deallocator treats weak references (mypyc/mypyc#1102). A weak reference to a dead
    state, its clone or a resample must read None and call its callback, a
    WeakValueDictionary must forget it, and the collector must run over them without harm
    (Hypothesis takes weak references to the states it draws)."""
    game = load_game(game_id, seats)
    rng = random.Random(seats)
    state = game.new_initial_state(seats)
    died: list[int] = []
    alive: weakref.WeakValueDictionary[int, object] = weakref.WeakValueDictionary()
    refs = []
    step = 0
    while (deciding := state.deciding_seats()) and step < 40:
        for copy in (state.clone(), state.resample(deciding[0], step)):
            refs.append(weakref.ref(copy, lambda _ref: died.append(1)))
            alive[len(refs)] = copy
            del copy
        state.apply_unchecked(deciding[0], rng.choice(state.legal_actions(deciding[0])))
        step += 1
        gc.collect()
    assert is_compiled(type(state).__module__), type(state).__module__
    assert all(ref() is None for ref in refs)
    assert len(died) == len(refs) == 2 * step
    assert not list(alive.items()) and len(alive) == 0


def test_isinstance_tells_the_games_states_apart() -> None:
    """mypyc builds a compiled class without ``ABCMeta``, so each state class sets up its
    own ``isinstance`` records (``meeple.core.compiled.abc_bookkeeping``): a state is an
    instance of its own class and of ``State`` only, and asking about another game's class
    leaves ``State``'s answers (and so ``==``) as they were."""
    states = [load_game(name, 2).new_initial_state(1) for name in ("maatatahay", "manafields")]
    states.append(load_game("maiterra", 4).new_initial_state(1))
    for state in states:
        for other in states:
            assert isinstance(state, type(other)) == (state is other)
            assert isinstance(state, State)
        assert state.clone() == state
