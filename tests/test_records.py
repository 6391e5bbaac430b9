"""Game records (SPEC 7, P7): round trip, validation with positions, garbage never crashes."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spaghetti
from spaghetti import RecordError
from spaghetti.records import dumps, loads

from helpers import random_game, setup

L1 = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]


def record(**fields):
    base = {"format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1,
            "players": 2, "options": {}, "program": list(L1),
            "actions": ["place 0", "place 0", "place 1", "place 1"]}
    base.update(fields)
    return json.dumps({k: v for k, v in base.items() if v is not ...})


def error(text):
    with pytest.raises(RecordError) as info:
        loads(text)
    return str(info.value)


@pytest.mark.parametrize("level,players,seed", [(1, 2, 1), (2, 3, 2), (3, 5, 3), (3, 2, 4)])
def test_record_round_trip(level, players, seed):
    state = random_game(level, players, seed, {"placement_order": "snake"})
    text = dumps(state)
    data = json.loads(text)
    assert data["format"] == "spaghetti-record/1"
    assert data["program"] == list(state.program)
    assert data["options"]["placement_order"] == "snake"
    assert len(data["actions"]) == len(state.history)
    again = loads(text)
    assert again.position_key() == state.position_key()
    assert again.history == state.history
    assert (again.winner, again.reason) == (state.winner, state.reason)


def test_record_of_game_in_progress_round_trip():
    state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2, ["run", "card 4"])
    again = loads(dumps(state, meta={"event": "test"}))
    assert again.position_key() == state.position_key()
    assert again.legal() == state.legal() and again.to_move == state.to_move
    assert json.loads(dumps(state, meta={"event": "test"}))["meta"] == {"event": "test"}


def test_record_names_case_insensitive_p7():
    state = loads(record(program=["addflag", "MOVEFLAG", "RemoveFlag", "bug", "forkBomb"]))
    assert [k.name for k in state.kinds] == L1


def test_record_program_wins_over_seed_p7():
    state = loads(record(seed=12345))
    assert [k.name for k in state.kinds] == L1


def test_record_seed_only_reproducible():
    a = loads(record(program=..., seed=99, actions=[]))
    b = loads(record(program=..., seed=99, actions=[]))
    c = loads(record(program=..., seed=100, actions=[]))
    assert a.program == b.program
    assert sorted(a.program) == sorted(L1)
    assert a.program == tuple(spaghetti.new_game(1, 2, seed=99).program)
    assert c.program != a.program  # the seed decides the deal
    # a record written from a seeded game writes the program out
    assert json.loads(dumps(a))["program"] == list(a.program)


def test_record_bad_format():
    assert "format" in error(record(format="spaghetti-record/2"))
    assert "format" in error(record(format=...))


def test_record_unknown_variant():
    assert "variant" in error(record(variant="pasta-logic-x"))


@pytest.mark.parametrize("level", [0, 4, "1", True, None])
def test_record_bad_level(level):
    assert "level" in error(record(level=level))


@pytest.mark.parametrize("players", [1, 6, "2"])
def test_record_bad_players(players):
    assert "players" in error(record(players=players))


def test_record_unknown_card_names_its_position():
    message = error(record(program=["AddFlag", "MoveFlag", "Frobnicate", "Bug", "ForkBomb"]))
    assert "program[2]" in message and "Frobnicate" in message


def test_record_card_above_level():
    assert "program[4]" in error(record(program=L1[:4] + ["Reverse"]))


def test_record_too_few_cards():
    assert "program" in error(record(program=L1[:3]))


def test_record_illegal_action_names_its_index():
    message = error(record(actions=["place 0", "place 0", "place 1", "place 1", "place 1"]))
    assert "actions[4]" in message


def test_record_bad_notation_names_its_index():
    assert "actions[1]" in error(record(actions=["place 0", "plaice 0"]))


def test_record_non_string_action():
    assert "actions[2]" in error(record(actions=["place 0", "place 0", 3]))


@pytest.mark.parametrize("field", ["variant", "level", "players"])
def test_record_missing_fields(field):
    assert field in error(record(**{field: ...}))


def test_record_needs_program_or_seed():
    assert "seed" in error(record(program=...))


def test_record_unknown_field_refused_but_meta_allowed():
    assert "colour" in error(record(colour="red"))
    assert loads(record(meta={"anything": [1, 2]})).phase == "placement"
    assert "meta" in error(record(meta="not an object"))


def test_record_bad_options():
    assert "stalemate" in error(record(options={"stalemate": "never"}))
    assert "turbo" in error(record(options={"turbo": "on"}))
    assert "options" in error(record(options=["stalemate"]))


def test_record_not_json_or_not_object():
    assert "JSON" in error("{not json")
    error("[1, 2, 3]")
    error('"a string"')


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20)

keys = st.sampled_from(["format", "variant", "level", "players", "options", "program", "seed",
                        "actions", "meta"])
near_records = st.fixed_dictionaries(
    {"format": st.sampled_from(["spaghetti-record/1"])},
    optional={"variant": st.sampled_from(["spaghetti-code"]) | json_values,
              "level": st.integers(-1, 4) | json_values,
              "players": st.integers(0, 6) | json_values,
              "options": json_values,
              "program": st.lists(st.sampled_from(L1 + ["Reverse", "Increment", "x"]),
                                  max_size=8) | json_values,
              "seed": st.integers() | json_values,
              "actions": st.lists(st.sampled_from(["place 0", "place 1", "run", "pass",
                                                   "card 2", "flag 0.0", "place 9"]),
                                  max_size=12) | json_values,
              "meta": json_values})


@pytest.mark.parametrize("level", [[], [1], {}, {"a": 1}])
def test_record_unhashable_level_is_a_record_error(level):
    error(record(level=level))


def loads_or_record_error(text):
    try:
        state = loads(text)
    except RecordError:
        return None
    assert isinstance(state, spaghetti.State)
    return state


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(value=json_values | near_records | st.dictionaries(keys, json_values))
def test_loads_never_raises_anything_but_record_error_on_json(value):
    loads_or_record_error(json.dumps(value))


@settings(max_examples=200, deadline=None)
@given(text=st.text() | st.binary())
def test_loads_never_raises_anything_but_record_error_on_text(text):
    loads_or_record_error(text)
