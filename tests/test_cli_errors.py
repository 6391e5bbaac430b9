"""Every bad input to the ``spaghetti`` command is one clear line and exit status 2, never a
traceback: records nested thousands deep, numbers of thousands of digits, a search table larger
than the machine's memory, usage errors, flags that conflict with ``play --load``, and a
``solve-level1`` run with nothing to do."""

from __future__ import annotations

import gc
import json
import os
import pathlib
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner

import spaghetti
from spaghetti import records
from spaghetti.ai import RandomPlayer
from spaghetti.cli.main import cli
from spaghetti.errors import RecordError, SetupError

PROGRAM = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def one_line_error(result) -> str:
    """The single error line of a failed command (after checking there is just that one)."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("spaghetti: error: "), lines[0]
    return lines[0]


def record_text(**fields) -> str:
    return json.dumps({"format": "spaghetti-record/1", "variant": "spaghetti-code", "level": 1,
                       "players": 2, "program": PROGRAM, "actions": [], **fields})


# ------------------------------------------------------------------ deeply nested records

DEEP_LIST = "[" * 5000 + "]" * 5000  # deeper than the JSON decoder goes
DEEP_OBJECT = '{"a":' * 3000 + "1" + "}" * 3000
# Decodable, but a field's value nested 900 deep (an error message quoting it would not end).
DEEP_FIELD = record_text()[:-1] + ', "meta": ' + '{"a":' * 900 + "1" + "}" * 900 + "}"

RECORD_COMMANDS = [["replay"], ["state"], ["legal"], ["export", "--seat", "0"], ["solve"],
                   ["play", "--load"]]


@pytest.mark.parametrize("text", [DEEP_LIST, DEEP_OBJECT, DEEP_FIELD],
                         ids=["list", "object", "field"])
@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=lambda c: c[0])
def test_a_deeply_nested_record_is_one_line_in_every_command(tmp_path, command, text):
    path = tmp_path / "deep.json"
    path.write_text(text, encoding="ascii")
    args = [command[0], *command[1:], str(path)] if command[0] != "export" else \
        [command[0], str(path), *command[1:]]
    line = one_line_error(run(*args, input=""))
    assert line == f"spaghetti: error: {path}: lists and objects nested more than 32 deep: " \
                   "not a record"


def test_a_deeply_nested_record_on_standard_input():
    line = one_line_error(run("legal", "-", input=DEEP_LIST))
    assert line.startswith("spaghetti: error: <stdin>: lists and objects nested more than 32")


def test_records_refuses_deep_nesting_but_reads_a_record_with_custom_cards():
    for text in (DEEP_LIST, DEEP_OBJECT, DEEP_FIELD):
        with pytest.raises(RecordError, match="nested more than 32 deep"):
            records.loads(text)
    with pytest.raises(RecordError, match="nested more than 32 deep"):  # decoded elsewhere
        records.replay(json.loads(DEEP_FIELD))
    assert records.too_deep([[[]]], 2) and not records.too_deep([[[]]], 3)
    assert not records.too_deep({"a": [1, {"b": 2}]}, 3) and records.too_deep({"a": [{}]}, 2)
    # The deepest real record: custom cards, each with its effect steps.
    cards = spaghetti.custom_cards.loads(open("examples/custom-cards.toml", "rb").read(), "x")
    state = spaghetti.Game(level=1, players=2, custom_cards=cards).new_state(None, 3)
    assert records.loads(records.dumps(state)).program == state.program


def test_the_web_server_refuses_deep_nesting_with_a_clear_message(tmp_path):
    from starlette.testclient import TestClient

    from spaghetti.web import create_app
    with TestClient(create_app(str(tmp_path / "games.db"), autoplay_delay=0)) as client:
        for url in ("/api/replay", "/api/analyse", "/api/games"):
            for text in (DEEP_LIST, DEEP_OBJECT):
                res = client.post(url, content=text)
                assert res.status_code == 400, (url, res.text)
                assert res.json() == {"error": "lists and objects nested more than 33 deep: "
                                               "too deep to read", "code": "malformed"}
            res = client.post(url, content=DEEP_FIELD)
            assert res.status_code == 400 and res.json()["code"] == "malformed"
        # 33 deep: a request may be (a record in {"record": ...}); the engine refuses the record
        text = record_text()[:-1] + ', "meta": ' + '{"a":' * 32 + "1" + "}" * 32 + "}"
        res = client.post("/api/replay", content=text)
        assert res.status_code == 400 and res.json() == {
            "error": "lists and objects nested more than 32 deep: not a record",
            "code": "bad_record"}
        game = client.post("/api/games", json={"seats": [{"kind": "human"}] * 2}).json()
        with client.websocket_connect(f"/ws/{game['id']}") as ws:
            assert ws.receive_json()["type"] == "state"
            ws.send_text(DEEP_LIST)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == "malformed"
            assert "nested more than 33 deep" in reply["message"]
            ws.send_text(json.dumps({"type": "ping"}))  # the connection is still there
            assert ws.receive_json() == {"type": "pong"}



@pytest.mark.parametrize("command", [["new"], ["play"]], ids=lambda c: c[0])
@pytest.mark.parametrize("depth", [5000, 900])
def test_deeply_nested_custom_cards_are_one_line(tmp_path, command, depth):
    path = tmp_path / "deep.toml"
    path.write_text("[[card]]\nname = " + "[" * depth + "]" * depth + "\n", encoding="ascii")
    # Earlier tests' garbage collected deep in the parse would run its finalizers without the
    # stack to do so and say so on stderr: collected first, as a fresh command has none.
    gc.collect()
    line = one_line_error(run(*command, "--cards", str(path), input=""))
    assert line == f"spaghetti: error: {path}: bad TOML: arrays or tables nested too deeply"

# ------------------------------------------------------------------ numbers of thousands of digits

HUGE = "9" * 5000  # more digits than Python turns into an int (4,300)
LONG = "9" * 4000  # decodable, but a line quoting it would be 4,000 characters


@pytest.mark.parametrize("where", ["level", "meta", "actions"])
@pytest.mark.parametrize("command", RECORD_COMMANDS, ids=lambda c: c[0])
def test_a_number_of_thousands_of_digits_in_a_record_is_one_line_in_every_command(
        tmp_path, command, where):
    fields = {"level": "X", "meta": {"note": "X"}, "actions": ["place 0", "X"]}[where]
    path = tmp_path / "huge.json"
    path.write_text(record_text(**{where: fields}).replace('"X"', HUGE), encoding="ascii")
    args = [command[0], *command[1:], str(path)] if command[0] != "export" else \
        [command[0], str(path), *command[1:]]
    line = one_line_error(run(*args, input=""))
    assert line == f"spaghetti: error: {path}: a number of more than 4,300 digits: not a record"


def test_a_long_value_quoted_from_a_record_is_shortened_in_the_error_line(tmp_path):
    path = tmp_path / "long.json"
    path.write_text(record_text(level=int(LONG)), encoding="ascii")
    line = one_line_error(run("legal", str(path)))
    assert line == ("spaghetti: error: level must be one of 1, 2, 3 in Spaghetti Code, not "
                    + "9" * 40 + "…(4,000 characters)")
    path.write_text(record_text(actions=["place " + LONG]), encoding="ascii")
    line = one_line_error(run("replay", str(path)))
    assert len(line) < 300 and line.startswith("spaghetti: error: actions[0] 'place 9999")


def test_a_number_of_thousands_of_digits_in_a_card_experiment_or_results_file_is_one_line(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("cards.toml").write_text(
        f'[[card]]\nname = "X"\nparams = [{HUGE}]\neffect = []\n', encoding="ascii")
    pathlib.Path("exp.toml").write_text(f'[experiment]\nname = "x"\ngames = {HUGE}\n',
                                        encoding="ascii")
    pathlib.Path("level1.json").write_text(f'{{"results": {HUGE}}}', encoding="ascii")
    pathlib.Path("puzzles.jsonl").write_text(f'{{"n": {HUGE}}}\n', encoding="ascii")
    pathlib.Path("lab").mkdir()
    pathlib.Path("lab/saved.jsonl").write_text(f'{{"format": {HUGE}}}\n', encoding="ascii")
    digits = "a number of more than 4,300 digits"
    for args, message in [
            (["new", "--cards", "cards.toml"], f"cards.toml: bad TOML: {digits}"),
            (["play", "--cards", "cards.toml"], f"cards.toml: bad TOML: {digits}"),
            (["arena", "--players", "random,random", "--cards", "cards.toml"],
             f"cards.toml: bad TOML: {digits}"),
            (["lab", "run", "exp.toml"], f"exp.toml: bad TOML: {digits}"),
            (["lab", "report", "exp.toml"], f"exp.toml: bad TOML: {digits}"),
            (["lab", "exact", "--results", "level1.json"],
             f"level1.json: not the level-1 results ({digits})"),
            (["puzzle", "--file", "puzzles.jsonl"],
             "puzzles.jsonl: not a puzzles file (JSON lines)"),
            (["lab", "run", "--name", "saved", "--out", "lab", "--ai", "random", "--games", "1"],
             "lab/saved.jsonl: not a results file of the lab")]:
        assert one_line_error(run(*args, input="")) == f"spaghetti: error: {message}", args


def test_an_experiment_file_that_is_not_text_is_one_line(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_bytes(b"\x89PNG\r\n")
    for command in ("run", "report"):
        line = one_line_error(run("lab", command, str(path)))
        assert line.startswith(f"spaghetti: error: {path}: not UTF-8 text: "), line


# ------------------------------------------------------------------ numbers as typed

@pytest.mark.parametrize("args, line", [
    (["state", "{record}", "--seat", "²"], "--seat '²': give a seat number, 'observer' or "
                                          "'referee'"),
    (["state", "{record}", "--seat", HUGE], "--seat '" + "9" * 40 + "…(5,000 characters)': "
                                            "give a seat number, 'observer' or 'referee'"),
    (["new", "--game", "pasta-logic", "--option", "life_cap=²"],
     "option 'life_cap' cannot be '²'; it is one of: 6, none"),
    (["new", "--game", "pasta-logic", "--option", f"life_cap={HUGE}"],
     "option 'life_cap' cannot be '" + "9" * 40 + "…(5,000 characters)'; it is one of: 6, none"),
    (["play", "--move-clock", "nan"], "invalid value for '--move-clock': 'nan' is not a number "
                                      "of seconds (see 'spaghetti play --help')"),
    (["play", "--move-clock", "inf"], "invalid value for '--move-clock': inf is not in the "
                                      "range 1<=x<=86400 (see 'spaghetti play --help')"),
    (["solve", "{record}", "--time-limit", "nan"], "invalid value for '--time-limit': 'nan' is "
                                                   "not a number of seconds (see 'spaghetti "
                                                   "solve --help')"),
    (["arena", "--games", "99999999999"], "invalid value for '--games': 99999999999 is not in "
                                          "the range 1<=x<=1000000 (see 'spaghetti arena "
                                          "--help')"),
    (["lab", "puzzles", "--games", "99999999999"], "invalid value for '--games': 99999999999 is "
                                                   "not in the range 1<=x<=1000000 (see "
                                                   "'spaghetti lab puzzles --help')"),
    (["solve-level1", "--time-limit", "inf"], "invalid value for '--time-limit': inf is not in "
                                              "the range 0.1<=x<=10000000 (see 'spaghetti "
                                              "solve-level1 --help')"),
])
def test_a_number_python_cannot_read_or_use_is_one_line(tmp_path, args, line):
    record = tmp_path / "game.json"
    record.write_text(record_text(), encoding="ascii")
    args = [a.format(record=record) if a == "{record}" else a for a in args]
    assert one_line_error(run(*args, input="")) == f"spaghetti: error: {line}"


def test_line_mode_takes_numbers_python_cannot_read_as_wrong_input_not_a_crash():
    typed = ["²", "place ²", HUGE, "declare ²", f"declare {HUGE}", "quit"]
    result = run("play", "--vs", "random", "--seed", "3", input="\n".join(typed) + "\n")
    assert result.exit_code == 0 and result.exception is None, result.output
    assert "Not an option here: '²'." in result.stdout
    assert "Not an option here: 'place ²'." in result.stdout
    assert f"Not an option here: '{HUGE}'." in result.stdout
    assert result.stdout.count("Type 'declare' (the player to move) or 'declare <seat>'") == 2
    assert "Game left unfinished after 0 moves." in result.stdout


# ------------------------------------------------------------------ closed standard streams

def run_with_closed(streams: str, *args: str) -> subprocess.CompletedProcess:
    """The installed command with standard input or output closed (``<&-``, ``>&-``), as a
    shell closes them; stderr is captured unless closed too."""
    command = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "spaghetti", *args])
    return subprocess.run(["sh", "-c", f"{command} {streams}"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("command, args", [("play", ["--vs", "random", "--seed", "3"]),
                                           ("puzzle", [])])
def test_an_interactive_command_with_standard_input_or_output_closed_is_one_line(command, args):
    done = run_with_closed("<&-", command, *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"spaghetti: error: standard input is closed: 'spaghetti {command}' "
                           "reads your answers from it (give a terminal, a file or a pipe)\n")
    done = run_with_closed(">&-", command, *args)
    assert done.returncode == 2
    assert done.stderr == (f"spaghetti: error: standard output is closed: 'spaghetti {command}' "
                           "shows the table on it\n")
    done = run_with_closed(">&- 2>&-", command, *args)  # nowhere to say it: the status only
    assert done.returncode == 2 and done.stderr == ""


# ------------------------------------------------------------------ where play keeps records

@pytest.mark.parametrize("flag, where, line", [
    ("--save", "missing/x.json", "--save {p}: the folder {tmp}/missing does not exist"),
    ("--save", "game.json/x.json", "--save {p}: {tmp}/game.json is not a folder"),
    ("--save", "/proc/x.json", "--save {p}: cannot write in /proc ("),  # even as root
    ("--autosave", "a/b", "--autosave {p}: the folder {tmp}/a does not exist"),
    ("--autosave", "/proc/games", "--autosave {p}: cannot write in /proc ("),
])
def test_save_or_autosave_that_cannot_be_written_is_refused_before_the_game_starts(
        tmp_path, flag, where, line):
    (tmp_path / "game.json").write_text("{}", encoding="ascii")
    path = where if where.startswith("/") else str(tmp_path / where)
    result = run("play", "--vs", "random", "--seed", "3", flag, path, input="1\n" * 500)
    error = one_line_error(result)
    assert error.startswith("spaghetti: error: " + line.format(p=path, tmp=tmp_path)), error
    assert result.stdout == ""  # no table was shown: the game never started
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]  # no folder was made


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_save_to_a_read_only_file_is_refused_before_the_game_starts(tmp_path):
    save = tmp_path / "game.json"
    save.write_text("kept", encoding="ascii")
    save.chmod(0o444)
    result = run("play", "--vs", "random", "--seed", "3", "--save", str(save), input="1\n")
    assert one_line_error(result) == f"spaghetti: error: --save {save}: the file is read-only"
    assert save.read_text() == "kept"


def test_output_that_cannot_be_written_is_one_line_and_the_record_read_first(tmp_path):
    # -o of new and export: a folder that is not there is one line; a bad record read leaves
    # the output unmade; a record written back over its own file is read before it is emptied.
    missing = tmp_path / "no" / "game.json"
    for args in (["new", "--seed", "3"], ["export", str(tmp_path / "none.json"), "--seat", "0"]):
        line = one_line_error(run(*args, "-o", str(missing)))
        assert line.startswith("spaghetti: error: ") and line.endswith("No such file or directory")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="ascii")
    out = tmp_path / "out.json"
    one_line_error(run("export", str(bad), "--seat", "0", "-o", str(out)))
    assert not out.exists()
    game = tmp_path / "game.json"
    assert run("new", "--seed", "3", "-o", str(game)).exit_code == 0
    assert run("export", str(game), "--seat", "0", "-o", str(game)).exit_code == 0
    assert json.loads(game.read_text(encoding="utf-8"))["players"] == 2


def test_autosave_creates_only_its_own_folder_and_says_so(tmp_path):
    games = tmp_path / "games"
    result = run("play", "--vs", "random", "--seed", "3", "--autosave", str(games),
                 input="quit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Created the folder {games} for the records of finished "
                                    "games.\n")
    assert games.is_dir() and not any(games.iterdir())  # the game was left unfinished
    result = run("play", "--vs", "random", "--seed", "3", "--autosave", str(games),
                 "--lang", "ja", input="quit\n")
    assert result.exit_code == 0 and "作りました" not in result.stdout  # there already


def test_save_to_an_existing_record_is_accepted_and_left_alone_until_a_move(tmp_path):
    save = tmp_path / "game.json"
    save.write_text("old", encoding="ascii")
    result = run("play", "--vs", "random", "--seed", "3", "--save", str(save), input="")
    assert result.exit_code == 0, result.output
    assert records.loads(save.read_text()).history == []  # written when the game was left


# ------------------------------------------------------------------ the solver's table size

def played_record(tmp_path, moves: int = 10) -> str:
    """A level-1 record after placement and a couple of turns (solved in a moment)."""
    state = spaghetti.new_game(1, 2, program=PROGRAM)
    for _ in range(moves):
        state.apply(state.legal()[0])
    path = tmp_path / "game.json"
    path.write_text(records.dumps(state), encoding="utf-8")
    return str(path)


def test_available_memory_is_known_on_this_machine():
    from spaghetti.cli.common import available_mb
    assert available_mb() is not None and available_mb() > 0


def test_solve_refuses_a_table_larger_than_the_memory_in_one_line(tmp_path):
    line = one_line_error(run("solve", played_record(tmp_path), "--table-mb", str(10 ** 9)))
    assert line.startswith(f"spaghetti: error: --table-mb {10 ** 9}: more than the ")
    assert line.endswith(" MB of memory this machine has available; give a smaller --table-mb")


def test_solve_checks_the_table_against_what_is_available(tmp_path, monkeypatch):
    from spaghetti.cli import common
    monkeypatch.setattr(common, "available_mb", lambda: 500)
    path = played_record(tmp_path)
    assert one_line_error(run("solve", path, "--table-mb", "600")) == (
        "spaghetti: error: --table-mb 600: more than the 500 MB of memory this machine has "
        "available; give a smaller --table-mb")
    ok = run("solve", path, "--table-mb", "64")
    assert ok.exit_code == 0, ok.output
    assert "winner under perfect play" in ok.stdout
    ok = run("solve", path)  # the default is not refused: it is only allocated as needed
    assert ok.exit_code == 0, ok.output


def test_solve_out_of_memory_anyway_is_one_line(tmp_path, monkeypatch):
    from spaghetti.solver import api

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(api, "solve", no_memory)
    assert one_line_error(run("solve", played_record(tmp_path))) == (
        "spaghetti: error: not enough memory to solve this position with --table-mb 1024; "
        "give a smaller --table-mb")


def _quick_solve_one(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
    """A stand-in for level1.solve_one that pool workers can unpickle."""
    from spaghetti.solver import level1
    return {"program": level1.program_id(program), "status": "solved", "winner": 0,
            "seconds": 0.0, "nodes": 1, "line": ["place 0"]}


def test_solve_level1_checks_the_tables_of_all_its_workers(tmp_path, monkeypatch):
    from spaghetti.cli import common, solve
    from spaghetti.solver import level1
    monkeypatch.setattr(common, "available_mb", lambda: 500)
    monkeypatch.setattr(solve, "_cpus", lambda: 4)  # three workers allowed on any machine
    monkeypatch.setattr(level1, "solve_one", _quick_solve_one)  # forked workers inherit it
    out = str(tmp_path / "level1.json")
    line = one_line_error(run("solve-level1", "--output", out, "--workers", "3",
                              "--table-mb", "200"))
    assert line == ("spaghetti: error: --table-mb 200 for each of 3 workers (600 MB): more than "
                    "the 500 MB of memory this machine has available; give a smaller --table-mb "
                    "or fewer --workers")
    assert not (tmp_path / "level1.json").exists()  # refused before any work
    # Two programs: two tables at once, which fit.
    two = [",".join(PROGRAM), ",".join(reversed(PROGRAM))]
    ok = run("solve-level1", "--output", out, "--workers", "3", "--table-mb", "200",
             "--program", two[0], "--program", two[1])
    assert ok.exit_code == 0, ok.output
    assert set(level1.load(out)["results"]) == set(two)


# ------------------------------------------------------------------ usage errors

@pytest.mark.parametrize("args, line", [
    (["play", "--foo"],
     "no such option '--foo'. Did you mean '--option'? (see 'spaghetti play --help')"),
    (["replay"], "missing argument 'FILE' (see 'spaghetti replay --help')"),
    (["play", "--level", "7"],
     "invalid value for '--level': 7 is not in the range 1<=x<=3 (see 'spaghetti play --help')"),
    (["play", "--lang", "xx"],
     "invalid value for '--lang': 'xx' is not one of 'en', 'ja' (see 'spaghetti play --help')"),
    (["play", "--level"], "option '--level' requires an argument (see 'spaghetti play --help')"),
    (["arena", "--games", "many"],
     "invalid value for '--games': 'many' is not a valid integer range "
     "(see 'spaghetti arena --help')"),
    (["solve-level1", "--program", "Bug"],
     "invalid value for --program: 'Bug' is not a level-1 program: give the five cards AddFlag, "
     "MoveFlag, RemoveFlag, Bug, ForkBomb in some order, separated by commas "
     "(see 'spaghetti solve-level1 --help')"),
    (["nosuch"], "no such command 'nosuch' (see 'spaghetti --help')"),
    (["--nope"], "no such option '--nope' (see 'spaghetti --help')"),
])
def test_a_usage_error_is_one_line_naming_the_help(args, line):
    result = run(*args)
    assert one_line_error(result) == f"spaghetti: error: {line}"
    assert "Usage:" not in result.output


def test_help_keeps_the_full_usage():
    result = run("play", "--help")
    assert result.exit_code == 0
    assert result.stdout.startswith("Usage: spaghetti play [OPTIONS]")
    assert "--level" in result.stdout and "Examples:" in result.stdout
    result = run()  # no command at all: the help, as before
    assert result.output.startswith("Usage: spaghetti [OPTIONS] COMMAND [ARGS]...")
    assert "Commands:" in result.output


def test_a_usage_error_is_one_line_from_the_installed_command():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "spaghetti", "legal", "--seat", "1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("spaghetti: error: no such option '--seat' (see 'spaghetti legal "
                           "--help')\n")


# ------------------------------------------------------------------ play --load and setup flags

@pytest.mark.parametrize("flags, line", [
    (["--level", "3"], "--level: a loaded record carries its own level; give --load or --level"),
    (["--level", "1"], "--level: a loaded record carries its own level; give --load or --level"),
    (["--players", "4"],
     "--players: a loaded record carries its own players; give --load or --players"),
    (["--game", "pasta-logic"],
     "--game: a loaded record carries its own game; give --load or --game"),
    (["--program", ",".join(PROGRAM)],
     "--program: a loaded record carries its own program; give --load or --program"),
    (["--option", "stalemate=manual"],
     "--option: a loaded record carries its own options; give --load or --option"),
    (["--cards", "examples/custom-cards.toml"],
     "--cards: a loaded record carries its own cards; give --load or --cards"),
    (["--level", "2", "--players", "3", "--option", "memory=on"],
     "--level, --players, --option: a loaded record carries its own level, players and "
     "options; give --load or these flags"),
])
def test_play_load_refuses_the_flags_that_set_up_a_game(tmp_path, flags, line):
    path = tmp_path / "game.json"
    path.write_text(record_text(), encoding="utf-8")
    result = run("play", "--load", str(path), *flags, input="1\n" * 50)
    assert one_line_error(result) == f"spaghetti: error: {line}"
    assert result.stdout == ""  # refused before the game started


def test_play_load_still_takes_the_flags_of_the_session(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(record_text(), encoding="utf-8")
    result = run("play", "--load", str(path), "--vs", "random", "--seed", "2", "--seat", "1",
                 "--lang", "ja", input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "勝" in result.stdout  # a whole game in Japanese, seat 1 against the computer


# ------------------------------------------------------------------ solve-level1, nothing to do

def test_solve_level1_says_why_a_program_asked_for_is_not_solved(tmp_path, monkeypatch):
    from spaghetti.solver import level1
    calls = []

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        calls.append(program)
        return {"program": level1.program_id(program), "status": "solved", "winner": 0,
                "seconds": 0.1, "nodes": 1, "line": ["place 0"]}

    monkeypatch.setattr(level1, "solve_one", fake)
    out = str(tmp_path / "level1.json")
    solved, open_ = ",".join(PROGRAM), ",".join(reversed(PROGRAM))
    level1.merge(out, {"program": solved, "status": "solved", "winner": 1, "seconds": 2.0,
                       "nodes": 9, "line": ["place 0"]})
    level1.merge(out, {"program": open_, "status": "timeout", "seconds": 5.0, "time_limit": 5.0})

    result = run("solve-level1", "--output", out, "--workers", "1", "--retry",
                 "--program", solved)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == \
        f"{solved}: already solved in {out} (seat 1 wins); not solved again"
    assert calls == []

    result = run("solve-level1", "--output", out, "--workers", "1", "--program", open_)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == \
        f"{open_}: saved as open in {out}; give --retry to try it again"
    assert calls == []

    result = run("solve-level1", "--output", out, "--workers", "1", "--retry",
                 "--program", open_, "--program", solved)  # one to do, one done
    assert result.exit_code == 0, result.output
    assert calls == [tuple(reversed(PROGRAM))]
    assert f"{solved}: already solved" in result.stdout and "saved as open" not in result.stdout


@pytest.mark.parametrize("text, line", [
    ("[1]", "not a level-1 results file (format 'list')"),
    ('{"format": "other"}', "not a level-1 results file (format 'other')"),
    (DEEP_LIST, "not a level-1 results file (lists and objects nested too deeply)"),
])
def test_solve_level1_a_results_file_that_is_not_one(tmp_path, text, line):
    path = tmp_path / "level1.json"
    path.write_text(text, encoding="ascii")
    result = run("solve-level1", "--output", str(path), "--limit", "0")
    assert one_line_error(result) == f"spaghetti: error: {path}: {line}"


# ------------------------------------------------------------------ the README's solve example

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.slow
def test_the_readme_solve_example_gives_a_result(tmp_path, monkeypatch):
    """The README's own commands on its level-1 record, run as written: a winner, as its
    comment says, well within the time limit."""
    text = README.read_text(encoding="utf-8")
    lines = [line.split("#")[0].split() for line in text.splitlines()
             if line.startswith("spaghetti ") and "small.json" in line]
    assert [words[:2] for words in lines] == [["spaghetti", "new"], ["spaghetti", "solve"]]
    assert "--time-limit" in lines[1]
    monkeypatch.chdir(tmp_path)
    for words in lines:
        result = run(*words[1:])
        assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "winner under perfect play: seat 0 (first player)"
    assert result.stdout.splitlines()[2].startswith("principal line: place ")


def test_level_2_gives_a_result_near_the_end_and_says_so_from_the_start(tmp_path):
    """What the README says to expect on level 2: a result near the end of a game; from the
    start, its line about the time limit (exit status 3)."""
    text = README.read_text(encoding="utf-8")
    assert "`undecided: no result within the time limit of 60 s` (exit status 3)" in text
    state = spaghetti.Game(level=2, players=2).new_state(None, 7)
    start = tmp_path / "start.json"
    start.write_text(records.dumps(state), encoding="utf-8")
    result = run("solve", str(start), "--time-limit", "0.5")
    assert result.exit_code == 3
    first, second = result.stdout.splitlines()
    assert first == "undecided: no result within the time limit of 0.5 s"
    assert second.startswith("searched ") and second.endswith(
        " before the limit; a longer --time-limit may decide it")
    assert result.stderr == ""  # the progress is for a terminal only
    player = RandomPlayer(7)
    moves = []
    while not state.is_over:
        moves.append(player.choose(state))
        state.apply(moves[-1])
    near = spaghetti.Game(level=2, players=2).new_state(None, 7)
    for option in moves[:-8]:  # eight moves from the end
        near.apply(option)
    path = tmp_path / "near.json"
    path.write_text(records.dumps(near), encoding="utf-8")
    result = run("solve", str(path), "--time-limit", "60")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("winner under perfect play: seat ")


def test_the_level1_results_and_their_second_check_with_a_huge_number_are_one_line(tmp_path):
    from spaghetti.lab import level1_check

    results = tmp_path / "level1.json"
    results.write_text('{"format": "spaghetti-level1-solved/1", "n": ' + HUGE + "}",
                       encoding="ascii")
    line = one_line_error(run("solve-level1", "--output", str(results), "--limit", "1"))
    assert line == f"spaghetti: error: {results}: a number of more than 4,300 digits"
    check = tmp_path / "level1-check.jsonl"
    check.write_text('{"program": ' + HUGE + "}\n", encoding="ascii")
    with pytest.raises(SetupError, match="not a results file of the second check \\(a number "
                                         "of more than 4,300 digits\\)"):
        level1_check.summary(str(check))
