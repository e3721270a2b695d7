"""Maatatahay's action notation: ``pick 2``, ``first W``, ``c3``, ``c3 s2``, ``N keep 1e2s``."""

from __future__ import annotations

import pytest

from meeple.core.errors import InvalidAction
from meeple.games.maatatahay import notation

from .builders import BALAN, GAME, HUNTER, WAZU, W, place, position, sq


def test_every_action_id_round_trips_through_its_notation():
    """``parse_action(format_action(a)) == a`` for every id, and every notation is distinct."""
    texts = set()
    for action in range(GAME.num_distinct_actions()):
        text = GAME.format_action(action)
        assert GAME.parse_action(text) == action, text
        texts.add(text)
    assert len(texts) == GAME.num_distinct_actions() == notation.NUM_ACTIONS


def test_every_action_id_round_trips_through_json():
    for action in range(GAME.num_distinct_actions()):
        data = GAME.action_to_json(action)
        assert data["id"] == action
        assert GAME.action_from_json(data) == action
        assert GAME.action_from_json(data["text"]) == action
        assert GAME.action_from_json(action) == action


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pick 1", 0),
        ("pick 2", 1),
        ("pick 3", 2),
        ("first B", 3),
        ("first W", 4),
        ("a1", notation.place_action(sq("a1"))),
        ("c3", notation.place_action(sq("c3"))),
        ("e5", notation.place_action(sq("e5"))),
        ("c3 s2", notation.place_action(sq("c3"), 2)),
        ("b4 s4", notation.place_action(sq("b4"), 4)),
        ("N keep 1e2s", notation.finish_action(0, 1, 2)),
        ("W keep 0e0s", notation.finish_action(3, 0, 0)),
        ("S keep 4e0s", notation.finish_action(2, 4, 0)),
    ],
)
def test_notation_examples(text, action):
    assert GAME.parse_action(text) == action
    assert GAME.format_action(action) == text


def test_action_json_has_structured_fields():
    assert GAME.action_to_json(1) == {"id": 1, "text": "pick 2", "kind": "pick", "pair": 2}
    assert GAME.action_to_json(4) == {"id": 4, "text": "first W", "kind": "first", "seat": 1}
    place_c3 = notation.place_action(sq("c3"), 2)
    assert GAME.action_to_json(place_c3) == {
        "id": place_c3,
        "text": "c3 s2",
        "kind": "place",
        "space": sq("c3"),
        "spirit_paid": 2,
    }
    finish = notation.finish_action(1, 1, 2)
    assert GAME.action_to_json(finish) == {
        "id": finish,
        "text": "E keep 1e2s",
        "kind": "finish",
        "facing": "E",
        "keep": {"energy": 1, "spirit": 2},
    }


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("  PICK   2 ", "pick 2"),
        ("pick2", "pick 2"),
        ("Pick 3", "pick 3"),
        ("first w", "first W"),
        ("FIRST  b", "first B"),
        ("C3", "c3"),
        (" c3\t", "c3"),
        ("C3 S2", "c3 s2"),
        ("c3s2", "c3 s2"),
        ("c3   s1", "c3 s1"),
        ("n keep 1e2s", "N keep 1e2s"),
        ("N KEEP 1E2S", "N keep 1e2s"),
        ("n  keep  1 e 2 s", "N keep 1e2s"),
        ("wkeep0e0s", "W keep 0e0s"),
    ],
)
def test_notation_forgives_case_and_spacing(text, canonical):
    assert GAME.format_action(GAME.parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "hello",
        "pick",
        "pick 0",
        "pick 4",
        "first",
        "first X",
        "first Balan",
        "f3",
        "c6",
        "c0",
        "c3 s0",
        "c3 s5",
        "c3 e1",
        "c3 c4",
        "N keep",
        "Q keep 1e1s",
        "N keep 1e",
        "N keep 5e0s",
        "NE keep 0e0s",
    ],
)
def test_garbage_is_rejected_with_invalid_action_quoting_the_text(text):
    with pytest.raises(InvalidAction) as info:
        GAME.parse_action(text)
    assert repr(text) in str(info.value)
    assert info.value.action == text
    assert info.value.to_json()["code"] == "action/invalid"


def test_keeping_more_than_four_is_not_notation():
    """ "Your personal storage can hold up to 4 Crystals at the end of your turn." -- no
    action keeps more, so the text is refused before any position is looked at."""
    with pytest.raises(InvalidAction, match="at most 4") as info:
        GAME.parse_action("N keep 3e2s")
    assert "'N keep 3e2s'" in str(info.value)


@pytest.mark.parametrize("value", [5, None, 2.0, ["c3"]])
def test_notation_must_be_text(value):
    with pytest.raises(InvalidAction, match="text"):
        GAME.parse_action(value)


@pytest.mark.parametrize("action", [-1, notation.NUM_ACTIONS, 10_000])
def test_ids_outside_the_action_space_have_no_notation(action):
    with pytest.raises(InvalidAction, match="action ids run"):
        GAME.format_action(action)


def test_json_with_id_and_text_must_agree():
    with pytest.raises(InvalidAction, match="different actions"):
        GAME.action_from_json({"id": 0, "text": "pick 2"})
    with pytest.raises(InvalidAction):
        GAME.action_from_json(True)
    with pytest.raises(InvalidAction):
        GAME.action_from_json({"move": "c3"})


def test_a_state_plays_notation():
    state = position(
        {"b3": W(BALAN, HUNTER, "E")}, to_place=(WAZU, HUNTER), storage=[(0, 0), (1, 2)]
    )
    events = place(state, WAZU, " C3 ", facing="e", keep="1E0S")
    assert [e.kind for e in events] == ["place", "finish"]
    assert state.view(None)["board"][sq("c3")]["warrior"]["facing"] == "E"
    assert state.view(None)["storage"][WAZU] == {"energy": 1, "spirit": 0}


def test_actions_are_described_in_sentences():
    state = position(to_place=(WAZU, HUNTER), storage=[(0, 0), (2, 1)])
    assert state.describe_action(WAZU, GAME.parse_action("c3")) == (
        "Wazu places Hunter (2 fangs) on c3"
    )
    state.play(WAZU, "c3")
    assert state.describe_action(WAZU, GAME.parse_action("E keep 1e1s")) == (
        "Wazu turns the warrior to face E, adds 1 Energy and 0 Spirit from storage, "
        "keeps 1 Energy and 1 Spirit"
    )
