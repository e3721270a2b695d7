"""The Manafields battlefield in the terminal, drawn from a seat's view.

The grid with files a-j and ranks 1-12 (a1 bottom-left, seat 0's edge). Each square is three
characters: a unit shows its letter and HP (``C6``), red for seat 0 and cyan for seat 1,
a General underlined; terrain is ``###``; objective squares have a yellow background and
deployment zones a dim one. Beside it: turn, OP and Morale, score and lead, objective
control, and a roster of every living unit with its stats and what it did this turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.kit import BoardDrawing
from meeple.core.types import JSON

SEAT_STYLES = ("bold red", "bold cyan")
OBJECTIVE_BG = "on grey23"
ZONE_BG = "on grey11"
TERRAIN_STYLE = "grey50"


def _grid(view: Mapping[str, Any]) -> Text:
    board = view["board"]
    width, height = int(board["width"]), int(board["height"])
    terrain = set(board["terrain"])
    objective = {s for o in board["objectives"] for s in o["squares"]}
    zones = set(board["zones"][0]) | set(board["zones"][1])
    units = {u["square"]: u for u in view["units"] if u["alive"]}
    files = "abcdefghijklmnopqrstuvwxyz"[:width]
    text = Text()
    for row in range(height, 0, -1):
        text.append(f"{row:>2} ")
        for col in range(width):
            name = f"{files[col]}{row}"
            bg = OBJECTIVE_BG if name in objective else ZONE_BG if name in zones else ""
            if name in terrain:
                text.append("###", style=f"{TERRAIN_STYLE} {bg}".strip())
            elif name in units:
                unit = units[name]
                style = SEAT_STYLES[int(unit["owner"])]
                if unit["general"]:
                    style += " underline"
                text.append(f"{unit['slot']}{unit['hp']:<2}", style=f"{style} {bg}".strip())
            else:
                text.append(" · ", style=bg or None)
        text.append("\n")
    text.append("   " + "".join(f" {f} " for f in files))
    return text


def _status(view: Mapping[str, Any]) -> Table:
    table = Table.grid(padding=(0, 1))
    factions: Sequence[str] = view["factions"]
    score, morale = view["score"], view["morale"]
    outcome = view.get("outcome")
    if outcome:
        winners = outcome.get("winners") or []
        head = "draw" if not winners else f"{factions[winners[0]].title()} win"
        table.add_row(Text(f"Over: {head} ({outcome.get('reason')})", style="bold green"))
    else:
        active = int(view["active"])
        table.add_row(
            Text(
                f"Round {view['round']}/{view['turn_limit']} · {factions[active].title()} to"
                f" play · {view['op']} OP",
                style=SEAT_STYLES[active],
            )
        )
        if view.get("picks"):
            table.add_row(Text(f"Faction Ability: {view['picks']} pick(s) left", style="yellow"))
        if view.get("elf_free"):
            table.add_row(Text(f"{view['elf_free']} may move for free now", style="yellow"))
    for seat in (0, 1):
        lead = score[seat] - score[1 - seat]
        table.add_row(
            Text(
                f"{factions[seat].title():7} score {score[seat]:>2} (lead {lead:+d}/"
                f"{view['lead_to_win']}) · Morale {morale[seat]}/5"
                f" · next {view['points_now'][seat]}",
                style=SEAT_STYLES[seat],
            )
        )
    held = []
    for objective in view["board"]["objectives"]:
        owner = objective["controller"]
        held.append(f"{objective['name']}: {'-' if owner is None else factions[owner].title()}")
    table.add_row(Text("Objectives " + " · ".join(held)))
    return table


def _roster(view: Mapping[str, Any]) -> Table:
    table = Table(box=None, padding=(0, 1), show_edge=False)
    for column in ("", "unit", "HP", "Spd", "Hit", "Arm", "Dmg", "Rng", "Lv", "done"):
        table.add_column(column)
    for unit in view["units"]:
        if not unit["alive"]:
            continue
        done = [f for f in ("moved", "fought", "shot", "used_ability") if unit[f]]
        effects = [f for f in ("warded", "blessed", "inspired") if unit[f]]
        table.add_row(
            Text(unit["slot"], style=SEAT_STYLES[int(unit["owner"])]),
            f"{unit['name']} ({unit['kind']}{', General' if unit['general'] else ''})",
            f"{unit['hp']}/{unit['max_hp']}",
            str(unit["speed"]),
            f"{unit['to_hit']}+",
            f"{unit['armour']}+",
            str(unit["damage"]),
            str(unit["range"] or "-"),
            str(unit["level"]),
            " ".join(done + effects),
        )
    return table


def render_manafields(view: JSON) -> RenderableType:
    """The grid, the status and the roster of one view."""
    return Group(Columns([_grid(view), _status(view)], padding=(0, 3)), _roster(view))


DRAWING = BoardDrawing(render_manafields)
"""Manafields' terminal drawing (its kit names this module)."""
