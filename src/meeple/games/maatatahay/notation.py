"""Maatatahay's dense action ids and their notation.

======  ===========  =====================================================================
ids     notation     meaning
======  ===========  =====================================================================
0-2     ``pick 2``   the active seat picks pair 1-3 of the stream
3-4     ``first W``  the deciding seat says who places first (B = Balan, seat 0; W = Wazu)
5-129   ``c3``       place the warrior on a free space
        ``c3 s2``    place it on a Temple Relic, paying 2 Spirit crystals (the rest Energy)
130-189 ``E keep 1e2s``  turn the warrior to face N/E/S/W and keep 1 Energy and 2 Spirit
                     crystals in storage; every other stored crystal goes onto the warrior
======  ===========  =====================================================================

The notation is context free: ``parse_action(format_action(a)) == a`` for every id.
"""

from __future__ import annotations

import re

from meeple.core.errors import InvalidAction
from meeple.core.game import notation_text
from meeple.games.maatatahay.data import FACINGS, FILES, KEEPS, SIZE, SPACES, space_name

PICK = 0
PICKS = 3
ORDER = PICK + PICKS
PLACE = ORDER + 2
RELIC_CHOICES = 5  # 0 = free space, 1..4 = Spirit crystals paid for a relic
FINISH = PLACE + SPACES * RELIC_CHOICES
NUM_ACTIONS = FINISH + len(FACINGS) * len(KEEPS)
SEAT_LETTERS = ("B", "W")

_PICK_RE = re.compile(r"^pick\s*([1-3])$")
_ORDER_RE = re.compile(r"^first\s*([bw])$")
_PLACE_RE = re.compile(r"^([a-e])([1-5])(?:\s*s([1-4]))?$")
_FINISH_RE = re.compile(r"^([nesw])\s*keep\s*([0-4])\s*e\s*([0-4])\s*s$")


def place_action(space: int, spirit_paid: int = 0) -> int:
    return PLACE + space * RELIC_CHOICES + spirit_paid


def finish_action(facing: int, keep_energy: int, keep_spirit: int) -> int:
    return FINISH + facing * len(KEEPS) + KEEPS.index((keep_energy, keep_spirit))


def format_action(action: int) -> str:
    """The notation of an action id (see the module docstring)."""
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise InvalidAction(f"action ids run 0..{NUM_ACTIONS - 1}", action=action)
    if action < ORDER:
        return f"pick {action - PICK + 1}"
    if action < PLACE:
        return f"first {SEAT_LETTERS[action - ORDER]}"
    if action < FINISH:
        space, paid = divmod(action - PLACE, RELIC_CHOICES)
        return space_name(space) if paid == 0 else f"{space_name(space)} s{paid}"
    facing, keep = divmod(action - FINISH, len(KEEPS))
    energy, spirit = KEEPS[keep]
    return f"{FACINGS[facing]} keep {energy}e{spirit}s"


def parse_action(text: str) -> int:
    """The action id a notation names; case and spacing are forgiven.

    Raises:
        InvalidAction: for text that names no Maatatahay action.
    """
    clean = " ".join(notation_text(text).strip().lower().split())
    if match := _PICK_RE.match(clean):
        return PICK + int(match.group(1)) - 1
    if match := _ORDER_RE.match(clean):
        return ORDER + SEAT_LETTERS.index(match.group(1).upper())
    if match := _PLACE_RE.match(clean):
        space = (int(match.group(2)) - 1) * SIZE + FILES.index(match.group(1))
        return place_action(space, int(match.group(3) or 0))
    if match := _FINISH_RE.match(clean):
        energy, spirit = int(match.group(2)), int(match.group(3))
        if (energy, spirit) not in KEEPS:
            raise InvalidAction("storage keeps at most 4 crystals", action=text)
        return finish_action(FACINGS.index(match.group(1).upper()), energy, spirit)
    if near := _near_miss(clean):
        raise InvalidAction(near, action=text)
    raise InvalidAction(
        "not Maatatahay notation; try 'pick 2', 'first W', 'c3', 'c3 s1' or 'N keep 1e0s'",
        action=text,
    )


_LOOSE_PICK = re.compile(r"^pick\s*([0-9]{1,9})$")
_LOOSE_ORDER = re.compile(r"^first\s*(\S+)$")
_LOOSE_PLACE = re.compile(r"^([a-z])([0-9]{1,9})(?:\s*s([0-9]{1,9}))?$")


def _near_miss(clean: str) -> str | None:
    """What is wrong with an entry in a Maatatahay form whose number or letter is out of
    range (``pick 9``, ``f7``, ``c3 s5``, ``first x``), or None."""
    if match := _LOOSE_PICK.match(clean):
        return f"there is no pair {match.group(1)}: the stream shows pairs 1 to {PICKS}"
    if match := _LOOSE_ORDER.match(clean):
        return f"first names the tribe to place first by its letter, B or W; got {match.group(1)!r}"
    if match := _LOOSE_PLACE.match(clean):
        if match.group(1) not in FILES or not 1 <= int(match.group(2)) <= SIZE:
            space = match.group(1) + match.group(2)
            return f"there is no space {space}: the board's spaces are a1 to {FILES[-1]}{SIZE}"
        return (
            f"a warrior pays for the Temple Relic with 1 to 4 Spirit (s1 to s4); "
            f"got s{match.group(3)}"
        )
    return None
