"""The ``meeple`` command line: play, replay, selfplay, bench, games."""
