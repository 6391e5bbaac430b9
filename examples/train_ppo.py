"""Train a masked PPO agent on Spaghetti Code level 1 and plot its win rate as it trains.

    pip install -e '.[rl]'      # sb3-contrib (with PyTorch) and matplotlib
    python examples/train_ppo.py [--steps 200000] [--eval-every 20000] [--eval-games 200]
                                 [--opponent random] [--seed 0] [--out docs/images]

The learner is one seat of a two-player game of level 1 (the seat drawn for each game), the
other seat a computer player (``--opponent``, random by default). sb3-contrib's ``MaskablePPO``
reads the legal actions from the environment's ``action_masks()``. Every ``--eval-every``
learner steps the current policy (deterministic, masked) plays ``--eval-games`` games against
the random player and as many against the easy player, seats alternating; the win rates go to
``<out>/ppo_win_rate.csv`` and the plot to ``<out>/ppo_win_rate.png``, with the wall-clock
time and steps taken (the compute it took) in the title and on the last line printed.

Not part of the test suite (docs/envs.md).
"""

from __future__ import annotations

import argparse
import csv
import pathlib
import platform
import time

import numpy as np

from spaghetti.envs.gymnasium import SpaghettiEnv


def win_rate(model, opponent: str, games: int, seed: int) -> float:
    """The share of ``games`` the policy wins against ``opponent``, seats alternating."""
    wins = 0
    for g in range(games):
        env = SpaghettiEnv(variant="spaghetti-code", level=1, players=2, seat=g % 2,
                           opponents=opponent)
        obs, _ = env.reset(seed=seed + g)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        wins += reward > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="learner steps in all")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--opponent", default="random", help="the training opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="docs/images")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO  # type: ignore[import-untyped]

    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    env = SpaghettiEnv(variant="spaghetti-code", level=1, players=2, seat=None,
                       opponents=args.opponent)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=2048,
                        batch_size=256, gamma=0.99, ent_coef=0.01)
    rows = []
    start = time.perf_counter()

    def evaluate(steps: int) -> None:
        rates = {opp: win_rate(model, opp, args.eval_games, 10_000 + steps)
                 for opp in ("random", "easy")}
        spent = time.perf_counter() - start
        rows.append((steps, rates["random"], rates["easy"], spent))
        print(f"{steps:>9,} steps  {spent:7.0f} s  win rate vs random {rates['random']:.2f}"
              f"  vs easy {rates['easy']:.2f}", flush=True)

    evaluate(0)
    done = 0
    while done < args.steps:
        chunk = min(args.eval_every, args.steps - done)
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        done += chunk
        evaluate(done)
    elapsed = time.perf_counter() - start

    with open(out / "ppo_win_rate.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["steps", "win_rate_vs_random", "win_rate_vs_easy", "seconds"])
        writer.writerows(rows)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([r[0] for r in rows])
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(steps, [r[1] for r in rows], marker="o", label="vs random")
    ax.plot(steps, [r[2] for r in rows], marker="s", label="vs easy")
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xlabel("learner steps")
    ax.set_ylabel(f"win rate ({args.eval_games} games)")
    ax.set_ylim(0, 1)
    ax.set_title(f"MaskablePPO, Spaghetti Code level 1 (trained vs {args.opponent}): "
                 f"{elapsed / 60:.0f} min on {platform.machine()}", fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "ppo_win_rate.png", dpi=120)
    print(f"{args.steps:,} steps in {elapsed:.0f} s ({args.steps / elapsed:,.0f} steps/s, "
          f"evaluation included), CPU only; plot: {out / 'ppo_win_rate.png'}")


if __name__ == "__main__":
    main()
