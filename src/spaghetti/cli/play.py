"""The interactive game loop of ``spaghetti play``.

Reads one line per decision (a number, an option in notation, or a command), so it works the same
on a terminal and with input piped in. Computer seats and forced moves (a single legal option) are
played by themselves; every move goes into the record.
"""

from __future__ import annotations

import os
import random
import signal
import sys
import time
from contextlib import contextmanager, nullcontext
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console, Group
from rich.text import Text

from .. import records
from ..ai import MCTSPlayer, Player
from ..ai.perfect import proven_hint
from ..core import notation as N
from ..core.notation import whole_number
from ..core.state import State
from ..errors import IllegalOptionError, NotationError
from ..i18n import colour, describe, lang_for, option_label, t
from ..render import render
from .common import data_folder

HUMAN, COMPUTER, FORCED = "human", "computer", "forced"


class TimeUp(Exception):
    """A person's move clock ran out."""
QUIT_WORDS = {"quit", "exit", "q"}
INTERRUPTED = 130  # the exit status of a game interrupted by Ctrl+C (SIGINT), as shells use
HINT_ITERATIONS = 3000  # the hint's MCTS budget (about half a second)


def hint_lines(state: State, lang: str, seed: int | None = None,
               iterations: int = HINT_ITERATIONS) -> tuple[str, list[tuple[str, str | None]]]:
    """The hint for the seat to move: the option recommended, and lines (with their styles)
    saying it with its evidence.

    Proven by the exact solver when it finds a proof within ``ai.perfect.HINT_SECONDS`` s
    and nothing is hidden from the seat (and the proof is not a loss): the option and its proven
    value. Otherwise MCTS analysis: the most visited option is the one recommended, with its
    visits and estimated win chance, then the next two by visits. ``state`` is not changed; the
    search is seeded by ``seed`` and the move number, so a hint is reproducible.
    """
    lang = lang_for(lang, state)
    if not state.hidden and not state.is_chance:
        found = proven_hint(state)
        if found is not None and found[1] > -1.0:
            option, value = found
            verdict = (t("proven_win", lang) if value == 1.0 else
                       t("proven_draw", lang) if value == 0.0 else
                       t("proven_expect", lang, value=value))
            return option, [(t("hint_proven", lang, option=option,
                               label=option_label(state, option, lang), verdict=verdict),
                              "cyan")]
    searcher = MCTSPlayer(iterations=iterations, seed=(seed or 0) * 1000 + len(state.history),
                          learned=True)
    rows = searcher.analyse(state)
    total = sum(visits for _, visits, _ in rows)
    best, visits, value = rows[0]
    lines: list[tuple[str, str | None]] = [
        (t("hint", lang, option=best, label=option_label(state, best, lang), visits=visits,
           total=total, chance=round(100 * value)), "cyan")]
    for option, visits, value in rows[1:3]:
        lines.append((t("hint_other", lang, option=option, visits=visits,
                        chance=round(100 * value)), None))
    return best, lines


def autosave_path(state: State, directory: str | Path) -> Path:
    """A new file name in ``directory`` for the record of ``state``: the date and time, the
    game, level and players, never an existing file's name. The folder is not created here:
    ``play`` checks or creates it, and says so, before the game."""
    folder = Path(directory)
    game = state.game
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{game.variant}-L{game.level}-{game.players}p"
    path = folder / f"{stem}.json"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.json"
        n += 1
    return path


def autosave_finished(state: State, directory: str | Path) -> Path:
    """Write the record of a finished game into ``directory`` (``--autosave``); its path."""
    path = autosave_path(state, directory)
    path.write_text(records.dumps(state), encoding="utf-8")
    return path


class Session:
    """One game at the terminal: the state, who plays each seat, and the moves in words."""

    def __init__(self, state: State, players: Sequence[Player | None], *, lang: str = "en",
                 console: Console | None = None, save_path: str | None = None,
                 seed: int | None = None, read_line: Callable[[str], str] | None = None,
                 clear: bool | None = None, hint_iterations: int = HINT_ITERATIONS,
                 move_clock: float | None = None, autosave_dir: str | None = None,
                 opponent: str | None = None):
        self.state = state
        self.opponent = opponent  # the computer's difficulty, said once at the start
        self.autosave_dir = autosave_dir  # every finished game's record goes there
        self.players = list(players)
        self.lang = lang_for(lang, state)  # with the words of the game on the table
        self.console = console or Console()
        self.save_path = save_path
        self.seed = seed
        self.chance = random.Random(seed)  # draws the coin flips of the Nightmare notes
        # Seconds a person has for a move (the Nightmare notes suggest a minute); over it, a
        # random option is played for them, as the browser game's clock does.
        self.move_clock = move_clock
        self.hint_iterations = hint_iterations
        self.read_line = read_line or self.console.input
        self.clear = self.console.is_terminal if clear is None else clear
        # With input piped in, nothing echoes what was typed: echo it, so the transcript reads.
        self.echo_input = read_line is None and not sys.stdin.isatty()
        self.notices: list[tuple[str, str]] = []  # said after the next screen
        self.log: list[str] = []  # each move of the record in words
        self.who: list[str] = []  # who chose each move: human, computer or forced
        self._rebuild_log()

    # ------------------------------------------------------------------ bookkeeping

    def _rebuild_log(self) -> None:
        """Describe the moves already in the state (a loaded or rebuilt game)."""
        data = records.record_of(self.state)
        actions = data["actions"]
        data["actions"] = []
        replay = records.replay(data)
        self.log, self.who = [], []
        for option in actions:
            seat = replay.to_move
            self.log.append(describe(replay, option, self.lang))
            if seat is None or len(replay.legal()) == 1:  # None: a coin flip, nobody's choice
                self.who.append(FORCED)
            elif self.players[seat] is not None:
                self.who.append(COMPUTER)
            else:
                self.who.append(HUMAN)
            replay.apply(option)

    def play_option(self, option: str, who: str) -> None:
        text = describe(self.state, option, self.lang)  # raises if illegal, state unchanged
        self.state.apply(option)
        self.log.append(text)
        self.who.append(who)

    def _declarers(self) -> str:
        """The human seats that may declare a stalemate now, as "Red: declare 0, ..."."""
        return ", ".join(t("declare_seat", self.lang, p=colour(s, self.lang), n=s)
                         for s, p in enumerate(self.players)
                         if p is None and self.state.may_declare(s))

    def declare(self, which: str) -> str:
        """``declare N`` (or a colour): seat N declares a stalemate, whoever is to move (C9
        ``manual``: any player still in the game may, at a repeated position). "moved" or ""."""
        state = self.state
        names = {colour(s, lang).lower(): s for s in range(state.players) for lang in ("en", "ja")}
        seat = whole_number(which)
        if seat is None:
            seat = names.get(which.lower())
        if seat is None or not 0 <= seat < state.players or self.players[seat] is not None:
            self.say(t("declare_usage", self.lang, seats=self._declarers() or "-"), "yellow")
            return ""
        try:
            text = describe(state, "declare", self.lang, by=seat) if state.may_declare(seat) \
                else ""
            state.declare(seat)
        except IllegalOptionError as exc:
            why = str(exc).split(": ", 1)[-1]
            self.say(t("declare_refused", self.lang, p=colour(seat, self.lang), why=why),
                     "yellow")
            return ""
        self.log.append(text)
        self.who.append(HUMAN)
        return "moved"

    def undo(self) -> int:
        """Take back the last human move and everything after it; the number of moves undone."""
        humans = [i for i, w in enumerate(self.who) if w == HUMAN]
        if not humans:
            return 0
        keep = humans[-1]
        data = records.record_of(self.state)
        undone = len(data["actions"]) - keep
        data["actions"] = data["actions"][:keep]
        self.state = records.replay(data)
        self._rebuild_log()
        return undone

    def save(self, path: str) -> None:
        Path(path).write_text(records.dumps(self.state), encoding="utf-8")

    # ------------------------------------------------------------------ screen

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def show(self) -> None:
        if self.clear:
            self.console.clear()
        human_seats = [s for s, p in enumerate(self.players) if p is None]
        # Hidden information: one human sees their own seat's view; people sharing a keyboard
        # see the view of the seat to move (the others look away).
        mover = self.state.to_move
        viewer: int | str
        if len(human_seats) == 1:
            viewer = human_seats[0]
        elif mover is not None and mover in human_seats:
            viewer = mover
        else:
            viewer = "observer"
        width = self.console.width
        computers = [p is not None for p in self.players]

        def screen(log_size: int) -> Group:
            return render(self.state, self.lang, log_size=log_size, width=width, log=self.log,
                          seed=self.seed, computers=computers, human_seats=human_seats,
                          with_options=True, viewer=viewer)

        log_size = 8
        if self.console.is_terminal:  # as many last moves as the screen has room for
            rest = screen(0)
            used = len(self.console.render_lines(rest, pad=False))
            log_size = max(3, min(self.console.height - used - 3, 30))
        self.console.print(screen(log_size))
        if self.state.repeated and not self.state.is_over and len(human_seats) >= 2:
            # C9 manual: not only the player to move, any player still in may declare.
            self.say(t("repeated_any", self.lang, seats=self._declarers()), "bold yellow")
        for notice, style in self.notices:
            self.say(notice, style)
        self.notices.clear()

    # ------------------------------------------------------------------ the loop

    def run(self) -> int:
        """Play until the game ends, the user quits, or input ends: the exit status (0, or
        :data:`INTERRUPTED` after Ctrl+C, wherever it comes: while a person or the computer
        thinks)."""
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.say("")
            return self._leave(INTERRUPTED)

    def _loop(self) -> int:
        dirty = True
        if self.opponent is not None:
            self.say(t(f"ai.{self.opponent}", self.lang), "dim")
        while True:
            self._play_automatic()
            if self.save_path:
                self._autosave()
            state = self.state
            if state.is_over:
                self.show()
                self._keep_finished()
                return 0
            if dirty:
                self.show()
                dirty = False
            mover = state.to_move
            assert mover is not None, "after the automatic moves a person is to move"
            prompt = t("prompt", self.lang, p=colour(mover, self.lang))
            if self.move_clock:
                prompt = t("clock_prompt", self.lang, s=round(self.move_clock)) + prompt
            try:
                with self._clock():
                    line = self.read_line(prompt)
                if self.echo_input:
                    self.console.print(line, markup=False, highlight=False)
            except TimeUp:
                self.say("")
                option = self.chance.choice(state.legal())
                self.notices.append((t("time_up", self.lang, option=option), "bold yellow"))
                self.play_option(option, COMPUTER)
                dirty = True
                continue
            except EOFError:
                self.say("")
                return self._leave()
            result = self.handle(line)
            if result == "quit":
                return self._leave()
            if result == "moved":
                dirty = True

    def _play_automatic(self) -> None:
        """Computer seats and forced moves play by themselves."""
        state = self.state
        while not state.is_over:
            if state.is_chance:  # the coin flip is nobody's choice
                self.play_option(state.sample_chance(self.chance), FORCED)
                continue
            mover = state.to_move
            assert mover is not None, "a seat decides unless the game is over or a coin flip is due"
            player = self.players[mover]
            if player is not None:
                with self._busy(t("thinking", self.lang, p=colour(mover, self.lang))):
                    option = player.choose(state)
                self.play_option(option, COMPUTER)
            elif len(state.legal()) == 1:
                self.play_option(state.legal()[0], FORCED)
            else:
                return

    def _clock(self):
        """While a person thinks: an alarm after ``move_clock`` seconds raises
        :class:`TimeUp` (where the platform has interval timers)."""
        if not self.move_clock or not hasattr(signal, "setitimer"):
            return nullcontext()

        @contextmanager
        def alarm():
            def ring(signum, frame):
                raise TimeUp

            previous = signal.signal(signal.SIGALRM, ring)
            signal.setitimer(signal.ITIMER_REAL, float(self.move_clock or 0))
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)

        return alarm()

    def _busy(self, message: str):
        """A spinner with a message while the computer thinks, on a terminal only."""
        if self.console.is_terminal:
            return self.console.status(message)
        return nullcontext()

    def hint(self) -> None:
        """Say the best option and the evidence for it (:func:`hint_lines`)."""
        with self._busy(t("hint_thinking", self.lang)):
            _, lines = hint_lines(self.state, self.lang, self.seed, self.hint_iterations)
        for text, style in lines:
            self.say(text, style)

    def _autosave(self) -> None:
        """Write the record to the --save file (if any); after a failure, stop saving."""
        path = self.save_path
        if path is None:
            return
        try:
            self.save(path)
        except OSError as exc:
            self.say(t("save_failed", self.lang, err=exc), "bold red")
            self.save_path = None

    def _keep_finished(self) -> None:
        """--autosave DIR: the finished game's record goes into DIR."""
        if not self.autosave_dir:
            return
        try:
            path = autosave_finished(self.state, self.autosave_dir)
        except OSError as exc:
            self.say(t("save_failed", self.lang, err=exc), "bold red")
            return
        self.say(t("saved", self.lang, file=path), "green")

    def leaving(self) -> list[tuple[str, str]]:
        """What to say (with styles) when a person leaves an unfinished game: that it is, and
        where its record is kept for ``play --load`` to go on with (the --save file, else a new
        file in the --autosave folder, else in the user data folder's ``unfinished``, never the
        current folder by surprise). Nothing for a finished game."""
        state = self.state
        if state.is_over:
            return []
        lines = [(t("unfinished", self.lang, n=len(state.history)), "bold")]
        if state.history:
            try:
                path = self.save_path or str(autosave_path(state, self._keep_folder()))
                self.save(path)
            except OSError as exc:
                lines.append((t("save_failed", self.lang, err=exc), "bold red"))
            else:
                lines.append((t("kept_unfinished", self.lang, file=path), "green"))
        return lines

    def _keep_folder(self) -> str:
        """Where an unfinished game's record goes without --save: the --autosave folder, else
        ``unfinished`` in the user data folder (made now: it is the program's own)."""
        if self.autosave_dir:
            return self.autosave_dir
        folder = os.path.join(data_folder(), "unfinished")
        os.makedirs(folder, exist_ok=True)
        return folder

    def _leave(self, status: int = 0) -> int:
        for text, style in self.leaving():
            self.say(text, style)
        return status

    def handle(self, line: str) -> str:
        """One line of input: "moved", "quit", or "" (nothing changed)."""
        text = line.strip()
        if not text:
            return ""
        words = text.split()
        command = words[0].lower()
        legal = self.state.legal()
        if command in QUIT_WORDS and len(words) == 1:
            return "quit"
        if command in ("help", "?", "h") and len(words) == 1:
            self.say(t("help", self.lang))
            return ""
        if command == "hint" and len(words) == 1:
            self.hint()
            return ""
        if command == "undo" and len(words) == 1:
            undone = self.undo()
            if not undone:
                self.say(t("nothing_to_undo", self.lang), "yellow")
                return ""
            self.notices.append((t("undone", self.lang, n=undone), "green"))
            return "moved"
        if command == "save":
            if len(words) != 2:
                self.say(t("save_usage", self.lang), "yellow")
                return ""
            try:
                self.save(words[1])
            except OSError as exc:
                self.say(t("save_failed", self.lang, err=exc), "bold red")
                return ""
            self.say(t("saved", self.lang, file=words[1]), "green")
            return ""
        if command == "declare" and len(words) == 2:
            return self.declare(words[1])
        n = whole_number(text)
        if n is not None:
            if 1 <= n <= len(legal):
                self.play_option(legal[n - 1], HUMAN)
                return "moved"
            self.say(t("bad_input", self.lang, text=text, n=len(legal)), "yellow")
            return ""
        try:
            N.parse(text)
        except NotationError:
            self.say(t("bad_input", self.lang, text=text, n=len(legal)), "yellow")
            return ""
        try:
            self.play_option(text, HUMAN)
        except IllegalOptionError:
            self.say(t("bad_input", self.lang, text=text, n=len(legal)), "yellow")
            return ""
        return "moved"
