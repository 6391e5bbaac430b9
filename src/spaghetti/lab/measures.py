"""The measures of an experiment, each with a 95 % interval, never a bare rate.

Rates of wins use the Wilson score interval; differences of two rates Newcombe's hybrid score
interval (from the two Wilson intervals), for rates of the same deals his interval for paired
data; means a seeded percentile bootstrap. Draws (Pasta Logic's everyone-out, C18) are counted
apart and are no win for anybody.
"""

from __future__ import annotations

import math
import random
import statistics
from dataclasses import dataclass

from ..ai.arena import wilson


#: Seats are numbered from 0 in data; in prose they are the first, second, ... seat.
_ORDINALS = ("first", "second", "third", "fourth", "fifth")


def seat_name(seat: int) -> str:
    """A seat (from 0) in prose: "first seat", "second seat"."""
    return f"{_ORDINALS[seat]} seat" if seat < len(_ORDINALS) else f"seat {seat}"


@dataclass(frozen=True)
class Rate:
    """``k`` of ``n``, with its 95 % Wilson interval."""

    k: int
    n: int

    @property
    def value(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.value:.1%} ({lo:.1%}-{hi:.1%}, {self.k}/{self.n})"


@dataclass(frozen=True)
class Difference:
    """``b - a`` of two rates, with Newcombe's 95 % interval."""

    a: Rate
    b: Rate

    @property
    def value(self) -> float:
        return self.b.value - self.a.value

    @property
    def interval(self) -> tuple[float, float]:
        (l1, u1), (l2, u2) = self.a.interval, self.b.interval
        p1, p2 = self.a.value, self.b.value
        d = p2 - p1
        return (d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2),
                d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2))

    @property
    def clear(self) -> bool:
        """Does the interval leave out zero?"""
        lo, hi = self.interval
        return lo > 0 or hi < 0

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.value:+.1%} ({lo:+.1%} to {hi:+.1%})"


@dataclass(frozen=True)
class PairedDifference(Difference):
    """``b - a`` of two rates of the same units (the same deals, played by two sets of
    players), ``both`` of them counted in both rates, with Newcombe's 95 % interval for paired
    data (1998, his method 10): the hybrid score interval narrowed where the two outcomes of a
    unit go together (a deal that favours one seat at both strengths), widened where they go
    against each other."""

    both: int = 0

    @property
    def interval(self) -> tuple[float, float]:
        n, both = self.a.n, self.both
        only_a, only_b = self.a.k - both, self.b.k - both
        neither = n - both - only_a - only_b
        spread = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
        tie = both * neither - only_a * only_b
        # (the correction for continuity of his phi: towards 0 by n/2 where it is positive)
        corrected = tie - n / 2 if tie > n / 2 else min(tie, 0)
        phi = corrected / math.sqrt(spread) if spread else 0.0
        (l1, u1), (l2, u2) = self.a.interval, self.b.interval
        p1, p2 = self.a.value, self.b.value
        d = p2 - p1
        return (d - math.sqrt((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2),
                d + math.sqrt((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))


@dataclass(frozen=True)
class Mean:
    """A mean with a 95 % percentile-bootstrap interval (seeded: the same data, the same
    interval)."""

    values: tuple[float, ...]

    @property
    def value(self) -> float:
        return statistics.fmean(self.values) if self.values else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        data = self.values
        if len(data) < 2:
            return (self.value, self.value)
        rng = random.Random(len(data))
        means = sorted(statistics.fmean(rng.choices(data, k=len(data))) for _ in range(1000))
        return (means[25], means[974])

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.value:.1f} ({lo:.1f}-{hi:.1f})"


def _winning_seat(game: dict, players: int) -> int | None:
    """The seat that won, counted from the one that placed first (seat 0, or with the fair
    first player seat ``first``); None for a draw or an unfinished game."""
    winner = game["winner"]
    return None if winner is None else (winner - game.get("first", 0)) % players


def seat_wins(games: list[dict], players: int) -> list[Rate]:
    """Each seat's win rate, counted from the seat that placed first (:func:`_winning_seat`)."""
    wins = [0] * players
    for g in games:
        seat = _winning_seat(g, players)
        if seat is not None:
            wins[seat] += 1
    return [Rate(w, len(games)) for w in wins]


def seat_changes(a: list[dict], b: list[dict], players: int) -> list[PairedDifference]:
    """Each seat's win rate in games ``b`` minus in games ``a``, on the deals both played
    (games of the same seed: the two arms of an experiment, or two strengths on the same
    deals), paired by deal."""
    won_a, won_b = ({g["seed"]: _winning_seat(g, players) for g in games} for games in (a, b))
    deals = won_a.keys() & won_b.keys()
    changes = []
    for seat in range(players):
        in_a = {d for d in deals if won_a[d] == seat}
        in_b = {d for d in deals if won_b[d] == seat}
        changes.append(PairedDifference(Rate(len(in_a), len(deals)), Rate(len(in_b), len(deals)),
                                        both=len(in_a & in_b)))
    return changes


def endings(games: list[dict]) -> dict[str, Rate]:
    """How games end: by elimination (lives or flags), stalemate, reaching a height, draws, and
    games cut off unfinished (:data:`.runner.MAX_DECISIONS`)."""
    counts: dict[str, int] = {}
    for g in games:
        key = g["reason"] if g["reason"] == "unfinished" or g["winner"] is not None else "draw"
        counts[key] = counts.get(key, 0) + 1
    return {k: Rate(v, len(games)) for k, v in sorted(counts.items())}


def length(games: list[dict]) -> tuple[Mean, Mean]:
    """Mean decisions and mean rounds of the cursor per game."""
    return (Mean(tuple(float(g["decisions"]) for g in games)),
            Mean(tuple(float(g["rounds"]) for g in games)))


@dataclass(frozen=True)
class CardStrength:
    name: str
    runs: int  # times any seat's flag ran it
    passes: int  # times a flag on it was passed
    top_runner_wins: Rate  # games where one seat ran it most: did that seat win?
    with_card: Rate | None  # the first seat's win rate with the card in the program
    without_card: Rate | None  # and without it (only where the program varies)

    @property
    def run_share(self) -> float:
        total = self.runs + self.passes
        return self.runs / total if total else 0.0


def card_strength(games: list[dict], players: int) -> list[CardStrength]:
    """For each card seen: how often it is run and passed, and whether the seat whose flags ran
    it most wins; strongest first."""
    names = sorted({n for g in games for n in g["program"]})
    out = []
    for name in names:
        runs = sum(sum(g["runs"].get(name, ())) for g in games)
        passes = sum(g["passes"].get(name, 0) for g in games)
        k = n = 0
        for g in games:
            counts = g["runs"].get(name)
            if not counts:
                continue
            best = max(counts)
            if counts.count(best) == 1:
                n += 1
                k += g["winner"] == counts.index(best)
        having = [g for g in games if name in g["program"]]
        lacking = [g for g in games if name not in g["program"]]
        out.append(CardStrength(
            name, runs, passes, Rate(k, n),
            seat_wins(having, players)[0] if having and lacking else None,
            seat_wins(lacking, players)[0] if having and lacking else None))
    return sorted(out, key=lambda c: -c.top_runner_wins.value)


def _rate(rate: Rate | None) -> dict | None:
    return None if rate is None else {"rate": rate.value, "interval": rate.interval,
                                      "k": rate.k, "n": rate.n}


def summary(games: list[dict], players: int) -> dict:
    """Every measure of one arm, as plain values (for JSON and the report)."""
    decisions, rounds = length(games)
    return {
        "games": len(games),
        "seat_wins": [{"seat": s, "rate": r.value, "interval": r.interval, "wins": r.k}
                      for s, r in enumerate(seat_wins(games, players))],
        "endings": {k: {"rate": r.value, "interval": r.interval, "count": r.k}
                    for k, r in endings(games).items()},
        "decisions": {"mean": decisions.value, "interval": decisions.interval},
        "rounds": {"mean": rounds.value, "interval": rounds.interval},
        "cards": [{"card": c.name, "runs": c.runs, "passes": c.passes,
                   "run_share": c.run_share, "top_runner_wins": c.top_runner_wins.value,
                   "interval": c.top_runner_wins.interval, "n": c.top_runner_wins.n,
                   "seat1_with": _rate(c.with_card), "seat1_without": _rate(c.without_card)}
                  for c in card_strength(games, players)],
    }
