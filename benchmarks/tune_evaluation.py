"""Fit the evaluation's weights to game results (logistic regression, "Texel tuning").

    python benchmarks/tune_evaluation.py --level 3 --players 2 --games 400 --seed 0 \
        --data /tmp/positions-3x2.npz

Plays ``--games`` games between greedy players that play a random option one decision in
``--epsilon`` (so the positions vary), and keeps every position with a choice, from the view of
each seat: the evaluation's terms (:func:`spaghetti.ai.evaluate.terms`) and a few candidate
terms, and whether that seat won. A logistic model ``P(win) = 1 / (1 + exp(-w . x))`` is fitted
on the games of even number and judged on the others (log loss, lower is better) against the
hand-set weights (their value ``v`` read as ``P(win) = (1 + v) / 2``). Since
``tanh(z / 2) = 2 P - 1``, a fitted weight halved is a weight of the evaluation.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rich.progress import track  # noqa: E402

from spaghetti.ai.evaluate import (WEIGHTS, _diff, evaluate, terms,  # noqa: E402
                                   upcoming_turns)
from spaghetti.ai.greedy import GreedyPlayer  # noqa: E402
from spaghetti.core.game import Game  # noqa: E402

BASE = tuple(WEIGHTS)
EXTRA = ("last_life", "to_move", "next_mine", "soon_hurt", "heads_hurt")


def features(state, seat: int) -> list[float]:
    """The evaluation's terms, then the candidates, each as seat minus the mean of the others."""
    base = terms(state, seat)
    players = state.players

    def diff(values):
        return _diff(values, seat, state.alive)

    last = [1.0 if state.alive[p] and state.lives[p] <= 1 else 0.0 for p in range(players)]
    to_move = [1.0 if state.to_move == p else 0.0 for p in range(players)]
    turns = upcoming_turns(state)
    next_mine = [1.0 if turns and turns[0][0] == p else 0.0 for p in range(players)]
    soon_hurt = [0.0] * players
    weight = 1.0
    for owner, card in turns:
        if state.kinds[card].hurts:
            soon_hurt[owner] += weight
        weight *= 0.8
    heads_hurt = [0.0] * players
    for c, kind in enumerate(state.kinds):
        owners = state.owners(c)
        if owners and kind.hurts:
            heads_hurt[owners[0]] += 1
    return [base[name] for name in BASE] + [diff(last), diff(to_move), diff(next_mine),
                                           diff(soon_hurt), diff(heads_hurt)]


def play(level: int, players: int, seed: int, epsilon: float):
    """(features, hand value, won) rows of one game, one per seat and position with a choice."""
    rng = random.Random(seed)
    state = Game(level=level, players=players).new_state(seed=seed)
    seats = [GreedyPlayer(seed * 10 + s) for s in range(players)]
    kept = []
    while not state.is_over:
        legal = state.legal()
        if len(legal) > 1 and state.to_move is not None:
            for p in range(players):
                if state.alive[p]:
                    kept.append((p, features(state, p), evaluate(state, p)))
        if state.to_move is None or rng.random() < epsilon:
            option = rng.choice(legal) if state.to_move is not None else \
                state.sample_chance(rng)
        else:
            option = seats[state.to_move].choose(state)
        state.apply(option)
    w = state.winner
    return [(x, v, 0.5 if w is None else float(w == p)) for p, x, v in kept]


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3) -> np.ndarray:
    """Logistic regression without intercept (the terms are differences: a position and its
    mirror must get opposite values), by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        grad = x.T @ (p - y) / len(y) + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / len(y) + l2 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--data", type=pathlib.Path, help="an .npz file: read if it exists, else "
                    "written after the games")
    args = ap.parse_args()
    if args.data is not None and args.data.exists():
        saved = np.load(args.data)
        x, hand, y, game = saved["x"], saved["hand"], saved["y"], saved["game"]
    else:
        rows, games = [], []
        for g in track(range(args.games), description="games"):
            for row in play(args.level, args.players, args.seed * 100_000 + g, args.epsilon):
                rows.append(row)
                games.append(g)
        x = np.array([r[0] for r in rows])
        hand = np.array([r[1] for r in rows])
        y = np.array([r[2] for r in rows])
        game = np.array(games)
        if args.data is not None:
            np.savez(args.data, x=x, hand=hand, y=y, game=game)
    train, test = game % 2 == 0, game % 2 == 1
    names = BASE + EXTRA
    print(f"{len(y):,} positions of {len(set(game.tolist())):,} games")
    hand_p = (1 + hand) / 2
    print(f"hand-set weights: log loss {log_loss(hand_p[test], y[test]):.4f} (held-out games)")
    base_cols = list(range(len(BASE)))
    for label, cols in (("the same terms, fitted", base_cols),
                        ("with the candidates", list(range(len(names))))):
        w = fit(x[train][:, cols], y[train])
        p = 1 / (1 + np.exp(-x[test][:, cols] @ w))
        print(f"{label}: log loss {log_loss(p, y[test]):.4f}")
        print("  weights (halved, as in the evaluation): " + ", ".join(
            f"{names[c]} {w[i] / 2:+.3f}" for i, c in enumerate(cols)))
    scale = math.tanh(sum(abs(v) for v in WEIGHTS.values()))
    print(f"(hand weights: {', '.join(f'{k} {v:+.3f}' for k, v in WEIGHTS.items())}; "
          f"tanh of their sum {scale:.2f})")


if __name__ == "__main__":
    main()
