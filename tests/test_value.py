"""The learned evaluation (spaghetti.ai.value): fitting, weights on disk, self-play data, its use
in the alpha-beta search, and the training command."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from click.testing import CliRunner

from spaghetti import Game
from spaghetti.ai.alphabeta import AlphaBetaPlayer
from spaghetti.ai.mcts import MCTSPlayer
from spaghetti.ai import make_player
from spaghetti.ai.training import fit, play_one, self_play
from spaghetti.ai.value import SCALE, WEIGHTS, ValueNet, game_key, learned_evaluation, shipped
from spaghetti.cli.main import cli
from spaghetti.errors import SetupError

#: The games a network ships for (level, players): Spaghetti Code's.
SHIPPED = [(2, 2), (3, 2), (3, 3), (3, 4)]


def small_net(inputs: int, seed: int = 0) -> ValueNet:
    rng = np.random.default_rng(seed)
    return ValueNet(rng.normal(0, 0.1, (4, inputs)).astype(np.float32),
                    np.zeros(4, np.float32), rng.normal(0, 0.5, 4).astype(np.float32), 0.1)


def to_execution(game: Game, seed: int):
    state = game.new_state(seed=seed)
    while state.phase != "execution":
        state.apply_action(state.legal_actions()[0])
    return state


def test_fit_learns_what_decides_the_result_and_holds_games_out():
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 4, (3000, 12)).astype(np.int8)
    y = np.where(x[:, 2] + x[:, 5] > 0, 1.0, -1.0).astype(np.float32)
    games = np.arange(3000) // 10
    net, curve = fit(x, y, games, hidden=16, epochs=15, rate=0.01, seed=0)
    assert len(curve) == 15
    assert curve[-1][2] < 0.3 * float(np.var(y))  # held-out error far below guessing the mean
    assert np.mean(np.sign(net.predict(x[games >= 270].astype(np.float32)))
                   == y[games >= 270]) > 0.9


def test_fit_refuses_an_empty_set_of_positions():
    with pytest.raises(SetupError, match="no positions"):
        fit(np.zeros((0, 5), np.int8), np.zeros(0, np.float32), np.zeros(0, np.int32))


def test_weights_round_trip_through_a_file(tmp_path):
    net = small_net(30)
    net.meta = {"game": "x", "curve": [[1, 0.5, 0.6]]}
    path = tmp_path / "w.npz"
    net.save(path)
    loaded = ValueNet.load(path)
    x = np.random.default_rng(2).integers(-2, 3, (20, 30)).astype(np.float32)
    assert loaded.meta == net.meta
    assert np.allclose(loaded.predict(x), net.predict(x), atol=1e-3)  # (w1 kept as float16)
    assert loaded.value(x[0]) == pytest.approx(float(loaded.predict(x[:1])[0]), abs=1e-6)


def test_an_evaluation_reads_only_a_game_of_its_size():
    game = Game(level=3, players=2)
    evaluate = small_net(1502).evaluation(game)
    state = game.new_state(seed=4)
    assert abs(evaluate(state, 0)) < SCALE
    with pytest.raises(SetupError, match="reads 1502 numbers"):
        small_net(1502).evaluation(Game(level=1, players=2))


@pytest.mark.parametrize("level, players", SHIPPED)
def test_the_shipped_evaluation_adds_what_changed_to_the_same_last_bit(level, players):
    # The evaluation a search calls keeps each seat's first-layer sums and adds only the
    # features that changed since the last position; its sums are exact, so it answers what
    # the network on the whole observation answers, to the last bit (the lab's games replay).
    import random

    from spaghetti.envs.encoding import Encoder, program_length

    game = Game(level=level, players=players)
    net = shipped(game)
    assert net is not None and net.exact_sums()
    evaluate = net.evaluation(game)
    encoder = Encoder(game, program_length(game, None))
    rng = random.Random(level * 10 + players)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_over and len(state.history) < 150:
            for seat in range(players):
                assert evaluate(state, seat) == SCALE * net.value_raw(encoder.raw(state, seat))
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])


def test_weights_not_of_half_precision_are_summed_whole():
    net = small_net(1502)  # (single precision: a sum could round differently grouped)
    assert not net.exact_sums()
    net.w1 = net.w1.astype(np.float16).astype(np.float32)
    assert net.exact_sums()
    net.w1[0, 0] = 1e-9  # (below half precision's grid)
    assert not net.exact_sums()
    game = Game(level=3, players=2)
    evaluate = small_net(1502).evaluation(game)
    state = game.new_state(seed=4)
    from spaghetti.envs.encoding import Encoder, program_length
    raw = Encoder(game, program_length(game, None)).raw
    assert evaluate(state, 1) == SCALE * small_net(1502).value_raw(raw(state, 1))


def test_a_bias_is_exact_by_its_lowest_bit_and_ships_on_the_weights_grid(tmp_path):
    # A unit's sums start at its bias: a bias of a millionth with all its 24 bits set would
    # make large sums round, one whose low bits are clear does not, and saving puts every
    # bias on the weights' grid of 2**-24 (moving it by at most 2**-25).
    net = small_net(1502)
    net.w1 = np.full_like(net.w1, 2.0 ** -4)  # (a unit's sum up to 99 * 1502 / 16)
    net.b1[:] = np.float32(2.0 ** -20 * (1 + 2.0 ** -10))  # (its lowest bit: 2**-30)
    assert net.exact_sums()
    net.b1[0] = np.float32(2.0 ** -20 * (1 + 2.0 ** -23))  # (2**-43)
    assert not net.exact_sums()
    path = tmp_path / "w.npz"
    net.save(path)
    saved = ValueNet.load(path)
    assert saved.exact_sums()
    assert np.max(np.abs(saved.b1 - net.b1)) <= 2.0 ** -25
    assert np.array_equal(saved.b1 * 2.0 ** 24, np.round(saved.b1 * 2.0 ** 24))


def test_a_self_play_game_still_on_at_the_cap_ends_by_the_tie_break(monkeypatch):
    """With four players a seat behind on C9's tie-break can keep every position new for
    hours; self-play stops at a cap and labels the game as a stalemate declared there."""
    from spaghetti.ai import training

    monkeypatch.setattr(training, "MAX_DECISIONS", 60)
    seen = []
    rows, ends, _ = play_one(Game(level=3, players=4), 11, nodes=30, sample=1.0,
                             judge=lambda state, seat: seen.append(state))
    state = seen[-1]  # (the one state of the game, played on in place: now at the cap)
    assert not state.is_over and len(state.history) == 60
    winner = state.tiebreak_winner()
    labels = [1.0 if seat == winner else -1.0 for seat in range(4)]
    assert rows and ends == labels * (len(ends) // 4)


def test_self_play_with_more_players_keeps_max_n_value_for_each_seat():
    """With three or more players the search's value of a kept position is max-n's, one for
    each seat: the value of the option played (or the best, where the move was at random)
    for the seat the row is of."""
    game = Game(level=3, players=3)
    _, _, searched = play_one(game, 5, nodes=60, sample=0.5)
    assert searched and not any(np.isnan(searched))
    assert all(-1 <= v <= 1 for v in searched)
    # One row a seat for every position kept: the seats' values differ, as max-n's do.
    assert len(searched) % 3 == 0 and any(
        len(set(searched[i:i + 3])) > 1 for i in range(0, len(searched), 3))
    player = AlphaBetaPlayer(max_nodes=60, seed=5)
    state = to_execution(game, 5)
    option = player.choose_action(state)
    assert player.last_values and player.last_values == player.vectors[option]
    assert player.last_values[state.to_move] == player.last_value
    two = AlphaBetaPlayer(max_nodes=60, seed=5)
    two.choose_action(to_execution(Game(level=3, players=2), 5))
    assert two.vectors == {} and two.last_values == []


def test_a_self_play_game_is_the_same_wherever_it_is_played():
    game = Game(level=1, players=2)
    rows, ends, searched = play_one(game, 7, nodes=40, sample=0.5)
    again, ends_again, searched_again = play_one(game, 7, nodes=40, sample=0.5)
    assert ends == ends_again and all(np.array_equal(a, b) for a, b in zip(rows, again))
    assert searched == searched_again
    assert rows and set(ends) <= {-1.0, 0.0, 1.0}
    # Two players: what the search made of a position for one seat, the other seat loses.
    assert all(-1 <= v <= 1 for v in searched)
    assert all(searched[i] == -searched[i + 1] for i in range(0, len(searched), 2))
    x, y, v, g = self_play(game, 3, seed=7, nodes=40, sample=0.5, workers=2)
    assert np.array_equal(x[:len(rows)], np.array(rows)) and list(y[:len(ends)]) == ends
    assert list(v[:len(searched)]) == pytest.approx(searched)
    assert list(g) == sorted(g) and set(g) <= {0, 1, 2}


def test_learned_self_play_searches_with_the_shipped_network():
    """``learned``: the self-play players judge by the network that ships for the game, so a
    network can learn from the play of the one before it; the same game by hand differs."""
    game = Game(level=3, players=2)
    assert shipped(game) is not None
    _, _, by_net = play_one(game, 9, nodes=40, sample=1.0, learned=True)
    _, _, by_hand = play_one(game, 9, nodes=40, sample=1.0)
    assert by_net != by_hand
    _, _, v, _ = self_play(game, 1, seed=9, nodes=40, sample=1.0, learned=True)
    assert list(v) == pytest.approx(by_net)


def test_alpha_beta_judges_its_horizon_by_the_evaluation_it_is_given():
    game = Game(level=3, players=2)
    calls = []
    inner = small_net(1502).evaluation(game)

    def counted(state, seat):
        calls.append(seat)
        return inner(state, seat)

    state = to_execution(game, 2)
    option = AlphaBetaPlayer(max_nodes=200, seed=1, evaluation=counted).choose(state)
    assert option in state.legal() and calls


@pytest.mark.parametrize("level", [2, 3])
def test_normal_and_hard_judge_by_the_network_where_one_ships(level):
    game = Game(level=level, players=2)
    assert shipped(game) is not None
    assert learned_evaluation(game) is learned_evaluation(game)  # loaded once a process
    state = to_execution(game, 3)
    normal = make_player("normal", 1, clock=False)
    normal.choose(state)
    assert normal._judge is learned_evaluation(game)
    hard = make_player("hard", 1, clock=False)
    hard.choose(state)
    assert hard.fallback._judge is learned_evaluation(game)
    by_hand = make_player("normal", 1, clock=False, learned=False)
    by_hand.choose(state)
    assert by_hand._judge is None


@pytest.mark.parametrize("options", [{}, {"sequential_open": True}])
def test_the_evaluation_keeps_card_blocks_and_judges_as_if_written_afresh(options):
    # (Its cache of card blocks a seat: a search's positions mostly share their cards.)
    from spaghetti.envs.encoding import Encoder, program_length

    game = Game(level=3, players=3, options=options)
    encoder = Encoder(game, program_length(game, None))
    net = small_net(encoder.size, seed=2)
    evaluate = net.evaluation(game)
    rng = np.random.default_rng(4)
    for deal in range(4):
        state = game.new_state(seed=deal)
        while not state.is_over:
            for seat in range(3):
                assert evaluate(state, seat) == SCALE * net.value_raw(encoder.raw(state, seat))
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            if rng.random() < 0.2:  # a search's jumps between branches
                state = state.copy()


@pytest.mark.parametrize("level, players, options, small", [
    (3, 3, {}, False), (3, 2, {}, False), (2, 2, {"fair_first": True}, True), (3, 4, {}, True),
    (3, 3, {"sequential_open": True}, True)])
def test_every_seat_judged_from_one_observation_is_each_seats_to_the_last_bit(
        level, players, options, small):
    """Max-n and MCTS judge a position for every seat: the observation is written once, for
    seat 0, and each seat reads it through its first layer's rows renumbered
    (``LearnedJudge.every_seat``); the values are each seat's own, to the last bit, and where
    the seats know different things (sequential open) each seat's is written as before."""
    import random

    from spaghetti.ai.evaluate import LearnedJudge, every_seat
    from spaghetti.envs.encoding import Encoder, program_length

    game = Game(level=level, players=players, options=options)
    encoder = Encoder(game, program_length(game, None))
    net = small_net(encoder.size, seed=5) if small else shipped(game)
    assert net is not None
    if small:
        net.w1 = net.w1.astype(np.float16).astype(np.float32)
    evaluate = net.evaluation(game)
    assert isinstance(evaluate, LearnedJudge)
    assert bool(evaluate.rotated) == ("sequential_open" not in options)
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_state(seed=seed)
        while not state.is_over and len(state.history) < 120:
            expected = [SCALE * net.value_raw(encoder.raw(state, seat))
                        for seat in range(players)]
            assert every_seat(evaluate, state) == expected
            options_now = state.legal_actions()
            state.apply_action(options_now[rng.randrange(len(options_now))])
            if rng.random() < 0.2:  # a search's jumps between branches
                state = state.copy()


def test_the_kernel_for_every_seat_refuses_weights_that_do_not_fit():
    from spaghetti.ai import value as module

    if module._kernel_all is None:
        pytest.skip("the C kernel was not built")
    rows = bytes(4 * 10 * 2)
    with pytest.raises(ValueError, match="do not fit"):
        module._kernel_all(bytes(10), bytearray(10), [bytearray(16)], [rows, rows],
                           bytes(8), bytes(8), 0.0)
    with pytest.raises(ValueError, match="do not fit"):
        module._kernel_all(bytes(10), bytearray(10), [bytearray(8)], [rows], bytes(8),
                           bytes(8), 0.0)
    with pytest.raises(TypeError, match="values_from"):
        module._kernel_all(bytes(10), bytearray(10), (bytearray(16),), [rows], bytes(8),
                           bytes(8), 0.0)


def test_a_network_judges_the_game_with_options_that_change_only_the_order_of_play():
    rulebook = shipped(Game(level=3, players=2))
    snake = shipped(Game(level=3, players=2, options={"placement_order": "snake"}))
    assert rulebook is not None and snake is not None
    assert np.array_equal(snake.w1, rulebook.w1)
    assert shipped(Game(level=3, players=2, options={"fair_first": True})) is None
    assert shipped(Game(level=3, players=2, options={"instant_cards": True})) is None
    assert shipped(Game(level=3, players=2, options={"stalemate": "manual"})) is None


def test_a_game_without_a_network_plays_as_by_hand():
    game = Game(level=1, players=2)
    assert learned_evaluation(game) is None
    state = to_execution(game, 4)
    for _ in range(6):
        if state.is_over:
            break
        learned = make_player("normal", 7, clock=False).choose(state)
        assert learned == make_player("normal", 7, clock=False, learned=False).choose(state)
        state.apply(learned)


def test_mcts_playouts_end_in_the_networks_judgement_where_one_ships():
    game = Game(level=3, players=2)
    state = to_execution(game, 5)
    learned = MCTSPlayer(iterations=60, seed=3, learned=True)
    rows = learned.analyse(state)
    assert learned._judge is learned_evaluation(game)
    assert {option for option, _, _ in rows} == set(state.legal())
    assert all(0.0 <= chance <= 1.0 for _, _, chance in rows)
    other = to_execution(Game(level=1, players=2), 5)  # no network: the same search as before
    assert (MCTSPlayer(iterations=60, seed=3, learned=True).analyse(other)
            == MCTSPlayer(iterations=60, seed=3).analyse(other))


def test_the_training_command_plays_learns_and_writes_what_made_the_weights(tmp_path):
    runner = CliRunner()
    positions, weights, curve = tmp_path / "p.npz", tmp_path / "w.npz", tmp_path / "c.svg"
    args = ["lab", "train-value", "--level", "1", "--games", "4", "--nodes", "30",
            "--epochs", "2", "--sample", "0.5", "--bootstrap", "0.5",
            "--positions", str(positions),
            "--out", str(weights), "--plot", str(curve)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert positions.exists() and weights.exists() and curve.exists()
    # (No terminal here, so no bar: its progress comes as lines, as in a log.)
    assert "self-play games: 4 of 4 (100 %)" in result.output
    net = ValueNet.load(weights)
    assert net.meta["game"] == "spaghetti-code-l1-2p" and net.meta["games"] == 4
    assert len(net.meta["curve"]) == 2 and net.inputs == 757 and net.meta["bootstrap"] == 0.5
    again = runner.invoke(cli, args[:-6] + ["--positions", str(positions),
                                            "--out", str(tmp_path / "w2.npz")])
    assert again.exit_code == 0 and "read from" in again.output
    other = runner.invoke(cli, ["lab", "train-value", "--level", "3", "--positions",
                                str(positions), "--out", str(tmp_path / "w3.npz")])
    assert other.exit_code != 0 and "spaghetti-code-l1-2p" in other.output
    assert "Traceback" not in other.output
    with np.load(positions) as data:
        assert json.loads(str(data["meta"]))["nodes"] == 30


def test_a_network_learns_from_the_play_of_one_not_shipped(tmp_path):
    # --learned-from: the self-play players judge by the network in a file (a game with no
    # network shipped, so without it they would judge by hand); its positions differ, and the
    # weights and the positions keep which network played them.
    runner = CliRunner()
    first = tmp_path / "gen1.npz"
    base = ["lab", "train-value", "--level", "1", "--games", "3", "--nodes", "30",
            "--epochs", "1", "--sample", "0.5"]
    assert runner.invoke(cli, base + ["--out", str(first)]).exit_code == 0
    game = Game(level=1, players=2)
    by_hand = play_one(game, 500_000, nodes=30, sample=0.5)
    by_first = play_one(game, 500_000, nodes=30, sample=0.5, network=str(first))
    again = play_one(game, 500_000, nodes=30, sample=0.5, network=str(first))
    assert [r.tobytes() for r in by_first[0]] == [r.tobytes() for r in again[0]]
    assert by_first[2] != by_hand[2]  # (the search's values are the network's, not by hand)
    positions, second = tmp_path / "p.npz", tmp_path / "gen2.npz"
    result = runner.invoke(cli, base + ["--learned-from", str(first), "--positions",
                                        str(positions), "--out", str(second)])
    assert result.exit_code == 0, result.output
    made = ValueNet.load(second).meta["learned_from"]
    assert made == {"file": "gen1.npz",
                    "sha256": hashlib.sha256(first.read_bytes()).hexdigest()[:16]}
    with np.load(positions) as data:
        assert json.loads(str(data["meta"]))["learned_from"] == made
    wrong = runner.invoke(cli, ["lab", "train-value", "--level", "3", "--games", "1",
                                "--learned-from", str(first)])
    assert wrong.exit_code != 0 and "judges spaghetti-code-l1-2p" in wrong.output
    both = runner.invoke(cli, base + ["--learned", "--learned-from", str(first)])
    assert both.exit_code != 0 and "one network judges" in both.output
    for bad in (wrong, both):
        assert "Traceback" not in bad.output


@pytest.mark.parametrize("hidden", [16, 64, 67])  # (the kernel's vectorized sums and a tail)
def test_the_c_kernel_and_its_python_twin_give_the_same_number_to_the_last_bit(hidden):
    from spaghetti.ai import value as module

    rng = np.random.default_rng(3)
    net = ValueNet(rng.normal(0, 0.2, (hidden, 300)).astype(np.float32),
                   rng.normal(0, 0.1, hidden).astype(np.float32),
                   rng.normal(0, 0.5, hidden).astype(np.float32), 0.05)
    for _ in range(50):
        x = rng.integers(-99, 100, 300) * (rng.random(300) < 0.1)
        raw = x.astype(np.int8).tobytes()
        python = net._value_python(raw)
        assert python == pytest.approx(float(net.predict(x[None].astype(np.float32))[0]),
                                       abs=1e-5)
        if module._kernel is not None:
            assert net.value_raw(raw) == python  # exactly


def test_the_kernel_refuses_weights_that_do_not_fit():
    from spaghetti.ai import value as module

    if module._kernel is None:
        pytest.skip("the C kernel was not built")
    with pytest.raises(ValueError, match="do not fit"):
        module._kernel(bytes(10), bytes(4 * 9 * 2), bytes(8), bytes(8), 0.0)


def test_networks_ship_for_the_games_listed_and_no_other():
    names = sorted(path.stem for path in WEIGHTS.glob("*.npz"))
    assert names == sorted(game_key(Game(level=lv, players=p)) for lv, p in SHIPPED)
    assert shipped(Game(level=1, players=2)) is None  # (none ships for level 1 yet)


@pytest.mark.parametrize("level, players", SHIPPED)
def test_the_shipped_network_says_what_made_it_and_judges_its_game(level, players):
    game = Game(level=level, players=players)
    net = shipped(game)
    assert net is not None
    assert net.meta["game"] == game_key(game) and net.meta["command"].startswith(
        "spaghetti lab train-value")
    assert f"--players {players}" in net.meta["command"]
    assert net.meta["games"] > 0 and net.meta["curve"] and net.meta["commit"]
    evaluate = net.evaluation(game)
    state = to_execution(game, 11)
    values = [evaluate(state, seat) for seat in range(players)]
    assert all(abs(v) < SCALE for v in values)
