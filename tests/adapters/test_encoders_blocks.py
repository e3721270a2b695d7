"""Each block of the games' own encoders holds what the view says: named features are read
back out of the vector and compared with the view's JSON."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from meeple.core import Game, State, load_game
from meeple.core.encoding import Vector, encoder_for
from meeple.core.tensor import BlockEncoder
from tests.adapters.test_encoders import CASES, IDS, sample_states

Check = Callable[[BlockEncoder, Vector, dict[str, Any]], None]


def one_hot(block: Vector) -> int | None:
    """The index of the 1 in a one-hot block, None if all 0."""
    hits = np.flatnonzero(block)
    assert len(hits) <= 1 and (block[hits] == 1).all()
    return None if len(hits) == 0 else int(hits[0])


def check_maatatahay(encoder: BlockEncoder, vector: Vector, view: dict[str, Any]) -> None:
    from meeple.games.maatatahay.data import FACINGS, TILES_PER_SEAT, space_name  # noqa: PLC0415
    from meeple.games.maatatahay.rules import PHASES  # noqa: PLC0415

    read = encoder.layout.read
    tiles = TILES_PER_SEAT
    assert one_hot(read(vector, "seat")) == view["seat"]
    assert PHASES[one_hot(read(vector, "phase")) or 0] == view["phase"]
    assert read(vector, "round")[0] == view["round"]
    for name in ("active", "decider", "first", "placing"):
        assert one_hot(read(vector, name)) == view[name], name
    hot = one_hot(read(vector, "hot"))
    assert view["hot"] == (None if hot is None else space_name(hot))
    for space, cell in enumerate(view["board"]):
        warrior = cell["warrior"]
        uid = one_hot(read(vector, "board.warrior")[space])
        facing = one_hot(read(vector, "board.facing")[space])
        if warrior is None:
            assert uid is None and facing is None
        else:
            assert uid is not None and facing is not None
            assert divmod(uid, tiles)[0] == warrior["seat"]
            assert encoder_tile_id(uid % tiles) == warrior["tile"]
            assert FACINGS[facing] == warrior["facing"]
        for block, key in (
            ("alive", "alive"),
            ("energy", "energy"),
            ("spirit", "spirit"),
            ("strength", "strength"),
            ("surrounded", "surrounded"),
        ):
            want = 0 if warrior is None else warrior[key]
            assert read(vector, f"board.{block}")[space] == want, (block, space)
        assert read(vector, "board.relic")[space] == cell["relic"]
        assert read(vector, "board.ground_energy")[space] == cell["crystals"]["energy"]
        assert read(vector, "board.ground_spirit")[space] == cell["crystals"]["spirit"]
        costs = view["relic_costs"].get(space_name(space), [0, 0])
        assert list(read(vector, "board.relic_cost")[:, space]) == costs
    stream = read(vector, "stream")
    for index, pair in enumerate(view["stream"]):
        for seat in (0, 1):
            assert encoder_tile_id(one_hot(stream[index, seat])) == pair[seat]["id"]
    assert not stream[len(view["stream"]) :].any()
    pair = read(vector, "pair")
    if view["pair"] is None:
        assert not pair.any()
    else:
        assert [encoder_tile_id(one_hot(pair[s])) for s in (0, 1)] == [
            t["id"] for t in view["pair"]
        ]
    storage = read(vector, "storage")
    assert [[s["energy"], s["spirit"]] for s in view["storage"]] == storage.tolist()
    relics = read(vector, "relics")
    for seat in (0, 1):
        assert [i + 1 for i in range(len(relics)) if relics[i, seat]] == view["relics"][seat]
    assert read(vector, "lost").tolist() == view["lost"]
    assert read(vector, "spirit_track")[0] == view["spirit_track"]
    assert read(vector, "bag").tolist() == [view["bag"]["energy"], view["bag"]["spirit"]]
    assert read(vector, "supply")[0] == view["supply"]
    assert read(vector, "decks").tolist() == view["decks"]
    assert read(vector, "free_spaces")[0] == view["free_spaces"]
    assert read(vector, "scores").tolist() == view["scores"]
    check_options(encoder, vector, view["options"])
    check_outcome(encoder, vector, view["outcome"])


def encoder_tile_id(index: int | None) -> int:
    from meeple.games.maatatahay.data import RULES  # noqa: PLC0415

    assert index is not None
    return RULES.tiles[index].id


def check_options(encoder: BlockEncoder, vector: Vector, options: dict[str, Any]) -> None:
    game = encoder.game
    for spec in game.info.options:
        name = f"options.{spec.name}"
        if name not in encoder.layout.blocks:
            continue
        block = encoder.layout.read(vector, name)
        if spec.choices is not None:
            assert spec.choices[one_hot(block) or 0] == options[spec.name]
        else:
            assert block[0] == float(options[spec.name])


def check_outcome(encoder: BlockEncoder, vector: Vector, outcome: dict[str, Any] | None) -> None:
    winners = encoder.layout.read(vector, "outcome.winners")
    draw = encoder.layout.read(vector, "outcome.draw")[0]
    if outcome is None:
        assert not winners.any() and draw == 0
    else:
        assert np.flatnonzero(winners).tolist() == outcome["winners"]
        assert draw == outcome["draw"]


def check_manafields(encoder: BlockEncoder, vector: Vector, view: dict[str, Any]) -> None:
    from meeple.games.manafields.data import FACTIONS, KINDS, NAMES  # noqa: PLC0415
    from meeple.games.manafields.tensor import STATS, TYPES, UNIT_NUMBERS  # noqa: PLC0415

    read = encoder.layout.read
    assert one_hot(read(vector, "seat")) == view["seat"]
    assert one_hot(read(vector, "active")) == view["active"]
    assert np.flatnonzero(read(vector, "deciding")).tolist() == view["deciding"]
    assert [FACTIONS[one_hot(row) or 0] for row in read(vector, "factions")] == view["factions"]
    for name in ("turn", "round", "turn_limit", "op", "lead_to_win", "fights_issued", "picks"):
        assert read(vector, name)[0] == view[name], name
    assert read(vector, "frenzy")[0] == view["frenzy"]
    for name in ("morale", "score", "lead", "points_now", "owed", "rally"):
        assert read(vector, name).tolist() == view[name], name
    labels = [unit["slot"] for unit in view["units"]]
    assert sorted(labels[i] for i in np.flatnonzero(read(vector, "picked"))) == sorted(
        view["picked"]
    )
    elf = one_hot(read(vector, "elf_free"))
    assert view["elf_free"] == (None if elf is None else labels[elf])
    controllers = [one_hot(row) for row in read(vector, "objectives")]
    assert controllers == [o["controller"] for o in view["board"]["objectives"]]
    numbers = read(vector, "units.numbers")
    for slot, unit in enumerate(view["units"]):
        assert one_hot(read(vector, "units.owner")[slot]) == unit["owner"]
        assert TYPES[one_hot(read(vector, "units.type")[slot]) or 0] == unit["type"]
        assert KINDS[one_hot(read(vector, "units.kind")[slot]) or 0] == unit["kind"]
        assert NAMES[one_hot(read(vector, "units.square")[slot]) or 0] == unit["square"]
        ability = one_hot(read(vector, "units.ability")[slot])
        assert (ability is None) == (unit["ability"] is None)
        row = dict(zip(UNIT_NUMBERS + STATS, numbers[slot].tolist(), strict=False))
        for key, value in row.items():
            assert value == unit[key], (slot, key)
        if unit["ability"] is not None:
            assert numbers[slot, -2:].tolist() == [
                unit["ability"]["range"],
                unit["ability"]["amount"],
            ]
    check_options(encoder, vector, view.get("options", dict(encoder.game.options)))
    check_outcome(encoder, vector, view["outcome"])


def check_maiterra(encoder: BlockEncoder, vector: Vector, view: dict[str, Any]) -> None:
    from meeple.games.maiterra import notation as ids  # noqa: PLC0415
    from meeple.games.maiterra.data import BUILDING_NAMES, CARD_NAMES, RULES, cell_of  # noqa: PLC0415
    from meeple.games.maiterra.rules import PHASES  # noqa: PLC0415
    from meeple.games.maiterra.tensor import SEAT_NUMBERS  # noqa: PLC0415

    read = encoder.layout.read
    assert one_hot(read(vector, "seat")) == view["seat"]
    assert PHASES[one_hot(read(vector, "phase")) or 0] == view["phase"]
    assert np.flatnonzero(read(vector, "deciding")).tolist() == view["deciding"]
    assert [one_hot(row) for row in read(vector, "sides")] == view["sides"]
    for name in ("turn", "turn_limit", "max_orders"):
        assert read(vector, name)[0] == view[name], name
    for name in ("targets", "side_points"):
        block = read(vector, name)
        assert {str(i): v for i, v in enumerate(block.tolist()) if v} == {
            k: v for k, v in view[name].items() if v
        }
    land = set()
    for field in view["board"]:
        cell = cell_of(field["field"])
        assert cell is not None
        land.add(cell)
        terrain = one_hot(read(vector, "board.terrain")[cell])
        assert RULES.terrains[terrain or 0] == field["terrain"]
        assert one_hot(read(vector, "board.owner")[cell]) == field["owner"]
        built = read(vector, "board.buildings")[cell]
        assert {BUILDING_NAMES[k]: n for k, n in enumerate(built.tolist()) if n} == field[
            "buildings"
        ]
        armies = read(vector, "board.armies")[:, :, cell]
        assert {str(s): a for s, a in enumerate(armies.tolist()) if any(a)} == field["armies"]
    for cell in set(range(25)) - land:
        assert not read(vector, "board.terrain")[cell].any()
        assert not read(vector, "board.buildings")[cell].any()
        assert not read(vector, "board.armies")[:, :, cell].any()
    seats = read(vector, "seats")
    for other, row in enumerate(view["seats"]):
        house = one_hot(read(vector, "houses")[other])
        assert row["house"] == (None if house is None else RULES.houses[house])
        numbers = dict(zip(SEAT_NUMBERS, seats[other].tolist(), strict=True))
        for key, value in numbers.items():
            assert value == (row[key] or 0), (other, key)
        if "hand" in row:
            hand = read(vector, "hand")
            assert sorted(row["hand"]) == sorted(
                CARD_NAMES[c] for c in range(len(CARD_NAMES)) for _ in range(int(hand[c]))
            )
    kinds = [one_hot(row) for row in read(vector, "queue")]
    assert [ids.KINDS[k] for k in kinds if k is not None] == [
        text.split()[0] for text in view["queue"]
    ]
    drafts = [one_hot(row) for row in read(vector, "draft_order")]
    assert [d for d in drafts if d is not None] == view["draft_order"]
    assert read(vector, "deck")[0] == view["deck"]
    discard = read(vector, "discard")
    assert sum(discard) == len(view["discard"])
    check_outcome(encoder, vector, view["outcome"])


CHECKS: dict[str, Check] = {
    "maatatahay": check_maatatahay,
    "maiterra": check_maiterra,
    "manafields": check_manafields,
}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seats", "options"), CASES, ids=IDS)
def test_blocks_hold_the_views_values(name: str, seats: int, options: dict[str, Any]) -> None:
    game: Game = load_game(name, seats, options)
    encoder = encoder_for(game)
    assert isinstance(encoder, BlockEncoder)
    check = CHECKS[name]
    states: list[State] = list(sample_states(game, playouts=2))
    for state in states:
        for seat in range(seats):
            check(encoder, encoder.observe(state, seat), state.view(seat))  # type: ignore[arg-type]
