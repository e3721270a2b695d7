"""How the ranked queue groups tickets (:func:`meeple.server.modes.ranked.pairings`), on times the
test gives: the same game, seats and options only; near ratings first; ranges that widen;
two accounts that met as often today as they may are not put together again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from meeple.server.modes.ranked import BASE_RANGE, WIDEN_PER_SECOND, Ticket, pair_key, pairings
from meeple.server.store.repository import AccountRow

START = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)


def _ticket(account: int, mu: float, *, seats: int = 2, game: str = "maatatahay") -> Ticket:
    who = AccountRow(account, None, f"p{account}", "person")
    return Ticket(who, game, seats, {}, mu, 300.0, joined=START)


def _ids(groups: list[list[Ticket]]) -> list[set[int]]:
    return [{t.account.id for t in group} for group in groups]


def test_near_ratings_meet_first_and_far_ones_wait() -> None:
    tickets = [_ticket(1, 25.0), _ticket(2, 40.0), _ticket(3, 26.0)]
    assert _ids(pairings(tickets, START)) == [{1, 3}]
    assert pairings([_ticket(1, 25.0), _ticket(2, 40.0)], START) == []


def test_a_range_widens_with_the_wait_until_anyone_meets() -> None:
    spread = 10.0
    tickets = [_ticket(1, 25.0), _ticket(2, 25.0 + spread)]
    meets = (spread - BASE_RANGE) / WIDEN_PER_SECOND
    assert pairings(tickets, START + timedelta(seconds=meets - 1)) == []
    assert _ids(pairings(tickets, START + timedelta(seconds=meets))) == [{1, 2}]


def test_only_the_same_game_and_seat_count_meet_and_a_group_is_as_many_as_seats() -> None:
    tickets = [
        _ticket(1, 25.0),
        _ticket(2, 25.0, game="manafields"),
        _ticket(3, 25.0, seats=3, game="maiterra"),
        _ticket(4, 25.0, seats=3, game="maiterra"),
    ]
    assert pairings(tickets, START) == []
    tickets.append(_ticket(5, 25.0, seats=3, game="maiterra"))
    assert _ids(pairings(tickets, START)) == [{3, 4, 5}]


def test_a_ticket_is_in_one_group_at_most() -> None:
    tickets = [_ticket(n, 25.0 + n * 0.1) for n in range(7)]
    groups = pairings(tickets, START)
    seen = [t.account.id for group in groups for t in group]
    assert len(groups) == 3 and len(seen) == len(set(seen)) == 6


def test_a_spent_pair_is_not_put_together_and_each_meets_someone_else() -> None:
    tickets = [_ticket(1, 25.0), _ticket(2, 25.1), _ticket(3, 25.2), _ticket(4, 25.3)]
    assert _ids(pairings(tickets, START)) == [{1, 2}, {3, 4}]
    spent = {pair_key(2, 1), pair_key(4, 3)}
    assert _ids(pairings(tickets, START, spent)) == [{2, 3}]
    # Alone with the one they have met enough today, nobody is paired.
    assert pairings([_ticket(1, 25.0), _ticket(2, 25.0)], START, {pair_key(1, 2)}) == []
    # At four seats, a group holding a spent pair anywhere is not formed.
    four = [_ticket(n, 25.0, seats=4, game="maiterra") for n in range(1, 6)]
    assert _ids(pairings(four, START, {pair_key(1, 4)})) == [{2, 3, 4, 5}]
