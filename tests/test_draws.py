"""The compiled draws (core/draws.py) make the standard library's: a seed deals what it dealt."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from spaghetti import Game
from spaghetti.core.draws import below, shuffle


@given(st.integers(0, 2**64), st.integers(0, 40))
def test_shuffle_orders_as_random_shuffle_does(seed, length):
    ours, theirs = list(range(length)), list(range(length))
    rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
    shuffle(rng_ours, ours)
    rng_theirs.shuffle(theirs)
    assert ours == theirs and rng_ours.getstate() == rng_theirs.getstate()


@given(st.integers(0, 2**64), st.integers(1, 10**6))
def test_below_draws_as_randrange_does(seed, n):
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for _ in range(5)] == [theirs.randrange(n) for _ in range(5)]


def test_a_seed_deals_the_program_the_standard_shuffle_deals():
    for level in (1, 2, 3):
        game = Game(level=level)
        for seed in range(50):
            names = [card.name for card in game.deck]
            random.Random(seed).shuffle(names)
            assert game.shuffled_program(seed) == names
            assert [card.name for card in game.new_state(seed=seed).kinds] == names


def test_a_seed_deals_the_instant_cards_the_standard_shuffle_deals():
    # (A deal of our own shuffles the cards, not their names: the same order all the same.)
    game = Game(level=3, options={"instant_cards": True})
    for seed in range(50):
        deal = [card.name for card in game.rules.instant]
        random.Random(f"instant {seed}").shuffle(deal)
        assert game.shuffled_deal(seed) == deal
        assert [card.name for card in game.new_state(seed=seed).deal] == deal


def test_a_generator_handed_over_deals_as_a_seed_would_from_its_state():
    # new_state(rng=...): the program and the instant cards shuffled with that generator, on
    # from its state (the environments deal a run of games so), on both paths alike.
    game = Game(level=3, options={"instant_cards": True})
    ours, theirs, python = random.Random(9), random.Random(9), random.Random(9)
    for _ in range(5):
        state = game.new_state(rng=ours)
        names = [card.name for card in game.deck]
        theirs.shuffle(names)
        deal = [card.name for card in game.rules.instant]
        theirs.shuffle(deal)
        assert [card.name for card in state.kinds] == names
        assert [card.name for card in state.deal] == deal
        twin = game.new_state(rng=python, python=True)
        assert twin.legal() == state.legal() and [c.name for c in twin.kinds] == names
    assert ours.getstate() == theirs.getstate() == python.getstate()
