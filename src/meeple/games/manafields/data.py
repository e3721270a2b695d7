"""The numbers Manafields' rules read, loaded from ``data/rules.json``.

The rule text gives no board, rosters, stat lines, Heroic Abilities or Zombies; all of
them live in that file (see docs/rules/manafields.md, Decisions). This module turns it into
flat lookup tables. Squares are numbered ``row * WIDTH + col`` (row 0 = rank 1, seat 0's
edge; col 0 = file a). For the movement search each square also has a *bit* in a padded
bitboard, ``row * STRIDE + col`` with ``STRIDE = WIDTH + 1``: the padding column is never
free, so shifting a bitboard by one file never wraps round the board's edge.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from meeple.core.squaregrid import (
    DIAGONAL,
    ORTHOGONAL,
    distance,
    parse_square,
    rotate_half_turn,
    square_name,
)

GENERAL, HERO, INFANTRY, CAVALRY, ARCHERS, ZOMBIE = range(6)
KINDS = ("general", "hero", "infantry", "cavalry", "archers", "zombie")
BEATS = {INFANTRY: CAVALRY, CAVALRY: ARCHERS, ARCHERS: INFANTRY}
"""Rock-paper-scissors: each Troop type deals +1 Damage against the type it beats."""

EFFECTS = ("heal", "bolt", "ward", "bless", "inspire", "raise")
HEAL, BOLT, WARD, BLESS, INSPIRE, RAISE = range(len(EFFECTS))
FRIENDLY_EFFECTS = frozenset({HEAL, WARD, BLESS, INSPIRE})

FACTIONS = ("humans", "elves", "orcs", "undead")
HUMANS, ELVES, ORCS, UNDEAD = range(len(FACTIONS))


@dataclass(frozen=True, slots=True)
class Ability:
    """A Hero's Heroic Ability: an effect on one target unit within ``range``."""

    name: str
    effect: int  # index into EFFECTS
    range: int
    amount: int

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "effect": EFFECTS[self.effect],
            "range": self.range,
            "amount": self.amount,
        }


@dataclass(frozen=True, slots=True)
class UnitType:
    """A unit's stat line as printed on its card."""

    id: str  # "humans/0" .. "undead/5", or "zombie"
    name: str
    kind: int  # index into KINDS
    faction: int  # index into FACTIONS, -1 for the Zombie that any enemy can become
    hp: int
    speed: int
    to_hit: int
    armour: int
    damage: int
    range: int
    level: int
    ability: Ability | None
    square: int  # deployment square for seat 0 (-1 for the Zombie)

    @property
    def is_hero(self) -> bool:
        return self.kind <= HERO

    @property
    def is_troop(self) -> bool:
        return INFANTRY <= self.kind <= ARCHERS

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "kind": KINDS[self.kind],
            "hp": self.hp,
            "speed": self.speed,
            "to_hit": self.to_hit,
            "armour": self.armour,
            "damage": self.damage,
            "range": self.range,
            "level": self.level,
            "ability": None if self.ability is None else self.ability.to_json(),
        }


@dataclass(frozen=True, slots=True)
class RuleData:
    width: int
    height: int
    deployment_rows: int
    terrain: frozenset[int]
    objective_names: tuple[str, ...]
    objective_squares: tuple[tuple[int, ...], ...]
    turn: dict[str, int]
    scoring: dict[str, int]
    orders: dict[str, int]
    effects: dict[str, int]
    zombie: UnitType
    faction_titles: tuple[str, ...]
    rosters: tuple[tuple[UnitType, ...], ...]  # per faction, in slot order
    version: int  # the rules version these cards are (``manafields/<version>``)
    roster_versions: dict[int, tuple[tuple[UnitType, ...], ...]]  # every version's rosters

    def rosters_of(self, version: int) -> tuple[tuple[UnitType, ...], ...]:
        """The armies' cards at rules ``version``."""
        try:
            return self.roster_versions[version]
        except KeyError:
            raise ValueError(f"Manafields has no rules version {version}") from None

    def at(self, version: int) -> RuleData:
        """These rules with the cards of rules ``version`` as :attr:`rosters` (the value a
        game of that version holds as ``game.rules``).

        Raises:
            ValueError: when these rules have no cards for ``version``.
        """
        if version == self.version:
            return self
        return dataclasses.replace(self, rosters=self.rosters_of(version), version=version)

    def unit_types(self) -> dict[str, UnitType]:
        """Every unit type of :attr:`rosters` by id: each faction's roster in order, then the
        Zombie."""
        types = {u.id: u for r in self.rosters for u in r}
        types[self.zombie.id] = self.zombie
        return types

    def same_board(self, other: RuleData) -> bool:
        """Whether ``other`` has these rules' board (size, deployment zones, terrain,
        objectives), turn limits (the ``turn_limit`` option's default and bounds) and free
        Move distance: the numbers the square tables and the game's options are built on.
        The cards, scoring, order costs, effects and the rest of the turn may differ."""
        fixed = ("default_turn_limit", "max_turn_limit")
        free = "free_move_if_no_enemy_within"
        return (
            (self.width, self.height, self.deployment_rows, self.terrain)
            == (other.width, other.height, other.deployment_rows, other.terrain)
            and self.objective_squares == other.objective_squares
            and all(self.turn[k] == other.turn.get(k) for k in fixed)
            and self.orders[free] == other.orders.get(free)
        )


def _square(text: str, width: int, height: int) -> int:
    parsed = parse_square(text)
    if parsed is None or not (0 <= parsed[0] < width and 0 <= parsed[1] < height):
        raise ValueError(f"rules.json names no square {text!r}")
    return parsed[1] * width + parsed[0]


def _unit(raw: dict[str, Any], uid: str, faction: int, width: int, height: int) -> UnitType:
    ability = raw.get("ability")
    return UnitType(
        id=uid,
        name=str(raw["name"]),
        kind=KINDS.index(raw["kind"]),
        faction=faction,
        hp=int(raw["hp"]),
        speed=int(raw["speed"]),
        to_hit=int(raw["to_hit"]),
        armour=int(raw["armour"]),
        damage=int(raw["damage"]),
        range=int(raw["range"]),
        level=int(raw["level"]),
        ability=None
        if ability is None
        else Ability(
            name=str(ability["name"]),
            effect=EFFECTS.index(ability["effect"]),
            range=int(ability["range"]),
            amount=int(ability["amount"]),
        ),
        square=_square(raw["square"], width, height) if "square" in raw else -1,
    )


def published_json() -> dict[str, Any]:
    """The published ``data/rules.json``, parsed (a fresh copy each call)."""
    text = resources.files(__package__).joinpath("data/rules.json").read_text("utf-8")
    raw: dict[str, Any] = json.loads(text)
    return raw


def load_rules(text: str | None = None) -> RuleData:
    """Read rules.json (or the given JSON text) into a :class:`RuleData`."""
    return rules_from_json(published_json() if text is None else json.loads(text))


def rules_from_json(raw: dict[str, Any]) -> RuleData:
    """A whole rules file, parsed (the published one's shape), as a :class:`RuleData`.

    Raises:
        ValueError: when the cards break a rule of the board (see :func:`check_board`).
    """
    board = raw["board"]
    width, height = int(board["width"]), int(board["height"])
    version = int(raw.get("version", 1))
    cards = copy.deepcopy(raw["factions"])
    versions = {version: _rosters(cards, width, height)}
    earlier = raw.get("earlier_cards", {})
    for older in range(version - 1, 0, -1):
        for uid, changes in earlier.get(str(older), {}).items():
            faction, _, index = uid.partition("/")
            card = cards[faction]["units"][int(index)]
            for field, value in changes.items():
                if field == "ability":
                    card["ability"].update(value)
                else:
                    card[field] = value
        versions[older] = _rosters(cards, width, height)
    rules = RuleData(
        width=width,
        height=height,
        deployment_rows=int(board["deployment_rows"]),
        terrain=frozenset(_square(s, width, height) for s in board["terrain"]),
        objective_names=tuple(str(o["name"]) for o in board["objectives"]),
        objective_squares=tuple(
            tuple(_square(s, width, height) for s in o["squares"]) for o in board["objectives"]
        ),
        turn={k: int(v) for k, v in raw["turn"].items()},
        scoring={k: int(v) for k, v in raw["scoring"].items()},
        orders={k: int(v) for k, v in raw["orders"].items()},
        effects={k: int(v) for k, v in raw["effects"].items()},
        zombie=_unit(raw["zombie"], "zombie", -1, width, height),
        faction_titles=tuple(str(raw["factions"][f]["title"]) for f in FACTIONS),
        rosters=versions[version],
        version=version,
        roster_versions=versions,
    )
    check_board(rules)
    return rules


def _rosters(cards: dict[str, Any], width: int, height: int) -> tuple[tuple[UnitType, ...], ...]:
    rosters = []
    for index, name in enumerate(FACTIONS):
        units = cards[name]["units"]
        roster = tuple(_unit(u, f"{name}/{i}", index, width, height) for i, u in enumerate(units))
        if [u.kind for u in roster[:2]] != [GENERAL, HERO]:
            raise ValueError(f"{name}: an army lists its General, then its Hero, first")
        rosters.append(roster)
    if len({len(r) for r in rosters}) != 1:
        raise ValueError("every army fields the same number of units (fixed unit slots)")
    return tuple(rosters)


def check_board(rules: RuleData) -> None:
    """The cards fit the board: every army deploys on distinct squares of its zone, none on
    terrain; no objective square holds terrain; no unit is faster than :data:`MAX_SPEED`.

    Raises:
        ValueError: naming the faction or the card that breaks it.
    """
    every = [(f, r) for rosters in rules.roster_versions.values() for f, r in enumerate(rosters)]
    for faction, roster in every:
        squares = [u.square for u in roster]
        in_zone = (0 <= s < rules.width * rules.deployment_rows for s in squares)
        if len(set(squares)) != len(squares) or not all(in_zone):
            raise ValueError(f"{FACTIONS[faction]}: deploy on distinct squares of the zone")
        if any(s in rules.terrain for s in squares):
            raise ValueError(f"{FACTIONS[faction]}: a unit deploys on terrain")
        for unit in (*roster, rules.zombie):
            if not 0 <= unit.speed <= MAX_SPEED:
                raise ValueError(
                    f"{unit.id} ({unit.name}): speed {unit.speed} is not 0-{MAX_SPEED}"
                )
    for area in rules.objective_squares:
        if any(s in rules.terrain for s in area):
            raise ValueError("an objective square holds terrain")


MAX_SPEED = 16
"""The highest Speed a card may print: the move tables are built up to it."""

RULES = load_rules()
"""The published rules (every version's cards); a game holds its version's as ``game.rules``."""
WIDTH, HEIGHT = RULES.width, RULES.height
SQUARES = WIDTH * HEIGHT
STRIDE = WIDTH + 1
ARMY = len(RULES.rosters[0])
"""Unit slots per army; slots ``seat * ARMY ..`` start as that seat's units."""
SLOTS = 2 * ARMY


def unit_types(version: int = RULES.version) -> dict[str, UnitType]:
    """Every unit type at rules ``version`` by id: each faction's roster in order, then the
    Zombie. The ids are the same in every version; the cards may differ."""
    return RULES.at(version).unit_types()


UNIT_TYPES = unit_types()

COL = tuple(s % WIDTH for s in range(SQUARES))
ROW = tuple(s // WIDTH for s in range(SQUARES))
NAMES = tuple(square_name((COL[s], ROW[s])) for s in range(SQUARES))
BIT = tuple(ROW[s] * STRIDE + COL[s] for s in range(SQUARES))
SQUARE_OF_BIT = tuple(
    (b // STRIDE) * WIDTH + b % STRIDE if b % STRIDE < WIDTH else -1 for b in range(STRIDE * HEIGHT)
)
BOARD_MASK = sum(1 << b for b in BIT)
TERRAIN_MASK = sum(1 << BIT[s] for s in RULES.terrain)
DIST = tuple(
    tuple(distance((COL[a], ROW[a]), (COL[b], ROW[b])) for b in range(SQUARES))
    for a in range(SQUARES)
)


def _step(square: int, dc: int, dr: int) -> int:
    col, row = COL[square] + dc, ROW[square] + dr
    return row * WIDTH + col if 0 <= col < WIDTH and 0 <= row < HEIGHT else -1


ORTH = tuple(
    tuple(n for n in (_step(s, dc, dr) for dc, dr in ORTHOGONAL) if n >= 0) for s in range(SQUARES)
)
DIAG = tuple(
    tuple(n for n in (_step(s, dc, dr) for dc, dr in DIAGONAL) if n >= 0) for s in range(SQUARES)
)
STEP = tuple(tuple(_step(s, dc, dr) for dc, dr in ORTHOGONAL) for s in range(SQUARES))
"""STEP[square][direction]: the neighbour north/east/south/west, -1 off the board."""

OBJECTIVE_OF = tuple(
    next((i for i, sq in enumerate(RULES.objective_squares) if s in sq), -1) for s in range(SQUARES)
)
OBJECTIVES = len(RULES.objective_squares)
IN_ZONE = tuple(
    tuple(
        (ROW[s] < RULES.deployment_rows)
        if seat == 0
        else (ROW[s] >= HEIGHT - RULES.deployment_rows)
        for s in range(SQUARES)
    )
    for seat in (0, 1)
)
"""IN_ZONE[seat][square]: the square lies in the seat's deployment zone."""


def seat_square(seat: int, square: int) -> int:
    """A square written from seat 0's side, as it lies for ``seat`` (half turn for seat 1)."""
    if seat == 0:
        return square
    col, row = rotate_half_turn((COL[square], ROW[square]), WIDTH, HEIGHT)
    return row * WIDTH + col


def square_index(name: str) -> int | None:
    parsed = parse_square(name)
    if parsed is None or not (0 <= parsed[0] < WIDTH and 0 <= parsed[1] < HEIGHT):
        return None
    return parsed[1] * WIDTH + parsed[0]
