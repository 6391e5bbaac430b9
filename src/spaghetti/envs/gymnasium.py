"""One seat of a game as a Gymnasium environment; the other seats are computer players.

>>> from spaghetti.envs.gymnasium import SpaghettiEnv
>>> e = SpaghettiEnv(level=1, opponents="random")
>>> obs, info = e.reset(seed=1)
>>> obs.shape == e.observation_space.shape, int(info["action_mask"].sum())
(True, 5)
>>> obs, reward, terminated, truncated, info = e.step(int(e.action_masks().argmax()))
>>> terminated, reward
(False, 0.0)

The learner's observation is its seat's vector (:class:`~spaghetti.envs.encoding.Encoder`), its
action a compact id; the legal ones are ``info["action_mask"]`` and :meth:`action_masks` (as
sb3-contrib's ``MaskablePPO`` reads them). The reward is +1 for a win, -1 for a loss, 0 for a
draw or a game cut short (``max_moves``), given when the game ends. The other seats play at a
difficulty of :data:`spaghetti.ai.LEVELS` (``random``, ``easy``, ``normal``, ``hard``,
``perfect``), one for all or one each, or any objects with ``choose(state) -> option``.

An illegal action (one the mask rules out) ends the episode as a loss (``illegal="lose"``, the
default, so that unmasked algorithms and ``check_env`` can step any action) or raises
(``illegal="raise"``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..ai import LEVELS, Player, make_player
from ..ai.random_player import RandomPlayer
from ..core.draws import below
from ..core import notation as N
from ..core.state import State
from ..errors import IllegalOptionError, SetupError
from . import table
from .batch import TERMINATED, TRUNCATED, Batch
from .encoding import NUM_ACTIONS, ActionCodec, Encoder
from .encoding import observation_dtype as observation_dtype_
from .pettingzoo import MAX_MOVES, make_game, program_length

ENV_ID = "spaghetti/Spaghetti-v0"


def masks(batch: Batch) -> np.ndarray:
    """Every game's mask of ``batch`` (one row a game, one ``int8`` an action id), a new array
    set from the legal ids the batch wrote, in one step."""
    mask = np.zeros(batch.n * NUM_ACTIONS, dtype=np.int8)
    mask[np.frombuffer(batch.legal_ids(), dtype="<i4")] = 1
    return mask.reshape(batch.n, NUM_ACTIONS)


class SpaghettiEnv(gymnasium.Env):
    """A game of the family from one seat; the others are computer players.

    Arguments as :class:`~spaghetti.envs.pettingzoo.SpaghettiAECEnv` (``variant``, ``level``,
    ``players``, ``options``, ``program``, ``cards``, ``max_moves``, ``adjudicate``,
    ``render_mode``, ``observation_dtype``), and: ``seat``, the learner's seat (None: a seat
    drawn for each game);
    ``opponents``, a difficulty (one for every other seat) or one per other seat in seat order,
    each a difficulty or a player object; ``illegal``, ``"lose"`` or ``"raise"``.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, variant: str = "spaghetti-code", level: int = 1, players: int = 2,
                 options: dict | None = None, program: list[str] | None = None,
                 cards: Any = (), seat: int | None = 0,
                 opponents: str | Player | Sequence[str | Player] = "random",
                 max_moves: int | None = MAX_MOVES, adjudicate: bool = False,
                 illegal: str = "lose", render_mode: str | None = None,
                 observation_dtype: str = "float32"):
        self.game = make_game(variant, level, players, options, cards)
        self.dtype = observation_dtype_(observation_dtype)
        self.program = list(program) if program is not None else None
        if self.program is not None:
            self.game.new_state(self.program, 0)
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise SetupError(f"seat must be 0-{players - 1} or None, not {seat!r}")
        if isinstance(opponents, (str, Player)):
            chosen = [opponents] * (players - 1)
        else:
            chosen = list(opponents)
        if len(chosen) != players - 1:
            raise SetupError(f"opponents: one for each of the {players - 1} other seats, "
                             f"not {len(chosen)}")
        for level_ in chosen:
            if isinstance(level_, str) and level_ not in LEVELS:
                raise SetupError(f"unknown difficulty {level_!r}: one of {', '.join(LEVELS)}")
        if illegal not in ("lose", "raise"):
            raise SetupError(f"illegal is 'lose' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError(f"render_mode is one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        self.opponents = chosen
        self.seat_choice = seat
        self.seat = seat if seat is not None else 0
        self.max_moves = max_moves
        self.adjudicate = adjudicate
        self.illegal = illegal
        self.render_mode = render_mode
        self.cards = program_length(self.game, self.program)
        self.codec = ActionCodec(self.game)
        self.encoder = Encoder(self.game, self.cards)
        low, high = self.encoder.bounds(self.dtype)
        self.observation_space = spaces.Box(low, high, dtype=self.dtype)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.state: State | None = None
        self._rng: random.Random | None = None
        self._random: list[RandomPlayer] = []
        self._players: dict[int, Player] = {}
        # The game's step (the learner's action, the other seats' moves, the vector and the
        # mask) is the vector environment's, for a batch of one.
        self._batch = self.batch(1)

    def batch(self, n: int) -> Batch:
        """A batch of ``n`` games played as this environment plays its game (its vector, its
        actions' ids, its cap on moves)."""
        return Batch(n, self.encoder.writer, self.codec.mask_writer, self.codec.decode,
                     -1 if self.max_moves is None else self.max_moves, self.adjudicate)

    # ----------------------------------------------------------------- the game

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        self.deal(seed)
        self.load(self._batch, 0)
        return self._observe(), self._info()

    def deal(self, seed: int | None = None) -> None:
        """:meth:`reset`'s new game, before the other seats' first moves: the seat, the other
        seats' players and the deal, drawn from the environment's generator (``seed``
        seeds it anew)."""
        super().reset(seed=seed)
        # One generator a run of games, seeded from gymnasium's when a seed is given (or at the
        # first game): a new game draws on where the last left off, since seeding a generator
        # costs more than dealing (the random opponents and the chance draws share it).
        if seed is not None or self._rng is None:
            self._rng = random.Random(int(self.np_random.integers(2**62)))
            self._random = [RandomPlayer(rng=self._rng) for _ in self.opponents]
        rng = self._rng
        if self.seat_choice is None:
            self.seat = below(rng, self.game.players)
        others = [s for s in range(self.game.players) if s != self.seat]
        self._players = {}
        for k, (s, who) in enumerate(zip(others, self.opponents)):
            self._players[s] = self._random[k] if who == "random" else \
                make_player(who, rng.getrandbits(62)) if isinstance(who, str) else who
        self.state = self.game.new_state(self.program, rng=rng)

    def load(self, batch: Batch, i: int) -> None:
        """Hand the game just dealt to ``batch`` as its game ``i``: the other seats play until
        the learner is to move (the vector environment deals its games so)."""
        assert self.state is not None
        assert self._rng is not None
        others: list[Any] = [self._players.get(s) for s in range(self.game.players)]
        batch.load(i, self.state, self.seat, others, self._rng)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        state = self.state
        if state is None:
            raise SetupError("step() before reset(): there is no game yet")
        if self._batch.over(0):
            raise SetupError("step() after the game ended: call reset()")
        try:
            compact = int(action)
        except (TypeError, ValueError):
            compact = -1
        if self.illegal == "raise" and self._batch.first_illegal([compact]) == 0:
            raise IllegalOptionError(
                f"{action!r} is not legal here; legal: {', '.join(state.legal())}",
                repr(action), tuple(state.legal()))
        self._batch.step([compact])
        ended = self._batch.ended[0]
        info = self._info()
        if self._batch.illegal[0]:
            info["illegal_action"] = True
        return self._observe(), self._batch.rewards[0], ended == TERMINATED, \
            ended == TRUNCATED, info

    def _observe(self) -> np.ndarray:
        return np.frombuffer(self._batch.observations(), dtype=np.int8).astype(self.dtype)

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner now, as booleans (sb3-contrib's ``MaskablePPO``)."""
        return masks(self._batch)[0].view(np.bool_)

    def _info(self) -> dict:
        return {"action_mask": masks(self._batch)[0], **self.ending()}

    def ending(self) -> dict[str, Any]:
        """The infos that tell the game's end: the learner's seat, and once the game is over
        its winner and how it ended."""
        state = self.state
        assert state is not None
        info: dict[str, Any] = {"seat": self.seat}
        if state.is_over:
            info["winner"] = state.winner
            info["result"] = state.reason
        return info

    def legal(self) -> list[str]:
        """The learner's options now, in notation."""
        assert self.state is not None
        return self.state.legal()

    def action_to_string(self, action: int) -> str:
        """A compact id in notation."""
        return N.to_string(self.codec.decode(int(action)))

    # ----------------------------------------------------------------- pictures

    def render(self) -> Any:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: none was given at "
                                  "construction (\"ansi\" or \"rgb_array\")")
            return None
        state = self.state
        if state is None:
            raise SetupError("render() before reset(): there is no game yet")
        if self.render_mode == "ansi":
            return table.text(state, self.seat)
        return table.draw(state, self.cards, self.seat)


gymnasium.register(ENV_ID, entry_point="spaghetti.envs.gymnasium:SpaghettiEnv")
