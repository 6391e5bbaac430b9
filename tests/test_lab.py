"""The lab: experiments as data, a run that resumes, measures with intervals, the report, and the
command end to end on a small experiment."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from spaghetti.cli.main import cli
from spaghetti.errors import SetupError
from spaghetti.lab import Difference, Mean, PairedDifference, Rate, loads, run, summary
from spaghetti.lab.exact import exact_seats
from spaghetti.lab.measures import card_strength, seat_changes, seat_wins

SMALL = """
[experiment]
name = "small"
ai = "random"
games = 6
seed = 3

[b]
options = {placement_order = "snake"}
"""


def test_an_experiment_file_gives_two_paired_arms():
    e = loads(SMALL)
    assert e.a.options == {} and e.b is not None and e.b.options == {"placement_order": "snake"}
    assert e.games == 6 and e.seed == 3 and e.b.ai == ("random",)
    assert e.key() != loads(SMALL.replace("snake", "round_robin")).key()


@pytest.mark.parametrize("text, message", [
    ("[experiment]\nname = 'x'\ngames = 0\n", "games must be 1 to"),
    ("[experiment]\nname = 'x'\nlevels = 2\n", "unknown key 'levels'"),
    ("[experiment]\nname = 'x'\n[c]\n", "unknown table [c]"),
    ("[experiment]\nname = 'x'\nai = 'genius'\n", "not a computer player"),
    ("[experiment]\nname = 'x'\nplayers = 3\nai = ['easy', 'random']\n", "2 players for 3 seats"),
    ("[experiment]\nname = 'x'\noptions = {memory = 'maybe'}\n", "option 'memory' cannot be"),
    ("[experiment\n", "bad TOML"),
    ("[experiment]\nname = 'a/b'\n", "name must be"),
])
def test_a_bad_experiment_is_one_clear_line(text, message, tmp_path):
    with pytest.raises(SetupError, match=message.replace("[", r"\[")):
        run(loads(text), tmp_path / "x.jsonl", workers=1)


def test_a_run_saves_every_game_resumes_and_replays_exactly(tmp_path):
    e = loads(SMALL)
    path = tmp_path / "small.jsonl"
    first = run(e, path, workers=1)
    assert [len(g) for g in first.values()] == [6, 6]
    assert len(path.read_text().splitlines()) == 1 + 12
    # The same deals in both arms: game i of each is dealt by seed 3 + i.
    assert [g["seed"] for g in first["a"]] == [g["seed"] for g in first["b"]] == list(range(3, 9))
    # A finished run plays nothing again; a longer one plays only the new games.
    seen = []
    again = run(e, path, workers=1, on_game=lambda done, total: seen.append((done, total)))
    assert again == first and seen == [(12, 12)]
    longer = run(loads(SMALL.replace("games = 6", "games = 8")), path, workers=2)
    assert longer["a"][:6] == first["a"] and len(longer["b"]) == 8
    # Two processes give the games one gives.
    fresh = run(loads(SMALL.replace("games = 6", "games = 8")), tmp_path / "other.jsonl",
                workers=1)
    assert fresh == longer
    # Cut shorter again: the games past it stay saved, and are not counted (as the report).
    from spaghetti.lab import runner
    shorter = run(loads(SMALL.replace("games = 6", "games = 5")), path, workers=1)
    assert [len(g) for g in shorter.values()] == [5, 5]
    assert len(runner.read(path)[1]) == 16 and len(runner.declared(path)[1]) == 10


def test_a_results_file_of_another_setup_is_refused_and_a_cut_line_played_again(tmp_path):
    path = tmp_path / "small.jsonl"
    run(loads(SMALL), path, workers=1)
    with pytest.raises(SetupError, match="another setup"):
        run(loads(SMALL.replace("seed = 3", "seed = 4")), path, workers=1)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1] + [lines[-1][:20]]) + "\n")  # a run stopped mid-line
    assert len(run(loads(SMALL), path, workers=1)["b"]) == 6


def test_a_result_records_where_its_games_come_from(tmp_path):
    from spaghetti.ai import definition
    from spaghetti.core import engines

    path = tmp_path / "small.jsonl"
    run(loads(SMALL.replace('ai = "random"', 'ai = ["easy", "random"]')), path, workers=1)
    head = json.loads(path.read_text().splitlines()[0])
    origin = head["provenance"]
    assert origin["engine"] == engines.path() and origin["seeds"] == [3, 8]
    assert origin["players"] == {"easy": definition("easy"), "random": definition("random")}
    assert origin["players"]["easy"]["evaluation"] == "lives and flags alone" and origin["version"]
    assert origin["options"] == {"a": {}, "b": {"placement_order": "snake"}}
    assert head["experiment"]["arms"]["b"]["options"] == {"placement_order": "snake"}
    game = json.loads(path.read_text().splitlines()[1])["game"]
    assert len(game["digest"]) == 16


def test_an_ab_where_a_network_ships_for_one_arm_only_judges_by_hand_in_both(monkeypatch):
    """A network ships for the rulebook's options only: an A/B of a rule at level 3 with two
    players would pit the learned evaluation (arm a) against the hand-written one (arm b), so
    both arms judge by the hand-written one, and the provenance and the report say so."""
    from spaghetti.ai import make_player
    from spaghetti.lab import report, runner

    level3 = SMALL.replace('ai = "random"', 'ai = "normal"\nlevel = 3').replace(
        'placement_order = "snake"', 'stalemate = "manual"')
    ab = loads(level3)
    assert not runner.learned_alike(ab)
    assert runner.provenance(ab, learned=False)["evaluation"].startswith("hand-written")
    assert "evaluation" not in runner.provenance(ab)
    assert runner.learned_alike(loads(level3.split("[b]")[0]))  # one arm: as it ships
    manual_both = level3.replace("seed = 3", 'seed = 3\noptions = {stalemate = "manual"}')
    assert runner.learned_alike(loads(manual_both))  # no network in either arm: alike
    snake = level3.replace('stalemate = "manual"', 'placement_order = "snake"')
    assert runner.learned_alike(loads(snake))  # the network judges both: Option.judged_alike
    assert runner.learned_alike(loads(level3.replace('"normal"', '"easy"')))  # reads none
    asked = []

    def recording(level, seed=None, clock=True, learned=True):
        asked.append(learned)
        return make_player("random", seed)

    monkeypatch.setattr(runner, "make_player", recording)
    games = {name: [runner.play_one(arm, 3, 0, learned=False)] for name, arm in ab.arms.items()}
    assert asked == [False] * 4
    summaries = {name: summary(played, 2) for name, played in games.items()}
    text = report.markdown(ab, games, summaries, [], "cmd", learned=False)
    assert "hand-written evaluation in both arms" in text


def test_a_resumed_run_keeps_its_header_true_to_the_games_it_holds(tmp_path, monkeypatch):
    from spaghetti.lab import runner

    path = tmp_path / "small.jsonl"
    run(loads(SMALL), path, workers=1)
    run(loads(SMALL.replace("games = 6", "games = 4")), path, workers=1)  # cut to 4
    head = json.loads(path.read_text().splitlines()[0])
    assert head["experiment"]["games"] == 4 and head["provenance"]["seeds"] == [3, 6]
    assert "resumed" not in head  # nothing new was played
    first = dict(head["provenance"])
    monkeypatch.setattr(runner, "_commit", lambda: "another")
    run(loads(SMALL.replace("games = 6", "games = 8")), path, workers=1)  # more, elsewhere
    head = json.loads(path.read_text().splitlines()[0])
    assert head["experiment"]["games"] == 8 and head["provenance"]["seeds"] == [3, 10]
    assert head["provenance"]["commit"] == first["commit"]
    assert [r["commit"] for r in head["resumed"]] == ["another"]


def test_lab_status_says_how_far_each_experiment_is_and_plays_nothing(tmp_path):
    from spaghetti.lab import runner

    folder, out = tmp_path / "experiments", tmp_path / "results"
    folder.mkdir()

    def small(name: str, games: int, seed: int = 3) -> str:
        return SMALL.replace('"small"', f'"{name}"').replace("games = 6", f"games = {games}") \
            .replace("seed = 3", f"seed = {seed}")

    for name, games in (("done", 4), ("part", 6), ("fresh", 3), ("old", 4), ("other", 4)):
        (folder / f"{name}.toml").write_text(small(name, games), encoding="utf-8")
    run(loads(small("done", 4)), out / "done.jsonl", workers=1)
    run(loads(small("part", 3)), out / "part.jsonl", workers=1)  # a run of 6 stopped halfway
    run(loads(small("old", 4)), out / "old.jsonl", workers=1)
    runner.supersede(out / "old.jsonl", "a test")
    run(loads(small("other", 4, seed=4)), out / "other.jsonl", workers=1)
    before = {p.name: p.read_bytes() for p in out.glob("*.jsonl")}
    args = ["lab", "status", "--experiments", str(folder), "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    lines = {line.split()[0]: line for line in result.output.splitlines()[:-1]}
    assert "4 + 4 of 4  done (played at" in lines["done"]
    assert "3 + 3 of 6  in part, 6 left" in lines["part"]
    assert "0 + 0 of 3  not started, 6 left" in lines["fresh"]
    assert "superseded: a test" in lines["old"] and "another setup, 8 left" in lines["other"]
    assert result.output.splitlines()[-1] == "1 of 5 experiments played in full; 28 games left"
    assert {p.name: p.read_bytes() for p in out.glob("*.jsonl")} == before  # nothing played
    progress = runner.progress(loads(small("part", 6)), out / "part.jsonl")
    assert (progress.played, progress.left, progress.state) == ((3, 3), 6, "in part")
    unfinished = CliRunner().invoke(cli, args + ["--unfinished"])
    assert "done" not in unfinished.output.split() and "part" in unfinished.output
    missing = CliRunner().invoke(cli, args + ["--only", "nothing-*"])
    assert missing.exit_code != 0 and "no experiment files nothing-*.toml" in missing.output
    assert "Traceback" not in missing.output


def test_verify_replays_saved_games_and_names_those_that_play_otherwise(tmp_path):
    from spaghetti.lab.runner import verify

    path = tmp_path / "small.jsonl"
    run(loads(SMALL.replace('ai = "random"', 'ai = "easy"')), path, workers=1)
    held = verify(path, sample=4)
    assert held.holds and held.checked == 4
    lines = path.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["game"]["winner"] = 1 - entry["game"]["winner"]  # as if the rules had changed
    path.write_text("\n".join([lines[0], json.dumps(entry), *lines[2:]]) + "\n")
    broken = verify(path, sample=12)
    assert not broken.holds
    assert broken.differ == ((entry["arm"], entry["game"]["i"], ("winner",)),)
    result = CliRunner().invoke(cli, ["lab", "verify", str(path), "--sample", "12"])
    assert result.exit_code == 1 and "1 of 12 games replayed otherwise" in result.output
    assert CliRunner().invoke(cli, ["lab", "supersede", str(path), "the rules changed"]) \
        .exit_code == 0
    result = CliRunner().invoke(cli, ["lab", "verify", str(path)])
    assert result.exit_code == 0 and "superseded (the rules changed); not replayed" \
        in result.output
    assert len(run(loads(SMALL.replace('ai = "random"', 'ai = "easy"')), path,
                   workers=1)["a"]) == 6  # a superseded file still reads


def test_verify_replays_the_shortest_game_of_each_stretch_of_the_file():
    from spaghetti.lab.runner import _spread_shortest

    games = [("a", {"i": i, "decisions": d}) for i, d in enumerate([90, 40, 70, 80, 30, 60, 50])]
    assert [g["i"] for _, g in _spread_shortest(games, 2)] == [1, 4]
    assert [g["i"] for _, g in _spread_shortest(games, 3)] == [1, 2, 4]
    assert _spread_shortest(games, 10) == games
    assert _spread_shortest([], 3) == []


@pytest.mark.slow  # (a game of normal players at level 3 takes seconds)
def test_the_published_results_still_stand_or_say_they_are_superseded():
    import pathlib

    from spaghetti.cli.common import read_cards
    from spaghetti.lab.runner import verify

    for path in sorted(pathlib.Path("docs/lab/results").glob("*.jsonl")):
        verdict = verify(path, sample=1, read_cards=read_cards)  # (an arm may add cards)
        assert verdict.holds or verdict.superseded, path


def test_the_readme_tables_are_what_lab_publish_makes_of_the_published_results():
    # A result run again without `lab publish --readme-only` would leave the README's tables
    # telling the old figures. (Without figures: the strength section's figure line follows.)
    import pathlib
    import re

    from spaghetti.lab.publish import SECTIONS

    readme = pathlib.Path("docs/lab/README.md").read_text(encoding="utf-8")
    for name, make in SECTIONS.items():
        block = re.search(rf"<!-- lab:{name} -->\n(.*?)<!-- /lab:{name} -->", readme, re.S)
        assert block, f"docs/lab/README.md has no {name} section"
        assert block.group(1).startswith(make(pathlib.Path("docs/lab/results"), False)), name


def test_rates_and_differences_have_the_textbook_intervals():
    lo, hi = Rate(8, 10).interval
    assert (round(lo, 3), round(hi, 3)) == (0.49, 0.943)  # Wilson
    # Newcombe's hybrid score interval (method 10), his example: 56/70 against 48/80.
    d = Difference(Rate(48, 80), Rate(56, 70))
    lo, hi = d.interval
    assert (round(lo, 4), round(hi, 4)) == (0.0524, 0.3339) and d.clear
    assert not Difference(Rate(5, 10), Rate(6, 10)).clear
    m = Mean((1.0, 2.0, 3.0, 4.0))
    assert m.value == 2.5 and m.interval[0] < 2.5 < m.interval[1]


def test_paired_differences_have_newcombes_interval_for_paired_data():
    # Fagerland, Lydersen and Laake's paired table (59 both, 6 and 16 one alone, 80 neither):
    # Newcombe's square-and-add interval, -0.1186 to -0.0046 for the first minus the second.
    d = PairedDifference(Rate(65, 161), Rate(75, 161), both=59)
    lo, hi = d.interval
    assert (round(d.value, 4), round(lo, 4), round(hi, 4)) == (0.0621, 0.0046, 0.1186)
    assert d.clear and not Difference(Rate(65, 161), Rate(75, 161)).clear  # pairs narrow it
    # Outcomes that go against each other widen it past the unpaired one.
    lo, hi = PairedDifference(Rate(5, 10), Rate(5, 10), both=0).interval
    assert hi - lo > Difference(Rate(5, 10), Rate(5, 10)).interval[1] * 2


def test_seat_changes_pair_the_two_sets_of_games_by_deal():
    # Deals 1-3 in a, 2-4 in b: the change is read on deals 2 and 3 alone, each seat counted
    # from the one that placed first (deal 3 of b: seat 1 placed first and won).
    a = [{"seed": 1, "winner": 0}, {"seed": 2, "winner": 0}, {"seed": 3, "winner": 1}]
    b = [{"seed": 2, "winner": 0}, {"seed": 3, "winner": 1, "first": 1},
         {"seed": 4, "winner": None}]
    first, second = seat_changes(a, b, 2)
    assert (first.a, first.b, first.both) == (Rate(1, 2), Rate(2, 2), 1)
    assert (second.a, second.b, second.both) == (Rate(1, 2), Rate(0, 2), 0)


def test_measures_count_seats_from_the_first_player_and_cards_by_their_top_runner():
    games = [
        {"winner": 0, "first": 0, "program": ["A", "B"], "runs": {"A": [3, 1]}, "passes": {},
         "reason": "elimination", "decisions": 10, "rounds": 1.0},
        {"winner": 0, "first": 1, "program": ["A", "B"], "runs": {"A": [2, 2]}, "passes": {"B": 4},
         "reason": "stalemate", "decisions": 20, "rounds": 2.0},
        {"winner": None, "first": 0, "program": ["A"], "runs": {"A": [0, 5]}, "passes": {},
         "reason": "elimination", "decisions": 30, "rounds": 3.0},
    ]
    assert [r.k for r in seat_wins(games, 2)] == [1, 1]  # game 2: seat 0 placed second
    cards = {c.name: c for c in card_strength(games, 2)}
    assert cards["A"].top_runner_wins == Rate(1, 2)  # a tie in game 2 is left out
    assert cards["A"].with_card is None  # in every program: nothing to compare with
    assert cards["B"].with_card == Rate(1, 2) and cards["B"].without_card == Rate(0, 1)
    assert cards["B"].run_share == 0.0 and cards["A"].runs == 13
    s = summary(games, 2)
    assert s["endings"]["draw"]["count"] == 1 and s["decisions"]["mean"] == 20.0


def test_the_exact_level1_results_say_who_wins_and_what_the_fair_first_rule_gives():
    seats = exact_seats(__import__("pathlib").Path("docs/solved/level1.json"))
    assert seats.programs == 120 and seats.first + seats.second + seats.open == 120
    assert seats.first > seats.second  # the first player's advantage under perfect play
    assert "B, the seat chooser, wins" in seats.fair_first()
    result = CliRunner().invoke(cli, ["lab", "exact"])
    assert result.exit_code == 0 and f"the first player wins {seats.first}" in result.output


@pytest.mark.parametrize("order, name", [("round_robin", "level1"), ("snake", "level1-snake")])
def test_lab_exact_reads_the_results_shipped_with_the_package_from_any_folder(
        tmp_path, monkeypatch, order, name):
    from spaghetti.lab.exact import shipped, winners

    full = json.loads(open(f"docs/solved/{name}.json", encoding="utf-8").read())
    assert json.loads(shipped(order).read_text(encoding="utf-8")) == winners(full), (
        f"write it again: python -m spaghetti.lab.exact docs/solved/{name}.json")
    expected = exact_seats(__import__("pathlib").Path(f"docs/solved/{name}.json"))
    assert expected.order == order and expected.programs == 120
    monkeypatch.chdir(tmp_path)  # outside the repository
    assert exact_seats(shipped(order)) == expected
    result = CliRunner().invoke(cli, ["lab", "exact", "--placement-order", order])
    assert result.exit_code == 0 and f"the first player wins {expected.first}," in result.output
    assert ("snake placement" in result.output) == (order == "snake")


@pytest.mark.slow
def test_the_lab_command_runs_a_small_experiment_end_to_end(tmp_path):
    (tmp_path / "small.toml").write_text(SMALL, encoding="utf-8")
    args = ["lab", "run", str(tmp_path / "small.toml"), "--out", str(tmp_path / "out"),
            "--workers", "1"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "win rate by seat" in result.output and "first seat, arm b - arm a" in result.output
    folder = tmp_path / "out" / "small"
    text = (folder / "report.md").read_text(encoding="utf-8")
    assert "## Win rate by seat" in text and "## Arm b against arm a" in text
    assert "![seats](seats.png)" in text and (folder / "seats.svg").exists()
    assert json.loads((folder / "summary.json").read_text())["a"]["games"] == 6
    bad = CliRunner().invoke(cli, ["lab", "run", "--games", "3"])
    assert bad.exit_code != 0 and "--name" in bad.output


# ---------------------------------------------------------------- puzzles

@pytest.mark.slow
def test_forced_win_is_exact_on_a_position_one_move_from_the_end():
    from spaghetti.lab import puzzles

    found = [p for seed in range(4) for p in puzzles.find("spaghetti-code", 1, 2, seed)]
    assert found, "level-1 self-play holds puzzles"
    for p in found[:4]:
        state = p.state()
        seat = state.to_move
        assert p.answer in state.legal() and p.options == len(state.legal()) >= 2
        # The answer and the line after it win; every other option fails to win in N, and
        # the winning line replays through the engine to the solver's win.
        line = puzzles.winning_line(p)
        for option in line:
            state.apply(option)
        assert state.is_over and state.winner == seat
        assert puzzles.check(p)
        for wrong in p.state().legal():
            if wrong != p.answer:
                child = p.state()
                child.apply(wrong)
                assert not puzzles.Search(seat).wins(child, p.n - 1)
                assert "only" in puzzles.refutation(p, wrong) or "ends the game" in \
                    puzzles.refutation(p, wrong)


def test_the_committed_puzzles_are_proven_and_replay():
    from spaghetti.lab.puzzles import load as load_set
    from spaghetti.lab import puzzles

    items = load_set()
    assert len(items) >= 16
    for p in items[::max(1, len(items) // 12)]:  # a spread of the set, all games
        assert puzzles.check(p), p


def test_the_puzzle_command_keeps_a_streak(tmp_path, monkeypatch):
    from spaghetti.lab.puzzles import load as load_set

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    p = load_set()[0]
    right = CliRunner().invoke(cli, ["puzzle", "--number", "1"], input=p.answer + "\n")
    assert right.exit_code == 0 and "Right!" in right.output and "streak: 1" in right.output
    wrong = next(o for o in p.state().legal() if o != p.answer)
    again = CliRunner().invoke(cli, ["puzzle", "--number", "1"], input=wrong + "\n")
    assert "Not this one" in again.output and "streak: 0" in again.output
    bad = CliRunner().invoke(cli, ["puzzle", "--number", "100000"])
    assert bad.exit_code != 0 and "the set has" in bad.output


def test_the_puzzle_shows_the_moves_that_led_to_its_position(tmp_path, monkeypatch):
    from spaghetti.i18n import describe
    from spaghetti.lab.puzzles import load as load_set

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    p = load_set()[4]
    before = p.state(upto=len(p.actions) - 1)
    last = describe(before, p.actions[-1])
    result = CliRunner().invoke(cli, ["puzzle", "--number", "5"], input=p.answer + "\n")
    assert result.exit_code == 0, result.output
    n = len(p.actions)
    assert f"move {n}" in result.output and f"{n:>5}. {last}" in result.output
    assert "(no moves yet)" not in result.output


def test_the_puzzle_at_the_end_of_input_stops_without_an_answer_and_keeps_the_streak(
        tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    kept = tmp_path / "spaghetti" / "puzzles.json"
    kept.parent.mkdir()
    kept.write_text('{"streak": 3}', encoding="utf-8")
    for lang, line in [("en", "No answer given: the puzzle is left unsolved and the streak "
                               "stays as it was."),
                       ("ja", "答えがありません: パズルは解かれないまま、"
                              "連続正解の記録もそのままです。")]:
        result = CliRunner().invoke(cli, ["puzzle", "--number", "1", "--lang", lang], input="")
        assert result.exit_code == 0, result.output
        assert result.output.rstrip().endswith(line) and "Aborted" not in result.output
    assert json.loads(kept.read_text(encoding="utf-8")) == {"streak": 3}


def test_the_puzzle_speaks_japanese(tmp_path, monkeypatch):
    from spaghetti.lab.puzzles import load as load_set

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    p = load_set()[0]
    right = CliRunner().invoke(cli, ["puzzle", "--number", "1", "--lang", "ja"],
                               input=p.answer + "\n")
    assert "パズル 1/" in right.output and "正解！ 勝ち筋: " in right.output
    assert "連続正解: 1" in right.output
    wrong = next(o for o in p.state().legal() if o != p.answer)
    again = CliRunner().invoke(cli, ["puzzle", "--number", "1", "--lang", "ja"],
                               input=wrong + "\n")
    assert "不正解: " in again.output and "連続正解: 0" in again.output


@pytest.mark.slow
def test_a_ray_run_gives_the_games_a_process_run_gives(tmp_path):
    ray = pytest.importorskip("ray")
    e = loads(SMALL.replace("games = 6", "games = 3"))
    local = run(e, tmp_path / "local.jsonl", workers=1)
    # address="local": a Ray of its own, even while another test runs a `ray start` cluster.
    ray.init(address="local", num_cpus=1, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    try:
        remote = run(e, tmp_path / "ray.jsonl", ray_address="local")
    finally:
        ray.shutdown()
    assert remote == local


@pytest.mark.slow
def test_a_cluster_started_with_ray_start_plays_the_games_a_process_pool_plays(tmp_path):
    """As a user would: `ray start --head` (a cluster with token authentication, as Ray starts
    it by default), then `spaghetti lab run --ray ADDRESS` from another process."""
    import os
    import re
    import shutil
    import socket
    import subprocess
    import sys

    pytest.importorskip("ray")
    ray_cli = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    if ray_cli is None:
        pytest.skip("no ray command")
    env = {**os.environ, "HOME": str(tmp_path)}  # its token and logs stay in the test's folder
    env.pop("RAY_AUTH_MODE", None)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = subprocess.run([ray_cli, "start", "--head", f"--port={port}", "--num-cpus=1",
                              "--include-dashboard=false", "--disable-usage-stats"],
                             env=env, capture_output=True, text=True, timeout=180)
    try:
        assert started.returncode == 0, started.stderr[-2000:]
        address = re.search(r"ray start --address='([^']+)'", started.stdout + started.stderr)
        assert address, started.stdout[-2000:]
        experiment = tmp_path / "small.toml"
        experiment.write_text(SMALL.replace("games = 6", "games = 3"), encoding="utf-8")
        played = subprocess.run([sys.executable, "-m", "spaghetti", "lab", "run", str(experiment),
                                 "--out", str(tmp_path / "ray"), "--ray", address.group(1),
                                 "--no-plots"], env=env, capture_output=True, text=True,
                                timeout=300)
        assert played.returncode == 0, played.stderr[-2000:]
    finally:
        subprocess.run([ray_cli, "stop", "--force"], env=env, capture_output=True, timeout=120)
    local = run(loads(SMALL.replace("games = 6", "games = 3")), tmp_path / "local.jsonl",
                workers=2)
    from spaghetti.lab.runner import load

    remote = load(tmp_path / "ray" / "small.jsonl", loads(SMALL.replace("games = 6", "games = 3")))
    assert {arm: [games[i] for i in sorted(games)] for arm, games in remote.items()} == local


def test_lab_report_writes_the_report_from_saved_games_without_playing(tmp_path):
    (tmp_path / "small.toml").write_text(SMALL, encoding="utf-8")
    run(loads(SMALL.replace("games = 6", "games = 2")), tmp_path / "out" / "small.jsonl",
        workers=1)
    result = CliRunner().invoke(cli, ["lab", "report", str(tmp_path / "small.toml"), "--out",
                                      str(tmp_path / "out"), "--no-plots"])
    assert result.exit_code == 0, result.output
    summary_ = json.loads((tmp_path / "out" / "small" / "summary.json").read_text())
    assert summary_["a"]["games"] == 2  # only what was saved: nothing more was played
    empty = CliRunner().invoke(cli, ["lab", "report", str(tmp_path / "small.toml"), "--out",
                                     str(tmp_path / "none")])
    assert empty.exit_code != 0 and "no saved games" in empty.output


def test_a_game_still_on_at_the_cap_is_saved_unfinished_and_counted_apart(monkeypatch):
    # Repetition ends every game in the end, but a seat that keeps moving cards can put it off
    # for thousands of decisions: the run saves such a game as unfinished instead of stopping.
    from spaghetti.lab import runner
    from spaghetti.lab.measures import endings

    arm = loads(SMALL).a
    ended = runner.play_one(arm, 3, 0)
    assert ended["reason"] != "unfinished" and ended["winner"] is not None
    monkeypatch.setattr(runner, "MAX_DECISIONS", 12)
    cut = runner.play_one(arm, 3, 0)
    assert cut["reason"] == "unfinished" and cut["winner"] is None and cut["decisions"] == 12
    counts = endings([ended, cut])
    assert counts["unfinished"].value == 0.5 and "draw" not in counts
    assert sum(r.k for r in seat_wins([ended, cut], 2)) == 1  # the cut game is nobody's win


def test_a_custom_card_arm_gets_its_own_card_table(tmp_path):
    # What a new card does is the question of such an experiment: the report shows arm b's
    # cards, the new one among them, where its deck differs from arm a's.
    import pathlib

    cards = pathlib.Path(__file__).resolve().parent.parent / "docs" / "lab" / "cards" / "heal.toml"
    text = SMALL.replace('options = {placement_order = "snake"}', f'cards = "{cards}"')
    (tmp_path / "heal.toml").write_text(text, encoding="utf-8")
    result = CliRunner().invoke(cli, ["lab", "run", str(tmp_path / "heal.toml"), "--out",
                                      str(tmp_path / "out"), "--workers", "1", "--no-plots"])
    assert result.exit_code == 0, result.output
    report = (tmp_path / "out" / "small" / "report.md").read_text(encoding="utf-8")
    a, b = report.split("## Cards (arm a)")[1].split("## Cards (arm b)")
    assert "| Heal |" in b and "| Heal |" not in a


def publish_in(tmp_path, experiments: dict[str, str], sections: tuple[str, ...]):
    """Run ``lab publish`` on these experiment files (name: TOML) in a folder of their own,
    with a README holding these sections' markers: the result, the README, the results' folder
    and the command's arguments (to run it again)."""
    folder = tmp_path / "experiments"
    folder.mkdir()
    for name, text in experiments.items():
        (folder / f"{name}.toml").write_text(text, encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text("# Lab\n\n" + "\n".join(f"<!-- lab:{s} -->\n<!-- /lab:{s} -->\n"
                                             for s in sections), encoding="utf-8")
    out = tmp_path / "results"
    args = ["lab", "publish", "--experiments", str(folder), "--out", str(out),
            "--readme", str(readme), "--workers", "1", "--no-plots"]
    return CliRunner().invoke(cli, args), readme, out, args


def test_lab_publish_plays_the_experiments_and_writes_the_readme_sections(tmp_path):
    result, readme, out, args = publish_in(tmp_path, {"strength-code-l1-random": (
        '[experiment]\nname = "strength-code-l1-random"\nai = "random"\ngames = 6\n'
        'seed = 100000\n')}, ("strength",))
    assert result.exit_code == 0, result.output
    assert "1 experiment played" in result.output and "strength written anew" in result.output
    assert CliRunner().invoke(cli, args).exit_code == 0  # written again in place, not twice
    assert readme.read_text(encoding="utf-8").count("| level | players | fair share |") == 1
    text = readme.read_text(encoding="utf-8")
    assert "| level | players | fair share | random | perfect |" in text
    games = [json.loads(line) for line in (out / "strength-code-l1-random.jsonl")
             .read_text().splitlines()[1:]]
    first = sum(g["game"]["winner"] == g["game"]["first"] for g in games)
    assert "/6) |" in text and f", {first}/6)" in text
    assert (out / "strength-code-l1-random" / "report.md").exists()
    # Played again, nothing is played anew; a superseded result is left unless asked.
    CliRunner().invoke(cli, ["lab", "supersede", str(out / "strength-code-l1-random.jsonl"),
                             "a test"])
    result = CliRunner().invoke(cli, args)
    assert result.exit_code != 0 and "--rerun-superseded" in result.output
    result = CliRunner().invoke(cli, args + ["--rerun-superseded"])
    assert result.exit_code == 0 and "superseded" not in (out / "strength-code-l1-random.jsonl") \
        .read_text().splitlines()[0]


def test_lab_publish_says_what_each_step_of_strength_changes_on_the_same_deals(tmp_path):
    # random's 6 deals and easy's first 4: the step is read on the 4 both played, paired.
    result, readme, out, _ = publish_in(tmp_path, {
        f"strength-code-l1-{ai}": f'[experiment]\nname = "strength-code-l1-{ai}"\n'
                                  f'ai = "{ai}"\ngames = {games}\nseed = 100000\n'
        for ai, games in (("random", 6), ("easy", 4))}, ("strength",))
    assert result.exit_code == 0, result.output
    step = first_seat_change(out, "strength-code-l1-random", "strength-code-l1-easy")
    row = next(line for line in readme.read_text(encoding="utf-8").splitlines()
               if line.startswith("| 1 | 2 | random to easy |"))
    assert row == (f"| 1 | 2 | random to easy | 4 | {step.a.value:.1%} | {step.b.value:.1%} | "
                   f"{shown(step)} |")


def first_seat_change(out, weaker: str, stronger: str) -> PairedDifference:
    """The first seat's wins of result ``stronger`` less those of ``weaker`` (in ``out``), on
    the deals of ``stronger`` (each of them played by ``weaker`` too), counted here afresh."""
    won = [{json.loads(line)["game"]["seed"]: json.loads(line)["game"]["winner"] == 0
            for line in (out / f"{name}.jsonl").read_text().splitlines()[1:]}
           for name in (weaker, stronger)]
    deals = sorted(won[1])
    return PairedDifference(Rate(sum(won[0][d] for d in deals), len(deals)),
                            Rate(sum(won[1][d] for d in deals), len(deals)),
                            both=sum(won[0][d] and won[1][d] for d in deals))


def shown(change: PairedDifference) -> str:
    """A change as the README's tables show it: in bold where its interval leaves out 0."""
    return f"**{change}**" if change.clear else str(change)


def test_lab_compare_reads_two_results_on_the_deals_both_played(tmp_path):
    out = tmp_path / "out"
    for name, ai, games, seed in (("weak", "random", 6, 0), ("strong", "easy", 4, 0),
                                  ("apart", "easy", 2, 50), ("three", "random", 2, 0)):
        players = 3 if name == "three" else 2
        result = CliRunner().invoke(cli, [
            "lab", "run", "--name", name, "--ai", ai, "--games", str(games), "--seed", str(seed),
            "--players", str(players), "--out", str(out), "--workers", "1", "--no-plots"])
        assert result.exit_code == 0, result.output
    games = {name: [json.loads(line)["game"] for line in
                    (out / f"{name}.jsonl").read_text().splitlines()[1:]]
             for name in ("weak", "strong")}
    (out / "headless.jsonl").write_text('{"format": "spaghetti-lab/1"}\n', encoding="utf-8")
    first, second = seat_changes(games["weak"], games["strong"], 2)
    result = CliRunner().invoke(cli, ["lab", "compare", str(out / "weak.jsonl"),
                                      str(out / "strong.jsonl")])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())  # (as the terminal's width wrapped it)
    assert "on the 4 deals both played (of 6 and 4), paired by deal" in said
    assert str(first) in said and str(second) in said
    for args, message in (
            (["apart", "weak"], "no deal in common"),
            (["three", "weak"], "has 3 players and"),
            (["weak", "weak", "--arms", "a,b"], "has no arm 'b' (its arms: a)"),
            (["weak", "weak", "--arms", "a"], "give two arms"),
            (["headless", "weak"], "names no experiment")):
        paths = [str(out / f"{name}.jsonl") for name in args[:2]]
        result = CliRunner().invoke(cli, ["lab", "compare", *paths, *args[2:]])
        assert result.exit_code != 0 and message in result.output, result.output
        assert "Traceback" not in result.output


def test_lab_publish_writes_the_seat_tables_from_the_seats_results(tmp_path):
    # The README's seat tables are made from the seats-* results: 2 players in one table, 3 to 5
    # in a table per game, each seat's count as the results give it.
    result, readme, out, args = publish_in(tmp_path, {
        name: f'[experiment]\nname = "{name}"\nvariant = "{variant}"\nplayers = {players}\n'
              'ai = "random"\ngames = 5\nseed = 0\n'
        for name, variant, players in (("seats-code-l1", "spaghetti-code", 2),
                                       ("seats-monsters-l1-3p", "spaghetti-monsters", 3))},
        ("seats", "seats-players"))
    assert result.exit_code == 0, result.output
    assert "seats, seats-players written anew" in result.output
    text = readme.read_text(encoding="utf-8")
    two, more = text.split("<!-- lab:seats-players -->")
    row = next(line for line in two.splitlines() if line.startswith("| Spaghetti Code |"))
    games = [json.loads(line)["game"] for line in
             (out / "seats-code-l1.jsonl").read_text().splitlines()[1:]]
    first = sum(g["winner"] == g["first"] for g in games)
    assert f"| level 1 | 5 | {first / 5:.1%} (" in row and row.endswith("`seats-code-l1.toml` |")
    assert "**Battle of the Spaghetti Monsters**" in more and "Spaghetti Code**" not in more
    row = next(line for line in more.splitlines() if line.endswith("`seats-monsters-l1-3p.toml` |"))
    assert row.startswith("| 1 | 3 | 5 |") and row.count("%") >= 6
    # --readme-only writes the sections again from the results there are, playing nothing.
    saved = (out / "seats-code-l1.jsonl").read_text()
    readme.write_text(two.split("<!-- lab:seats -->")[0] + "<!-- lab:seats -->\n"
                      "<!-- /lab:seats -->\n", encoding="utf-8")
    result = CliRunner().invoke(cli, args + ["--readme-only"])
    assert result.exit_code == 0 and "seats written anew" in result.output
    assert "`seats-code-l1.toml` |" in readme.read_text(encoding="utf-8")
    assert (out / "seats-code-l1.jsonl").read_text() == saved


def test_lab_publish_writes_the_balance_table_from_the_ab_results(tmp_path):
    # Every A/B result gives rows: what arm b changes in words (the option's label), and each
    # seat's rate in both arms (every seat with 3 players) with the difference.
    result, readme, out, _ = publish_in(tmp_path, {"snake": (
        '[experiment]\nname = "snake"\nlevel = 2\nplayers = 3\nai = "random"\ngames = 6\n'
        'seed = 0\n\n[b]\noptions = {placement_order = "snake"}\n')}, ("balance",))
    assert result.exit_code == 0, result.output
    rows = [line for line in readme.read_text(encoding="utf-8").splitlines()
            if line.startswith("| ") and not line.startswith("| arm b")]
    assert rows[0].startswith("| Placement order: snake (back and forth) | Spaghetti Code, "
                              "level 2, 3 players | random | 6 | 1 |")
    assert [row.split("|")[5].strip() for row in rows] == ["1", "2", "3"]
    saved = [json.loads(line) for line in (out / "snake.jsonl").read_text().splitlines()[1:]]
    wins_b = sum(g["arm"] == "b" and g["game"]["winner"] == 2 for g in saved)
    assert rows[2].split("|")[7].strip() == f"{wins_b / 6:.1%}"


def test_lab_publish_sets_snake_placement_against_round_robin_by_strength(tmp_path):
    # The snake results pair with the round robin of the same players on the deals both played
    # (6 and 4 here: read on 4), and level 1 adds perfect play from the two exact solves.
    from spaghetti.lab.exact import exact_change

    result, readme, out, _ = publish_in(tmp_path, {
        name: f'[experiment]\nname = "{name}"\nai = "random"\ngames = {games}\n'
              f'seed = 100000\n{options}'
        for name, games, options in (
            ("strength-code-l1-random", 6, ""),
            ("strength-snake-code-l1-random", 4, 'options = {placement_order = "snake"}\n'))},
        ("strength", "snake"))
    assert result.exit_code == 0, result.output
    change = first_seat_change(out, "strength-code-l1-random", "strength-snake-code-l1-random")
    text = readme.read_text(encoding="utf-8")
    rows = text.split("<!-- lab:snake -->")[1].splitlines()
    assert (f"| 1 | 2 | random | 4 | first seat | {change.a.value:.1%} | {change.b.value:.1%} | "
            f"{shown(change)} |") in rows
    perfect = exact_change("snake")
    assert perfect.a.n == perfect.b.n > 100 and perfect.b.value < perfect.a.value
    assert (f"| 1 | 2 | perfect | {perfect.a.n} programs | first seat | {perfect.a.value:.1%} | "
            f"{perfect.b.value:.1%} | {shown(perfect)} |") in rows
    # The strength table keeps to the rulebook's results: the snake games are not a strength.
    strength = text.split("<!-- lab:snake -->")[0]
    rulebook = first_seat_change(out, "strength-code-l1-random", "strength-code-l1-random")
    assert f", {rulebook.a.k}/6) |" in strength and "/4) |" not in strength
