"""The ``spaghetti`` command: play in the terminal, and read, check and write game records.

Every problem with the input (a file that cannot be read, a record that is wrong, an illegal
action, a bad option) is reported as one line, ``spaghetti: error: ...``, with exit status 2.
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections.abc import Callable
from typing import Any, TextIO, cast

import click
from click.core import ParameterSource
from click.exceptions import NoArgsIsHelpError
from rich.console import Console

from .. import records
from ..ai import LEVELS, make_player
from ..core.game import Game
from ..core.notation import whole_number
from ..core.options import OPTIONS
from ..core.variants import VARIANTS
from ..core.view import OBSERVER, REFEREE, view
from ..errors import RecordError, SetupError, SpaghettiError
from ..i18n import LANGS, describe, t
from .arena import arena
from .lab import lab
from .puzzle import puzzle
from ..render import render
from .common import (Seconds, check_save_file, counted, parse_options, parse_program,
                     prepare_autosave_folder, read_cards, read_record_data,
                     require_terminal_streams)
from .solve import solve, solve_level1

EXIT_BAD_INPUT = 2


class _Group(click.Group):
    """A click group that turns the package's errors and click's usage errors (an unknown option,
    a missing argument, a bad choice, in any subcommand) into one line and exit status 2."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # the group's own: `spaghetti --nope`
            _one_line(exc)
            raise

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta[_SUBCOMMAND] = f"{ctx.command_path} {name}"  # whose help a usage error names
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a subcommand's, or no such subcommand
            _one_line(exc, ctx.meta.get(_SUBCOMMAND))
            raise
        except SpaghettiError as exc:
            _fail(str(exc))
        except click.FileError as exc:  # a file of ``click.File`` (``-o``) that cannot be opened
            _fail(f"{exc.ui_filename}: {exc.message}")
        except BrokenPipeError:
            # The reader went away (``spaghetti replay game.json | head``): stop quietly.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(1)
        except OSError as exc:
            if exc.filename is not None and exc.strerror:
                _fail(f"{exc.filename}: {exc.strerror}")
            _fail(str(exc))


_SUBCOMMAND = "spaghetti.subcommand"


def _one_line(exc: click.UsageError, command: str | None = None) -> None:
    """Have ``exc`` shown as one line (``spaghetti: error: ...``, then where the help is)
    instead of click's usage, hint and message on three; the usage stays on ``--help``.
    ``command``: the subcommand being parsed, for the errors click raises without a context.
    No arguments at all still show the help."""
    if isinstance(exc, NoArgsIsHelpError):
        return
    message = exc.format_message().strip().rstrip(".")
    if message[:1].isupper() and message[1:2].islower():  # "No such option": as ours read
        message = message[0].lower() + message[1:]
    path = exc.ctx.command_path if exc.ctx is not None else command or "spaghetti"
    where = f"{path} --help"

    def show(file: Any = None) -> None:
        _say_error(f"{message} (see '{where}')")

    exc.show = show  # type: ignore[method-assign]  # click's main shows it and exits with 2


# A word this long in a message is a value quoted from the input (a number of thousands of
# digits): its start is enough to find it, and the line stays readable.
_LONG_WORD = re.compile(r"\w{100,}")


def _shorten(word: re.Match) -> str:
    return f"{word[0][:40]}…({len(word[0]):,} characters)"


def _say_error(message: str) -> None:
    message = _LONG_WORD.sub(_shorten, " ".join(message.split()))  # always one short line
    click.echo(f"spaghetti: error: {message}", err=True)


def _fail(message: str) -> None:
    _say_error(message)
    sys.exit(EXIT_BAD_INPUT)


_CARDS_HELP = ("Custom cards (Blank cards) from a TOML file; they join the deck. "
               "See docs/custom-cards.md.")


def _console() -> Console:
    return Console(highlight=False, soft_wrap=False)


_OPTION_HELP = ("Rule option as name=value; repeatable; each game takes its own "
                "(docs/rules.md#options). " + "; ".join(
                    f"{o.name}={'|'.join(o.words)} ({o.label}"
                    f"{', ' + '/'.join(map(str, o.players)) + ' players' if o.players else ''})"
                    for o in OPTIONS.values()))


@click.group("spaghetti", cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="spaghetti", prog_name="spaghetti")
def cli() -> None:
    """Spaghetti Code (スパゲッティコード): play in the terminal, and read, check and write
    game records.

    \b
    Examples:
      spaghetti play --vs random                 # you (Red) against the computer
      spaghetti play --level 2 --players 3       # three people at one keyboard
      spaghetti new --seed 7 -o game.json        # a fresh record
      spaghetti replay game.json                 # the moves in words
      spaghetti legal game.json                  # what can be played next
      spaghetti serve --open                     # play in the browser

    A FILE argument may be '-' to read the record from standard input.
    """


# ---------------------------------------------------------------------------- play


def _setup_options(command: Callable) -> Callable:
    """The flags that set a game up (``play``, ``new``): the game, level, players, program."""
    for option in reversed((
            click.option("--game", "variant", type=click.Choice(list(VARIANTS)),
                         default="spaghetti-code", show_default=True,
                         help="The game of the family: " + "; ".join(
                             f"{name}: {v.title} ({v.title_ja})"
                             for name, v in VARIANTS.items()) + "."),
            click.option("--level", type=click.IntRange(1, 3), default=1, show_default=True,
                         help="Level 1 (5 cards), 2 (8 cards) or 3 (10 cards, parameter chips)."),
            click.option("--players", type=click.IntRange(2, 5), default=2, show_default=True,
                         help="Number of players (seats 0 to N-1: Red, Blue, Green, Yellow, "
                              "Purple)."),
            click.option("--program", metavar="A,B,...", default=None,
                         help="The program explicitly, card names in order, separated by "
                              "commas."))):
        command = option(command)
    return command


# What a record carries, so that `play --load` refuses the flags that would set it up otherwise:
# each parameter's flag and what it sets.
_SETUP_FLAGS = {"variant": ("--game", "game"), "level": ("--level", "level"),
                "players": ("--players", "players"), "program": ("--program", "program"),
                "rule_options": ("--option", "options"), "cards_path": ("--cards", "cards")}


def _refuse_setup_with_load(ctx: click.Context) -> None:
    """``play --load`` with a flag that sets up a new game (``--level 3``): refuse, naming
    them, rather than play the record and quietly ignore them."""
    given = [flag for name, flag in _SETUP_FLAGS.items()
             if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)]
    if given:
        flags = ", ".join(flag for flag, _ in given)
        what = [setting for _, setting in given]
        what_text = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " and " + what[-1]
        either = flags if len(given) == 1 else "these flags"
        raise SetupError(f"{flags}: a loaded record carries its own {what_text}; give --load or "
                         f"{either}")


@cli.command()
@_setup_options
@click.option("--seed", type=int, default=None,
              help="Shuffle the program (and seed the computer players) with N; random if absent.")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Language of the screen: en (English) or ja (日本語).")
@click.option("--vs", "opponent", type=click.Choice(["human", *LEVELS]), default="human",
              show_default=True,
              help="'human': everyone at one keyboard; otherwise every seat but --seat is a "
                   "computer: 'random' plays at random, 'easy' looks at its own move only (at "
                   "once) and counts lives and flags, 'normal' sees the replies too "
                   "(under 1 s a move), 'hard' searches deeper and plays the solver's proven "
                   "moves near the end (about 5 s at most; both judge by a network learned "
                   "from self-play where one ships: levels 2 and 3 with 2 players, level 3 "
                   "with 3, and for 'hard' level 3 with 4), 'perfect' gives the "
                   "solver ten "
                   "times as long (at level 1 with two players, whole games: about 5 s more a "
                   "move) and "
                   "plays a lost position for the opponent's hardest proof, else plays as 'hard'. "
                   "The ladder: docs/performance.md.")
@click.option("--seat", type=int, default=0, show_default=True,
              help="Your seat against the computer (0 = Red, who places first).")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE", help=_OPTION_HELP)
@click.option("--save", "save_path", type=click.Path(dir_okay=False), default=None,
              help="Keep the game record in FILE, written after every move.")
@click.option("--load", "load_path", type=click.Path(dir_okay=False),
              default=None,
              help="Continue the game recorded in FILE (its game, level, players, program, "
                   "options and cards: the flags that set those go without --load).")
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml", help=_CARDS_HELP)
@click.option("--move-clock", type=Seconds(1, 86_400), default=None, metavar="SECONDS",
              help="Seconds a person has for each move, 1 to 86400 (the Nightmare notes "
                   "suggest 60); over it, a random option is played for them.")
@click.option("--autosave", "autosave_dir", type=click.Path(file_okay=False), default=None,
              metavar="DIR", help="Keep the record of every finished game in DIR, one file a "
                                  "game (DIR is created if missing, but not its parent).")
@click.option("--plain", is_flag=True,
              help="Line mode: one line of input per decision, the table printed after each move "
                   "(for screen readers and pipes). Used by itself when standard input or output "
                   "is not a terminal.")
def play(variant: str, level: int, players: int, seed: int | None, program: str | None,
         lang: str,
         opponent: str, seat: int, rule_options: tuple[str, ...], save_path: str | None,
         load_path: str | None, cards_path: str | None, move_clock: float | None,
         autosave_dir: str | None, plain: bool) -> None:
    """Play a game in the terminal.

    On a terminal the game is full screen: move to a card, flag or player with the arrow keys
    (or click it) and press Enter, or type the option in notation (e.g. 'flag 2.0'; Tab
    completes, Up and Down recall) or its number. PageUp and PageDown step through the moves
    played; F1 shows the keys and commands. For line mode, give --plain.

    Line mode (--plain, or when standard input or output is not a terminal): at each decision
    the legal options are listed with numbers; type a number or the option itself. Moves with a
    single option are played for you, and computer seats play by themselves. Commands: undo,
    save FILE, hint, help, quit. Input may be piped in: the game stops cleanly (status 0) at the
    end of the input.

    In both, a number is the option's number, counted from 1 (a card goes by its position in
    the notation: 'place 2'). A game left unfinished (quit, Ctrl+Q, Ctrl+C, the end of the
    input) keeps its record, in the --save file or else a new file in the --autosave folder or
    else in unfinished/ of the user data folder, and says where; the exit status is 130 after
    Ctrl+C (SIGINT), else 0.

    \b
    Examples:
      spaghetti play --vs random --seed 3
      spaghetti play --vs random --plain         # line mode
      spaghetti play --vs normal --level 2 --autosave games/
      spaghetti play --vs random --seat 1 --level 3 --lang ja
      spaghetti play --players 3 --option placement_order=snake --save game.json
      spaghetti play --load game.json --vs random
      spaghetti play --cards examples/custom-cards.toml --vs random
      spaghetti play --game spaghetti-monsters --vs normal --lang ja
      yes 1 | spaghetti play --vs random --seed 3      # always pick the first option
    """
    from .play import Session

    require_terminal_streams("play")
    shown_seed = None  # the seed in the header, when it dealt the program
    if load_path == "-":
        raise SetupError("--load cannot read standard input: play reads your moves from it")
    if load_path is not None:
        _refuse_setup_with_load(click.get_current_context())
        state = records.replay(read_record_data(load_path))
        players = state.players
    else:
        options = parse_options(rule_options)
        program_names = parse_program(program)
        if seed is None and program_names is None:
            seed = random.randrange(10_000)
        if program_names is None:
            shown_seed = seed
        state = Game(level=level, players=players, options=options, variant=variant,
                     custom_cards=read_cards(cards_path)).new_state(program_names, seed)
    if not 0 <= seat < players:
        raise SetupError(f"--seat {seat}: the seats of a {players}-player game are "
                         f"0 to {players - 1}")
    ai_seed = 0 if seed is None else seed
    if save_path is not None:
        check_save_file(save_path)
    if autosave_dir is not None and prepare_autosave_folder(autosave_dir):
        click.echo(t("autosave_created", lang, dir=autosave_dir))

    computer = None if opponent == "human" else opponent

    def seats_for(base: int) -> list:
        return [None if opponent == "human" or s == seat else make_player(opponent, base * 100 + s)
                for s in range(players)]

    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        from .tui import Setup, run_app

        game, names = cast(Game, state.game), (program_names if load_path is None else None)

        def rematch() -> Setup:
            """The same game again: the same program if it was given, else a new shuffle."""
            new_seed = random.randrange(10_000)
            fresh = game.new_state(names, None if names else new_seed)
            return Setup(fresh, seats_for(new_seed), None if names else new_seed, computer)

        farewell, status = run_app(Setup(state, seats_for(ai_seed), shown_seed, computer),
                                   lang=lang, save_path=save_path, autosave_dir=autosave_dir,
                                   move_clock=move_clock, rematch=rematch)
        if farewell:
            click.echo(farewell)
        sys.exit(status)
    session = Session(state, seats_for(ai_seed), lang=lang, console=_console(),
                      save_path=save_path, move_clock=move_clock, seed=shown_seed,
                      autosave_dir=autosave_dir, opponent=computer)
    sys.exit(session.run())


# ---------------------------------------------------------------------------- records


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print only the final state view as JSON.")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="Language of the words: en or ja.")
def replay(file: str, as_json: bool, lang: str) -> None:
    """Print a record's moves in words, one a line, then the final position.

    \b
    Examples:
      spaghetti replay game.json
      spaghetti replay game.json --lang ja
      spaghetti replay game.json --json | jq .lives
      spaghetti new --seed 1 | spaghetti replay -
    """
    data = read_record_data(file)
    final = records.replay(data)  # checks the whole record first, with positioned errors
    if as_json:
        click.echo(json.dumps(view(final), ensure_ascii=False, indent=2))
        return
    state, actions = records.start(data)
    width = len(str(len(actions)))
    for i, option in enumerate(actions, 1):
        click.echo(f"{i:>{width}}. {describe(state, option, lang)}")
        state.apply(option)
    console = _console()
    console.print()
    console.print(render(final, lang, width=console.width, log_size=0))


def _viewer(text: str | None):
    """A --seat value: a seat number, "observer" or "referee" (None: the referee)."""
    if text is None:
        return REFEREE
    text = text.strip().lower()
    if text in (REFEREE, OBSERVER):
        return text
    seat = whole_number(text)
    if seat is not None:
        return seat
    raise SetupError(f"--seat {text!r}: give a seat number, 'observer' or 'referee'")


_SEAT_HELP = ("Whose view: a seat number (what that player may know), 'observer' (public only, "
              "until the game is over) or 'referee' (everything; the default).")
#: ``-o FILE`` of the commands that write a record; the file is opened at the first write, so a
#: record read and written back to the same file is read before it is emptied.
_record_output = click.option("-o", "--output", type=click.File("w", encoding="utf-8", lazy=True),
                              default="-", show_default=True,
                              help="Write the record to FILE ('-': standard output).")


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--upto", type=click.IntRange(min=0), default=None,
              help="Only the first N actions of the record.")
@click.option("--seat", default=None, metavar="S", help=_SEAT_HELP)
def state(file: str, upto: int | None, seat: str | None) -> None:
    """Print the state view (JSON) after a record's actions.

    \b
    Examples:
      spaghetti state game.json
      spaghetti state game.json --upto 8
      spaghetti state game.json --seat 1      # what seat 1 may know
    """
    data = read_record_data(file)
    viewer = _viewer(seat)
    if upto is not None:
        total = len(records.parse(data)[-1])
        if upto > total:
            raise RecordError(f"--upto {upto}: the record has only "
                              f"{counted(total, 'action')}")
    final = records.replay(data, upto)
    click.echo(json.dumps(view(final, viewer), ensure_ascii=False, indent=2))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--seat", required=True, metavar="S", help=_SEAT_HELP)
@_record_output
def export(file: str, seat: str, output: TextIO) -> None:
    """Write a record as a seat may know it: hidden parts (another's instant card, face-down
    cards) are null. Such a record can be read but not replayed.

    \b
    Examples:
      spaghetti export game.json --seat 0 -o for-red.json
      spaghetti export game.json --seat observer
    """
    final = records.replay(read_record_data(file))
    output.write(records.dumps(final, seat=_viewer(seat)))


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
def legal(file: str) -> None:
    """Print the legal options at the end of a record, one a line (nothing if it is over).

    \b
    Examples:
      spaghetti legal game.json
      spaghetti new --seed 2 | spaghetti legal -
    """
    final = records.replay(read_record_data(file))
    for option in final.legal():
        click.echo(option)


@cli.command()
@_setup_options
@click.option("--seed", type=int, default=None,
              help="Shuffle the level's cards with N (random if neither this nor --program).")
@click.option("--option", "rule_options", multiple=True, metavar="NAME=VALUE", help=_OPTION_HELP)
@click.option("--cards", "cards_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.toml", help=_CARDS_HELP + " The record carries their definitions.")
@_record_output
def new(variant: str, level: int, players: int, seed: int | None, program: str | None,
        rule_options: tuple[str, ...], cards_path: str | None, output: TextIO) -> None:
    """Write the record of a new game, program written out, no actions yet.

    \b
    Examples:
      spaghetti new --seed 7 -o game.json
      spaghetti new --level 3 --players 4 --option stalemate=manual
      spaghetti new --program Bug,AddFlag,ForkBomb,MoveFlag,RemoveFlag
      spaghetti new --cards examples/custom-cards.toml --seed 7 -o game.json
    """
    if seed is not None and program is not None:
        raise SetupError("give --seed or --program, not both")
    options = parse_options(rule_options)
    names = parse_program(program)
    if seed is None and names is None:
        seed = random.randrange(10_000)
    state = Game(level=level, players=players, options=options, variant=variant,
                 custom_cards=read_cards(cards_path)).new_state(names, seed)
    output.write(records.dumps(state))


# ---------------------------------------------------------------------------- serve


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network interface).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), default="spaghetti.db",
              show_default=True, help="SQLite file holding the games (created if missing).")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
def serve(host: str, port: int, db_path: str, open_browser: bool) -> None:
    """Serve the game in the browser: create games, invite people by link, play the computer,
    watch, replay. Games are kept in the --db file and survive a restart.

    \b
    Examples:
      spaghetti serve --open
      spaghetti serve --host 0.0.0.0 --port 8080 --db games.db
    """
    from ..web import serve as run

    run(host=host, port=port, db=db_path, open_browser=open_browser)


# ---------------------------------------------------------------------------- arena, solve

cli.add_command(arena)
cli.add_command(lab)
cli.add_command(puzzle)
cli.add_command(solve)
cli.add_command(solve_level1)


def main(argv: list[str] | None = None, prog_name: str = "spaghetti") -> None:
    """Entry point of the ``spaghetti`` command."""
    from . import common
    common.process_start = common.process_started()
    cli.main(args=argv, prog_name=prog_name)


if __name__ == "__main__":
    main()
