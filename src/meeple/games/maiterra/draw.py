"""Lakeland in the terminal, drawn from a seat's view, and a turn's results as a report.

The map is the 5 x 5 hex grid of the orders (odd rows pushed half a field right). Each
field is three lines in its owner's colour: its cell and terrain, its buildings (one letter
each, see ``BUILDING_LETTERS``) and the armies on it (``R3+1``: Red, 3 soldiers and 1
cavalry). Lakes are blue waves. Beside it: turn, points against the target, every seat's
stores, cards and whether it has ended the turn, and the viewer's own queue and hand --
another seat's queued orders are sealed, so it shows only "planning" or "ended".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.core.kit import BoardDrawing
from meeple.core.outcome import Event
from meeple.core.types import JSON

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow")
LAKE_STYLE = "blue"
FREE_STYLE = "grey62"
CELL_WIDTH = 11
GRID = 5
FILES = "abcde"
RESOURCES = ("food", "wood", "brick", "coins")
BUILDING_LETTERS = {
    "farm": "F",
    "sawmill": "S",
    "brickworks": "B",
    "house": "H",
    "wall": "W",
    "barracks": "K",
    "science": "C",
}
LEGEND = "F farm  S sawmill  B brickworks  H house  W wall  K barracks  C science  (+n cavalry)"


def _style(seat: int | None) -> str:
    return FREE_STYLE if seat is None else SEAT_STYLES[seat % len(SEAT_STYLES)]


def _field_lines(field: Mapping[str, Any], tribes: Sequence[str]) -> tuple[str, str, str]:
    name, terrain = str(field["field"]), str(field["terrain"])
    buildings = "".join(
        BUILDING_LETTERS.get(kind, "?") * int(count)
        for kind, count in field.get("buildings", {}).items()
    )
    armies = " ".join(
        f"{tribes[int(seat)][0]}{soldiers}" + (f"+{cavalry}" if cavalry else "")
        for seat, (soldiers, cavalry) in field.get("armies", {}).items()
    )
    return f"{name} {terrain[:6]}", buildings, armies


def render_map(view: Mapping[str, Any]) -> Text:
    """The hex map; rows below the last land row (off a smaller map) are left out."""
    tribes: Sequence[str] = view["tribes"]
    fields = {str(f["field"]): f for f in view["board"]}
    rows = max((int(name[1]) for name in fields), default=0)
    text = Text()
    half = " " * (CELL_WIDTH // 2 + 1)
    for row in range(1, rows + 1):
        for line in range(3):
            text.append(half if row % 2 == 0 else "")
            for col in range(GRID):
                name = f"{FILES[col]}{row}"
                field = fields.get(name)
                if field is None:
                    body = f"{name} lake" if line == 0 else "~" * (CELL_WIDTH - 2)
                    text.append(f"{body:<{CELL_WIDTH}} ", style=LAKE_STYLE)
                    continue
                owner = field.get("owner")
                part = _field_lines(field, tribes)[line]
                style = _style(None if owner is None else int(owner))
                text.append(f"{part:<{CELL_WIDTH}.{CELL_WIDTH}} ", style=style)
            text.append("\n")
    text.append(LEGEND, style="dim")
    return text


def _teamed(view: Mapping[str, Any]) -> bool:
    """Whether the match is played in teams (some side holds two or more seats)."""
    sides: Sequence[int] = view["sides"]
    return any(sides.count(side) > 1 for side in sides)


def _allies(view: Mapping[str, Any], seat: int) -> list[str]:
    """The tribes on ``seat``'s team other than its own."""
    sides: Sequence[int] = view["sides"]
    tribes: Sequence[str] = view["tribes"]
    return [tribes[s] for s, side in enumerate(sides) if side == sides[seat] and s != seat]


def _teams(view: Mapping[str, Any]) -> Text | None:
    """The teams, once each: who is allied with whom, their shared points and target."""
    if not _teamed(view):
        return None
    sides: Sequence[int] = view["sides"]
    text = Text("Teams: ", style="bold")
    for number, side in enumerate(dict.fromkeys(sides)):
        members = [s for s, own in enumerate(sides) if own == side]
        if number:
            text.append(" · ")
        for index, seat in enumerate(members):
            if index:
                text.append(" and " if index == len(members) - 1 else ", ")
            text.append(str(view["tribes"][seat]), style=_style(seat))
        key = str(side)
        together = " together" if len(members) > 1 else ""
        text.append(f" {view['side_points'][key]}/{view['targets'][key]} points{together}")
    return text


def _status(view: Mapping[str, Any]) -> Table:
    viewer = view.get("seat")
    sides: Sequence[int] = view["sides"]
    teamed = _teamed(view)
    table = Table(box=None, padding=(0, 1), show_edge=False)
    columns = ("seat", *(("ally",) if teamed else ()), "house", "points", *RESOURCES)
    for column in (*columns, "people", "cards", "turn"):
        table.add_column(column, justify="left" if column in ("seat", "ally", "house") else "right")
    for row in view["seats"]:
        seat = int(row["seat"])
        side = str(sides[seat])
        # On a team the row holds the seat's own points; the team's are under Teams.
        points = f"{row['points']}" if teamed else f"{row['points']}/{view['targets'][side]}"
        ended = row.get("ended")
        state = "-" if ended is None else "ended" if ended else "planning"
        name = str(row["name"]) + (" (you)" if seat == viewer else "")
        table.add_row(
            Text(name, style=_style(seat)),
            *((", ".join(_allies(view, seat)) or "-",) if teamed else ()),
            str(row["house"] or ("locked" if row["house_locked"] else "?")),
            points,
            *(str(row[r]) for r in RESOURCES),
            f"{row['people']} ({row['workers']} at work)",
            str(row["cards"]),
            state,
        )
    return table


def _headline(view: Mapping[str, Any]) -> Text:
    outcome = view.get("outcome")
    tribes: Sequence[str] = view["tribes"]
    if outcome:
        winners = outcome.get("winners") or []
        who = " and ".join(tribes[int(w)] for w in winners) or "nobody"
        return Text(f"Over after turn {view['turn']}: {who} won ({outcome['reason']})", "bold")
    phase = str(view["phase"])
    if phase == "plan":
        head = f"Turn {view['turn']}/{view['turn_limit']} · everyone plans at once"
    elif phase == "draft":
        order = ", ".join(tribes[int(s)] for s in view["draft_order"])
        head = f"Draft · to pick: {order}"
    else:
        head = "Every seat picks a house"
    return Text(head, style="bold")


def _own_plan(view: Mapping[str, Any]) -> Text | None:
    viewer = view.get("seat")
    if viewer is None:
        return None
    row = view["seats"][int(viewer)]
    text = Text()
    queue: Sequence[str] = view["queue"]
    text.append(f"Your orders ({len(queue)}/{view['max_orders']}): ", style="bold")
    text.append(", ".join(queue) if queue else "none yet")
    hand: Sequence[str] = row.get("hand") or []
    text.append("\nYour cards: ", style="bold")
    text.append(", ".join(hand) if hand else "none")
    return text


def render_maiterra(view: JSON) -> RenderableType:
    """The map, every seat's stores and points, and the viewer's own queue and cards."""
    parts: list[RenderableType] = [_headline(view), render_map(view), _status(view)]
    teams = _teams(view)
    if teams is not None:
        parts.append(teams)
    plan = _own_plan(view)
    if plan is not None:
        parts.append(plan)
    return Group(*parts)


# -- a turn's results --------------------------------------------------------------------


def _units(units: Sequence[int]) -> str:
    soldiers, cavalry = int(units[0]), int(units[1])
    words = []
    if soldiers:
        words.append(f"{soldiers} soldier{'s' if soldiers != 1 else ''}")
    if cavalry:
        words.append(f"{cavalry} cavalry")
    return " and ".join(words) or "nobody"


def _losses(losses: Mapping[str, Sequence[int]], tribes: Sequence[str]) -> str:
    lost = [f"{tribes[int(seat)]} {_units(units)}" for seat, units in losses.items() if any(units)]
    return ", ".join(lost) or "nothing"


def _amounts(data: Mapping[str, Any]) -> str:
    return ", ".join(f"{data[r]} {r}" for r in RESOURCES if data.get(r))


def _sentence(event: Event, tribes: Sequence[str]) -> str | None:
    kind, data = event.kind, event.data
    who = tribes[event.seat] if event.seat is not None else ""
    if kind == "orders":
        orders = data["orders"]
        return f"{who} ordered: {', '.join(orders)}" if orders else f"{who} passed"
    if kind == "order_failed":
        return f"{who}: '{data['order']}' could not be paid"
    if kind in ("marched", "pulled_back"):
        verb = "marched" if kind == "marched" else "pulled back"
        return f"{who} {verb} {_units(data['units'])} from {data['from']} to {data['to']}"
    if kind in ("road_fight", "fight"):
        where = f"on the road {'-'.join(data['edge'])}" if kind == "road_fight" else data["field"]
        sides = "; ".join(
            f"{'+'.join(tribes[int(s)] for s in side['seats']) or 'walls'} {side['total']}"
            f" ({side['strength']} + roll {side['roll']})"
            for side in data["sides"]
        )
        winners = [w for w in data["winner"] if w is not None]
        winner = " and ".join(tribes[int(w)] for w in winners) or "nobody"
        return (
            f"Fight {where}: {sides} -> {winner} won, losing {_losses(data['winner_lost'], tribes)}"
        )
    if kind == "breach":
        return f"The wall on {data['field']} was breached"
    if kind == "conquest":
        razed = ", ".join(f"{n} {b}" for b, n in data["razed"].items())
        return f"{who} took {data['field']}" + (f", razing {razed}" if razed else "")
    if kind == "claimed":
        return f"{who} claimed {data['field']}"
    if kind in ("claim_failed", "build_failed", "train_failed"):
        what = data.get("building") or data.get("unit") or "claim"
        return f"{who}: {what} on {data['field']} failed (refunded)"
    if kind == "built":
        return f"{who} built a {data['building']} on {data['field']}"
    if kind == "trained":
        return f"{who} trained a {data['unit']} on {data['field']}"
    if kind == "sabotaged":
        return f"{who}'s {data['field']} was sabotaged"
    if kind == "produced":
        return f"{who} produced {_amounts(data)}"
    if kind == "bank":
        return f"{who} got {_amounts(data)} from the bank"
    if kind == "starvation":
        dead = ", ".join(f"a {unit} on {cell}" for cell, unit in data["killed"])
        return f"{who} starved: {data['missing']} food short, lost {dead or 'nobody'}"
    if kind == "card":
        return f"{who} drew {data['card']}"
    if kind == "cards_drawn":
        return f"{who} drew {data['drawn']} card(s), kept {data['kept']}"
    if kind == "houses":
        return "Houses: " + ", ".join(
            f"{tribes[seat]} {house}" for seat, house in enumerate(data["houses"])
        )
    if kind == "draft_order":
        order = ", ".join(tribes[int(s)] for s in data["order"])
        return f"Draft order: {order}"
    if kind == "drafted":
        return f"{who} drafted {data['field']}"
    return None


def report_maiterra(events: Sequence[Event], view: JSON) -> RenderableType | None:
    """What a turn's resolution (or the house picks, or a draft pick) did, line by line."""
    kinds = {event.kind for event in events}
    if not kinds & {"resolve", "houses", "drafted"}:
        return None
    tribes: Sequence[str] = view["tribes"]
    text = Text()
    for event in events:
        if event.kind == "resolve":
            text.append(f"Turn {event.data['turn']} resolved\n", style="bold underline")
            continue
        sentence = _sentence(event, tribes)
        if sentence is not None:
            style = _style(event.seat) if event.seat is not None else "bold"
            text.append("  " + sentence + "\n", style=style.replace("bold ", ""))
    return text


HELP = """\
[bold]Orders[/] (type the option's number or its notation):
  [bold]house moon[/]              lock in a house: star, tower, sun or moon
  [bold]draft c3[/]                take the free field c3 in the draft
  [bold]march c3 NE[/]             the whole stack on c3 marches one field NE
  [bold]march c3 NE-E cavalry[/]   its cavalry ride NE then E (parts: all, soldiers,
                          cavalry, one: a single soldier)
  [bold]pullback c3 W[/]           pull the stack on c3 back W to a friendly field
  [bold]claim c3[/]                claim the empty field c3 (1 wood, 1 coin)
  [bold]build farm c3[/]           build a farm, sawmill, brickworks, house, wall, barracks
                          or science (in the centre) on c3
  [bold]train cavalry c3[/]        train at the barracks on c3 (soldier or cavalry)
  [bold]trade food for wood[/]     3 food to the bank for 1 wood
  [bold]sell c3[/]                 sell a soldier on c3 for 2 food
  [bold]play speedup c3[/]         play a card: speedup c3, lucky_strike, rally,
                          sabotage c3, prospect brick
  [bold]takeback[/]                take back your last queued order (until you end the turn)
  [bold]end[/]                     end the turn: hand in the queued orders
  Everyone plans at once: orders queue (up to the turn's limit) and resolve together
  after every seat has ended its turn; the others' orders stay sealed until then.
[bold]Key to the map[/] (fields a1-e5, odd rows pushed half a field right):
  c3 forest       the field's name and terrain, in its owner's colour (grey: nobody's)
  F S B H W K C   its buildings: farm, sawmill, brickworks, house, wall, barracks, science
  R3+1            an army: its tribe's initial, 3 soldiers and 1 cavalry
  ~~~~~~~~~       a lake
  points 8/26     the seat's points and the target; in teams, the seat's own points,
                  its ally in the ally column, the team's points under Teams
  planning/ended  whether the seat has ended this turn"""
"""The in-game ``help``: Maiterra's order forms and the key to the map's marks."""

DRAWING = BoardDrawing(render_maiterra, report_maiterra, help=HELP)
"""Maiterra's terminal drawing and its reports of what a turn's resolution did."""
