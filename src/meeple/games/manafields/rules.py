"""Manafields' positions and transitions.

A match is a sequence of turns, seat 0 first. In a turn the active seat issues orders, one
action each, until it ends the turn (``end``); Order Points (OP) pay for them. At the end of
each of its turns a seat scores; the first seat to lead by 12 points wins. Units live in
fixed *slots* (``A``-``L``): slots 0-5 start as seat 0's army, 6-11 as seat 1's. A unit
that dies keeps its slot (dead, its square remembered) and may rise in it as a Zombie of
the Undead seat.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from meeple.core.compiled import abc_bookkeeping, mypyc_attr
from meeple.core.game import Game
from meeple.core.outcome import Event, Outcome
from meeple.core.rng import Rng, mix_seed
from meeple.core.types import JSON, Action, Seat
from meeple.games.manafields import combat, scoring
from meeple.games.manafields import notation as ids
from meeple.games.manafields.data import (
    ARCHERS,
    ARMY,
    BIT,
    BLESS,
    BOLT,
    CAVALRY,
    DIAG,
    DIST,
    ELVES,
    FACTIONS,
    FRIENDLY_EFFECTS,
    GENERAL,
    HEAL,
    HERO,
    HUMANS,
    IN_ZONE,
    INFANTRY,
    INSPIRE,
    NAMES,
    ORCS,
    ORTH,
    RAISE,
    RULES,
    SLOTS,
    SQUARES,
    WARD,
    ZOMBIE,
    RuleData,
    UnitType,
    seat_square,
)
from meeple.games.manafields.legal import FREE_MOVE_DISTANCE, legal_orders, reach
from meeple.games.manafields.position import Position

_MOVE, _FIGHT = ids.MOVE, ids.FIGHT
OBJECTIVE_SQUARE_LIST = tuple(s for squares in RULES.objective_squares for s in squares)
NO_TURN = combat.NO_TURN
_PUBLISHED: dict[int, RuleData] = {}


def _published_at(version: int) -> RuleData:
    """The published rules at ``version``, one value per version."""
    rules = _PUBLISHED.get(version)
    if rules is None:
        rules = _PUBLISHED[version] = RULES.at(version)
    return rules


MAX_ACTIONS_PER_TURN = 96
"""A loose bound on the decisions of one turn, for :meth:`Manafields.max_game_length`."""


@mypyc_attr(native_class=False)  # the game class subclasses it in plain Python
class ManafieldsRulebook(Game):
    """What the rules ask of their game object beyond core's :class:`Game`: the armies at its
    rules version, and the writers the rules must not import.

    A position's per-seat view, its JSON form, an action's description and the reason an
    action is illegal are written by :mod:`.view` and :mod:`.codec`, which read the rules;
    the game class (:class:`~meeple.games.manafields.game.Manafields`) plugs them in.
    """

    def __init__(
        self,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        rules: RuleData | None = None,
    ) -> None:
        """``rules``: the numbers to play with instead of the published ones (a balance
        search's candidate, :func:`~meeple.games.manafields.data.rules_from_json`); the game
        plays their cards of its rules version. The board may not differ
        (:meth:`~meeple.games.manafields.data.RuleData.same_board`).

        Raises:
            InvalidOptions: as :class:`Game` does.
            ValueError: when ``rules`` have another board, or no cards for this rules
                version.
        """
        super().__init__(seats, options)
        if rules is None:
            self.rules = _published_at(self.info.version)
        elif not RULES.same_board(rules):
            raise ValueError(
                "Manafields takes other cards and numbers on the published board only: the "
                "board, objectives, turn limits and free Move distance are the published ones"
            )
        else:
            self.rules = rules.at(self.info.version)

    rules: RuleData
    """The numbers this game plays with: its rules version's cards (see :meth:`__init__`)."""

    @property
    def rosters(self) -> tuple[tuple[UnitType, ...], ...]:
        """The armies' cards at this rules version, per faction in slot order."""
        return self.rules.rosters

    @abstractmethod
    def position_view(self, state: ManafieldsState, seat: Seat | None) -> JSON:
        """What ``seat`` (None: a spectator) sees of ``state``."""

    @abstractmethod
    def position_json(self, state: ManafieldsState) -> JSON:
        """The whole of ``state`` as JSON."""

    @abstractmethod
    def describe_move(self, state: ManafieldsState, seat: Seat, action: Action) -> str:
        """``seat``'s legal ``action`` in ``state``, told in words."""

    @abstractmethod
    def illegal_reason(self, state: ManafieldsState, seat: Seat, action: Action) -> str:
        """A short reason ``action`` is not legal for ``seat`` in ``state``."""


class ManafieldsState(Position):
    """A Manafields position. Create through :meth:`Manafields.new_initial_state`."""

    __slots__ = (
        "active",
        "blessed",
        "elf_free",
        "factions",
        "fights_issued",
        "fought",
        "frenzy",
        "game",
        "general",
        "hp",
        "inspired",
        "last_order",
        "morale",
        "moved",
        "occ",
        "occupied",
        "op",
        "ordered",
        "owed",
        "owner",
        "picked",
        "picks",
        "pos",
        "rally",
        "reason",
        "rng",
        "score",
        "shot",
        "targeted",
        "turn",
        "turn_limit",
        "unit",
        "used_ability",
        "warded",
        "winner",
    )

    game: ManafieldsRulebook

    def __init__(self, game: ManafieldsRulebook, source: ManafieldsState | None = None) -> None:
        """A position before setup or, given ``source``, an independent copy of it (what
        :meth:`clone` makes: one constructor for both, as a compiled class runs its
        ``__init__`` on every new object and so cannot be copied through ``object.__new__``)."""
        self.game = game
        if source is None:
            self.factions = (HUMANS, ORCS)
            self.turn_limit = self.game.rules.turn["default_turn_limit"]
            self.unit: list[UnitType] = [game.rules.zombie] * SLOTS
            self.owner = [slot // ARMY for slot in range(SLOTS)]
            self.general = (0, ARMY)
            self.hp = [0] * SLOTS
            self.pos = [0] * SLOTS
            self.occ = [-1] * SQUARES
            self.occupied = 0
            self.ordered = [False] * SLOTS
            self.moved = [False] * SLOTS
            self.fought = [False] * SLOTS
            self.shot = [False] * SLOTS
            self.used_ability = [False] * SLOTS
            self.blessed = [False] * SLOTS
            self.inspired = [False] * SLOTS
            self.warded = [False] * SLOTS
            self.last_order = [NO_TURN] * SLOTS
            self.targeted = [NO_TURN] * SLOTS
            self.turn = 0
            self.active = 0
            self.op = 0
            self.morale = [0, 0]
            self.score = [0, 0]
            self.owed = [0, 0]
            self.rally = [False, False]
            self.frenzy = False
            self.fights_issued = 0
            self.picks = 0
            self.picked: list[int] = []
            self.elf_free = -1
            self.winner = -1  # -1 while playing, 0/1 a seat, 2 a draw
            self.reason = ""
            self.rng = Rng(0)
            return
        self.factions = source.factions
        self.turn_limit = source.turn_limit
        self.general = source.general
        self.occupied = source.occupied
        self.turn = source.turn
        self.active = source.active
        self.op = source.op
        self.frenzy = source.frenzy
        self.fights_issued = source.fights_issued
        self.picks = source.picks
        self.elf_free = source.elf_free
        self.winner = source.winner
        self.reason = source.reason
        self.unit = source.unit[:]
        self.owner = source.owner[:]
        self.hp = source.hp[:]
        self.pos = source.pos[:]
        self.occ = source.occ[:]
        self.ordered = source.ordered[:]
        self.moved = source.moved[:]
        self.fought = source.fought[:]
        self.shot = source.shot[:]
        self.used_ability = source.used_ability[:]
        self.blessed = source.blessed[:]
        self.inspired = source.inspired[:]
        self.warded = source.warded[:]
        self.last_order = source.last_order[:]
        self.targeted = source.targeted[:]
        self.morale = source.morale[:]
        self.score = source.score[:]
        self.owed = source.owed[:]
        self.rally = source.rally[:]
        self.picked = source.picked[:]
        self.rng = source.rng.copy()

    # -- setup -------------------------------------------------------------------------

    @classmethod
    def setup(cls, game: ManafieldsRulebook, seed: int) -> ManafieldsState:
        """Both armies deployed, seat 0 to play its first turn with 2 OP."""
        state = cls(game)
        state.rng = Rng(mix_seed(seed, 0x4D414E41))
        state.factions = (
            FACTIONS.index(game.option("faction0")),
            FACTIONS.index(game.option("faction1")),
        )
        state.turn_limit = game.option("turn_limit")
        shuffled = game.option("deployment") == "shuffled"
        for seat in (0, 1):
            roster = game.rosters[state.factions[seat]]
            squares = [u.square for u in roster]
            if shuffled:
                zone = [s for s in range(SQUARES) if IN_ZONE[0][s] and s not in RULES.terrain]
                state.rng.shuffle(zone)
                squares = zone[: len(roster)]
            for index, unit in enumerate(roster):
                slot = seat * ARMY + index
                state.unit[slot] = unit
                state.hp[slot] = unit.hp
                state.place(slot, seat_square(seat, squares[index]))
        state.score[1] = game.rules.turn["second_player_start_points"]
        state.op = game.rules.turn["first_turn_order_points"]
        return state

    def rules(self) -> RuleData:
        return self.game.rules

    def place(self, slot: int, square: int) -> None:
        self.pos[slot] = square
        self.occ[square] = slot
        self.occupied |= 1 << BIT[square]

    def lift(self, slot: int) -> None:
        square = self.pos[slot]
        self.occ[square] = -1
        self.occupied &= ~(1 << BIT[square])

    def faction_of(self, slot: int) -> int:
        return self.factions[self.owner[slot]]

    def reset_unit_flags(self, slot: int) -> None:
        for flags in (self.ordered, self.moved, self.fought, self.shot, self.used_ability):
            flags[slot] = False
        self.blessed[slot] = self.inspired[slot] = self.warded[slot] = False
        self.last_order[slot] = self.targeted[slot] = NO_TURN

    # -- who decides -------------------------------------------------------------------

    def deciding_seats(self) -> tuple[Seat, ...]:
        return () if self.winner >= 0 else (self.active,)

    def living(self, seat: int) -> list[int]:
        hp, owner = self.hp, self.owner
        return [s for s in range(SLOTS) if hp[s] > 0 and owner[s] == seat]

    def enemy_adjacent(self, slot: int) -> bool:
        seat, occ, owner = self.owner[slot], self.occ, self.owner
        for n in ORTH[self.pos[slot]]:
            other = occ[n]
            if other >= 0 and owner[other] != seat:
                return True
        return False

    def enemy_within(self, slot: int, distance: int) -> bool:
        seat, row = self.owner[slot], DIST[self.pos[slot]]
        hp, owner, pos = self.hp, self.owner, self.pos
        for other in range(SLOTS):
            if hp[other] > 0 and owner[other] != seat and row[pos[other]] <= distance:
                return True
        return False

    def move_cost(self, slot: int) -> int:
        """1 OP; 2 if the unit starts adjacent to an enemy; 0 for a unit with no order yet
        this turn and no enemy within 4; 0 for the Elves' free move after a Fight."""
        if slot == self.elf_free:
            return 0
        if self.enemy_adjacent(slot):
            return self.game.rules.orders["move_from_adjacent"]
        if not self.ordered[slot] and not self.enemy_within(slot, FREE_MOVE_DISTANCE):
            return 0
        return self.game.rules.orders["move"]

    def fight_cost(self) -> int:
        if self.frenzy and self.fights_issued < self.game.rules.effects["orcs_free_fights"]:
            return 0
        return self.game.rules.orders["fight"]

    def shoot_cost(self, slot: int) -> int:
        if self.unit[slot].kind == ARCHERS and not self.moved[slot]:
            return self.game.rules.orders["archer_shoot_unmoved"]
        return self.game.rules.orders["shoot"]

    def ability_cost(self, slot: int) -> int:
        if slot == self.general[self.owner[slot]] and self.unit[slot].kind == GENERAL:
            return self.game.rules.orders["general_heroic_ability"]
        return self.game.rules.orders["heroic_ability"]

    def general_alive(self, seat: int) -> bool:
        slot = self.general[seat]
        return self.hp[slot] > 0 and self.owner[slot] == seat and self.unit[slot].kind == GENERAL

    # -- legal actions -----------------------------------------------------------------

    def _legal_actions(self, seat: Seat) -> list[Action]:
        if self.winner >= 0 or seat != self.active:
            return []
        if self.picks:
            return self._legal_picks(seat)
        return legal_orders(self, seat)

    def fight_targets(self, slot: int) -> list[int]:
        """Adjacent enemies; diagonal ones too for Infantry that moved this turn."""
        seat, occ, owner, square = self.owner[slot], self.occ, self.owner, self.pos[slot]
        targets = [occ[n] for n in ORTH[square] if occ[n] >= 0 and owner[occ[n]] != seat]
        if self.unit[slot].kind == INFANTRY and self.moved[slot]:
            targets += [occ[n] for n in DIAG[square] if occ[n] >= 0 and owner[occ[n]] != seat]
        targets.sort()
        return targets

    def shoot_targets(self, slot: int) -> list[int]:
        """Enemies in Range, none if the shooter is adjacent to an enemy, and no enemy Hero
        that is adjacent to one of its own Troops."""
        if self.enemy_adjacent(slot):
            return []
        seat, row, reach_ = self.owner[slot], DIST[self.pos[slot]], self.unit[slot].range
        out = []
        for target in range(SLOTS):
            if (
                self.hp[target] > 0
                and self.owner[target] != seat
                and row[self.pos[target]] <= reach_
                and not (self.unit[target].kind <= HERO and self._guarded(target))
            ):
                out.append(target)
        return out

    def _guarded(self, hero: int) -> bool:
        seat, occ = self.owner[hero], self.occ
        for n in ORTH[self.pos[hero]]:
            other = occ[n]
            if other >= 0 and self.owner[other] == seat and self.unit[other].is_troop:
                return True
        return False

    def ability_targets(self, slot: int) -> list[int]:
        """Units within the ability's range it would act on: a friend that lacks the
        effect (a heal needs a wound), an enemy for a bolt, a dead non-Zombie on an empty
        square for Raise Dead."""
        ability = self.unit[slot].ability
        if ability is None:
            return []
        seat, row, effect, reach_ = (
            self.owner[slot],
            DIST[self.pos[slot]],
            ability.effect,
            ability.range,
        )
        hp, owner, pos, unit = self.hp, self.owner, self.pos, self.unit
        if effect == RAISE:
            occ = self.occ
            return [
                t
                for t in range(SLOTS)
                if hp[t] == 0
                and unit[t].kind != ZOMBIE
                and occ[pos[t]] < 0
                and row[pos[t]] <= reach_
            ]
        if effect not in FRIENDLY_EFFECTS:
            return [
                t for t in range(SLOTS) if hp[t] > 0 and owner[t] != seat and row[pos[t]] <= reach_
            ]
        mine = [t for t in range(SLOTS) if hp[t] > 0 and owner[t] == seat and row[pos[t]] <= reach_]
        if effect == HEAL:
            return [t for t in mine if hp[t] < unit[t].hp]
        done = self.warded if effect == WARD else self.blessed if effect == BLESS else self.inspired
        return [t for t in mine if not done[t]]

    def faction_ready(self, seat: int) -> bool:
        """5 Morale, and the ability would do something now."""
        if self.morale[seat] < self.game.rules.turn["faction_ability_morale"] or self.picks:
            return False
        faction = self.factions[seat]
        if faction == HUMANS:
            return not self.rally[seat]
        if faction == ORCS:
            return not self.frenzy
        if faction == ELVES:
            return bool(self.living(seat)) and bool(self.empty_objective_squares())
        return any(self.unit[s].kind == ZOMBIE for s in self.living(seat))

    def empty_objective_squares(self) -> list[int]:
        return sorted(s for s in OBJECTIVE_SQUARE_LIST if self.occ[s] < 0)

    def _legal_picks(self, seat: int) -> list[int]:
        out = [ids.DONE]
        if self.factions[seat] == ELVES:
            squares = self.empty_objective_squares()
            for slot in self.living(seat):
                if slot not in self.picked:
                    out.extend(ids.teleport_action(slot, s) for s in squares)
        else:
            out.extend(
                ids.explode_action(s) for s in self.living(seat) if self.unit[s].kind == ZOMBIE
            )
        return out

    def seat_name(self, seat: Seat) -> str:
        """The seat's faction (Humans, Orcs, Elves or Undead); in a mirror match also its
        colour on the board (blue, orange)."""
        title = RULES.faction_titles[self.factions[seat]]
        if self.factions[0] != self.factions[1]:
            return title
        return f"{title} ({('blue', 'orange')[seat]})"

    def why_illegal(self, seat: Seat, action: Action) -> str:
        return self.game.illegal_reason(self, seat, action)

    # -- transitions -------------------------------------------------------------------

    def apply_unchecked(self, seat: Seat, action: Action) -> list[Event]:
        events: list[Event] = []
        elf_free, self.elf_free = self.elf_free, -1
        if _MOVE <= action < _FIGHT:  # most orders are Moves: their test comes first
            slot, square = divmod(action - _MOVE, SQUARES)
            self._move(slot, square, elf_free, events)
        elif action < _MOVE:
            if action == ids.END:
                scoring.end_turn(self, events)
            elif action == ids.DONE:
                self.picks = 0
                events.append(Event("ability_done", seat))
            else:
                self._faction_ability(seat, events)
        elif action < ids.SHOOT:
            slot, target = divmod(action - ids.FIGHT, SLOTS)
            self._fight(slot, target, events)
        elif action < ids.ABILITY:
            slot, target = divmod(action - ids.SHOOT, SLOTS)
            self.op -= self.shoot_cost(slot)
            self.shot[slot] = True
            combat.attack(self, slot, target, False, events)
            self._order(slot)  # after the attack: it reads the orders before this one
        elif action < ids.TELEPORT:
            slot, target = divmod(action - ids.ABILITY, SLOTS)
            self._ability(slot, target, events)
        elif action < ids.EXPLODE:
            slot, square = divmod(action - ids.TELEPORT, SQUARES)
            self.lift(slot)
            self.place(slot, square)
            self.picked.append(slot)
            events.append(Event("teleport", seat, {"unit": slot, "square": NAMES[square]}))
            self._next_pick(seat)
        else:
            combat.explode(self, action - ids.EXPLODE, events)
            self._next_pick(seat)
        return events

    def _order(self, slot: int) -> None:
        self.ordered[slot] = True
        self.last_order[slot] = self.turn

    def _move(self, slot: int, square: int, elf_free: int, events: list[Event]) -> None:
        """A Move Order: its cost (:meth:`move_cost`, ``elf_free`` the Elves' free mover),
        worked out here with the one look at the start's neighbours that also decides a
        Cavalry charge."""
        start = self.pos[slot]
        owner, occ = self.owner, self.occ
        seat = owner[slot]
        adjacent = False
        for n in ORTH[start]:
            other = occ[n]
            if other >= 0 and owner[other] != seat:
                adjacent = True
                break
        orders = self.game.rules.orders
        if slot == elf_free:
            cost = 0
        elif adjacent:
            cost = orders["move_from_adjacent"]
        elif not self.ordered[slot] and not self.enemy_within(slot, FREE_MOVE_DISTANCE):
            cost = 0
        else:
            cost = orders["move"]
        charge = not adjacent and self.unit[slot].kind == CAVALRY
        self.op -= cost
        self.ordered[slot] = True
        self.last_order[slot] = self.turn
        self.moved[slot] = True
        occ[start] = -1
        self.occupied &= ~(1 << BIT[start])
        events.append(
            Event(
                "move",
                self.active,
                {"unit": slot, "from": NAMES[start], "to": NAMES[square], "cost": cost},
            )
        )
        if charge:
            combat.cavalry_impact(self, slot, start, square, events)
        self.pos[slot] = square
        occ[square] = slot
        self.occupied |= 1 << BIT[square]

    def _fight(self, slot: int, target: int, events: list[Event]) -> None:
        self.op -= self.fight_cost()
        self.fights_issued += 1
        self.fought[slot] = True
        self.targeted[target] = self.turn
        combat.attack(self, slot, target, True, events)
        self._order(slot)
        if (
            self.faction_of(slot) == ELVES
            and self.unit[slot].kind != CAVALRY
            and self.hp[slot] > 0
            and self.enemy_adjacent(slot)
        ):
            self.elf_free = slot

    def _ability(self, slot: int, target: int, events: list[Event]) -> None:
        ability = self.unit[slot].ability
        if ability is None:  # pragma: no cover - legal_actions never offers it
            return
        self.op -= self.ability_cost(slot)
        self._order(slot)
        self.used_ability[slot] = True
        effect = ability.effect
        events.append(
            Event("ability", self.active, {"unit": slot, "target": target, "name": ability.name})
        )
        if effect == HEAL:
            self.hp[target] = min(self.hp[target] + ability.amount, self.unit[target].hp)
            events.append(
                Event("heal", self.owner[target], {"unit": target, "hp": self.hp[target]})
            )
        elif effect == BOLT:
            combat.deal_damage(self, target, ability.amount, events)
        elif effect == WARD:
            self.warded[target] = True
        elif effect == BLESS:
            self.blessed[target] = True
        elif effect == INSPIRE:
            self.inspired[target] = True
        else:
            combat.rise(self, target, self.owner[slot], events)

    def _faction_ability(self, seat: int, events: list[Event]) -> None:
        self.morale[seat] -= self.game.rules.turn["faction_ability_morale"]
        faction = self.factions[seat]
        events.append(Event("faction_ability", seat, {"faction": RULES.faction_titles[faction]}))
        if faction == HUMANS:
            self.rally[seat] = True
        elif faction == ORCS:
            self.frenzy = True
        else:
            self.picks = self.game.rules.turn["faction_picks"]
            self.picked = []
            self._next_pick(seat, used=False)

    def _next_pick(self, seat: int, used: bool = True) -> None:
        if used:
            self.picks -= 1
        if self.picks and len(self._legal_picks(seat)) == 1:
            self.picks = 0

    # -- turns and scoring (see .scoring) ---------------------------------------------

    def controller(self, objective: int) -> int:
        """The seat with more units counted on the objective, or -1."""
        return scoring.controller(self, objective)

    def general_in_zone(self, seat: int) -> bool:
        return self.general_alive(seat) and IN_ZONE[seat][self.pos[self.general[seat]]]

    def points_now(self, seat: int) -> dict[str, int]:
        """What the seat would score if its turn ended now."""
        return scoring.points_now(self, seat)

    # -- results -----------------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        if self.winner < 0:
            return None
        return Outcome(
            winners=() if self.winner == 2 else (self.winner,),
            reason=self.reason,
            scores=(float(self.score[0]), float(self.score[1])),
            detail={"turns": self.turn + 1},
        )

    def clone(self) -> ManafieldsState:
        """A copy to explore: every slot written out in ``__init__`` (no loop over names),
        the lists copied, the scalars and the game shared."""
        return ManafieldsState(self.game, self)

    def _resample(self, seat: Seat, seed: int) -> ManafieldsState:
        """Nothing is hidden but the future dice: only the generator is redrawn."""
        new = self.clone()
        new.rng = Rng(mix_seed(seed, seat, 0x4D46))
        return new

    def _view(self, seat: Seat | None) -> JSON:
        return self.game.position_view(self, seat)

    def to_json(self) -> JSON:
        return self.game.position_json(self)

    def _describe_action(self, seat: Seat, action: Action) -> str:
        return self.game.describe_move(self, seat, action)


abc_bookkeeping(ManafieldsState)  # the compiled class lacks its own (meeple.core.compiled)


__all__ = ["ManafieldsRulebook", "ManafieldsState", "reach"]
