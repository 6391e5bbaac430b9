"""Computer players. A player is anything with ``choose(state) -> option``.

``make_player(level, seed)`` builds one by difficulty (``LEVELS``):

- ``random``: uniformly random legal options;
- ``easy``: :class:`GreedyPlayer`, one ply of its own decisions judged by the evaluation;
- ``normal``: :class:`MCTSPlayer` with 2,000 iterations (about half a second a decision);
- ``hard``: :class:`MCTSPlayer` with 20,000 iterations (about 3 to 6 seconds a decision);
- ``perfect``: :class:`PerfectPlayer`, the exact solver's move wherever it proves one within a
  budget of positions (the end of a game, or a whole level-1 game once the solver reaches it),
  ``hard`` elsewhere and wherever the game hides something.

Budgets are iteration counts rather than seconds, so a seeded game replays exactly.
"""

from typing import Protocol, runtime_checkable

from ..core.state import State


@runtime_checkable
class Player(Protocol):
    """Chooses one option of ``state.legal()`` (a string) for the seat to move."""

    def choose(self, state: State) -> str: ...


from .greedy import GreedyPlayer  # noqa: E402
from .mcts import MCTSPlayer  # noqa: E402
from .perfect import PerfectPlayer  # noqa: E402
from .random_player import RandomPlayer  # noqa: E402

NORMAL_ITERATIONS = 2000
HARD_ITERATIONS = 20000
LEVELS = ("random", "easy", "normal", "hard", "perfect")


def make_player(level: str, seed: int | None = None) -> Player:
    """A computer player of a difficulty in ``LEVELS``.

    >>> type(make_player("easy", 1)).__name__
    'GreedyPlayer'
    """
    if level == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return GreedyPlayer(seed)
    if level == "normal":
        return MCTSPlayer(iterations=NORMAL_ITERATIONS, seed=seed)
    if level == "hard":
        return MCTSPlayer(iterations=HARD_ITERATIONS, seed=seed)
    if level == "perfect":
        return PerfectPlayer(seed=seed, iterations=HARD_ITERATIONS)
    raise ValueError(f"unknown difficulty {level!r}: one of {', '.join(LEVELS)}")


__all__ = ["GreedyPlayer", "LEVELS", "MCTSPlayer", "PerfectPlayer", "Player", "RandomPlayer",
           "make_player"]
