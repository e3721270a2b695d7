"""The move deadline: a search budget's stop once the caller's clock has run its seconds."""

from __future__ import annotations

import time

from meeple.ai.deadline import deadline


def test_deadline_says_stop_once_the_time_is_up() -> None:
    assert deadline(0.0, time.perf_counter)()
    assert not deadline(60.0, time.perf_counter)()


def test_deadline_reads_only_the_clock_it_is_given() -> None:
    ticks = iter([100.0, 100.4, 100.9, 101.0])
    stop = deadline(1.0, lambda: next(ticks))
    assert [stop(), stop(), stop()] == [False, False, True]
