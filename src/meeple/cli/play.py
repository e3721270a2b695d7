"""``meeple play``: a match in the terminal against a bot, or two people at one keyboard.

Every turn shows the board as the deciding seat sees it (``state.view(seat)``), then the
legal options numbered with their notation. People answer with a number or a notation, or a
command: ``undo``, ``save FILE``, ``load FILE``, ``help``, ``quit``. A bad entry prints the
engine's typed error and asks again; nothing changes. The match lives in a
:class:`MatchRecord`, so undo and load rebuild the state by replaying it. Undo redraws what
no seat can see at the position it goes back to (:mod:`meeple.cli.undo`), so it never shows
the draw or roll to come; the record then starts a new branch from there.

In a game of simultaneous turns several seats decide at once: the bots among them decide
first, then the person. What the person is shown of a bot's decision goes by the events it
made: a sealed one (a queued order) is not shown, and where a game has a reporter
(:func:`meeple.cli.render.report_events`) the events a turn's resolution made are printed
as a report.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from meeple.ai import BOT_NAMES, Bot
from meeple.cli.analyse import hint_text, timed_analysis
from meeple.cli.arena import decide
from meeple.cli.common import pick_record, read_records, seat_name, write_error, write_record
from meeple.cli.render import render_view, report_events
from meeple.cli.undo import UndoRefused, branches_of, take_back
from meeple.core import Action, GameError, MatchRecord, Seat, State, UnknownGame, kit_for
from meeple.core.errors import excerpt
from meeple.core.game import Game
from meeple.core.outcome import Event
from meeple.core.types import JSON

HELP = """\
[bold]Commands[/]:
  [bold]undo[/]        take back your last decision (and the replies to it); what no one
              can see yet (dice, face-down decks) is drawn afresh, so undo never shows
              what comes next, and where that cannot be done (Maiterra's hands and sealed
              orders) undo stops at the last thing the table was shown
  [bold]save FILE[/]   write the match record (JSON) to FILE
  [bold]load FILE[/]   continue the match recorded in FILE
  [bold]board[/]       show the board again
  [bold]moves[/]       every legal option, numbered
  [bold]hint[/]        the best moves with their chance to win (a second of search)
  [bold]help[/]        this text
  [bold]quit[/]        leave the match"""
"""The commands of every game; the in-game ``help`` shows the game's own orders and key
(its drawing's ``help_text()``) above them."""

MAX_LISTED = 40
"""More legal options than this are shown grouped (one line per order and unit, with their
targets) instead of numbered; ``moves`` numbers them all."""

ReadLine = Callable[[str], str]

MAX_ENTRY = 200
"""The longest line the prompt reads; a longer one is refused whole, never parsed."""
_OPTION_NUMBER = re.compile(r"[0-9]+")
"""An option number as typed: ASCII digits only. ``str.isdigit`` also holds for ``²`` and
other scripts' digits, which ``int`` then refuses; those go to the notation parser, which
answers with a typed error. Past nine digits no number is read (``int`` refuses more than
4,300)."""

NO_SAVE = frozenset({"n", "no", "q", "quit", "exit"})
"""Answers to the game-over offer to save that mean no, as an empty line does."""

HINT_SECONDS = 1.0
BOT_MOVE_SECONDS = 1.0
"""A searching bot stops after this long, whatever its level's iterations."""


def error_words(error: Exception) -> str:
    """An error as the person at the prompt reads it: a game's reason without the seat and
    action id it quotes for programs (``seat 0, action 66: ...``); the reason names both."""
    if not isinstance(error, GameError):
        return str(error)
    if isinstance(error.action, str):  # the text typed: quoted, as every error quotes its input
        return f"{excerpt(error.action)}: {error.reason}"
    return error.reason


class Quit(Exception):
    """The person asked to leave, or the input ended."""


@dataclass
class PlaySession:
    """One match at the terminal. ``humans`` are the seats typed in; a bot plays the rest."""

    game: Game
    record: MatchRecord
    humans: frozenset[Seat]
    bot: Bot | None
    console: Console
    read_line: ReadLine
    entropy: Callable[[], int] = lambda: secrets.randbits(64)
    """Where undo's redraw of the unseen gets its seed (fresh each time)."""
    saved_as: tuple[str, str] | None = None
    """The file last saved with ``save FILE`` and the record as written there, so that
    ``quit`` with nothing played since says where the match is instead of asking to save."""
    save_path: Path | None = None
    """``play --save FILE``: the record is written there after every action (whole, by a
    rename), so a crash or Ctrl-C loses nothing."""
    state: State = field(init=False)
    branches: list[MatchRecord] = field(init=False)
    """The stretches played before the record's last undo (its ``meta.undone``)."""

    def __post_init__(self) -> None:
        self.state = self.record.replay()
        self.branches = branches_of(self.record)

    # -- the loop ------------------------------------------------------------------------

    def run(self) -> State:
        """Play until the match ends or the person quits; returns the last state."""
        try:
            while not self.state.is_terminal():
                bot_seats = [s for s in self.state.deciding_seats() if s not in self.humans]
                if bot_seats:
                    self.bot_moves(bot_seats[0])
                else:
                    self.human_turn(self.state.deciding_seats()[0])
        except Quit:
            if self.save_path is not None:
                self.console.print(f"Bye. The match so far is in {escape(str(self.save_path))}.")
                self.console.print(self.replay_hint(str(self.save_path)), soft_wrap=True)
            elif self.saved_as is not None and self.saved_as[1] == self.record.dumps():
                self.console.print(f"Bye. The match is saved in {escape(self.saved_as[0])}.")
            else:
                self.console.print("Bye. [dim](save with 'save FILE' before 'quit' to keep it)[/]")
            return self.state
        self.show_end()
        self.offer_save()
        return self.state

    def offer_save(self) -> None:
        """At game over: the record is saved (``--save``), or the person is asked for a file
        name to save it under (an empty answer saves nothing)."""
        if self.save_path is not None:
            self.autosave()
            self.console.print(f"The match is saved in {escape(str(self.save_path))}.")
            self.console.print(self.replay_hint(str(self.save_path)), soft_wrap=True)
            return
        while True:
            try:
                answer = self.read_line("Save this match? File name (Enter: no): ").strip()
            except EOFError:
                return
            if not answer or answer.lower() in NO_SAVE:
                return
            if _OPTION_NUMBER.fullmatch(answer):
                # An option number typed (or piped) past the end is no file name.
                self.error(f"the match is over; give a file name such as match.json, not {answer}")
                continue
            if self.save(answer):
                return

    def replay_hint(self, path: str) -> str:
        """The command that replays the saved match."""
        quoted = path if re.fullmatch(r"[\w./-]+", path) else "'" + path.replace("'", "'\\''") + "'"
        return f"Replay it with: [bold]meeple replay {escape(quoted)}[/]"

    def autosave(self) -> None:
        """Write the record to the ``--save`` file, if there is one; a failure is said, once
        per action, and the match goes on."""
        if self.save_path is None:
            return
        try:
            write_record(self.save_path, self.record)
        except (OSError, ValueError) as error:
            self.error(write_error(self.save_path, error))

    def bot_moves(self, seat: Seat) -> None:
        if self.bot is None:
            raise RuntimeError(f"seat {seat} is neither a person nor a bot")
        action = decide(self.bot, self.state, seat, BOT_MOVE_SECONDS)
        sentence = self.state.describe_action(seat, action)
        notation = self.state.action_to_string(seat, action)
        events = self.apply(seat, action)
        name = seat_name(self.state.view(seat), seat)
        who = f"[bold]{escape(name)}[/] ({escape(self.bot.name)} bot)"
        if all(event.visible_to(self.viewer) for event in events):
            self.console.print(f"{who} played [bold]{escape(notation)}[/]: {escape(sentence)}")
        elif events and events[0].visible_to(self.viewer):
            # Part of the decision is sealed (a house, a queued order): say only what is open.
            self.console.print(f"{who}: {escape(events[0].kind.replace('_', ' '))}")
        self.report(events)

    def human_turn(self, seat: Seat) -> None:
        self.show(seat)
        actions = self.state.legal_actions(seat)
        while True:
            who = seat_name(self.state.view(seat), seat)
            try:
                line = self.read_line(f"{who}> ").strip()
            except EOFError as end:
                raise Quit from end
            if not line:
                continue
            if len(line) > MAX_ENTRY:
                self.error(f"an entry is at most {MAX_ENTRY} characters, got {len(line)}")
                continue
            try:
                if self.entry(seat, actions, line):
                    return
            except (ValueError, OSError) as error:  # GameError is a ValueError
                # Whatever the line held, the prompt explains and asks again.
                self.error(error_words(error))

    def entry(self, seat: Seat, actions: list[Action], line: str) -> bool:
        """Act on one entry; True when the seat's decision is made (or the state changed)."""
        handled = self.command(line, seat)
        if handled is not None:
            return handled
        action = self.choose(seat, actions, line)
        if action is None:
            return False
        events = self.apply(seat, action)
        self.report(events)
        return True

    # -- entries -------------------------------------------------------------------------

    def choose(self, seat: Seat, actions: list[Action], line: str) -> Action | None:
        """The action an entry names (a 1-based option number or a notation), else None."""
        if _OPTION_NUMBER.fullmatch(line):
            if len(line) <= 9 and 1 <= int(line) <= len(actions):
                return actions[int(line) - 1]
            shown = line if len(line) <= 12 else line[:9] + "…"
            self.error(f"there is no option {shown}; choose 1-{len(actions)} or a notation")
            return None
        try:
            return self.state.parse_action(seat, line)
        except GameError as error:
            self.error(error_words(error))
            return None

    def command(self, line: str, seat: Seat) -> bool | None:
        """Run a command: None when the line is no command, True when the state changed."""
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("quit", "exit", "q"):
            raise Quit
        if word in ("help", "?"):
            self.console.print(self.help_text())
            return False
        if word == "moves":
            self.show_options(seat, grouped=False)
            return False
        if word == "board":
            self.show(seat)
            return False
        if word == "hint":
            analysis = timed_analysis(self.state, seat, HINT_SECONDS)
            self.console.print(hint_text(analysis, seat_name(self.state.view(seat), seat)))
            return False
        if word == "undo":
            return self.undo()
        if word == "save":
            self.save(rest)
            return False
        if word == "load":
            return self.load(rest)
        return None

    def undo(self) -> bool:
        """Against a bot: back to the person's previous decision. Hot seat: one action back.

        What no seat can see there is redrawn (see :mod:`meeple.cli.undo`).
        """
        humans = None if self.bot is None else self.humans
        seat = self.viewer if self.viewer is not None else 0
        try:
            back = take_back(self.record, self.branches, humans, seat, self.entropy())
        except UndoRefused as refused:
            self.error(str(refused))
            return False
        self.record, self.branches, self.state = back.record, back.branches, back.state
        self.autosave()
        drawn = " [dim](what no one could see is drawn afresh)[/]" if back.redrawn else ""
        self.console.print(f"[yellow]Taken back.[/]{drawn}")
        return True

    def save(self, path: str) -> bool:
        """Write the record to ``path``; True when it is written."""
        if not path:
            self.error("save needs a file name: save FILE")
            return False
        try:
            write_record(Path(path), self.record)
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name
            self.error(write_error(path, error))
            return False
        self.saved_as = (path, self.record.dumps())
        self.console.print(f"Saved to {escape(path)}. {self.replay_hint(path)}", soft_wrap=True)
        return True

    def load(self, path: str) -> bool:
        if not path:
            self.error("load needs a file name: load FILE")
            return False
        index: int | None = None
        number = re.fullmatch(r"(.+?)\s+([0-9]{1,9})", path)
        if number is not None and not Path(path).exists():
            path, index = number.group(1), int(number.group(2))
        try:
            records = read_records(Path(path))
            if len(records) > 1 and index is None:
                self.error(
                    f"{excerpt(path)} holds {len(records)} match records; "
                    f"load one with load FILE N (1 to {len(records)})"
                )
                return False
            record = pick_record(records, index, Path(path))
            if record.game().info.name != self.game.info.name:
                self.error(f"{excerpt(path)} is a match of {record.game_id}, not {self.game.id}")
                return False
            state = record.replay()
        except GameError as error:
            self.error(error_words(error))
            return False
        self.game, self.record, self.state = record.game(), record, state
        self.branches = branches_of(record)
        self.autosave()
        self.console.print(f"Loaded {escape(path)} ({len(record.actions)} actions).")
        return True

    # -- output --------------------------------------------------------------------------

    def apply(self, seat: Seat, action: Action) -> list[Event]:
        events = self.state.apply(seat, action)
        self.record.add(seat, action)
        if self.state.is_terminal():
            self.record.outcome = self.state.outcome()
        self.autosave()
        return events

    @property
    def viewer(self) -> Seat | None:
        """The seat whose eyes the terminal shows: the one person against bots, else None."""
        return next(iter(self.humans)) if len(self.humans) == 1 else None

    def report(self, events: list[Event]) -> None:
        """Print the game's report of what ``events`` show the viewer, if it has one."""
        visible = [event for event in events if event.visible_to(self.viewer)]
        report = report_events(visible, self.game.id, self.state.view(self.viewer))
        if report is not None:
            self.console.print(report)

    def error(self, message: str) -> None:
        """One error line, printed whole (soft wrap: the terminal folds it, not Rich)."""
        self.console.print(f"[bold red]✗[/] {escape(message)}", soft_wrap=True)

    def help_text(self) -> str:
        """The game's orders and key to its board (its drawing's), then the commands."""
        try:
            own = kit_for(self.game.info.name).draw.help_text()
        except UnknownGame:
            own = ""
        lead = "Answer with the number of an option or its notation, or a command."
        return "\n".join(part for part in (own, lead, HELP) if part)

    def show(self, seat: Seat) -> None:
        view = self.state.view(seat)
        self.console.print(render_view(view, self.game.id))
        self.show_options(seat, grouped=True)

    def show_options(self, seat: Seat, *, grouped: bool) -> None:
        """The legal options numbered; past :data:`MAX_LISTED` of them (unless ``grouped``
        is False) one line per order and unit with its targets, and how to see them all."""
        actions = self.state.legal_actions(seat)
        notations = [self.state.action_to_string(seat, a) for a in actions]
        if grouped and len(actions) > MAX_LISTED:
            self.console.print(grouped_options(notations))
            self.console.print(
                f"[dim]{len(actions)} options: type one's notation, or [bold]moves[/] to number "
                "them all, [bold]help[/] for the orders and the key to the board[/]"
            )
            return
        options = [
            Text.assemble((f"{n:>2}", "bold"), " ", notation)
            for n, notation in enumerate(notations, start=1)
        ]
        self.console.print(Columns(options, padding=(0, 3)))

    def show_end(self) -> None:
        viewer = next(iter(sorted(self.humans)), None) if len(self.humans) == 1 else None
        view = self.state.view(viewer)
        self.console.print(render_view(view, self.game.id))
        outcome = self.state.outcome()
        if outcome is None:
            return
        self.record.outcome = outcome
        names = [seat_name(view, s) for s in range(self.game.seats)]
        if outcome.is_draw:
            headline = "Draw"
        else:
            headline = " and ".join(names[s] for s in outcome.winners) + " won"
        self.console.print(f"[bold green]Game over: {escape(headline)}[/] ({outcome.reason})")
        if outcome.scores is not None:
            scores = ", ".join(
                f"{name} {score:g}" for name, score in zip(names, outcome.scores, strict=False)
            )
            self.console.print(f"Scores: {escape(scores)}")


HUMAN = "human"
"""A record's name for a seat a person played (``MatchRecord.players``); a bot's seat holds
the bot's name with its level (``mcts-easy``)."""


def players_of(record: MatchRecord) -> tuple[str | None, Seat | None]:
    """The bot a saved match was played against and the person's seat, from the record's
    ``players`` (``["human", "mcts-easy"]``; older records wrote ``"mcts-easy bot"``):
    ``("human", None)`` for a hot-seat match, ``(None, None)`` when the record does not say.
    """
    players = record.players or []
    bots = [name.removesuffix(" bot") for name in players if name != HUMAN]
    people = [seat for seat, name in enumerate(players) if name == HUMAN]
    if players and not bots:
        return HUMAN, None
    known = [name for name in bots if name in BOT_NAMES]
    return (known[0] if known else None), (people[0] if len(people) == 1 else None)


def table_line(record: MatchRecord, view: JSON) -> str:
    """Who sits where: each seat's name and who plays it (``Red: you · Blue: greedy bot``)."""
    players = record.players or []
    parts = []
    for seat, player in enumerate(players):
        who = "you" if player == HUMAN else f"{player} bot"
        parts.append(f"{seat_name(view, seat)}: {who}")
    return "Seats: " + " · ".join(parts)


def grouped_options(notations: list[str]) -> Text:
    """Options grouped by all but their last word, in first-seen order: ``move A: a1 b1 c1``
    (an option of one word, or alone in its group, stands on its own)."""
    groups: dict[str, list[str]] = {}
    for notation in notations:
        head, _, last = notation.rpartition(" ")
        groups.setdefault(head or notation, []).append(last if head else "")
    text = Text()
    for head, lasts in groups.items():
        if text:
            text.append("\n")
        if len(lasts) == 1:
            text.append(f"{head} {lasts[0]}".strip(), style="bold")
            continue
        text.append(f"{head}:", style="bold")
        text.append(" " + " ".join(lasts))
    return text


DEFAULT_OPPONENT = "heuristic"
"""The bot ``meeple play`` seats when no ``--vs`` is given: the game's own rules of thumb."""


def default_opponent(game_name: str) -> str:
    """The default opponent in ``game_name``: every game has the same bot ladder."""
    return DEFAULT_OPPONENT


def faction_choices(game: Game) -> tuple[str, ...]:
    """The factions a seat of ``game`` may play (its ``faction0`` option), or none."""
    for spec in game.info.options:
        if spec.name == "faction0" and spec.choices:
            return tuple(str(choice) for choice in spec.choices)
    return ()


def team_option(seats: int) -> str:
    """Two teams split down the middle, one digit per seat: ``112`` at 3, ``1122`` at 4."""
    first = (seats + 1) // 2
    return "1" * first + "2" * (seats - first)


def human_seats(seats: int, vs: str, seat: Seat) -> Collection[Seat]:
    """The seats people play: all of them hot-seat, else the one chosen."""
    return range(seats) if vs == "human" else (seat,)
