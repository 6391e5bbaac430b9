"""Benchmark: the research environments' steps per second against the engine's own decisions.

    python benchmarks/env_speed.py [--seconds 3] [--players 2] [--repeat 3] [--dtype int8]

For each game of the family (level 1 and level 3 where it has levels), three figures, each the
best of ``--repeat`` runs of about ``--seconds`` seconds, one core:

- engine: random play through the integer door (``legal_actions`` / ``apply_action``), dealt by
  seed, as benchmarks/random_play.py measures it: decisions per second;
- PettingZoo: the AEC environment (``raw_env``, no wrappers) played by random masked actions:
  ``last()`` (the observation vector and the mask), a random legal id, ``step()``; steps per
  second (agents' decisions; the dead steps at the end of a game are not counted);
- Gymnasium: ``SpaghettiEnv`` with random opponents, the learner playing random masked
  actions: learner steps per second, and all the decisions they stand for (the opponents'
  included) per second;
- vector: ``SpaghettiVectorEnv`` of ``--envs`` games (random opponents), each step a random
  masked action in every game (drawn for all the games at once, as a batched policy would):
  the decisions its steps stand for per second of the environment's own time (``step`` and
  ``action_masks``; the random draw, which a learner's policy replaces, is not counted).

The environments give their observations as ``--dtype`` (``float32``, the default, or ``int8``:
the same numbers). The ratio is the environment's rate over the engine's. Figures go to
docs/performance.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from spaghetti.envs.gymnasium import SpaghettiEnv
from spaghetti.envs.encoding import OBSERVATION_DTYPES
from spaghetti.envs.vector import SpaghettiVectorEnv
from spaghetti.envs.pettingzoo import make_game, raw_env

GAMES = (("spaghetti-code", 1), ("spaghetti-code", 3), ("spaghetti-monsters", 1),
         ("spaghetti-monsters", 3), ("pasta-logic", 1), ("nightmare", 1))


def engine_rate(variant: str, level: int, players: int, seconds: float) -> float:
    return random_play_rate(make_game(variant, level, players), seconds)


def random_play_rate(game, seconds: float) -> float:
    """The engine's own decisions per second over seeded games of uniformly random play."""
    rng = random.Random(0)
    decisions, g = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += random_game(game, g, rng)
        g += 1
    return decisions / (time.perf_counter() - start)


def random_game(game, seed: int, rng: random.Random) -> int:
    """One game dealt with ``seed``, played through the integer door (``legal_actions`` /
    ``apply_action``) by uniformly random draws from ``rng``: its number of decisions."""
    state = game.new_state(seed=seed)
    legal_actions, apply_action = state.legal_actions, state.apply_action
    decisions = 0
    while not state.is_over:
        options = legal_actions()
        apply_action(options[int(rng.random() * len(options))])
        decisions += 1
    return decisions


def pettingzoo_rate(variant: str, level: int, players: int, seconds: float,
                    dtype: str = "float32") -> float:
    env = raw_env(variant=variant, level=level, players=players, seed=0,
                  observation_dtype=dtype)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def gymnasium_rate(variant: str, level: int, players: int, seconds: float,
                   dtype: str = "float32") -> tuple[float, float]:
    env = SpaghettiEnv(variant=variant, level=level, players=players, opponents="random",
                       observation_dtype=dtype)
    rng = np.random.default_rng(0)
    steps, decisions, episode = 0, 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=episode)
        episode += 1
        done = False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
            done = terminated or truncated
            steps += 1
        assert env.state is not None
        decisions += len(env.state.history)
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed


def vector_rate(variant: str, level: int, players: int, envs: int, seconds: float,
                dtype: str = "float32") -> float:
    """Decisions per second of the vector environment's own time (its ``step`` and
    ``action_masks``), the random agent's draw not counted: a learner's batched policy
    stands in its place."""
    vec = SpaghettiVectorEnv(envs, variant=variant, level=level, players=players,
                             opponents="random", observation_dtype=dtype)
    rng = np.random.default_rng(0)
    vec.reset(seed=0)
    # Each game's decisions, counted when it ends and at the close (none dropped, none twice).
    states = [env.state for env in vec.envs]
    decisions = -sum(len(state.history) for state in states)
    spent = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        began = time.perf_counter()
        masks = vec.action_masks()
        spent += time.perf_counter() - began
        # A random legal id per row, drawn for every row at once from the mask's nonzeros.
        rows, ids = np.nonzero(masks)
        counts = np.bincount(rows, minlength=envs)
        firsts = np.cumsum(counts) - counts
        actions = ids[firsts + (rng.random(envs) * counts).astype(np.int64)]
        began = time.perf_counter()
        _, _, terminated, truncated, _ = vec.step(actions)
        spent += time.perf_counter() - began
        for i in np.flatnonzero(terminated | truncated).tolist():
            decisions += len(states[i].history)
            states[i] = vec.envs[i].state
    decisions += sum(len(state.history) for state in states)
    return decisions / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--envs", type=int, default=64,
                        help="games in the vector environment (default 64)")
    parser.add_argument("--dtype", choices=tuple(OBSERVATION_DTYPES), default="float32",
                        help="the environments' observations (default float32)")
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {args.players} players, about {args.seconds} s "
          f"a run, best of {args.repeat}, {args.dtype} observations")
    print("| game | level | engine decisions/s | PettingZoo steps/s | ratio | "
          "Gymnasium steps/s | its decisions/s | ratio | vector decisions/s | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for variant, level in GAMES:
        if variant == "pasta-logic" and args.players != 2:
            continue
        engine = max(engine_rate(variant, level, args.players, args.seconds)
                     for _ in range(args.repeat))
        pz = max(pettingzoo_rate(variant, level, args.players, args.seconds, args.dtype)
                 for _ in range(args.repeat))
        gym_steps, gym_decisions = max((gymnasium_rate(variant, level, args.players,
                                                       args.seconds, args.dtype)
                                        for _ in range(args.repeat)), key=lambda r: r[0])
        vec = max(vector_rate(variant, level, args.players, args.envs, args.seconds, args.dtype)
                  for _ in range(args.repeat))
        print(f"| {variant} | {level} | {engine:,.0f} | {pz:,.0f} | {pz / engine:.3f} | "
              f"{gym_steps:,.0f} | {gym_decisions:,.0f} | {gym_decisions / engine:.3f} | "
              f"{vec:,.0f} | {vec / engine:.3f} |",
              flush=True)


if __name__ == "__main__":
    main()
