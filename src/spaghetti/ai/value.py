"""A learned evaluation: a small network that reads a position as the environments encode it
and says how it ends, trained on games the computer plays against itself.

The network sees what one seat may know (:class:`spaghetti.envs.encoding.Encoder`, seats
counted from that seat) and answers a number in (-1, 1): the seat's expected result, +1 a win
and -1 a loss, as ``State.returns()`` scores a finished game. It is one hidden layer of
rectified units and a ``tanh`` out, small enough to run in a few microseconds (in C,
``_value.c``, where it is built), so a search can call it at every position it leaves
unexplored (``AlphaBetaPlayer(evaluation=...)``).

Training (:func:`self_play`, then :func:`fit`) is plain numpy on a CPU: positions sampled from
games between alpha-beta players (some decisions at random, so that the games differ), each
labelled with how the game ended for the seat that looks at it, and if asked partly with what
the self-play search made of it; mean squared error, Adam, a tenth of the games held out to
show the curve. ``spaghetti lab train-value`` runs both and
writes the weights with the command, the commit and the curve that made them; the weights that
ship are in ``spaghetti/ai/weights/`` (docs/architecture.md, "The learned evaluation").
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..core.game import Game
from ..core.state import State
from ..errors import SetupError

_kernel: Callable[[bytes | bytearray, bytes, bytes, bytes, float], float] | None
try:  # the network on one observation, in C (setup.py builds it where a compiler is)
    from ._value import value as _kernel
except ImportError:  # pragma: no cover (the install built no C)
    _kernel = None

#: Where the weights that ship with the package live, one file a game.
WEIGHTS = Path(__file__).parent / "weights"
#: An unfinished position is worth at most this much (a finished one is worth its result), as
#: for the hand-written evaluation.
SCALE = 0.9


def game_key(game: Game) -> str:
    """The name of a game's weights: variant, level and players (rulebook options only)."""
    return f"{game.variant}-l{game.level}-{game.players}p"


@dataclass
class ValueNet:
    """``tanh(w2 . relu(w1 x + b1) + b2)`` over the observation ``x`` of one game's layout."""

    w1: np.ndarray  # hidden x inputs
    b1: np.ndarray
    w2: np.ndarray  # hidden
    b2: float
    meta: dict[str, Any] = field(default_factory=dict)
    _kernel_args: tuple[bytes, bytes, bytes] | None = field(default=None, repr=False)
    _python_args: tuple[list[list[float]], list[float], list[float]] | None = field(
        default=None, repr=False)

    @property
    def inputs(self) -> int:
        return int(self.w1.shape[1])

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Values of a batch of observations (rows), each in (-1, 1), by numpy in single
        precision (for training: a search calls :meth:`value_raw`)."""
        hidden = np.maximum(x @ self.w1.T + self.b1, 0.0)
        return np.tanh(hidden @ self.w2 + self.b2)

    def value(self, observation: np.ndarray) -> float:
        """The value of one observation (its numbers are whole, as the encoder writes them)."""
        return self.value_raw(observation.astype(np.int8).tobytes())

    def value_raw(self, raw: bytes | bytearray) -> float:
        """The value of one observation as the encoder writes it (``Encoder.raw``): the C
        kernel where it is built, else the same sums in Python, to the same last bit."""
        if self._kernel_args is None:
            self._kernel_args = (np.ascontiguousarray(self.w1.T, dtype=np.float32).tobytes(),
                                 self.b1.astype(np.float32).tobytes(),
                                 self.w2.astype(np.float32).tobytes())
        w1t, b1, w2 = self._kernel_args
        if _kernel is not None:
            return float(_kernel(raw, w1t, b1, w2, self.b2))
        return self._value_python(raw)

    def _value_python(self, raw: bytes | bytearray) -> float:
        if self._python_args is None:
            def floats(a: np.ndarray) -> Any:  # (single precision's values, as Python floats)
                return a.astype(np.float32).astype(float).tolist()

            self._python_args = (floats(self.w1.T), floats(self.b1), floats(self.w2))
        rows, b1, w2 = self._python_args
        acc = b1[:]
        hidden = range(len(acc))
        for i, byte in enumerate(raw):
            if byte:
                x = float(byte - 256 if byte > 127 else byte)
                row = rows[i]
                for j in hidden:
                    acc[j] += x * row[j]
        total = self.b2
        for j, w in enumerate(w2):
            if acc[j] > 0.0:
                total += acc[j] * w
        return math.tanh(total)

    def evaluation(self, game: Game) -> Callable[[State, int], float]:
        """The evaluation a search calls: ``(state, seat) -> value`` within ``±SCALE``; a game
        whose observation is not this network's size is refused."""
        from ..envs.encoding import Encoder, program_length

        encoder = Encoder(game, program_length(game, None))
        if encoder.size != self.inputs:
            raise SetupError(f"this evaluation reads {self.inputs} numbers a position; "
                             f"{game_key(game)} has {encoder.size}")
        raw, value = encoder.raw, self.value_raw

        def evaluate(state: State, seat: int) -> float:
            return SCALE * value(raw(state, seat))

        return evaluate

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, w1=self.w1.astype(np.float16), b1=self.b1,
                                w2=self.w2, b2=np.array([self.b2]),
                                meta=np.array(json.dumps(self.meta, sort_keys=True)))

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        with np.load(path) as data:
            return cls(w1=data["w1"].astype(np.float32), b1=data["b1"].astype(np.float32),
                       w2=data["w2"].astype(np.float32), b2=float(data["b2"][0]),
                       meta=json.loads(str(data["meta"])))


def shipped(game: Game) -> ValueNet | None:
    """The network that ships for this game (rulebook options), or None."""
    if game.custom_cards or any(game.options.get(name) != option.default
                                for name, option in game.rules.options.items()):
        return None
    path = WEIGHTS / f"{game_key(game)}.npz"
    return ValueNet.load(path) if path.exists() else None


# ------------------------------------------------------------------------------ training


def play_one(game: Game, deal: int, nodes: int = 1000, explore: float = 0.1,
             sample: float = 0.25, judge: Callable[[State, int], object] | None = None,
             ) -> tuple[list[np.ndarray], list[float], list[float]]:
    """One game between alpha-beta players of ``nodes`` positions a decision, dealt with seed
    ``deal`` (its random draws seeded with it too, so that a game is the same wherever it is
    played); a decision is at random with odds ``explore``. A decision's position is kept with
    odds ``sample``, once for every seat: its observation (``int8``), how the game ended for
    that seat, and what the search made of the position for that seat (with two players; NaN
    with more). ``judge(state, seat)``, if given, is shown each kept position (to compare
    evaluations on the very positions learned from: benchmarks/value_quality.py)."""
    from ..envs.encoding import Encoder, program_length
    from .alphabeta import AlphaBetaPlayer

    encoder = Encoder(game, program_length(game, None))
    rng = random.Random(deal)
    state = game.new_state(seed=deal)
    player = AlphaBetaPlayer(max_nodes=nodes, seed=deal)
    kept: list[tuple[int, np.ndarray, float]] = []
    while not state.is_over:
        legal = state.legal_actions()
        keep = (state.phase == "execution" and len(legal) > 1 and not state.is_chance
                and rng.random() < sample)
        at_random = len(legal) > 1 and not state.is_chance and rng.random() < explore
        if at_random:
            action = legal[rng.randrange(len(legal))]
            if keep:
                player.last_value = max(player.scores(state).values())
        else:
            action = player.choose_action(state)
        if keep:
            mover = state.to_move
            for seat in range(game.players):
                if judge is not None:
                    judge(state, seat)
                searched = (float("nan") if game.players > 2 else
                            player.last_value if seat == mover else -player.last_value)
                kept.append((seat, encoder.encode(state, seat).astype(np.int8), searched))
        state.apply_action(action)
    returns = state.returns()
    return ([row for _, row, _ in kept], [float(returns[seat]) for seat, _, _ in kept],
            [searched for _, _, searched in kept])


def self_play(game: Game, games: int, seed: int, nodes: int = 1000, explore: float = 0.1,
              sample: float = 0.25, workers: int = 1,
              progress: Callable[[int], None] | None = None,
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The positions of ``games`` games (:func:`play_one`, game ``g`` dealt with seed
    ``seed + g``), over ``workers`` processes. Returns ``(observations, results, searched,
    game numbers)``, in the games' order whatever the workers."""
    from concurrent.futures import ProcessPoolExecutor
    from contextlib import nullcontext

    from ..envs.encoding import Encoder, program_length

    width = Encoder(game, program_length(game, None)).size
    rows: list[np.ndarray] = []
    results: list[float] = []
    searched: list[float] = []
    numbers: list[int] = []
    jobs = ([game] * games, range(seed, seed + games), [nodes] * games, [explore] * games,
            [sample] * games)
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


class Learned:
    """An evaluation for a search of any game: the network that ships for the state's game,
    and the hand-written evaluation where none does (``AlphaBetaPlayer(evaluation=Learned())``).
    """

    def __init__(self, rival: str = "leader") -> None:
        self.rival = rival  # for the hand-written evaluation (AlphaBetaPlayer's default)
        self._by_game: dict[Game, Callable[[State, int], float]] = {}

    def __call__(self, state: State, seat: int) -> float:
        game = cast(Game, state.game)
        evaluate = self._by_game.get(game)
        if evaluate is None:
            net = shipped(game)
            evaluate = self._by_game[game] = (
                net.evaluation(game) if net is not None else self._hand_written)
        return evaluate(state, seat)

    def _hand_written(self, state: State, seat: int) -> float:
        from .evaluate import evaluate

        return evaluate(state, seat, self.rival)
