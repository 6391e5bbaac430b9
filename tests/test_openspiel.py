"""The OpenSpiel adapter (spaghetti.interop.openspiel): OpenSpiel's own checks on it."""

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

from spaghetti import SetupError  # noqa: E402
from spaghetti.core import notation as N  # noqa: E402
from spaghetti.interop import openspiel as adapter  # noqa: E402


@pytest.mark.parametrize("name,params", [
    (adapter.SHORT_NAME, {}),
    (adapter.SHORT_NAME, {"variant": "pasta-logic", "seed": 3}),
    (adapter.SHORT_NAME, {"variant": "spaghetti-monsters", "level": 3}),
    (adapter.CHANCE_NAME, {"variant": "nightmare", "options": "coin_flip=true",
                           "max_moves": 400}),
])
def test_openspiel_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_get_all_states_of_a_tiny_position_and_its_values():
    from open_spiel.python.algorithms import minimax
    from open_spiel.python.algorithms.get_all_states import get_all_states

    game = pyspiel.load_game(adapter.SHORT_NAME, {"program": "Bug,Bug,Bug,Bug", "max_moves": 9})
    states = get_all_states(game, depth_limit=-1, include_terminals=True,
                            include_chance_states=True)
    assert len(states) > 1000
    ends = [s for s in states.values() if s.is_terminal()]
    assert ends and all(sum(s.returns()) == 0 and abs(s.returns()[0]) == 1 for s in ends)
    value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
    assert value in (-1.0, 1.0)


def test_the_decision_cap_is_adjudicated_by_the_stalemate_tie_break():
    game = pyspiel.load_game(adapter.SHORT_NAME, {"max_moves": 10, "seed": 4})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.state.history.__len__() == 10 and not state.state.is_over
    winner = state.state.tiebreak_winner()
    assert state.returns() == [1.0 if p == winner else -1.0 for p in range(2)]


def test_actions_are_compact_and_round_trip():
    for action in (N.PASS, N.DECLARE, N.PLACE | 17, N.FLAG | 17 << 8 | 31, N.PARAM | 3 << 8 | 1,
                   N.PLAYER | 1, N.AT | 5, N.INTERRUPT | 2, N.COIN | 1):
        compact = adapter.encode(action)
        assert 0 <= compact < adapter.NUM_ACTIONS and adapter.decode(compact) == action


def test_games_the_adapter_does_not_play_are_refused():
    with pytest.raises(SetupError, match="perfect information"):
        adapter.SpaghettiGame({"options": "instant_cards=true"})
    with pytest.raises(SetupError, match="coin flip"):
        adapter.SpaghettiGame({"variant": "nightmare", "options": "coin_flip=true"})
