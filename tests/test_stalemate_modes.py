"""Auto stalemate must end a game exactly where manual stalemate first offers `declare` (C9).

The engine skips the repetition look-up for positions derived from the previous one when the
stalemate rule is automatic (docs/architecture.md); manual mode looks up every position. Playing
the same random choices in both modes, declaring at the first chance in manual mode, must give
the same game, move for move, and the same winner.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spaghetti
from spaghetti.core import notation as N


def play_both(level: int, players: int, seed: int) -> tuple:
    auto = spaghetti.new_game(level, players, seed=seed)
    manual = spaghetti.new_game(level, players, seed=seed, options={"stalemate": "manual"})
    rng = random.Random(seed)
    while not auto.is_over:
        options = auto.legal_actions()
        manual_options = manual.legal_actions()
        assert N.DECLARE not in manual_options
        assert tuple(manual_options) == tuple(options)
        choice = options[rng.randrange(len(options))]
        auto.apply_action(choice)
        manual.apply_action(choice)
        if auto.is_over and auto.reason == "stalemate":
            assert N.DECLARE in manual.legal_actions()
            manual.apply_action(N.DECLARE)
    assert manual.is_over
    return auto, manual


@settings(max_examples=60, deadline=None)
@given(level=st.integers(1, 3), players=st.integers(2, 5), seed=st.integers(0, 10**6))
def test_c9_auto_stalemate_ends_where_manual_first_offers_declare(level, players, seed):
    auto, manual = play_both(level, players, seed)
    assert auto.winner == manual.winner
    assert auto.reason == manual.reason
    extra = 1 if auto.reason == "stalemate" else 0
    assert manual.history[: len(manual.history) - extra] == auto.history


@pytest.mark.parametrize("seed", range(40))
def test_c9_manual_declare_ends_with_tiebreak_winner(seed):
    auto, manual = play_both(1, 2, seed)
    if manual.reason == "stalemate":
        assert manual.history[-1] == N.DECLARE
        assert manual.winner == auto.winner
