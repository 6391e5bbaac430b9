"""Benchmark: the ladder of computer players, each level against the one below.

    python benchmarks/ladder.py [--setup 1x2 --setup 3x2 --setup 3x3 --setup 3x4]
                                [--pairs random-easy,easy-normal,normal-hard,hard-perfect]
                                [--deals 20] [--first-deal 1000] [--no-clock]
                                [--workers 2] [--out benchmarks/results/ladder.jsonl]

A pairing X-Y (X the level below, Y the one above) at a setup (level x players) is played over
``--deals`` deals (seed ``--first-deal`` + i: 1000 on are the deals the players' budgets were
tuned on; a fresh range, say 200000 on, measures them on deals they never saw, and the run
prints the range it plays before it starts), each deal once per seating of X and Y: with 2
players X sits first and second; with 3 players every seating of one X and two Y and of two X
and one Y; with 4 players every seating of two X and two Y (``--lone``: with 3 or 4 players one
Y, in each seat in turn, against X in every other seat). So each side holds the same seats
equally often, and a game counts for Y when a Y wins it (a draw: a half), for X when an X does;
equal players score 50 %. A level ``LEVEL+hand`` is that level judging the positions its search
leaves unexplored by the hand-written evaluation even where a learned one ships for the game
(spaghetti.ai.value), as every level did before one shipped (``--pairs normal+hand-normal``
pits the two evaluations); ``easy+steady`` is the greedy player judging by the whole
hand-written evaluation (the steady ``easy`` of before ``easy`` counted lives and flags alone);
``easy+material`` is today's ``easy`` (the name its first measurements were made under);
``normal+x4`` is ``normal`` with four times its budget of positions (any whole factor);
``normal+paranoid`` is ``normal``'s search made paranoid with 3 or more players (the seat to
move against all the others as one, by alpha-beta, where ``normal`` searches max-n);
``+softT`` (after any level that searches, before ``@FILE``: ``normal+soft0.05@next.npz``)
hedges its max-n with 3 or more players, each other seat taken to choose by a softmax of its
values at temperature T (``AlphaBetaPlayer(soft=T)``);
``mcts+2000`` is MCTS (``MCTSPlayer``, the learned evaluation where a network ships)
with 2,000 iterations a decision. ``normal@FILE`` (or ``hard@FILE``) is that level judging by the
network in FILE (weights as ``spaghetti lab train-value`` writes them; a name without ``-`` or
``,``) instead of the one that ships: a network learned anew against the shipped one
(``--pairs normal-normal@next.npz``) before it replaces it.
``mctsbot`` is the outside reference: OpenSpiel's ``MCTSBot`` (random rollouts, UCT c = 2) with
``MCTSBOT_SIMULATIONS`` simulations a decision, ten times the 1,000 of OpenSpiel's own MCTS
example, searching the project's OpenSpiel game (spaghetti.interop.openspiel; 2 players, no
instant cards; needs ``pip install -e '.[openspiel]'``): ``--pairs mctsbot-hard``.
``--no-clock`` plays the players by their budgets of positions alone,
without the seconds caps (``make_player(clock=False)``, as the lab plays): then the machine's
load cannot change a game, and a game replays from its seeds. A game still on after
``MAX_DECISIONS`` decisions is stopped and judged a stalemate (C9's tie-break: what a
repetition would decide; a player behind on it can otherwise put off the repetition for
thousands of decisions by shuffling the program).

Every game is one line of the ``--out`` file (JSON), written as it ends, so a run that is
stopped goes on where it was when started again with the same arguments. At the end (and with
``--report`` alone, without playing) it prints a Markdown table: games, X's score with its 95 %
Wilson interval, the Elo difference it implies (against its par, its share of the seats: a
third for one seat of three with ``--lone``), each level's Elo over ``random`` at that setup
(the sum of the steps below it), and the think time of each side per decision that had a
choice (mean and the slowest). The scores are of the level above. With 3 or 4 players a second
table splits the score by how many seats the level above holds, against its par (its share of
the seats): a level may win only where it holds most seats.
"""

from __future__ import annotations

import argparse
import itertools
import json
import pathlib
import re
import sys
import time
from typing import Any
from concurrent.futures import ProcessPoolExecutor, as_completed

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from rich.progress import Progress  # noqa: E402

from spaghetti.ai import (EASY_SECONDS, NORMAL_NODES, NORMAL_SECONDS,  # noqa: E402
                          AlphaBetaPlayer, GreedyPlayer, MCTSPlayer, make_player)
from spaghetti.ai.arena import elo, wilson  # noqa: E402
from spaghetti.ai.value import ValueNet  # noqa: E402
from spaghetti.core.game import Game  # noqa: E402

SETUPS = ("1x2", "3x2", "3x3", "3x4")
PAIRS = ("random-easy", "easy-normal", "normal-hard", "hard-perfect")
#: A game still on after this many decisions (by the number of players) is judged a stalemate
#: ("unfinished": true in its line). No game of the ladder that ended by itself took more than
#: 170 decisions with 2 players or 700 with 3 or 4 (one of shuffles with 4 took 3,212 before
#: ``easy`` made mistakes).
MAX_DECISIONS = {2: 500, 3: 1000, 4: 1000}


def seatings(players: int, lone: bool = False) -> list[tuple[bool, ...]]:
    """Every seating of X (True) and Y with each side holding each seat equally often;
    ``lone``: only those of one Y, in each seat in turn."""
    if players == 2:
        return [(True, False), (False, True)]
    if lone:
        return [tuple(s != k for s in range(players)) for k in range(players)]
    sizes = (2,) if players == 4 else range(1, players)
    return [tuple(s in xs for s in range(players))
            for k in sizes for xs in itertools.combinations(range(players), k)]


def player(name: str, seed: int, clock: bool) -> Any:
    """A level of ``make_player``; ``LEVEL+hand``: that level judging by the hand-written
    evaluation alone (``make_player(learned=False)``); ``easy+steady``: the greedy player by the
    whole hand-written evaluation; ``easy+material``: ``easy``; ``normal+xK``: ``normal`` with
    ``K`` times its budget of positions; ``normal+paranoid``: ``normal``'s search, paranoid
    (``AlphaBetaPlayer(paranoid=True)``); ``mcts+N``:
    MCTS with ``N`` iterations a decision;
    ``LEVEL@FILE``: that level judging by the network in FILE; ``+softT``: its max-n hedged."""
    hedged = re.search(r"\+soft([0-9.]+)", name)
    if hedged:
        made = player(name.replace(hedged.group(0), ""), seed, clock)
        search = getattr(made, "search", getattr(made, "fallback", made))
        if not isinstance(search, AlphaBetaPlayer):
            raise ValueError(f"{name!r}: only a level that searches (normal, hard) is hedged")
        search.soft = float(hedged.group(1))
        return made
    if "@" in name:
        base, _, path = name.partition("@")
        searcher = make_player(base, seed, clock=clock, learned=False)
        search = getattr(searcher, "fallback", searcher)  # (hard's search, beside its proofs)
        if not isinstance(search, AlphaBetaPlayer):
            raise ValueError(f"{name!r}: only a level that searches (normal, hard) reads a "
                             "network")
        return JudgedBy(searcher, search, path)
    base, _, modifier = name.partition("+")
    if modifier == "steady" and base == "easy":
        return GreedyPlayer(seed, seconds=EASY_SECONDS if clock else None)
    if modifier == "material" and base == "easy":
        return make_player(base, seed, clock=clock)
    if base == "normal" and modifier[:1] == "x" and modifier[1:].isdigit():
        return AlphaBetaPlayer(
            max_nodes={p: n * int(modifier[1:]) for p, n in NORMAL_NODES.items()},
            seconds=NORMAL_SECONDS if clock else None, seed=seed, learned=True)
    if base == "normal" and modifier == "paranoid":
        return AlphaBetaPlayer(max_nodes=NORMAL_NODES, seconds=NORMAL_SECONDS if clock else None,
                               seed=seed, learned=True, paranoid=True)
    if base == "mcts" and modifier.isdigit():
        return MCTSPlayer(iterations=int(modifier), seconds=1.0 if clock else None, seed=seed,
                          learned=True)
    if modifier not in ("", "hand"):
        raise ValueError(f"unknown player {name!r}: LEVEL, LEVEL+hand, easy+steady, "
                         "easy+material, normal+xK, normal+paranoid, mcts+N or mctsbot")
    if base == "mctsbot" and not modifier:
        return ReferenceMCTS(seed)
    return make_player(base, seed, clock=clock, learned=not modifier)


class JudgedBy:
    """A level whose search judges by the network in a weights file: before each decision the
    search is handed the network's evaluation of the state's game (made once a game), the
    object the network that ships makes, so that max-n judges a leaf for every seat at once
    (``LearnedJudge.every_seat``; the values the same to the last bit as seat by seat)."""

    def __init__(self, player: Any, search: AlphaBetaPlayer, path: str) -> None:
        self.player, self.search = player, search
        self.net = ValueNet.load(pathlib.Path(path))
        self.by_game: dict[int, Any] = {}

    def choose(self, state: Any) -> str:
        judge = self.by_game.get(id(state.game))
        if judge is None:
            judge = self.by_game[id(state.game)] = self.net.evaluation(state.game)
        self.search.evaluation = judge
        return self.player.choose(state)


#: OpenSpiel's example (open_spiel/python/examples/mcts.py) runs 1,000 simulations a move.
MCTSBOT_SIMULATIONS = 10 * 1000


class ReferenceMCTS:
    """OpenSpiel's MCTSBot as a player of the engine's states: each decision it searches the
    OpenSpiel game's state that wraps a copy of the position (its clock is its simulations)."""

    def __init__(self, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import mcts

        self.bot: Any = None
        self.spiel: Any = None
        self.make = lambda spiel: mcts.MCTSBot(
            spiel, 2.0, MCTSBOT_SIMULATIONS,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
            random_state=np.random.RandomState(seed))

    def choose(self, state: Any) -> str:
        import pyspiel

        from spaghetti.core import notation as N
        from spaghetti.interop import openspiel as adapter

        legal = state.legal_actions()
        if len(legal) == 1:  # no choice: the search could only confirm it
            return N.to_string(legal[0])
        if self.bot is None:
            # (the ladder plays Spaghetti Code without options)
            self.spiel = pyspiel.load_game(adapter.SHORT_NAME, {"level": state.game.level})
            self.bot = self.make(self.spiel)
        return N.to_string(adapter.decode(self.bot.step(
            adapter.SpaghettiState(self.spiel, state.copy()))))


def play(job: dict) -> dict:
    """One game; its result and each side's think times."""
    level, players = job["level"], job["players"]
    x, y, seating, deal = job["x"], job["y"], job["seating"], job["deal"]
    state = Game(level=level, players=players).new_state(seed=deal)
    clock = job.get("clock", True)
    seats = [player(x if is_x else y, deal * 10 + s, clock)
             for s, is_x in enumerate(seating)]
    think: dict[str, list[float]] = {"x": [], "y": []}
    while not state.is_over and len(state.history) < MAX_DECISIONS[players]:
        seat = state.to_move
        assert seat is not None
        choice = len(state.legal_actions()) > 1
        start = time.perf_counter()
        option = seats[seat].choose(state)
        if choice:
            think["x" if seating[seat] else "y"].append(time.perf_counter() - start)
        state.apply(option)
    w = state.winner if state.is_over else state.tiebreak_winner()
    score = 0.5 if w is None else 1.0 if seating[w] else 0.0
    return {**job, "score": score, "decisions": len(state.history), "think": think,
            "unfinished": not state.is_over}


def key(job: dict) -> tuple:
    return (job["level"], job["players"], job["x"], job["y"], job["deal"], tuple(job["seating"]),
            job.get("clock", True))


def report(rows: list[dict], setups: list[tuple[int, int]], pairs: list[tuple[str, str]]) -> str:
    lines = ["| level | players | pairing | games | score of the upper | Wilson 95 % | Elo step "
             "| Elo over random | think mean / max (upper) | think mean / max (lower) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    split: list[str] = []
    for level, players in setups:
        ladder = 0.0
        for x, y in pairs:
            games = [r for r in rows if (r["level"], r["players"], r["x"], r["y"])
                     == (level, players, x, y)]
            if not games:
                continue
            n = len(games)
            score = n - sum(g["score"] for g in games)  # the upper's
            lo, hi = wilson(score, n)
            # Against its par, the upper level's share of the seats (a half but with --lone):
            # one seat of three winning a third is even (Luce's model of a field of three).
            par = sum(sum(not s for s in g["seating"]) / len(g["seating"]) for g in games) / n
            step = elo(score / n) - elo(par)
            ladder += step

            def times(side: str, games=games) -> str:
                t = [v for g in games for v in g["think"][side]]
                return f"{sum(t) / len(t):.2f} / {max(t):.2f} s" if t else "-"

            lines.append(f"| {level} | {players} | {y} > {x} | {n} | {score / n:.0%} | "
                         f"{lo:.0%}-{hi:.0%} | {step:+.0f} | {y}: {ladder:+.0f} | {times('y')} "
                         f"| {times('x')} |")
            if players > 2:
                split.append(f"| {level} | {players} | {y} > {x} | " + by_seats(games) + " |")
    if split:
        lines += ["", "With 3 or 4 players, the upper level's share of the games by how many "
                  "seats it holds (par: its share of the seats):", "",
                  "| level | players | pairing | seats held: share of games (par) |",
                  "|---|---|---|---|", *split]
    return "\n".join(lines)


def by_seats(games: list[dict]) -> str:
    """The upper level's score in the games where it holds k seats, for each k."""
    held: dict[int, list[dict]] = {}
    for g in games:
        held.setdefault(sum(not s for s in g["seating"]), []).append(g)
    seats = len(games[0]["seating"])
    return "; ".join(f"{k}: {1 - sum(g['score'] for g in held[k]) / len(held[k]):.0%} of "
                     f"{len(held[k])} ({k / seats:.0%})" for k in sorted(held))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", action="append", help="LEVELxPLAYERS, repeatable "
                        f"(default: {' '.join(SETUPS)})")
    parser.add_argument("--pairs", default=",".join(PAIRS),
                        help="pairings LOWER-UPPER, comma-separated")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--first-deal", type=int, default=1000,
                        help="the seed of the first deal (1000 on: the deals the budgets were "
                        "tuned on; choose a fresh range to measure on unseen deals)")
    parser.add_argument("--no-clock", action="store_true",
                        help="budgets of positions alone, no seconds caps (load-independent)")
    parser.add_argument("--lone", action="store_true",
                        help="with 3 or 4 players, only the seatings of one upper player, in "
                        "each seat in turn, against the lower in every other seat")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "ladder.jsonl"))
    parser.add_argument("--report", action="store_true", help="only print the table")
    args = parser.parse_args()
    setups = [tuple(int(v) for v in s.lower().split("x")) for s in (args.setup or SETUPS)]
    pairs = [tuple(p.split("-")) for p in args.pairs.split(",")]
    if not args.report:  # (the table needs no players: their network files may be elsewhere)
        for x, y in pairs:  # an unknown level or a missing network fails here, before any game
            try:
                player(x, 0, True), player(y, 0, True)
            except (ValueError, OSError) as exc:
                parser.error(str(exc))
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    done = {key(r) for r in rows}
    clock = not args.no_clock
    jobs = [{"level": level, "players": players, "x": x, "y": y, "deal": args.first_deal + d,
             "seating": list(seating), **({} if clock else {"clock": False})}
            for (level, players) in setups for (x, y) in pairs
            for d in range(args.deals) for seating in seatings(players, args.lone)]
    todo = [j for j in jobs if key(j) not in done]
    announced = (f"deals {args.first_deal}-{args.first_deal + args.deals - 1}, players "
                 + ("with their seconds caps" if clock else "by budgets of positions alone"))
    print(f"The ladder: {announced}; {len(todo)} of {len(jobs)} games to play.", flush=True)
    if todo and not args.report:
        with ProcessPoolExecutor(args.workers) as pool, Progress() as progress, \
                out.open("a") as sink:
            task = progress.add_task("ladder games", total=len(todo))
            for future in as_completed([pool.submit(play, j) for j in todo]):
                row = future.result()
                rows.append(row)
                sink.write(json.dumps(row) + "\n")
                sink.flush()
                progress.advance(task)
    wanted = {key(j) for j in jobs}
    print(f"({announced})")
    print(report([r for r in rows if key(r) in wanted], setups, pairs))


if __name__ == "__main__":
    main()
