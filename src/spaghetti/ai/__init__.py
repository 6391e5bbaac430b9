"""Computer players. A player is anything with ``choose(state) -> option``.

``make_player(level, seed)`` builds one by difficulty (``LEVELS``):

- ``random``: uniformly random legal options;
- ``easy``: :class:`GreedyPlayer`, one ply of its own decisions judged by the evaluation;
- ``normal``: :class:`AlphaBetaPlayer`, the replies seen too, within 20,000 positions (about
  half a second a decision, never more than one);
- ``hard``: :class:`AlphaBetaPlayer` within 200,000 positions (never more than five seconds);
- ``perfect``: :class:`PerfectPlayer`, the exact solver's move wherever it proves one within a
  budget of positions (the end of a game, or a whole level-1 game once the solver reaches it),
  ``hard`` elsewhere and wherever the game hides something.

Budgets are counts of positions rather than seconds, so a seeded game replays exactly; the
seconds are a cap that only a slow or busy machine meets (then a game may not replay). How much
stronger each level is than the one below is measured by ``benchmarks/ladder.py`` and published
in docs/performance.md. :class:`MCTSPlayer` gives the hints and the analysis (it says how often
it tried each option and how each fared).
"""

from typing import Protocol, runtime_checkable

from ..core.state import State


@runtime_checkable
class Player(Protocol):
    """Chooses one option of ``state.legal()`` (a string) for the seat to move."""

    def choose(self, state: State) -> str: ...


from .alphabeta import AlphaBetaPlayer  # noqa: E402
from .greedy import GreedyPlayer  # noqa: E402
from .mcts import MCTSPlayer  # noqa: E402
from .perfect import PerfectPlayer  # noqa: E402
from .random_player import RandomPlayer  # noqa: E402

NORMAL_NODES, NORMAL_SECONDS = 20_000, 1.0
HARD_NODES, HARD_SECONDS = 200_000, 5.0
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
        return AlphaBetaPlayer(max_nodes=NORMAL_NODES, seconds=NORMAL_SECONDS, seed=seed)
    if level == "hard":
        return AlphaBetaPlayer(max_nodes=HARD_NODES, seconds=HARD_SECONDS, seed=seed)
    if level == "perfect":
        return PerfectPlayer(seed=seed, fallback_nodes=HARD_NODES, fallback_seconds=HARD_SECONDS)
    raise ValueError(f"unknown difficulty {level!r}: one of {', '.join(LEVELS)}")


__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "LEVELS", "MCTSPlayer", "PerfectPlayer", "Player",
           "RandomPlayer", "make_player"]
