"""The live matches of a server: creating them, finding them, rebuilding them on startup.

One :class:`MatchMaster` per match in memory, built from its stored record. On startup every
match still being played is rebuilt by replaying its seed and actions through the engine,
and its bots pick up where they were.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Sequence
from typing import Any

from meeple.core import Game, GameError, InvalidOptions, load_game
from meeple.core.record import MAX_SEED
from meeple.server.bots import BotRunner, check_bot_name, default_bot
from meeple.server.master import MatchMaster
from meeple.server.repository import AccountRow
from meeple.server.settings import Settings
from meeple.server.store import MatchStore, SeatHolder, StoredMatch

log = logging.getLogger(__name__)

FORGET_ABOVE = 256
"""How many masters may be in memory before finished, unwatched ones are dropped."""

PLAYED = ("playing", "over")
"""The statuses of a match that has a master (a room waiting for players has none)."""


def new_match_id() -> str:
    return secrets.token_urlsafe(9)


class Matches:
    """Every live :class:`MatchMaster`, by match id."""

    def __init__(self, store: MatchStore, bots: BotRunner | None, settings: Settings) -> None:
        self.store = store
        self.bots = bots
        self.settings = settings
        self._masters: dict[str, MatchMaster] = {}
        self._loading = asyncio.Lock()

    def _master(self, match: StoredMatch) -> MatchMaster:
        return MatchMaster.rebuild(
            match,
            self.store,
            self.bots,
            max_message_bytes=self.settings.max_message_bytes,
            bot_move_seconds=self.settings.bot_move_seconds,
            turn_seconds=None
            if match.turn_seconds is None
            else match.turn_seconds * self.settings.clock_scale,
            # Bots stand in for the absent only where a clock runs; untimed matches wait.
            grace_seconds=None
            if match.turn_seconds is None
            else self.settings.grace_seconds * self.settings.clock_scale,
        )

    async def start(self) -> int:
        """Rebuild every match still being played; returns how many."""
        for match in await self.store.playing_matches():
            try:
                master = self._master(match)
            except GameError:
                # A record the engine no longer replays (rules changed without a new game
                # version) must not keep the server from starting: leave it out, loudly.
                log.exception("match %s does not replay; it is left out", match.id)
                continue
            self._masters[match.id] = master
            await master.start()
        return len(self._masters)

    async def get(self, match_id: str) -> MatchMaster | None:
        """The master of a match (loaded from storage if it is not in memory), or None.

        Finished matches stay in memory only while someone is connected to them: each
        lookup drops those nobody watches any more, so memory holds the live matches.
        """
        self._forget_finished()
        master = self._masters.get(match_id)
        if master is not None:
            return master
        async with self._loading:
            master = self._masters.get(match_id)
            if master is None:
                match = await self.store.load_match(match_id)
                if match is None or match.status not in PLAYED:
                    return None
                try:
                    master = self._master(match)
                except GameError:
                    log.exception("match %s does not replay", match_id)
                    return None
                self._masters[match_id] = master
        return master

    def _forget_finished(self) -> None:
        if len(self._masters) < FORGET_ABOVE:
            return
        for match_id, master in list(self._masters.items()):
            # The stored status, not the engine's is_terminal(): this walks every live match
            # on each lookup, a thousand of them under load.
            if master.match.status == "over" and not master.connections:
                del self._masters[match_id]

    async def create_solo(
        self,
        account: AccountRow,
        game_id: str,
        *,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        seat: int = 0,
        bots: Sequence[str] | str | None = None,
        seed: int | None = None,
        mode: str = "solo",
    ) -> MatchMaster:
        """One person against bots: ``account`` at ``seat``, bots of the named levels elsewhere.
        No turn timer: "Solo matches and matches played over days have none."

        ``bots`` is one name for every other seat or one per other seat, in seat order.

        Raises:
            GameError: for an unknown game, bad options or seat count, a bad seat.
            ValueError: for an unknown bot or the wrong number of bots.
        """
        game: Game = load_game(game_id, seats=seats, options=options)
        game.check_seat(seat)
        others = [s for s in range(game.seats) if s != seat]
        if bots is None or isinstance(bots, str):
            names = [bots or default_bot()] * len(others)
        else:
            names = list(bots)
            if len(names) != len(others):
                raise InvalidOptions(
                    f"name one bot for all other seats or one for each of the {len(others)}, "
                    f"got {len(names)}"
                )
        for name in names:
            check_bot_name(name)
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        elif not 0 <= seed <= MAX_SEED:
            raise InvalidOptions(f"a seed lies in 0..2**53-1, got {seed}")
        holders = [SeatHolder(seat, account.display_name, account_id=account.id)]
        holders += [
            SeatHolder(s, f"{name} bot", bot=name) for s, name in zip(others, names, strict=True)
        ]
        holders.sort(key=lambda holder: holder.seat)
        match = StoredMatch(
            id=new_match_id(),
            game_id=game.id,
            seats=game.seats,
            options=dict(game.options),
            seed=seed,
            mode=mode,
            holders=holders,
            created_by=account.id,
        )
        await self.store.create_match(match)
        master = self._masters[match.id] = self._master(match)
        await master.start()
        return master

    async def begin(self, match: StoredMatch) -> MatchMaster:
        """Start playing a room whose seats are all taken (stored as ``playing``)."""
        master = self._masters[match.id] = self._master(match)
        await master.start()
        return master

    def forget(self, match_id: str) -> None:
        """Drop a waiting room's stale master, if one was loaded."""
        self._masters.pop(match_id, None)

    async def close(self) -> None:
        for master in list(self._masters.values()):
            await master.close()
        self._masters.clear()
