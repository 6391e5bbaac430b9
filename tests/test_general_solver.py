"""The general solver (every game of the family, draws, chance, any number of players) and the
perfect player built on the solvers."""

from __future__ import annotations

import random

import pytest

import spaghetti
from spaghetti.ai import ProvingPlayer, make_player
from spaghetti.core import notation as N
from spaghetti.core.game import Game
from spaghetti.core.state import D_TURN
from spaghetti.solver.api import Timeout, fast_covers, solve
from spaghetti.solver.fast import from_state
from spaghetti.solver.general import GeneralSolver
from spaghetti.solver.search import Solver

pytestmark = pytest.mark.solver


def play_until(game: Game, seed: int, stop, games: int = 40):
    """The first state of random games (``run`` preferred) where ``stop(state)`` holds."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state(seed=rng.randrange(10**6))
        while not state.is_over:
            if stop(state):
                return state
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.8 else acts))
    return None


GAMES = {
    "spaghetti-code level 2": (Game(level=2), lambda s: max(s.lives) <= 1),
    "spaghetti-code 3 players": (Game(level=1, players=3), lambda s: sum(s.lives) <= 4),
    "pasta-logic": (Game(variant="pasta-logic"), lambda s: max(s.lives) <= 1),
    "spaghetti-monsters": (Game(variant="spaghetti-monsters", level=2),
                           lambda s: max(s.lives) <= 1),
    "nightmare with coin flips": (Game(variant="nightmare", options={"coin_flip": True}),
                                  lambda s: min(s.lives) <= 2 or max(s.lives) >= 18),
}


def late_states(name: str):
    """The late positions of GAMES[name] that random games reach, a seed at a time."""
    game, late = GAMES[name]
    for seed in range(12):
        state = play_until(game, seed, late, games=3)
        if state is not None:
            yield state


@pytest.mark.parametrize("name", list(GAMES))
def test_general_solver_value_is_the_best_of_its_childrens_values_on_every_game(name):
    """Bellman's equation, with each child solved by a fresh solver (no shared table): the
    value of a decision is the best of its options' values for the seat to move (the worst
    for the others), at a chance event the average by probability."""
    checked = 0
    for state in late_states(name):
        before = state.position_key()
        try:
            value = GeneralSolver(seat=0, time_limit=1).value(state)
            children = []
            if state.is_chance:
                outcomes = state.chance_outcomes()
            else:
                outcomes = [(N.to_string(a), None) for a in state.legal_actions()]
            for option, p in outcomes:
                child = state.copy()
                child.apply(option)
                children.append((p, GeneralSolver(seat=0, time_limit=2).value(child)))
        except Timeout:
            continue
        assert state.position_key() == before  # the solver works on copies
        if state.is_chance:
            expected = sum(p * v for p, v in children)
        else:
            pick = max if state.to_move == 0 else min
            expected = pick(v for _, v in children)
        assert value == pytest.approx(expected), name
        checked += 1
        if checked == 4:
            break
    assert checked >= 2, name


class _WholeSetKeys(GeneralSolver):
    """The solver keyed by the set of seen positions itself, as it was before the signature."""

    @staticmethod
    def _key(state):
        return state.position_key(), state.seen_positions


@pytest.mark.parametrize("name", list(GAMES))
def test_general_solver_keyed_by_the_seen_signature_searches_as_by_the_whole_set(name):
    """The table keys a history by its signature: the same values, and the same positions
    searched to reach them, as keyed by the set of seen positions itself (a budget of
    positions then ends a proof at the same place)."""
    compared = 0
    for state in late_states(name):
        results = []
        for solver in (GeneralSolver(seat=0, max_nodes=3000),
                       _WholeSetKeys(seat=0, max_nodes=3000)):
            try:
                results.append((solver.value(state), solver.nodes, len(solver.exact)))
            except Timeout:
                results.append(("open", solver.nodes, len(solver.exact)))
        assert results[0] == results[1], name
        compared += 1
        if compared == 3:
            break
    assert compared >= 2, name


def test_general_solver_agrees_with_the_level1_solver():
    compared = 0
    for seed in range(40):
        state = play_until(Game(level=1), seed,
                           lambda s: s.decision == D_TURN and sum(s.lives) <= 4)
        if state is None:
            continue
        model, pos, history = from_state(state)
        try:
            winner = Solver(model, time_limit=2).value(pos, history)
            value = GeneralSolver(seat=0, time_limit=2).value(state)
        except Timeout:
            continue
        assert value == (1.0 if winner == 0 else -1.0)
        compared += 1
        if compared == 8:
            break
    assert compared >= 5


class CoinGame:
    """A tiny game with the engine's door: seat 0 chooses a sure loss (action 0) or a coin
    (action 1) that seat 0 wins with probability ``p``."""

    def __init__(self, p: float, stage: str = "choose"):
        self.p, self.stage = p, stage
        self.seen_positions: frozenset = frozenset()
        self.seen_signature = 0  # (the signature of no positions seen)
        self.to_move = 0
        self.winner = None

    is_over = property(lambda self: self.stage in ("won", "lost"))
    is_chance = property(lambda self: self.stage == "coin")

    def position_key(self):
        return (self.stage,)

    def copy(self):
        return CoinGame(self.p, self.stage)

    def legal_actions(self):
        return (0, 1)

    def apply_action(self, action):
        self.stage = "lost" if action == 0 else "coin"
        self.winner = 1 if action == 0 else None

    def chance_outcomes(self):
        return [("heads", self.p), ("tails", 1 - self.p)]

    def apply(self, option):
        self.stage = "won" if option == "heads" else "lost"
        self.winner = 0 if option == "heads" else 1


@pytest.mark.parametrize("p", [0.5, 0.75, 0.2])
def test_chance_is_an_expectation(p):
    assert GeneralSolver(seat=0).value(CoinGame(p)) == pytest.approx(2 * p - 1)
    # for seat 1, seat 0 is the opponent: the coin is still its best (zero sum)
    assert GeneralSolver(seat=1).value(CoinGame(p)) == pytest.approx(1 - 2 * p)


def test_nightmare_chance_node_value_is_the_average_of_its_outcomes():
    game = Game(variant="nightmare", options={"coin_flip": True})
    checked = 0
    for seed in range(30):
        state = play_until(game, seed, lambda s: s.is_chance and min(s.lives) <= 3, games=3)
        if state is None:
            continue
        try:
            value = GeneralSolver(seat=0, time_limit=1).value(state)
            parts = []
            for option, p in state.chance_outcomes():
                child = state.copy()
                child.apply(option)
                parts.append(p * GeneralSolver(seat=0, time_limit=2).value(child))
        except Timeout:
            continue
        assert value == pytest.approx(sum(parts))
        checked += 1
        if checked == 3:
            break
    assert checked >= 2


def test_c18_pasta_logic_draw_is_solved_as_zero_and_the_line_reaches_it():
    game = Game(variant="pasta-logic")
    for seed in range(60):
        state = play_until(game, seed, lambda s: max(s.lives) <= 1, games=2)
        if state is None:
            continue
        result = solve(state, time_limit=10)
        if result.value != 0.0:
            continue
        assert result.winner is None and result.solver == "general"
        replay = state.copy()
        for option in result.line:
            replay.apply(option)
        assert replay.is_over and replay.draw
        return
    pytest.fail("no drawn Pasta Logic position found")


def test_solve_routes_level1_to_its_own_solver_and_the_rest_to_the_general_one():
    level1 = spaghetti.new_game(level=1)
    assert fast_covers(level1)
    assert not fast_covers(spaghetti.new_game(level=1, players=3))
    assert not fast_covers(spaghetti.new_game(level=2))
    assert not fast_covers(Game(level=1, options={"stalemate": "manual"}).new_state(seed=1))
    assert not fast_covers(Game(variant="pasta-logic").new_state(seed=1))
    with pytest.raises(spaghetti.SpaghettiError, match="seat 2 is not in this game"):
        solve(level1, seat=2)


def test_principal_line_of_a_won_position_is_a_won_game_on_every_game():
    for name, (game, late) in GAMES.items():
        if name.startswith("nightmare"):
            continue  # lines stop at coin flips
        done = False
        for seed in range(20):
            state = play_until(game, seed, late, games=2)
            if state is None:
                continue
            try:
                result = solve(state, time_limit=5, seat=state.to_move)
            except Timeout:
                continue
            if result.value != 1.0:
                continue
            replay = state.copy()
            for option in result.line:
                replay.apply(option)
            assert replay.is_over and replay.winner == state.to_move, name
            done = True
            break
        assert done, name


# ------------------------------------------------------------------ the perfect player

def test_perfect_player_keeps_a_proven_win():
    # Budgets in positions, not seconds: the player proves within SOLVER_NODES, so a position
    # the filter keeps is one it proves on any machine, however loaded.
    from spaghetti.ai.perfect import SOLVER_NODES
    kept = 0
    for seed in range(30):
        state = play_until(Game(variant="pasta-logic"), seed,
                           lambda s: max(s.lives) <= 2, games=2)
        if state is None:
            continue
        mover = state.to_move
        try:
            if solve(state, max_nodes=SOLVER_NODES, seat=mover).value != 1.0:
                continue
        except Timeout:
            continue
        player = ProvingPlayer(seed=1, fallback_nodes=100)
        option = player.choose(state)
        child = state.copy()
        child.apply(option)
        assert player.proven == 1
        assert child.is_over and child.winner == mover or \
            solve(child, max_nodes=4 * SOLVER_NODES, seat=mover).value == 1.0
        kept += 1
        if kept == 3:
            break
    assert kept >= 2


def test_perfect_player_never_peeks_where_the_game_hides_something(monkeypatch):
    import spaghetti.ai.perfect as perfect

    def peek(*args, **kwargs):
        raise AssertionError("the solver was asked about a game with hidden cards")

    monkeypatch.setattr(perfect, "proven_option", peek)
    state = Game(level=2, options={"instant_cards": True}).new_state(seed=3)
    player = ProvingPlayer(seed=2, fallback_nodes=200)
    for _ in range(30):
        if state.is_over:
            break
        if state.is_chance:
            state.apply(state.sample_chance(random.Random(0)))
            continue
        state.apply(player.choose(state))
    assert player.proven == 0


def test_perfect_is_a_difficulty():
    assert type(make_player("perfect", 1)).__name__ == "ProvingPlayer"


# ------------------------------------------------------------------ command line

def test_cli_solve_any_game_and_bad_seat(tmp_path):
    import json

    from click.testing import CliRunner

    from spaghetti import records
    from spaghetti.cli.main import cli
    state = play_until(Game(variant="spaghetti-monsters", level=2), 1, lambda s: max(s.lives) <= 1)
    path = tmp_path / "monsters.json"
    path.write_text(records.dumps(state))
    runner = CliRunner()
    out = runner.invoke(cli, ["solve", str(path), "--json", "--time-limit", "30"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["solver"] == "general" and data["value"] in (-1.0, 1.0)
    out = runner.invoke(cli, ["solve", str(path)])
    assert out.exit_code == 0 and "winner under perfect play: seat" in out.output
    out = runner.invoke(cli, ["solve", str(path), "--seat", "4"])
    assert out.exit_code == 2 and "seat 4 is not in this game" in out.output
    assert "Traceback" not in out.output
