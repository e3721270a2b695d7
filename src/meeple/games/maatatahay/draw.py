"""The Maatatahay board in the terminal, drawn from a seat's view.

The 5x5 map with files a-e and ranks 1-5 (a1 bottom-left). A warrior shows its tribe, name,
strength, printed diamonds, support arrows (already turned the way it faces) and the Energy
(●) and Spirit (○) crystals on it; a dead warrior lies face down. Empty spaces show an
unclaimed relic (⌂) and the crystals lying there. Beside the map: who decides and in which
phase, the scores, storage, relics, warriors lost, the Spirit Track and the stream of pairs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from meeple.core.kit import BoardDrawing
from meeple.core.types import JSON

SIZE = 5
FILES = "abcde"
SPIRIT_TRACK_END = 6
# The web board's colours (Okabe-Ito): Balan blue, Wazu orange, Energy pink; a terminal of
# fewer colours shows the nearest it has.
TRIBE_STYLES = ("bold #0072b2", "bold #d55e00")
ENERGY_STYLE = "#cc79a7"
SPIRIT_STYLE = "bright_white"
RELIC_STYLE = "bold yellow"
ARROWS = {"N": "↑", "NE": "↗", "E": "→", "SE": "↘", "S": "↓", "SW": "↙", "W": "←", "NW": "↖"}
FACING = {"N": "▲", "E": "▶", "S": "▼", "W": "◀"}
PHASES = {
    "pick": "pick a pair",
    "order": "choose who places first",
    "place": "place a warrior",
    "finish": "turn the warrior, keep crystals",
    "over": "the match is over",
}


def render_maatatahay(view: JSON) -> RenderableType:
    """The board and the side panel, side by side when the terminal is wide enough."""
    tribes = _tribes(view)
    return Columns([board_table(view, tribes), side_panel(view, tribes)], padding=(0, 2))


def _tribes(view: Mapping[str, Any]) -> list[str]:
    names = view.get("tribes") or ["Balan", "Wazu"]
    return [str(name) for name in names]


def _tribe(tribes: Sequence[str], seat: Any) -> Text:
    if isinstance(seat, int) and 0 <= seat < len(tribes):
        return Text(tribes[seat], style=TRIBE_STYLES[seat % len(TRIBE_STYLES)])
    return Text("—", style="dim")


def arrows_text(directions: Sequence[str]) -> str:
    """Support arrows as glyphs, e.g. ``["N", "NE", "E"]`` -> ``"↑↗→"``."""
    return "".join(ARROWS.get(d, "?") for d in directions)


def crystals_text(energy: int, spirit: int) -> Text:
    """``●2 ○1`` for 2 Energy and 1 Spirit crystal; empty for none."""
    text = Text()
    if energy:
        text.append(f"●{energy}", style=ENERGY_STYLE)
    if spirit:
        if energy:
            text.append(" ")
        text.append(f"○{spirit}", style=SPIRIT_STYLE)
    return text


def tile_text(tile: Mapping[str, Any]) -> str:
    """A tile of the stream in one line: ``Warrior ⚔2 ◆1 ↑↓`` (plus its ability)."""
    parts = [str(tile.get("name", "?")), f"⚔{tile.get('fangs', 0)}", f"◆{tile.get('diamonds', 0)}"]
    arrows = arrows_text(tile.get("arrows") or [])
    if arrows:
        parts.append(arrows)
    ability = tile.get("ability")
    if ability and str(ability).lower() not in str(tile.get("name", "")).lower():
        parts.append(f"({ability})")
    return " ".join(parts)


def space_cell(
    space: Mapping[str, Any],
    tribes: Sequence[str],
    *,
    hot: bool = False,
    relic_cost: Sequence[int] | None = None,
) -> Text:
    """Three lines for one space of the map.

    ``hot`` marks the warrior being placed (the hot tile); ``relic_cost`` is what an
    unclaimed relic here costs each seat.
    """
    warrior = space.get("warrior")
    lines = Text()
    if warrior:
        seat = warrior.get("seat")
        style = TRIBE_STYLES[seat % 2] if isinstance(seat, int) else ""
        initial = tribes[seat][0] if isinstance(seat, int) and seat < len(tribes) else "?"
        if not warrior.get("alive", True):
            lines.append(f"{initial} ", style=style)
            lines.append("face down", style="dim")
            lines.append("\n✝ dead", style="dim")
            spirit = int(warrior.get("spirit", 0))
            lines.append("\n")
            lines.append_text(crystals_text(0, spirit))
            return lines
        facing = FACING.get(str(warrior.get("facing", "")), "")
        lines.append(f"{initial} {str(warrior.get('name', '?'))[:10]}", style=style)
        lines.append(f"\n⚔{warrior.get('strength', 0)} ◆{warrior.get('diamonds', 0)} {facing}")
        if warrior.get("surrounded"):
            lines.append(" !", style="bold red")
        if hot:
            lines.append(" hot", style="bold yellow")
        arrows = arrows_text(warrior.get("arrows") or [])
        lines.append(f"\n{arrows}")
        crystals = crystals_text(int(warrior.get("energy", 0)), int(warrior.get("spirit", 0)))
        if crystals:
            lines.append(" " if arrows else "")
            lines.append_text(crystals)
        return lines
    if space.get("relic"):
        lines.append("⌂ relic", style=RELIC_STYLE)
        if relic_cost:
            costs = " ".join(f"{tribes[s][0]}{c}" for s, c in enumerate(relic_cost))
            lines.append(f"\ncost {costs}", style="yellow")
        else:
            lines.append("\n")
    else:
        lines.append("\n")
    lines.append("\n")
    lying = space.get("crystals") or {}
    lines.append_text(crystals_text(int(lying.get("energy", 0)), int(lying.get("spirit", 0))))
    return lines


def board_table(view: Mapping[str, Any], tribes: Sequence[str]) -> Table:
    """The 5x5 map, rank 5 at the top, with file letters and rank numbers around it."""
    table = Table(box=box.SQUARE, show_lines=True, padding=(0, 1), show_header=True)
    table.add_column("", justify="right", vertical="middle", style="bold")
    for file in FILES:
        table.add_column(file, justify="left", min_width=12, max_width=12, header_style="bold")
    board = view.get("board") or []
    costs = view.get("relic_costs") or {}
    for row in reversed(range(SIZE)):
        cells: list[RenderableType] = [str(row + 1)]
        for col in range(SIZE):
            index = row * SIZE + col
            if index >= len(board):
                cells.append(Text())
                continue
            name = board[index].get("space", "")
            cell = space_cell(
                board[index], tribes, hot=name == view.get("hot"), relic_cost=costs.get(name)
            )
            cells.append(cell)
        table.add_row(*cells)
    return table


def status_line(view: Mapping[str, Any], tribes: Sequence[str]) -> Text:
    phase = str(view.get("phase", "?"))
    text = Text(f"Round {view.get('round', '?')} · ", style="bold")
    text.append(PHASES.get(phase, phase))
    deciding = view.get("deciding") or []
    if deciding:
        text.append(" · to decide: ")
        for i, seat in enumerate(deciding):
            if i:
                text.append(", ")
            text.append_text(_tribe(tribes, seat))
    return text


def _scores_line(view: Mapping[str, Any], tribes: Sequence[str]) -> Text:
    scores = view.get("scores") or []
    text = Text("Scores: ", style="bold")
    for seat, score in enumerate(scores):
        if seat:
            text.append("  ")
        text.append_text(_tribe(tribes, seat))
        text.append(f" {score}")
    return text


def seats_table(view: Mapping[str, Any], tribes: Sequence[str]) -> Table:
    """Per seat: storage, relics, warriors lost, tiles left in the deck."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("")
    for seat in range(len(tribes)):
        table.add_column(_tribe(tribes, seat), justify="left")
    storage = view.get("storage") or []
    relics = view.get("relics") or []
    lost = view.get("lost") or []
    decks = view.get("decks") or []

    def row(label: str, values: Sequence[RenderableType]) -> None:
        table.add_row(label, *values)

    row(
        "storage",
        [
            crystals_text(int(s.get("energy", 0)), int(s.get("spirit", 0))) or Text("—")
            for s in storage
        ],
    )
    row(
        "relics",
        [f"{len(r)} " + (f"(#{', #'.join(str(i) for i in r)})" if r else "") for r in relics],
    )
    row("warriors lost", [f"{n} (6 end the match)" for n in lost])
    row("deck", [str(n) for n in decks])
    return table


def stream_lines(view: Mapping[str, Any], tribes: Sequence[str]) -> Text:
    text = Text()
    pair = view.get("pair")
    if pair:
        text.append("Picked: ", style="bold")
        _append_pair(text, pair, tribes)
        text.append("\n")
    stream = view.get("stream") or []
    text.append("Stream:", style="bold")
    if not stream:
        text.append(" empty", style="dim")
    for number, candidate in enumerate(stream, start=1):
        text.append(f"\n {number}) ")
        _append_pair(text, candidate, tribes)
    return text


def _append_pair(text: Text, pair: Sequence[Mapping[str, Any]], tribes: Sequence[str]) -> None:
    for seat, tile in enumerate(pair):
        if seat:
            text.append(" | ")
        initial = tribes[seat][0] if seat < len(tribes) else "?"
        text.append(f"{initial}: ", style=TRIBE_STYLES[seat % 2])
        text.append(tile_text(tile))


def spirit_track(view: Mapping[str, Any]) -> Text:
    position = int(view.get("spirit_track", 0))
    shown = min(position, SPIRIT_TRACK_END)
    text = Text("Spirit Track: ", style="bold")
    text.append("■" * shown, style=SPIRIT_STYLE)
    text.append("□" * (SPIRIT_TRACK_END - shown), style="dim")
    text.append(f" {position}")
    return text


def side_panel(view: Mapping[str, Any], tribes: Sequence[str]) -> RenderableType:
    lines: list[RenderableType] = [status_line(view, tribes)]
    who = Text()
    for label, key in (("active", "active"), ("order by", "decider"), ("first", "first")):
        seat = view.get(key)
        if seat is not None:
            who.append(f"{label}: ")
            who.append_text(_tribe(tribes, seat))
            who.append("  ")
    if who:
        lines.append(who)
    lines.append(_scores_line(view, tribes))
    lines.append(seats_table(view, tribes))
    lines.append(spirit_track(view))
    bag = view.get("bag") or {}
    lines.append(
        Text(
            f"Bag: ●{bag.get('energy', 0)} ○{bag.get('spirit', 0)}   "
            f"Supply: ●{view.get('supply', 0)}",
            style="dim",
        )
    )
    lines.append(stream_lines(view, tribes))
    outcome = view.get("outcome")
    if outcome:
        lines.append(Text(outcome_text(outcome, tribes), style="bold green"))
    title = escape(str(view.get("game", "maatatahay")))
    return Panel(Group(*lines), title=title, box=box.ROUNDED, expand=False)


def outcome_text(outcome: Mapping[str, Any], tribes: Sequence[str]) -> str:
    winners = outcome.get("winners") or []
    names = [tribes[w] if isinstance(w, int) and w < len(tribes) else str(w) for w in winners]
    who = "Draw" if not names else " and ".join(names) + " win" + ("s" if len(names) == 1 else "")
    return f"{who} ({outcome.get('reason', '?')})"


HELP = """\
[bold]Orders[/] (type the option's number or its notation):
  [bold]pick 2[/]         pick pair 2 of the stream (1-3)
  [bold]first W[/]        say who places first: B (Balan) or W (Wazu)
  [bold]c3[/]             place the warrior on the free space c3 (files a-e, ranks 1-5)
  [bold]c3 s2[/]          place it on the Temple Relic at c3, paying 2 Spirit crystals
                 (the rest of its cost in Energy)
  [bold]E keep 1e2s[/]    turn the warrior to face N, E, S or W and keep 1 Energy and 2 Spirit
                 crystals in storage; every other stored crystal goes onto the warrior
[bold]Key to the board[/]:
  B / W          the warrior's tribe (Balan in blue, Wazu in orange)
  ⚔3             its strength          ◆1   its printed diamonds
  ▲ ▶ ▼ ◀        the way it faces      ↑ ↗ → ... its support arrows, turned as it faces
  ●2             2 Energy crystals     ○1   1 Spirit crystal (on a warrior, a space, in
                 storage or in the bag)
  [bold red]![/]              the warrior is completely surrounded orthogonally (no vacant
                 neighbour): it must fight alone
  hot            the warrior being placed this turn
  ✝ face down    a dead warrior, with the Spirit crystals left on it
  ⌂ relic        an unclaimed Temple Relic; "cost B2 W1" is what each tribe pays for it
  ■■□□□□ 2       the Spirit Track and where it stands
  Stream 1) ...  the pairs to pick from: each tribe's tile, name ⚔ strength ◆ diamonds
                 and arrows"""
"""The in-game ``help``: Maatatahay's order forms and the key to the board's marks."""

DRAWING = BoardDrawing(render_maatatahay, help=HELP)
"""Maatatahay's terminal drawing (its kit names this module)."""
