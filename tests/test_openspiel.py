"""The OpenSpiel adapter passes OpenSpiel's own checks (skipped without open_spiel)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")
import spaghetti.openspiel  # noqa: E402,F401  (registers the game)


def test_random_sim_test_over_whole_games():
    game = pyspiel.load_game("spaghetti_code", {"max_decisions": 300})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def test_get_all_states_on_a_tiny_capped_game():
    """Four decisions (the first placements), then the cap adjudicates by the C9 tie-break."""
    from open_spiel.python.algorithms import get_all_states
    game = pyspiel.load_game("spaghetti_code", {"max_decisions": 4})
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=False)
    # 5 * 5 * 4 * 4 sequences of placements, but only the queues matter: fewer states
    assert 1 < len(states) <= 1 + 5 + 25 + 100 + 400
    terminals = [s for s in states.values() if s.is_terminal()]
    assert terminals and all(sum(s.returns()) == 0 and s.returns()[0] != 0 for s in terminals)


def test_cap_is_adjudicated_by_the_tie_break():
    game = pyspiel.load_game("spaghetti_code", {"max_decisions": 9})
    state = game.new_initial_state()
    for option in ["place 0", "place 3", "place 4", "place 0", "place 1", "place 2",
                   "place 3", "place 4", "run"]:
        action = next(a for a in state.legal_actions() if state.action_to_string(a) == option)
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns()[state.engine.tiebreak_winner()] == 1.0
