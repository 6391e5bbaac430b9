"""``spaghetti puzzle``: a proven "win in N" puzzle in the terminal, a streak kept between runs."""

from __future__ import annotations

import json
import os
import pathlib

import click
from rich.console import Console

from ..errors import SetupError
from ..i18n import LANGS, colour, describe, lang_for, t
from ..lab import puzzles
from ..render import render
from .common import counted, require_terminal_streams


def _streak_file() -> pathlib.Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                            "state")
    return pathlib.Path(base) / "spaghetti" / "puzzles.json"


@click.command()
@click.option("--number", type=click.IntRange(min=1), default=None,
              help="Play this puzzle of the set (default: the puzzle of the day).")
@click.option("--file", "path", type=click.Path(dir_okay=False), default=None,
              help="A puzzles file made by 'spaghetti lab puzzles' (default: the built-in set).")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Language of the table.")
def puzzle(number: int | None, path: str | None, lang: str) -> None:
    """Solve a "win in N" puzzle: find the one option that forces a win.

    Every puzzle is proven by exhaustive search: the answer wins within N of your turns
    whatever the others do, and no other option here does. A right answer shows the winning
    line; a wrong one shows why it fails. Your streak is kept between runs. At the end of the
    input (Ctrl+D) or on Ctrl+C it stops without an answer, status 0, the streak unchanged.
    """
    require_terminal_streams("puzzle")
    items = puzzles.load(pathlib.Path(path) if path else puzzles.BUILT_IN)
    if not items:
        raise SetupError("the puzzles file is empty")
    if number is None:
        index = puzzles.of_the_day(len(items))
    elif number > len(items):
        raise SetupError(f"--number: the set has {counted(len(items), 'puzzle')}")
    else:
        index = number - 1
    p = items[index]
    # Replayed move by move, so that the table shows the moves that led here.
    state = p.state(upto=0)
    words = lang_for(lang, state)
    log = []
    for option in p.actions:
        log.append(describe(state, option, words))
        state.apply(option)
    console = Console(highlight=False)
    console.print(render(state, lang, width=min(console.width, 120), log=log, log_size=8))
    seat = state.to_move
    assert seat is not None  # (a puzzle is a choice of the seat to move)
    console.print(t("puzzle.intro", words, i=index + 1, total=len(items), p=colour(seat, lang),
                    seat=seat, n=p.n, options=", ".join(state.legal())))
    try:
        answer = click.prompt(t("puzzle.prompt", words), type=click.Choice(state.legal()),
                              show_choices=False)
    except click.Abort:  # end of input or Ctrl+C: no answer is not a wrong one
        console.print()
        console.print(t("puzzle.no_answer", words))
        return
    streak_path = _streak_file()
    try:
        streak = json.loads(streak_path.read_text(encoding="utf-8")).get("streak", 0)
    except (OSError, ValueError, AttributeError):
        streak = 0
    if answer == p.answer:
        streak += 1
        console.print(t("puzzle.right", words, line=" · ".join(puzzles.winning_line(p))))
    else:
        streak = 0
        console.print(t("puzzle.wrong", words, why=puzzles.refutation(p, answer, words)))
    console.print(t("puzzle.streak", words, n=streak))
    try:
        streak_path.parent.mkdir(parents=True, exist_ok=True)
        streak_path.write_text(json.dumps({"streak": streak}), encoding="utf-8")
    except OSError:
        pass  # a streak that cannot be kept is no reason to fail the puzzle
