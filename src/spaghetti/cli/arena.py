"""``spaghetti arena``: computer players against each other, with win rates and an Elo estimate.

The match itself and its statistics are in :mod:`spaghetti.ai.arena`; this is the command.
"""

from __future__ import annotations

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..ai import LEVELS, make_player
from ..ai.arena import play_match
from ..core.variants import VARIANTS
from ..errors import SetupError
from .common import counted, parse_options, progress_lines, read_cards


def _pair(text: str) -> tuple[str, str]:
    names = [name.strip().lower() for name in text.split(",")]
    if len(names) != 2 or any(name not in LEVELS for name in names):
        raise SetupError(f"--players expects two difficulties separated by a comma, e.g. "
                         f"normal,random (difficulties: {', '.join(LEVELS)}), not {text!r}")
    return names[0], names[1]


@click.command()
@click.option("--players", "pair", metavar="A,B", required=True,
              help=f"The two computer players, by difficulty: {', '.join(LEVELS)}.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=20, show_default=True,
              help="Number of games; each program is played twice, seats swapped.")
@click.option("--level", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Game level 1, 2 or 3.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game i is dealt with seed S + i // 2 (and seeds the players).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml",
              help="Custom cards (Blank cards) from a TOML file; they join the deck.")
@click.option("--game", "variant", type=click.Choice(list(VARIANTS)), default="spaghetti-code",
              show_default=True, help="The game of the family.")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="Rule option as name=value; repeatable (see spaghetti play --help).")
def arena(pair: str, games: int, level: int, seed: int, cards_path: str | None, variant: str,
          rule_options: tuple[str, ...]) -> None:
    """Play computer players against each other and report who is stronger.

    Two-player games over seeded programs, each program twice with the seats swapped. Prints
    each side's win rate with its 95% Wilson confidence interval, and an Elo estimate of A
    against B.

    \b
    Examples:
      spaghetti arena --players normal,random --games 20
      spaghetti arena --players easy,random --games 100 --level 2 --seed 7
      spaghetti arena --players easy,random --cards examples/custom-cards.toml
      spaghetti arena --players normal,easy --game pasta-logic --games 40
    """
    a, b = _pair(pair)
    cards = read_cards(cards_path)
    console = Console(highlight=False)
    label_a, label_b = (f"A {a}", f"B {b}") if a != b else (f"A {a}", f"B {b} (2)")
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("A {task.fields[wa]} : {task.fields[wb]} B"), TimeElapsedColumn(),
                  console=console, transient=False, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"{a} vs {b}", total=games, wa=0, wb=0)
        tally = [0, 0, 0]  # A's wins, B's wins, games
        told = progress_lines("games", console.is_terminal)

        def on_game(result) -> None:
            tally[0] += result.a_won
            tally[1] += result.b_won
            tally[2] += 1
            progress.update(task, advance=1, wa=tally[0], wb=tally[1])
            told(tally[2], games)

        match = play_match(a, b, make_player, games=games, level=level, seed=seed,
                           on_game=on_game, cards=cards, variant=variant,
                           options=parse_options(rule_options))  # as play and new
    table = Table(title=f"{counted(games, 'game')}, level {level}, seeds {seed} to "
                        f"{seed + (games - 1) // 2}, seats swapped", title_justify="left")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval (Wilson)", justify="right")
    for label, wins, (lo, hi) in ((label_a, match.wins_a, match.interval_a()),
                                  (label_b, match.wins_b, match.interval_b())):
        table.add_row(label, str(wins), f"{wins / match.n:.0%}", f"{lo:.0%} - {hi:.0%}")
    console.print(table)
    if match.draws:
        console.print(f"draws: {match.draws} (counted as half a win in the intervals)")
    moves = sum(g.moves for g in match.games) / match.n
    console.print(f"Elo of A ({a}) over B ({b}): {match.elo_a():+.0f}  "
                  f"(score {match.score_a:.2f}; capped at +-800)  ·  {moves:.0f} moves a game",
                  soft_wrap=True)
