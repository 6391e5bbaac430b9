"""Ratings of the players of the web site, for 2 to 5 players at once: openskill's
Plackett-Luce model (a Bayesian rating made for games of many players and for ties).

Each player has an estimate of skill ``mu`` and its uncertainty ``sigma`` (a new player: 25 and
25/3). The page shows ``mu`` times :data:`SCALE`, so a new player shows 1500, and marks a rating
as provisional until :data:`PROVISIONAL` rated games are finished.

A finished game ranks its seats: the winner first and every other seat tied second; a draw ties
everyone. The computer players sit in a rated game with the fixed ratings of their level
(:data:`COMPUTER`): the model sees them as well-known opponents (small ``sigma``), and their
ratings never change, so that they stay the yardstick the people are measured against. Those
ratings come from the ladder of the computer levels (:data:`LADDER_ELO`), so the gaps between
them say how much each level beats the one below.
"""

from __future__ import annotations

import math

from openskill.models import PlackettLuce

MU, SIGMA = 25.0, 25.0 / 3.0
#: The shown rating is ``mu`` times this: a new player shows 1500.
SCALE = 60
#: Rated games a rating is provisional for (shown with a question mark).
PROVISIONAL = 5
COMPUTER_SIGMA = 1.0
#: Each computer level's Elo over ``random``: the ladder at level 1 with two players, where every
#: level is measured (docs/performance.md, ``benchmarks/ladder.py``, fresh deals 770000 on and,
#: for ``easy``, 870000 on, no clock; ``easy`` over ``random`` won all 60 games there, counted as
#: the table's cap of 800). ``perfect`` scored even with ``hard`` there (both prove most
#: placements), so it has ``hard``'s rating.
LADDER_ELO = {"random": 0, "easy": 800, "normal": 1125, "hard": 1507, "perfect": 1507}
#: Elo points per unit of ``mu``. Between two well-known players (``sigma`` 1, and the model's
#: ``beta`` of ``SIGMA / 2``) Plackett-Luce gives the odds exp(d / c) for a difference d of
#: ``mu``, c = sqrt(2 beta^2 + 2); Elo gives 10^(D / 400) for a difference D.
ELO_PER_MU = 400 / math.log(10) / math.sqrt(2 * (SIGMA / 2) ** 2 + 2 * COMPUTER_SIGMA ** 2)
#: ``random``'s ``mu``, shown as 300; the other levels sit above it by their ladder Elo (shown:
#: easy 1974, normal 2655, hard and perfect 3454; a new player, 1500, between random and easy).
RANDOM_MU = 5.0
#: The fixed ``mu`` of each computer level.
COMPUTER = {level: RANDOM_MU + elo / ELO_PER_MU for level, elo in LADDER_ELO.items()}

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float) -> int:
    """The rating as the page shows it."""
    return round(mu * SCALE)


def public(row: dict) -> dict:
    """What anyone may see of a player (a row of the store)."""
    return {"id": row["id"], "name": row["name"], "rating": shown(row["mu"]),
            "games": row["rated"], "provisional": row["rated"] < PROVISIONAL}


def computer(level: str) -> dict:
    """The fixed rating of a computer level, as the page shows it."""
    return {"rating": shown(COMPUTER.get(level, MU)), "provisional": False}


def ranks(players: int, winner: int | None) -> list[int]:
    """The rank of each seat (1 is best): the winner first, the others tied; all tied for a
    draw."""
    return [1 if winner is None or seat == winner else 2 for seat in range(players)]


def rate(seats: list[tuple[float, float] | str], order: list[int]) -> list[tuple[float, float]]:
    """New ``(mu, sigma)`` of each seat after a game ranked ``order``. A seat is a person's
    ``(mu, sigma)`` or a computer level (its fixed rating, returned unchanged)."""
    teams = [[_MODEL.rating(mu=COMPUTER.get(s, MU), sigma=COMPUTER_SIGMA)] if isinstance(s, str)
             else [_MODEL.rating(mu=s[0], sigma=s[1])] for s in seats]
    after = _MODEL.rate(teams, ranks=list(order))
    return [(COMPUTER.get(s, MU), COMPUTER_SIGMA) if isinstance(s, str)
            else (team[0].mu, team[0].sigma) for s, team in zip(seats, after)]


__all__ = ["COMPUTER", "MU", "PROVISIONAL", "SCALE", "SIGMA", "computer", "public", "ranks",
           "rate", "shown"]
