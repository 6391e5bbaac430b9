"""Helpers to build small positions by playing option strings (SPEC section 7)."""

from __future__ import annotations

import importlib.util
import pathlib
import random
from types import ModuleType

import spaghetti

PLACED = {1: 4, 2: 5, 3: 6}


def placement_seats(level: int, players: int, order: str = "round_robin") -> list[int]:
    """The seat of each placement in turn, worked out from SPEC 2.2 (not from the engine)."""
    seats = list(range(players))
    if order == "snake":
        seats = seats + seats[::-1]
    total = PLACED[level] * players
    return [seats[i % len(seats)] for i in range(total)]


def placements(level: int, players: int, flags: list[list[int]],
               options: dict | None = None) -> list[str]:
    """The `place N` options that put seat s's flags on the cards ``flags[s]``, in that order."""
    order = (options or {}).get("placement_order", "round_robin")
    todo = [list(cards) for cards in flags]
    assert all(len(cards) == PLACED[level] for cards in todo), "each seat places all its flags"
    return [f"place {todo[seat].pop(0)}" for seat in placement_seats(level, players, order)]


def play(level: int, players: int, program: list[str], actions: list[str],
         options: dict | None = None) -> spaghetti.State:
    """The state after playing ``actions`` (option strings) from the start of placement."""
    state = spaghetti.new_game(level, players, program=program, options=options or {})
    for option in actions:
        state.apply(option)
    return state


def setup(level: int, players: int, program: list[str], flags: list[list[int]],
          actions: list[str] = (), options: dict | None = None) -> spaghetti.State:
    """Place seat s's flags on ``flags[s]`` (round robin unless options say), then play actions."""
    return play(level, players, program, placements(level, players, flags, options) + list(actions),
                options)


def pass_until(state: spaghetti.State, cond, limit: int = 1000) -> spaghetti.State:
    """Answer `pass` at every turn until ``cond(state)`` holds (checked before each pass)."""
    for _ in range(limit):
        if cond(state) or state.is_over:
            return state
        state.apply("pass")
    raise AssertionError("condition never reached")


def random_game(level: int, players: int, seed: int, options: dict | None = None,
                max_steps: int = 20000) -> spaghetti.State:
    """A game played to the end with random legal options."""
    rng = random.Random(seed)
    state = spaghetti.new_game(level, players, seed=seed, options=options or {})
    for _ in range(max_steps):
        if state.is_over:
            return state
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    raise AssertionError("game did not end")


def placed(state: spaghetti.State, cards0: list[int], cards1: list[int]) -> spaghetti.State:
    """Two players place in turn: seat 0 on ``cards0[i]``, then seat 1 on ``cards1[i]``."""
    for a, b in zip(cards0, cards1):
        state.apply(f"place {a}")
        state.apply(f"place {b}")
    return state


class Budget(Exception):
    pass


def minimax_engine(state, budget):
    """Exhaustive minimax through the engine's door (its own auto stalemate), every decision
    a node; raises Budget when more than budget[0] nodes would be needed."""
    if state.is_over:
        return state.winner
    budget[0] -= 1
    if budget[0] < 0:
        raise Budget
    mover = state.to_move
    for a in state.legal_actions():
        child = state.copy()
        child.apply_action(a)
        if minimax_engine(child, budget) == mover:
            return mover
    return 1 - mover


def benchmark(name: str) -> ModuleType:
    """A script of ``benchmarks/`` loaded as a module (they are not a package)."""
    path = pathlib.Path(__file__).resolve().parent.parent / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_benchmark", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
