"""The compiled rules core against the readable Python one (spaghetti.core.engines): one source,
identical games. Every decision of random games of every game of the family, with every option,
is checked in lockstep: the legal options in order and every field of the state.

Where the install built no compiled core, both sides are Python; the lockstep test is then
skipped (it would compare a thing with itself), the rest still runs."""

from __future__ import annotations

import doctest
import pathlib
import random

import pytest
from hypothesis import given, settings

import spaghetti
from spaghetti.core import engines
from spaghetti.core.engines import differences, python_twin
from spaghetti.core.state import FIELDS
from test_properties import games, new, pick

needs_compiled = pytest.mark.skipif(
    not engines.COMPILED, reason="no compiled rules core was built (no C compiler or mypyc)")


def lockstep(fast, slow, rng):
    return engines.lockstep(fast, slow, lambda state: pick(state, rng))


def test_the_python_path_is_a_class_of_its_own_where_the_core_is_compiled():
    state = spaghetti.new_game(seed=1)
    twin = python_twin(state)
    assert (type(state) is type(twin)) == (not engines.COMPILED)
    assert engines.path() == ("compiled" if engines.COMPILED else "python")


@needs_compiled
@settings(max_examples=200, deadline=None)
@given(g=games)
def test_compiled_and_python_cores_play_identical_games(g):
    fast = new(g)
    slow = python_twin(fast)
    assert type(fast) is not type(slow)
    lockstep(fast, slow, random.Random(g["seed"]))


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_compiled_and_python_cores_play_identical_games_with_players_cards(seed):
    cards = (pathlib.Path(__file__).parents[1] / "examples" / "custom-cards.toml").read_text()
    fast = spaghetti.new_game(3, 2 + seed % 3, seed=seed, cards=cards,
                              options={"memory": True, "reverse_priority": seed % 2 == 0})
    lockstep(fast, python_twin(fast), random.Random(seed))


@needs_compiled
def test_copies_and_trial_runs_agree_across_the_cores():
    # C4's trial runs copy the state (_blank_copy) and search copies it (copy): the same
    # copies on both sides, played on, stay in lockstep.
    rng = random.Random(5)
    fast = spaghetti.new_game(3, 3, seed=5, options={"memory": True, "reverse_priority": True})
    slow = python_twin(fast)
    while len(fast.history) < 60 and not fast.is_over:
        action = pick(fast, rng)
        fast.apply_action(action)
        slow.apply_action(action)
    lockstep(fast.copy(), slow.copy(), random.Random(6))
    assert not differences(fast, slow)


def test_copy_assigns_every_field_and_copies_the_mutable_ones():
    for python in (False, True):
        state = spaghetti.Game(level=3, players=3).new_state(seed=2, python=python)
        rng = random.Random(2)
        while len(state.history) < 80 and not state.is_over:
            state.apply_action(pick(state, rng))
        state.seen_signature  # noqa: B018 (asked once: kept from then on)
        other = state.copy()
        for name in FIELDS:
            mine, theirs = getattr(state, name), getattr(other, name)
            assert mine == theirs, name
            if isinstance(mine, (list, set, dict)) and name != "seen_base":
                assert mine is not theirs, name  # (seen_base is shared: nothing writes it)
        blank = state._blank_copy()
        assert blank.history == [] and blank.seen == {} and blank.seen_sig is None
        assert not [name for name in FIELDS if name not in ("history", "seen", "seen_sig")
                    and getattr(blank, name) != getattr(state, name)]


PACKAGE = pathlib.Path(engines.__file__).parents[1]


def compiled_sources() -> list[pathlib.Path]:
    """The package's sources that have a compiled twin beside them (the solver's C core has
    no Python source: it is not among them)."""
    return [source for source in PACKAGE.rglob("*.py")
            if any(source.parent.glob(f"{source.stem}.cpython-*"))]


def test_the_compiled_modules_examples_run_on_their_python_source():
    # (pytest collects the doctests of the modules that are not compiled; conftest.py)
    compiled = compiled_sources()
    assert bool(compiled) == engines.COMPILED
    for source in compiled:
        parts = source.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        module = engines.python_module(name)
        assert module.__file__.endswith(".py")
        failed, _ = doctest.testmod(module, verbose=False)
        assert not failed, name


def test_the_compiled_modules_are_built_from_the_source_as_it_is():
    # A compiled module is what Python imports: after an edit to its source, nothing changes
    # until the project is installed again (pip install -e .), which this says plainly.
    stale = [str(source.relative_to(PACKAGE)) for source in compiled_sources()
             for built in source.parent.glob(f"{source.stem}.cpython-*")
             if built.stat().st_mtime < source.stat().st_mtime]
    assert not stale, f"rebuild the compiled core (pip install -e .): {', '.join(stale)} changed"


@pytest.mark.parametrize("bad", [True, 1.0, "pass", None, 2**70])
def test_an_action_id_that_is_no_int_is_refused_alike_on_both_paths(bad):
    state = spaghetti.new_game(seed=3)
    twin = python_twin(state)
    while state.deciding != "turn":
        action = state.legal_actions()[0]
        state.apply_action(action)
        twin.apply_action(action)
    assert 1 in state.legal_actions()  # (True and 1.0 equal a legal id here)
    for side in (state, twin):
        before, legal = list(side.history), side.legal_actions()
        with pytest.raises(Exception) as refused:
            side.apply_action(bad)
        assert type(refused.value).__name__ == "IllegalOptionError"  # (each path has its own)
        assert side.history == before and side.legal_actions() == legal


def test_the_history_keeps_the_action_ids_as_given():
    state = spaghetti.new_game(seed=3)
    while not state.is_over:
        action = state.legal_actions()[-1]
        state.apply_action(action)
        assert state.history[-1] is action


def test_a_legal_id_made_anew_is_taken_as_the_one_the_state_gave():
    # Found by identity first; an equal int made elsewhere (a record, a learner) still counts.
    state = spaghetti.new_game(seed=3)
    while not state.is_over:
        action = state.legal_actions()[-1]
        state.apply_action(int(str(action)))
        assert state.history[-1] == action


@pytest.mark.parametrize("level, players", [(1, 2), (3, 3)])
def test_random_play_driven_from_compiled_code_plays_the_same_games_on_both_paths(level, players):
    from spaghetti.ai import playout
    slow_playout = engines.python_module("ai.playout")
    game = spaghetti.Game(level=level, players=players)
    for seed in range(5):
        fast = game.new_state(seed=seed)
        slow = game.new_state(seed=seed, python=True)
        played = playout.play_at_random(fast, random.Random(seed).random)
        assert slow_playout.play_at_random(slow, random.Random(seed).random) == played
        assert fast.is_over and fast.history == slow.history and played == len(fast.history)
        loop = game.new_state(seed=seed)  # the same draws as a Python loop of the door
        draw = random.Random(seed).random
        while not loop.is_over:
            options = loop.legal_actions()
            loop.apply_action(options[int(draw() * len(options))])
        assert loop.history == fast.history


def test_random_play_stops_at_its_limit():
    from spaghetti.ai.playout import play_at_random
    state = spaghetti.new_game(seed=2)
    assert play_at_random(state, random.Random(1).random, limit=7) == 7
    assert len(state.history) == 7 and not state.is_over


def test_random_play_hands_the_state_the_ids_it_gave():
    # Compiled code that typed the ids as ints would unbox the one drawn and box it anew, and
    # the state would then find it by value (ids above 256 are new objects each time).
    from spaghetti.ai.playout import play_at_random
    state = spaghetti.Game(level=3).new_state(seed=4)
    draw = random.Random(5).random
    while not state.is_over:
        options = state.legal_actions()
        play_at_random(state, draw, limit=1)
        assert any(state.history[-1] is option for option in options)
    assert max(state.history) > 256  # (ids that small ints' cache would not have kept)
