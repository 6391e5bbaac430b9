"""The ``spaghetti`` command line: every subcommand on real small games, bad inputs, and the
interactive ``play`` loop driven through standard input."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from rich.cells import cell_len

import spaghetti
from spaghetti import records
from spaghetti.ai import Player, RandomPlayer
from spaghetti.cli.main import cli
from spaghetti.i18n import colour, describe, lang_for, t

PROGRAM = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path, monkeypatch):
    """A folder of its own, and a user data folder of its own, where ``play`` keeps the record
    of a game left unfinished (``unfinished/``)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def kept_records(tmp_path) -> list:
    """The records ``play`` kept of unfinished games (none in the current folder)."""
    assert not list(tmp_path.glob("*.json"))
    return list((tmp_path / "data" / "spaghetti" / "unfinished").glob("*.json"))


def played_record(tmp_path, n: int = 12, seed: int = 4) -> tuple[str, spaghetti.State]:
    """A record file of a level-1 game after ``n`` random moves, and its state."""
    state = spaghetti.new_game(1, 2, program=PROGRAM)
    player = RandomPlayer(seed)
    for _ in range(n):
        state.apply(player.choose(state))
    path = tmp_path / "game.json"
    path.write_text(records.dumps(state), encoding="utf-8")
    return str(path), state


def assert_one_line_error(result) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("spaghetti: error: ")
    assert "Traceback" not in result.output + result.stderr


# ------------------------------------------------------------------------- new


def test_new_writes_a_record_with_the_program_written_out():
    result = run("new", "--seed", "5", "--level", "2", "--players", "3")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["program"] == spaghetti.Game(level=2, players=3).shuffled_program(5)
    assert data["actions"] == [] and data["players"] == 3 and data["level"] == 2


def test_new_with_program_and_option_to_file(tmp_path):
    out = tmp_path / "r.json"
    result = run("new", "--program", "bug, addflag,ForkBomb,MoveFlag,RemoveFlag",
                 "--option", "placement_order=snake", "-o", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["program"] == ["Bug", "AddFlag", "ForkBomb", "MoveFlag", "RemoveFlag"]
    assert data["options"]["placement_order"] == "snake"


# ------------------------------------------------------------------------- state, legal


def test_state_prints_the_view_after_the_actions(tmp_path):
    path, state = played_record(tmp_path)
    result = run("state", path)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == spaghetti.core.view.view(state)
    early = json.loads(run("state", path, "--upto", "3").stdout)
    assert early["moves"] == 3 and early["phase"] == "placement"


def test_state_reads_stdin():
    text = run("new", "--seed", "1").stdout
    result = run("state", "-", input=text)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["legal"] == [f"place {i}" for i in range(5)]


def test_legal_lists_the_options_one_a_line(tmp_path):
    path, state = played_record(tmp_path, n=20)
    result = run("legal", path)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == state.legal()


# ------------------------------------------------------------------------- replay


def test_replay_prints_numbered_moves_in_words_and_the_final_state(tmp_path):
    path, state = played_record(tmp_path, n=30)
    result = run("replay", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    first = spaghetti.new_game(1, 2, program=PROGRAM)
    assert lines[0] == " 1. " + describe(first, records.record_of(state)["actions"][0])
    assert lines[29].startswith("30. ")
    assert "Red placed a flag on" in result.stdout
    assert "ForkBomb" in result.stdout and "life" in result.stdout  # the rendered final state


def test_replay_json_and_japanese(tmp_path):
    path, state = played_record(tmp_path, n=10)
    result = run("replay", path, "--json")
    assert json.loads(result.stdout)["moves"] == 10
    ja = run("replay", path, "--lang", "ja")
    assert ja.exit_code == 0
    assert "赤が" in ja.stdout and "フラグを置いた" in ja.stdout


def test_replay_describes_a_move_flag_in_words():
    state = spaghetti.new_game(1, 2, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag"] * 1
                               + ["ForkBomb"])
    for option in ["place 1", "place 0", "place 2", "place 1", "place 3", "place 2", "place 4",
                   "place 3"]:
        state.apply(option)
    # Execution: card 0 (Bug) holds Blue's flag; pass it, then Red runs MoveFlag on card 1.
    while state.cursor != 1 or state.deciding != "turn" or state.to_move != 0:
        state.apply("pass")
    state.apply("run")
    state.apply("flag 0.0")
    assert describe(state, "to 2") == "Red ran MoveFlag: moved Blue's flag from Bug to AddFlag."
    assert describe(state, "to 2", "ja") == \
        "赤が「フラグ移動」を実行: 青のフラグを「バグ」から「フラグ追加」へ移動した。"


# ------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("args, input", [
    (["state", "/no/such/file.json"], None),
    (["state", "-"], "this is not json"),
    (["state", "-"], '{"format": "other"}'),
    (["legal", "-"], json.dumps({"format": "spaghetti-record/1", "variant": "spaghetti-code",
                                 "level": 1, "players": 2, "program": ["Nope"] * 5})),
    (["replay", "-"], json.dumps({"format": "spaghetti-record/1", "variant": "spaghetti-code",
                                  "level": 1, "players": 2, "seed": 1,
                                  "actions": ["place 0", "place 9"]})),
    (["state", "-", "--upto", "5"], json.dumps({"format": "spaghetti-record/1",
                                                "variant": "spaghetti-code", "level": 1,
                                                "players": 2, "seed": 1, "actions": []})),
    (["new", "--option", "stalemate=sometimes"], None),
    (["new", "--option", "stalemate"], None),
    (["new", "--program", "AddFlag,Bug"], None),
    (["new", "--program", "AddFlag,Bug,Spaghetti,Bug,Bug"], None),
    (["new", "--seed", "1", "--program", "Bug,Bug,Bug,Bug,Bug"], None),
    (["play", "--program", "Reverse,Bug,Bug,Bug,Bug"], ""),
    (["play", "--vs", "random", "--seat", "4"], ""),
    (["play", "--load", "/no/such/record.json"], ""),
    (["play", "--load", "-"], "{}"),
])
def test_bad_input_is_one_line_and_status_2(args, input):
    assert_one_line_error(run(*args, input=input))


def test_illegal_action_error_names_its_position():
    text = json.dumps({"format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1,
                       "players": 2, "seed": 1, "actions": ["place 0", "place 9"]})
    result = run("legal", "-", input=text)
    assert_one_line_error(result)
    assert "actions[1]" in result.stderr


def test_not_utf8_is_a_clean_error():
    assert_one_line_error(run("state", "-", input=b"\xff\xfe\x00garbage"))


def test_help_has_examples_for_every_command():
    for command in ["play", "replay", "state", "legal", "new"]:
        result = run(command, "--help")
        assert result.exit_code == 0
        assert "Examples:" in result.stdout and f"spaghetti {command}" in result.stdout


# ------------------------------------------------------------------------- play


def test_play_full_game_against_random_always_answering_1(tmp_path):
    save = tmp_path / "saved.json"
    result = run("play", "--vs", "random", "--seed", "3", "--save", str(save),
                 input="1\n" * 500)
    assert result.exit_code == 0, result.output
    assert "wins" in result.stdout
    final = records.loads(save.read_text())
    assert final.is_over and final.winner is not None
    assert final.reason in ("elimination", "stalemate")
    assert "unfinished" not in result.stdout


def test_play_eof_leaves_the_game_unfinished_with_status_0_and_keeps_its_record(tmp_path):
    result = run("play", "--vs", "random", "--seed", "3", input="1\n1\n")
    assert result.exit_code == 0
    assert "Game left unfinished after 4 moves." in result.stdout
    assert "Traceback" not in result.output
    [kept] = kept_records(tmp_path)
    assert kept.name.endswith("-spaghetti-code-L1-2p.json")
    assert f"Its record is in {kept}: go on with 'spaghetti play --load {kept}'." \
        in result.stdout.replace("\n", "")
    assert len(records.loads(kept.read_text()).history) == 4


def test_play_quit_keeps_the_unfinished_game_in_the_save_file_and_says_so(tmp_path):
    save = tmp_path / "mine.json"
    result = run("play", "--seed", "2", "--save", str(save), input="1\nquit\n")
    assert result.exit_code == 0
    assert f"Its record is in {save}" in result.stdout.replace("\n", "")
    assert len(records.loads(save.read_text()).history) == 1
    assert list(tmp_path.glob("2*.json")) == []  # no second copy


def _sigint_as_a_shell_leaves_it() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_play_interrupted_by_sigint_keeps_the_record_and_exits_130(tmp_path):
    """Ctrl+C in line mode (SIGINT) while the person thinks: the record is kept, the file named,
    and the status is the shell's for an interrupt."""
    game = subprocess.Popen([sys.executable, "-m", "spaghetti", "play", "--vs", "random",
                             "--seed", "3", "--plain"], cwd=tmp_path, text=True,
                            env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            # (as a shell starts it: a runner started in the background
                            # without job control ignores SIGINT, and its children with it)
                            preexec_fn=_sigint_as_a_shell_leaves_it)
    assert game.stdin is not None and game.stdout is not None
    game.stdin.write("1\n")
    game.stdin.flush()
    seen = ""
    while seen.count("Red > ") < 2:  # asked for the second move: the first is played
        char = game.stdout.read(1)
        assert char, seen
        seen += char
    game.send_signal(signal.SIGINT)
    # (Its stdin stays open until it has ended: closed at once, as communicate() closes it, the
    # game could read the end of its input before the signal arrived, and quit with 0.)
    game.wait(timeout=60)
    out, err = game.communicate(timeout=60)
    assert game.returncode == 130, err
    assert "Traceback" not in err
    [kept] = kept_records(tmp_path)
    assert "Game left unfinished after 2 moves." in out
    assert kept.name in out.replace("\n", "")
    assert len(records.loads(kept.read_text()).history) == 2


def test_play_human_vs_human_uses_both_colours_and_notation():
    result = run("play", "--seed", "2", "--program", ",".join(PROGRAM),
                 input="place 3\nplace 3\nquit\n")
    assert result.exit_code == 0
    assert "Red placed a flag on Bug." in result.stdout
    assert "Blue placed a flag on Bug." in result.stdout
    assert "unfinished after 2 moves" in result.stdout


def test_play_undo_takes_back_the_human_and_computer_moves(tmp_path):
    save = tmp_path / "u.json"
    result = run("play", "--vs", "random", "--seed", "3", "--save", str(save),
                 input="1\n1\nundo\nsave " + str(save) + "\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Took back 2 move(s)." in result.stdout
    data = json.loads(save.read_text())
    assert len(data["actions"]) == 2  # Red's first placement and Blue's reply stay


def test_play_undo_with_nothing_to_undo():
    result = run("play", "--vs", "random", "--seed", "3", input="undo\n")
    assert "There is no move of yours to take back." in result.stdout


def test_play_save_command_writes_a_record_state_can_read(tmp_path):
    save = tmp_path / "mid.json"
    result = run("play", "--vs", "random", "--seed", "8", input="2\n1\n3\nsave " + str(save) + "\n")
    assert result.exit_code == 0
    assert f"Saved the record to {save}." in result.stdout
    view = json.loads(run("state", str(save)).stdout)
    assert view["moves"] == 6 and view["phase"] == "placement"


def test_play_load_continues_a_saved_game(tmp_path):
    path, state = played_record(tmp_path, n=9)
    result = run("play", "--load", path, "--vs", "random", "--seed", "1",
                 input="1\n" * 400)
    assert result.exit_code == 0
    assert "wins" in result.stdout
    # The first screen is the loaded position, its last moves in words.
    first_screen = result.stdout.split("Red > ")[0]
    assert "seed" not in first_screen.splitlines()[0]  # the program came from the record
    before_last = spaghetti.new_game(1, 2, program=PROGRAM)
    actions = records.record_of(state)["actions"]
    for option in actions[:-1]:
        before_last.apply(option)
    assert describe(before_last, actions[-1]) in first_screen


def test_play_bad_input_is_explained_and_asked_again():
    result = run("play", "--vs", "random", "--seed", "3", input="banana\n42\nflag 9.9\nhelp\n1\n")
    assert result.exit_code == 0
    assert result.stdout.count("Not an option here") == 3
    assert "save FILE" in result.stdout
    assert "unfinished after 2 moves" in result.stdout


def test_play_in_japanese():
    result = run("play", "--vs", "random", "--seed", "3", "--lang", "ja", input="1\n")
    assert result.exit_code == 0
    assert "スパゲッティコード" in result.stdout
    assert "赤が「フラグ追加」にフラグを置いた。" in result.stdout  # seed 3: card 0 is AddFlag
    assert "配置フェーズ" in result.stdout
    assert "ゲームは2手で未完了のまま終了しました。" in result.stdout


def test_play_level_3_shows_chip_supply():
    result = run("play", "--level", "3", "--vs", "random", "--seed", "1", input="")
    assert "Chip supply: Increment 5 · Decrement 5" in result.stdout


@pytest.mark.parametrize("setup", [("nightmare", 1, 5), ("spaghetti-code", 3, 5),
                                   ("spaghetti-code", 3, 2), ("spaghetti-monsters", 3, 5)],
                         ids=lambda s: f"{s[0]}-L{s[1]}-{s[2]}p")
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_line_mode_at_80_columns_keeps_every_table_heading_on_one_line(monkeypatch, setup, lang):
    variant, level, players = setup
    monkeypatch.setenv("COLUMNS", "80")
    result = run("play", "--plain", "--game", variant, "--level", str(level), "--players",
                 str(players), "--vs", "random", "--seed", "3", "--lang", lang, input="1\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    # (but the line naming the unfinished game's record: a path is as long as it is)
    assert max(cell_len(line) for line in lines if "--load" not in line) <= 80
    words = lang_for(lang, spaghetti.Game(level=level, players=players, variant=variant)
                     .new_state(None, 3))
    headings = [t(f"col.{name}", words) for name in
                ("player", "life", "on_cards", "supply", "hand", "removed")]
    row = re.compile(r"\s+".join(map(re.escape, headings)))
    assert sum(bool(row.search(line)) for line in lines) == 2  # before and after Red's move
    to_move = [line for line in lines if line.startswith("▶") and "♥" in line]  # its row
    assert len(to_move) == 2
    assert all(colour(0, lang) in line and line.endswith(t("to_move_mark", words))
               for line in to_move)
    assert "…" not in "".join(line for line in lines if row.search(line))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_line_mode_help_fits_80_columns_and_does_not_call_a_proven_hint_a_search(lang):
    result = run("play", "--vs", "random", "--seed", "3", "--lang", lang, input="help\n")
    assert result.exit_code == 0, result.output
    help_text = t("help", lang)
    assert help_text in result.stdout
    assert max(cell_len(line) for line in help_text.splitlines()) <= 80
    hint = help_text[help_text.index("hint"):help_text.index("declare")]
    assert "MCTS" not in hint
    words = ("proof", "search") if lang == "en" else ("証明", "探索")
    assert all(word in hint for word in words)  # both kinds of evidence are named


@pytest.mark.parametrize("args, line", [
    (["new", "--program", "AddFlag"], "the program has 1 card; level 1 needs at least 4, one "
                                      "for each flag a player places"),
    (["new", "--program", "AddFlag,Bug"], "the program has 2 cards; level 1 needs at least 4, "
                                          "one for each flag a player places"),
    (["new", "--game", "nightmare", "--level", "2"], "Nightmare has only level 1, not 2"),
    (["play", "--game", "pasta-logic", "--level", "3"], "Pasta Logic has only level 1, not 3"),
])
def test_setup_errors_count_cards_and_levels_in_plain_words(args, line):
    result = run(*args, input="")
    assert_one_line_error(result)
    assert result.stderr == f"spaghetti: error: {line}\n"


def test_a_count_of_one_is_singular(tmp_path):
    from spaghetti.lab.puzzles import BUILT_IN

    record = tmp_path / "game.json"
    state = spaghetti.new_game(1, 2, program=PROGRAM)
    state.apply("place 0")
    record.write_text(records.dumps(state), encoding="utf-8")
    result = run("state", str(record), "--upto", "5")
    assert_one_line_error(result)
    assert result.stderr == "spaghetti: error: --upto 5: the record has only 1 action\n"
    one = tmp_path / "one.jsonl"
    one.write_text(BUILT_IN.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    result = run("puzzle", "--file", str(one), "--number", "2")
    assert_one_line_error(result)
    assert result.stderr == "spaghetti: error: --number: the set has 1 puzzle\n"
    result = run("arena", "--players", "random,random", "--games", "1")
    assert result.exit_code == 0 and "1 game, level 1, 2 seats, seeds 0 to 0" in result.stdout


# ------------------------------------------------------------------------- pieces


def test_random_player_is_a_player_and_reproducible():
    state = spaghetti.new_game(2, 3, seed=9)
    assert isinstance(RandomPlayer(1), Player)
    a, b = RandomPlayer(7), RandomPlayer(7)
    s1, s2 = state.copy(), state.copy()
    for _ in range(40):
        o1, o2 = a.choose(s1), b.choose(s2)
        assert o1 == o2 and o1 in s1.legal()
        s1.apply(o1)
        s2.apply(o2)


def test_python_dash_m_runs_the_command(tmp_path):
    out = tmp_path / "n.json"
    done = subprocess.run([sys.executable, "-m", "spaghetti", "new", "--seed", "2", "-o", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    legal = subprocess.run([sys.executable, "-m", "spaghetti", "legal", str(out)],
                           capture_output=True, text=True, timeout=60)
    assert legal.stdout.split("\n")[0] == "place 0"
    bad = subprocess.run([sys.executable, "-m", "spaghetti", "legal", str(tmp_path / "none")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.startswith("spaghetti: error: ") and "Traceback" not in bad.stderr


@pytest.mark.parametrize("level, players, seed", [(2, 3, 1), (3, 2, 2), (3, 5, 3)])
def test_replay_words_for_whole_random_games_in_both_languages(tmp_path, level, players, seed):
    state = spaghetti.new_game(level, players, seed=seed)
    player = RandomPlayer(seed)
    while not state.is_over:
        state.apply(player.choose(state))
    path = tmp_path / "full.json"
    path.write_text(records.dumps(state), encoding="utf-8")
    for lang, winner_word in (("en", "wins"), ("ja", "の勝ち")):
        result = run("replay", str(path), "--lang", lang)
        assert result.exit_code == 0, result.output
        numbered = [line for line in result.stdout.splitlines() if re.match(r"\s*\d+\. ", line)]
        assert len(numbered) == len(state.history)
        assert winner_word in numbered[-1]  # the last move ends the game and says so


def test_play_manual_stalemate_offers_declare_with_the_tiebreak_winner():
    result = run("play", "--vs", "random", "--seed", "2", "--option", "stalemate=manual",
                 input="1\n" * 400)
    assert result.exit_code == 0
    assert "This position has occurred before: you may declare a stalemate." in result.stdout
    assert re.search(r"declare +declare a stalemate \((Red|Blue) would win\)", result.stdout)


def test_play_manual_stalemate_another_human_declares_with_declare_seat(tmp_path):
    """C9 manual, two people at the keyboard: at a repeat, Blue declares while Red is to move;
    before the repeat a declaration is refused with the reason and changes nothing."""
    save = tmp_path / "declared.json"
    placements = ["place 0", "place 1", "place 1", "place 2", "place 2", "place 3", "place 3",
                  "place 4"]
    lines = placements + ["pass"] * 7 + ["declare 0", "pass", "declare 7", "declare 1"]
    result = run("play", "--program", ",".join(PROGRAM), "--option", "stalemate=manual",
                 "--save", str(save), input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Red cannot declare now: the position is not a repeat (C9)." in out
    assert ("The position repeats: any player may type 'declare <seat>' "
            "(Red: declare 0, Blue: declare 1).") in out
    assert "Type 'declare' (the player to move) or 'declare <seat>'" in out
    assert "Blue declared a stalemate." in out
    assert "Blue wins by the stalemate tie-break" in out
    final = records.loads(save.read_text())
    assert final.is_over and final.reason == "stalemate" and final.winner == 1
    assert len(final.history) == len(placements) + 8 + 1 and final.history[-1] == \
        spaghetti.core.notation.DECLARE


def test_a_long_run_without_a_terminal_tells_its_progress_in_lines_each_tenth(capsys):
    """Under ``nohup`` or into a log the bar is not drawn: a line at each tenth, with the time
    left, stands for it (and nothing where the bar shows)."""
    from spaghetti.cli.common import progress_lines

    tell = progress_lines("games", terminal=False)
    for done in range(1, 41):
        tell(done, 40)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10 and lines[0].startswith("games: 4 of 40 (10 %), ")
    assert lines[-1].startswith("games: 40 of 40 (100 %)") and lines[-1].endswith("about 0 s left")
    on_a_terminal = progress_lines("games", terminal=True)
    for done in range(1, 41):
        on_a_terminal(done, 40)
    assert capsys.readouterr().err == ""


def test_a_resumed_run_reckons_the_time_left_from_its_own_pace(capsys, monkeypatch):
    """A run that goes on from 16 saved games of 40 does not divide by the games played
    before: it says so, then the time left from this sitting's games alone."""
    from spaghetti.cli import common

    clock = iter([100.0, 160.0])  # started; 60 s later, 8 more games played
    monkeypatch.setattr(common.time, "monotonic", lambda: next(clock))
    tell = common.progress_lines("games", terminal=False, done_before=16)
    tell(16, 40)
    tell(24, 40)
    first, second = capsys.readouterr().err.splitlines()
    assert first == "games: 16 of 40 (40 %) played before; going on"
    # 8 games in 60 s, 16 left: about 2 min (not 60 s * 16 / 24, 40 s)
    assert second == "games: 24 of 40 (60 %), 60 s so far, about 2 min left"
