"""``spaghetti lab``: experiments with many games, answered with intervals, tables and plots.

The experiment, the runner and the measures are in :mod:`spaghetti.lab`; these are the commands.
"""

from __future__ import annotations

import json
import pathlib
import shlex
import sys
from collections.abc import Callable
from typing import Any

import click
from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table

from ..ai import LEVELS
from ..core.options import OPTIONS
from ..core.variants import VARIANTS
from ..errors import SetupError
from ..lab import experiment as spec
from ..lab import publish, report, runner
from ..lab.exact import exact_seats, shipped
from ..lab.measures import seat_changes, seat_name, seat_wins, summary
from .common import counted, parse_options, progress_lines, read_cards

DEFAULT_OUT = "lab-results"


def game_options(level: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The options that name a game: ``--game``, ``--level`` (default ``level``), ``--players``."""
    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed((
                click.option("--game", "variant", type=click.Choice(list(VARIANTS)),
                             default="spaghetti-code", show_default=True,
                             help="The game of the family."),
                click.option("--level", type=int, default=level, show_default=True,
                             help="Game level."),
                click.option("--players", type=int, default=2, show_default=True,
                             help="Number of players."))):
            command = option(command)
        return command
    return decorate


@click.group()
def lab() -> None:
    """Experiments: seat advantage, card strength, game length and rule A/B tests.

    \b
    Examples:
      spaghetti lab run --name seats-l1 --level 1 --ai easy --games 400
      spaghetti lab run --name snake --games 400 --b-option placement_order=snake
      spaghetti lab run experiment.toml --workers 2
      spaghetti lab exact
    """


def _read_experiment(file: str) -> spec.Experiment:
    """The experiment of a TOML FILE; :class:`SetupError` if it cannot be read or is wrong."""
    try:
        text = pathlib.Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        raise SetupError(f"{file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SetupError(f"{file}: not UTF-8 text: {exc}") from None
    return spec.loads(text, file)


@lab.command("run")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--name", help="Name of the experiment (its results file); required without FILE.")
@game_options(level=1)
@click.option("--ai", default="easy", show_default=True, metavar="NAME[,NAME...]",
              help=f"The computer player of every seat, or one per seat: {', '.join(LEVELS)}.")
@click.option("--games", type=click.IntRange(1, spec.MAX_GAMES), default=None,
              help="Games per arm (default 100, or the file's).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Game i is dealt with seed S + i (default 0, or the file's).")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE",
              help="Rule option of the game; repeatable.")
@click.option("--b-option", "b_options", multiple=True, metavar="NAME=VALUE",
              help="A second arm: the same game with this option changed; repeatable.")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml", help="Custom cards that join the deck.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder of the results and the report.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes playing games (default: the number of CPUs).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Play on a Ray cluster at ADDRESS ('local': start Ray here); the results are "
                   "the same as with processes.")
@click.option("--fresh", is_flag=True, help="Forget saved games of this experiment first.")
@click.option("--no-plots", is_flag=True, help="Write the report without figures.")
def run_command(file: str | None, name: str | None, variant: str, level: int, players: int,
                ai: str, games: int | None, seed: int | None, rule_options: tuple[str, ...],
                b_options: tuple[str, ...], cards_path: str | None, out_dir: str,
                workers: int | None, ray_address: str | None, fresh: bool,
                no_plots: bool) -> None:
    """Play an experiment (FILE, TOML, or the options) and write its report.

    Every game is saved as it ends in OUT/NAME.jsonl, so a stopped run resumes where it was and
    a finished one is not played again (raise --games to add games). The report, with every
    measure's 95% interval, goes to OUT/NAME/report.md with its figures.
    """
    if file is not None:
        experiment = _read_experiment(file)
        experiment = spec.replace(experiment, games=experiment.games if games is None else games,
                                  seed=experiment.seed if seed is None else seed)
    else:
        if not name:
            raise SetupError("give an experiment FILE, or --name for one made of the options")
        data: dict = {"experiment": {
            "name": name, "variant": variant, "level": level, "players": players,
            "ai": [a.strip() for a in ai.split(",")], "games": games or 100, "seed": seed or 0,
            "options": parse_options(rule_options)}}
        if cards_path:
            data["experiment"]["cards"] = cards_path
        if b_options:
            data["b"] = {"options": parse_options(b_options)}
        experiment = spec.from_data(data, "the options")
    out = pathlib.Path(out_dir)
    results = _play(experiment, out, workers, fresh, ray_address)
    command = "spaghetti lab run " + " ".join(shlex.quote(a) for a in sys.argv[3:]) \
        if len(sys.argv) > 3 and sys.argv[1:3] == ["lab", "run"] else f"spaghetti lab run {file}"
    _write_report(experiment, results, out, command, no_plots)


def _read_cards(experiment: spec.Experiment) -> dict[str, tuple]:
    """The custom cards of the experiment's arms, by the file each names."""
    return {arm.cards: read_cards(arm.cards) for arm in experiment.arms.values() if arm.cards}


def _play(experiment: spec.Experiment, out: pathlib.Path, workers: int | None, fresh: bool,
          ray_address: str | None) -> dict[str, list[dict]]:
    """Play an experiment into OUT/NAME.jsonl (resuming), with a progress bar on a terminal."""
    cards = _read_cards(experiment)
    console = Console(highlight=False, stderr=True)
    with Progress(TextColumn(experiment.name), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                  console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task("games", total=None)
        told: list[Callable[[int, int | None], None]] = []

        def on_game(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)
            if not told:  # the first call: what a resumed run had played before
                told.append(progress_lines(experiment.name, console.is_terminal, done))
            told[0](done, total)

        return runner.run(experiment, out / f"{experiment.name}.jsonl", cards, workers, fresh,
                          on_game, ray_address)


def _write_report(experiment: spec.Experiment, results: dict[str, list[dict]],
                  out: pathlib.Path, command: str, no_plots: bool) -> None:
    folder = out / experiment.name
    folder.mkdir(parents=True, exist_ok=True)
    players = experiment.a.players
    summaries = {name: summary(games, players) for name, games in results.items()}
    (folder / "summary.json").write_text(json.dumps(summaries, indent=1), encoding="utf-8")
    images: list[str] = []
    note = ""
    if not no_plots:
        try:
            images = report.figures(experiment, results, folder)
        except ImportError:
            note = "(Figures need matplotlib: pip install matplotlib.)"
    cards = _read_cards(experiment)
    (folder / "report.md").write_text(
        report.markdown(experiment, results, summaries, images, command, note,
                        learned=runner.learned_alike(experiment, cards)), encoding="utf-8")
    console = Console(highlight=False)
    table = Table(title=f"{experiment.name}: win rate by seat (95% interval)",
                  title_justify="left")
    table.add_column("arm")
    for s in range(players):
        table.add_column(seat_name(s), justify="right")
    for name, games in results.items():
        table.add_row(name, *(str(r) for r in seat_wins(games, players)))
    console.print(table)
    if "b" in results:
        d = seat_changes(results["a"], results["b"], players)[0]
        console.print(f"first seat, arm b - arm a: {d}" + ("" if d.clear else " (not shown: the "
                                                        "interval holds zero)"))
    console.print(f"report: {folder / 'report.md'}")


@lab.command("report")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=DEFAULT_OUT,
              show_default=True, help="Folder of the results and the report.")
@click.option("--no-plots", is_flag=True, help="Write the report without figures.")
def report_command(file: str, out_dir: str, no_plots: bool) -> None:
    """Write the report of an experiment FILE from the games saved so far, playing none."""
    experiment = _read_experiment(file)
    out = pathlib.Path(out_dir)
    saved = runner.load(out / f"{experiment.name}.jsonl", experiment)
    if not any(saved.values()):
        raise SetupError(f"no saved games of {experiment.name!r} in {out}")
    results = {name: [games[i] for i in sorted(games)] for name, games in saved.items()}
    _write_report(experiment, results, out, f"spaghetti lab run {file} --out {out_dir}",
                  no_plots)


def _published_experiments(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options that pick experiment files: ``--experiments`` (the folder), ``--only``
    (a pattern of their names); :func:`_experiments` reads the files they pick."""
    command = click.option("--only", default="*", show_default=True, metavar="GLOB",
                           help="Only the experiment files whose names match (e.g. "
                                "'strength-*').")(command)
    return click.option("--experiments", "folder",
                        type=click.Path(file_okay=False, exists=True),
                        default="docs/lab/experiments", show_default=True,
                        help="The folder of the experiment files.")(command)


def _experiments(folder: str, only: str) -> list[spec.Experiment]:
    """The experiments of the files in ``folder`` whose names match ``only``, by name."""
    files = sorted(pathlib.Path(folder).glob(f"{only}.toml"))
    if not files:
        raise SetupError(f"no experiment files {only}.toml in {folder}")
    return [_read_experiment(str(f)) for f in files]


@lab.command("publish")
@_published_experiments
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="docs/lab/results",
              show_default=True, help="Folder of the results and their reports.")
@click.option("--readme", type=click.Path(dir_okay=False, exists=True),
              default="docs/lab/README.md", show_default=True,
              help="The page whose sections made from results are written anew.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes playing games (default: the number of CPUs).")
@click.option("--rerun-superseded", is_flag=True,
              help="Play superseded results again from the start (else they stay as they are).")
@click.option("--no-plots", is_flag=True, help="Write the reports without figures.")
@click.option("--readme-only", is_flag=True,
              help="Play nothing and write no report: only write the README's sections anew "
                   "from the results there are (after results were copied in, say).")
def publish_command(folder: str, only: str, out_dir: str, readme: str, workers: int | None,
                    rerun_superseded: bool, no_plots: bool, readme_only: bool) -> None:
    """Make the lab's published results again from their experiment files: play every
    experiment (resuming where its games are saved), write its report, then write anew the
    sections of the README made from results (between <!-- lab:NAME --> markers)."""
    out = pathlib.Path(out_dir)
    if readme_only:
        written = publish.write_sections(pathlib.Path(readme), out, not no_plots)
        click.echo(f"{readme}: {', '.join(written) or 'no section'} written anew")
        return
    plan = publish.to_play(_experiments(folder, only), out, rerun_superseded)
    for experiment, fresh in plan:
        results = _play(experiment, out, workers, fresh, None)
        _write_report(experiment, results, out,
                      f"spaghetti lab publish --only {experiment.name}", no_plots)
    written = publish.write_sections(pathlib.Path(readme), out, not no_plots)
    click.echo(f"{counted(len(plan), 'experiment')} played (or found played); {readme}: "
               f"{', '.join(written) or 'no section'} written anew")


@lab.command("status")
@_published_experiments
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="docs/lab/results",
              show_default=True, help="Folder of the results.")
@click.option("--unfinished", is_flag=True, help="Only the experiments with games left to play.")
def status_command(folder: str, only: str, out_dir: str, unfinished: bool) -> None:
    """How far each experiment's results are, playing nothing: the games an arm declares, those
    saved, what is left, and the commits that played them. A run that was stopped, or an
    experiment whose games were raised, goes on with 'lab run FILE' (or 'lab publish')."""
    out = pathlib.Path(out_dir)
    rows = [runner.progress(e, out / f"{e.name}.jsonl") for e in _experiments(folder, only)]
    shown = [r for r in rows if r.left] if unfinished else rows
    width = max((len(r.name) for r in shown), default=0)
    saved = [" + ".join(str(n) for n in r.played) for r in shown]
    saved_width = max(map(len, saved), default=0)
    games_width = max((len(str(r.games)) for r in shown), default=0)
    for r, n in zip(shown, saved):
        state = f"superseded: {r.superseded}" if r.superseded else r.state
        left = f", {r.left} left" if r.left and not r.superseded else ""
        where = f" (played at {', '.join(c[:7] for c in r.commits)})" if r.commits else ""
        click.echo(f"{r.name:<{width}}  {n:>{saved_width}} of {r.games:<{games_width}}  "
                   f"{state}{left}{where}")
    done = sum(r.state == "done" for r in rows)
    click.echo(f"{done} of {counted(len(rows), 'experiment')} played in full; "
               f"{counted(sum(r.left for r in rows), 'game')} left")


@lab.command("verify")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
@click.option("--sample", type=click.IntRange(1, 100_000), default=5, show_default=True,
              help="Games of each result to replay, spread over the file (of each stretch, "
                   "the one of fewest decisions).")
def verify_command(results: tuple[str, ...], sample: int) -> None:
    """Replay a sample of each RESULTS file's saved games (OUT/NAME.jsonl) with this version of
    the code, and say whether they still play the same. A result marked superseded is named and
    left alone. Exit status 1 when any game played otherwise: the result no longer stands, so
    run it again (lab run --fresh) or mark it superseded (lab supersede)."""
    failed = 0
    for path in results:
        verdict = runner.verify(pathlib.Path(path), sample, read_cards)
        if verdict.superseded:
            click.echo(f"{path}: superseded ({verdict.superseded}); not replayed")
        elif verdict.holds:
            click.echo(f"{path}: {counted(verdict.checked, 'game')} replayed, all the same")
        else:
            failed += 1
            click.echo(f"{path}: {len(verdict.differ)} of {counted(verdict.checked, 'game')} "
                       "replayed otherwise: " + "; ".join(
                           f"arm {arm} game {i} ({', '.join(fields)})"
                           for arm, i, fields in verdict.differ))
    if failed:
        raise SystemExit(1)


@lab.command("compare")
@click.argument("first", metavar="RESULT_A", type=click.Path(dir_okay=False, exists=True))
@click.argument("second", metavar="RESULT_B", type=click.Path(dir_okay=False, exists=True))
@click.option("--arms", default="a,a", show_default=True, metavar="X,Y",
              help="The arm of each result: 'b,a' compares arm b of RESULT_A with arm a of "
                   "RESULT_B.")
def compare_command(first: str, second: str, arms: str) -> None:
    """Each seat's win rate in RESULT_B against RESULT_A, on the deals both played (the games
    dealt from the same seeds), paired by deal: two strengths on the same deals, two rules,
    two versions of a player. Playing nothing.

    \b
    Examples:
      spaghetti lab compare docs/lab/results/strength-code-l3-normal.jsonl \\
          docs/lab/results/strength-code-l3-hard.jsonl
      spaghetti lab compare snake.jsonl snake.jsonl --arms a,b"""
    names = arms.split(",")
    if len(names) != 2 or not all(names):
        raise SetupError(f"--arms {arms}: give two arms, as 'a,b'")
    (players, games_a), (players_b, games_b) = (
        runner.arm_games(pathlib.Path(path), arm) for path, arm in zip((first, second), names))
    if players != players_b:
        raise SetupError(f"{first} has {players} players and {second} {players_b}: "
                         "compare games of as many players")
    changes = seat_changes(games_a, games_b, players)
    deals = changes[0].a.n
    if not deals:
        raise SetupError(f"{first} and {second} have no deal in common: compare results dealt "
                         "from the same seeds")
    a, b = (f"{pathlib.Path(path).stem} (arm {arm})" for path, arm in zip((first, second), names))
    table = Table(title=f"{b} against {a}, on the {counted(deals, 'deal')} both played (of "
                        f"{len(games_a)} and {len(games_b)}), paired by deal",
                  title_justify="left", caption="bold: a change the interval shows (it leaves "
                  "out zero)", caption_justify="left")
    for column in ("seat", "A", "B", "B - A (95% interval)"):
        table.add_column(column, justify="left" if column == "seat" else "right")
    for seat, change in enumerate(changes):
        table.add_row(seat_name(seat), *(f"{r.value:.1%} ({r.k}/{r.n})" for r in (change.a,
                                                                                   change.b)),
                      f"[bold]{change}[/bold]" if change.clear else str(change))
    Console(highlight=False).print(table)


@lab.command("supersede")
@click.argument("result", type=click.Path(dir_okay=False, exists=True))
@click.argument("reason")
def supersede_command(result: str, reason: str) -> None:
    """Mark a RESULT file superseded, saying why (REASON): its games stay as the record of their
    run, verify leaves it alone, and its report should say so."""
    runner.supersede(pathlib.Path(result), reason)
    click.echo(f"{result}: marked superseded")


@lab.command("exact")
@click.option("--results", "path", type=click.Path(dir_okay=False), default=None,
              help="The solved level-1 results (default: those shipped with the package, from "
                   "docs/solved/level1.json, or level1-snake.json with --placement-order "
                   "snake).")
@click.option("--placement-order", "order", type=click.Choice(OPTIONS["placement_order"].values),
              default=OPTIONS["placement_order"].default, show_default=True,
              help="The results shipped for the rulebook's round robin, or for the snake order "
                   "of the designer's 2009 notes (0, 1, 1, 0, ...).")
def exact_command(path: str | None, order: str) -> None:
    """Seat advantage at level 1 under perfect play, from the exact solve, and what it means for
    the fair first player rule."""
    seats = exact_seats(shipped(order) if path is None else pathlib.Path(path))
    lo, hi = seats.first_rate.interval
    rule = "" if seats.order == OPTIONS["placement_order"].default else \
        f", {seats.order} placement"
    click.echo(f"Level 1, 2 players{rule}, perfect play: of {seats.programs} programs the "
               f"first player wins {seats.first}, the second {seats.second}, {seats.open} not "
               "proven yet "
               f"(first player {seats.first_rate.value:.1%} of the proven; these are exact "
               f"results, not a sample: an interval over programs would be {lo:.1%}-{hi:.1%}).")
    click.echo(f"Fair first player rule under perfect play: {seats.fair_first()}.")


@lab.command("puzzles")
@game_options(level=1)
@click.option("--games", type=click.IntRange(1, spec.MAX_GAMES), default=20, show_default=True,
              help="Self-play games to search for puzzles.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Game i is dealt with seed S + i.")
@click.option("--max-turns", type=click.IntRange(1, 4), default=2, show_default=True,
              help="Find wins in at most this many of the solver's turns.")
@click.option("--mcts", type=click.IntRange(min=0), default=200, show_default=True,
              help="Rate difficulty by how often MCTS with this many iterations finds the answer "
                   "(0: do not rate).")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default="puzzles.jsonl",
              show_default=True, help="Puzzles are added to this file (JSON lines), once each.")
def puzzles_command(variant: str, level: int, players: int, games: int, seed: int,
                    max_turns: int, mcts: int, out_path: str) -> None:
    """Find "win in N" puzzles in self-play games and prove them by exhaustive search."""
    from ..lab import puzzles

    path = pathlib.Path(out_path)
    known = set()
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                data = json.loads(line)
                known.add((tuple(data["program"]), tuple(data["actions"])))
            except (ValueError, KeyError, TypeError):
                raise SetupError(f"{path}: not a puzzles file (JSON lines)") from None
    console = Console(highlight=False, stderr=True)
    added = 0
    with Progress(TextColumn("puzzles"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[n]} found"),
                  console=console, disable=not console.is_terminal) as progress, \
            path.open("a", encoding="utf-8") as out:
        task = progress.add_task("games", total=games, n=0)
        told = progress_lines("puzzles: games", console.is_terminal)
        for i in range(games):
            for puzzle in puzzles.find(variant, level, players, seed + i, max_turns):
                if (puzzle.program, puzzle.actions) in known:
                    continue
                known.add((puzzle.program, puzzle.actions))
                data = puzzle.to_data()
                if mcts:
                    data["mcts_finds"] = puzzles.mcts_finds(puzzle, mcts, tries=4)
                out.write(json.dumps(data) + "\n")
                out.flush()
                added += 1
                progress.update(task, n=added)
            progress.update(task, advance=1)
            told(i + 1, games)
    click.echo(f"{added} new puzzles added to {path}")


@lab.command("train-value")
@game_options(level=3)
@click.option("--games", type=click.IntRange(1, spec.MAX_GAMES), default=2000, show_default=True,
              help="Self-play games to learn from.")
@click.option("--seed", type=click.IntRange(min=0), default=500_000, show_default=True,
              help="Game i is dealt with seed S + i (keep these deals apart from those that "
                   "measure the players).")
@click.option("--nodes", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Positions the self-play players search a decision.")
@click.option("--explore", type=click.FloatRange(0, 1), default=0.1, show_default=True,
              help="Odds that a self-play decision is at random.")
@click.option("--sample", type=click.FloatRange(0, 1, min_open=True), default=0.25,
              show_default=True, help="Odds that a decision's position is learned from.")
@click.option("--hidden", type=click.IntRange(1, 1024), default=64, show_default=True,
              help="Hidden units of the network.")
@click.option("--epochs", type=click.IntRange(1, 10_000), default=20, show_default=True,
              help="Passes over the positions (the weights kept are those of the pass with "
                   "the least error on the held-out games).")
@click.option("--bootstrap", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Learn toward this share of the self-play search's value of a position (with "
                   "more than two players, max-n's value for the seat) and the rest of the "
                   "game's result.")
@click.option("--learned", is_flag=True,
              help="The self-play players judge by the network that ships for the game (where "
                   "one does) instead of the hand-written evaluation: a new network learns from "
                   "the play of the one before it.")
@click.option("--learned-from", "network_path", type=click.Path(dir_okay=False, exists=True),
              default=None,
              help="The self-play players judge by the network in this weights file (one not "
                   "shipped, as `--out` writes them): a new network learns from its play.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes that play the games.")
@click.option("--positions", "positions_path", type=click.Path(dir_okay=False), default=None,
              help="Keep the positions in this file (.npz): read from it where it exists, "
                   "played and written to it where not.")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="The weights' file [default: GAME-lLEVEL-Np.npz here].")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
              help="Draw the learning curve to this file (.svg or .png).")
def train_value_command(variant: str, level: int, players: int, games: int, seed: int,
                        nodes: int, explore: float, sample: float, hidden: int, epochs: int,
                        bootstrap: float, learned: bool, network_path: str | None,
                        workers: int, positions_path: str | None, out_path: str | None,
                        plot_path: str | None) -> None:
    """Train a learned evaluation by self-play: a small network that reads a position as the
    environments encode it and says how the game ends (spaghetti.ai.value).

    \b
    Examples:
      spaghetti lab train-value --level 3 --games 2000 --workers 2
      spaghetti lab train-value --positions l3.npz --epochs 60   # learn again, no replay
      spaghetti lab train-value --level 3 --learned --out next.npz  # from the shipped one's play
      spaghetti lab train-value --level 3 --players 4 --learned-from gen1.npz --out gen2.npz
    """
    import time

    import numpy as np

    from ..ai import training, value
    from ..core.game import Game

    game = Game(level=level, players=players, variant=variant)
    console = Console(highlight=False, stderr=True)
    started = time.perf_counter()
    learned_from = None
    if network_path is not None:
        if learned:
            raise click.UsageError("--learned and --learned-from: one network judges, not two")
        learned_from = _network_of(pathlib.Path(network_path), game)
    positions = pathlib.Path(positions_path) if positions_path else None
    if positions is not None and positions.exists():
        try:
            with np.load(positions) as data:
                observations, results, searched, numbers = (data["x"], data["y"], data["v"],
                                                            data["g"])
                made = json.loads(str(data["meta"]))
        except (OSError, ValueError, KeyError) as exc:
            raise SetupError(f"{positions}: not a positions file of this command ({exc})") \
                from None
        if made.get("game") != value.game_key(game):
            raise SetupError(f"{positions} holds positions of {made.get('game')}, not "
                             f"{value.game_key(game)}")
        games, seed, nodes, explore, sample = (made[k] for k in
                                               ("games", "seed", "nodes", "explore", "sample"))
        learned = bool(made.get("learned", False))
        learned_from = made.get("learned_from")
        click.echo(f"{len(observations):,} positions of {games} games read from {positions}")
    else:
        with Progress(TextColumn("self-play"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                      console=console, disable=not console.is_terminal) as progress:
            task = progress.add_task("games", total=games)
            told = progress_lines("self-play games", console.is_terminal)

            def on_game(done: int) -> None:
                progress.update(task, completed=done)
                told(done, games)

            observations, results, searched, numbers = training.self_play(
                game, games, seed, nodes, explore, sample, workers, progress=on_game,
                learned=learned, network=network_path)
        made = {"game": value.game_key(game), "games": games, "seed": seed, "nodes": nodes,
                "explore": explore, "sample": sample, "learned": learned}
        if learned_from is not None:
            made["learned_from"] = learned_from
        if positions is not None:
            with positions.open("wb") as kept:
                np.savez_compressed(kept, x=observations, y=results, v=searched, g=numbers,
                                    meta=np.array(json.dumps(made)))
        click.echo(f"{len(observations):,} positions of {games} games played "
                   f"({time.perf_counter() - started:.0f} s)")
    played = time.perf_counter() - started

    def shown(epoch: int, train: float, held: float) -> None:
        click.echo(f"epoch {epoch:3d}: error {train:.4f} learned, {held:.4f} held out")

    target = results
    if bootstrap:
        # (A position the search kept no value for, as in positions played before it kept
        # max-n's, learns from its result alone.)
        known = np.where(np.isnan(searched), results, searched)
        target = ((1 - bootstrap) * results + bootstrap * known).astype(np.float32)
    net, curve = training.fit(observations, target, numbers, hidden=hidden, epochs=epochs,
                              seed=seed, progress=shown)
    net.meta = {**made, "positions": int(len(observations)), "hidden": hidden, "epochs": epochs,
                "bootstrap": bootstrap,
                "command": "spaghetti lab train-value " + shlex.join(sys.argv[
                    sys.argv.index("train-value") + 1:]) if "train-value" in sys.argv else None,
                "commit": runner._commit(), "seconds_play": round(played),
                "seconds_fit": round(time.perf_counter() - started - played),
                "curve": [[e, round(a, 5), round(b, 5)] for e, a, b in curve]}
    weights = pathlib.Path(out_path or f"{value.game_key(game)}.npz")
    net.save(weights)
    click.echo(f"weights: {weights} (best held-out error "
               f"{min(b for _, _, b in curve):.4f})")
    if plot_path:
        _plot_curve(curve, pathlib.Path(plot_path), value.game_key(game), len(observations))


def _network_of(path: pathlib.Path, game: Any) -> dict[str, str]:
    """What the results keep of the network self-play judges by: its file's name and digest
    (and the command that made it); a clear error where it is not weights of ``game``."""
    import hashlib

    from ..ai import value

    try:
        net = value.ValueNet.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise SetupError(f"{path}: not a weights file of `lab train-value` ({exc})") from None
    if net.meta.get("game") != value.game_key(game):
        raise SetupError(f"{path} judges {net.meta.get('game')}, not {value.game_key(game)}")
    made = {"file": path.name, "sha256": hashlib.sha256(path.read_bytes()).hexdigest()[:16]}
    if net.meta.get("command"):
        made["command"] = str(net.meta["command"])
    return made


def _plot_curve(curve: list[tuple[int, float, float]], path: pathlib.Path, name: str,
                positions: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..lab.report import save_figure

    fig, ax = plt.subplots(figsize=(6, 3.5))
    epochs = [e for e, _, _ in curve]
    ax.plot(epochs, [a for _, a, _ in curve], label="learned positions")
    ax.plot(epochs, [b for _, _, b in curve], label="held-out games")
    ax.set_xlabel("epoch")
    ax.set_ylabel("mean squared error")
    ax.set_title(f"{name}: {positions:,} positions")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    save_figure(fig, path)
    plt.close(fig)
