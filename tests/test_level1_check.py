"""The second check of the level-1 proofs by play (issue: level 1 solved, checked by a second
method): the proven winner's strategy against opponents through the engine."""

from __future__ import annotations

import json
import os

import pytest

from spaghetti.lab import level1_check
from spaghetti.solver import level1
from spaghetti.solver.search import _csearch

pytestmark = pytest.mark.solver

PROGRAM = ["AddFlag", "Bug", "ForkBomb", "MoveFlag", "RemoveFlag"]  # seat 0 wins, 23,573 positions


def test_second_check_the_proven_winner_wins_against_each_first_placement_and_random():
    checker = level1_check.Checker(PROGRAM, winner=0, table_mb=64)
    firsts = checker.first_placements()
    assert firsts == 5  # seat 1 may start on any of the five cards
    for opponent in ["first 0", f"first {firsts - 1}", "random 1", "easy 0"]:
        game = checker.play(opponent)
        assert game["held"] and game["winner"] == 0, game
        assert game["decisions"] > 8  # a whole game: the placements and more


def test_second_check_fails_for_a_winner_the_proof_does_not_give():
    # The check can fail: claim that seat 1 wins, and let seat 0 open with its proven first
    # placement; seat 1's strategy then finds no win to play.
    import spaghetti
    from spaghetti.core import notation as N

    start = spaghetti.new_game(level=1, program=PROGRAM)
    opening, _ = level1_check.Checker(PROGRAM, winner=0, table_mb=64).move(start)
    assert opening is not None
    index = start.legal_actions().index(N.parse(opening))
    game = level1_check.Checker(PROGRAM, winner=1, table_mb=64).play(f"first {index}")
    assert not game["held"] and game["proven_winner"] == 1


def test_second_check_resumes_and_its_counts_reach_the_markdown(tmp_path):
    path = str(tmp_path / "check.jsonl")
    results = {"results": {",".join(PROGRAM): {"program": ",".join(PROGRAM), "status": "solved",
                                               "winner": 0, "seconds": 0.3, "line": []}}}
    first = list(level1_check.check(results, path))
    assert len(first) == 5 + len(level1_check.OPPONENTS)
    assert list(level1_check.check(results, path)) == []  # nothing left: nothing played again
    with open(path) as f:
        assert len([json.loads(line) for line in f]) == len(first)
    s = level1_check.summary(path)
    assert s["programs"] == 1 and s["failed"] == 0 and s["by_kind"]["first"] == 5
    data = {"results": {}}
    md = level1.markdown(data, s)
    assert "## A second check, by play" in md and f"{s['games']} games over 1 programs" in md
    assert "The proven winner won every one." in md


def test_second_check_counts_a_program_stopped_part_of_the_way_as_still_to_check(tmp_path):
    path = tmp_path / "check.jsonl"
    done = [{"program": "A", "opponent": o, "held": True} for o in level1_check.opponents(2)]
    part = [{"program": "B", "opponent": "first 0", "held": True}]
    path.write_text("".join(json.dumps(g) + "\n" for g in done + part))
    s = level1_check.summary(str(path))
    assert (s["programs"], s["complete"]) == (2, 1)
    text = level1.second_check(s, solved=3)
    assert "2 proven programs are still to be checked this way, 1 of them part of the way" in text


@pytest.mark.skipif(_csearch is None, reason="tables are kept by the C search only")
def test_second_check_stopped_keeps_its_table_and_takes_it_up(tmp_path):
    path, tables = str(tmp_path / "check.jsonl"), str(tmp_path / "tables")
    other = ["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"]
    results = {"results": {",".join(p): {"program": ",".join(p), "status": "solved",
                                         "winner": 0, "seconds": 0.3, "line": []}
                           for p in (PROGRAM, other)}}
    games = level1_check.check(results, path, table_mb=64, only={",".join(PROGRAM)},
                               tables=tables)
    first = next(games)
    assert first["program"] == ",".join(PROGRAM)
    try:
        games.throw(KeyboardInterrupt)  # stopped after its first game
    except KeyboardInterrupt:
        pass
    saved = level1.table_path(tables, PROGRAM, 64)
    assert os.path.exists(saved)  # the table is kept
    rest = list(level1_check.check(results, path, table_mb=64, only={",".join(PROGRAM)},
                                   tables=tables))
    assert len(rest) == 4 + len(level1_check.OPPONENTS)  # it goes on where it was
    assert all(g["held"] and g["program"] == ",".join(PROGRAM) for g in rest)  # only that one
    assert not os.path.exists(saved)  # checked: the table is deleted
