"""A learned evaluation: a small network that reads a position as the environments encode it
and says how it ends, trained on games the computer plays against itself.

The network sees what one seat may know (:class:`spaghetti.envs.encoding.Encoder`, seats
counted from that seat) and answers a number in (-1, 1): the seat's expected result, +1 a win
and -1 a loss, as ``State.returns()`` scores a finished game. It is one hidden layer of
rectified units and a ``tanh`` out, small enough to run in a few microseconds (in C,
``_value.c``, where it is built), so a search can call it at every position it leaves
unexplored (``AlphaBetaPlayer(evaluation=...)``).

How it learns is :mod:`spaghetti.ai.training`; the weights that ship are in
``spaghetti/ai/weights/`` (docs/architecture.md, "The learned evaluation").
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..core.game import Game
from ..core.primitives.base import GameFacts
from ..core.state import State
from ..errors import SetupError
from .evaluate import LearnedJudge

_kernel: Callable[[bytes | bytearray, bytes, bytes, bytes, float], float] | None
_kernel_from: Callable[..., float] | None
_kernel_all: Callable[..., list[float]] | None
try:  # the network on one observation, in C (setup.py builds it where a compiler is)
    from ._value import value as _kernel, value_from as _kernel_from, values_from as _kernel_all
except ImportError:  # pragma: no cover (the install built no C)
    _kernel = _kernel_from = _kernel_all = None

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
        w1t, b1, w2 = self._kernel_weights()
        if _kernel is not None:
            return float(_kernel(raw, w1t, b1, w2, self.b2))
        return self._value_python(raw)

    def _kernel_weights(self) -> tuple[bytes, bytes, bytes]:
        """The first layer (a row a feature), the biases and the output weights as the C
        kernels read them (single precision), made once."""
        if self._kernel_args is None:
            self._kernel_args = (np.ascontiguousarray(self.w1.T, dtype=np.float32).tobytes(),
                                 self.b1.astype(np.float32).tobytes(),
                                 self.w2.astype(np.float32).tobytes())
        return self._kernel_args

    def _grid_weights(self) -> np.ndarray:
        """The first layer's weights (hidden x inputs) in units of 2**-24, as doubles."""
        return self.w1.astype(np.float32).astype(np.float64) * 2.0 ** 24

    def exact_sums(self) -> bool:
        """Are the first layer's sums exact, whatever the observation? True where every
        weight is a multiple of 2**-24 (as half precision's are: the weights ship so) within
        31 bits of it, and no sum of :meth:`value_raw`'s, added in order from the unit's bias,
        can outgrow the 53 bits of a double on the grid of its bias and weights (every feature
        at most ``LIMIT``). Then a unit's sum is the same however the terms are grouped, and
        an evaluation may add only what changed since the last observation (``value_from``)
        and get :meth:`value_raw`'s value to the last bit."""
        from ..envs.observation import LIMIT

        scaled = self._grid_weights()
        if not np.array_equal(scaled, np.round(scaled)) or np.abs(scaled).max() >= 2.0 ** 31:
            return False
        bias = np.abs(self.b1.astype(np.float32).astype(np.float64))
        # Each bias is a multiple of its lowest bit set (a float32 holds 24 bits; zero is a
        # multiple of anything); the sums' grid is the finer of it and the weights' 2**-24.
        mantissa, exponent = np.frexp(bias)
        whole = (mantissa * 2.0 ** 24).astype(np.int64)
        lowest = np.log2(np.maximum(whole & -whole, 1))
        grid = np.minimum(np.where(whole > 0, exponent - 24 + lowest, 0), -24)
        bound = bias + LIMIT * np.abs(scaled).sum(axis=1) * 2.0 ** -24
        return bool(np.all(bound < 2.0 ** (53 + grid)))

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
        # A search's positions differ from each other in a card or two: each seat's last
        # observation is kept and written over where a card changed.
        blocks = [encoder.card_blocks() for _ in range(game.players)]
        if _kernel_from is None or _kernel_all is None or not self.exact_sums():
            def evaluate(state: State, seat: int) -> float:
                return SCALE * value(raw(state, seat, blocks[seat]))

            return evaluate
        # And the first layer's sums of each seat's last observation are kept: a position
        # adds only the features that changed since (exact: see exact_sums).
        w1q = np.ascontiguousarray(self._grid_weights().T, dtype=np.int32)
        _, b1, w2 = self._kernel_weights()
        # Where every seat's observation is seat 0's renumbered, each seat's first layer in
        # seat 0's order: a position judged for every seat is written once.
        rotations = [encoder.seat_rotation(s) for s in range(game.players)]
        rotated = [] if any(r is None for r in rotations) else \
            [np.ascontiguousarray(w1q[r]).tobytes() for r in rotations]
        return LearnedJudge(encoder.writer, blocks, _kernel_from, w1q.tobytes(), b1, w2,
                            self.b2, SCALE, _kernel_all, rotated)

    def save(self, path: Path) -> None:
        """Writes the weights: the first layer in half precision and its biases on the same
        grid of 2**-24, so that a search adds only what changed (:meth:`exact_sums`); a bias
        of a millionth off that grid would make a unit's sums round."""
        path.parent.mkdir(parents=True, exist_ok=True)
        b1 = (np.round(self.b1.astype(np.float64) * 2.0 ** 24) * 2.0 ** -24).astype(np.float32)
        with path.open("wb") as out:
            np.savez_compressed(out, w1=self.w1.astype(np.float16), b1=b1,
                                w2=self.w2, b2=np.array([self.b2]),
                                meta=np.array(json.dumps(self.meta, sort_keys=True)))

    @classmethod
    def load(cls, path: Path) -> ValueNet:
        with np.load(path) as data:
            return cls(w1=data["w1"].astype(np.float32), b1=data["b1"].astype(np.float32),
                       w2=data["w2"].astype(np.float32), b2=float(data["b2"][0]),
                       meta=json.loads(str(data["meta"])))


def shipped(game: Game) -> ValueNet | None:
    """The network that ships for this game (rulebook options, but for those that change only
    the order of play: ``Option.judged_alike``), or None."""
    if game.custom_cards or any(game.options.get(name) != option.default
                                for name, option in game.rules.options.items()
                                if not option.judged_alike):
        return None
    path = WEIGHTS / f"{game_key(game)}.npz"
    return ValueNet.load(path) if path.exists() else None


def learned_evaluation(game: GameFacts) -> Callable[[State, int], float] | None:
    """The evaluation by the network that ships for ``game`` (:func:`shipped`), loaded once a
    process; None where none ships, and a search then judges by the hand-written evaluation
    (``AlphaBetaPlayer(learned=True)``, which ``normal``, ``hard`` and ``perfect`` are)."""
    return _learned_evaluation(cast(Game, game))


@cache
def _learned_evaluation(game: Game) -> Callable[[State, int], float] | None:
    net = shipped(game)
    return None if net is None else net.evaluation(game)
