"""The Manafields battlefield in the terminal, drawn from a seat's view.

The grid with files a-j and ranks 1-12 (a1 bottom-left, seat 0's edge). Each square is three
characters: a unit shows its letter and HP (``C6``), red for seat 0 and cyan for seat 1,
a General underlined; terrain is ``###``; an objective square shows ``◇`` (after a unit's HP
when one stands on it) and a square of a deployment zone ``:``, each with a background colour
as well, so both show on a terminal without colour. Beside it: turn, OP and Morale, score and
lead, objective control, and a roster of every living unit with its stats and what it did this turn.
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
OBJECTIVE_MARK = "◇"
ZONE_MARK = ":"
ORDINALS = ("first", "second")


def side_names(view: Mapping[str, Any]) -> list[str]:
    """What the two seats are called: their factions, and in a mirror match (both the same
    faction) which of them plays first: ``Elves (first)``, ``Elves (second)``."""
    names = [str(f).title() for f in view["factions"]]
    if len(set(names)) < len(names):
        return [f"{name} ({ORDINALS[seat]})" for seat, name in enumerate(names)]
    return names


def unit_label(unit: Mapping[str, Any]) -> str:
    """A unit's name and kind: ``Bladedancers (infantry)``, ``High Warden (General)``."""
    kind = str(unit["kind"])
    if unit["general"]:
        return (
            f"{unit['name']} (General)"
            if kind == "general"
            else f"{unit['name']} ({kind}, General)"
        )
    return f"{unit['name']} ({kind})"


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
                label = f"{unit['slot']}{unit['hp']}"
                mark = OBJECTIVE_MARK if name in objective else " "
                text.append(f"{label}{mark}"[:3].ljust(3), style=f"{style} {bg}".strip())
            else:
                mark = OBJECTIVE_MARK if name in objective else ZONE_MARK if name in zones else "·"
                text.append(f" {mark} ", style=bg or None)
        text.append("\n")
    text.append("   " + "".join(f" {f} " for f in files))
    return text


def _over_words(
    outcome: Mapping[str, Any], factions: Sequence[str], view: Mapping[str, Any]
) -> str:
    """How the match ended: who won and how, with the lead it ended on ("by a lead of 14":
    the rule wins at 12 or more, so the last turn's points can take it past 12)."""
    winners = outcome.get("winners") or []
    if not winners:
        return "a draw at the turn limit"
    winner = int(winners[0])
    if outcome.get("reason") == "lead":
        score = view["score"]
        lead = score[winner] - score[1 - winner]
        return f"{factions[winner]} win by a lead of {lead} ({view['lead_to_win']} or more wins)"
    if outcome.get("reason") == "turn_limit":
        return f"{factions[winner]} win on score at the turn limit"
    return f"{factions[winner]} win ({outcome.get('reason')})"


def _status(view: Mapping[str, Any]) -> Table:
    table = Table.grid(padding=(0, 1))
    factions: Sequence[str] = side_names(view)
    width = max(len(name) for name in factions)
    score, morale = view["score"], view["morale"]
    outcome = view.get("outcome")
    if outcome:
        table.add_row(Text(f"Over: {_over_words(outcome, factions, view)}", style="bold green"))
    else:
        active = int(view["active"])
        table.add_row(
            Text(
                f"Round {view['round']}/{view['turn_limit']} · {factions[active]} to"
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
                f"{factions[seat]:{width}} score {score[seat]:>2} (lead {lead:+d},"
                f" {view['lead_to_win']} wins) · Morale {morale[seat]}/5"
                f" · next {view['points_now'][seat]}",
                style=SEAT_STYLES[seat],
            )
        )
    held = []
    for objective in view["board"]["objectives"]:
        owner = objective["controller"]
        held.append(f"{objective['name']}: {'-' if owner is None else factions[owner]}")
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
            unit_label(unit),
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


HELP = """\
[bold]Orders[/] (type the option's number or its notation; [bold]moves[/] lists them all):
  [bold]move A e5[/]       Move Order: unit A moves to e5
  [bold]fight A G[/]       Fight Order: unit A attacks the adjacent unit G
  [bold]shoot A G[/]       Shoot Order: unit A shoots at unit G in range
  [bold]ability B G[/]     Heroic Ability Order: Hero B uses its ability on unit G
  [bold]faction[/]         the Faction Ability Order (5 Morale); then [bold]teleport A e5[/]
                  (Elves: teleport unit A to e5) or [bold]explode A[/] (Undead: Zombie A
                  blows up), and [bold]done[/] to stop picking units
  [bold]end[/]             end the turn (scoring follows)
  Units are letters: A-F the army that starts as the first seat's, G-L the second's.
  Squares are a1-j12, a1 at the first seat's bottom-left.
[bold]Key to the battlefield[/]:
  C6              unit C with 6 HP (first seat red, second cyan; a General underlined)
  ###             impassable terrain
  ◇               an objective square (C6◇: unit C stands on one)
  :               a square of a deployment zone
  ·               an empty square
  score 3 (lead +1, 12 wins)   the side's score and its lead over the other side;
                  a lead of 12 or more when a turn ends wins
  Morale 2/5      1 for each enemy unit destroyed, up to 5; 5 pays for the Faction Ability
  next 3          what the side would score if its turn ended now
  OP              Order Points left this turn (3 a turn; most orders cost 1, a Shoot 2)
  done            what the unit did this turn (moved, fought, shot, used ability) and
                  what lies on it (warded, blessed, inspired)"""
"""The in-game ``help``: Manafields' order forms and the key to the battlefield's marks."""

DRAWING = BoardDrawing(render_manafields, help=HELP)
"""Manafields' terminal drawing (its kit names this module)."""
