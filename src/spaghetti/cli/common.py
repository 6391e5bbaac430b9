"""What the subcommands share: reading records, rule options, programs and custom cards.

:mod:`spaghetti.cli.main` and the subcommands in their own modules (:mod:`.arena`,
:mod:`.solve`) import from here, so that the subcommands never import ``main``.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

import click

from .. import records
from ..core.cards import CardType
from ..core.options import OPTIONS
from ..custom_cards import loads as load_cards
from ..errors import RecordError, SetupError


def data_folder() -> str:
    """spaghetti's folder of user data (platformdirs' choice where it is installed): where a
    command keeps what the user did not say where to put, never the current folder."""
    try:
        from platformdirs import user_data_dir
    except ImportError:
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
        return os.path.join(base, "spaghetti")
    return user_data_dir("spaghetti", appauthor=False)


def counted(n: int, noun: str) -> str:
    """``n`` and an English noun, plural unless one: "1 action", "3 actions"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


class Seconds(click.FloatRange):
    """A number of seconds in a range, never ``nan`` (which compares false with both ends, so
    that a FloatRange lets it through)."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def read_record_data(path: str) -> Any:
    """The decoded JSON of a record file (``-``: standard input), checked not to nest too
    deeply (:func:`spaghetti.records.decode`); its fields are checked when it is replayed."""
    if path == "-":
        with click.open_file("-", "rb") as f:
            raw = f.read()
        name = "<stdin>"
    else:
        with open(path, "rb") as f:
            raw = f.read()
        name = path
    try:
        return records.decode(raw)
    except RecordError as exc:
        raise RecordError(f"{name}: {exc}") from None


def require_terminal_streams(command: str) -> None:
    """Refuse an interactive ``command`` before it starts when standard input or output is
    closed (``<&-``, ``>&-``): Python then has None for it, and the first prompt would fail."""
    if sys.stdin is None:
        raise SetupError(f"standard input is closed: 'spaghetti {command}' reads your answers "
                         "from it (give a terminal, a file or a pipe)")
    if sys.stdout is None:
        raise SetupError(f"standard output is closed: 'spaghetti {command}' shows the table on it")


def _check_folder(folder: str, what: str) -> None:
    """Refuse ``what`` (a flag and its value) unless ``folder`` exists and a file can be made
    in it: tried, since permissions alone do not tell (root, a read-only mount)."""
    if not os.path.exists(folder):
        raise SetupError(f"{what}: the folder {folder} does not exist")
    if not os.path.isdir(folder):
        raise SetupError(f"{what}: {folder} is not a folder")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise SetupError(f"{what}: cannot write in {folder} ({exc.strerror or exc})") from None


def check_save_file(path: str) -> None:
    """Refuse ``--save FILE`` before the game when the record could not be written there."""
    what = f"--save {path}"
    _check_folder(os.path.dirname(path) or ".", what)
    if os.path.exists(path) and not os.access(path, os.W_OK):
        raise SetupError(f"{what}: the file is read-only")


def prepare_autosave_folder(folder: str) -> bool:
    """Make sure ``--autosave DIR`` can take the records before the game: DIR writable, or
    created now when its parent exists (never a chain of folders). Whether it was created."""
    if os.path.isdir(folder):
        _check_folder(folder, f"--autosave {folder}")
        return False
    _check_folder(os.path.dirname(os.path.normpath(folder)) or ".", f"--autosave {folder}")
    try:
        os.mkdir(folder)
    except OSError as exc:
        raise SetupError(f"--autosave {folder}: cannot create it ({exc.strerror or exc})") \
            from None
    return True


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """The ``--option name=value`` pairs as a dict (the values are checked by the game)."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            known = ", ".join(f"{o.name}={'|'.join(o.words)}" for o in OPTIONS.values())
            raise SetupError(f"--option expects name=value, not {pair!r} (options: {known})")
        options[name.strip()] = value.strip()
    return options


def parse_program(text: str | None) -> list[str] | None:
    """The card names of ``--program A,B,...`` (None without it)."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise SetupError("--program needs card names separated by commas, e.g. "
                         "AddFlag,MoveFlag,RemoveFlag,Bug,ForkBomb")
    return names


def read_cards(path: str | None) -> tuple[CardType, ...]:
    """The custom cards of a TOML file (none without ``--cards``)."""
    if path is None:
        return ()
    with open(path, "rb") as f:
        raw = f.read()
    return load_cards(raw, path)


def available_mb() -> int | None:
    """The megabytes of memory a new table can have now: the kernel's estimate of available
    memory (``MemAvailable`` in /proc/meminfo), else the free physical pages; lower when a
    control group limits this process. None where none of these can be read."""
    found = None
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found = int(line.split()[1]) // 1024  # kB
                    break
    except (OSError, ValueError, IndexError):
        pass
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20
        except (AttributeError, ValueError, OSError):
            pass
    try:  # a container's limit (cgroup v2): what it may still take
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as f:
            used = int(f.read().strip())
        if limit != "max":
            room = max(0, int(limit) - used) // 2**20
            found = room if found is None else min(found, room)
    except (OSError, ValueError):
        pass
    return found


def check_table_mb(table_mb: int, tables: int = 1) -> None:
    """Refuse ``--table-mb`` (``tables`` of that size at once) larger than the memory this
    machine has available now, before anything is allocated."""
    available = available_mb()
    if available is None or table_mb * tables <= available:
        return
    if tables == 1:
        raise SetupError(f"--table-mb {table_mb}: more than the {available:,} MB of memory this "
                         "machine has available; give a smaller --table-mb")
    raise SetupError(f"--table-mb {table_mb} for each of {tables} workers ({table_mb * tables:,} "
                     f"MB): more than the {available:,} MB of memory this machine has available; "
                     "give a smaller --table-mb or fewer --workers")


#: When the process began, as a ``time.monotonic()`` value, where it runs as the ``spaghetti``
#: program (:func:`spaghetti.cli.main.main` notes it); None where the commands are called in
#: a process that does other things (a test), and each command's own start counts.
process_start: float | None = None


def process_started() -> float:
    """The ``time.monotonic()`` value when this process started: now, less its age (on Linux,
    its start in /proc/self/stat against the boot clock); now where that cannot be read."""
    now = time.monotonic()
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # the name in parentheses may hold spaces
        age = (time.clock_gettime(time.CLOCK_BOOTTIME)
               - int(fields[19]) / os.sysconf("SC_CLK_TCK"))  # field 22: the start, in ticks
    except (OSError, ValueError, IndexError, AttributeError):
        return now
    return now - max(0.0, age)


def command_started() -> float:
    """When the command began (``time.monotonic()``), from which its time limits count: the
    start of the process, so that the interpreter's start and the imports count too."""
    return time.monotonic() if process_start is None else process_start


def _span(seconds: float) -> str:
    """A time span as a person reads it: 45 s, 12 min, 3 h 05 min."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60:02d} min"


def progress_lines(label: str, terminal: bool,
                   done_before: int = 0) -> Callable[[int, int | None], None]:
    """For a long run whose bar a terminal shows: where the output is no terminal (a log file,
    ``nohup``), where the bar is not drawn, a line on stderr at each tenth of the run, with the
    time taken and the time left (``games: 400 of 4,000 (10 %), 3 min so far, about 27 min
    left``). ``done_before``: what a resumed run had done before this sitting (the time left
    is reckoned from this sitting's pace alone). Returns ``tell(done, total)``; on a terminal
    it says nothing."""
    started = time.monotonic()
    told = [0]

    def tell(done: int, total: int | None) -> None:
        if terminal or not total or done <= 0:
            return
        tenth = min(10, done * 10 // total)
        if tenth <= told[0]:
            return
        told[0] = tenth
        if done <= done_before:  # nothing played yet in this sitting: no pace to go by
            click.echo(f"{label}: {done:,} of {total:,} ({done * 100 // total} %) played before; "
                       "going on", err=True)
            return
        taken = time.monotonic() - started
        left = taken * (total - done) / (done - done_before)
        click.echo(f"{label}: {done:,} of {total:,} ({done * 100 // total} %), {_span(taken)} "
                   f"so far, about {_span(left)} left", err=True)

    return tell
