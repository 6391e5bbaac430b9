"""Puzzles: "win in N", found in real games and proven by exhaustive search.

A puzzle is a position where the seat to move, choosing a target of the command it runs, can
force a win within ``N`` of its own turns (this one counted; a turn is a ``run``/``pass``
decision with every choice of targets inside it), whatever the other seats do, and where exactly
one option of this decision wins so: which flag, card, player or parameter. Both facts are
proven by :func:`forced_win`, a complete AND-OR search through the engine's own door to that
horizon: exact, not sampled, for every game without chance (the Nightmare notes' coin flip is
left out) and without hidden cards.

A puzzle is kept as a record (the options played from the deal) and its solution line, so any
program that replays records can check it.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import pathlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..ai import make_player
from ..core import notation as N
from ..core.game import Game
from ..core.state import State
from ..errors import SetupError
from .. import i18n

#: The committed set of proven puzzles (made by ``spaghetti lab puzzles``).
BUILT_IN = pathlib.Path(__file__).with_name("puzzles.jsonl")

#: Turn decisions searched below a turn of the seat to solve for, at most, before giving up
#: (a puzzle must be proven; an unproven position is simply not a puzzle).
NODE_BUDGET = 200_000


class _Budget(Exception):
    pass


class Search:
    """An exhaustive bounded search for one seat, with a table of proven results."""

    def __init__(self, seat: int, budget: int = NODE_BUDGET):
        self.seat = seat
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple, bool] = {}

    def wins(self, state: State, turns: int) -> bool:
        """Can ``seat`` force a win from ``state`` with at most ``turns`` more turns of its own
        (a turn is counted when the seat decides run or pass)?"""
        if state.is_over:
            return state.winner == self.seat
        if turns <= 0 and state.deciding == "turn" and state.to_move == self.seat:
            return False
        key = (state.position_key(), frozenset(state.seen_positions), turns)
        hit = self.table.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget
        mine = state.to_move == self.seat
        spend = 1 if mine and state.deciding == "turn" else 0
        result = not mine
        for action in state.legal_actions():  # (a declaration too, with manual stalemate)
            child = state.copy()
            child.apply_action(action)
            won = self.wins(child, turns - spend)
            if mine and won:
                result = True
                break
            if not mine and not won:
                result = False
                break
        self.table[key] = result
        return result


def forced_win(state: State, max_turns: int, budget: int = NODE_BUDGET
               ) -> tuple[int, list[str]] | None:
    """The least ``N <= max_turns`` in which the seat to move forces a win, and the options of
    this decision that do it; None if there is none or it could not be proven within
    ``budget``."""
    seat = state.to_move
    if seat is None or state.is_over or state.is_chance:
        return None
    search = Search(seat, budget)
    try:
        for n in range(1, max_turns + 1):
            winners = []
            for action in state.legal_actions():
                child = state.copy()
                child.apply_action(action)
                if search.wins(child, n - 1):  # (this decision is part of the first turn)
                    winners.append(N.to_string(action))
            if winners:
                return n, winners
    except _Budget:
        return None
    return None


@dataclass(frozen=True)
class Puzzle:
    """A proven puzzle: the game, the options played to reach it, and its answer."""

    variant: str
    level: int
    players: int
    program: tuple[str, ...]
    actions: tuple[str, ...]  # from the deal to the puzzle's position
    n: int  # the side to move wins in this many of its turns
    answer: str  # the one option of this decision that wins so
    options: int  # how many options the decision has

    def state(self, upto: int | None = None) -> State:
        """The puzzle's position (after the first ``upto`` of its actions if given)."""
        game = Game(level=self.level, players=self.players, variant=self.variant)
        state = game.new_state(program=list(self.program))
        for option in self.actions[:upto]:
            state.apply(option)
        return state

    def to_data(self) -> dict[str, Any]:
        return {"variant": self.variant, "level": self.level, "players": self.players,
                "program": list(self.program), "actions": list(self.actions), "n": self.n,
                "answer": self.answer, "options": self.options}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Puzzle:
        return cls(data["variant"], data["level"], data["players"], tuple(data["program"]),
                   tuple(data["actions"]), data["n"], data["answer"], data["options"])


def find(variant: str, level: int, players: int, seed: int, max_turns: int = 2,
         ai: str = "easy", budget: int = NODE_BUDGET) -> Iterator[Puzzle]:
    """Puzzles from one self-play game of the computer player ``ai``: every choice of targets
    with two options or more where the side to move has a forced win with exactly one winning
    option."""
    game = Game(level=level, players=players, variant=variant)
    state = game.new_state(seed=seed)
    bots = [make_player(ai, seed * 10 + s) for s in range(players)]
    while not state.is_over and not state.is_chance:
        if state.phase == "execution" and state.deciding not in ("turn", "coin") and \
                len(state.legal()) >= 2:
            found = forced_win(state, max_turns, budget)
            if found is not None and len(found[1]) == 1:
                yield Puzzle(variant, level, players, state.program,
                             tuple(N.to_string(a) for a in state.history), found[0],
                             found[1][0], len(state.legal()))
        seat = state.to_move
        assert seat is not None
        state.apply(bots[seat].choose(state))


def check(puzzle: Puzzle, budget: int = NODE_BUDGET * 5) -> bool:
    """Prove a puzzle again from its record: the answer wins in N, and no other option does
    (nor wins sooner)."""
    state = puzzle.state()
    found = forced_win(state, puzzle.n, budget)
    return found is not None and found == (puzzle.n, [puzzle.answer])


def mcts_finds(puzzle: Puzzle, iterations: int, tries: int = 5,
               make: Callable[[int, int], Any] | None = None) -> float:
    """How often MCTS with this budget picks the answer (a difficulty rating)."""
    from ..ai import MCTSPlayer

    state = puzzle.state()
    hits = 0
    for t in range(tries):
        player = MCTSPlayer(iterations=iterations, seed=t) if make is None else make(iterations, t)
        hits += player.choose(state.copy()) == puzzle.answer
    return hits / tries


def sample_seeds(n: int, seed: int = 0) -> list[int]:
    rng = random.Random(seed)
    return [rng.randrange(1_000_000) for _ in range(n)]


def winning_line(puzzle: Puzzle, budget: int = NODE_BUDGET * 5) -> list[str]:
    """The answer and one way on to the win: at each later decision of the solver the first
    option that keeps the forced win, and for the others their first option (every defence
    loses)."""
    state = puzzle.state()
    seat = state.to_move
    assert seat is not None
    search = Search(seat, budget)
    left = puzzle.n - 1  # the solver's turns after the one the puzzle is in
    line = []
    option = puzzle.answer
    while True:
        line.append(option)
        state.apply(option)
        if state.is_over or state.is_chance:
            return line
        legal = state.legal()
        if state.to_move != seat:
            option = legal[0]
            continue
        spend = 1 if state.deciding == "turn" else 0
        for candidate in legal:
            child = state.copy()
            child.apply(candidate)
            if search.wins(child, left - spend):
                option = candidate
                break
        else:  # (the proof says this cannot happen)
            return line
        left -= spend


def refutation(puzzle: Puzzle, wrong: str, lang: str = "en") -> str:
    """Why a wrong option does not win in N, in one line."""
    state = puzzle.state()
    seat = state.to_move
    assert seat is not None
    state.apply(wrong)
    if state.is_over:
        return i18n.t("puzzle.ends", lang, wrong=wrong)
    return i18n.t("puzzle.holds", lang, wrong=wrong, n=puzzle.n, answer=puzzle.answer)


def load(path: pathlib.Path = BUILT_IN) -> list[Puzzle]:
    """The puzzles of a file of JSON lines (the built-in set by default)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
        return [Puzzle.from_data(json.loads(line)) for line in lines if line.strip()]
    except OSError as exc:
        raise SetupError(f"{path}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError):
        raise SetupError(f"{path}: not a puzzles file (JSON lines)") from None


def of_the_day(total: int, day: datetime.date | None = None) -> int:
    """The index of the puzzle of the day among ``total``: the same all day, everywhere."""
    stamp = (day or datetime.date.today()).isoformat()
    return int(hashlib.sha256(stamp.encode()).hexdigest(), 16) % total
