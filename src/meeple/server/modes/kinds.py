"""The kinds of table a match is played at, and what each allows.

The rules: "At three and four seats, the lobby of a new solo match, a Wi-Fi room or an online
custom room can put seats on numbered teams; the same number means allies. Ranked matches,
the Daily and the tutorial are always everyone against everyone." and "A Wi-Fi or live online
table starts at 90 seconds a round; its host may make it 60 or 120 seconds, or turn it off. A
ranked match is fixed at 90 seconds. Solo matches and matches played over days have none."

Solo and custom tables exist today; ranked, the Daily and the tutorial are described here so
the stored model (``matches.mode``) already holds them and their checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Mode:
    """What a kind of table allows: teams, and which turn timers (None: off)."""

    name: str
    teams: bool
    timers: tuple[int | None, ...]

    @property
    def default_timer(self) -> int | None:
        return self.timers[0]


MODES: dict[str, Mode] = {
    mode.name: mode
    for mode in (
        Mode("solo", teams=True, timers=(None,)),
        Mode("custom", teams=True, timers=(90, 60, 120, None)),
        Mode("lan", teams=True, timers=(90, 60, 120, None)),
        Mode("days", teams=True, timers=(None,)),
        Mode("ranked", teams=False, timers=(90,)),
        Mode("daily", teams=False, timers=(None,)),
        Mode("tutorial", teams=False, timers=(None,)),
    )
}
"""Every kind of table, by the name stored in ``matches.mode``."""


class ModeError(ValueError):
    """A table that its kind does not allow: a stable code and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_table(mode: str, options: dict[str, Any], timer: int | None) -> Mode:
    """The mode, if it allows these options (teams) and this timer.

    Raises:
        ModeError: ``room/bad_mode``, ``room/no_teams`` or ``room/bad_timer``.
    """
    found = MODES.get(mode)
    if found is None:
        raise ModeError("room/bad_mode", f"no kind of table {mode[:20]!r}; known: {list(MODES)}")
    if not found.teams and options.get("teams"):
        raise ModeError("room/no_teams", f"a {mode} match is everyone against everyone")
    if timer not in found.timers:
        allowed = ", ".join("off" if t is None else f"{t} s" for t in found.timers)
        raise ModeError("room/bad_timer", f"a {mode} table's timer is {allowed}; got {timer}")
    return found
