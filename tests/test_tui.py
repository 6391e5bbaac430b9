"""The full-screen terminal game (``spaghetti play`` on a terminal), driven headless with
Textual's pilot: whole games against the computer at 80x24 and 200x60 in English and Japanese,
with the screen compared to the snapshots in tests/snapshots/ (set SPAGHETTI_SNAPSHOTS=update
to write them anew), and each way of choosing, reviewing, hints and the end of a game."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

import spaghetti
from textual.widgets import Static
from spaghetti import records
from spaghetti.ai import RandomPlayer
from spaghetti.cli.changes import changes
from spaghetti.cli.main import cli
from spaghetti.cli.tui import Board, CardBox, CommandInput, GameApp, Setup
from spaghetti.i18n import mark

SNAPSHOTS = Path(__file__).parent / "snapshots"
PROGRAM = ["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"]


def screen_text(app: GameApp) -> str:
    """The screen as plain text, line by line (what a person reads)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def check_snapshot(name: str, text: str) -> None:
    text = re.sub(r"\d{8}-\d{6}", "YYYYMMDD-HHMMSS", text)  # the name of a kept record
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("SPAGHETTI_SNAPSHOTS") == "update" or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert text + "\n" == path.read_text(encoding="utf-8"), f"screen differs from {path}"


async def settle(pilot, app: GameApp) -> None:
    """Wait until no computer is thinking and no hint is being searched."""
    for _ in range(2000):
        await pilot.pause()
        if not app.thinking and not app.hinting:
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the computer never answered")


def new_app(lang: str = "en", seed: int = 3, **kwargs) -> GameApp:
    state = spaghetti.new_game(1, 2, seed=seed)
    return GameApp(Setup(state, [None, RandomPlayer(seed)], seed), lang=lang, **kwargs)


# ------------------------------------------------------------------ whole games


@pytest.mark.slow
@pytest.mark.parametrize("size,lang", [((80, 24), "en"), ((200, 60), "ja"),
                                       ((80, 24), "ja"), ((200, 60), "en")])
def test_a_whole_game_against_the_computer(size, lang, tmp_path, monkeypatch):
    """Every way of choosing in turn (Enter on the marked option, arrow keys, a typed option,
    a card's number, a click), to the end; then the record is kept and saved, the end screen is
    the snapshot, replay and rematch work."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kept").mkdir()  # `play --autosave` makes it before the game
    app = new_app(lang, autosave_dir="kept")

    async def play() -> int:
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            turn = 0
            while not app.model.state.is_over:
                state = app.model.state
                legal = state.legal()
                before = len(state.history)
                way = turn % 4
                if way == 0:  # Enter on the option marked (the first)
                    app.query_one(Board).focus()
                    await pilot.press("enter")
                    expected = legal[0]
                elif way == 1:  # arrow keys to the last option, then Enter
                    app.query_one(Board).focus()
                    await pilot.press("left", "enter")
                    expected = legal[-1]
                elif way == 2:  # typed in notation
                    expected = legal[len(legal) // 2]
                    if turn < 8:  # key by key: typing on the board goes to the input line
                        app.query_one(Board).focus()
                        await pilot.press(*expected)
                    else:
                        app.query_one(CommandInput).focus()
                        app.query_one(CommandInput).value = expected
                    await pilot.press("enter")
                else:  # a card's number or a click on the card, where the option is a card
                    words = legal[-1].split()
                    expected = legal[-1]
                    if words[0] in ("place", "card", "to", "at") and turn % 8 == 3:
                        box = list(app.query(CardBox))[int(words[1])]
                        await pilot.click(box, offset=(8, 1))
                    elif words[0] in ("place", "card", "to", "at"):
                        await pilot.press(*words[1], "enter")
                    else:
                        app.command(expected)
                await settle(pilot, app)
                history = records.record_of(app.model.state)["actions"]
                assert history[before:before + 1] == [expected], (turn, way, legal, app.notices)
                turn += 1
            final = app.model.state
            assert final.winner is not None
            text = screen_text(app)
            check_snapshot(f"game-{size[0]}x{size[1]}-{lang}", text)
            # the end: the result, and the four things to do
            assert ("wins" in text) if lang == "en" else ("の勝ち" in text)
            for word in (("save", "rematch", "replay", "quit") if lang == "en"
                         else ("保存", "再戦", "再生", "終了")):
                assert word in text
            kept = list((tmp_path / "kept").iterdir())
            assert len(kept) == 1
            assert records.loads(kept[0].read_text()).history == final.history
            saved = tmp_path / "saved.json"
            app.command(f"save {saved}")
            assert records.loads(saved.read_text()).history == final.history
            # replay from the start, then a rematch: a new game on the same screen
            app.choose("replay")
            assert app.review == 0
            app.action_live()
            await pilot.press("ctrl+q")
        return turn

    assert asyncio.run(play()) > 5


def test_nightmare_five_players_fits_80x24_and_every_card_can_be_seen():
    """18 cards and 5 players: the cards wrap three to a row and scroll; every card's whole
    name is on it; moving to an option scrolls its card into view."""
    state = spaghetti.Game(level=1, players=5, variant="nightmare").new_state(None, 2)
    app = GameApp(Setup(state, [None] + [RandomPlayer(s) for s in range(1, 5)], 2))

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            boxes = list(app.query(CardBox))
            assert len(boxes) == 18
            board = app.query_one(Board)
            assert board.virtual_size.height > board.size.height  # it scrolls
            for i, box in enumerate(boxes):
                assert state.kinds[i].display_name("en") in box.plain.replace("\n", "")
                assert box.border_title.split()[0] == str(i)  # the number is its position
            assert len({box.region.x for box in boxes}) == 3
            text = screen_text(app)
            for seat in range(5):
                assert f"{mark(seat)} " in text  # every player is on the screen
            # the last card's option: moving to it scrolls it into view
            app.query_one(Board).focus()
            await pilot.press("left")
            await pilot.pause()
            assert app.choices[app.selected] == "place 17"
            assert board.scroll_offset.y > 0
            last = boxes[17].region
            assert board.region.contains_region(last) or board.region.overlaps(last)

    asyncio.run(play())


def test_resizing_rearranges_the_cards():
    app = new_app()

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            rows = {box.region.y for box in app.query(CardBox)}
            assert len(rows) == 2  # 3 + 2
            await pilot.resize_terminal(200, 60)
            await pilot.pause()
            assert len({box.region.y for box in app.query(CardBox)}) == 1

    asyncio.run(play())


def test_the_top_line_describes_the_computers_difficulty():
    state = spaghetti.new_game(1, 2, seed=3)
    app = GameApp(Setup(state, [None, RandomPlayer(3)], 3, "normal"), lang="ja")

    async def play() -> str:
        async with app.run_test(size=(200, 40)) as pilot:
            await settle(pilot, app)
            return str(app.query_one("#top", Static).render())

    assert "ふつう: 相手の応手も読む" in asyncio.run(play())


# ------------------------------------------------------------------ choosing, reviewing, hints


def test_typing_completes_and_remembers():
    app = new_app()

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            box = app.query_one(CommandInput)
            box.focus()
            await pilot.press("p", "l", "tab")
            assert box.value == "place 0"  # completed over the legal options
            await pilot.press("backspace", "3", "enter")
            await settle(pilot, app)
            assert records.record_of(app.model.state)["actions"][0] == "place 3"
            await pilot.press("up")
            assert box.value == "place 3"  # the history
            box.value = ""
            await pilot.press(*"flag 9.9", "enter")
            assert "Not an option here" in screen_text(app)

    asyncio.run(play())


@pytest.mark.slow
def test_stepping_back_reviews_without_changing_the_game():
    app = new_app()

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for _ in range(4):
                await pilot.press("enter")
                await settle(pilot, app)
            moves = len(app.model.state.history)
            await pilot.press("pageup", "pageup")
            assert app.review == moves - 2
            state, _, described = app.shown()
            assert len(state.history) == moves - 2 and described == moves - 2
            assert "Reviewing move" in screen_text(app)
            await pilot.press("enter")  # no choosing while reviewing
            assert len(app.model.state.history) == moves
            await pilot.press("escape")
            assert app.review is None
            await pilot.press("enter")
            await settle(pilot, app)
            assert len(app.model.state.history) > moves

    asyncio.run(play())


def test_hint_says_its_evidence_and_marks_the_option_it_recommends():
    app = new_app(hint_iterations=60)

    async def play() -> None:
        async with app.run_test(size=(200, 60)) as pilot:
            await settle(pilot, app)
            await pilot.press("f2")
            await settle(pilot, app)
            text = screen_text(app)
            line = next(line for line in text.splitlines() if "Hint: " in line)
            option = line.split("Hint: ")[1].split("  (")[0]
            # The evidence: a proof (the solver's time budget found one), or MCTS with its
            # visits and win rate; never both, never neither.
            proven = "proven by the exact solver" in line
            assert proven != ("visits" in line and "win chance" in line), line
            assert app.choices[app.selected] == option  # the one recommended is marked

    asyncio.run(play())


def test_undo_takes_back_the_person_and_the_computer():
    app = new_app()

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("enter")
            await settle(pilot, app)
            assert len(app.model.state.history) == 2
            app.command("undo")
            await settle(pilot, app)
            assert len(app.model.state.history) == 0

    asyncio.run(play())


# ------------------------------------------------------------------ the last move


def test_the_last_move_marks_which_flag_moved_where():
    """The worked example of docs/notation.md: A moves B's head flag of RemoveFlag (card 3) to
    the tail of Bug (card 0); then B's AddFlag adds a flag to ForkBomb; A removes one."""
    state = spaghetti.new_game(1, 2, program=PROGRAM)
    actions = ("place 0, place 3, place 4, place 0, place 1, place 2, place 3, place 4, run, "
               "player 1, run, player 0, run").split(", ")
    for option in actions:
        state.apply(option)
    moved = changes(state, ["flag 3.0", "to 0"], mark)
    after = state.copy()
    after.apply("flag 3.0")
    after.apply("to 0")
    assert moved.of(after, 0).notes == [("+B←3", 1)]
    assert moved.of(after, 3).notes == [("B→0", 1)]
    assert moved.arrived_at(after, 0) == {2}  # Bug [A, B, B]: the last one came
    added = changes(after, ["run", "card 4"], mark)
    later = after.copy()
    later.apply("run")
    later.apply("card 4")
    assert added.arrived_at(later, 4) == {2} and added.of(later, 4).notes == []
    removed = changes(later, ["run", "flag 4.1"], mark)
    assert removed.cards[later.uids[4]].notes == [("−B", 1)]
    bug = changes(spaghetti.new_game(1, 2, program=PROGRAM), [], mark)
    assert bug.lives == {}


# ------------------------------------------------------------------ the command


def test_play_help_says_how_to_get_line_mode():
    result = CliRunner().invoke(cli, ["play", "--help"])
    assert "--plain" in result.output and "Line mode" in result.output
    assert "--autosave" in result.output


def test_line_mode_autosave_keeps_the_finished_game(tmp_path):
    result = CliRunner().invoke(cli, ["play", "--vs", "random", "--seed", "3", "--plain",
                                      "--autosave", str(tmp_path / "games")],
                                input="1\n" * 500)
    assert result.exit_code == 0, result.output
    kept = list((tmp_path / "games").iterdir())
    assert len(kept) == 1 and str(kept[0]) in result.stdout.replace("\n", "")
    assert records.loads(kept[0].read_text()).is_over
    assert json.loads(kept[0].read_text())["format"] == "spaghetti-record/1"


def test_the_move_clock_counts_down_and_plays_for_a_person_out_of_time():
    app = new_app(move_clock=0.6)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert "⏱" in screen_text(app)
            for _ in range(100):
                await asyncio.sleep(0.02)
                await pilot.pause()
                if app.model.state.history:
                    break
            await settle(pilot, app)
            assert app.model.who[0] == "computer"  # played for Red at random
            assert "Time ran out" in screen_text(app)

    asyncio.run(play())


@pytest.mark.slow
def test_rematch_starts_a_new_game_on_the_same_screen():
    """Computers on every seat play to the end; then a rematch deals the next game."""
    state = spaghetti.new_game(1, 2, seed=5)
    dealt = []

    def rematch() -> Setup:
        dealt.append(True)
        return Setup(spaghetti.new_game(1, 2, seed=6), [RandomPlayer(1), RandomPlayer(2)], 6)

    app = GameApp(Setup(state, [RandomPlayer(3), RandomPlayer(4)], 5), rematch=rematch)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert app.model.state.is_over
            assert app.choices == ["save", "rematch", "replay", "quit"]
            app.choose("rematch")
            assert dealt and app.model.seed == 6 and "seed 6" in screen_text(app)
            await settle(pilot, app)
            assert app.model.state.is_over  # the computers played it through too

    asyncio.run(play())
