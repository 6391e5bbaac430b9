"""``spaghetti solve`` and ``spaghetti solve-level1``: the exact solver from the command line."""

from __future__ import annotations

import json
import signal
import time

import click
from click.core import ParameterSource
from rich.console import Console

from ..errors import SetupError, SpaghettiError
from .common import check_table_mb, parse_program, read_record_data

PLAYER_NAMES = ("seat 0 (first player)", "seat 1 (second player)")


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


def _progress(console: Console, status, start: float):
    def on_progress(solver) -> None:
        status.update(f"solving... {solver.nodes:,} positions searched, table "
                      f"{solver.table_size:,}, {time.monotonic() - start:.0f} s")
    return on_progress


@click.command()
@click.argument("file", required=False, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--level", type=click.IntRange(1, 1), default=None,
              help="Solve from the empty board at this level (the solver covers level 1).")
@click.option("--program", metavar="A,B,C,D,E", default=None,
              help="With --level: the program, card names in order, separated by commas.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=None, metavar="SECONDS",
              help="Give up after this many seconds (exit status 3).")
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
        with console.status("solving...", spinner="dots") as status:
            result = solve_state(state, time_limit=time_limit,
                                 on_progress=_progress(console, status, start), seat=seat,
                                 table_mb=table_mb)
    except Timeout:
        click.echo(f"spaghetti: no result within the time limit of {time_limit:g} s", err=True)
        raise SystemExit(3)
    except MemoryError:
        raise SpaghettiError(f"not enough memory to solve this position with --table-mb "
                             f"{table_mb}; give a smaller --table-mb") from None
    if as_json:
        click.echo(json.dumps({"winner": result.winner, "seat": result.seat,
                               "value": result.value, "solver": result.solver,
                               "line": result.line, "nodes": result.nodes,
                               "seconds": round(result.seconds, 3)}))
        return
    click.echo(_verdict(result, state.game.players))
    click.echo(f"searched {result.nodes:,} positions in {result.seconds:.2f} s")
    if result.line:
        click.echo("principal line: " + ", ".join(result.line))
    else:
        click.echo("principal line: " + ("(game over)" if state.is_over else
                                          "(a coin flip comes first)"))


@click.command("solve-level1")
@click.option("--output", type=click.Path(dir_okay=False), default="docs/solved/level1.json",
              show_default=True, help="The results file; programs already in it are skipped.")
@click.option("--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Processes in the local pool.")
@click.option("--time-limit", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
              metavar="SECONDS", help="Per program; a program that runs out is saved as open.")
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
                   "with Ctrl-C) in DIR, and go on from it next time: the work of several "
                   "runs adds up. Each table is as large as --table-mb.")
@click.option("--markdown", "md_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the table and discussion (docs/solved/level1.md) from the results.")
def solve_level1(output: str, workers: int, time_limit: float, limit: int | None, retry: bool,
                 ray_address: str | None, table_mb: int, only: tuple[str, ...],
                 tables: str | None, md_path: str | None) -> None:
    """Level 1 solved: the winner from the empty board for each of the 120 programs.

    Resumable: each result is saved as soon as it is found, and a run skips the programs
    already in the file. Runs use a local process pool, or a Ray cluster with --ray.

    \b
    Examples:
      spaghetti solve-level1 --limit 4 --time-limit 300
      spaghetti solve-level1 --markdown docs/solved/level1.md --limit 0
      spaghetti solve-level1 --retry --program Bug,ForkBomb,AddFlag,MoveFlag,RemoveFlag
    """
    from ..solver import level1

    console = Console(highlight=False)
    try:
        chosen = [level1.parse_program(p) for p in only] if only else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--program") from None
    try:
        data = level1.load(output)
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
                      console=console, disable=not console.is_terminal) as progress:
            task = progress.add_task("solve", total=len(work), last="")

            def on_result(r) -> None:
                what = {"solved": f"seat {r.get('winner')} wins",
                        "skipped": "done meanwhile by another run"}.get(r["status"], "open")
                progress.update(task, advance=1, last=f"{r['program']}: {what}")
                if not console.is_terminal:
                    click.echo(f"{r['program']}: {what} ({r['seconds']} s)")

            def stop(signum, frame):
                raise KeyboardInterrupt

            # `kill` stops a run the way Ctrl-C does, so that --tables keeps the work
            previous = signal.signal(signal.SIGTERM, stop)
            try:
                data = level1.run(output, workers, time_limit, limit, retry, ray_address,
                                  on_result, table_mb, chosen, tables)
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
               f"second player wins {s['second']}, open {s['timeouts']}")
    if md_path:
        import os
        os.makedirs(os.path.dirname(os.path.abspath(md_path)), exist_ok=True)
        from ..lab import level1_check
        check = level1_check.summary(os.path.join(os.path.dirname(os.path.abspath(output)),
                                                  "level1-check.jsonl"))
        with open(md_path, "w", encoding="utf-8") as f:
            f.write(level1.markdown(data, check))
