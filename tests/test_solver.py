"""The exact solver: its fast model against the engine, its values against plain minimax, and
the stalemate rule C9 as the search scores it."""

from __future__ import annotations

import random
import sys

import pytest

import spaghetti
from spaghetti.core import notation as N
from spaghetti.core.state import D_TURN
from spaghetti.solver.api import Timeout, solve
from spaghetti.solver.fast import END, IRR, REV, Model, from_state
from spaghetti.solver.search import Solver

from helpers import Budget, minimax_engine

pytestmark = pytest.mark.solver


PROGRAMS = [
    ["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"],
    ["ForkBomb", "RemoveFlag", "MoveFlag", "Bug", "AddFlag"],
    ["MoveFlag", "MoveFlag", "Bug", "ForkBomb"],
    ["AddFlag", "RemoveFlag", "ForkBomb", "MoveFlag", "Bug", "Bug"],
]


def random_turn_states(seed: int, games: int):
    """Engine states at turn decisions of random 2-player level-1 games."""
    rng = random.Random(seed)
    for g in range(games):
        program = PROGRAMS[g % len(PROGRAMS)]
        state = spaghetti.new_game(level=1, players=2, program=program)
        while not state.is_over:
            if state.decision == D_TURN:
                yield state
            acts = state.legal_actions()
            # run more often than pass, so that games reach their late positions
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.7 else acts))


def engine_turns(state):
    """Every way the engine can play the current turn to its end: {options: result}, where a
    result is ("end", winner) or ("pos", fast position)."""
    out = {}

    def walk(s, options):
        for a in s.legal_actions():
            t = s.copy()
            t.apply_action(a)
            opts = options + (N.to_string(a),)
            if t.is_over:
                out[opts] = ("end", t.winner)
            elif t.decision == D_TURN:
                out[opts] = ("pos", from_state(t)[1])
            else:
                walk(t, opts)

    walk(state, ())
    return out


def model_turns(model, pos, history):
    """The same from the fast model, with the repetition check done as the search does it."""
    seen = set(history) | {model.rep_key(pos)}
    out = {}
    for options, tag, res in model.moves(pos):
        if tag == END:
            out[options] = ("end", res)
        elif tag == REV and model.rep_key(res) in seen:
            out[options] = ("end", model.tiebreak(res))  # C9: auto stalemate
        else:
            out[options] = ("pos", res)
    return out


def test_fast_model_matches_the_engine_turn_by_turn():
    checked = 0
    for state in random_turn_states(seed=1, games=30):
        model, pos, history = from_state(state)
        assert pos[2] == state.to_move
        eng = engine_turns(state)
        mine = model_turns(model, pos, history)
        # the model lists each distinct result once: same results, and each of its option
        # sequences is one the engine plays to that very result
        assert set(eng.values()) == set(mine.values())
        for options, result in mine.items():
            assert eng[options] == result
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("order", ["round_robin", "snake"])
def test_fast_model_start_of_execution_matches_the_engine(order):
    from spaghetti.solver.level1 import placement_seats

    rng = random.Random(5)
    for program in PROGRAMS:
        for _ in range(10):
            state = spaghetti.new_game(level=1, program=program,
                                       options={"placement_order": order})
            model = Model(program, placement_seats(order))
            ppos = model.start()
            while state.phase == "placement":
                moves = dict(model.place_moves(ppos))
                assert sorted(moves) == sorted(state.legal())
                option = rng.choice(state.legal())
                state.apply(option)
                ppos = moves[option]
            assert ppos == from_state(state)[1]


def test_move_tags_say_what_changed():
    for state in random_turn_states(seed=2, games=3):
        model, pos, _ = from_state(state)
        for options, tag, res in model.moves(pos):
            if tag == REV:
                assert options[0] == "pass" or model.kinds[pos[1]] == 1  # pass or MoveFlag
                assert res[3:] == pos[3:]
            elif tag == IRR:
                assert res[3:] != pos[3:] or sum(map(len, res[0])) != sum(map(len, pos[0]))


# ------------------------------------------------------------------ plain minimax references


def minimax_fast(model, pos, seen, budget=None):
    """Exhaustive minimax over the fast model, the repetition history as a plain set; raises
    Budget when more than budget[0] positions would be needed."""
    if budget is not None:
        budget[0] -= 1
        if budget[0] < 0:
            raise Budget
    mover = pos[2]
    for _, tag, res in model.moves(pos):
        if tag == END:
            w = res
        elif tag == REV:
            key = model.rep_key(res)
            if key in seen:
                w = model.tiebreak(res)
            else:
                seen.add(key)
                try:
                    w = minimax_fast(model, res, seen, budget)
                finally:
                    seen.remove(key)
        else:
            w = minimax_fast(model, res, {model.rep_key(res)}, budget)
        if w == mover:
            return mover
    return 1 - mover


def test_solver_agrees_with_engine_minimax_on_late_positions(backend):
    """Late positions of random games, small enough for minimax through the engine itself."""
    compared = 0
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(50_000)  # lines of reversible turns run deep
    try:
        for state in random_turn_states(seed=3, games=60):
            if sum(state.lives) > 4:
                continue
            try:
                expected = minimax_engine(state.copy(), [3_000])
            except Budget:
                continue
            assert solve(state, line=False, backend=backend).winner == expected
            compared += 1
            if compared >= 10:
                break
    finally:
        sys.setrecursionlimit(old)
    assert compared >= 10


TINY = [
    (["MoveFlag", "Bug"], (0, 1), 2, 0),
    (["MoveFlag", "RemoveFlag", "Bug"], (0, 1), 2, 0),
    (["ForkBomb", "MoveFlag", "AddFlag"], (0, 1), 2, 1),
    (["MoveFlag", "MoveFlag"], (0, 1), 1, 0),
    (["MoveFlag", "RemoveFlag", "MoveFlag"], (0, 1), 1, 0),
    (["ForkBomb", "Bug", "RemoveFlag"], (0, 1, 0, 1), 3, 1),
]


@pytest.mark.parametrize("program,order,life,supply", TINY)
def test_solver_agrees_with_fast_minimax_on_every_tiny_position(program, order, life, supply,
                                                                backend):
    """Tiny games (few cards, flags and lives): every reachable turn position, solved both by
    the search (path-aware table) and by exhaustive minimax, with and without a history."""
    model = Model(program, order, life, supply)
    starts = set()
    stack = [model.start()]
    while stack:
        ppos = stack.pop()
        for _, child in model.place_moves(ppos):
            (stack.append if child[0] == "place" else starts.add)(child)
    solver = Solver(model, backend=backend)
    compared = 0
    for start in sorted(starts):
        # the start, and positions along a few lines of play with their histories
        rng = random.Random(hash(start) & 0xFFFF)
        for _ in range(3):
            pos, seen = start, [model.rep_key(start)]
            for _ in range(12):
                history = set(seen[:-1])
                try:
                    expected = minimax_fast(model, pos, set(seen), [20_000])
                except Budget:
                    break
                assert solver.value(pos, history) == expected
                compared += 1
                moves = [m for m in model.moves(pos) if m[1] != END]
                moves = [m for m in moves if m[1] == IRR or model.rep_key(m[2]) not in seen]
                if not moves:
                    break
                _, tag, pos = rng.choice(moves)
                seen = [model.rep_key(pos)] if tag == IRR else seen + [model.rep_key(pos)]
    assert compared > 20


# ------------------------------------------------------------------ C9 stalemate scoring

def test_c9_repetition_is_scored_by_the_tie_break_of_the_repeated_position(backend):
    """Two MoveFlag cards and nothing else: no turn is irreversible, so every game ends by a
    repetition (C9), and the value is the tie-break of the position that repeats."""
    model = Model(["MoveFlag", "MoveFlag"], (0, 1), 1, 0)
    start = model.begin(((0,), (8,)))
    # seat 0's flag on card 0 has the turn; each side has 1 flag and 1 life: (1), (2) tie,
    # (3) heads tie, (4) the cursor's card decides.
    assert model.tiebreak(start) == 0 and model.tiebreak(model.begin(((8,), (0,)))) == 1
    expected = minimax_fast(model, start, {model.rep_key(start)})
    assert Solver(model, backend=backend).value(start) == expected


def test_c9_auto_stalemate_ends_at_the_first_repeated_position_like_the_engine():
    """Pass-only play repeats after one round; the engine then ends the game with the
    tie-break winner, and the model's repetition check plus tiebreak say the same."""
    state = spaghetti.new_game(level=1, program=["Bug", "MoveFlag", "AddFlag", "RemoveFlag",
                                                 "ForkBomb"])
    for o in "place 0,place 3,place 4,place 0,place 1,place 2,place 3,place 4".split(","):
        state.apply(o)
    model, pos, history = from_state(state)
    seen = {model.rep_key(pos)}
    while not state.is_over:
        options, tag, res = next(m for m in model.moves(pos) if m[0] == ("pass",))
        state.apply("pass")
        if model.rep_key(res) in seen:
            assert state.is_over and state.reason == "stalemate"
            assert state.winner == model.tiebreak(res)
            break
        seen.add(model.rep_key(res))
        pos = res
    assert state.is_over


def test_c9_tie_break_criteria_in_order():
    model = Model(["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"])
    qs = ((0, 8), (8,), (0,), (0,), (8,))
    assert model.tiebreak((qs, 0, 0, (4, 5), (6, 6))) == 1  # (1) most life
    qs2 = ((0, 8), (0,), (0,), (), (0, 8))
    assert model.tiebreak((qs2, 0, 0, (5, 5), (6, 6))) == 0  # (2) most flags
    assert model.tiebreak((((0, 8), (8,), (8,), (8,), (0,)), 0, 0, (5, 5), (6, 6))) == 1
    # (3) most heads: seat 0 heads cards 0, 2, 3
    assert model.tiebreak((qs, 0, 0, (5, 5), (6, 6))) == 0
    # (4) heads tie: the head of the cursor's card, else the next non-empty card
    qs3 = ((0, 8), (8, 0), (), (8,), (0,))
    assert model.tiebreak((qs3, 1, 1, (5, 5), (6, 6))) == 1
    assert model.tiebreak((qs3, 2, 1, (5, 5), (6, 6))) == 1
    assert model.tiebreak((qs3, 4, 0, (5, 5), (6, 6))) == 0


def test_c9_history_changes_the_value_and_the_solver_follows_it(backend):
    """A position whose value depends on the path (graph-history interaction): the solver's
    values with each history agree with minimax given the same history."""
    model = Model(["MoveFlag", "RemoveFlag", "MoveFlag"], (0, 1), 1, 0)
    found = 0
    for qs in [((0,), (), (8,)), ((8,), (0,), ()), ((0, 8), (), ()), ((), (8,), (0,))]:
        start = model.begin(qs)
        line = [start]
        pos = start
        for _ in range(6):
            nxt = [r for _, t, r in model.moves(pos) if t == REV and r not in line]
            if not nxt:
                break
            pos = nxt[-1]
            line.append(pos)
        solver = Solver(model, backend=backend)
        for i, p in enumerate(line):
            hist = {model.rep_key(x) for x in line[:i]}
            try:
                expect_h = minimax_fast(model, p, hist | {model.rep_key(p)}, [50_000])
                expect = minimax_fast(model, p, {model.rep_key(p)}, [50_000])
            except Budget:
                continue
            assert solver.value(p, hist) == expect_h
            assert solver.value(p) == expect
            found += 1
    assert found >= 5


def test_solve_mid_command_and_the_principal_line_is_a_won_game(backend):
    """Late positions in the middle of a command (a target to choose): the line the solver
    gives is legal from there and ends with the winner it announced."""
    rng = random.Random(11)
    done = 0
    for g in range(200):
        state = spaghetti.new_game(level=1, program=PROGRAMS[g % len(PROGRAMS)])
        while not state.is_over and done < 6:
            if state.deciding in ("to", "flag", "player", "card") and sum(state.lives) <= 3:
                try:
                    result = solve(state, time_limit=3, backend=backend)
                except Timeout:
                    break
                replay = state.copy()
                for option in result.line:
                    replay.apply(option)
                assert replay.is_over and replay.winner == result.winner
                done += 1
                break
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.8 else acts))
        if done >= 6:
            break
    assert done >= 6


# ------------------------------------------------------------------ command line

def _late_record(tmp_path):
    """A record ending in a late position the solver proves at once."""
    from spaghetti import records
    rng = random.Random(4)
    for _ in range(200):
        state = spaghetti.new_game(level=1, program=PROGRAMS[0])
        while not state.is_over:
            if state.decision == D_TURN and sum(state.lives) <= 3:
                try:
                    solve(state, time_limit=2, line=False)
                except Timeout:
                    break
                path = tmp_path / "late.json"
                path.write_text(records.dumps(state))
                return path
            acts = state.legal_actions()
            run = [a for a in acts if a != N.PASS]
            state.apply_action(rng.choice(run if run and rng.random() < 0.8 else acts))
    raise AssertionError("no late position found")


def test_cli_solve_a_record_prints_the_winner_and_a_line(tmp_path):
    import json

    from click.testing import CliRunner

    from spaghetti.cli.main import cli
    path = _late_record(tmp_path)
    out = CliRunner().invoke(cli, ["solve", str(path), "--json", "--time-limit", "30"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output.strip().splitlines()[-1])
    assert data["winner"] in (0, 1) and data["line"]
    out = CliRunner().invoke(cli, ["solve", str(path)])
    assert out.exit_code == 0 and "winner under perfect play: seat" in out.output


def test_cli_solve_bad_input_is_one_line():
    from click.testing import CliRunner

    from spaghetti.cli.main import cli
    runner = CliRunner()
    out = runner.invoke(cli, ["solve"])
    assert out.exit_code == 2 and "give a record FILE" in out.output
    out = runner.invoke(cli, ["solve", "--level", "1"])
    assert out.exit_code == 2 and "--program" in out.output
    out = runner.invoke(cli, ["solve", "--level", "1", "--program", "Bug,Nope,AddFlag,Bug"])
    assert out.exit_code == 2 and "unknown card" in out.output


def test_cli_solve_time_limit_exits_3():
    from click.testing import CliRunner

    from spaghetti.cli.main import cli
    out = CliRunner().invoke(cli, ["solve", "--level", "1", "--time-limit", "0.2", "--program",
                                   "AddFlag,MoveFlag,RemoveFlag,Bug,ForkBomb"])  # minutes
    assert out.exit_code == 3 and "time limit" in out.output


def test_level1_results_file_resumes_and_makes_markdown(tmp_path, monkeypatch):
    from spaghetti.solver import level1
    calls = []

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        calls.append(program)
        return {"program": level1.program_id(program), "status": "solved",
                "winner": len(calls) % 2, "seconds": 0.1, "nodes": 1, "line": ["place 0"]}

    monkeypatch.setattr(level1, "solve_one", fake)
    path = str(tmp_path / "level1.json")
    level1.run(path, workers=1, limit=3)
    assert len(calls) == 3
    level1.run(path, workers=1, limit=2)  # resumes: the next two programs, not the first three
    assert len(calls) == 5 and len(set(calls)) == 5
    data = level1.load(path)
    assert level1.summary(data)["solved"] == 5
    md = level1.markdown(data)
    assert "Solved: 5 of 120" in md and md.count("not yet solved") == 115
    # titled by what it holds until every program is proven; the C core's hash assumption
    assert md.startswith("# Level 1: 5 of 120 programs solved\n")
    assert "64-bit hash" in md
    # what it means for the rules: the advantage bounded by the open programs; the fair rule
    assert "between 1.7% and 97.5%" in md  # 2 first-player wins, 115 programs open
    assert "hands the game to B" in md


def test_level1_snake_placement_order_is_solved_in_a_results_file_of_its_own(tmp_path,
                                                                              monkeypatch):
    from click.testing import CliRunner

    from spaghetti.cli.main import cli
    from spaghetti.solver import level1

    assert level1.placement_seats("snake") == (0, 1, 1, 0, 0, 1, 1, 0)
    assert level1.placement_seats() == (0, 1) * 4
    orders = []

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        orders.append(order)
        return {"program": level1.program_id(program), "status": "solved", "winner": 1,
                "seconds": 0.1, "nodes": 1, "line": ["place 0"]}

    monkeypatch.setattr(level1, "solve_one", fake)
    path = str(tmp_path / "snake.json")
    level1.run(path, workers=1, limit=2, order="snake")
    assert orders == ["snake", "snake"]
    data = level1.load(path, "snake")
    assert level1.order_of(data) == "snake" and list(data)[-1] == "results"
    with pytest.raises(ValueError, match="placement order snake, not round_robin"):
        level1.load(path, "round_robin")
    out = CliRunner().invoke(cli, ["solve-level1", "--output", path, "--limit", "1"])
    assert out.exit_code != 0 and "give --placement-order snake" in out.output
    assert "Traceback" not in out.output
    md = level1.markdown(data)
    assert md.startswith("# Level 1 with the snake placement order: 2 of 120 programs solved")
    assert "seats 0, 1, 1, 0, 0, 1, 1, 0" in md and "--placement-order snake" in md
    assert "the first player wins 0 and the second player 2." in " ".join(md.split())
    assert "level1-open.md" not in md  # (the open programs' parts are the round robin's)
    # a table of one order is never taken up by a solve of the other
    assert level1.table_path("t", level1.CARDS, 64, "snake") != level1.table_path(
        "t", level1.CARDS, 64)


def test_level1_runs_sharing_a_file_keep_each_others_results(tmp_path, monkeypatch):
    """Two runs on one results file, each given its programs: a result saved by the other run
    after this one read the file survives, and a later timeout never replaces a proof."""
    from spaghetti.solver import level1
    path = str(tmp_path / "level1.json")
    a, b = level1.programs()[:2]
    other = {"program": level1.program_id(b), "status": "solved", "winner": 1, "seconds": 1.0,
             "nodes": 1, "line": ["place 0"]}

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        level1.merge(path, other)  # the other run finishes while this one searches
        return {"program": level1.program_id(program), "status": "timeout", "seconds": 0.1,
                "time_limit": time_limit}

    monkeypatch.setattr(level1, "solve_one", fake)
    data = level1.run(path, workers=1, only=[a])
    assert set(data["results"]) == {level1.program_id(a), level1.program_id(b)}
    level1.merge(path, {"program": level1.program_id(b), "status": "timeout", "seconds": 9.0,
                        "time_limit": 9.0})
    kept = level1.load(path)["results"][level1.program_id(b)]
    assert {k: v for k, v in kept.items() if k != "spent"} == other
    assert kept["spent"] == 10.0  # both attempts count towards the run's cost
    level1.merge(path, other)  # the same attempt again (a copied file merged twice): no change
    assert level1.summary(level1.load(path))["seconds"] == 0.1 + 10.0


def test_level1_run_skips_a_program_another_run_did_meanwhile(tmp_path, monkeypatch):
    from spaghetti.solver import level1
    path = str(tmp_path / "level1.json")
    a, b, c = level1.programs()[:3]
    calls, seen = [], []

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        calls.append(program)
        if program == a:  # meanwhile another run proves b
            level1.merge(path, {"program": level1.program_id(b), "status": "solved",
                                "winner": 0, "seconds": 1.0, "nodes": 1, "line": ["place 0"]})
        return {"program": level1.program_id(program), "status": "timeout", "seconds": 0.1,
                "time_limit": time_limit}

    monkeypatch.setattr(level1, "solve_one", fake)
    level1.run(path, workers=1, only=[a, b, c], on_result=seen.append)
    assert calls == [a, c]
    assert [r["status"] for r in seen] == ["timeout", "skipped", "timeout"]
    assert len(level1.load(path)["results"]) == 3


def test_level1_saved_table_carries_work_over_to_the_next_attempt(tmp_path):
    """An attempt that runs out of time leaves its table; the next one goes on from it (fewer
    new positions than a fresh start needs) and deletes it once the program is proven."""
    from spaghetti.solver import level1
    from spaghetti.solver.search import c_unsupported_reason
    from spaghetti.solver.fast import Model
    if c_unsupported_reason(Model(list(level1.CARDS))) is not None:
        pytest.skip("the C search is not built")
    program = ("AddFlag", "Bug", "MoveFlag", "ForkBomb", "RemoveFlag")  # seconds: 5.4M nodes
    tables = str(tmp_path / "tables")
    fresh = level1.solve_one(program, None, 64)
    first = level1.solve_one(program, 1.0, 64, tables)
    assert first["status"] == "timeout"
    saved = list((tmp_path / "tables").iterdir())
    assert len(saved) == 1 and saved[0].stat().st_size > 64 << 20
    second = level1.solve_one(program, None, 64, tables)
    assert second["status"] == "solved" and second["winner"] == fresh["winner"]
    assert second["nodes"] < fresh["nodes"]
    assert not any((tmp_path / "tables").iterdir())


def test_cli_solve_level1_killed_keeps_the_table(tmp_path):
    """SIGTERM stops solve-level1 like Ctrl-C: the program's table is saved for --tables, and
    no result is recorded for the interrupted program."""
    import signal
    import subprocess
    import sys
    import time
    from spaghetti.solver import level1
    from spaghetti.solver.fast import Model
    from spaghetti.solver.search import c_unsupported_reason
    if c_unsupported_reason(Model(list(level1.CARDS))) is not None:
        pytest.skip("the C search is not built")
    out, tables = tmp_path / "level1.json", tmp_path / "tables"
    proc = subprocess.Popen(
        [sys.executable, "-m", "spaghetti", "solve-level1", "--output", str(out), "--workers",
         "1", "--table-mb", "16", "--tables", str(tables), "--time-limit", "600",
         "--program", "AddFlag,MoveFlag,RemoveFlag,Bug,ForkBomb"],  # minutes
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    time.sleep(4)
    proc.send_signal(signal.SIGTERM)
    output, _ = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "Traceback" not in output
    assert [p.name for p in tables.iterdir()] == [
        "AddFlag,MoveFlag,RemoveFlag,Bug,ForkBomb.16mb.table"]
    assert not out.exists() or not level1.load(str(out))["results"]


def test_saved_table_of_another_program_is_refused(tmp_path):
    from spaghetti.solver.fast import Model
    from spaghetti.solver.search import Solver, c_unsupported_reason
    a = Model(["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"])
    if c_unsupported_reason(a) is not None:
        pytest.skip("the C search is not built")
    solver = Solver(a, table_mb=16)
    winner = solver.value(a.start())
    path = str(tmp_path / "t.table")
    solver.save_table(path)
    other = Solver(Model(["MoveFlag", "Bug", "AddFlag", "RemoveFlag", "ForkBomb"]), table_mb=16)
    with pytest.raises(ValueError, match="not a saved table"):
        other.load_table(path)
    with pytest.raises(ValueError, match="not a saved table"):
        Solver(a, table_mb=32).load_table(path)
    again = Solver(a, table_mb=16)
    again.load_table(path)
    assert again.table_size == solver.table_size
    assert again.value(a.start()) == winner and again.nodes == 0  # proven already: no search


def _quick_solve_one(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
    """A stand-in for level1.solve_one that pool workers can unpickle."""
    from spaghetti.solver import level1
    return {"program": level1.program_id(program), "status": "solved", "winner": 1,
            "seconds": 0.0, "nodes": 1, "line": ["place 0"]}


def test_level1_run_in_a_process_pool(tmp_path, monkeypatch):
    from spaghetti.solver import level1
    monkeypatch.setattr(level1, "solve_one", _quick_solve_one)  # forked workers inherit it
    path = str(tmp_path / "level1.json")
    seen = []
    data = level1.run(path, workers=2, limit=5, on_result=seen.append)
    assert len(seen) == 5 and len(data["results"]) == 5
    assert set(data["results"]) == {level1.program_id(p) for p in level1.programs()[:5]}


def test_cli_solve_level1_program_option(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from spaghetti.cli.main import cli
    from spaghetti.solver import level1
    calls = []

    def fake(program, time_limit=None, table_mb=None, tables=None, order="round_robin"):
        calls.append((program, tables))
        return {"program": level1.program_id(program), "status": "solved", "winner": 0,
                "seconds": 0.1, "nodes": 1, "line": ["place 0"]}

    monkeypatch.setattr(level1, "solve_one", fake)
    path = str(tmp_path / "level1.json")
    out = CliRunner().invoke(cli, ["solve-level1", "--output", path, "--workers", "1",
                                   "--program", "Bug,ForkBomb,AddFlag,MoveFlag,RemoveFlag",
                                   "--tables", str(tmp_path / "tables")])
    assert out.exit_code == 0, out.output
    assert calls == [(("Bug", "ForkBomb", "AddFlag", "MoveFlag", "RemoveFlag"),
                      str(tmp_path / "tables"))]
    bad = CliRunner().invoke(cli, ["solve-level1", "--output", path, "--program", "Bug,Bug"])
    assert bad.exit_code == 2 and "not a level-1 program" in bad.output
    assert "Traceback" not in bad.output and len(level1.load(path)["results"]) == 1


def test_level1_run_on_a_local_ray_cluster(tmp_path):
    """The same resumable job through Ray, on a local Ray cluster of one CPU started for the
    test (Ray no longer has an in-process local mode): results arrive one program at a time and
    are saved, and a second run skips them."""
    ray = pytest.importorskip("ray")
    from spaghetti.solver import level1

    # address="local": a Ray of its own, even while another test runs a `ray start` cluster.
    ray.init(address="local", num_cpus=1, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    try:
        path = str(tmp_path / "level1.json")
        seen = []
        data = level1.run(path, time_limit=0.1, limit=2, ray_address="local",
                          on_result=seen.append)
        assert len(seen) == 2 and len(data["results"]) == 2
        assert {r["program"] for r in seen} == set(level1.load(path)["results"])
        again = level1.run(path, time_limit=0.1, limit=2, ray_address="local")
        assert len(again["results"]) == 4  # the next two: the first two were skipped
    finally:
        ray.shutdown()


def test_published_level1_results_replay_to_their_winners():
    """Every solved program in docs/solved/level1.json: its principal line is a legal game of
    that program, through the engine, that ends with the claimed winner."""
    import json
    import pathlib

    from spaghetti.solver import level1
    path = pathlib.Path(__file__).resolve().parent.parent / "docs" / "solved" / "level1.json"
    data = level1.load(str(path))
    checked = 0
    for program_id, r in data["results"].items():
        if r["status"] != "solved":
            continue
        state = spaghetti.new_game(level=1, players=2, program=program_id.split(","))
        for option in r["line"]:
            state.apply(option)
        assert state.is_over and state.winner == r["winner"], program_id
        checked += 1
    assert json.loads(path.read_text())["format"] == level1.FORMAT
    assert checked == level1.summary(data)["solved"]
    assert sum(n for _, n in level1.first_placements(data)) == checked
    rows = level1.by_position(data, "MoveFlag")
    assert [r[0] for r in rows] == [0, 1, 2, 3, 4] and all(r[1] == 24 for r in rows)
    assert sum(r[2] for r in rows) == checked
    assert max(r[4] for r in rows) == max(r["seconds"] for r in data["results"].values()
                                          if r["status"] == "solved")
