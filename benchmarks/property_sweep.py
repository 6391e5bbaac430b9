"""Wide random exploration of the rules core: the property tests' random games over many seeds.

    python benchmarks/property_sweep.py [--games 20000] [--seed 0] [--workers 2] [--memory-mb 2000]

The suite checks a fixed set of examples (the hypothesis profile ``ci``); this job draws game
setups at random, as ``tests/test_properties.py`` does (every game of the family, level, player
count and expansion), plays each to the end with random options, and checks the same invariants
after every decision: flags on cards + supply + hand + removed (+ on their way) = 10 per player,
chips conserved, no life rises where nothing heals, no eliminated player comes back or decides,
the game ends. Each worker runs under a memory limit. A failure prints its setup, to become a
named regression test. Not part of the suite.
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import pathlib
import random
import resource
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
FLAGS = ("reverse_priority", "memory", "reverse_flips_priority", "instant_cards", "interrupt",
         "sequential_open", "fair_first")
VARIANTS = ("spaghetti-code", "spaghetti-monsters", "pasta-logic", "nightmare")


def _properties():
    """The property tests' own game maker, random policy and invariant check."""
    sys.path.insert(0, str(ROOT / "tests"))
    spec = importlib.util.spec_from_file_location("test_properties",
                                                  ROOT / "tests" / "test_properties.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def setup_of(seed: int) -> dict:
    rng = random.Random(seed)
    g = {"level": rng.randint(1, 3), "players": rng.randint(2, 5), "seed": seed,
         "placement_order": rng.choice(["round_robin", "snake"]),
         "stalemate": rng.choice(["auto", "manual"]), "variant": rng.choice(VARIANTS)}
    g.update({name: rng.random() < 0.5 for name in FLAGS})
    return g


def play(args: tuple[int, int]) -> tuple[int, int, str | None]:
    """One game: (seed, decisions, failure or None)."""
    seed, memory_mb = args
    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    props = PROPS
    g = setup_of(seed)
    decisions = 0
    try:
        state = props.new(g)
        rng = random.Random(seed)
        lives, alive = list(state.lives), list(state.alive)
        while not state.is_over and decisions < props.MAX_STEPS:
            assert state.legal(), "no option before the game is over"
            if not state.is_chance:
                assert state.alive[state.to_move] or state.game.option("interrupt"), \
                    "an eliminated player decides"
            state.apply_action(props.pick(state, rng))
            decisions += 1
            props.check_invariants(state, g)
            if not state.game.heals:
                assert all(a <= b for a, b in zip(state.lives, lives)), "a life rose"
            assert not any(now and not was for was, now in zip(alive, state.alive)), \
                "an eliminated player came back"
            lives, alive = list(state.lives), list(state.alive)
        assert state.is_over, f"no end after {decisions} decisions"
    except (AssertionError, Exception, MemoryError) as exc:  # noqa: BLE001 (all are findings)
        return seed, decisions, f"{type(exc).__name__}: {exc} in {g}"
    return seed, decisions, None


def _init() -> None:
    global PROPS
    PROPS = _properties()


PROPS = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-mb", type=int, default=2000, help="per worker")
    args = parser.parse_args()
    start = time.perf_counter()
    games = decisions = 0
    failures = []
    jobs = [(s, args.memory_mb) for s in range(args.seed, args.seed + args.games)]
    with multiprocessing.Pool(args.workers, initializer=_init) as pool:
        for seed, n, failure in pool.imap_unordered(play, jobs, chunksize=20):
            games += 1
            decisions += n
            if failure:
                failures.append(failure)
                print(f"seed {seed}: {failure}", flush=True)
            if games % 1000 == 0:
                print(f"{games:,} games, {decisions:,} decisions, {len(failures)} failures, "
                      f"{time.perf_counter() - start:,.0f} s", file=sys.stderr, flush=True)
    print(f"{games:,} random games, {decisions:,} decisions checked, {len(failures)} failures "
          f"(seeds {args.seed}-{args.seed + args.games - 1}, "
          f"{time.perf_counter() - start:,.0f} s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
