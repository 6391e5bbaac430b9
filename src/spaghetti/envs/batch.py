"""The environments' step: many games stepped at once, in compiled code.

:class:`spaghetti.envs.gymnasium.SpaghettiEnv` deals a game and hands it to a :class:`Batch`
(of one game; :class:`spaghetti.envs.vector.SpaghettiVectorEnv`'s holds all of its games),
which then plays every game's step in one call: the learner's action, the other seats' moves
until the learner is to move again, the reward, and the game's row of the observations and of
the legal actions, each written as bytes (one a feature; an integer a legal id);
:meth:`Batch.observations` joins the rows into the buffer that numpy reads as it is, and
:meth:`Batch.legal_ids` the legal ids into the indices that numpy sets in the masks at once. This
module is compiled with the rules core (setup.py), so a step is the engine's own moves and a
few writes, with no Python between them; it stays plain Python, and runs as such where nothing
is compiled.

The other seats' built-in random player draws exactly as
:class:`~spaghetti.ai.random_player.RandomPlayer` does (``randrange`` over the options in
order), so a seed plays the same game as when the environment asked the player itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

from ..ai.random_player import RandomPlayer
from ..core.draws import below
from ..core.state import State
from .observation import CardBlocks, MaskWriter, Writer

def resolve_chance(state: State, rng: random.Random) -> None:
    """Draw every chance event due now (the coin flip) with ``rng``."""
    while state.is_chance and not state.is_over:
        state.apply(state.sample_chance(rng))


#: What a game's step ended in (:attr:`Batch.ended`).
GOING = 0
TERMINATED = 1
TRUNCATED = 2


class Batch:
    """``n`` games, each seen from one seat, stepped together.

    ``writer`` writes a row of the observations, ``mask`` the legal ids of a row of the masks
    (the codec's), ``decode`` turns a compact id into the engine's action id (the codec's,
    asked once an id and kept); ``max_moves`` (-1: none) cuts a game short, ``adjudicate``
    ends it by the tie-break instead.
    """

    def __init__(self, n: int, writer: Writer, mask: MaskWriter,
                 decode: Callable[[int], int], max_moves: int, adjudicate: bool) -> None:
        self.n = n
        self.writer = writer
        self.mask = mask
        self.decode = decode
        self.max_moves = max_moves
        self.adjudicate = adjudicate
        self._obs: list[bytes] = [writer.zeros] * n
        self._legal: list[bytes] = [b""] * n
        self._decoded: dict[int, int] = {}
        self.states: list[State | None] = [None] * n
        self.seats: list[int] = [0] * n
        self.chance: list[random.Random] = [random.Random(0) for _ in range(n)]
        self.blocks: list[CardBlocks] = [CardBlocks(writer.cards, writer.size) for _ in range(n)]
        # Per game, per seat: its player; None at the learner's seat.
        self.others: list[list[Any]] = [[] for _ in range(n)]
        self.rewards: list[float] = [0.0] * n
        self.ended: list[int] = [GOING] * n
        self.illegal: list[bool] = [False] * n

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # (A compiled class is rebuilt by calling it; the games are then set as they were.)
        made = (self.n, self.writer, self.mask, self.decode, self.max_moves, self.adjudicate)
        games = (self._obs, self._legal, self.states, self.seats, self.chance, self.blocks,
                 self.others, self.rewards, self.ended, self.illegal)
        return _rebuilt, (made, games)

    def load(self, i: int, state: State, seat: int, others: list[Any],
             chance: random.Random) -> None:
        """Game ``i`` is now ``state``, just dealt, seen from ``seat``: the other seats play
        until ``seat`` is to move. ``others`` holds, for each seat, the player (None at
        ``seat``); ``chance`` draws the chance events."""
        self.states[i] = state
        self.seats[i] = seat
        self.others[i] = others
        self.chance[i] = chance
        self.blocks[i] = CardBlocks(self.writer.cards, self.writer.size)
        self.rewards[i] = 0.0
        self.ended[i] = GOING
        self.illegal[i] = False
        self._play_others(i, state, seat)
        self._write(i, state, seat)

    def first_illegal(self, actions: list[int]) -> int:
        """The first game whose action is not legal now, or -1."""
        for i in range(self.n):
            if self._engine_action(i, actions[i]) < 0:
                return i
        return -1

    def step(self, actions: list[int]) -> None:
        """Every game's step: ``actions[i]`` is game ``i``'s compact id. An illegal one ends
        that game as a loss. :attr:`rewards`, :attr:`ended`, :attr:`illegal` and the rows of
        :meth:`observations` and :meth:`legal_ids` tell what followed."""
        for i in range(self.n):
            state = self.states[i]
            assert state is not None
            seat = self.seats[i]
            action = self._engine_action(i, actions[i])
            if action < 0:
                self.rewards[i] = -1.0
                self.ended[i] = TERMINATED
                self.illegal[i] = True
                self._write(i, state, seat)
                continue
            state.apply_action(action)
            self._play_others(i, state, seat)
            reward = 0.0
            ended = GOING
            if state.is_over:
                ended = TERMINATED
                reward = float(state.returns()[seat])
            elif self._finished(state):  # (cut short)
                if self.adjudicate:
                    ended = TERMINATED
                    reward = 1.0 if state.tiebreak_winner() == seat else -1.0
                else:
                    ended = TRUNCATED
            self.rewards[i] = reward
            self.ended[i] = ended
            self._write(i, state, seat)

    def _engine_action(self, i: int, compact: int) -> int:
        """The engine's id of game ``i``'s compact id if it is legal there, else -1."""
        state = self.states[i]
        assert state is not None
        action = self._decoded.get(compact)
        if action is None:
            try:
                action = self.decode(compact)
            except ValueError:
                return -1
            self._decoded[compact] = action
        if self._finished(state) or action not in state.legal_actions():
            return -1
        return action

    def over(self, i: int) -> bool:
        """Has game ``i`` ended, been cut short or been lost by an illegal action?"""
        state = self.states[i]
        return self.ended[i] != GOING or state is None or self._finished(state)

    def _finished(self, state: State) -> bool:
        """Is the game over, or at ``max_moves``?"""
        return state.is_over or 0 <= self.max_moves <= len(state.history)

    def _play_others(self, i: int, state: State, seat: int) -> None:
        """The other seats' moves (and the draws of chance) until ``seat`` is to move."""
        others = self.others[i]
        while not self._finished(state):
            resolve_chance(state, self.chance[i])
            if state.is_over or state.to_move == seat:
                return
            to_move = state.to_move
            assert to_move is not None
            who = others[to_move]
            if type(who) is RandomPlayer:  # (its draw made here, without its Python)
                options = cast(tuple, state.legal_actions())  # (ids as given: playout.py)
                state.apply_action(options[below(cast(RandomPlayer, who).rng, len(options))])
            else:
                choose_action = getattr(who, "choose_action", None)
                if choose_action is not None:
                    state.apply_action(choose_action(state))
                else:
                    state.apply(who.choose(state))

    def observations(self) -> bytes:
        """Every game's observation, one row after the other: one signed byte a feature."""
        return b"".join(self._obs)

    def observation(self, i: int) -> bytes:
        """Game ``i``'s row of :meth:`observations`."""
        return self._obs[i]

    def legal_ids(self) -> bytes:
        """Every game's legal compact ids, as :meth:`MaskWriter.ids` writes them: game ``i``'s
        plus ``i`` times the mask's size, so that they index the masks of all the games laid
        end to end (none for a game whose learner is not to move)."""
        return b"".join(self._legal)

    def _write(self, i: int, state: State, seat: int) -> None:
        """Game ``i``'s rows: its observation, and its legal ids (none once it is over)."""
        self._obs[i] = self.writer.write(state, seat, self.blocks[i])
        self._legal[i] = b"" if state.is_over or state.to_move != seat else \
            self.mask.ids(state.legal_actions(), i * self.mask.size)


def _rebuilt(made: tuple[Any, ...], games: tuple[Any, ...]) -> Batch:
    """A pickled :class:`Batch` again (its ``__reduce__``)."""
    batch = Batch(*made)
    (batch._obs, batch._legal, batch.states, batch.seats, batch.chance, batch.blocks,
     batch.others, batch.rewards, batch.ended, batch.illegal) = games
    return batch
