"""Manafields' dense action ids and their notation.

Units are named by their slot, ``A``-``F`` for the army that starts as seat 0's and
``G``-``L`` for seat 1's (a unit that dies and rises as a Zombie keeps its letter).
Squares are ``a1``-``j12`` from seat 0's side (the board is data: see data/rules.json).

==========  =================  ======================================================
ids         notation           meaning
==========  =================  ======================================================
0           ``end``            end the turn (scoring follows)
1           ``done``           stop picking units for the Faction Ability
2           ``faction``        the Faction Ability Order (5 Morale)
3-1442      ``move A e5``      Move Order: unit A to e5
1443-1586   ``fight A G``      Fight Order: unit A attacks unit G
1587-1730   ``shoot A G``      Shoot Order: unit A shoots at unit G
1731-1874   ``ability A G``    Heroic Ability Order of Hero A on unit G
1875-3314   ``teleport A e5``  Elves' Faction Ability: teleport unit A to e5
3315-3326   ``explode A``      Undead Faction Ability: Zombie A blows up
==========  =================  ======================================================

The notation is context free: ``parse_action(format_action(a)) == a`` for every id.
"""

from __future__ import annotations

import re

from meeple.core.errors import InvalidAction, excerpt
from meeple.core.game import notation_text
from meeple.games.manafields.data import NAMES, SLOTS, SQUARES, square_index

END = 0
DONE = 1
FACTION = 2
MOVE = 3
FIGHT = MOVE + SLOTS * SQUARES
SHOOT = FIGHT + SLOTS * SLOTS
ABILITY = SHOOT + SLOTS * SLOTS
TELEPORT = ABILITY + SLOTS * SLOTS
EXPLODE = TELEPORT + SLOTS * SQUARES
NUM_ACTIONS = EXPLODE + SLOTS

LABELS = tuple(chr(ord("A") + slot) for slot in range(SLOTS))

_WORDS = {"end": END, "done": DONE, "faction": FACTION}
_SQUARE_VERBS = {"move": MOVE, "teleport": TELEPORT}
_UNIT_VERBS = {"fight": FIGHT, "shoot": SHOOT, "ability": ABILITY}
_TWO_RE = re.compile(r"^(move|teleport|fight|shoot|ability)\s+([a-z])\s+([a-z0-9]+)$")
_EXPLODE_RE = re.compile(r"^explode\s+([a-z])$")


def move_action(slot: int, square: int) -> int:
    return MOVE + slot * SQUARES + square


def fight_action(slot: int, target: int) -> int:
    return FIGHT + slot * SLOTS + target


def shoot_action(slot: int, target: int) -> int:
    return SHOOT + slot * SLOTS + target


def ability_action(slot: int, target: int) -> int:
    return ABILITY + slot * SLOTS + target


def teleport_action(slot: int, square: int) -> int:
    return TELEPORT + slot * SQUARES + square


def explode_action(slot: int) -> int:
    return EXPLODE + slot


def decode(action: int) -> tuple[str, int, int]:
    """``(verb, unit slot, square or target slot)``; -1 where the action has none."""
    if action < MOVE:
        return (("end", "done", "faction")[action], -1, -1)
    if action < FIGHT:
        slot, square = divmod(action - MOVE, SQUARES)
        return ("move", slot, square)
    if action < SHOOT:
        slot, target = divmod(action - FIGHT, SLOTS)
        return ("fight", slot, target)
    if action < ABILITY:
        slot, target = divmod(action - SHOOT, SLOTS)
        return ("shoot", slot, target)
    if action < TELEPORT:
        slot, target = divmod(action - ABILITY, SLOTS)
        return ("ability", slot, target)
    if action < EXPLODE:
        slot, square = divmod(action - TELEPORT, SQUARES)
        return ("teleport", slot, square)
    return ("explode", action - EXPLODE, -1)


def format_action(action: int) -> str:
    """The notation of an action id (see the module docstring)."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise InvalidAction(f"action ids run 0..{NUM_ACTIONS - 1}", action=action)
    verb, slot, other = decode(action)
    if slot < 0:
        return verb
    if verb == "explode":
        return f"explode {LABELS[slot]}"
    if verb in _SQUARE_VERBS:
        return f"{verb} {LABELS[slot]} {NAMES[other]}"
    return f"{verb} {LABELS[slot]} {LABELS[other]}"


def _slot(letter: str, text: str) -> int:
    slot = ord(letter) - ord("a")
    if not 0 <= slot < SLOTS:
        raise InvalidAction(f"units are named A-{LABELS[-1]}", action=text)
    return slot


def parse_action(text: str) -> int:
    """The action id a notation names; case and spacing are forgiven.

    Raises:
        InvalidAction: for text that names no Manafields action.
    """
    clean = " ".join(notation_text(text).strip().lower().split())
    if clean in _WORDS:
        return _WORDS[clean]
    if match := _EXPLODE_RE.match(clean):
        return EXPLODE + _slot(match.group(1), text)
    if match := _TWO_RE.match(clean):
        verb, slot = match.group(1), _slot(match.group(2), text)
        if verb in _SQUARE_VERBS:
            square = square_index(match.group(3))
            if square is None:
                last = NAMES[-1]
                raise InvalidAction(
                    f"{excerpt(match.group(3))} is not a square a1-{last}", action=text
                )
            return _SQUARE_VERBS[verb] + slot * SQUARES + square
        if len(match.group(3)) != 1:
            raise InvalidAction(f"{excerpt(match.group(3))} is not a unit letter", action=text)
        return _UNIT_VERBS[verb] + slot * SLOTS + _slot(match.group(3), text)
    raise InvalidAction(
        "not Manafields notation; try 'move A e5', 'fight A G', 'shoot A G', 'ability A G',"
        " 'faction', 'teleport A e5', 'explode A', 'done' or 'end'",
        action=text,
    )
