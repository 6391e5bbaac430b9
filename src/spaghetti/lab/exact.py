"""What the exact level-1 solve says about the seats.

The solve's results (docs/solved/level1.json, with a proof line and the work of each program)
ship with the package in short: each program's status and winner, in ``level1-winners.json``
beside this module, so that ``spaghetti lab exact`` answers wherever the package is installed;
the solve with the snake placement order (docs/solved/level1-snake.json) in
``level1-snake-winners.json``. ``python -m spaghetti.lab.exact docs/solved/level1.json`` (or
``level1-snake.json``) writes the short file again from the full results (a test says when the
two differ).
"""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass

from ..errors import SetupError, too_many_digits
from ..solver.level1 import ROUND_ROBIN, order_of, results_name
from .measures import PairedDifference, Rate


@dataclass(frozen=True)
class ExactSeats:
    programs: int  # every program of level 1
    first: int  # proven wins of the first player (places first, runs first)
    second: int
    open: int  # not proven yet
    order: str = ROUND_ROBIN  # the option placement_order of the solve

    @property
    def first_rate(self) -> Rate:
        return Rate(self.first, self.first + self.second)

    def fair_first(self) -> str:
        """Under perfect play with the fair first player rule (A lays out the program, B
        chooses to play first or second): B sees the program, and Spaghetti Code has no draws,
        so every proven program is a win for one seat and B takes that seat."""
        if self.open:
            return (f"B, the seat chooser, wins all {self.first + self.second} proven programs "
                    f"whatever A lays out ({self.open} not proven yet; each of them too has a "
                    "winning seat, since the game has no draws, so B wins those as well once "
                    "the winning seat is known)")
        return f"B, the seat chooser, wins all {self.programs} programs whatever A lays out"


#: The level-1 results shipped with the package: each program's status and winner.
SHIPPED = pathlib.Path(__file__).with_name("level1-winners.json")


def shipped(order: str = ROUND_ROBIN) -> pathlib.Path:
    """The short results shipped for a placement order (the rulebook's round robin, or
    ``snake``)."""
    return SHIPPED.with_name(f"{results_name(order)}-winners.json")


def winners(data: dict) -> dict:
    """The short form of the solve's results that ships with the package."""
    order = {"placement_order": data["placement_order"]} if "placement_order" in data else {}
    return {"format": data["format"], "players": data["players"], "level": data["level"],
            **order,
            "results": {program: {key: entry[key] for key in ("status", "winner") if key in entry}
                        for program, entry in sorted(data["results"].items())}}


def exact_seats(path: pathlib.Path = SHIPPED) -> ExactSeats:
    """Read the solved level-1 results (the full file, or the short one shipped)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        results = data["results"]
        proven = list(_proven(data).values())
        first, second = proven.count(0), proven.count(1)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError,
            AttributeError) as exc:
        raise SetupError(f"{path}: not the level-1 results ({exc})") from None
    except ValueError:  # the only other: an integer longer than Python converts
        raise SetupError(f"{path}: not the level-1 results ({too_many_digits()})") from None
    return ExactSeats(len(results), first, second, len(results) - first - second,
                      order_of(data))


def _proven(data: dict) -> dict[str, int | None]:
    """The winner (0, the first player, or 1) of each program proven in the solve's results."""
    return {program: entry.get("winner") for program, entry in data["results"].items()
            if entry.get("status") == "solved"}


def exact_winners(order: str = ROUND_ROBIN) -> dict[str, int | None]:
    """The proven winner (0, the first player, or 1) of each program the solve proved under a
    placement order, from the short results shipped with the package."""
    return _proven(json.loads(shipped(order).read_text(encoding="utf-8")))


def exact_change(order: str) -> PairedDifference:
    """The first player's proven wins under ``order`` against the rulebook's round robin, on
    the programs proven under both, paired by program."""
    rulebook, other = exact_winners(), exact_winners(order)
    both = rulebook.keys() & other.keys()
    first_a = {p for p in both if rulebook[p] == 0}
    first_b = {p for p in both if other[p] == 0}
    return PairedDifference(Rate(len(first_a), len(both)), Rate(len(first_b), len(both)),
                            both=len(first_a & first_b))


if __name__ == "__main__":  # python -m spaghetti.lab.exact docs/solved/level1.json
    import sys

    full = json.loads(pathlib.Path(sys.argv[1]).read_text(encoding="utf-8"))
    short = shipped(order_of(full))
    short.write_text(json.dumps(winners(full), indent=0) + "\n", encoding="utf-8")
    print(f"wrote {short}")
