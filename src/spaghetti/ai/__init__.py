"""Computer players. A player is anything with ``choose(state) -> option``.

``make_player(level, seed)`` builds one by difficulty (``LEVELS``):

- ``random``: uniformly random legal options;
- ``easy``: :class:`GreedyPlayer`, one ply of its own decisions (within 3,000 positions, never
  more than a fifth of a second), judging the positions it reaches as a beginner does, by lives
  and flags alone (:func:`spaghetti.ai.evaluate.material`);
- ``normal``: :class:`AlphaBetaPlayer`, the replies seen too, within 5,000 positions with two
  players and 20,000 with more (about a tenth and a third of a second a decision, never more
  than one), judging the positions it leaves unexplored by the learned evaluation where a
  network ships for the game (:mod:`spaghetti.ai.value`), else by the hand-written one (with
  four players always by hand: ``NORMAL_LEARNED``);
- ``hard``: :class:`ProvingPlayer`, the exact solver's move wherever it proves one within
  20,000 positions (near the end of a game; at level 1 with two players 2,000,000 positions of
  the level-1 solver, about two seconds, which settle most placements), else ``normal``'s
  search within 200,000 positions and the 4.5 s the proof left (about five seconds at most in
  all), judging by the network wherever one ships, its max-n hedged with four players
  (``HARD_SOFT``);
- ``perfect``: :class:`ProvingPlayer` with ten times the solver's budget (the end of a game),
  and at level 1 with two players 5,000,000 positions of the level-1 solver (about five
  seconds: most whole games from the empty board); ``hard`` elsewhere, except that a position
  proven lost is played for the opponent's hardest proof; where the game hides something,
  both play by the search alone.

Budgets are counts of positions rather than seconds, so a seeded game replays exactly; the
seconds are a cap that only a slow or busy machine meets (then a game may not replay). How much
stronger each level is than the one below is measured by ``benchmarks/ladder.py`` and published
in docs/performance.md. :class:`MCTSPlayer` gives the hints and the analysis (it says how often
it tried each option and how each fared).
"""

import hashlib
from functools import cache
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..core.state import State


@runtime_checkable
class Player(Protocol):
    """Chooses one option of ``state.legal()`` (a string) for the seat to move."""

    def choose(self, state: State) -> str: ...


from .alphabeta import AlphaBetaPlayer  # noqa: E402
from .evaluate import material  # noqa: E402
from .greedy import MAX_NODES as GREEDY_NODES  # noqa: E402
from .greedy import GreedyPlayer  # noqa: E402
from .mcts import MCTSPlayer  # noqa: E402
from .perfect import LEVEL1_NODES, MIN_SEARCH_SECONDS, SWINDLE_NODES, ProvingPlayer  # noqa: E402
from .random_player import RandomPlayer  # noqa: E402

EASY_SECONDS = 0.2
#: normal's budget by the number of players: with two, 20,000 positions made the steps below and
#: above it uneven (docs/performance.md, the ladder); with more, 5,000 fell short against easy.
NORMAL_NODES, NORMAL_SECONDS = {2: 5_000, 3: 20_000, 4: 20_000, 5: 20_000}, 1.0
#: hard's search and its solver's budget; the seconds are for the proof and the search together
#: (the solver's 20,000 positions take about half a second at level 3, more on a busy machine).
HARD_NODES, HARD_SECONDS, HARD_PROOF_NODES = 200_000, 4.5, 20_000
#: hard's budget where the level-1 solver applies (level 1, two players): about two seconds, in
#: which it settles most placements; 20,000 positions kept only 88 % of proven wins there.
HARD_LEVEL1_NODES = 2_000_000
LEVELS = ("random", "easy", "normal", "hard", "perfect")
#: The levels that judge by a learned evaluation where one ships (``make_player(learned=...)``).
LEARNING_LEVELS = ("normal", "hard", "perfect")
#: The numbers of players with which ``normal`` judges by the network that ships: with four,
#: alone in normal's max-n the network held its seat at 22 % of 40 games against three by
#: hand, and paid only hedged (docs/performance.md, "Level 3 with 4 players: the first link of
#: a chain").
NORMAL_LEARNED = frozenset({2, 3, 5})
#: hard's max-n hedged by the number of players (``AlphaBetaPlayer(soft=...)``): with four,
#: the network's forecast of the others' moves is softened (the bar's sample there: one such
#: hard won 40 of 120 games against three by hand, 25.5-42.2 %, par 25 %).
HARD_SOFT = {4: 0.05}


def make_player(level: str, seed: int | None = None, clock: bool = True,
                learned: bool = True) -> Player:
    """A computer player of a difficulty in ``LEVELS``.

    ``clock=False`` leaves out the seconds cap: the player's budgets are then counts of
    positions alone, so its games depend on the seeds and nothing else, whatever the machine's
    load (the lab plays so, and ``spaghetti lab verify`` replays its games). ``learned=False``
    makes ``normal``, ``hard`` and ``perfect`` judge by the hand-written evaluation even where a
    network ships for the game (as they all did before one shipped: benchmarks compare them).

    >>> type(make_player("easy", 1)).__name__
    'GreedyPlayer'
    """
    def capped(seconds: float) -> float | None:
        return seconds if clock else None

    if level == "random":
        return RandomPlayer(seed)
    if level == "easy":
        return GreedyPlayer(seed, seconds=capped(EASY_SECONDS), evaluation=material)
    if level == "normal":
        return AlphaBetaPlayer(max_nodes=NORMAL_NODES, seconds=capped(NORMAL_SECONDS), seed=seed,
                               learned=NORMAL_LEARNED if learned else False)
    if level == "hard":
        return ProvingPlayer(seed=seed, fallback_nodes=HARD_NODES,
                             fallback_seconds=capped(HARD_SECONDS), max_nodes=HARD_PROOF_NODES,
                             level1_nodes=HARD_LEVEL1_NODES, learned=learned, soft=HARD_SOFT,
                             proof_seconds=capped(HARD_SECONDS - MIN_SEARCH_SECONDS))
    if level == "perfect":
        return ProvingPlayer(seed=seed, fallback_nodes=HARD_NODES,
                             fallback_seconds=capped(HARD_SECONDS), level1_nodes=LEVEL1_NODES,
                             swindle_nodes=SWINDLE_NODES, learned=learned, soft=HARD_SOFT)
    raise ValueError(f"unknown difficulty {level!r}: one of {', '.join(LEVELS)}")


def definition(level: str) -> dict:
    """What a difficulty is made of, as the lab records it beside its results: its player's
    class and budgets (``make_player``), how it judges a position, and digests of the
    source of the computer players (``source``) and of the networks that ship (``networks``),
    which any change of how they choose changes."""
    judged = {"evaluation": "learned where a network ships, else hand-written",
              "networks": _weights_digest()}
    budgets: dict[str, dict] = {
        "random": {"class": "RandomPlayer"},
        "easy": {"class": "GreedyPlayer", "max_nodes": GREEDY_NODES,
                 "evaluation": "lives and flags alone"},
        "normal": {"class": "AlphaBetaPlayer", "max_nodes": NORMAL_NODES, **judged,
                   "learned_players": sorted(NORMAL_LEARNED)},
        "hard": {"class": "ProvingPlayer", "fallback_nodes": HARD_NODES,
                 "proof_nodes": HARD_PROOF_NODES, "level1_nodes": HARD_LEVEL1_NODES,
                 "soft": HARD_SOFT, **judged},
        "perfect": {"class": "ProvingPlayer", "fallback_nodes": HARD_NODES,
                    "level1_nodes": LEVEL1_NODES, "swindle_nodes": SWINDLE_NODES,
                    "soft": HARD_SOFT, **judged},
    }
    if level not in budgets:
        raise ValueError(f"unknown difficulty {level!r}: one of {', '.join(LEVELS)}")
    return {**budgets[level], "source": _source_digest()}


@cache
def _weights_digest() -> str:
    """A digest of the networks that ship (``ai/weights``), which retraining one changes."""
    return _digest(Path(__file__).parent / "weights", "*.npz")


@cache
def _source_digest() -> str:
    """A digest of the computer players' source (read once a process)."""
    return _digest(Path(__file__).parent, "*.py")


def _digest(folder: Path, pattern: str) -> str:
    """A short digest of the names and bytes of the files in ``folder`` matching ``pattern``."""
    digest = hashlib.sha256()
    for path in sorted(folder.glob(pattern)):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


__all__ = ["AlphaBetaPlayer", "GreedyPlayer", "LEVELS", "MCTSPlayer", "Player", "ProvingPlayer",
           "RandomPlayer", "definition", "make_player"]
