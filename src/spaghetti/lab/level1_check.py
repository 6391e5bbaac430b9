"""A second check of the level-1 proofs, by another route: play.

A proof says the winner can win against *every* defence. Here the winner's strategy, read from
the solver at each of its decisions, plays whole games from the empty board against many
different opponents, through the engine (so through the rules as the game implements them, not
the solver's model of them), and the check is that it never loses:

- every first placement of the opponent (then random play, seeded);
- random play (three seeds);
- MCTS at two budgets, the greedy player (by the whole hand-written evaluation) and the
  alpha-beta ``normal`` search (a budget of positions, no time cap, so a game replays exactly).

At each of the winner's decisions the solver must prove a win again from the position the game
has reached (a proof covers every reply, so the table of the first proof usually holds it); if
it ever finds the position lost, or the game ends with the other seat winning, the check fails
for that game. The results are one JSON line a game, so a stopped run goes on where it was.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Collection, Iterator

from ..ai import GreedyPlayer, MCTSPlayer, RandomPlayer
from ..ai.alphabeta import AlphaBetaPlayer
from ..core.game import Game
from ..errors import SetupError, too_many_digits
from ..solver.api import _Run
from ..solver.level1 import keep_table, take_up_table

#: The opponents besides the first placements: (kind, parameter).
OPPONENTS: tuple[tuple[str, int], ...] = (
    ("random", 0), ("random", 1), ("random", 2), ("mcts", 100), ("mcts", 1000),
    ("easy", 0), ("normal", 20_000))


def _opponent(kind: str, param: int, seed: int):
    if kind == "random":
        return RandomPlayer(seed * 10 + param)
    if kind == "mcts":
        return MCTSPlayer(iterations=param, seed=seed)
    if kind == "easy":
        return GreedyPlayer(seed)
    if kind == "normal":
        return AlphaBetaPlayer(max_nodes=param, seed=seed)
    raise ValueError(f"unknown opponent {kind!r}")


def opponents(first_placements: int) -> list[str]:
    """The names of the opponents of a program whose other seat has that many first
    placements: ``first 0`` ... then ``random 0`` ... ``normal 20000``."""
    return ([f"first {i}" for i in range(first_placements)]
            + [f"{kind} {param}" for kind, param in OPPONENTS])


class Checker:
    """The proven winner of one program against opponents, sharing one search table.

    ``tables``: a folder where the table is taken up from if an earlier check of the program
    left it there (:meth:`save`), under the name ``solve-level1 --tables`` uses."""

    def __init__(self, program, winner: int, table_mb: int = 512, tables: str | None = None):
        self.program = list(program)
        self.winner = winner
        self.start = Game(level=1).new_state(program=self.program)
        self.run = _Run(self.start, None, None, "auto", None, table_mb)
        self.saved = take_up_table(self.run.solver, tables, self.program, table_mb)

    def save(self) -> None:
        """Keep the search table for the next check of this program (if given a folder)."""

        if self.saved is not None:
            keep_table(self.run.solver, self.saved)

    def forget(self) -> None:
        """Delete the kept table: the program's check is complete."""
        if self.saved is not None and os.path.exists(self.saved):
            os.remove(self.saved)

    def move(self, state) -> tuple[str | None, float]:
        """The winner's option (None if the position is not proven won) and the time taken."""
        began = time.monotonic()
        won, line = self.run.value_line(state, True)
        return (line[0] if won == self.winner and line else None), time.monotonic() - began

    def first_placements(self) -> int:
        """How many first placements the other seat has, after the winner's proven start."""
        state = self.start.copy()
        while state.to_move == self.winner:
            option, _ = self.move(state)
            if option is None:
                return 0
            state.apply(option)
        return len(state.legal_actions())

    def play(self, opponent: str, seed: int = 0) -> dict:
        """One game from the empty board: the winner's strategy against ``opponent``."""
        kind, _, text = opponent.partition(" ")
        param = int(text)
        first = param if kind == "first" else None
        player = _opponent("random" if kind == "first" else kind,
                           100 + param if kind == "first" else param, seed)
        state = self.start.copy()
        thinking = 0.0
        proof_lost = False
        while not state.is_over:
            if state.to_move == self.winner:
                option, spent = self.move(state)
                thinking += spent
                if option is None:
                    proof_lost = True
                    break
                state.apply(option)
            elif first is not None:
                state.apply_action(state.legal_actions()[first])
                first = None
            else:
                state.apply(player.choose(state))
        return {"program": ",".join(self.program), "opponent": opponent,
                "winner": state.winner, "proven_winner": self.winner,
                "held": not proof_lost and state.winner == self.winner,
                "decisions": len(state.history), "solver_seconds": round(thinking, 2)}


def games(path: str) -> list[dict]:
    """The games of a results file, in order (none if there is no file yet)."""
    if not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except UnicodeDecodeError:
        raise SetupError(f"{path}: not a results file of the second check") from None
    except json.JSONDecodeError as exc:
        raise SetupError(f"{path}: not a results file of the second check ({exc})") from None
    except ValueError:  # the decoder's other error: a number longer than Python converts
        raise SetupError(f"{path}: not a results file of the second check "
                         f"({too_many_digits()})") from None
    except RecursionError:
        raise SetupError(f"{path}: not a results file of the second check (nested too "
                         "deeply)") from None


def done(path: str) -> set[tuple[str, str]]:
    """The (program, opponent) pairs already in a results file."""
    return {(g["program"], g["opponent"]) for g in games(path)}


def to_check(results: dict, max_seconds: float | None = None,
             only: Collection[str] | None = None) -> list[dict]:
    """The proven programs of ``results`` a check plays, quickest proof first: those proven
    within ``max_seconds`` and among ``only`` (each if given)."""
    return sorted((r for r in results["results"].values() if r["status"] == "solved"
                   and (max_seconds is None or r["seconds"] <= max_seconds)
                   and (only is None or r["program"] in only)),
                  key=lambda r: r["seconds"])


def check(results: dict, path: str, max_seconds: float | None = None,
          table_mb: int = 512, only: Collection[str] | None = None,
          tables: str | None = None) -> Iterator[dict]:
    """Play every opponent against every proven program of ``results`` (level1.json's), the
    quickest proofs first (only those proven within ``max_seconds``, and only the programs of
    ``only``, if given), appending each game to ``path`` and yielding it. With ``tables``, a
    check that is interrupted (KeyboardInterrupt) leaves its search table there, and the next
    one takes it up, so a long first proof adds up over several sittings."""
    seen = done(path)
    for r in to_check(results, max_seconds, only):
        program = r["program"]
        # (a first placement may go on any card: one opponent a card, without a search to count)
        if all((program, o) in seen for o in opponents(len(program.split(",")))):
            continue
        checker = Checker(program.split(","), r["winner"], table_mb, tables)
        try:
            for opponent in opponents(checker.first_placements()):
                if (program, opponent) in seen:
                    continue
                game = checker.play(opponent)
                with open(path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(game) + "\n")
                yield game
        except KeyboardInterrupt:
            checker.save()
            raise
        checker.forget()


def summary(path: str) -> dict:
    """Counts over a results file: programs, programs checked to the end, games, games the
    proven winner did not win, and games by kind of opponent."""
    played = games(path)
    by_kind: dict[str, int] = {}
    for g in played:
        kind = g["opponent"].split()[0]
        by_kind[kind] = by_kind.get(kind, 0) + 1
    failures = [g for g in played if not g["held"]]
    last = opponents(0)[-1]  # the opponents are played in order: this one ends a check
    return {"programs": len({g["program"] for g in played}),
            "complete": len({g["program"] for g in played if g["opponent"] == last}),
            "games": len(played),
            "failed": len(failures), "by_kind": by_kind, "failures": failures}
