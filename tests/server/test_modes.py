"""The kinds of table: teams and timers each allows."""

from __future__ import annotations

import pytest

from meeple.server.modes.kinds import MODES, ModeError, check_table


def test_custom_and_lan_tables_take_teams_and_the_host_s_timer() -> None:
    for mode in ("custom", "lan"):
        assert MODES[mode].default_timer == 90
        for timer in (60, 90, 120, None):
            check_table(mode, {"teams": "1122"}, timer)


@pytest.mark.parametrize(
    ("mode", "options", "timer", "code"),
    [
        ("ranked", {"teams": "1122"}, 90, "room/no_teams"),
        ("daily", {"teams": "112"}, None, "room/no_teams"),
        ("tutorial", {"teams": "12"}, None, "room/no_teams"),
        ("ranked", {}, 60, "room/bad_timer"),
        ("solo", {}, 90, "room/bad_timer"),
        ("days", {}, 120, "room/bad_timer"),
        ("custom", {}, 45, "room/bad_timer"),
        ("blitz", {}, None, "room/bad_mode"),
    ],
)
def test_a_table_its_kind_does_not_allow_is_refused(
    mode: str, options: dict, timer: int | None, code: str
) -> None:
    with pytest.raises(ModeError) as refused:
        check_table(mode, options, timer)
    assert refused.value.code == code


def test_ranked_is_fixed_at_ninety_seconds_and_everyone_against_everyone() -> None:
    assert check_table("ranked", {"teams": ""}, 90).timers == (90,)
