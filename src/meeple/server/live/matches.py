"""The live matches of a server: creating them, finding them, rebuilding them on startup.

One :class:`MatchMaster` per match in memory, built from its stored record. On startup every
match still being played is rebuilt by replaying its seed and actions through the engine,
and its bots pick up where they were.

With many workers a match is mastered only while this worker holds its lock: every way of
becoming its master (beginning it, claiming it on a lookup, taking it over from a dead
worker) goes through :meth:`Matches._master_claimed`, which lets the lock go again when the
record does not replay (logged once per match). Whatever must follow a match wherever it is
mastered (the ranked leaver watch) registers with :meth:`Matches.on_master`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from meeple.core import Game, GameError, InvalidOptions, load_game
from meeple.core.record import MAX_SEED
from meeple.server.live.bots import BotRunner, check_bot_name, default_bot
from meeple.server.live.master import MatchMaster
from meeple.server.settings import Settings
from meeple.server.store.match_store import MatchStore, SeatHolder, StoredMatch
from meeple.server.store.repository import AccountRow

log = logging.getLogger(__name__)

FORGET_ABOVE = 256
"""How many masters may be in memory before finished, unwatched ones are dropped."""

PLAYED = ("playing", "over")
"""The statuses of a match that has a master (a room waiting for players has none)."""


MasterHook = Callable[[MatchMaster], Awaitable[None]]
"""Called as this process becomes a match's master, once the master has started."""
LostHook = Callable[[str], None]
"""Called as this process stops mastering a match still being played because another
worker claimed it (this one lost its lease connection meanwhile)."""


class Cluster(Protocol):
    """What the live matches need of the workers they share matches with (the cluster,
    :class:`meeple.server.cluster.workers.Cluster`, built with many workers): claims of
    matches, and a stand-in master for a match another worker holds. Given to
    :class:`Matches`, so live play imports nothing of the cluster, which builds on it."""

    @property
    def owned(self) -> set[str]: ...

    @property
    def stand_in(self) -> type[MatchMaster]:
        """The master class of a match another worker masters (it forwards what it is sent)."""
        ...

    def forwarding(self, stand_in: MatchMaster) -> MatchMaster | None:
        """``stand_in`` (built as :attr:`stand_in`) ready to forward to the match's master."""
        ...

    @property
    def space(self) -> str:
        """The prefix of every shared name (channels, counters) of this server."""
        ...

    def exclusive(self, name: str) -> AbstractAsyncContextManager[None]:
        """A named lock of the whole server, held for a short change."""
        ...

    def on_room(self, changed: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """Call ``changed(room_id)`` when another worker changed a room."""
        ...

    async def room_changed(self, room_id: str) -> None: ...

    async def open(self, matches: Matches) -> None: ...

    async def claim(self, match_id: str) -> bool: ...

    async def release(self, match_id: str) -> None: ...

    async def mastered(self, master: MatchMaster) -> None: ...

    async def stop(self) -> None: ...

    async def close(self) -> None: ...


def new_match_id() -> str:
    return secrets.token_urlsafe(9)


class Matches:
    """Every live :class:`MatchMaster`, by match id."""

    def __init__(
        self,
        store: MatchStore,
        bots: BotRunner | None,
        settings: Settings,
        cluster: Cluster | None = None,
    ) -> None:
        self.store = store
        self.bots = bots
        self.settings = settings
        self.cluster = cluster
        self._masters: dict[str, MatchMaster] = {}
        self._loading = asyncio.Lock()
        self._gained: list[MasterHook] = []
        self._lost: list[LostHook] = []
        self.broken: set[str] = set()
        """Matches whose stored record does not replay: logged once, claimed no more."""
        self.held: set[str] = set()
        """Finished matches whose lock is kept a while longer (their rating is not stored
        yet): see :meth:`hold`."""

    def on_master(self, gained: MasterHook, lost: LostHook) -> None:
        """Follow every match this process masters: ``gained`` as it becomes the master (on
        startup, as it begins, as it is claimed on a lookup or taken over from a worker that
        died), ``lost`` as it stops mastering one still being played. A stand-in forwarding
        to another worker's master is never passed."""
        self._gained.append(gained)
        self._lost.append(lost)

    def hold(self, match_id: str) -> None:
        """Keep a finished match's lock until :meth:`let_go`: no other worker takes it up
        (to rate it) while this one is still storing what its end settled."""
        self.held.add(match_id)

    def let_go(self, match_id: str) -> None:
        self.held.discard(match_id)

    def _master(self, match: StoredMatch, kind: type[MatchMaster] = MatchMaster) -> MatchMaster:
        return kind.rebuild(
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
        """Rebuild every match still being played; returns how many.

        One of many workers rebuilds none here: it claims, every few seconds, the matches
        being played that no worker masters (docs/server.md, "Many workers")."""
        if self.cluster is not None:
            await self.cluster.open(self)
            return 0
        for match in await self.store.playing_matches():
            await self._master_claimed(match)
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
                if self.cluster is not None and match.status == "playing":
                    return await self._claim_or_forward(match)
                master = self._replayed(match)
                if master is None:
                    return None
                self._masters[match_id] = master
        return master

    def _replayed(
        self, match: StoredMatch, kind: type[MatchMaster] = MatchMaster
    ) -> MatchMaster | None:
        """The match rebuilt from its record, or None when the engine does not replay it
        (rules changed without a new game version): logged the first time only."""
        try:
            return self._master(match, kind)
        except GameError:
            if match.id not in self.broken:
                self.broken.add(match.id)
                log.exception("match %s does not replay; it is left out", match.id)
            return None

    async def _master_claimed(self, match: StoredMatch) -> MatchMaster | None:
        """Master a match being played whose lock this worker holds (with one process, any):
        rebuilt from its stored actions, started, announced. The one way to become a master:
        a record that does not replay lets the lock go again, so a match is never mastered
        without its lock nor locked without a master."""
        master = self._replayed(match)
        if master is None:
            if self.cluster is not None:
                await self.cluster.release(match.id)
            return None
        stale = self._masters.pop(match.id, None)
        if stale is not None and stale is not master:
            await stale.close()
        await self._own(master)
        return master

    async def _claim_or_forward(self, match: StoredMatch) -> MatchMaster | None:
        """With many workers: master the match if no worker does, else a stand-in that
        forwards to the worker that does (built afresh from storage on each lookup)."""
        if self.cluster is None:
            return None
        if await self.cluster.claim(match.id):
            return await self._master_claimed(match)
        stand_in = self._replayed(match, self.cluster.stand_in)
        return None if stand_in is None else self.cluster.forwarding(stand_in)

    async def _own(self, master: MatchMaster) -> None:
        """Keep, start and (with many workers) announce a master this worker holds; then
        tell whoever follows the matches mastered here."""
        self._masters[master.id] = master
        await master.start()
        if self.cluster is not None:
            await self.cluster.mastered(master)
        for gained in self._gained:
            try:
                await gained(master)
            except Exception:  # one follower failing must not undo the mastering
                log.exception("match %s: following its new master failed", master.id)

    async def lose(self, match_id: str) -> None:
        """Stop mastering a match another worker has claimed (this one lost its lease)."""
        master = self._masters.pop(match_id, None)
        if master is not None:
            for lost in self._lost:
                lost(match_id)
            await master.close()

    def mastered(self, match_id: str) -> MatchMaster | None:
        """The master of a match held in memory here, without loading it."""
        return self._masters.get(match_id)

    async def take(self, match_id: str) -> None:
        """Master a match this worker has just claimed: rebuilt from its stored actions
        (its deadline and bots go on), as on a restart."""
        async with self._loading:
            match = await self.store.load_match(match_id)
            if match is None or match.status != "playing" or self.cluster is None:
                if self.cluster is not None:
                    await self.cluster.release(match_id)
                return
            held = self._masters.get(match_id)
            if held is not None and not held.closed and held.version == len(match.actions):
                # Mastered here already, and up to date: a lookup claimed it while the claim
                # loop looked. Building it again would leave that lookup's sockets on a
                # closed master, each seat seeing a position the other had left.
                return
            await self._master_claimed(match)

    def _forget_finished(self) -> None:
        if len(self._masters) < FORGET_ABOVE:
            return
        # A match whose lock this worker still holds stays until the lock goes back: the
        # cluster lets go only of the finished matches it finds in memory.
        owned: set[str] = set() if self.cluster is None else self.cluster.owned
        for match_id, master in list(self._masters.items()):
            # The stored status, not the engine's is_terminal(): this walks every live match
            # on each lookup, a thousand of them under load.
            if master.match.status == "over" and not master.connections and match_id not in owned:
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
        if self.cluster is not None:
            await self.cluster.claim(match.id)  # a new id: no other worker holds it
        await self.store.create_match(match)
        master = self._master(match)
        await self._own(master)
        return master

    async def begin(self, match: StoredMatch) -> MatchMaster:
        """Start playing a room whose seats are all taken (stored as ``playing``): mastered
        here, or (another worker found it playing first and claimed it) a stand-in.

        Raises:
            GameError: the match does not replay (its game or options are refused).
        """
        async with self._loading:
            master = self._masters.get(match.id)  # claimed here already, as it was stored
            if master is None:
                if self.cluster is not None:
                    master = await self._claim_or_forward(match)
                else:
                    master = await self._master_claimed(match)
        if master is None:
            self._master(match)  # raises the engine's refusal
            raise InvalidOptions(f"match {match.id} cannot be played")
        return master

    async def close(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        for master in list(self._masters.values()):
            await master.close()
        self._masters.clear()
        if self.cluster is not None:
            await self.cluster.close()
