"""Benchmark: this tree against another commit, alternating in one run, as ratios.

    python benchmarks/versus.py [--base COMMIT] [--rounds 5] [--games 1500] [--mcts 1500]
                                [--kinds play,copy,mcts,search]

The machine is noisy, so absolute figures drift; ratios taken from runs that alternate
(base, this, base, this, ...) in one sitting do not. ``--base`` is checked out into a temporary
git worktree; each measurement runs in a fresh subprocess importing one tree's ``src``.
Measures: random-play decisions per second (levels 1-3, 2 and 5 players), ``state.copy()`` per
second, MCTS iterations per second (level 1-3, 2 players) and the positions per second of the
``normal`` search (level 3, 2-4 players, 20,000 positions from a position after 60 random
decisions); ``--kinds`` picks some of them. Prints the median of each side and
their ratio (this / base: above 1 is faster).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

# One measurement, run in a subprocess with the tree's src first on sys.path.
PROBE = r'''
import json, random, sys, time
from spaghetti import Game
kind, level, players, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
game = Game(level=level, players=players)
if kind == "play":
    rng = random.Random(0); decisions = 0; start = time.perf_counter()
    for g in range(n):
        state = game.new_state(seed=g)
        while not state.is_over:
            options = state.legal_actions()
            state.apply_action(options[int(rng.random() * len(options))]); decisions += 1
    print(json.dumps(decisions / (time.perf_counter() - start)))
elif kind == "copy":
    state = game.new_state(seed=1); rng = random.Random(1)
    while state.phase == "placement" or len(state.history) < 30:
        options = state.legal_actions(); state.apply_action(options[rng.randrange(len(options))])
    start = time.perf_counter()
    for _ in range(n):
        state.copy()
    print(json.dumps(n / (time.perf_counter() - start)))
elif kind == "search":
    from spaghetti.ai.alphabeta import AlphaBetaPlayer
    total = 0.0; nodes = 0
    for seed in range(3):
        state = game.new_state(seed=seed); rng = random.Random(seed)
        while state.phase != "execution" or len(state.history) < 60:
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
        player = AlphaBetaPlayer(max_nodes=n, seed=seed, rival="leader")
        start = time.perf_counter(); player.scores(state); total += time.perf_counter() - start
        nodes += player.nodes if hasattr(player, "nodes") else player._nodes  # older commits
    print(json.dumps(nodes / total))
else:
    from spaghetti.ai.mcts import MCTSPlayer
    total = 0.0; iterations = 0
    for seed in range(3):
        state = game.new_state(seed=seed); rng = random.Random(seed)
        while state.phase != "execution":
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
        player = MCTSPlayer(iterations=n, seed=seed)
        start = time.perf_counter(); player.search(state); total += time.perf_counter() - start
        iterations += n
    print(json.dumps(iterations / total))
'''


def measure(src: pathlib.Path, kind: str, level: int, players: int, n: int) -> float:
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(src)!r})\n"
                          + PROBE, kind, str(level), str(players), str(n)],
                         check=True, capture_output=True, text=True)
    return float(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="HEAD~1", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=5, help="alternations per measure")
    parser.add_argument("--games", type=int, default=1500, help="random games per run")
    parser.add_argument("--mcts", type=int, default=1500, help="MCTS iterations per position")
    parser.add_argument("--kinds", default="play,copy,mcts,search",
                        help="which measures, comma-separated")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    unknown = set(kinds) - {"play", "copy", "mcts", "search"}
    if unknown:
        parser.error(f"unknown measure {', '.join(sorted(unknown))}: play, copy, mcts, search")
    cases = [("play", level, players, args.games) for players in (2, 5) for level in (1, 2, 3)]
    cases += [("copy", level, 2, 100_000) for level in (1, 3)]
    cases += [("mcts", level, 2, args.mcts) for level in (1, 2, 3)]
    cases += [("search", 3, players, 20_000) for players in (2, 3, 4)]
    cases = [c for c in cases if c[0] in kinds]
    with tempfile.TemporaryDirectory() as tmp:
        base = pathlib.Path(tmp) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base),
                        args.base], check=True)
        try:
            print(f"base {args.base}, {args.rounds} alternating rounds, medians")
            print(f"{'measure':<8} {'level':>5} {'players':>7} {'base':>12} {'this':>12} "
                  f"{'ratio':>6}")
            for kind, level, players, n in cases:
                sides: dict[str, list[float]] = {"base": [], "this": []}
                for _ in range(args.rounds):
                    sides["base"].append(measure(base / "src", kind, level, players, n))
                    sides["this"].append(measure(ROOT / "src", kind, level, players, n))
                b, t = statistics.median(sides["base"]), statistics.median(sides["this"])
                print(f"{kind:<8} {level:>5} {players:>7} {b:>12,.0f} {t:>12,.0f} {t / b:>6.2f}",
                      flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False)


if __name__ == "__main__":
    main()
