"""The ``meeple`` command: play, replay, selfplay, arena, bench, games."""

from __future__ import annotations

import json
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from meeple.ai import BOT_NAMES, make_bot
from meeple.cli.balance import balance
from meeple.cli.bot import run_bot
from meeple.cli.common import (
    OPTION_HELP,
    bot_names_error,
    console,
    fail,
    needs_extra,
    open_game,
    parse_options,
    pick_record,
    progress_bar,
    read_record,
    read_records,
    write_error,
    write_record,
)
from meeple.cli.executor import (
    AddressOption,
    ExecutorOption,
    ExecutorUnavailable,
    WorkersOption,
    check_executor,
    run_jobs,
)
from meeple.cli.export import export_trajectories
from meeple.cli.online import join
from meeple.cli.play import (
    HUMAN,
    PlaySession,
    default_opponent,
    faction_choices,
    human_seats,
    players_of,
    table_line,
    team_option,
)
from meeple.cli.render import render_view
from meeple.cli.research import adapter_floor, bench_adapters, search_speed, vs_openspiel
from meeple.cli.schemas import schemas
from meeple.cli.selfplay import bench as run_bench
from meeple.cli.selfplay import bots_for_seats, parse_goal, play_selfplay_job, selfplay_jobs
from meeple.cli.serve import lan, serve
from meeple.cli.tune import tune
from meeple.cli.tutorial import tutorial
from meeple.core import GameError, InvalidRecord, MatchRecord, mix_seed, registered

app = typer.Typer(
    name="meeple",
    help="Three strategy board games behind one engine: play, replay, self-play, benchmark.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def main() -> None:
    """Entry point of the ``meeple`` console script."""
    app()


def _line_reader(prompt: str) -> str:
    return console().input(escape(prompt))


OptionEntries = Annotated[list[str] | None, typer.Option("--option", help=OPTION_HELP)]
"""``--option name=value``, repeatable, shared by play, selfplay, arena and bench."""


@app.command()
def play(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (meeple games lists them).")],
    vs: Annotated[
        str | None,
        typer.Option(
            help=f"Opponent: {', '.join(BOT_NAMES)} or human (hot seat); "
            "default heuristic (the game's own rules of thumb). "
            "Manafields also takes the enemy's faction here (--vs orcs), against the default bot."
        ),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(help="Your seat (0 moves Balan in Maatatahay; with --load, the saved one)."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match (random if unset).")] = None,
    load: Annotated[Path | None, typer.Option(help="Continue a saved match record.")] = None,
    index: Annotated[
        int | None, typer.Option(help="With --load of a file of many records: which one.")
    ] = None,
    faction: Annotated[
        str | None, typer.Option(help="Manafields: your faction (humans, elves, orcs, undead).")
    ] = None,
    enemy: Annotated[str | None, typer.Option(help="Manafields: the other seat's faction.")] = None,
    seats: Annotated[
        int | None, typer.Option(help="Seats at the table (Maiterra: 2-4); bots play the rest.")
    ] = None,
    teams: Annotated[
        bool,
        typer.Option(
            "--teams", help="Maiterra at 3-4 seats: two teams (112 or 1122); as --option teams=."
        ),
    ] = False,
    option: OptionEntries = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Write the match record to this file after every action."),
    ] = None,
) -> None:
    """Play in the terminal against a bot, or hot-seat with --vs human.

    With --load the saved match goes on against the bots it was played against, from the
    same seat, unless --vs or --seat say otherwise.

    Undo takes back your last decision; the draws and rolls ahead are then drawn afresh
    (type help in a match for how), so undo never shows what chance holds next.
    """
    configured = open_game(game)
    if vs is not None and vs.lower() in faction_choices(configured):
        if enemy is not None and enemy.lower() != vs.lower():
            raise fail(f"--vs names the enemy faction {vs!r} and --enemy {enemy!r}: give one")
        enemy, vs = vs, None
    asked_vs = vs
    vs = vs or default_opponent(configured.info.name)
    preset: dict[str, object] = {}
    if teams:
        preset["teams"] = team_option(configured.seats if seats is None else seats)
    for who, value in ((seat or 0, faction), (1 - (seat or 0), enemy)):
        if value is not None:
            preset[f"faction{who}"] = value.lower()
    configured = parse_options(game, seats, option or [], preset)
    if vs != "human" and vs not in BOT_NAMES:
        raise fail(f"unknown opponent {vs!r}; choose one of {', '.join(BOT_NAMES)} or human")
    try:
        configured.check_seat(seat or 0)
    except GameError as error:
        raise fail(str(error)) from error
    out = console()
    if load is not None:
        try:
            record = read_record(load, index)
            if record.game().info.name != configured.info.name:
                raise InvalidRecord(f"{str(load)!r} records {record.game_id}, not {configured.id}")
            record.replay()
        except GameError as error:
            raise fail(str(error)) from error
        configured = record.game()
        seed = record.seed
        saved_vs, saved_seat = players_of(record)
        vs = asked_vs or saved_vs or vs
        seat = saved_seat if seat is None else seat
        try:
            configured.check_seat(seat or 0)
        except GameError as error:
            raise fail(str(error)) from error
    else:
        if seed is None:
            seed = secrets.randbelow(2**31)
        record = MatchRecord.for_game(configured, seed=seed)
    seat = seat or 0
    humans = frozenset(human_seats(configured.seats, vs, seat))
    bot = None if vs == "human" else make_bot(vs, mix_seed(seed or 0, 0xB07))
    record.players = [HUMAN if s in humans else vs for s in range(configured.seats)]
    out.print(
        f"[bold]{escape(configured.info.title)}[/] · seed {seed} · "
        f"{'hot seat' if bot is None else f'you are seat {seat} against the {vs} bot'}"
        " · type [bold]help[/] for commands"
    )
    if bot is not None and configured.seats > 2:
        out.print(escape(table_line(record, configured.new_initial_state(0).view(None))))
    if load is not None and bot is not None:
        out.print(f"Loaded {escape(str(load))}: you play seat {seat} against the {vs} bot.")
    session = PlaySession(configured, record, humans, bot, out, _line_reader, save_path=save)
    if save is not None:
        try:
            write_record(save, record)
        except (OSError, ValueError) as error:
            raise fail(write_error(save, error)) from error
        out.print(f"The match is written to {escape(str(save))} as it goes.")
    session.run()


@app.command()
def replay(  # noqa: PLR0917 (typer: one parameter per option)
    file: Annotated[Path, typer.Argument(help="A match record (JSON).")],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print the game, the outcome (null if unfinished) and the final state as JSON.",
        ),
    ] = False,
    step: Annotated[bool, typer.Option(help="Wait for Enter between actions.")] = False,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Annotate every action with the search's chance to win (with --json: as JSON).",
        ),
    ] = False,
    seconds: Annotated[
        float, typer.Option(min=0.0, help="With --analyse: most seconds per position.")
    ] = 1.0,
    index: Annotated[
        int | None,
        typer.Option(help="In a file of many records (selfplay --out): which one, from 1."),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(min=1, help="With --analyse: most search iterations per position."),
    ] = None,
    workers: WorkersOption = None,
    executor: ExecutorOption = "pool",
    address: AddressOption = None,
) -> None:
    """Replay a match record: every action in notation and the board after it.

    The file holds one record (play's save) or many (selfplay --out: pick one with --index).
    With --analyse the positions are searched on --workers processes (or Ray), each with
    its own seed, so the notes do not depend on how many.
    """
    if (wrong := check_executor(executor)) is not None:
        raise fail(wrong)
    try:
        records = read_records(file)
        record = pick_record(records, index, file)
        if len(records) > 1 and not as_json:
            console(stderr=True).print(
                f"record {index} of {len(records)} in {escape(str(file))}", soft_wrap=True
            )
        if analyse:
            where = Workers(workers, executor, address)
            _print_analysis(record, as_json, seconds, iterations, where)
            return
        if as_json:
            typer.echo(json.dumps(_replayed(record), indent=2))
            return
        _print_replay(record, step)
    except GameError as error:  # InvalidRecord, and anything else the record's game refuses
        raise fail(str(error)) from error
    except ExecutorUnavailable as error:
        raise fail(str(error)) from error


def _replayed(record: MatchRecord) -> dict[str, object]:
    """``replay --json``: the record's game, how the match ended (null while unfinished)
    and the full final state."""
    state = record.replay()
    outcome = state.outcome()
    return {
        "game": record.game().id,
        "outcome": None if outcome is None else outcome.to_json(),
        "state": state.to_json(),
    }


@dataclass(frozen=True)
class Workers:
    """Where a command's jobs run: ``--workers``, ``--executor``, ``--address``."""

    workers: int | None
    executor: str
    address: str | None


def _print_analysis(
    record: MatchRecord, as_json: bool, seconds: float, iterations: int | None, where: Workers
) -> None:
    from meeple.ai.analysis import DEFAULT_ITERATIONS  # noqa: PLC0415
    from meeple.cli.analyse import note_jobs, notes_table, play_note_job  # noqa: PLC0415

    jobs = note_jobs(record, seconds=seconds, iterations=iterations or DEFAULT_ITERATIONS)
    progress = progress_bar("analysing positions", transient=True)
    notes = []
    with progress:
        task = progress.add_task("positions", total=len(jobs))
        for note in run_jobs(
            play_note_job,
            jobs,
            workers=where.workers,
            executor=where.executor,
            address=where.address,
            chunksize=1,
        ):
            notes.append(note)
            progress.advance(task)
    if as_json:
        typer.echo(json.dumps([note.to_json() for note in notes], indent=2))
        return
    console().print(notes_table(notes))


def _print_replay(record: MatchRecord, step: bool) -> None:
    out = console()
    game = record.game()
    state = record.initial_state()
    out.print(f"[bold]{escape(game.info.title)}[/] · {escape(game.id)} · seed {record.seed}")
    out.print(render_view(state.view(None), game.id))
    for index, (seat, action) in enumerate(record.actions, start=1):
        try:
            notation = state.action_to_string(seat, action)
            sentence = state.describe_action(seat, action)
            state.apply(seat, action)
        except GameError as error:
            raise InvalidRecord(
                f"action #{index - 1} does not replay (seat {seat}): {error.reason}"
            ) from error
        out.rule(f"#{index} seat {seat}: {escape(notation)}")
        out.print(escape(sentence))
        out.print(render_view(state.view(None), game.id))
        if step and index < len(record.actions):
            try:
                input()
            except EOFError:
                step = False
    outcome = state.outcome()
    if outcome is not None:
        out.print(f"[bold green]Outcome:[/] {escape(json.dumps(outcome.to_json()))}")


@app.command()
def selfplay(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (meeple games lists them).")],
    games: Annotated[int, typer.Option(min=1, help="How many matches.")] = 1,
    seed: Annotated[int, typer.Option(help="Base seed; match i uses a seed derived from it.")] = 0,
    bots: Annotated[
        str, typer.Option(help="Comma-separated bots, one per seat or one for all.")
    ] = "random",
    out: Annotated[Path | None, typer.Option(help="Write records here instead of stdout.")] = None,
    seats: Annotated[int | None, typer.Option(help="Seats per match (the game's least).")] = None,
    option: OptionEntries = None,
    workers: WorkersOption = None,
    executor: ExecutorOption = "pool",
    address: AddressOption = None,
) -> None:
    """Bots play each other; one match record (JSON, with its seats and options) per line.

    The matches run on --workers processes (or Ray); the records come out in match order,
    the same whatever the number of workers.
    """
    if (wrong := check_executor(executor)) is not None:
        raise fail(wrong)
    configured = parse_options(game, seats, option or [])
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if (wrong := bot_names_error(names, BOT_NAMES)) is not None:
        raise fail(wrong)
    try:
        per_seat = bots_for_seats(names, configured.seats)
    except ValueError as error:
        raise fail(str(error)) from error
    try:
        sink = out.open("w", encoding="utf-8") if out is not None else sys.stdout
    except (OSError, ValueError) as error:
        raise fail(write_error(out or Path("-"), error)) from error
    jobs = selfplay_jobs(configured, seed, games, per_seat)
    progress = progress_bar("selfplay")
    try:
        with progress:
            task = progress.add_task("matches", total=games)
            for line in run_jobs(
                play_selfplay_job, jobs, workers=workers, executor=executor, address=address
            ):
                sink.write(line + "\n")
                sink.flush()
                progress.advance(task)
    except ExecutorUnavailable as error:
        raise fail(str(error)) from error
    finally:
        if out is not None:
            sink.close()


@app.command()
def arena(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str, typer.Argument(help="The game (meeple games lists them).")],
    bots: Annotated[
        str, typer.Option(help=f"Comma-separated bots to rate: {', '.join(BOT_NAMES)}.")
    ] = "random,greedy,mcts-normal",
    games: Annotated[int, typer.Option(min=1, help="Matches per group of bots.")] = 20,
    seats: Annotated[int | None, typer.Option(help="Seats per match (the game's least).")] = None,
    workers: WorkersOption = None,
    executor: ExecutorOption = "pool",
    address: AddressOption = None,
    seed: Annotated[int, typer.Option(help="Base seed; match i uses a seed derived from it.")] = 0,
    move_seconds: Annotated[
        float, typer.Option(min=0.0, help="Stop a search after this long (0: never).")
    ] = 1.0,
    out: Annotated[Path, typer.Option(help="Directory for the JSON, Markdown and PNG.")] = Path(
        "arena-results"
    ),
    option: OptionEntries = None,
) -> None:
    """A round robin between bots, rated with OpenSkill; writes a table and a plot."""
    from meeple.cli.arena import run_arena, schedule, to_markdown, write_report  # noqa: PLC0415

    if (wrong := check_executor(executor)) is not None:
        raise fail(wrong)
    needs_extra("openskill", "ratings", "meeple arena (its ratings)")
    needs_extra("matplotlib", "plots", "meeple arena (its plot)")
    configured = parse_options(game, seats, option or [])
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if (wrong := bot_names_error(names, BOT_NAMES, least=2)) is not None:
        raise fail(wrong)
    cap = move_seconds or None
    total = len(schedule(names, configured, games, seed, cap))
    progress = progress_bar(f"arena {escape(configured.id)}")
    with progress:
        task = progress.add_task("matches", total=total)
        try:
            report = run_arena(
                configured,
                names,
                games,
                workers=workers,
                executor=executor,
                address=address,
                seed=seed,
                move_seconds=cap,
                on_result=lambda _: progress.advance(task),
            )
        except ExecutorUnavailable as error:
            raise fail(str(error)) from error
    paths = write_report(report, out)
    typer.echo(to_markdown(report))
    typer.echo("wrote " + ", ".join(str(path) for path in paths))


@app.command()
def bench(  # noqa: PLR0917 (typer: one parameter per option)
    game: Annotated[str | None, typer.Option(help="One game; every game if unset.")] = None,
    seconds: Annotated[
        float, typer.Option(min=0.0, help="Seconds per game (--compare: per loop and round).")
    ] = 3.0,
    seats: Annotated[
        int | None, typer.Option(help="Seats per match (each game's least if unset).")
    ] = None,
    option: OptionEntries = None,
    compare: Annotated[
        bool,
        typer.Option(
            "--compare",
            help="Our games beside OpenSpiel's tic-tac-toe and connect four, interleaved, "
            "each as a share of OpenSpiel's C++ tic-tac-toe, with the speed goals.",
        ),
    ] = False,
    mcts: Annotated[
        bool,
        typer.Option(
            "--mcts",
            help="Our MCTS iterations/s against OpenSpiel's MCTSBot through the adapter "
            "(--game; default: the first game that takes turns); --head-to-head N also "
            "plays them.",
        ),
    ] = False,
    rounds: Annotated[
        int, typer.Option(min=1, help="--compare, --mcts: rounds, interleaved; medians.")
    ] = 3,
    head_to_head: Annotated[
        int, typer.Option(min=0, help="--mcts: matches against MCTSBot, in pairs (0: none).")
    ] = 0,
    move_seconds: Annotated[
        float, typer.Option(min=0.0, help="--head-to-head: wall-clock seconds a move, each.")
    ] = 0.2,
    goal: Annotated[
        list[str] | None,
        typer.Option(
            help="--compare: LOOP=PERCENT, a loop's goal as a share of OpenSpiel's C++ "
            "tic-tac-toe, reported met or not (repeatable; docs/workers.md has the issue's)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="--compare, --mcts: print the report as JSON.")
    ] = False,
) -> None:
    """Random full games per second, per game, single process; prints JSON.

    With --seats and no --game, only the games that seat that many are timed;
    --option needs --game. --compare and --mcts time ours against OpenSpiel in the same
    run (docs/workers.md), so a reader on any machine can judge the figures.
    """
    if compare or mcts:
        try:
            wanted = [parse_goal(text) for text in goal or []]
        except ValueError as error:
            raise fail(str(error)) from error
        _bench_against_openspiel(
            game, seconds, rounds, compare=compare, mcts=mcts, games=head_to_head,
            move_seconds=move_seconds, as_json=as_json, wanted=wanted,
        )  # fmt: skip
        return
    if game:
        games = [parse_options(game, seats, option or [])]
    elif option:
        raise fail("--option sets an option of one game: give --game too")
    else:
        infos = [i for i in registered() if seats is None or i.min_seats <= seats <= i.max_seats]
        games = [parse_options(info.id, seats) for info in infos]
    progress = progress_bar("{task.description}", transient=True)
    results = []
    with progress:
        task = progress.add_task("bench", total=len(games))
        for configured in games:
            progress.update(task, description=f"bench {escape(configured.id)} ({seconds:g} s)")
            results.append(run_bench(configured, seconds).to_json())
            progress.advance(task)
    typer.echo(json.dumps(results, indent=2))


def _bench_against_openspiel(
    game: str | None,
    seconds: float,
    rounds: int,
    *,
    compare: bool,
    mcts: bool,
    games: int,
    move_seconds: float,
    as_json: bool,
    wanted: list[tuple[str, float]],
) -> None:
    """``bench --compare`` and ``bench --mcts``: the reports, as text or JSON."""
    from meeple.cli.research import (  # noqa: PLC0415
        bench_compare,
        bench_mcts,
        compare_text,
        mcts_text,
    )

    if game is None:
        game = next(info.name for info in registered() if not info.simultaneous)
    info = open_game(game).info
    if mcts and info.simultaneous:
        raise fail(f"--mcts searches a game that takes turns; {info.name} plans simultaneously")
    name = info.name
    reports: dict[str, object] = {}
    texts = []
    if compare:
        report = bench_compare(seconds, rounds, wanted)
        reports["compare"] = report
        texts.append(compare_text(report))
    if mcts:
        report = bench_mcts(name, seconds, rounds, games, move_seconds)
        reports["mcts"] = report
        texts.append(mcts_text(report))
    typer.echo(json.dumps(reports, indent=2) if as_json else "\n".join(texts))


@app.command("games")
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="Print the games' info as JSON.")] = False,
) -> None:
    """List the registered games."""
    infos = registered()
    if as_json:
        typer.echo(json.dumps([info.to_json() for info in infos], indent=2))
        return
    table = Table(title="meeple games")
    for column in ("id", "title", "seats", "simultaneous", "hidden info", "chance"):
        table.add_column(column)
    for info in infos:
        seats = str(info.min_seats)
        if info.max_seats != info.min_seats:
            seats += f"-{info.max_seats}"
        table.add_row(
            info.id,
            info.title,
            seats,
            "yes" if info.simultaneous else "no",
            "yes" if info.hidden_information else "no",
            "yes" if info.chance else "no",
        )
    console().print(table)


app.command("export-trajectories")(export_trajectories)
app.command("serve")(serve)
app.command("lan")(lan)
app.command("join")(join)
app.command("bot")(run_bot)
app.command()(balance)
app.command("bench-adapters")(bench_adapters)
app.command("adapter-floor")(adapter_floor)
app.command("vs-openspiel")(vs_openspiel)
app.command()(tune)
app.command("search-speed")(search_speed)
app.command("tutorial")(tutorial)
app.command("schemas")(schemas)
