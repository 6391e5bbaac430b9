"""Level 1 solved: the winner under perfect play from the empty board for each of the 120
orders of the five level-1 cards (2 players, the rulebook's options; or with the snake placement
order of the designer's 2009 notes, in a results file of its own).

The job is resumable: results go to a JSON file one program at a time (written atomically), and a
run skips the programs already there. Several runs may share one file (say, one per machine, each
given its own programs): each result is merged into the file as it is then, under a lock, and a
proof is never replaced by a later run's timeout. Programs are solved in a local process pool by
default, or on a Ray cluster (``ray_address``) for users with more machines.
"""

from __future__ import annotations

import fcntl
import itertools
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from ..core.options import OPTIONS
from ..errors import too_many_digits

CARDS = ("AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb")
FORMAT = "spaghetti-level1-solved/1"
TABLE_MB = 2048  #: the search table of each worker, in megabytes
#: The rulebook's placement order, and the one a results file holds where it names none.
ROUND_ROBIN: str = OPTIONS["placement_order"].default


def results_name(order: str = ROUND_ROBIN) -> str:
    """The name (without its suffix) of a placement order's results: ``level1`` for the
    rulebook's, ``level1-snake`` and so on for another (the results file, its page, the short
    file shipped with the package)."""
    return "level1" if order == ROUND_ROBIN else f"level1-{order.replace('_', '-')}"


def placement_seats(order: str = ROUND_ROBIN) -> tuple[int, ...]:
    """The seat of each of the eight placements under the option ``placement_order`` (the
    game's own rule: ``Game.placement_order``); SetupError for an order the game has not."""
    from ..core.game import Game

    return Game(level=1, players=2, options={"placement_order": order}).placement_order


def programs() -> list[tuple[str, ...]]:
    """The 120 orders of the five level-1 cards, in lexicographic order of the rulebook order."""
    return list(itertools.permutations(CARDS))


def program_id(program) -> str:
    return ",".join(program)


def table_path(tables: str, program, table_mb: int, order: str = ROUND_ROBIN) -> str:
    """Where a program's search table of ``table_mb`` is kept in the folder ``tables``: one name
    for every tool that saves or takes up a table (``solve-level1``, the post-placement runs);
    another placement order's tables are named apart."""
    apart = "" if order == ROUND_ROBIN else f".{order}"
    return os.path.join(tables, f"{program_id(program)}{apart}.{table_mb}mb.table")


def take_up_table(solver, tables: str | None, program, table_mb: int,
                  order: str = ROUND_ROBIN) -> str | None:
    """Where ``solver`` keeps its table in the folder ``tables`` (None: no folder, or a backend
    that keeps none), having loaded the table an earlier run left there, if any."""
    if tables is None or solver.backend != "c":
        return None
    path = table_path(tables, program, table_mb, order)
    if os.path.exists(path):
        solver.load_table(path)
    return path


def keep_table(solver, path: str) -> None:
    """Save ``solver``'s table at ``path`` (of :func:`take_up_table`) for the next run."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    solver.save_table(path)


#: Where :func:`solve_one` reports the positions it has searched so far, now and then (None:
#: nowhere); :func:`run` sets it.
report: Callable[[int], object] | None = None


def solve_one(program, time_limit: float | None = None, table_mb: int = TABLE_MB,
              tables: str | None = None, order: str = ROUND_ROBIN) -> dict:
    """Solve one program from the empty board: a JSON-ready result (status ``solved`` with the
    winner and principal line, or ``timeout`` with the positions searched).

    ``order``: the option ``placement_order`` (``round_robin``, the rulebook's, or ``snake``).

    ``time_limit``: seconds from the call, taking up a saved table included.
    ``tables``: a folder where an attempt that runs out of time (or is interrupted) leaves its
    search table, and where the next attempt at the program with the same ``table_mb`` takes
    it up, so that the work of several sittings adds up. A table is as large as ``table_mb``;
    it is deleted once the program is proven. (Saving it comes after the time limit.)"""
    from .fast import Model
    from .search import Solver, Timeout

    start = time.monotonic()
    model = Model(program, placement_seats(order))
    hook = report
    solver = Solver(model, table_mb=table_mb,
                    on_progress=None if hook is None else lambda s: hook(s.nodes))
    if time_limit is not None:
        solver.deadline = start + time_limit
    saved = take_up_table(solver, tables, program, table_mb, order)
    try:
        winner, line = solver.principal_line(model.start())
    except (Timeout, KeyboardInterrupt) as exc:
        if saved is not None and solver.nodes:  # (no new work, no need to write it again)
            keep_table(solver, saved)
        if isinstance(exc, KeyboardInterrupt):
            raise
        return {"program": program_id(program), "status": "timeout",
                "seconds": round(time.monotonic() - start, 1), "time_limit": time_limit,
                "nodes": solver.nodes}
    if saved is not None and os.path.exists(saved):
        os.remove(saved)
    return {"program": program_id(program), "status": "solved", "winner": winner,
            "first_player_wins": winner == 0, "seconds": round(time.monotonic() - start, 1),
            "nodes": solver.nodes, "line": line}


def load(path: str, order: str | None = None) -> dict:
    """The results file as {"format", "results": {program: result}} (empty if absent), and
    ``placement_order`` where it is not the rulebook's. ``order``: the placement order a run
    solves, which a new file takes and a file of another order refuses (ValueError)."""
    if not os.path.exists(path):
        data: dict = {"format": FORMAT, "players": 2, "level": 1}
        if order not in (None, ROUND_ROBIN):
            data["placement_order"] = order
        return {**data, "results": {}}
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise
        except ValueError:  # the decoder's other error: a number longer than Python converts
            raise ValueError(f"{path}: {too_many_digits()}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{path}: not a level-1 results file (format {found!r})")
    held = order_of(data)
    if order is not None and held != order:
        raise ValueError(f"{path}: its programs were solved with the placement order {held}, "
                         f"not {order}: give --placement-order {held}, or another --output")
    return data


def order_of(data: dict) -> str:
    """The placement order of a results file's solves."""
    return str(data.get("placement_order", ROUND_ROBIN))


def save(path: str, data: dict) -> None:
    """Write the results atomically (a crash never leaves half a file)."""
    data["results"] = dict(sorted(data["results"].items()))
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, path)


def parse_program(text: str) -> tuple[str, ...]:
    """A program named as in the results file ("AddFlag,Bug,..."); ValueError if it is not an
    order of the five level-1 cards."""
    program = tuple(name.strip() for name in text.split(","))
    if sorted(program) != sorted(CARDS):
        raise ValueError(f"{text!r} is not a level-1 program: give the five cards "
                         f"{', '.join(CARDS)} in some order, separated by commas")
    return program


def merge(path: str, result: dict, order: str = ROUND_ROBIN) -> dict:
    """Add one result to the file as it is now (other runs may have added theirs since this run
    read it), under a lock; a proof already there is kept over a timeout. Returns the data."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        data = load(path, order)
        old = data["results"].get(result["program"])
        if old is not None and _attempt(old) == _attempt(result):
            return data  # this very attempt is already there
        if old is not None:  # the time of every attempt counts towards the run's cost
            result = dict(result, spent=round(spent(old) + result["seconds"], 1))
        if old is None or old["status"] != "solved" or result["status"] == "solved":
            data["results"][result["program"]] = result
        else:
            old["spent"] = result["spent"]
        save(path, data)
    return data


def _attempt(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "spent"}


def spent(result: dict) -> float:
    """The seconds of every attempt at a program so far (``seconds`` is the last one's)."""
    return result.get("spent", result["seconds"])


def todo(data: dict, retry_timeouts: bool = False, limit: int | None = None,
         only=None) -> list:
    """The programs still to solve: not in the file, or (``retry_timeouts``) timed out; with
    ``only``, just those of these programs."""
    out = []
    chosen = None if only is None else {tuple(p) for p in only}
    for program in programs():
        if chosen is not None and program not in chosen:
            continue
        r = data["results"].get(program_id(program))
        if r is None or (retry_timeouts and r["status"] != "solved"):
            out.append(program)
    return out[:limit] if limit is not None else out


def run(path: str, workers: int = 2, time_limit: float | None = None, limit: int | None = None,
        retry_timeouts: bool = False, ray_address: str | None = None, on_result=None,
        table_mb: int = TABLE_MB, only=None, tables: str | None = None,
        on_progress=None, order: str = ROUND_ROBIN) -> dict:
    """Solve the programs not yet in ``path`` (with ``only``: of these programs), saving each
    result as it arrives. A local run looks at the file again before it starts each program
    and skips one that another run sharing the file has done since (``on_result`` gets it with
    status ``skipped``). ``on_progress(running)``, now and then in a local run: for each
    program being solved, ``(program, started, nodes)``: when it began (``time.monotonic()``)
    and the positions searched so far. ``order``: the placement order solved, which the file
    must hold (:func:`load`)."""
    data = load(path, order)
    work = todo(data, retry_timeouts, limit, only)

    def record(result):
        nonlocal data
        data = merge(path, result, order)
        if on_result is not None:
            on_result(result)

    def still_to_do(program) -> bool:
        if program in todo(load(path), retry_timeouts, None, [program]):
            return True
        if on_result is not None:
            on_result({"program": program_id(program), "status": "skipped", "seconds": 0.0})
        return False

    if ray_address is not None:
        _run_ray(work, time_limit, ray_address, record, table_mb, tables, order)
    elif workers <= 1:
        for program in work:
            if still_to_do(program):
                with _reporting(None if on_progress is None else
                                _report_one(on_progress, program, time.monotonic())):
                    result = solve_one(program, time_limit, table_mb, tables, order)
                record(result)
    else:
        from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

        queue = iter(enumerate(work))
        # the positions searched by each program, written by the workers
        counts = multiprocessing.Array("q", len(work), lock=False)
        with ProcessPoolExecutor(max_workers=workers, initializer=_report_to,
                                 initargs=(counts,)) as pool:
            running: dict[Future[dict], tuple[int, float]] = {}  # (index in work, started)
            try:
                while True:
                    while len(running) < workers:  # a program a worker: the next waits
                        i, program = next(((i, p) for i, p in queue if still_to_do(p)),
                                          (0, None))
                        if program is None:
                            break
                        future = pool.submit(_solve_counted, i, program, time_limit,
                                             table_mb, tables, order)
                        running[future] = i, time.monotonic()
                    if not running:
                        break
                    done, _ = wait(running, timeout=0.5, return_when=FIRST_COMPLETED)
                    for future in done:
                        del running[future]
                        record(future.result())
                    if on_progress is not None and running:
                        on_progress([(work[i], started, counts[i])
                                     for i, started in running.values()])
            except KeyboardInterrupt:  # stop the workers too (they keep their tables if the
                for child in multiprocessing.active_children():  # CLI's SIGTERM handler runs)
                    child.terminate()
                raise
    return data


@contextmanager
def _reporting(hook: Callable[[int], object] | None) -> Iterator[None]:
    """:func:`solve_one` reports to ``hook`` while in the block."""
    global report
    report = hook
    try:
        yield
    finally:
        report = None


def _report_one(on_progress, program, started: float) -> Callable[[int], object]:
    return lambda nodes: on_progress([(program, started, nodes)])


_counts = None  # in a pool's worker: the run's positions searched by each program


def _report_to(counts) -> None:
    global _counts
    _counts = counts


def _solve_counted(index: int, program, *args) -> dict:
    """:func:`solve_one` in a pool's worker, reporting its positions searched at ``index``."""
    assert _counts is not None  # (set when the worker started)
    with _reporting(partial(_counts.__setitem__, index)):
        return solve_one(program, *args)


def _run_ray(work, time_limit, address, record, table_mb, tables, order) -> None:
    """The same job on a Ray cluster (``address`` "local" starts Ray on this machine)."""
    from ..ray_cluster import connect

    ray = connect(address)
    remote = ray.remote(solve_one)
    pending = [remote.remote(p, time_limit, table_mb, tables, order) for p in work]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        record(ray.get(done[0]))


def summary(data: dict) -> dict:
    """Counts over the results: solved, first-player wins, second-player wins, timeouts."""
    res = list(data["results"].values())
    solved = [r for r in res if r["status"] == "solved"]
    first = sum(1 for r in solved if r["winner"] == 0)
    seconds = sorted(r["seconds"] for r in solved)
    return {"programs": len(programs()), "solved": len(solved), "first": first,
            "second": len(solved) - first, "timeouts": len(res) - len(solved),
            "seconds": round(sum(spent(r) for r in res), 1),
            "median": _median(seconds),
            "nodes": sum(r.get("nodes", 0) for r in solved)}


def markdown(data: dict, check: dict | None = None) -> str:
    """docs/solved/level1.md, generated from the results (and ``check``: the counts of the
    second check by play, :func:`spaghetti.lab.level1_check.summary`, if it has run)."""
    s = summary(data)
    order = order_of(data)
    snake = order != ROUND_ROBIN
    name = results_name(order)
    what = "Level 1 with the snake placement order" if snake else "Level 1"
    title = (f"{what} solved" if s["solved"] == s["programs"] else
             f"{what}: {s['solved']} of {s['programs']} programs solved")
    rules = ("the snake placement order of the designer's 2009 notes: seats "
             + ", ".join(map(str, placement_seats(order)))
             + "; otherwise the rulebook's options, automatic stalemate C9" if snake else
             "rulebook options: round-robin placement, automatic stalemate C9")
    given = f"--placement-order {order} " if snake else ""
    lines = [
        f"# {title}",
        "",
        "The winner under perfect play of Spaghetti Code level 1 with two players, from the "
        f"empty board, for each of the 120 orders of the five level-1 cards ({rules}). Seat 0 "
        f"places first. Generated by `spaghetti solve-level1 {given}--output "
        f"docs/solved/{name}.json --markdown docs/solved/{name}.md --limit 0` from "
        f"[{name}.json]({name}.json), which also holds a principal line for each program."
        + (" [level1.md](level1.md) is the same with the rulebook's round robin." if snake
           else ""),
        "",
        f"**Solved: {s['solved']} of {s['programs']} programs.** First player (seat 0) wins "
        f"{s['first']}, second player wins {s['second']}"
        + (f"; {s['timeouts']} attempted without a result within the time limit." if s['timeouts']
           else "."),
        "",
        "| # | program (card 0 first) | winner | seconds | principal line (first 12 options) |",
        "|---|---|---|---|---|",
    ]
    for i, program in enumerate(programs(), 1):
        r = data["results"].get(program_id(program))
        if r is None:
            lines.append(f"| {i} | {', '.join(program)} | not yet solved | | |")
        elif r["status"] != "solved":
            lines.append(f"| {i} | {', '.join(program)} | open (no result in "
                         f"{spent(r)} s of attempts) | | |")
        else:
            who = "first (seat 0)" if r["winner"] == 0 else "second (seat 1)"
            line = ", ".join(r["line"][:12]) + (" ..." if len(r["line"]) > 12 else "")
            lines.append(f"| {i} | {', '.join(program)} | {who} | {r['seconds']} | {line} |")
    seconds = sorted(p for p, r in data["results"].items()
                     if r["status"] == "solved" and r["winner"] == 1)
    exceptions = (": " + "; ".join(p.replace(",", ", ") for p in seconds)) if seconds else ""
    so_far = "" if s["solved"] == s["programs"] else " so far"
    claim = (SNAKE_CLAIM if snake else RULEBOOK_CLAIM).format(**s, exceptions=exceptions,
                                                                so_far=so_far)
    lines += ["", "## Discussion", "",
              DISCUSSION.format(**s, claim=claim, open_note="" if snake else OPEN_NOTE), "",
              # (With the snake order the second player's programs are too many to list here.)
              "## What it means for the rules", "", rules_meaning(s, "" if snake else exceptions),
              ""]
    if check and check["games"]:
        lines += ["## A second check, by play", "", second_check(check, s["solved"]), ""]
    rows = by_position(data, "MoveFlag")
    if any(r[2] for r in rows):
        lines += ["Proof times by where MoveFlag is in the program (the card that lets a player "
                  "move any flag, and so makes long lines of reversible turns; card 0 is "
                  "visited first):", "",
                  "| MoveFlag is card | programs solved | median seconds | slowest seconds |",
                  "|---|---|---|---|"]
        lines += [f"| {pos} | {solved} of {total} | {median} | {slowest} |"
                  for pos, total, solved, median, slowest in rows]
        lines.append("")
    firsts = first_placements(data)
    if firsts:
        lines += ["The winner's first flag in each proof (a placement proven to win; others may "
                  "win too):", "", "| card | programs |", "|---|---|"]
        lines += [f"| {card} | {count} |" for card, count in firsts]
        lines.append("")
    return "\n".join(lines)


def second_check(c: dict, solved: int) -> str:
    """The paragraph on the second check: the proven winners' games against many opponents."""
    kinds = ", ".join(f"{n} against {KIND_WORDS.get(k, k)}"
                      for k, n in sorted(c["by_kind"].items()))
    held = ("The proven winner won every one." if not c["failed"] else
            f"**{c['failed']} were not won by the proven winner**: "
            + "; ".join(f"{g['program']} against {g['opponent']}" for g in c["failures"]))
    left, partly = solved - c["complete"], c["programs"] - c["complete"]
    return SECOND_CHECK.format(**c, kinds=kinds, held=held,
                               left=(f" {left} proven programs are still to be checked this way"
                                     + (f", {partly} of them part of the way" if partly else "")
                                     + " (the longest proofs: the winner's first decision "
                                     "repeats the proof from the empty board)."
                                     if left > 0 else ""))


KIND_WORDS = {"first": "each first placement of the opponent (then random play)",
              "random": "random play", "mcts": "MCTS (100 and 1,000 iterations)",
              "easy": "the easy player", "normal": "the normal search"}

SECOND_CHECK = """\
Each proof was checked again by another route: the proven winner's strategy (the solver asked
again at each of its decisions, from the position the game has reached) played whole games from
the empty board, through the game's engine rather than the solver's model of the rules, against
many opponents. {games:,} games over {programs} programs: {kinds}. {held}{left} Produced by
`python benchmarks/level1_check.py` (results in [level1-check.jsonl](level1-check.jsonl), one
game a line)."""


def rules_meaning(s: dict, exceptions: str) -> str:
    """The first player's advantage under perfect play, and what the fair first player rule
    gives, from the counts so far (the open programs bound the figures)."""
    total, first, unknown = s["programs"], s["first"], s["programs"] - s["solved"]
    lo, hi = first / total, (first + unknown) / total
    share = f"{lo:.1%}" if not unknown else f"between {lo:.1%} and {hi:.1%}"
    return RULES_MEANING.format(**s, share=share, exceptions=exceptions,
                                unknown=(f" (the {unknown} open programs included: whoever "
                                         "wins them, someone does)" if unknown else ""))


def by_position(data: dict, card: str) -> list[tuple[int, int, int, float, float]]:
    """For each position of ``card`` in the program: (position, programs, solved, median and
    largest seconds of the last attempts that proved them)."""
    out = []
    for pos in range(len(CARDS)):
        mine = [data["results"].get(program_id(p)) for p in programs() if p[pos] == card]
        times = sorted(r["seconds"] for r in mine if r is not None and r["status"] == "solved")
        out.append((pos, len(mine), len(times), _median(times), times[-1] if times else 0.0))
    return out


def _median(ordered: list[float]) -> float:
    """The middle of sorted seconds (the upper one of an even count); 0.0 for none."""
    return ordered[len(ordered) // 2] if ordered else 0.0


def first_placements(data: dict) -> list[tuple[str, int]]:
    """The card of the winner's first placement in each solved program's principal line, with
    how many programs it is, most first."""
    counts: dict[str, int] = {}
    for program, r in data["results"].items():
        if r["status"] != "solved" or len(r["line"]) <= r["winner"]:
            continue
        card = program.split(",")[int(r["line"][r["winner"]].split()[1])]
        counts[card] = counts.get(card, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


RULES_MEANING = """\
**The first player's advantage.** A level-1 game is dealt at random, every program equally
likely, so between perfect players the seat that places first wins {share} of games.

**The fair first player rule** (SPEC 3: A arranges the program, then B chooses to be first or
second). Spaghetti Code has no draw: the game always ends (C9), and a stalemate's tie-break
always names a winner. So under perfect play every program is won by one seat{unknown}, and B,
choosing after seeing the program, takes that seat. At level 1 the rule hands the game to B
whatever A arranges: it removes the first player's advantage by giving the whole of it to the
chooser. Between players who do not know the table, A's best arrangement is one the second
player wins{exceptions}, against a B who takes first by habit."""


RULEBOOK_CLAIM = """\
The rulebook's claim (000: "レベル1では先手が有利", the first player has the advantage at level 1)
is tested program by program: of the {solved} programs solved{so_far}, the first player wins
{first} and the second player {second}{exceptions}."""

SNAKE_CLAIM = """\
The designer's 2009 notes (004) suggest placing in the order A, B, C, C, B, A with three players
or more ("not tried yet"); with two, that order is 0, 1, 1, 0, 0, 1, 1, 0. Level 1 with two
players is where perfect play can judge it, and where the rulebook's round robin lets the first
player win nearly every program ([level1.md](level1.md)). With the snake order, of the {solved}
programs solved{so_far}, the first player wins {first} and the second player {second}."""

OPEN_NOTE = """ What is proven of them so far, position by position
after the first placements, is in [level1-open.md](level1-open.md)
(`python benchmarks/post_placement.py`)."""

DISCUSSION = """\
{claim} A program counts only once it is proven:
the solver is exact (see architecture.md, "The exact solver": a proof-number search \
over the whole game,
placement included, whose table is keyed on each position and the history of its epoch, so the
stalemate rule C9 is followed exactly), up to one assumption of its C core, which proved these
programs: it keeps the history of a position as a 64-bit hash of the set of positions in it, and
a table entry as a 64-bit fingerprint, and relies on two different history sets of a position
never sharing a hash (and no two entries met in one lookup sharing a fingerprint; about one
chance in 10^18 a lookup, the standard assumption of hashed game solvers). \
The solved programs took a median of {median} s each and
{nodes:,} positions in all; every attempt so far, open programs and earlier timeouts included,
{seconds} s of one core.
"Open" rows are programs whose proof did not finish within the time limit of the run that
tried them; a later run with a larger limit (`--retry`), or more machines (`--ray`), picks them
up, since the results file is resumable.{open_note}

Each principal line is the winner's proof line against the loser's stiffest resistance that
the search met (the turn whose refutation took the most work), so it is a legal game that the
winner wins, not necessarily the longest one. Replay one with `spaghetti solve --level 1
--program ...` to see it in full."""
