"""The puzzle page's server side: a proven puzzle of the built-in set as a view, and the answer
checked against the proof (spaghetti.lab.puzzles)."""

from __future__ import annotations

import contextlib
import functools
from typing import Any

from ..core.view import view
from ..i18n import describe
from ..lab import puzzles
from .tables import WebError


@functools.cache
def _set() -> tuple[puzzles.Puzzle, ...]:
    return tuple(puzzles.load())


def _number(n: Any) -> int:
    items = _set()
    if n is None:
        return puzzles.of_the_day(len(items)) + 1
    number = None  # a whole number, or its digits (a query string's): not true, not 2.5
    if isinstance(n, int) and not isinstance(n, bool):
        number = n
    elif isinstance(n, str):
        with contextlib.suppress(ValueError):
            number = int(n)
    if number is None:
        raise WebError(f"n: a puzzle number from 1 to {len(items)}, not {str(n)[:40]!r}")
    if not 1 <= number <= len(items):
        raise WebError(f"n: a puzzle number from 1 to {len(items)}, not {str(number)[:40]}")
    return number


def puzzle_view(n: Any, lang: str) -> dict:
    """The puzzle's position (nothing hidden in these games), its options with their words."""
    number = _number(n)
    p = _set()[number - 1]
    state = p.state()
    legal = state.legal()
    return {"n": number, "total": len(_set()), "turns": p.n, "to_move": state.to_move,
            "view": view(state), "legal": legal,
            "labels": {o: describe(state, o, lang) for o in legal}}


def puzzle_answer(data: Any, lang: str) -> dict:
    if not isinstance(data, dict):
        raise WebError("send {\"n\": number, \"option\": \"...\"}")
    number = _number(data.get("n"))
    p = _set()[number - 1]
    option = data.get("option")
    state = p.state()
    if not isinstance(option, str) or option not in state.legal():
        raise WebError(f"option: one of {', '.join(state.legal())}, not {str(option)[:100]!r}")
    if option == p.answer:
        line = puzzles.winning_line(p)
        said = []
        for o in line:
            said.append(describe(state, o, lang))
            state.apply(o)
        return {"right": True, "line": line, "said": said}
    return {"right": False, "answer": p.answer, "why": puzzles.refutation(p, option)}
