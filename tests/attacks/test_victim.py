"""The victim alone: the reference every attack compares with, and a check of the harness."""

from __future__ import annotations

from tests.attacks.conftest import Victim, held, report


def test_a_victim_alone_is_within_every_budget(victim: Victim) -> None:
    rest, actions, bot, hint = victim.rest(), victim.actions(), victim.bot_reply(), victim.hint()
    report("none", rest=rest, actions=actions, bot=bot, hint=hint)
    held("rest_p95", rest.p95, rest.p95)
    held("ack_p99", actions.p99, actions.p99)
    held("bot_reply", bot.worst, bot.worst)
    held("hint", hint.worst, hint.worst)
