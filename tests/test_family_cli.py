"""The command line across the games of the family and the expansions: --game, --seat,
export, the move clock, the arena."""

from __future__ import annotations

import json
import random
import time

import pytest
from click.testing import CliRunner
from rich.console import Console

import spaghetti
from spaghetti import records
from spaghetti.cli.main import cli
from spaghetti.cli.play import Session

VARIANTS = ["spaghetti-code", "spaghetti-monsters", "pasta-logic", "nightmare"]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


@pytest.mark.parametrize("variant", VARIANTS)
def test_new_and_replay_every_game_of_the_family(variant, tmp_path):
    path = tmp_path / "g.json"
    result = run("new", "--game", variant, "--seed", "3", "-o", str(path))
    assert result.exit_code == 0, result.output
    data = json.loads(path.read_text())
    assert data["variant"] == variant
    result = run("play", "--load", str(path), "--vs", "random", input="1\n" * 400)
    assert result.exit_code == 0, result.output
    title = {"spaghetti-code": "Spaghetti Code", "spaghetti-monsters": "Spaghetti Monsters",
             "pasta-logic": "Pasta Logic", "nightmare": "Nightmare"}[variant]
    assert title in result.output


def test_unknown_game_is_one_clear_error():
    result = run("new", "--game", "chess")
    assert result.exit_code == 2 and "chess" in result.output


def test_state_for_a_seat_hides_the_other_instant_card(tmp_path):
    state = spaghetti.new_game(3, 2, seed=5, options={"instant_cards": True})
    state.apply("take 0")
    state.apply("take 1")
    path = tmp_path / "g.json"
    path.write_text(records.dumps(state))
    seen = json.loads(run("state", str(path), "--seat", "0").output)
    assert seen["instant"][0]["card"] is not None and seen["instant"][1]["card"] is None
    assert seen["viewer"] == 0
    referee = json.loads(run("state", str(path)).output)
    assert referee["instant"][1]["card"] is not None
    masked = json.loads(run("export", str(path), "--seat", "1").output)
    assert masked["masked_for"] == 1 and masked["instant_deal"].count(None) == 2
    result = run("state", str(path), "--seat", "7")
    assert result.exit_code == 2 and "viewer" in result.output


def test_move_clock_plays_at_random_for_a_person_over_time():
    state = spaghetti.new_game(1, 2, seed=2, variant="nightmare")
    lines = iter(["1"] * 3)

    def slow(prompt: str) -> str:
        if len(state.history) == 0:
            time.sleep(2)  # the clock rings first
        return next(lines)

    session = Session(state, [None, spaghetti.ai.RandomPlayer(1)], console=Console(
        width=100, record=True), read_line=slow, clear=False, move_clock=1, seed=4)
    try:
        session.run()
    except StopIteration:
        pass
    assert "Time ran out" in session.console.export_text()
    assert session.who[0] == "computer"  # the first move was played for the person


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["pasta-logic", "nightmare"])
def test_arena_plays_every_game(variant):
    result = run("arena", "--players", "easy,random", "--game", variant, "--games", "2")
    assert result.exit_code == 0, result.output
    assert "Elo" in result.output


SETUPS = [("spaghetti-code", 3, 2, {"instant_cards": True, "sequential_open": True}),
          ("spaghetti-code", 2, 2, {"fair_first": True, "memory": True}),
          ("spaghetti-code", 1, 3, {"interrupt": True, "reverse_priority": True}),
          ("spaghetti-monsters", 3, 2, {"instant_cards": True}),
          ("pasta-logic", 1, 2, {"setup": "inflation"}),
          ("pasta-logic", 1, 2, {}),
          ("nightmare", 1, 2, {"coin_flip": True}),
          ("nightmare", 1, 4, {})]


@pytest.mark.parametrize("variant,level,players,options", SETUPS)
def test_every_move_of_every_game_has_words_in_both_languages(variant, level, players, options):
    import random

    from spaghetti.i18n import describe, option_label

    rng = random.Random(variant)
    for seed in range(12):
        state = spaghetti.new_game(level, players, seed=seed, options=options, variant=variant)
        while not state.is_over:
            legal = state.legal()
            for option in legal[:4]:
                assert option_label(state, option, "ja") and option_label(state, option)
            option = rng.choice(legal)
            assert describe(state, option) and describe(state, option, "ja")
            state.apply(option)


def test_a_loaded_game_with_coin_flips_counts_them_as_nobodys_choice():
    # The coin flips of the Nightmare notes have no seat to move: a record that has them can be
    # loaded (and undone into), each flip counted as a forced move, as when it was played.
    state = spaghetti.new_game(1, 2, seed=0, variant="nightmare", options={"coin_flip": True})
    flips = []
    rng = random.Random(0)
    while not state.is_over and not flips:
        if state.is_chance:
            flips.append(len(state.history))
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal()))
    assert flips, "the game had no coin flip"
    session = Session(state, [None, None], console=Console(width=100, record=True), clear=False)
    assert all(session.who[i] == "forced" for i in flips)
