"""Rules versions: a change of the unit cards is a new ``manafields/<n>``, and every earlier
version stays registered with its own cards, so that its records replay bit-for-bit (the
``manafields/1`` golden playthroughs prove it on all 16 pairings)."""

from __future__ import annotations

import json
from importlib import resources

import pytest

import meeple.games  # noqa: F401  (registers the games)
from meeple.core import UnknownGame, load_game
from meeple.games.manafields import ManafieldsState
from meeple.games.manafields.data import FACTIONS, RULES, SLOTS, ZOMBIE, load_rules, unit_types
from meeple.games.manafields.game import EARLIER_VERSIONS, Manafields
from meeple.games.manafields.tensor import STATS as ENCODED_STATS
from meeple.games.manafields.tensor import ManafieldsEncoder

VERSIONS = sorted(RULES.roster_versions)


def _rules_text() -> str:
    package = "meeple.games.manafields"
    return resources.files(package).joinpath("data/rules.json").read_text("utf-8")


def test_earlier_cards_rebuild_each_older_versions_rosters() -> None:
    raw = json.loads(_rules_text())
    raw["version"] = 3
    raw["earlier_cards"] = {
        "2": {"humans/2": {"speed": 9}},
        "1": {"elves/1": {"ability": {"amount": 7}}, "humans/2": {"hp": 2}},
    }
    rules = load_rules(json.dumps(raw))
    assert rules.version == 3 and sorted(rules.roster_versions) == [1, 2, 3]
    humans, elves = FACTIONS.index("humans"), FACTIONS.index("elves")
    latest = rules.rosters_of(3)
    assert latest == rules.rosters
    assert latest[humans][2].speed == raw["factions"]["humans"]["units"][2]["speed"]
    second = rules.rosters_of(2)
    assert second[humans][2].speed == 9 and second[humans][2].hp == latest[humans][2].hp
    first = rules.rosters_of(1)
    assert first[humans][2].speed == 9, "a version's changes build on the next one's cards"
    assert first[humans][2].hp == 2
    ability = first[elves][1].ability
    assert ability is not None and ability.amount == 7
    assert ability.name == latest[elves][1].ability.name  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no rules version 4"):
        rules.rosters_of(4)


def test_every_version_is_registered_and_the_latest_is_the_default() -> None:
    assert load_game("manafields").info.version == RULES.version == VERSIONS[-1]
    for version in VERSIONS:
        game = load_game(f"manafields/{version}")
        assert game.info.version == version
        assert game.rosters == RULES.rosters_of(version)  # type: ignore[attr-defined]
    with pytest.raises(UnknownGame):
        load_game(f"manafields/{VERSIONS[-1] + 1}")
    classes = [*EARLIER_VERSIONS, Manafields]
    assert [c.info.version for c in classes] == VERSIONS, "one game class for each version"


def test_the_undead_deploy_ghouls_from_version_3_a_zombie_before() -> None:
    """Version 3 changes one card: the Zombie the Undead deploy becomes the Ghouls (Speed 3,
    3 HP), still a Zombie under the rules (it can explode, it is not a Troop). A Zombie that
    rises keeps the Zombie card in every version."""
    undead = FACTIONS.index("undead")
    ghouls = RULES.rosters_of(3)[undead][5]
    assert (ghouls.name, ghouls.kind, ghouls.speed, ghouls.hp) == ("Ghouls", ZOMBIE, 3, 3)
    before = RULES.rosters_of(2)[undead][5]
    assert (before.name, before.kind, before.speed, before.hp) == ("Zombie", ZOMBIE, 2, 4)
    assert (RULES.zombie.speed, RULES.zombie.hp) == (2, 4)
    changed = [
        (f, i)
        for f in range(len(FACTIONS))
        for i, card in enumerate(RULES.rosters_of(3)[f])
        if card != RULES.rosters_of(2)[f][i]
    ]
    assert changed == [(undead, 5)]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_match_deploys_and_rebuilds_its_versions_cards(version: int) -> None:
    game = load_game(f"manafields/{version}", 2, {"faction0": "orcs", "faction1": "elves"})
    state = game.new_initial_state(3)
    assert isinstance(state, ManafieldsState)
    rosters = RULES.rosters_of(version)
    expected = [*rosters[FACTIONS.index("orcs")], *rosters[FACTIONS.index("elves")]]
    assert state.unit == expected
    assert [state.hp[slot] for slot in range(SLOTS)] == [u.hp for u in expected]
    again = game.state_from_json(state.to_json())
    assert isinstance(again, ManafieldsState) and again.unit == expected
    view_units = state.view(0)["units"]
    assert [u["speed"] for u in view_units] == [u.speed for u in expected]


@pytest.mark.parametrize("version", VERSIONS)
def test_the_observation_holds_the_cards_of_the_matchs_version(version: int) -> None:
    game = load_game(f"manafields/{version}", 2, {"faction0": "humans", "faction1": "undead"})
    state = game.new_initial_state(5)
    assert isinstance(state, ManafieldsState)
    encoder = ManafieldsEncoder(game)
    numbers = encoder.layout.read(encoder.observe(state, 0), "units.numbers")
    first = numbers.shape[1] - len(ENCODED_STATS) - 2  # the stats, then two ability numbers
    for slot in range(SLOTS):
        unit = state.unit[slot]
        stats = [unit.hp, unit.speed, unit.to_hit, unit.armour, unit.damage, unit.range]
        assert list(numbers[slot, first : first + 6]) == stats
    assert set(unit_types(version)) == set(unit_types())
