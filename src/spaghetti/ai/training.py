"""How the learned evaluation (:mod:`spaghetti.ai.value`) learns: self-play, then a fit.

Training (:func:`self_play`, then :func:`fit`) is plain numpy on a CPU: positions sampled from
games between alpha-beta players (some decisions at random, so that the games differ), each
labelled with how the game ended for the seat that looks at it, and if asked partly with what
the self-play search made of it; mean squared error, Adam, a tenth of the games held out to
show the curve. ``spaghetti lab train-value`` runs both and writes the weights with the command,
the commit and the curve that made them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

from ..core.game import Game
from ..core.state import State
from ..errors import SetupError
from .value import ValueNet

#: A self-play game still on after this many decisions ends as a stalemate declared there
#: would (C9's tie-break), as the ladder and the OpenSpiel games judge theirs. Repetition ends
#: every game in the end, but with four players a seat behind on the tie-break can keep every
#: position new by moving cards: one such game of 4-player self-play ran for hours.
MAX_DECISIONS = 2_000


def play_one(game: Game, deal: int, nodes: int = 1000, explore: float = 0.1,
             sample: float = 0.25, judge: Callable[[State, int], object] | None = None,
             learned: bool = False, network: str | None = None,
             ) -> tuple[list[np.ndarray], list[float], list[float]]:
    """One game between alpha-beta players of ``nodes`` positions a decision, dealt with seed
    ``deal`` (its random draws seeded with it too, so that a game is the same wherever it is
    played); a decision is at random with odds ``explore``. A decision's position is kept with
    odds ``sample``, once for every seat: its observation (``int8``), how the game ended for
    that seat, and what the search made of the position for that seat (with more than two
    players, max-n's value for that seat). A game still on after ``MAX_DECISIONS`` ends by
    C9's tie-break. ``learned``: the players judge by the network that ships for the game
    (where one does), so that a network learns from the play of the one before it;
    ``network``, the path of a weights file: they judge by that network instead (one not
    shipped, read once a process). ``judge(state, seat)``, if given, is shown each kept
    position (to compare evaluations on the very positions learned from:
    benchmarks/value_quality.py)."""
    from ..envs.encoding import Encoder, program_length
    from .alphabeta import AlphaBetaPlayer

    encoder = Encoder(game, program_length(game, None))
    rng = random.Random(deal)
    state = game.new_state(seed=deal)
    player = AlphaBetaPlayer(max_nodes=nodes, seed=deal, learned=learned,
                             evaluation=None if network is None else _judge_by(network, game))
    kept: list[tuple[int, np.ndarray, float]] = []
    while not state.is_over and len(state.history) < MAX_DECISIONS:
        legal = state.legal_actions()
        keep = (state.phase == "execution" and len(legal) > 1 and not state.is_chance
                and rng.random() < sample)
        at_random = len(legal) > 1 and not state.is_chance and rng.random() < explore
        if at_random:
            action = legal[rng.randrange(len(legal))]
            if keep:  # what the search would have made of it
                scores = player.scores(state.lookahead())
                top = max(scores, key=scores.__getitem__)
                player.last_value = scores[top]
                player.last_values = player.vectors.get(top, [])
        else:
            action = player.choose_action(state)
        if keep:
            mover = state.to_move
            for seat in range(game.players):
                if judge is not None:
                    judge(state, seat)
                if game.players == 2:
                    searched = player.last_value if seat == mover else -player.last_value
                else:
                    searched = player.last_values[seat]
                kept.append((seat, encoder.encode(state, seat).astype(np.int8), searched))
        state.apply_action(action)
    returns = state.returns() if state.is_over else state.stalemate_returns()
    return ([row for _, row, _ in kept], [float(returns[seat]) for seat, _, _ in kept],
            [searched for _, _, searched in kept])


def _judge_by(network: str, game: Game) -> Callable[[State, int], float]:
    """The evaluation by the network in the weights file ``network``, for ``game``."""
    key = (network, id(game))
    if key not in _JUDGES:
        _JUDGES.clear()  # (one network, one game a run: keep the last alone)
        _JUDGES[key] = ValueNet.load(Path(network)).evaluation(game)
    return _JUDGES[key]


_JUDGES: dict[tuple[str, int], Callable[[State, int], float]] = {}


def self_play(game: Game, games: int, seed: int, nodes: int = 1000, explore: float = 0.1,
              sample: float = 0.25, workers: int = 1,
              progress: Callable[[int], None] | None = None, learned: bool = False,
              network: str | None = None,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The positions of ``games`` games (:func:`play_one`, game ``g`` dealt with seed
    ``seed + g``; ``learned`` and ``network`` as there), over ``workers`` processes. Returns
    ``(observations, results, searched, game numbers)``, in the games' order whatever the
    workers."""
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import nullcontext

    from ..envs.encoding import Encoder, program_length

    width = Encoder(game, program_length(game, None)).size
    rows: list[np.ndarray] = []
    results: list[float] = []
    searched: list[float] = []
    numbers: list[int] = []
    jobs = ([game] * games, range(seed, seed + games), [nodes] * games, [explore] * games,
            [sample] * games, [None] * games, [learned] * games, [network] * games)
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        played = pool.map(play_one, *jobs, chunksize=4) if pool else map(play_one, *jobs)
        for g, (kept, ends, values) in enumerate(played):
            rows += kept
            results += ends
            searched += values
            numbers += [g] * len(kept)
            if progress is not None:
                progress(g + 1)
    return (np.array(rows, dtype=np.int8).reshape(-1, width),
            np.array(results, dtype=np.float32), np.array(searched, dtype=np.float32),
            np.array(numbers, dtype=np.int32))


def _batches(n: int, size: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    order = rng.permutation(n)
    for start in range(0, n, size):
        yield order[start:start + size]


def fit(observations: np.ndarray, results: np.ndarray, numbers: np.ndarray,
        hidden: int = 64, epochs: int = 20, batch: int = 256, rate: float = 1e-3,
        decay: float = 1e-3, seed: int = 0, held_out: float = 0.1,
        progress: Callable[[int, float, float], None] | None = None,
        ) -> tuple[ValueNet, list[tuple[int, float, float]]]:
    """A network fitted by mean squared error with Adam (weight decay ``decay``); the games
    whose number falls in the last ``held_out`` of them are held out. Returns the network of
    the epoch with the least held-out error, and the curve ``(epoch, train, held-out)``."""
    if len(observations) == 0:
        raise SetupError("no positions to learn from: play more games")
    rng = np.random.default_rng(seed)
    cut = int(numbers.max() * (1 - held_out)) if held_out > 0 else int(numbers.max()) + 1
    train, test = numbers < cut, numbers >= cut
    x, y = observations[train].astype(np.float32), results[train]
    xv, yv = observations[test].astype(np.float32), results[test]
    n_in = x.shape[1]
    params = {"w1": rng.normal(0, (2 / n_in) ** 0.5, (hidden, n_in)).astype(np.float32),
              "b1": np.zeros(hidden, np.float32),
              "w2": rng.normal(0, (1 / hidden) ** 0.5, hidden).astype(np.float32),
              "b2": np.zeros(1, np.float32)}
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    curve: list[tuple[int, float, float]] = []
    best: tuple[float, dict[str, np.ndarray]] | None = None

    def error(xs: np.ndarray, ys: np.ndarray) -> float:
        if len(xs) == 0:
            return float("nan")
        net = ValueNet(params["w1"], params["b1"], params["w2"], float(params["b2"][0]))
        return float(np.mean((net.predict(xs) - ys) ** 2))

    for epoch in range(1, epochs + 1):
        for index in _batches(len(x), batch, rng):
            xb, yb = x[index], y[index]
            pre = xb @ params["w1"].T + params["b1"]
            h = np.maximum(pre, 0.0)
            out = np.tanh(h @ params["w2"] + params["b2"][0])
            d_out = 2 * (out - yb) / len(xb) * (1 - out ** 2)
            d_h = np.outer(d_out, params["w2"]) * (pre > 0)
            grads = {"w2": h.T @ d_out, "b2": np.array([d_out.sum()], np.float32),
                     "w1": d_h.T @ xb, "b1": d_h.sum(axis=0)}
            step += 1
            for k, g in grads.items():
                if k.startswith("w"):
                    g = g + decay * params[k]
                m, v = moments[k]
                m *= beta1
                m += (1 - beta1) * g
                v *= beta2
                v += (1 - beta2) * g * g
                m_hat = m / (1 - beta1 ** step)
                v_hat = v / (1 - beta2 ** step)
                params[k] -= (rate * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)
        train_error, test_error = error(x, y), error(xv, yv)
        curve.append((epoch, train_error, test_error))
        if progress is not None:
            progress(epoch, train_error, test_error)
        score = test_error if len(xv) else train_error
        if best is None or score < best[0]:
            best = (score, {k: v.copy() for k, v in params.items()})
    assert best is not None
    p = best[1]
    return ValueNet(p["w1"], p["b1"], p["w2"], float(p["b2"][0])), curve
