"""Steps 2 and 3 of a Maiterra turn: armies march (road fights on the way), then fights.

2. "Armies march: 1 field, or 2 for cavalry (a ride cannot pass another army). Two armies
   marching opposite ways along one edge fight on the road first."
3. "Fights, on any field holding more than one army."

The arithmetic of a fight (strength, dice, casualties) is :mod:`.combat`; this module
decides who fights where and what a fight does to the position.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from meeple.core.outcome import Event
from meeple.games.maiterra.combat import Side, casualties, decide, flank_bonus, remove_units
from meeple.games.maiterra.data import (
    CAVALRY,
    CELL_NAMES,
    MOON,
    NUM_BUILDINGS,
    SOLDIER,
    WALL,
    WORKER_BUILDINGS,
)
from meeple.games.maiterra.rules import MaiterraState


@dataclass(slots=True)
class Group:
    """Units of one seat on the move: from ``origin`` through ``mid`` to ``end``.

    ``blocked``: a ride that stops on ``mid`` ("a ride cannot pass another army")."""

    seat: int
    origin: int
    mid: int
    end: int
    units: list[int]
    blocked: bool = False


@dataclass(slots=True)
class Turn:
    """What the paid orders set in motion, step by step."""

    groups: list[Group] = field(default_factory=list)
    pullbacks: list[Group] = field(default_factory=list)
    claims: list[tuple[int, int]] = field(default_factory=list)
    builds: list[tuple[int, int, int]] = field(default_factory=list)
    trains: list[tuple[int, int, int]] = field(default_factory=list)
    payouts: dict[int, list[int]] = field(default_factory=dict)
    lucky: set[int] = field(default_factory=set)
    rally: set[int] = field(default_factory=set)
    sabotaged: set[int] = field(default_factory=set)
    draws: dict[int, int] = field(default_factory=dict)
    lost_fight: set[int] = field(default_factory=set)  # seats on a side that lost a fight
    arrivals: dict[int, dict[int, set[int]]] = field(default_factory=dict)


# -- 2. marches ----------------------------------------------------------------------------


def march(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """Pull-backs land, then the marches go, by the rules version's ``road_fights``."""
    for group in turn.pullbacks:
        _land(state, group.seat, group.end, group.units)
        events.append(
            Event(
                "pulled_back",
                group.seat,
                {
                    "from": CELL_NAMES[group.origin],
                    "to": CELL_NAMES[group.end],
                    "units": group.units,
                },
            )
        )
    if state.game.rules.road_fights == "first_steps":
        _march_first_steps(state, turn, events)
    else:
        _march_in_steps(state, turn, events)


def _march_first_steps(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """Version 1: road fights between first steps only; a ride stops where an enemy army
    stood before any road fight."""
    standing = _standing(state)
    _road_fights(state, turn, events)
    for group in turn.groups:
        if any(group.units) and group.end != group.mid:
            group.blocked = _enemy_on(state, standing, group.seat, group.mid)
    _arrive(state, turn, events)


def _march_in_steps(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """ "Armies march: 1 field, or 2 for cavalry (a ride cannot pass another army). Two
    armies marching opposite ways along one edge fight on the road first."

    Every march takes its first step; road fights on every edge that enemies cross both
    ways in it. A ride then stops on its middle field if an enemy army stands there (one
    that did not march, pulled back there or was sent home there). The rides that go on
    take their second step: each meets on the road every enemy crossing that edge the
    other way this turn, in its first step or its second. Then everyone arrives.
    """
    _road_fights(state, turn, events, step=1)
    standing = _standing(state)
    for group in turn.groups:
        if any(group.units) and group.end != group.mid:
            group.blocked = _enemy_on(state, standing, group.seat, group.mid)
    _second_step_road_fights(state, turn, events)
    _arrive(state, turn, events)


def _standing(state: MaiterraState) -> list[list[int]]:
    """Units on each field now, per seat (marching units were lifted when paid for)."""
    return [
        [s + c for s, c in zip(state.soldiers[seat], state.cavalry[seat], strict=True)]
        for seat in range(state.seats)
    ]


def _enemy_on(state: MaiterraState, standing: list[list[int]], seat: int, cell: int) -> bool:
    return any(
        standing[other][cell] and not state.allied(other, seat) for other in range(state.seats)
    )


def _arrive(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """Every march still on its way lands: a ride that was stopped on its middle field."""
    for group in turn.groups:
        if not any(group.units):
            continue
        seat, dest, prev = group.seat, group.mid, group.origin
        if group.end != group.mid and not group.blocked:
            dest, prev = group.end, group.mid
        _land(state, seat, dest, group.units)
        turn.arrivals.setdefault(dest, {}).setdefault(seat, set()).add(prev)
        events.append(
            Event(
                "marched",
                seat,
                {"from": CELL_NAMES[group.origin], "to": CELL_NAMES[dest], "units": group.units},
            )
        )


def _land(state: MaiterraState, seat: int, cell: int, units: list[int]) -> None:
    state.soldiers[seat][cell] += units[0]
    state.cavalry[seat][cell] += units[1]


def _road_fights(
    state: MaiterraState, turn: Turn, events: list[Event], *, step: int | None = None
) -> None:
    """ "armies marching opposite ways along one edge fight before either arrives, with no
    walls and no Rally, both at their attack strength. The winner marches on with what is
    left; the loser stays home." Pull-backs are not in ``turn.groups``: never caught.

    First steps: every group crossing from ``a`` to ``b`` left ``a``, so each way of an edge
    is one side; edges go in board order (lower field first). ``step`` is written into the
    events from version 2 on (``None``: version 1's events, unchanged).
    """
    edges: dict[tuple[int, int], list[Group]] = {}
    for group in turn.groups:
        edges.setdefault((group.origin, group.mid), []).append(group)
    for (a, b), forward in sorted(edges.items()):
        if a > b or (b, a) not in edges:
            continue
        _road_fight(
            state, turn, events, edge=(a, b), forward=forward, backward=edges[(b, a)], step=step
        )


def _second_step_road_fights(state: MaiterraState, turn: Turn, events: list[Event]) -> None:
    """The rides' second steps meet, on each edge a second step crosses, every enemy
    crossing it the other way this turn: a first step (a march, or another ride's first
    step) or a second step. Edges go in board order (lower field first); on an edge, the
    sides going from the lower field to the higher in side order, each against the sides
    coming the other way in side order. A side beaten on the road has gone home and meets
    nobody after; first steps that already met are never both still on the road.
    """
    ways: dict[tuple[int, int], dict[int, list[Group]]] = {}
    second: set[tuple[int, int]] = set()
    for group in turn.groups:
        if not any(group.units):
            continue
        steps = [(group.origin, group.mid)]
        if group.end != group.mid and not group.blocked:
            steps.append((group.mid, group.end))
            second.add((min(group.mid, group.end), max(group.mid, group.end)))
        for way in steps:
            ways.setdefault(way, {}).setdefault(state.side[group.seat], []).append(group)
    for a, b in sorted(second):
        forward, backward = ways.get((a, b), {}), ways.get((b, a), {})
        for one in sorted(forward):
            for two in sorted(backward):
                if one != two:
                    _road_fight(
                        state,
                        turn,
                        events,
                        edge=(a, b),
                        forward=forward[one],
                        backward=backward[two],
                        step=2,
                    )


def _road_fight(
    state: MaiterraState,
    turn: Turn,
    events: list[Event],
    *,
    edge: tuple[int, int],
    forward: list[Group],
    backward: list[Group],
    step: int | None,
) -> None:
    """One road fight between the groups crossing ``edge`` one way and those crossing it
    the other way, if both still have units and are enemies."""
    forward = [group for group in forward if any(group.units)]
    backward = [group for group in backward if any(group.units)]
    if not forward or not backward:
        return
    one = _road_side(state, forward, turn)
    two = _road_side(state, backward, turn)
    if one.side == two.side or not one.units() or not two.units():
        return
    winner = decide([one, two], state.rng, state.game.rules)
    loser = two if winner is one else one
    lost = casualties(winner, [loser])
    winner_losses = remove_units(winner.members, lost)
    half = loser.units() - loser.units() // 2
    loser_losses = remove_units(loser.members, half)
    for seat in loser.members:
        turn.lost_fight.add(seat)
    _share_road_losses(forward if winner is one else backward, winner_losses)
    home = backward if winner is one else forward
    _share_road_losses(home, loser_losses)
    for group in home:
        _land(state, group.seat, group.origin, group.units)
        group.units = [0, 0]
    data: dict[str, object] = {
        "edge": [CELL_NAMES[edge[0]], CELL_NAMES[edge[1]]],
        "sides": [_side_json(one), _side_json(two)],
        "winner": sorted(winner.members),
        "winner_lost": _losses_json(winner_losses),
        "loser_lost": _losses_json(loser_losses),
    }
    if step is not None:
        data["step"] = step
    events.append(Event("road_fight", None, data))


def _road_side(state: MaiterraState, groups: list[Group], turn: Turn) -> Side:
    members: dict[int, list[int]] = {}
    for group in groups:
        stack = members.setdefault(group.seat, [0, 0])
        stack[0] += group.units[0]
        stack[1] += group.units[1]
    first = groups[0].seat
    attack = state.game.tables.attack
    base = sum(s * attack[SOLDIER] + c * attack[CAVALRY] for s, c in members.values())
    return Side(state.side[first], members, base, lucky=bool(turn.lucky & set(members)))


def _share_road_losses(groups: list[Group], losses: dict[int, list[int]]) -> None:
    for seat, (soldiers, cavalry) in losses.items():
        due = [soldiers, cavalry]
        for group in groups:
            if group.seat != seat:
                continue
            for kind in (0, 1):
                take = min(due[kind], group.units[kind])
                group.units[kind] -= take
                due[kind] -= take


def _side_json(side: Side) -> dict[str, object]:
    return {
        "seats": sorted(side.members),
        "units": {str(s): list(u) for s, u in sorted(side.members.items())},
        "strength": side.base,
        "roll": side.roll,
        "total": side.total,
        "defender": side.defender,
    }


def _losses_json(losses: dict[int, list[int]]) -> dict[str, list[int]]:
    return {str(seat): list(units) for seat, units in sorted(losses.items())}


# -- 3. fights -----------------------------------------------------------------------------


def fight(state: MaiterraState, cell: int, turn: Turn, events: list[Event]) -> None:
    """A fight on ``cell`` if more than one side is there (walls count as the owner).

    Who lost it (for the Star's card): every seat with units on a losing side; from
    version 2 (``star_card``: ``any_lost_fight``) also the owner when its side lost, though
    no unit of its own stood there ("An empty walled field still fights with its walls").
    """
    seats = state.seats
    owner = state.owner[cell]
    owner_side = state.side[owner] if owner >= 0 else -1
    sides: dict[int, Side] = {}
    for seat in range(seats):
        soldiers, cavalry = state.soldiers[seat][cell], state.cavalry[seat][cell]
        if soldiers or cavalry:
            side = sides.setdefault(state.side[seat], Side(state.side[seat], {}))
            side.members[seat] = [soldiers, cavalry]
    walls = state.building(cell, WALL) if owner >= 0 else 0
    rally = owner >= 0 and owner in turn.rally
    if owner >= 0 and owner_side not in sides and (walls or rally) and sides:
        sides[owner_side] = Side(owner_side, {})
    if len(sides) == 1:
        (only,) = sides.values()
        if owner >= 0 and only.side != owner_side:
            _conquer(state, cell, _leader(only.members), turn, events, fought=False)
        return
    if not sides:
        return
    arrivals = turn.arrivals.get(cell, {})
    for side in sides.values():
        _strength(
            state,
            side,
            owner_side=owner_side,
            walls=walls,
            rally=rally,
            arrivals=arrivals,
            turn=turn,
        )
    ordered = [sides[key] for key in sorted(sides)]
    winner = decide(ordered, state.rng, state.game.rules)
    losers = [side for side in ordered if side is not winner]
    for side in losers:
        for seat in side.members:
            state.soldiers[seat][cell] = 0
            state.cavalry[seat][cell] = 0
            turn.lost_fight.add(seat)
        if side.side == owner_side and state.game.rules.star_card == "any_lost_fight":
            # The owner fights on its field even with no unit there: its walls, its Rally,
            # or its allies' units defend it.
            turn.lost_fight.add(owner)
    losses = remove_units(winner.members, casualties(winner, losers))
    for seat, (soldiers, cavalry) in losses.items():
        state.soldiers[seat][cell] -= soldiers
        state.cavalry[seat][cell] -= cavalry
    events.append(
        Event(
            "fight",
            None,
            {
                "field": CELL_NAMES[cell],
                "owner": owner if owner >= 0 else None,
                "sides": [_side_json(side) for side in ordered],
                "winner": sorted(winner.members) or [owner],
                "winner_lost": _losses_json(losses),
            },
        )
    )
    if owner >= 0 and winner.side != owner_side:
        if walls:
            events.append(Event("breach", None, {"field": CELL_NAMES[cell]}))
        _conquer(state, cell, _leader(winner.members), turn, events, fought=True)


def _strength(
    state: MaiterraState,
    side: Side,
    *,
    owner_side: int,
    walls: int,
    rally: bool,
    arrivals: dict[int, set[int]],
    turn: Turn,
) -> None:
    """ "A side's strength is its units as above, plus 3 for each wall on the field it
    owns." The owner's side defends; everyone else attacks, with flanking."""
    side.lucky = bool(turn.lucky & set(side.members)) or (
        not side.members and owner_side >= 0 and bool(turn.lucky & _members(state, owner_side))
    )
    rules, tables = state.game.rules, state.game.tables
    if side.side == owner_side:
        defence = tables.defence
        side.defender = True
        total = 0
        for seat, (soldiers, cavalry) in side.members.items():
            cavalry_defence = (
                rules.moon_cavalry_defence if state.house[seat] == MOON else defence[CAVALRY]
            )
            total += soldiers * defence[SOLDIER] + cavalry * cavalry_defence
        if walls:
            total += rules.wall_bonus * walls
            side.walls = walls
        elif rally:
            total += rules.wall_bonus  # "Rally: your fields defend as if walled."
        side.base = total
        return
    attack = tables.attack
    directions: set[int] = set()
    total = 0
    for seat, (soldiers, cavalry) in side.members.items():
        total += soldiers * attack[SOLDIER] + cavalry * attack[CAVALRY]
        directions |= arrivals.get(seat, set())
    side.detail["flanking"] = flank_bonus(len(directions), rules)
    side.base = total + side.detail["flanking"]


def _members(state: MaiterraState, side: int) -> set[int]:
    return {seat for seat in range(state.seats) if state.side[seat] == side}


def _leader(members: dict[int, list[int]]) -> int:
    """The member with the most units (ties: the lower seat) takes a field."""
    return max(members, key=lambda seat: (sum(members[seat]), -seat))


def _conquer(
    state: MaiterraState, cell: int, seat: int, turn: Turn, events: list[Event], *, fought: bool
) -> None:
    """ "Taking a field razes every building on it, and each conquest draws you a card." """
    old = state.owner[cell]
    base = cell * NUM_BUILDINGS
    razed = {
        name: state.buildings[base + kind]
        for kind, name in enumerate(b.name for b in state.game.rules.buildings)
        if state.buildings[base + kind]
    }
    workers = sum(state.buildings[base + kind] for kind in WORKER_BUILDINGS)
    # The people working there are lost with their buildings (a Decision).
    state.people[old] = max(0, state.people[old] - workers)
    for kind in range(NUM_BUILDINGS):
        state.buildings[base + kind] = 0
    state.owner[cell] = seat
    turn.draws[seat] = turn.draws.get(seat, 0) + 1
    events.append(
        Event(
            "conquest",
            seat,
            {"field": CELL_NAMES[cell], "from": old, "razed": razed, "fought": fought},
        )
    )
