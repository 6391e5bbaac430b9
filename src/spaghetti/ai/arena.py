"""Matches between computer players, and their statistics (win rates, Wilson intervals, Elo).

Pure logic: no printing. A match is played over seeded programs, each program twice with the
seats swapped, so neither side gains from placing first or from a lucky deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial

from ..core.game import Game
from ..core.state import State
from . import Player

Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: ``wins`` successes out of ``n``.

    >>> lo, hi = wilson(8, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.49, 0.943)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(score: float, cap: float = 800.0) -> float:
    """The Elo difference implied by an expected score in [0, 1] (1 = always wins), capped at
    +-``cap`` since a score of 0 or 1 means an unbounded difference.

    >>> elo(0.5), round(elo(0.75))
    (0.0, 191)
    """
    if score <= 0.0:
        return -cap
    if score >= 1.0:
        return cap
    return max(-cap, min(cap, 400.0 * math.log10(score / (1.0 - score))))


@dataclass
class GameResult:
    seed: int
    seat_a: int  # the seat A played
    winner: int | None
    moves: int

    @property
    def a_won(self) -> bool:
        return self.winner == self.seat_a

    @property
    def b_won(self) -> bool:
        return self.winner is not None and self.winner != self.seat_a


@dataclass
class MatchResult:
    a: str
    b: str
    games: list[GameResult] = field(default_factory=list)
    players: int = 2  # one A, the other seats B

    @property
    def fair_share(self) -> float:
        """A's share of the wins if A and B were equally strong: one seat in ``players``."""
        return 1.0 / self.players

    @property
    def n(self) -> int:
        return len(self.games)

    @property
    def wins_a(self) -> int:
        return sum(g.a_won for g in self.games)

    @property
    def wins_b(self) -> int:
        return sum(g.b_won for g in self.games)

    @property
    def draws(self) -> int:
        return self.n - self.wins_a - self.wins_b

    @property
    def score_a(self) -> float:
        """A's score: a win 1, a game without a winner A's fair share (a half with 2 players)."""
        return (self.wins_a + self.fair_share * self.draws) / self.n if self.n else \
            self.fair_share

    def interval_a(self) -> tuple[float, float]:
        """95% Wilson interval of A's score (a game without a winner: its fair share)."""
        return wilson(self.wins_a + self.fair_share * self.draws, self.n)

    def interval_b(self) -> tuple[float, float]:
        """The same for the B seats together."""
        return wilson(self.wins_b + (1 - self.fair_share) * self.draws, self.n)

    def elo_a(self) -> float:
        """A's Elo advantage over B, from A's score (2 players: Elo rates pairs)."""
        return elo(self.score_a)


def play_game(state: State, players: Sequence[Player], max_moves: int = 100_000) -> State:
    """Play ``state`` to the end, each seat's ``choose`` picking its options."""
    for _ in range(max_moves):
        if state.is_over:
            return state
        if state.is_chance:  # the coin flip: drawn, the same for both sides of a pairing
            state.apply(state.sample_chance(random.Random(len(state.history))))
        else:
            seat = state.to_move
            assert seat is not None, "a game in progress has a seat to move"
            state.apply(players[seat].choose(state))
    raise RuntimeError(f"the game did not end within {max_moves} moves")


def play_match(a: str, b: str, make: Callable[[str, int], Player], games: int = 20,
               level: int = 1, seed: int = 0, players: int = 2,
               on_game: Callable[[GameResult], None] | None = None,
               cards: tuple = (), variant: str = "spaghetti-code",
               options: dict | None = None, workers: int = 1) -> MatchResult:
    """Play ``games`` games of one A against B in every other seat: game i is dealt by seed
    ``seed + i // players`` and A takes seat ``i % players``, so each deal is played with A in
    every seat in turn (with 2 players: seat 0 in even games, seat 1 in odd ones).
    ``make(name, seed)`` builds a player. ``on_game`` is told each result, in the games' order.
    ``cards``: custom cards that join the deck; ``variant`` and ``options``: the game played.
    ``workers`` > 1 plays the games in that many processes (``make`` must then be a function
    of a module, which pickles); every game depends on its seeds alone, so the result is the
    same whatever the number of workers."""
    result = MatchResult(a, b, players=players)
    game = Game(level=level, players=players, custom_cards=cards, variant=variant,
                options=options or {})
    one = partial(match_game, a, b, make, game, seed)
    pool = ProcessPoolExecutor(workers) if workers > 1 and games > 1 else None
    try:
        # (map keeps the games' order, and hands the workers a few games at a time)
        for played in (pool.map(one, range(games)) if pool else map(one, range(games))):
            result.games.append(played)
            if on_game is not None:
                on_game(played)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return result


def match_game(a: str, b: str, make: Callable[[str, int], Player], game: Game, seed: int,
               i: int) -> GameResult:
    """Game ``i`` of :func:`play_match`."""
    players = game.players
    deal = seed + i // players
    seat_a = i % players
    seats = [make(a if s == seat_a else b, deal * 10 + s) for s in range(players)]
    final = play_game(game.new_state(seed=deal), seats)
    return GameResult(deal, seat_a, final.winner, len(final.history))
