"""The research commands: ``meeple bench-adapters``, ``meeple adapter-floor``, ``meeple
vs-openspiel`` and ``meeple search-speed``, and ``meeple bench --compare`` / ``--mcts``.

The first three measure the research adapters (OpenSpiel, PettingZoo, Gymnasium) and play
our search against OpenSpiel's, so they need the research extras; the modules that do the work
(:mod:`meeple.cli.adapter_bench`, :mod:`meeple.cli.hollow`, :mod:`meeple.cli.vs_openspiel`)
import those frameworks, and are loaded only when a command runs, so ``meeple --help`` and
the other commands work without them.
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import Progress

from meeple.cli.arena import search_speed as measure_search_speed
from meeple.cli.common import fail, open_game, parse_options, progress_bar
from meeple.cli.selfplay import Loop, compare, goals, our_loops
from meeple.core import load_game, registered

EXTRAS_HINT = "pip install 'meeple[research]'"
"""How to install what these commands need."""


@contextmanager
def _research_extras() -> Iterator[None]:
    """Turn a missing research framework into a usage error that says how to install it."""
    try:
        yield
    except ModuleNotFoundError as error:
        raise fail(f"this command needs {error.name!r}: {EXTRAS_HINT}") from error


def _progress(label: str) -> Progress:
    return progress_bar(escape(label))


def bench_adapters(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (see `meeple games`).")],
    seats: Annotated[
        int | None, typer.Option(help="Seats per match (the game's least if unset).")
    ] = None,
    seconds: Annotated[float, typer.Option(min=0.0, help="CPU seconds per row.")] = 3.0,
    encoder: Annotated[
        str,
        typer.Option(help="own: the game's tensor writer; generic: the view-JSON encoder."),
    ] = "own",
    floor: Annotated[
        bool,
        typer.Option(
            "--floor/--no-floor",
            help="Also time each loop over a hollow game of the same shape (the floor).",
        ),
    ] = True,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON instead of Markdown.")
    ] = False,
) -> None:
    """Random games per second natively and through each research adapter, with floors.

    The loops: OpenSpiel (with and without observations), PettingZoo AEC and Parallel,
    Gymnasium; each also over a hollow game of the same shape, the framework's floor.
    Times are CPU seconds of this process; overhead is native / adapter games per second.
    Needs the research extras.
    """
    if encoder not in ("own", "generic"):
        raise fail(f"--encoder is own or generic, not {encoder!r}")
    configured = parse_options(game, seats, [])
    with _research_extras():
        from meeple.cli import adapter_bench  # noqa: PLC0415 (optional extras)

        progress = _progress(f"bench-adapters {configured.id}")
        with progress:
            total = adapter_bench.rows_to_time(configured, with_floor=floor)
            task = progress.add_task("rows", total=total)
            report = adapter_bench.run(
                configured,
                seconds,
                generic=encoder == "generic",
                with_floor=floor,
                on_row=lambda _: progress.advance(task),
            )
    typer.echo(json.dumps(report, indent=2) if as_json else adapter_bench.to_markdown(report))


def adapter_floor(
    actions: Annotated[
        int, typer.Option(min=1, help="Distinct actions of the hollow game.")
    ] = 2000,
    legal: Annotated[int, typer.Option(min=1, help="Legal actions at every step.")] = 20,
    size: Annotated[int, typer.Option(min=1, help="Floats in the observation tensor.")] = 1000,
    seconds: Annotated[float, typer.Option(min=0.0, help="CPU seconds per call timed.")] = 1.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the costs as JSON.")] = False,
) -> None:
    """Microseconds per OpenSpiel call on a hollow game: the floor no adapter can remove.

    The hollow game's rules do nothing, so what is timed is the framework's own cost.
    Needs the OpenSpiel extra."""
    with _research_extras():
        from meeple.cli import hollow  # noqa: PLC0415 (optional extras)

        costs = hollow.call_costs(actions, legal, size, seconds)
    if as_json:
        typer.echo(json.dumps({key: round(value, 3) for key, value in costs.items()}, indent=2))
        return
    for label, micros in costs.items():
        typer.echo(f"{label}: {micros:.2f} µs")


def vs_openspiel(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (see `meeple games`).")],
    games: Annotated[int, typer.Option(min=1, help="Matches (in pairs on one deal).")] = 20,
    seconds: Annotated[float, typer.Option(min=0.0, help="Seconds per move, each side.")] = 0.25,
    opponent: Annotated[
        str,
        typer.Option(
            help="mcts: OpenSpiel's MCTSBot (sees hidden state), its simulations a move "
            "measured first; mcts-clock: MCTSBot searching until the same deadline as ours; "
            "ismcts: ISMCTSBot."
        ),
    ] = "mcts",
    first: Annotated[int, typer.Option(min=0, help="Index of the first match.")] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (with every score).")
    ] = False,
) -> None:
    """Our mcts-expert against OpenSpiel's MCTS, the same time per move, with a 95 % interval.

    Played through the OpenSpiel adapter, in pairs of matches on one deal with the seats
    swapped. Needs the OpenSpiel extra."""
    if opponent not in ("mcts", "mcts-clock", "ismcts"):
        raise fail(f"--opponent is mcts, mcts-clock or ismcts, not {opponent!r}")
    name = open_game(game).info.name
    with _research_extras():
        from meeple.cli import vs_openspiel as versus  # noqa: PLC0415 (optional extras)

        progress = _progress(f"vs-openspiel {name} ({opponent})")
        with progress:
            task = progress.add_task("matches", total=games)
            report = versus.run(
                name,
                games,
                seconds,
                opponent=opponent,
                first=first,
                on_match=lambda _index, _score: progress.advance(task),
            )
    if as_json:
        typer.echo(json.dumps(report, indent=2))
        return
    low, high = report["wilson95_pct"]
    typer.echo(
        f"{report['game']}: mcts-expert scored {report['meeple_score']:g} of {report['games']} "
        f"({report['meeple_score_pct']} %, Wilson 95 % {low}-{high} %) against OpenSpiel's "
        f"{report['opponent']} at {report['seconds_per_move']:g} s a move "
        f"({report['openspiel_simulations_per_move']} simulations; iterations per second: "
        f"ours {report['meeple_iterations_per_second']}, "
        f"theirs {report['openspiel_iterations_per_second']})"
    )


def search_speed(
    game: Annotated[str | None, typer.Option(help="One game; every game if unset.")] = None,
    seconds: Annotated[
        float, typer.Option(min=0.0, help="Seconds of search per game, over five positions.")
    ] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the rates as JSON.")] = False,
) -> None:
    """Search iterations per second, per game, in one process (the MCTS levels' policy).

    Each game's rate is averaged over five positions of random play, the search running for
    a fifth of --seconds at each.
    """
    games = [open_game(game)] if game else [open_game(info.id) for info in registered()]
    progress = _progress("search-speed")
    rates = []
    with progress:
        task = progress.add_task("games", total=len(games))
        for configured in games:
            rate = measure_search_speed(configured, seconds) if seconds > 0 else 0.0
            rates.append({"game": configured.id, "iterations_per_second": round(rate, 1)})
            progress.advance(task)
    if as_json:
        typer.echo(json.dumps(rates, indent=2))
        return
    for row in rates:
        typer.echo(f"{row['game']}: {row['iterations_per_second']:,} iterations a second")


# -- meeple bench --compare and --mcts ----------------------------------------------------------


def _machine() -> dict[str, Any]:
    """What else the machine was doing: the figures are only comparable within one run."""
    return {"cpus": os.cpu_count(), "load_average_1min": round(os.getloadavg()[0], 2)}


def _adapter_loops() -> list[tuple[str, Loop]]:
    """Each game at its least seats played through the OpenSpiel adapter and PettingZoo's
    AEC loop (``meeple bench-adapters``' rows, observation and mask read at every AEC step),
    each with the label of its bare engine's loop."""
    import pyspiel  # noqa: PLC0415 (optional extras)

    from meeple.adapters import openspiel as spiel_adapter  # noqa: PLC0415
    from meeple.adapters.pettingzoo import aec_env  # noqa: PLC0415
    from meeple.cli import adapter_bench  # noqa: PLC0415

    # A game registered with meeple after the adapter was first imported is not known to
    # pyspiel yet: register every game first.
    spiel_adapter.register_games()
    loops = []
    for name in dict.fromkeys(info.name for info in registered()):
        game = load_game(name)
        info = game.info
        engine = name if info.min_seats == info.max_seats else f"{name} {game.seats} seats"
        spiel = pyspiel.load_game(spiel_adapter.short_name(info), {"seats": game.seats})
        for via, play in (
            ("OpenSpiel", adapter_bench.openspiel(spiel)),
            ("PettingZoo AEC", adapter_bench.pettingzoo_aec(aec_env(game))),
        ):
            seeds = itertools.count()

            def playout(play: adapter_bench.Playout = play, seeds: Iterator[int] = seeds) -> int:
                return play(next(seeds))

            loops.append((engine, Loop(f"{engine} via {via}", playout)))
    return loops


def _adapter_ratios(rows: Sequence[Any], engines: dict[str, str]) -> list[dict[str, Any]]:
    """Each adapter loop's time a game against its bare engine's (engine ÷ adapter games/s)."""
    rates = {row.loop: row.games_per_second for row in rows}
    return [
        {"loop": loop, "engine": engine, "ratio": round(rates[engine] / rates[loop], 3)}
        for loop, engine in engines.items()
        if rates.get(engine) and rates.get(loop)
    ]


def bench_compare(
    seconds: float, rounds: int, wanted: Sequence[tuple[str, float]] = ()
) -> dict[str, Any]:
    """Our games' random loops beside OpenSpiel's (when installed), interleaved; medians,
    each as a share of OpenSpiel's C++ tic-tac-toe, and the ``wanted`` goals (loop, %);
    with the research extras, each game also through the adapters, as a ratio to its bare
    engine."""
    loops: list[Loop] = our_loops()
    reference = None
    engines: dict[str, str] = {}
    if find_spec("pyspiel") is not None:
        from meeple.cli import vs_openspiel  # noqa: PLC0415 (optional extras)

        reference = vs_openspiel.CPP_TIC_TAC_TOE
        loops += [Loop(*entry) for entry in vs_openspiel.reference_playouts()]
        if find_spec("pettingzoo") is not None:
            for engine, loop in _adapter_loops():
                engines[loop.label] = engine
                loops.append(loop)
    progress = progress_bar("{task.description}", transient=True)
    with progress:
        task = progress.add_task("bench --compare", total=rounds * len(loops))

        def advance(label: str) -> None:
            progress.update(task, description=f"bench --compare: {escape(label)}", advance=1)

        rows = compare(loops, seconds, rounds=rounds, reference=reference, on_timed=advance)
    return {
        "rounds": rounds,
        "seconds": seconds,
        **_machine(),
        "reference": reference,
        "loops": [row.to_json() for row in rows],
        "adapters": _adapter_ratios(rows, engines),
        "goals": [goal.to_json() for goal in goals(rows, wanted)],
    }


def compare_text(report: dict[str, Any]) -> str:
    """The comparison as lines: every loop with its share of the reference, then the goals."""
    reference = report["reference"]
    rounds = report["rounds"]
    out = [
        f"bench --compare: {report['seconds']:g} s a loop, {rounds} round"
        f"{'s' if rounds != 1 else ''} interleaved, medians; {report['cpus']} cores, "
        f"load average {report['load_average_1min']:g}"
    ]
    if reference is None:
        out.append(f"OpenSpiel is not installed ({EXTRAS_HINT}): no reference to compare with")
    for row in report["loops"]:
        actions = row["actions_per_second"]
        line = f"{row['loop']}: {row['games_per_second']:,.0f} games/s"
        if actions is not None:
            line += f" ({actions:,.0f} actions/s)"
        if row["pct_of_reference"] is not None:
            line += f", {row['pct_of_reference']:.3g} % of {reference}"
        out.append(line)
    for row in report.get("adapters", ()):
        out.append(f"{row['loop']}: {row['ratio']:.2f}x the time of {row['engine']} alone")
    for goal in report["goals"]:
        pct = goal["pct"]
        verdict = {True: "met", False: "not met", None: "not measured"}[goal["met"]]
        reached = "" if pct is None else f"{pct:.3g} %: "
        out.append(f"goal {goal['loop']} >= {goal['goal_pct']:g} %: {reached}{verdict}")
    return "\n".join(out)


def bench_mcts(
    name: str, seconds: float, rounds: int, games: int, move_seconds: float
) -> dict[str, Any]:
    """Our MCTS against OpenSpiel's MCTSBot on ``name`` through the adapter: iterations a
    second, interleaved, and with ``games`` > 0 a head-to-head at equal wall clock a move."""
    with _research_extras():
        from meeple.cli import vs_openspiel  # noqa: PLC0415 (optional extras)

        progress = _progress(f"bench --mcts {name}")
        with progress:
            task = progress.add_task("rounds, matches", total=rounds + games)
            report: dict[str, Any] = {
                **_machine(),
                "speed": vs_openspiel.mcts_speed(
                    name, seconds, rounds=rounds, on_round=lambda _: progress.advance(task)
                ),
            }
            if games:
                report["head_to_head"] = vs_openspiel.head_to_head(
                    name,
                    games,
                    move_seconds,
                    on_match=lambda _index, _score: progress.advance(task),
                )
    return report


def mcts_text(report: dict[str, Any]) -> str:
    speed = report["speed"]
    out = [
        f"bench --mcts {speed['game']}: our MCTS {speed['meeple_iterations_per_second']:,.0f} "
        f"iterations/s, OpenSpiel's MCTSBot {speed['openspiel_iterations_per_second']:,.0f}: "
        f"{speed['speed_ratio']}x ({speed['rounds']} round{'s' if speed['rounds'] != 1 else ''} "
        "interleaved, medians; "
        f"{report['cpus']} cores, load average {report['load_average_1min']:g})"
    ]
    match = report.get("head_to_head")
    if match:
        low, high = match["wilson95_pct"]
        out.append(
            f"head-to-head: mcts-expert scored {match['meeple_score']:g} of {match['games']} "
            f"({match['meeple_score_pct']} %, Wilson 95 % {low}-{high} %) against MCTSBot, "
            f"both searching {match['seconds_per_move']:g} s of wall clock a move"
        )
    return "\n".join(out)
