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
@click.option("--seats", type=click.IntRange(2, 5), default=2, show_default=True,
              help="Players at the table: one A, B in every other seat.")
@click.option("--games", type=click.IntRange(1, 1_000_000), default=20, show_default=True,
              help="Number of games; each program is played once with A in each seat.")
@click.option("--level", type=click.IntRange(1, 3), default=1, show_default=True,
              help="Game level 1, 2 or 3.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game i is dealt with seed S + i // SEATS (and seeds the players).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml",
              help="Custom cards (Blank cards) from a TOML file; they join the deck.")
@click.option("--game", "variant", type=click.Choice(list(VARIANTS)), default="spaghetti-code",
              show_default=True, help="The game of the family.")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="Rule option as name=value; repeatable (see spaghetti play --help).")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes that play games side by side (the results are the same).")
def arena(pair: str, seats: int, games: int, level: int, seed: int, cards_path: str | None,
          variant: str, rule_options: tuple[str, ...], workers: int) -> None:
    """Play computer players against each other and report who is stronger.

    Games over seeded programs, each program once with A in each seat (two players: twice,
    the seats swapped; with --seats 3 to 5, one A against B in every other seat). Prints each
    side's win rate with its 95% Wilson confidence interval, and an Elo estimate of A against B
    (with more than two seats, A's win rate against its fair share instead).

    \b
    Examples:
      spaghetti arena --players normal,random --games 20
      spaghetti arena --players easy,random --games 100 --level 2 --seed 7
      spaghetti arena --players easy,random --cards examples/custom-cards.toml
      spaghetti arena --players normal,easy --game pasta-logic --games 40
      spaghetti arena --players normal,easy --seats 4 --level 3 --games 40
      spaghetti arena --players hard,normal --level 3 --games 40 --workers 4
    """
    a, b = _pair(pair)
    cards = read_cards(cards_path)
    console = Console(highlight=False)
    label_a = f"A {a}"
    label_b = f"B {b}" + (" (2)" if a == b else "") + (f" ({seats - 1} seats)" if seats > 2 else "")
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
                           players=seats, on_game=on_game, cards=cards, variant=variant,
                           options=parse_options(rule_options),  # as play and new
                           workers=workers)
    table = Table(title=f"{counted(games, 'game')}, level {level}, {seats} seats, seeds {seed} "
                        f"to {seed + (games - 1) // seats}, A in each seat in turn",
                  title_justify="left")
    table.add_column("player")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% interval (Wilson)", justify="right")
    for label, wins, (lo, hi) in ((label_a, match.wins_a, match.interval_a()),
                                  (label_b, match.wins_b, match.interval_b())):
        table.add_row(label, str(wins), f"{wins / match.n:.0%}", f"{lo:.0%} - {hi:.0%}")
    console.print(table)
    if match.draws:
        console.print(f"without a winner: {match.draws} (counted as A's fair share of a win in "
                      "the intervals)")
    moves = sum(g.moves for g in match.games) / match.n
    if seats == 2:
        verdict = (f"Elo of A ({a}) over B ({b}): {match.elo_a():+.0f}  "
                   f"(score {match.score_a:.2f}; capped at +-800)")
    else:
        lo, _ = match.interval_a()
        verdict = (f"A ({a}) won {match.score_a:.0%} against a fair share of "
                   f"{match.fair_share:.0%} (one seat in {seats})"
                   + ("; more than its share" if lo > match.fair_share else ""))
    console.print(f"{verdict}  ·  {moves:.0f} moves a game", soft_wrap=True)
