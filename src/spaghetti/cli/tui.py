"""The full-screen terminal game of ``spaghetti play`` (Textual).

The table is redrawn in place: the program as cards that wrap into rows (and scroll when they do
not fit), the players, the move list, what is being decided, and the options. A person chooses
by moving to a card, flag, number or player with the arrow keys (or clicking it) and pressing
Enter, or by typing the option in notation (Tab completes over the legal options, Up and Down
recall earlier lines). The numbers on the cards are the card positions of the notation.

The game itself goes only through the engine's door: the options of ``State.legal()`` played
with ``State.apply`` (by :class:`spaghetti.cli.play.Session`, which keeps the moves in words, takes
back moves and saves records for both the line mode and this one). Computer players and hints
think in a worker thread on a copy of the state, so the screen never freezes.
"""

from __future__ import annotations

import asyncio
import io
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.cells import cell_len, chop_cells
from rich.console import Console
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Input, OptionList, Static

from .. import records
from ..ai import Player
from ..core import notation as N
from ..core.state import State
from ..core.view import REFEREE, knows_card
from ..i18n import colour, mark, option_label, style, t
from .changes import Changes, changes
from ..render import decision_line, expansions_text, result_line
from .play import (COMPUTER, FORCED, HUMAN, INTERRUPTED, Session, autosave_finished,
                   autosave_path, hint_lines)

CARD_WIDTH = 16  # a card's width on the board, its border included
CARD_GAP = 1
STATUS_LINES = 7  # the most lines of the decision and the messages under the board

# The words of the full-screen game (the rest are i18n's, shared with line mode).
_WORDS: dict[str, tuple[str, str]] = {
    "keys": ("F1 help · F2 hint · ←→ choose · Enter play · PgUp/PgDn moves · Ctrl+Q quit",
             "F1 ヘルプ · F2 ヒント · ←→ 選ぶ · Enter 決定 · PgUp/PgDn 手順 · Ctrl+Q 終了"),
    # While the input line has the focus, the keys do what they do there.
    "keys_input": ("Enter send · Tab complete · ↑↓ earlier lines · Esc back to the board · F1 help",
                   "Enter 送信 · Tab 補完 · ↑↓ 履歴 · Esc 盤面に戻る · F1 ヘルプ"),
    "help_title": ("Keys and commands", "操作とコマンド"),
    "help": (
        "←→↑↓      move between the options: cards, flags, numbers, players, buttons\n"
        "Enter     play the option marked (a click plays one at once)\n"
        "F2        hint: the option recommended becomes the one marked\n"
        "PgUp PgDn step through the moves played (or Tab to the move list); Esc: back\n"
        "Ctrl+Q    leave; an unfinished game's record is kept and its file named\n"
        "Ctrl+C    the same, with exit status 130 (interrupted)\n"
        "\n"
        "The input line, at the bottom: type an option in notation (place 3, flag 2.0, "
        "run), or a number: the option of that number, counted from 1 as shown before "
        "the option marked and on the buttons (as in line mode; a card goes by its "
        "position in notation: place 3). Typing anywhere goes to the line. There, Tab "
        "completes, Up and Down recall earlier lines; Enter sends the line and gives "
        "the arrow keys back to the board (so does Esc).\n"
        "\n"
        "Commands: hint, undo, save [FILE], declare N, help, quit",
        "←→↑↓      選択肢（カード・フラグ・数値・プレイヤー・ボタン）を移動\n"
        "Enter     選んでいる選択肢に決定（クリックならすぐ決定）\n"
        "F2        ヒント: 勧める選択肢が選ばれた状態になる\n"
        "PgUp PgDn 指した手を振り返る（Tab で手順リストへ）。Esc で戻る\n"
        "Ctrl+Q    終了。未完了のゲームは棋譜を保存し、そのファイル名を表示\n"
        "Ctrl+C    同じく終了（終了ステータス 130: 中断）\n"
        "\n"
        "下の入力欄: 選択肢を記法で（place 3、flag 2.0、run）、または番号を入力。"
        "番号は選択肢を1から数えたもので、選んでいる選択肢の前とボタンに表示されます"
        "（行モードと同じ。カードは記法の位置で: place 3）。どこで入力しても入力欄に"
        "入ります。入力欄では Tab で補完、↑↓ で履歴。Enter で送信すると矢印キーは"
        "盤面に戻ります（Esc も同じ）。\n"
        "\n"
        "コマンド: hint, undo, save [FILE], declare N, help, quit"),
    "help_close": ("Esc, Enter or F1 closes this help.", "Esc、Enter、F1 でヘルプを閉じます。"),
    # The computer's difficulty in the top line; its whole description is said at the start
    # and in the help.
    "vs.random": ("vs random", "相手: ランダム"),
    "vs.easy": ("vs easy", "相手: やさしい"),
    "vs.normal": ("vs normal", "相手: ふつう"),
    "vs.hard": ("vs hard", "相手: つよい"),
    "vs.perfect": ("vs perfect", "相手: 完全"),
    "moves": ("Moves", "手順"),
    "cpu": ("cpu", "CPU"),
    "you": ("you", "あなた"),
    "placeholder": ("type an option (Tab completes) or a command: hint, undo, save FILE",
                    "選択肢を入力（Tab で補完）、またはコマンド: hint, undo, save FILE"),
    "chosen": ("→ {n}) {option}: {label}", "→ {n}) {option}: {label}"),
    "review": ("Reviewing move {k} of {n}: PgUp/PgDn step, Esc back to the game.",
               "{n}手中{k}手目を表示中: PgUp/PgDn で移動、Esc でゲームに戻る。"),
    "review_start": ("Reviewing the start (move 0 of {n}): PgDn steps, Esc back to the game.",
                     "開始局面を表示中（{n}手中0手目）: PgDn で進む、Esc でゲームに戻る。"),
    "not_now": ("Not while reviewing: Esc goes back to the game.",
                "振り返り中は選べません。Esc でゲームに戻ります。"),
    "wait": ("The computer is thinking: wait for its move.",
             "コンピュータが考え中です。手を待ってください。"),
    "not_yours": ("It is not your turn.", "あなたの手番ではありません。"),
    "no_number": ("There is no option {n}: the options are numbered 1 to {count}.",
                  "選択肢{n}はありません。番号は1から{count}までです。"),
    "bad": ("Not an option here: {text!r}. Options: {legal}",
            "ここでは選べません: {text!r}。選択肢: {legal}"),
    "over": ("Game over: save, rematch, replay or quit.",
             "ゲーム終了: save（保存）、rematch（再戦）、replay（再生）、quit（終了）。"),
    "no_rematch": ("No rematch for this game.", "このゲームは再戦できません。"),
    "gone": ("removed: {cards}", "除去: {cards}"),
    "clock": ("⏱ {s} s", "⏱ {s}秒"),
    "opt.save": ("save", "保存"),
    "opt.rematch": ("rematch", "再戦"),
    "opt.replay": ("replay", "再生"),
    "opt.quit": ("quit", "終了"),
}
END_OPTIONS = ("save", "rematch", "replay", "quit")
COMMANDS = ("hint", "undo", "save ", "declare ", "help", "quit")


def w(key: str, lang: str, **kwargs) -> str:
    en, ja = _WORDS[key]
    text = ja if lang == "ja" else en
    return text.format(**kwargs) if kwargs else text


@dataclass
class Notice:
    """A message under the decision. It lasts until the person's next input; a hint only as
    long as the position it was given for (``at``: the game's generation and its moves)."""

    text: Text
    at: tuple[int, int] | None = None


@dataclass
class Setup:
    """A game to play: its state, each seat's computer player (None: a person), its seed."""

    state: State
    players: Sequence[Player | None]
    seed: int | None = None
    opponent: str | None = None  # the computer's difficulty, shown at the top


def viewer_of(state: State, players: Sequence[Player | None]) -> int | str:
    """Whose view the screen shows: the one person's against computers; at one keyboard, the
    seat to move's (the others look away); else an observer's."""
    humans = [s for s, p in enumerate(players) if p is None]
    if len(humans) == 1:
        return humans[0]
    mover = state.to_move
    if mover is not None and mover in humans:
        return mover
    return "observer" if humans else REFEREE


def card_option(state: State, legal: Sequence[str], index: int) -> str | None:
    """The legal option that chooses card ``index`` itself (place, card, to, at, interrupt)."""
    for option in legal:
        words = option.split()
        if (len(words) == 2 and words[0] in ("place", "card", "to", "at", "interrupt")
                and words[1] == str(index)):
            return option
    return None


def packed(pieces: Sequence[Text], width: int,
           gap: Text) -> tuple[list[Text], list[tuple[int, int, int]]]:
    """``pieces`` in lines of ``width`` cells (at least 20), broken between pieces only, with
    ``gap`` between two on a line; and where each went: (line, from, to)."""
    width = max(20, width)
    lines = [Text()]
    places = []
    for piece in pieces:
        line = lines[-1]
        if line.cell_len and line.cell_len + gap.cell_len + piece.cell_len > width:
            line = Text()
            lines.append(line)
        if line.cell_len:
            line.append_text(gap)
        places.append((len(lines) - 1, line.cell_len, line.cell_len + piece.cell_len))
        line.append_text(piece)
    return lines, places


def first_harmless(state: State, legal: Sequence[str]) -> int:
    """The option to mark first: the first that does not cost the mover a life (Bug or
    ForkBomb aimed at themselves), unless every option does."""
    mover = state.to_move
    if mover is None:
        return 0
    for k, option in enumerate(legal):
        after = state.copy()
        after.apply(option)
        if after.lives[mover] >= state.lives[mover]:
            return k
    return 0


def drawn_on_card(option: str) -> tuple[int, str] | None:
    """Where an option is drawn on the board: ``(card, kind)`` for a card, flag or number."""
    words = option.split()
    if len(words) != 2:
        return None
    kind, arg = words
    if kind in ("place", "card", "to", "at", "interrupt") and arg.isdigit():
        return int(arg), "card"
    if kind in ("flag", "param") and arg.split(".")[0].isdigit():
        return int(arg.split(".")[0]), kind
    return None


class _Model(Session):
    """The line mode's session as the model of the full-screen game: what it would print goes
    to the screen's notices instead."""

    def __init__(self, setup: Setup, lang: str, say: Callable[[str, str | None], None],
                 save_path: str | None, autosave_dir: str | None):
        super().__init__(setup.state, setup.players, lang=lang,
                         console=Console(file=io.StringIO()), save_path=save_path,
                         seed=setup.seed, clear=False, opponent=setup.opponent,
                         autosave_dir=autosave_dir)
        self._say = say

    def say(self, text: str, style: str | None = None) -> None:
        self._say(text, style)


class Spots(Static):
    """A Static whose parts choose options when clicked: ``spots`` are (line, from, to, option)
    in content coordinates."""

    spots: list[tuple[int, int, int, str]]
    whole: str | None = None  # the option of a click elsewhere on it

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        option = self.whole
        if offset is not None:
            for y, x0, x1, spot in getattr(self, "spots", []):
                if offset.y == y and x0 <= offset.x < x1:
                    option = spot
                    break
        if option is not None:
            event.stop()
            app = self.app
            if isinstance(app, GameApp):
                app.choose(option)


class CardBox(Spots):
    """One card of the program."""

    plain = ""  # its text, without styles


class Board(VerticalScroll, can_focus=True):
    """The program; with the focus, the arrow keys move between the options and Enter plays
    the one marked. Typing goes to the input line."""

    BINDINGS = [
        Binding("left,up", "step(-1)", show=False),
        Binding("right,down", "step(1)", show=False),
        Binding("enter", "play", show=False),
    ]

    def action_step(self, delta: int) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.step_choice(delta)

    async def action_play(self) -> None:
        app = self.app
        if not isinstance(app, GameApp):
            return
        box = app.query_one("#cmd", CommandInput)
        if box.value.strip():  # keys of a burst that ran ahead of the focus: send the line
            await box.action_submit()
        else:
            app.play_selected()

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        if isinstance(app, GameApp):
            app.call_after_refresh(app.fit)

    def on_key(self, event: events.Key) -> None:
        # Spaces too: in a burst of keys (a paste, a terminal multiplexer) those after the
        # first arrive here before the focus has moved to the input line.
        if event.is_printable and event.character:
            self._type(event.character)
            event.stop()

    def on_paste(self, event: events.Paste) -> None:
        if event.text:
            self._type(event.text.splitlines()[0])
            event.stop()

    def _type(self, text: str) -> None:
        box = self.app.query_one("#cmd", CommandInput)
        box.focus()
        box.insert_text_at_cursor(text)


class CommandInput(Input):
    """The input line: notation or commands, with history (Up, Down) and completion (Tab)."""

    BINDINGS = [
        Binding("up", "history(-1)", show=False),
        Binding("down", "history(1)", show=False),
        Binding("tab", "complete", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(select_on_focus=False, **kwargs)
        self.history: list[str] = []
        self.back = 0  # how far back in the history (0: the line being typed)

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self.back = 0

    def action_history(self, delta: int) -> None:
        back = min(max(self.back - delta, 0), len(self.history))
        if back == self.back:
            return
        self.back = back
        self.value = self.history[-back] if back else ""
        self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        suggestion = getattr(self, "_suggestion", "")
        if suggestion and suggestion != self.value:
            self.value = suggestion
            self.cursor_position = len(self.value)
        else:
            self.screen.focus_next()


class HelpScreen(ModalScreen[None]):
    """F1 or ``help``: the keys, the input line and the commands, over the game."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help { width: 80; max-width: 100%; height: auto; max-height: 100%; padding: 0 1;
            border: round $accent; background: $surface; border-title-align: left; }
    """
    BINDINGS = [Binding("escape,enter,f1,q", "dismiss", show=False)]

    def __init__(self, lang: str, opponent: str | None) -> None:
        super().__init__()
        self.lang = lang
        self.opponent = opponent

    def compose(self) -> ComposeResult:
        text = Text(w("help", self.lang))
        if self.opponent is not None:
            text.append("\n" + t(f"ai.{self.opponent}", self.lang), style="dim")
        text.append("\n" + w("help_close", self.lang), style="bold")
        box = VerticalScroll(Static(text), id="help")
        box.border_title = w("help_title", self.lang)
        yield box


class GameApp(App[None]):
    """The full-screen game. ``rematch`` makes the next game's setup (None: no rematch)."""

    CSS = """
    Screen { layout: vertical; }
    #top { height: auto; max-height: 2; background: $panel; padding: 0 1; }
    #main { height: 1fr; }
    #board { width: 1fr; padding: 0 0 0 1; }
    #board:focus { background: $boost; }
    #cards { layout: grid; grid-size: 3; grid-columns: 16; grid-rows: auto;
             grid-gutter: 0 1; height: auto; }
    CardBox { width: 16; height: auto; border: round $secondary; padding: 0;
              border-title-align: left; }
    CardBox.cursor { border: heavy $accent; }
    CardBox.changed { border: round $warning; }
    CardBox.cursor.changed { border: heavy $warning; }
    CardBox.target { border: round $success; }
    CardBox.selected { border: double $success; }
    #side { width: 26; padding: 0 0 0 1; }
    #seats { height: auto; }
    #extras { height: auto; }
    #moves-title { height: 1; text-style: bold underline; }
    #moves { height: 1fr; border: none; padding: 0; scrollbar-gutter: stable; }
    #status { height: auto; max-height: %d; padding: 0 1; }
    #actions { height: auto; padding: 0 1; }
    #cmd { height: 1; border: none; padding: 0 1; }
    #keys { height: 1; background: $panel; padding: 0 1; color: $text-muted; }
    """ % STATUS_LINES

    BINDINGS = [
        Binding("f1", "keys", show=False),
        # The terminal's interrupt key: Textual reads it as a key, not as SIGINT.
        Binding("ctrl+c", "interrupt", show=False, priority=True),
        Binding("f2", "hint", show=False),
        Binding("pageup", "review(-1)", show=False, priority=True),
        Binding("pagedown", "review(1)", show=False, priority=True),
        Binding("escape", "live", show=False),
        Binding("ctrl+q", "quit_game", show=False, priority=True),
    ]

    def __init__(self, setup: Setup, *, lang: str = "en", save_path: str | None = None,
                 autosave_dir: str | None = None, move_clock: float | None = None,
                 rematch: Callable[[], Setup] | None = None,
                 hint_iterations: int | None = None):
        super().__init__()
        self.lang_code = lang
        self.save_path = save_path
        self.autosave_dir = autosave_dir
        self.move_clock = move_clock
        self.rematch = rematch
        self.hint_iterations = hint_iterations
        self.notices: list[Notice] = []
        self.model = self._new_model(setup)
        self.generation = 0  # a new game or a take-back: late answers of workers are ignored
        self.thinking = False
        self.hinting = False
        self.review: int | None = None  # reviewing the position after this many moves
        self.replaying = False
        self.choices: list[str] = []
        self.selected = 0
        self.deadline: float | None = None  # the move clock's end for the person to move
        self.kept: str | None = None  # the finished game's record (--autosave)
        self.farewell = ""  # said when the program ends
        self._log_size = -1

    # ------------------------------------------------------------------ setup

    def _new_model(self, setup: Setup) -> _Model:
        model = _Model(setup, self.lang_code, self.notice, self.save_path, self.autosave_dir)
        if self.hint_iterations is not None:
            model.hint_iterations = self.hint_iterations
        return model

    @property
    def lang(self) -> str:
        return self.model.lang

    def compose(self) -> ComposeResult:
        yield Static(id="top")
        with Horizontal(id="main"):
            with Board(id="board"):
                yield Vertical(id="cards")
            with Vertical(id="side"):
                yield Spots(id="seats")
                yield Static(id="extras")
                yield Static(id="moves-title")
                yield OptionList(id="moves")
        yield Static(id="status")
        yield Spots(id="actions")
        yield CommandInput(id="cmd")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.title = "spaghetti"
        self.query_one("#board").focus()
        self.set_interval(0.5, self._tick)
        self._catch_sigint(True)
        if self.model.opponent is not None:  # the top line has room for its name only
            self.notice(t(f"ai.{self.model.opponent}", self.lang), "dim")
        self.fit()
        self.advance()

    def on_unmount(self) -> None:
        self._catch_sigint(False)

    def _catch_sigint(self, on: bool) -> None:
        """SIGINT from outside (``kill -INT``) leaves the game as Ctrl+C does, where the event
        loop can take signals (Unix, the main thread)."""
        try:
            loop = asyncio.get_running_loop()
            if on:
                loop.add_signal_handler(signal.SIGINT, self.action_interrupt)
            else:
                loop.remove_signal_handler(signal.SIGINT)
        except (NotImplementedError, RuntimeError, ValueError):
            pass

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """Lay the table out for the size of the window: the side panel's width, and as many
        cards in a row as fit (the rest wrap into further rows, which scroll)."""
        width = self.size.width
        side = 26 if width < 110 else min(80, width * 2 // 5)
        self.query_one("#side").styles.width = side
        board = max(CARD_WIDTH, width - side - 3)  # its padding and scroll bar
        columns = max(1, (board + CARD_GAP) // (CARD_WIDTH + CARD_GAP))
        cards = self.query_one("#cards")
        if cards.styles.grid_size_columns != columns:
            cards.styles.grid_size_columns = columns

    # ------------------------------------------------------------------ the game goes on

    def notice(self, text: str, style: str | None = None) -> None:
        self.notices.append(Notice(Text(text, style=style or "")))

    def _heard(self) -> None:
        """The person does something: the messages so far have been read."""
        self.notices.clear()

    def _position(self) -> tuple[int, int]:
        return self.generation, len(self.model.state.history)

    def advance(self) -> None:
        """Play what plays by itself (coin flips, forced moves), hand the computer's turn to a
        worker, or wait for a person; then redraw."""
        model = self.model
        while not self.thinking:
            state = model.state
            if state.is_over:
                self._finished()
                break
            if state.is_chance:
                model.play_option(state.sample_chance(model.chance), FORCED)
                continue
            mover = state.to_move
            assert mover is not None, "a seat decides unless the game is over or a coin flip"
            player = model.players[mover]
            if player is not None:
                self.thinking = True
                self._think(player, state.copy(), self.generation)
                break
            legal = state.legal()
            if len(legal) == 1:
                model.play_option(legal[0], FORCED)
                continue
            if self.move_clock and self.deadline is None:
                self.deadline = time.monotonic() + self.move_clock
            break
        if self.save_path:
            model._autosave()
        self.show()

    @work(thread=True, group="computer")
    def _think(self, player: Player, state: State, generation: int) -> None:
        option = player.choose(state)
        try:
            self.call_from_thread(self._computer_moved, option, generation)
        except RuntimeError:  # the app has closed meanwhile
            pass

    def _computer_moved(self, option: str, generation: int) -> None:
        if generation != self.generation:
            return
        self.thinking = False
        self.model.play_option(option, COMPUTER)
        self.advance()

    def _finished(self) -> None:
        self.deadline = None
        if self.autosave_dir and self.kept is None:
            try:
                self.kept = str(autosave_finished(self.model.state, self.autosave_dir))
                self.notice(t("saved", self.lang, file=self.kept), "green")
            except OSError as exc:
                self.kept = ""
                self.notice(t("save_failed", self.lang, err=exc), "bold red")

    def _tick(self) -> None:
        # (Not while the game's widgets are away: a tick may come as the app closes, or while
        # another screen is shown; the clock is read again at the next one.)
        if self.deadline is None or not self._is_mounted_ready():
            return
        state = self.model.state
        if state.is_over or self.thinking:
            self.deadline = None
            return
        left = self.deadline - time.monotonic()
        if left > 0:
            self._show_top()
            return
        option = self.model.chance.choice(state.legal())
        self.deadline = None
        self.notice(t("time_up", self.lang, option=option), "bold yellow")
        self.model.play_option(option, COMPUTER)
        self.advance()

    # ------------------------------------------------------------------ choosing

    def _human_to_move(self) -> bool:
        state = self.model.state
        return (not state.is_over and not self.thinking and state.to_move is not None
                and not state.is_chance and self.model.players[state.to_move] is None)

    def choose(self, option: str) -> None:
        """Play ``option`` (a legal option, or at the end: save, rematch, replay, quit)."""
        self._heard()
        state = self.model.state
        if state.is_over and option in END_OPTIONS:
            self._end_option(option)
            return
        if self.review is not None:
            self.notice(w("not_now", self.lang), "yellow")
            self.show()
            return
        if self.thinking:
            self.notice(w("wait", self.lang), "yellow")
            self.show()
            return
        if not self._human_to_move():
            self.notice(w("not_yours", self.lang), "yellow")
            self.show()
            return
        legal = state.legal()
        canonical = option
        try:
            canonical = N.to_string(N.parse(option))
        except Exception:
            pass
        if canonical not in legal:
            self.notice(w("bad", self.lang, text=option, legal=", ".join(legal)), "yellow")
            self.show()
            return
        self.deadline = None
        self.model.play_option(canonical, HUMAN)
        self.advance()

    def step_choice(self, delta: int) -> None:
        if not self.choices:
            return
        self.selected = (self.selected + delta) % len(self.choices)
        self.show()
        where = drawn_on_card(self.choices[self.selected])
        cards = list(self.query(CardBox))
        if where is not None and where[0] < len(cards):
            self.query_one("#board", Board).scroll_to_widget(cards[where[0]], animate=False)

    def play_selected(self) -> None:
        if self.choices:
            self.choose(self.choices[self.selected % len(self.choices)])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        box = self.query_one("#cmd", CommandInput)
        line = event.value.strip()
        box.remember(line)
        box.value = ""
        self.query_one("#board").focus()  # the arrow keys and Enter choose again
        if line:
            self.command(line)

    def command(self, line: str) -> None:
        """One typed line: an option in notation, an option's number, or a command."""
        self._heard()
        words = line.split()
        word = words[0].lower()
        state = self.model.state
        if word in ("quit", "exit", "q") and len(words) == 1:
            self.action_quit_game()
            return
        if word in ("help", "?") and len(words) == 1:
            self.action_keys()
            return
        if word == "hint" and len(words) == 1:
            self.action_hint()
            return
        if word == "undo" and len(words) == 1:
            self._undo()
            return
        if word == "save" and len(words) <= 2:
            self._save(words[1] if len(words) == 2 else None)
            return
        if word in ("rematch", "replay") and len(words) == 1 and state.is_over:
            self._end_option(word)
            return
        if word == "declare" and len(words) == 2:
            if self.thinking or self.review is not None:
                self.notice(w("wait" if self.thinking else "not_now", self.lang), "yellow")
            elif self.model.declare(words[1]) == "moved":
                self.advance()
                return
            self.show()
            return
        if line.isdigit() and self.choices:  # as in line mode: the options counted from 1
            number = N.whole_number(line)  # (None for "²" or thousands of digits)
            if number is None or not 1 <= number <= len(self.choices):
                self.notice(w("no_number", self.lang, n=line[:12], count=len(self.choices)),
                            "yellow")
                self.show()
                return
            line = self.choices[number - 1]
        self.choose(line)

    def _undo(self) -> None:
        if self.thinking:
            self.notice(w("wait", self.lang), "yellow")
        else:
            undone = self.model.undo()
            if undone:
                self.generation += 1
                self.review = None
                self.kept = None
                self.deadline = None
                self.notice(t("undone", self.lang, n=undone), "green")
                self.advance()
                return
            self.notice(t("nothing_to_undo", self.lang), "yellow")
        self.show()

    def _save(self, path: str | None) -> None:
        state = self.model.state
        try:
            target = path or str(autosave_path(state, "."))
            self.model.save(target)
        except OSError as exc:
            self.notice(t("save_failed", self.lang, err=exc), "bold red")
        else:
            self.notice(t("saved", self.lang, file=target), "green")
        self.show()

    def _end_option(self, option: str) -> None:
        if option == "save":
            self._save(None)
        elif option == "quit":
            self.action_quit_game()
        elif option == "replay":
            self.review = 0
            self.replaying = True
            self.set_timer(0.7, self._replay_step)
            self.show()
        elif option == "rematch":
            if self.rematch is None:
                self.notice(w("no_rematch", self.lang), "yellow")
                self.show()
                return
            self.start(self.rematch())

    def start(self, setup: Setup) -> None:
        """Begin a new game on the same screen."""
        self.generation += 1
        self.thinking = False
        self.review = None
        self.replaying = False
        self.kept = None
        self.deadline = None
        self.model = self._new_model(setup)
        self._log_size = -1
        self.advance()

    def _replay_step(self) -> None:
        if not self.replaying or self.review is None:
            return
        self.review += 1
        if self.review >= len(self.model.log):
            self.review = None
            self.replaying = False
        else:
            self.set_timer(0.7, self._replay_step)
        self.show()

    # ------------------------------------------------------------------ actions (keys)

    def action_keys(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.lang, self.model.opponent))

    def action_hint(self) -> None:
        self._heard()
        state = self.model.state
        if not self._human_to_move() or self.hinting:
            self.notice(w("wait" if self.thinking else "not_yours", self.lang), "yellow")
            self.show()
            return
        self.hinting = True
        self.notices.append(Notice(Text(t("hint_thinking", self.lang), style="dim"),
                                   self._position()))
        self.show()
        self._hint(state.copy(), self._position())

    @work(thread=True, group="hint")
    def _hint(self, state: State, at: tuple[int, int]) -> None:
        best, lines = hint_lines(state, self.lang, self.model.seed, self.model.hint_iterations)
        try:
            self.call_from_thread(self._hinted, best, lines, at)
        except RuntimeError:
            pass

    def _hinted(self, best: str, lines: list[tuple[str, str | None]],
                at: tuple[int, int]) -> None:
        self.hinting = False
        if at != self._position():
            return
        hint = Text("\n").join(Text(text, style=style or "") for text, style in lines)
        self.notices = [n for n in self.notices if n.at != at]  # "Looking for ..."
        self.notices.append(Notice(hint, at))
        if best in self.choices:  # the option recommended is the one marked on the board
            self.selected = self.choices.index(best)
        self.show()

    def action_review(self, delta: int) -> None:
        total = len(self.model.log)
        self.replaying = False
        current = total if self.review is None else self.review
        target = min(max(current + delta, 0), total)
        self.review = None if target == total else target
        self.show()

    def action_live(self) -> None:
        self.replaying = False
        if self.review is not None:
            self.review = None
            self.show()
        else:
            self.query_one("#board").focus()

    def action_quit_game(self) -> None:
        self._leave(0)

    def action_interrupt(self) -> None:
        self._leave(INTERRUPTED)

    def _leave(self, status: int) -> None:
        """Ctrl+Q, Ctrl+C, SIGINT or ``quit``: an unfinished game's record is kept, and where
        is said when the program ends."""
        self.farewell = "\n".join(text for text, _ in self.model.leaving())
        self.exit(return_code=status)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Only the person's own moves in the list (it has the focus): the list also moves when
        # the screen follows the game.
        if event.option_list.id != "moves" or not event.option_list.has_focus:
            return
        index = event.option_index
        total = len(self.model.log)
        self.replaying = False
        self.review = None if index + 1 >= total else index + 1
        self.show()

    # ------------------------------------------------------------------ drawing

    def shown(self) -> tuple[State, Changes | None, int | None]:
        """The state on screen (the game's, or a reviewed one), what the last move changed, and
        the number of the move described (1-based)."""
        model = self.model
        data = records.record_of(model.state)
        actions = data["actions"]
        if self.review is not None:
            k = self.review
            data["actions"] = actions[:max(k - 1, 0)]
            before = records.replay(data)
            if k == 0:
                return before, None, None
            after = before.copy()
            after.apply(actions[k - 1])
            return after, changes(before, actions[k - 1:k], self._mark), k
        if not actions:
            return model.state, None, None
        humans = [i for i, who in enumerate(model.who) if who == HUMAN]
        start = len(actions) - 1
        if humans and humans[-1] < len(actions) - 1:
            start = humans[-1] + 1
        elif not humans:
            start = max(0, len(actions) - 1)
            while start > 0 and model.who[start - 1] != HUMAN and \
                    len(actions) - start < 12:
                start -= 1
        data["actions"] = actions[:start]
        before = records.replay(data)
        return model.state, changes(before, actions[start:], self._mark), len(actions)

    def _mark(self, seat: int) -> str:
        return mark(seat, self.lang)

    def show(self) -> None:
        """Redraw everything from the state."""
        if not self._is_mounted_ready():
            return
        state, marks, described = self.shown()
        viewer = viewer_of(state, self.model.players)
        live = self.review is None
        if live and self._human_to_move():
            legal = state.legal()
            if legal != self.choices:
                self.choices = legal
                self.selected = first_harmless(state, legal)
        elif live and state.is_over:
            if self.choices != list(END_OPTIONS):
                self.choices = list(END_OPTIONS)
                self.selected = 0
        else:
            self.choices = []
        chosen = self.choices[self.selected] if self.choices else None
        self._show_top(state)
        self._show_cards(state, marks, viewer, chosen)
        self._show_seats(state, marks, chosen)
        self._show_extras(state, viewer)
        self._show_moves(described)
        self._show_status(state, marks, described, chosen)
        self._show_actions(state, chosen)
        box = self.query_one("#cmd", CommandInput)
        box.placeholder = w("placeholder", self.lang)
        box.suggester = SuggestFromList(
            [*self.choices, *COMMANDS] if live else list(COMMANDS), case_sensitive=False)
        self._show_keys()

    def _show_keys(self) -> None:
        typing = isinstance(self.focused, CommandInput)
        self.query_one("#keys", Static).update(w("keys_input" if typing else "keys", self.lang))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if self._is_mounted_ready():
            self._show_keys()

    def _is_mounted_ready(self) -> bool:
        try:
            self.query_one("#top")
        except Exception:
            return False
        return True

    def _show_top(self, state: State | None = None) -> None:
        if state is None:
            state = self.model.state if self.review is None else None
        if state is None:
            return
        lang = self.lang
        game = state.game
        parts = [t("level", lang, n=game.level), t("players_n", lang, n=game.players),
                 t(f"phase.{state.phase}", lang), t("move_no", lang, n=len(state.history))]
        if self.model.seed is not None:
            parts.insert(2, t("seed", lang, n=self.model.seed))
        if self.model.opponent is not None:
            parts.append(w(f"vs.{self.model.opponent}", lang))
        pieces = [Text(game.rules.title_ja if lang == "ja" else game.rules.title, style="bold"),
                  *(Text(part, style="dim") for part in parts)]
        if self.deadline is not None and self.review is None:
            left = max(0, round(self.deadline - time.monotonic()))
            pieces.append(Text(w("clock", lang, s=left),
                               style="bold yellow" if left > 10 else "bold red"))
        lines, _ = packed(pieces, self.size.width - 2, Text(" · ", style="dim"))
        self.query_one("#top", Static).update(Text("\n").join(lines))

    def _show_cards(self, state: State, marks: Changes | None, viewer, chosen: str | None) -> None:
        grid = self.query_one("#cards")
        boxes = list(self.query(CardBox))
        n = len(state.kinds)
        if len(boxes) > n:
            for box in boxes[n:]:
                box.remove()
            boxes = boxes[:n]
        new = [CardBox() for _ in range(n - len(boxes))]
        if new:
            grid.mount(*new)
            boxes += new
        legal = set(self.choices) if self.review is None else set()
        for i, box in enumerate(boxes):
            self._draw_card(box, state, i, marks, viewer, legal, chosen)

    def _draw_card(self, box: CardBox, state: State, i: int, marks: Changes | None, viewer,
                   legal: set[str], chosen: str | None) -> None:
        lang = self.lang
        inner = CARD_WIDTH - 2
        lines: list[Text] = []
        spots: list[tuple[int, int, int, str]] = []
        known = knows_card(state, viewer, i)
        kind = state.kinds[i]
        name = kind.display_name(lang) if known else "?"
        cursor = i == state.cursor and state.phase == "execution"
        for piece in chop_cells(name, inner):
            lines.append(Text(piece, style="bold reverse" if cursor else "bold"))
        changed = marks.of(state, i) if marks is not None else None
        # the numbers (parameters)
        line = Text()
        if not known:
            line.append(t("face_down", lang), style="dim")
        for p, (value, mod) in enumerate(zip(state.vals[i], state.mods[i])):
            if not known:
                break
            option = f"param {i}.{p}"
            chip = f"{{{value}}}" + (f"{mod:+d}" if mod else "")
            chip_style = "bold cyan" if mod == 0 else "bold magenta"
            if changed is not None and p in changed.params:
                chip_style = "bold yellow"
            if option in legal:
                chip_style += " underline"
            if option == chosen:
                chip_style += " reverse"
            if line.cell_len + cell_len(chip) > inner and line.cell_len:
                lines.append(line)
                line = Text()
            spots.append((len(lines), line.cell_len, line.cell_len + cell_len(chip), option))
            line.append(chip, style=chip_style)
        if line.cell_len or not known:
            lines.append(line)
        # the flags, head first
        owners, pending = state.owners(i), state.pending(i)
        turn = state.turn_flag
        acting = turn[1] if turn is not None and turn[0] == i else None
        arrived = marks.arrived_at(state, i) if marks is not None else set()
        line = Text()
        for k, (owner, waiting) in enumerate(zip(owners, pending)):
            option = f"flag {i}.{k}"
            suffix = "<" if k == acting else "+" if k in arrived else "*" if waiting else ""
            chip = mark(owner, lang) + suffix
            chip_style = style(owner)
            if k in arrived:
                chip_style += " on grey30"
            if option in legal:
                chip_style += " underline"
            if option == chosen or k == acting:
                chip_style += " reverse"
            need = cell_len(chip) + (1 if line.cell_len else 0)
            if line.cell_len and line.cell_len + need > inner:
                lines.append(line)
                line = Text()
            if line.cell_len:
                line.append(" ")
            spots.append((len(lines), line.cell_len, line.cell_len + cell_len(chip), option))
            line.append(chip, style=chip_style)
        if not owners:
            line.append("·", style="dim")
        lines.append(line)
        # what the last move did here
        if changed is not None:
            notes = [(text, seat) for text, seat in changed.notes]
            if changed.moved_from is not None:
                notes.insert(0, (f"⇄{changed.moved_from}", None))
            line = Text()
            for text, seat in notes:
                need = cell_len(text) + (1 if line.cell_len else 0)
                if line.cell_len and line.cell_len + need > inner:
                    lines.append(line)
                    line = Text()
                if line.cell_len:
                    line.append(" ")
                line.append(text, style=(style(seat) if seat is not None else "bold")
                            + " on grey23")
            if line.cell_len:
                lines.append(line)
        if state.running_card == i:
            lines.append(Text(t("running", lang), style="bold yellow"))
        content = Text("\n").join(lines)
        box.update(content)
        box.plain = content.plain
        box.spots = spots
        box.whole = card_option(state, sorted(legal), i)
        arrow = "→" if state.direction > 0 else "←"
        box.border_title = f"{i} ▲{arrow}" if cursor else str(i)
        box.set_class(cursor, "cursor")
        box.set_class(changed is not None and bool(changed.notes or changed.params
                                                   or changed.moved_from is not None), "changed")
        box.set_class(box.whole is not None, "target")
        box.set_class(box.whole is not None and box.whole == chosen, "selected")

    def _show_seats(self, state: State, marks: Changes | None, chosen: str | None) -> None:
        lang = self.lang
        lines: list[Text] = []
        spots = []
        legal = set(self.choices) if self.review is None else set()
        players = self.model.players
        for seat in range(state.players):
            option = f"player {seat}"
            line = Text()
            line.append("▶" if state.to_move == seat else " ", style="bold")
            who = f"{mark(seat, lang)} {colour(seat, lang)}" if lang != "ja" else \
                colour(seat, lang)
            who_style = style(seat)
            if option in legal:
                who_style += " underline"
            if option == chosen:
                who_style += " reverse"
            line.append(who, style=who_style)
            if players[seat] is not None:
                line.append(" " + w("cpu", lang), style="dim")
            elif any(p is not None for p in players):
                line.append(" " + w("you", lang), style="dim")
            line.append(f" ♥{state.lives[seat]}", style="red")
            delta = marks.lives.get(seat) if marks is not None else None
            if delta:
                line.append(f"({delta:+d})", style="bold yellow on grey23")
            line.append(f" ⚑{state.supply[seat]}", style="dim")
            if state.phase == "placement":
                line.append(f" ✋{state.hand[seat]}", style="dim")
            if state.winner == seat:
                line.append(" ★", style="bold green")
            elif not state.alive[seat]:
                line.append(" " + t("out", lang), style="dim")
            spots.append((seat, 0, 200, option))
            lines.append(line)
        seats = self.query_one("#seats", Spots)
        seats.update(Text("\n").join(lines))
        seats.spots = spots

    def _show_extras(self, state: State, viewer) -> None:
        parts: list[Text] = []
        if state.game.level >= 3 or state.chips != [0, 0]:
            parts.append(Text(t("chips", self.lang, inc=state.chips[0], dec=state.chips[1]),
                              style="dim"))
        parts.extend(expansions_text(state, self.lang, viewer))
        extras = self.query_one("#extras", Static)
        extras.update(Text("\n").join(parts))
        extras.display = bool(parts)

    def _show_moves(self, described: int | None) -> None:
        log = self.model.log
        moves = self.query_one("#moves", OptionList)
        self.query_one("#moves-title", Static).update(w("moves", self.lang))
        if len(log) != self._log_size:
            width = len(str(max(len(log), 1)))
            # Japanese has no spaces to break at but the one after the number: without it, a
            # long move folds by the cell and its number stays on its line.
            gap = "" if self.lang == "ja" else " "
            moves.set_options([f"{n:>{width}}.{gap}{line}" for n, line in enumerate(log, 1)])
            self._log_size = len(log)
        if described is not None and described <= moves.option_count:
            moves.highlighted = described - 1  # the move marked on the board
            if self.review is None:  # the newest move, whole, once its lines are laid out
                moves.call_after_refresh(moves.scroll_end, animate=False, immediate=True)
        elif described is None:
            moves.highlighted = None
            moves.scroll_home(animate=False)

    def _show_status(self, state: State, marks: Changes | None, described: int | None,
                     chosen: str | None) -> None:
        lang = self.lang
        parts: list[Text] = []
        total = len(self.model.log)
        if self.review is not None:
            if self.review == 0:
                parts.append(Text(w("review_start", lang, n=total), style="bold yellow"))
            else:
                parts.append(Text(w("review", lang, k=self.review, n=total),
                                  style="bold yellow"))
                parts.append(Text(f"{self.review}. {self.model.log[self.review - 1]}"))
        elif state.is_over:
            parts.append(result_line(state, lang))
            parts.append(Text(w("over", lang), style="bold"))
        elif self.thinking:
            mover = state.to_move
            parts.append(Text(t("thinking", lang, p=colour(mover or 0, lang)), style="dim"))
        else:
            parts.append(decision_line(state, lang))
            if chosen is not None:
                parts.append(Text(w("chosen", lang, n=self.selected + 1, option=chosen,
                                    label=option_label(state, chosen, lang)), style="cyan"))
        if marks is not None and marks.gone:
            names = ", ".join(f"{name} ({i})" for i, name in marks.gone)
            parts.append(Text(w("gone", lang, cards=names), style="yellow"))
        # A hint speaks of the position it was given for only.
        self.notices = [n for n in self.notices if n.at is None or n.at == self._position()]
        width = max(10, self.size.width - 2)
        shown = [n.text for n in self.notices]
        lines = Text("\n").join([*parts, *shown]).wrap(self.console, width)
        while len(lines) > STATUS_LINES and len(shown) > 1:  # the newest is the one to see
            shown.pop(0)
            lines = Text("\n").join([*parts, *shown]).wrap(self.console, width)
        self.query_one("#status", Static).update(Text("\n").join(lines[-STATUS_LINES:]))

    def _show_actions(self, state: State, chosen: str | None) -> None:
        """The options not drawn on a card or a player (pass, run, done, ...; at the end: save,
        rematch, replay, quit), as buttons."""
        chips: list[tuple[Text, str]] = []
        for n, option in enumerate(self.choices, 1):
            if drawn_on_card(option) is not None or option.startswith("player "):
                continue
            label = w(f"opt.{option}", self.lang) if option in END_OPTIONS else option
            chips.append((Text(f"[ {n}) {label} ]", style="bold" + (
                " reverse" if option == chosen else "")), option))
        actions = self.query_one("#actions", Spots)
        lines, places = packed([chip for chip, _ in chips], self.size.width - 2, Text(" "))
        actions.update(Text("\n").join(lines))
        actions.spots = [(*place, option) for place, (_, option) in zip(places, chips)]
        actions.display = bool(chips)


def run_app(setup: Setup, **kwargs) -> tuple[str, int]:
    """Play in full screen until the person leaves: what to say afterwards (or ""), and the
    exit status (:data:`~spaghetti.cli.play.INTERRUPTED` after Ctrl+C or SIGINT, else 0)."""
    app = GameApp(setup, **kwargs)
    app.run()
    return app.farewell, app.return_code or 0
