"""Maiterra's dense action ids and their notation.

==============  ===========================  ===============================================
kind            notation                     meaning
==============  ===========================  ===============================================
house           ``house moon``               lock in a house (Star, Tower, Sun, Moon)
draft           ``draft c3``                 take a free field in the draft
end             ``end``                      end the turn: hand in the queued orders
march           ``march c3 NE``              the whole stack on c3 marches one field NE
                ``march c3 NE-E cavalry``    its cavalry ride NE then E; parts: ``all``
                                             (default), ``soldiers``, ``cavalry``, ``one``
                                             (a single soldier)
pullback        ``pullback c3 W``            pull the stack on c3 back to a friendly field
claim           ``claim c3``                 claim the empty field c3 (1 wood, 1 coin)
build           ``build farm c3``            farm, sawmill, brickworks, house, wall,
                                             barracks, science (centre)
train           ``train cavalry c3``         at the barracks on c3
trade           ``trade food for wood``      3 food to the bank for 1 wood
sell            ``sell c3``                  sell a soldier on c3 for 2 food
play            ``play speedup c3``          ``lucky_strike``, ``rally``, ``sabotage c3``,
                                             ``prospect brick``
takeback        ``takeback``                 take back the last queued order (rules
                                             version 3 on)
==============  ===========================  ===============================================

Cells are those of the 5 x 5 grid (``a1`` top left, ``e5`` bottom right; see
:mod:`.data`). The notation is context free: ``parse_action(format_action(a)) == a``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from meeple.core.errors import InvalidAction, excerpt
from meeple.core.game import notation_text
from meeple.core.hexgrid import DIRECTIONS
from meeple.games.maiterra.data import (
    BUILDING_NAMES,
    CARD_NAMES,
    CELLS,
    PATH_DIRECTIONS,
    PATHS,
    PROSPECT,
    RESOURCES,
    RULES,
    SABOTAGE,
    SPEEDUP,
    UNIT_NAMES,
    cell_name,
    cell_of,
    path_name,
)

PARTS = ("all", "soldiers", "cavalry", "one")
# Literal finals, so the compiled rules read them as constants (docs/compiled.md).
ALL: Final = 0
SOLDIERS_ONLY: Final = 1
CAVALRY_ONLY: Final = 2
ONE: Final = 3

HOUSE = 0
DRAFT = HOUSE + len(RULES.houses)
END = DRAFT + CELLS
MARCH = END + 1
PULLBACK = MARCH + CELLS * PATHS * len(PARTS)
CLAIM = PULLBACK + CELLS * 6
BUILD = CLAIM + CELLS
TRAIN = BUILD + CELLS * len(BUILDING_NAMES)
TRADE = TRAIN + CELLS * len(UNIT_NAMES)
SELL = TRADE + len(RESOURCES) * (len(RESOURCES) - 1)
PLAY = SELL + CELLS
# Card plays: speedup per cell, lucky strike, rally, sabotage per cell, prospect per resource.
PLAY_SPEEDUP = PLAY
PLAY_LUCKY = PLAY_SPEEDUP + CELLS
PLAY_RALLY = PLAY_LUCKY + 1
PLAY_SABOTAGE = PLAY_RALLY + 1
PLAY_PROSPECT = PLAY_SABOTAGE + CELLS
TAKE_BACK = PLAY_PROSPECT + len(RESOURCES)
# Last, so the ids of every earlier rules version stay as they were.
NUM_ACTIONS = TAKE_BACK + 1

K_HOUSE: Final = 0
K_DRAFT: Final = 1
K_END: Final = 2
K_MARCH: Final = 3
K_PULLBACK: Final = 4
K_CLAIM: Final = 5
K_BUILD: Final = 6
K_TRAIN: Final = 7
K_TRADE: Final = 8
K_SELL: Final = 9
K_PLAY: Final = 10
K_TAKE_BACK: Final = 11
KINDS = (
    "house",
    "draft",
    "end",
    "march",
    "pullback",
    "claim",
    "build",
    "train",
    "trade",
    "sell",
    "play",
    "takeback",
)


class Order(NamedTuple):
    """An action taken apart: ``kind`` and up to three small integers.

    march: (cell, path, part); pullback: (cell, direction); build: (cell, building);
    train: (cell, unit); trade: (give, get); play: (card, cell or resource or -1).
    """

    kind: int
    a: int = -1
    b: int = -1
    c: int = -1


def march_action(cell: int, path: int, part: int = ALL) -> int:
    return MARCH + (cell * PATHS + path) * len(PARTS) + part


def pullback_action(cell: int, direction: int) -> int:
    return PULLBACK + cell * 6 + direction


def build_action(cell: int, building: int) -> int:
    return BUILD + cell * len(BUILDING_NAMES) + building


def train_action(cell: int, unit: int) -> int:
    return TRAIN + cell * len(UNIT_NAMES) + unit


def trade_action(give: int, get: int) -> int:
    if give == get:
        raise ValueError("a trade swaps two different resources")
    return TRADE + give * 3 + (get if get < give else get - 1)


def play_action(card: int, target: int = -1) -> int:
    if card == SPEEDUP:
        return PLAY_SPEEDUP + target
    if card == SABOTAGE:
        return PLAY_SABOTAGE + target
    if card == PROSPECT:
        return PLAY_PROSPECT + target
    return PLAY_LUCKY if CARD_NAMES[card] == "lucky_strike" else PLAY_RALLY


def _decode(action: int) -> Order:
    if action < DRAFT:
        return Order(K_HOUSE, action - HOUSE)
    if action < END:
        return Order(K_DRAFT, action - DRAFT)
    if action == END:
        return Order(K_END)
    if action < PULLBACK:
        rest, part = divmod(action - MARCH, len(PARTS))
        cell, path = divmod(rest, PATHS)
        return Order(K_MARCH, cell, path, part)
    if action < CLAIM:
        cell, direction = divmod(action - PULLBACK, 6)
        return Order(K_PULLBACK, cell, direction)
    if action < BUILD:
        return Order(K_CLAIM, action - CLAIM)
    if action < TRAIN:
        cell, building = divmod(action - BUILD, len(BUILDING_NAMES))
        return Order(K_BUILD, cell, building)
    if action < TRADE:
        cell, unit = divmod(action - TRAIN, len(UNIT_NAMES))
        return Order(K_TRAIN, cell, unit)
    if action < SELL:
        give, rest = divmod(action - TRADE, 3)
        return Order(K_TRADE, give, rest if rest < give else rest + 1)
    if action < PLAY:
        return Order(K_SELL, action - SELL)
    if action < PLAY_LUCKY:
        return Order(K_PLAY, SPEEDUP, action - PLAY_SPEEDUP)
    if action == PLAY_LUCKY:
        return Order(K_PLAY, CARD_NAMES.index("lucky_strike"))
    if action == PLAY_RALLY:
        return Order(K_PLAY, CARD_NAMES.index("rally"))
    if action < PLAY_PROSPECT:
        return Order(K_PLAY, SABOTAGE, action - PLAY_SABOTAGE)
    if action < TAKE_BACK:
        return Order(K_PLAY, PROSPECT, action - PLAY_PROSPECT)
    return Order(K_TAKE_BACK)


DECODED: tuple[Order, ...] = tuple(_decode(a) for a in range(NUM_ACTIONS))
"""Every action id taken apart, so the rules never divide in their inner loops."""


def decode(action: int) -> Order:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise InvalidAction(f"action ids run 0..{NUM_ACTIONS - 1}", action=action)
    return DECODED[action]


def format_action(action: int) -> str:
    """The notation of an action id (see the module docstring)."""
    decode(action)  # raises InvalidAction for a number that is no action id
    return NOTATION[action]


def _format(action: int) -> str:
    order = DECODED[action]
    kind = order.kind
    if kind == K_HOUSE:
        return f"house {RULES.houses[order.a].lower()}"
    if kind == K_DRAFT:
        return f"draft {cell_name(order.a)}"
    if kind == K_END:
        return "end"
    if kind == K_MARCH:
        text = f"march {cell_name(order.a)} {path_name(order.b)}"
        return text if order.c == ALL else f"{text} {PARTS[order.c]}"
    if kind == K_PULLBACK:
        return f"pullback {cell_name(order.a)} {DIRECTIONS[order.b]}"
    if kind == K_CLAIM:
        return f"claim {cell_name(order.a)}"
    if kind == K_BUILD:
        return f"build {BUILDING_NAMES[order.b]} {cell_name(order.a)}"
    if kind == K_TRAIN:
        return f"train {UNIT_NAMES[order.b]} {cell_name(order.a)}"
    if kind == K_TRADE:
        return f"trade {RESOURCES[order.a]} for {RESOURCES[order.b]}"
    if kind == K_SELL:
        return f"sell {cell_name(order.a)}"
    if kind == K_TAKE_BACK:
        return "takeback"
    card = CARD_NAMES[order.a]
    if order.a in (SPEEDUP, SABOTAGE):
        return f"play {card} {cell_name(order.b)}"
    if order.a == PROSPECT:
        return f"play {card} {RESOURCES[order.b]}"
    return f"play {card}"


NOTATION: tuple[str, ...] = tuple(_format(a) for a in range(NUM_ACTIONS))
"""Every action id's notation, worked out once (events quote it on every queued order)."""

_HINT = (
    "not Maiterra notation; try 'end', 'march c3 NE', 'march c3 NE-E cavalry', "
    "'build farm c3', 'train soldier c3', 'claim c3', 'trade food for wood', "
    "'play prospect brick', 'takeback', 'house moon' or 'draft c3'"
)


def _cell(word: str, text: str) -> int:
    cell = cell_of(word)
    if cell is None:
        raise InvalidAction(f"{excerpt(word)} is not a cell a1..e5", action=text)
    return cell


def _path(word: str, text: str) -> int:
    names = word.upper().split("-")
    if len(names) not in (1, 2) or any(n not in DIRECTIONS for n in names):
        raise InvalidAction(f"{excerpt(word)} is not a direction or two (NE, NE-E)", action=text)
    key = (DIRECTIONS.index(names[0]), DIRECTIONS.index(names[1]) if len(names) == 2 else -1)
    if key not in PATH_DIRECTIONS:
        raise InvalidAction(f"a ride never turns straight back: {excerpt(word)}", action=text)
    return PATH_DIRECTIONS.index(key)


def _index(word: str, names: tuple[str, ...], what: str, text: str) -> int:
    lowered = [n.lower() for n in names]
    if word not in lowered:
        raise InvalidAction(f"{excerpt(word)} is not a {what} ({', '.join(lowered)})", action=text)
    return lowered.index(word)


def parse_action(text: str) -> int:
    """The action id a notation names; case and spacing are forgiven.

    Raises:
        InvalidAction: for text that names no Maiterra action.
    """
    words = notation_text(text).strip().lower().split()
    if not words:
        raise InvalidAction(_HINT, action=text)
    verb, args = words[0], words[1:]
    if verb == "end" and not args:
        return END
    if (verb == "takeback" and not args) or (verb == "take" and args == ["back"]):
        return TAKE_BACK
    if verb == "house" and len(args) == 1:
        return HOUSE + _index(args[0], RULES.houses, "house", text)
    if verb == "draft" and len(args) == 1:
        return DRAFT + _cell(args[0], text)
    if verb == "march" and len(args) in (2, 3):
        part = _index(args[2], PARTS, "part", text) if len(args) == 3 else ALL
        return march_action(_cell(args[0], text), _path(args[1], text), part)
    if verb == "pullback" and len(args) == 2:
        direction = _index(args[1], tuple(d.lower() for d in DIRECTIONS), "direction", text)
        return pullback_action(_cell(args[0], text), direction)
    if verb == "claim" and len(args) == 1:
        return CLAIM + _cell(args[0], text)
    if verb == "build" and len(args) == 2:
        building = _index(args[0], BUILDING_NAMES, "building", text)
        return build_action(_cell(args[1], text), building)
    if verb == "train" and len(args) == 2:
        return train_action(_cell(args[1], text), _index(args[0], UNIT_NAMES, "unit", text))
    if verb == "trade" and len(args) == 3 and args[1] == "for":
        give = _index(args[0], RESOURCES, "resource", text)
        get = _index(args[2], RESOURCES, "resource", text)
        if give == get:
            raise InvalidAction("a trade swaps two different resources", action=text)
        return trade_action(give, get)
    if verb == "sell" and len(args) == 1:
        return SELL + _cell(args[0], text)
    if verb == "play" and args:
        card = _index(args[0], CARD_NAMES, "card", text)
        if card in (SPEEDUP, SABOTAGE) and len(args) == 2:
            return play_action(card, _cell(args[1], text))
        if card == PROSPECT and len(args) == 2:
            return play_action(card, _index(args[1], RESOURCES, "resource", text))
        if card not in (SPEEDUP, SABOTAGE, PROSPECT) and len(args) == 1:
            return play_action(card)
        raise InvalidAction(f"wrong target for {CARD_NAMES[card]}", action=text)
    raise InvalidAction(_HINT, action=text)
