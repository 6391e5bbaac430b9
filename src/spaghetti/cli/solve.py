"""``spaghetti solve`` and ``spaghetti solve-level1``: the exact solver from the command line."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from contextlib import nullcontext
from typing import NoReturn

import click
from click.core import ParameterSource
from rich.console import Console

from ..core.options import OPTIONS
from ..errors import SetupError, SpaghettiError
from . import common
from .common import (Seconds, check_table_mb, command_started, data_folder, parse_program,
                     read_record_data)

PLAYER_NAMES = ("seat 0 (first player)", "seat 1 (second player)")
#: The placement orders of the option (the rulebook's first), which the level-1 solver models.
PLACEMENT_ORDERS: tuple[str, ...] = OPTIONS["placement_order"].values


def _given(name: str) -> bool:
    """Whether the option ``name`` was given on the command line (not left at its default)."""
    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT)


def _seat_name(seat: int) -> str:
    return PLAYER_NAMES[seat] if seat < len(PLAYER_NAMES) else f"seat {seat}"


def _verdict(result, players: int) -> str:
    """The value in words: a winner, a draw, a forced win or not, or an expectation."""
    if players == 2 and result.winner is not None:
        return f"winner under perfect play: {_seat_name(result.winner)}"
    who = _seat_name(result.seat)
    if result.value == 1.0:
        return f"{who} can force a win against all the others"
    if result.value == -1.0:
        return f"{who} cannot force a win: the others together can stop it"
    if result.value == 0.0 and players == 2:
        return "a draw under perfect play"
    return (f"expected result for {who} under perfect play: {result.value:+.4f} "
            f"(+1 a win, -1 a loss, 0 a draw; the coin flips make it an average)")


def _rate(nodes: int, seconds: float) -> str:
    return f"{nodes / seconds:,.0f} a second" if seconds > 0 else "just begun"


def _progress(status, start: float, deadline: float | None):
    """The search's progress for a status line: positions searched, how fast, and the time
    left (or spent, without a limit)."""
    def on_progress(solver) -> None:
        now = time.monotonic()
        clock = (f"{now - start:.0f} s" if deadline is None else
                 f"{max(0.0, deadline - now):.0f} s left")
        status.update(f"solving: {solver.nodes:,} positions searched, "
                      f"{_rate(solver.nodes, now - start)}, {clock}")
    return on_progress


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--level", type=click.IntRange(1, 1), default=None,
              help="Solve from the empty board at this level (the solver covers level 1).")
@click.option("--program", metavar="A,B,C,D,E", default=None,
              help="With --level: the program, card names in order, separated by commas.")
@click.option("--time-limit", type=Seconds(0.1, 10_000_000), default=None, metavar="SECONDS",
              help="Give up after this many seconds from the start of the command, reading "
                   "the record included: the answer is then 'undecided' (exit status 3).")
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True,
              help="Whose value to report (with 3 or more players: can this seat force a win?).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the result as JSON (winner, value, line, nodes, seconds).")
@click.option("--table-mb", type=click.IntRange(min=16), default=1024, show_default=True,
              help="The level-1 solver's table, in megabytes (whole programs want gigabytes); "
                   "no more than the memory available.")
def solve(file: str | None, level: int | None, program: str | None, time_limit: float | None,
          seat: int, as_json: bool, table_mb: int) -> None:
    """Solve a position exactly: its value under perfect play, and a principal line.

    FILE is a game record of any game of the family: the position at its end is solved (any
    decision: placement, a turn, or the middle of a command). Or give --level 1 --program
    A,B,C,D,E to solve from the empty board. Two-player level-1 Spaghetti Code has a solver of
    its own, built for whole games; every other game, option and player count goes to the
    general solver (draws count 0, coin flips are averaged), which proves positions near the end.

    \b
    Examples:
      spaghetti solve game.json --time-limit 60
      spaghetti solve --level 1 --program Bug,MoveFlag,AddFlag,RemoveFlag,ForkBomb
    """
    deadline = None if time_limit is None else command_started() + time_limit
    from .. import records
    from ..solver.api import Timeout, solve as solve_state

    if (file is None) == (level is None):
        raise SetupError("give a record FILE, or --level 1 --program A,B,C,D,E (not both)")
    if _given("table_mb"):
        check_table_mb(table_mb)
    if file is not None:
        if program is not None:
            raise SetupError("--program goes with --level, not with a FILE")
        state = records.replay(read_record_data(file))
    else:
        assert level is not None  # one of FILE and --level, checked above
        names = parse_program(program)
        if names is None:
            raise SetupError("--level needs --program A,B,C,D,E (card names in order)")
        from ..core.game import Game
        state = Game(level=level, players=2).new_state(program=names)
    console = Console(highlight=False, stderr=True)
    start = time.monotonic()
    try:
        left = None if deadline is None else deadline - start
        if left is not None and left <= 0:  # reading the record took the whole limit
            raise Timeout()
        # the progress on a terminal only: a pipe or a log gets the result alone
        with console.status("solving...") if console.is_terminal else nullcontext() as status:
            result = solve_state(state, time_limit=left, seat=seat, table_mb=table_mb,
                                 on_progress=None if status is None else
                                 _progress(status, start, deadline))
    except Timeout as exc:
        assert time_limit is not None  # no other limit is set here
        _undecided(exc, time_limit, seat, as_json)
        _finish(3)
    except MemoryError:
        raise SpaghettiError(f"not enough memory to solve this position with --table-mb "
                             f"{table_mb}; give a smaller --table-mb") from None
    if as_json:
        click.echo(json.dumps({"status": "solved", "winner": result.winner, "seat": result.seat,
                               "value": result.value, "solver": result.solver,
                               "line": result.line, "nodes": result.nodes,
                               "seconds": round(result.seconds, 3)}))
        _finish(0)
    click.echo(_verdict(result, state.game.players))
    click.echo(f"searched {result.nodes:,} positions in {result.seconds:.2f} s")
    if result.line:
        click.echo("principal line: " + ", ".join(result.line))
    else:
        click.echo("principal line: " + ("(game over)" if state.is_over else
                                          "(a coin flip comes first)"))
    _finish(0)


def _finish(status: int) -> NoReturn:
    """End ``spaghetti solve`` with ``status``. As the program, the process ends at once:
    freeing a search's tables object by object takes up to a tenth of the search's time,
    past the time limit, and the memory goes back with the process anyway. Called within
    another process (a test), the command returns to it."""
    if common.process_start is None:
        raise SystemExit(status)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _undecided(exc, time_limit: float, seat: int, as_json: bool) -> None:
    """What a search stopped by the time limit says: no value, and how far it got."""
    if as_json:
        click.echo(json.dumps({"status": "undecided", "winner": None, "seat": seat,
                               "value": None, "line": [], "nodes": exc.nodes,
                               "seconds": round(exc.seconds, 3), "time_limit": time_limit}))
        return
    click.echo(f"undecided: no result within the time limit of {time_limit:g} s")
    click.echo(f"searched {exc.nodes:,} positions in {exc.seconds:.2f} s "
               f"({_rate(exc.nodes, exc.seconds)}) before the limit; a longer --time-limit "
               "may decide it")


@click.command("solve-level1")
@click.option("--output", type=click.Path(dir_okay=False), default=None,
              help="The results file (its folder must exist); programs already in it are "
                   "skipped. Default: level1.json in spaghetti's folder of user data "
                   "(~/.local/share/spaghetti on Linux).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes in the local pool, at most the CPUs of this machine "
                   "[default: 2, or 1 on a machine of one CPU]")
@click.option("--time-limit", type=Seconds(0.1, 10_000_000), default=600.0, show_default=True,
              metavar="SECONDS", help="Per program, taking up its saved table (--tables) "
                                      "included; a program that runs out is saved as open.")
@click.option("--limit", type=click.IntRange(min=0), default=None,
              help="Solve at most N programs in this run.")
@click.option("--retry", is_flag=True, help="Try again the programs saved as open.")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run on a Ray cluster at ADDRESS ('local': Ray on this machine).")
@click.option("--table-mb", type=click.IntRange(min=16), default=2048, show_default=True,
              help="The search table of each worker, in megabytes (more: fewer re-searches); "
                   "all the local workers' tables together no more than the memory available.")
@click.option("--program", "only", metavar="A,B,C,D,E", multiple=True,
              help="Only this program (repeat for more): to share the work between runs, which "
                   "may write to the same results file.")
@click.option("--tables", type=click.Path(file_okay=False), default=None, metavar="DIR",
              help="Keep the search table of a program that runs out of time (or is stopped "
                   "with Ctrl-C) in DIR (made if its folder exists), and go on from it next "
                   "time: the work of several runs adds up. Each table is as large as "
                   "--table-mb.")
@click.option("--markdown", "md_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the table and discussion (docs/solved/level1.md) from the results "
                   "to this file (its folder must exist).")
@click.option("--placement-order", "order", type=click.Choice(PLACEMENT_ORDERS),
              default=PLACEMENT_ORDERS[0], show_default=True,
              help="The option placement_order: the rulebook's round robin, or the snake order "
                   "of the designer's 2009 notes (0, 1, 1, 0, ...). A results file holds one.")
def solve_level1(output: str | None, workers: int | None, time_limit: float, limit: int | None,
                 retry: bool, ray_address: str | None, table_mb: int, only: tuple[str, ...],
                 tables: str | None, md_path: str | None, order: str) -> None:
    """Level 1 solved: the winner from the empty board for each of the 120 programs.

    Resumable: each result is saved as soon as it is found, and a run skips the programs
    already in the file. Runs use a local process pool, or a Ray cluster with --ray. On a
    terminal, the programs being solved show their positions searched and time left.

    \b
    Examples:
      spaghetti solve-level1 --limit 4 --time-limit 300
      spaghetti solve-level1 --output level1.json --markdown level1.md --limit 0
      spaghetti solve-level1 --retry --program Bug,ForkBomb,AddFlag,MoveFlag,RemoveFlag
      spaghetti solve-level1 --placement-order snake --output level1-snake.json
    """
    from ..solver import level1

    console = Console(highlight=False)
    try:
        chosen = [level1.parse_program(p) for p in only] if only else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--program") from None
    cpus = _cpus()
    if workers is None:
        workers = min(2, cpus)
    elif workers > cpus:
        raise SetupError(f"--workers {workers}: more than the {cpus} CPU"
                         f"{'s' if cpus > 1 else ''} of this machine; give 1 to {cpus}")
    for option, path in (("--output", output), ("--markdown", md_path), ("--tables", tables)):
        _check_folder(option, path)
    if output is None:  # spaghetti's own folder of user data: made if need be
        folder = data_folder()
        os.makedirs(folder, exist_ok=True)
        output = os.path.join(folder, f"{level1.results_name(order)}.json")
    try:
        data = level1.load(output, order)
    except (ValueError, json.JSONDecodeError) as exc:
        text = str(exc)
        raise SpaghettiError(text if text.startswith(f"{output}: ") else f"{output}: {text}") \
            from None
    except RecursionError:
        raise SpaghettiError(f"{output}: not a level-1 results file (lists and objects nested "
                             "too deeply)") from None
    work = level1.todo(data, retry, limit, chosen)
    if chosen:  # a program asked for by name and not to be solved: say why
        waiting = set(level1.todo(data, retry, None, chosen))
        for program in dict.fromkeys(chosen):
            if program not in waiting:
                name = level1.program_id(program)
                r = data["results"][name]
                if r["status"] == "solved":
                    click.echo(f"{name}: already solved in {output} (seat {r['winner']} wins); "
                               "not solved again")
                else:
                    click.echo(f"{name}: saved as open in {output}; give --retry to try it again")
    if work and _given("table_mb") and ray_address is None:  # a Ray cluster's memory is its own
        check_table_mb(table_mb, min(workers, len(work)))
    if work:
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        with Progress(TextColumn("level 1"), BarColumn(), MofNCompleteColumn(),
                      TextColumn("{task.fields[last]}"), TimeElapsedColumn(),
                      TextColumn("{task.fields[running]}"),
                      console=console, disable=not console.is_terminal) as progress:
            task = progress.add_task("solve", total=len(work), last="", running="")

            def on_progress(running) -> None:
                now = time.monotonic()
                nodes = sum(n for _, _, n in running)
                rate = sum(n / (now - started) for _, started, n in running if now > started)
                left = min(started + time_limit - now for _, started, _ in running)
                progress.update(task, running=f"{len(running)} running: {nodes:,} positions, "
                                              f"{rate:,.0f} a second, {max(0.0, left):.0f} s "
                                              "left")

            def on_result(r) -> None:
                what = {"solved": f"seat {r.get('winner')} wins",
                        "skipped": "done meanwhile by another run"}.get(
                    r["status"], f"open: undecided within the time limit, "
                                 f"{r.get('nodes', 0):,} positions searched")
                progress.update(task, advance=1, last=f"{r['program']}: {what}", running="")
                if not console.is_terminal:
                    click.echo(f"{r['program']}: {what} ({r['seconds']} s)")

            def stop(signum, frame):
                raise KeyboardInterrupt

            # `kill` stops a run the way Ctrl-C does, so that --tables keeps the work
            previous = signal.signal(signal.SIGTERM, stop)
            try:
                data = level1.run(output, workers, time_limit, limit, retry, ray_address,
                                  on_result, table_mb, chosen, tables,
                                  on_progress if console.is_terminal else None, order)
            except RuntimeError as exc:
                raise SpaghettiError(str(exc)) from None
            except MemoryError:
                raise SpaghettiError(f"not enough memory for a table of --table-mb {table_mb} "
                                     "in each worker; give a smaller --table-mb or fewer "
                                     "--workers") from None
            finally:
                signal.signal(signal.SIGTERM, previous)
    s = level1.summary(data)
    click.echo(f"solved {s['solved']} of {s['programs']}: first player wins {s['first']}, "
               f"second player wins {s['second']}, open {s['timeouts']} (results in {output})")
    if md_path:
        from ..lab import level1_check
        # (The check by play is of the rulebook's order.)
        check = level1_check.summary(os.path.join(os.path.dirname(os.path.abspath(output)),
                                                  "level1-check.jsonl")) \
            if order == level1.ROUND_ROBIN else None
        with open(md_path, "w", encoding="utf-8") as f:
            f.write(level1.markdown(data, check))


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_folder(option: str, path: str | None) -> None:
    """Refuse a path given to ``option`` whose folder does not exist: nothing is written into a
    folder made by surprise (a mistyped path)."""
    if path is None:
        return
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SetupError(f"{option} {path}: the folder {folder} does not exist")
