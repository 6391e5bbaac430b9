"""The OpenSpiel adapter (spaghetti.interop.openspiel): OpenSpiel's own checks on it, and the
imperfect-information game's information states, chance deal and CFR."""

import itertools
import json
import random
from collections import defaultdict

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import numpy as np  # noqa: E402  (open_spiel brings it)
from spaghetti import SetupError  # noqa: E402
from spaghetti.core import notation as N  # noqa: E402
from spaghetti.core.view import view  # noqa: E402
from spaghetti.interop import openspiel as adapter  # noqa: E402

#: A position after the instant card draft and placement, the instant cards dealt by chance:
#: small enough for tabular CFR in a test.
OPENING = "take 0;take 1;place 0;place 1;place 1;place 0;place 2;place 3;place 3;place 2"
TINY_INSTANT = {"options": "instant_cards:true", "program": "Bug;AddFlag;MoveFlag;RemoveFlag",
                "opening": OPENING, "max_moves": 14}
#: Sequential open from the start: chance lays three cards face down.
TINY_OPEN = {"variant": "pasta-logic", "options": "sequential_open:true;setup:novice",
             "program": "Bug;Bug;Debug", "max_moves": 8}
#: The fair first player under sequential open: A lays the cards out face down to B.
TINY_FAIR = {**TINY_OPEN, "options": "sequential_open:true;fair_first:true;setup:novice",
             "max_moves": 10}


@pytest.mark.parametrize("name,params", [
    (adapter.SHORT_NAME, {}),
    (adapter.SHORT_NAME, {"variant": "pasta-logic", "seed": 3}),
    (adapter.SHORT_NAME, {"variant": "spaghetti-monsters", "level": 3}),
    (adapter.CHANCE_NAME, {"variant": "nightmare", "options": "coin_flip=true",
                           "max_moves": 400}),
    (adapter.SHORT_NAME, {"variant": "nightmare", "max_moves": 400}),
    (adapter.SHORT_NAME, {"options": "memory=true;reverse_priority=true", "level": 3,
                          "max_moves": 400}),
])
def test_openspiel_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [
    {"options": "instant_cards:true", "max_moves": 150},
    {"options": "sequential_open:true", "level": 2, "max_moves": 150},
    {"options": "instant_cards:true;sequential_open:true;fair_first:true", "level": 3,
     "max_moves": 150},
    {"variant": "spaghetti-monsters", "options": "instant_cards:true;memory:true",
     "max_moves": 150},
    {"variant": "pasta-logic", "options": "sequential_open:true", "max_moves": 150},
    {"variant": "nightmare", "options": "coin_flip:true", "max_moves": 150},
    TINY_INSTANT,
])
def test_openspiel_random_sim_test_of_the_imperfect_game_with_serialization(params):
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, params)
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_strings_read_back():
    for name, params in ((adapter.SHORT_NAME, {"program": "Bug,Bug,Bug,Bug",
                                               "options": "stalemate=manual"}),
                         (adapter.IMPERFECT_NAME, TINY_INSTANT)):
        game = pyspiel.load_game(name, params)
        again = pyspiel.load_game(str(game))
        assert again.get_parameters() == game.get_parameters()
        assert str(again) == str(game)
    assert game.get_parameters()["program"] == "Bug;AddFlag;MoveFlag;RemoveFlag"
    assert game.get_parameters()["options"] == "instant_cards:true"


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
    with pytest.raises(ValueError):
        adapter.encode(N.TAKE | 1)


def test_games_the_perfect_information_adapter_does_not_play_are_refused():
    for options in ("instant_cards=true", "sequential_open:true", "fair_first:true"):
        with pytest.raises(SetupError, match=adapter.IMPERFECT_NAME):
            adapter.SpaghettiGame({"options": options})
    with pytest.raises(SetupError, match="coin flip"):
        adapter.SpaghettiGame({"variant": "nightmare", "options": "coin_flip=true"})


# --------------------------------------------------------------------------- the chance deal

def deals(game):
    """Every way chance can deal, as (the referee's program and instant cards, probability)."""
    found = defaultdict(float)

    def walk(state, p):
        if not state.is_chance_node() or state.engine is not None:
            found[(state.state.program, tuple(c.name for c in state.state.deal))] += p
            return
        outcomes = state.chance_outcomes()
        assert abs(sum(q for _, q in outcomes) - 1) < 1e-12
        for outcome, q in outcomes:
            walk(state.child(outcome), p * q)

    walk(game.new_initial_state(), 1.0)
    return found


def test_chance_deals_the_face_down_program_one_card_at_a_time():
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_OPEN)
    root = game.new_initial_state()
    assert root.is_chance_node() and root.history() == []
    assert [root.action_to_string(pyspiel.PlayerId.CHANCE, o) for o, _ in
            root.chance_outcomes()] == ["deal Bug", "deal Debug"]
    found = deals(game)
    assert found == pytest.approx({(("Bug", "Bug", "Debug"), ()): 1 / 3,
                                   (("Bug", "Debug", "Bug"), ()): 1 / 3,
                                   (("Debug", "Bug", "Bug"), ()): 1 / 3})


def test_chance_deals_the_instant_cards_and_the_opening_follows():
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_INSTANT)
    found = deals(game)
    assert len(found) == 6 and list(found.values()) == pytest.approx([1 / 6] * 6)
    assert {deal for _, deal in found} == {
        tuple(p) for p in itertools.permutations(("MoveCommand", "MoveFlag", "Bug"))}
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)  # the third card is left: dealt at once
    assert not state.is_chance_node() and state.state.phase == "execution"
    assert [N.to_string(a) for a in state.state.history] == OPENING.split(";")
    assert len(state.history()) == 2  # the opening is part of the game, not of OpenSpiel's history


def test_the_opening_is_setup_and_placement_only():
    with pytest.raises(SetupError, match="setup and placement"):
        adapter.SpaghettiImperfectGame({**TINY_INSTANT, "opening": OPENING + ";run",
                                        "max_moves": 20})
    with pytest.raises(SetupError, match="not legal"):
        adapter.SpaghettiImperfectGame({**TINY_INSTANT, "opening": "take 0;take 0"})
    with pytest.raises(SetupError, match="max_moves"):
        adapter.SpaghettiImperfectGame({**TINY_INSTANT, "max_moves": 10})


# --------------------------------------------------------------------------- information states

def seen_by(state, seat):
    """What ``seat`` has seen, from the rules alone: its view (spaghetti.core.view) after every
    decision so far, and each decision but the arrangement face down to it. The reference the
    information state must match."""
    engine = state.state
    replay = engine.game.new_state(list(engine.program),
                                   deal=[c.name for c in engine.deal] or None)
    hide = engine.game.option("fair_first") and engine.game.option("sequential_open") and seat
    seen = []
    for action in engine.history:
        seen.append(json.dumps({k: v for k, v in view(replay, seat).items() if k != "legal"},
                               sort_keys=True))
        seen.append("arrange" if hide and N.kind(action) == N.ARRANGE else N.to_string(action))
        replay.apply_action(action)
    seen.append(json.dumps({k: v for k, v in view(replay, seat).items() if k != "legal"},
                           sort_keys=True))
    return tuple(seen)


def all_decisions(game):
    from open_spiel.python.algorithms.get_all_states import get_all_states
    states = get_all_states(game, depth_limit=-1, include_terminals=False,
                            include_chance_states=False)
    return list(states.values())


@pytest.mark.slow
@pytest.mark.parametrize("params", [TINY_INSTANT, TINY_OPEN, TINY_FAIR])
def test_an_information_state_is_exactly_what_the_seat_has_seen(params):
    """Two decisions share an information state string (and tensor) for a seat if and only if
    the seat has seen the same things; the player to move and the legal actions are then the
    same (what CFR needs), and so are the observations."""
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, params)
    states = all_decisions(game)
    assert len(states) > 100
    merged = 0
    for seat in (0, 1):
        by_string, by_tensor, by_seen = defaultdict(list), defaultdict(list), defaultdict(list)
        for state in states:
            key = state.information_state_string(seat)
            by_string[key].append(state)
            by_tensor[np.asarray(state.information_state_tensor(seat)).tobytes()].append(key)
            by_seen[seen_by(state, seat)].append(key)
        assert len(by_string) == len(by_seen) == len(by_tensor)
        merged += len(states) - len(by_string)
        assert all(len(set(keys)) == 1 for keys in by_seen.values())
        assert all(len(set(keys)) == 1 for keys in by_tensor.values())
        for group in by_string.values():
            first = group[0]
            for other in group[1:]:
                assert other.current_player() == first.current_player()
                if first.current_player() == seat:
                    assert other.legal_actions() == first.legal_actions()
                assert other.observation_string(seat) == first.observation_string(seat)
                assert other.observation_tensor(seat) == first.observation_tensor(seat)
    assert merged  # some decisions look alike to a seat: the game hides something


@pytest.mark.parametrize("seed", range(4))
def test_information_states_do_not_change_when_the_hidden_is_dealt_anew(seed):
    """Random games with every hidden thing: a seat's information state and observation are the
    same in any world it cannot tell from this one (State.determinize deals those anew)."""
    options = "instant_cards:true;sequential_open:true" + (";fair_first:true" if seed % 2 else "")
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, {"options": options, "level": 3,
                                                      "max_moves": 300})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            continue
        if rng.random() < 0.2:
            for seat in (0, 1):
                other = state.clone()
                other.engine = adapter._Copied(state.state.determinize(seat, rng))
                assert other.information_state_string(seat) == \
                    state.information_state_string(seat)
                assert other.information_state_tensor(seat) == \
                    state.information_state_tensor(seat)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.observation_tensor(seat) == state.observation_tensor(seat)
        state.apply_action(rng.choice(state.legal_actions()))


def test_strings_and_tensors_say_what_the_seat_knows():
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_INSTANT)
    state = game.new_initial_state()
    assert state.information_state_string(0) == "seat 0 | the deal"
    chance = {name: start for name, start, _ in game.encoder.layout()}["chance"]
    assert state.observation_tensor(0)[chance] == 1.0
    state.apply_action(2)  # Bug face down first, then MoveFlag: seat 1 takes 0, seat 0 takes 1
    state.apply_action(1)
    assert state.information_state_string(0) == (
        "seat 0 | instant MoveFlag,? | " + OPENING.replace(";", ", "))
    assert state.information_state_string(1).startswith("seat 1 | instant ?,Bug | take 0")
    assert "instant MoveFlag held,? held" in state.observation_string(0)
    assert "instant ? held,Bug held" in state.observation_string(1)
    tensor = np.asarray(state.information_state_tensor(0))
    rows = tensor[-game.max_moves * adapter.ROW:].reshape(game.max_moves, adapter.ROW)
    assert rows[:10].sum() > 0 and rows[10:].sum() == 0  # one row per decision so far
    assert rows[0, 1] == 1.0  # "take 0" was seat 1's


def test_tensor_shapes_are_fixed_and_named():
    from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation
    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_INSTANT)
    size = game.encoder.size
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [2 + size + 14 * adapter.ROW]
    info = make_observation(game, INFO_STATE_OBS_TYPE)
    assert list(info.dict)[:2] == ["seat", "cards"] and list(info.dict)[-1] == "history"
    assert info.dict["history"].shape == (14, adapter.ROW)
    assert info.dict["cards"].shape == (4, game.encoder.card_features)
    with pytest.raises(ValueError, match="SINGLE_PLAYER"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))


# --------------------------------------------------------------------------- CFR

@pytest.mark.slow
def test_cfr_lowers_exploitability_and_its_average_policy_is_a_distribution():
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_INSTANT)
    solver = cfr.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = exploitability.exploitability(game, solver.average_policy())
    for _ in range(4):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    last = exploitability.exploitability(game, average)
    assert 0 <= last < first * 0.5
    for state in all_decisions(game):
        probs = average.action_probabilities(state)
        assert set(probs) == set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0) and min(probs.values()) >= 0


@pytest.mark.slow
def test_monte_carlo_cfr_runs_on_sequential_open():
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability, external_sampling_mccfr

    game = pyspiel.load_game(adapter.IMPERFECT_NAME, TINY_OPEN)
    np.random.seed(0)  # (the sampler draws from numpy's global generator)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(50):
        solver.iteration()
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    assert exploitability.nash_conv(game, solver.average_policy()) < uniform / 2


def test_the_ladders_outside_reference_plays_whole_games_from_its_seeds(monkeypatch):
    """benchmarks/ladder.py's ``mctsbot``: OpenSpiel's MCTSBot searching the adapter's game
    plays legal options on the engine's states, and a game replays from its seeds."""
    from helpers import benchmark

    ladder = benchmark("ladder")
    monkeypatch.setattr(ladder, "MCTSBOT_SIMULATIONS", 20)
    job = {"level": 1, "players": 2, "x": "mctsbot", "y": "random", "deal": 3,
           "seating": [False, True], "clock": False}
    first, again = ladder.play(job), ladder.play(job)
    assert first["decisions"] > 10 and first["think"]["x"]
    assert (first["score"], first["decisions"]) == (again["score"], again["decisions"])
