"""The extra cards ReversePriority (C10) and Memory (C11), and the option reverse_flips_priority
(SPEC section 3)."""

import json

import pytest

import spaghetti
from spaghetti import Game, SetupError, records

from helpers import setup

RP = {"reverse_priority": True}
MEMORY = {"memory": True}


# ---------------------------------------------------------------------------- options


def test_extra_cards_need_their_option():
    program = ["AddFlag", "Bug", "Memory", "MoveFlag", "RemoveFlag"]
    with pytest.raises(SetupError, match="option memory"):
        spaghetti.new_game(1, 2, program=program)
    assert spaghetti.new_game(1, 2, program=program, options=MEMORY).program[2] == "Memory"


def test_extra_cards_join_the_shuffled_deck():
    names = [c.name for c in Game(1, 2, options={**RP, **MEMORY}).deck]
    assert names[-2:] == ["ReversePriority", "Memory"] and len(names) == 7
    assert sorted(Game(2, 2, options=RP).shuffled_program(3)) == sorted(
        c.name for c in Game(2, 2, options=RP).deck)


@pytest.mark.parametrize("word,value", [("on", True), ("true", True), ("off", False),
                                        (False, False), (True, True)])
def test_boolean_options_accept_words(word, value):
    assert Game(options={"memory": word}).options["memory"] is value


@pytest.mark.parametrize("bad", [1, 0, "maybe", None])
def test_boolean_options_refuse_other_values(bad):
    with pytest.raises(SetupError, match="memory"):
        Game(options={"memory": bad})


def test_expansion_options_round_trip_in_records():
    state = spaghetti.new_game(2, 2, seed=4, options={**RP, **MEMORY,
                                                     "reverse_flips_priority": True})
    text = records.dumps(state)
    assert '"memory": true' in text
    assert records.loads(text).game.options == state.game.options


# ---------------------------------------------------------------------------- C10


def c10_game(actions=()):
    program = ["ReversePriority", "Bug", "AddFlag", "MoveFlag", "RemoveFlag"]
    return setup(1, 2, program, [[0, 1, 2, 3], [0, 1, 2, 4]], list(actions), options=RP)


def test_c10_only_the_head_flag_gets_the_turn():
    state = c10_game()
    assert state.cursor == 0 and state.to_move == 0
    assert state.pending(0) == [False, False]  # seat 1's flag gets no turn in this visit


def test_c10_flag_that_passed_stays_at_head_and_cursor_advances():
    state = c10_game(["pass"])
    assert state.owners(0) == [0, 1]
    assert state.cursor == 1 and state.to_move == 0


def test_c10_flag_that_ran_goes_to_the_tail():
    state = c10_game(["pass", "run", "player 1"])
    assert state.lives == [5, 4]
    assert state.owners(1) == [1, 0]
    assert state.cursor == 2


def test_reversepriority_reverses_every_other_queue():
    state = c10_game(["run"])
    assert state.owners(1) == [1, 0] and state.owners(2) == [1, 0]
    assert state.owners(0) == [1, 0]  # its own queue is not reversed, but C10 sends the runner back
    assert state.cursor == 1 and state.to_move == 1


def test_c10_ends_when_reversepriority_is_removed():
    program = ["ReversePriority", "RemoveCommand", "Bug", "AddFlag", "MoveFlag"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]], ["pass", "run", "card 0"],
                  options=RP)
    assert [k.name for k in state.kinds][0] == "RemoveCommand"
    # Back to C1 on the next arrival: both of Bug's flags get a turn.
    assert state.cursor == 1 and state.pending(1) == [False, True]


# ---------------------------------------------------------------------------- C11


def test_c11_memory_runs_the_two_previous_commands_older_first():
    program = ["AddFlag", "Bug", "Memory", "MoveFlag", "RemoveFlag"]
    state = setup(1, 2, program, [[0, 1, 2, 3], [0, 1, 3, 4]], ["pass"] * 4, options=MEMORY)
    assert state.cursor == 2 and state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.choosing == "add_flag"
    assert "card 2" not in state.legal()  # "this card" is the Memory card
    state.apply("card 4")
    assert state.choosing == "damage"
    state.apply("player 1")
    assert state.owners(4) == [1, 0] and state.lives == [5, 4] and state.supply[0] == 5


def test_c11_empty_cards_count_as_visited():
    program = ["RemoveFlag", "Bug", "AddFlag", "Memory", "MoveFlag"]
    state = setup(1, 2, program, [[0, 1, 3, 4], [0, 1, 3, 4]], ["pass"] * 4, options=MEMORY)
    assert state.cursor == 3
    state.apply("run")
    assert state.choosing == "damage"  # Bug, then the empty AddFlag card
    state.apply("player 1")
    assert state.choosing == "add_flag"


def test_c11_remembered_commands_use_printed_values():
    program = ["Increment", "Bug", "Memory", "AddFlag", "MoveFlag", "RemoveFlag"]
    every = list(range(6))
    state = setup(3, 2, program, [every, every], ["run", "param 1.1", "pass", "pass", "pass"],
                  options=MEMORY)
    assert state.values(1) == (1, 2) and state.cursor == 2 and state.to_move == 0
    state.apply("run")
    state.apply("param 1.1")  # the remembered Increment raises by its printed 1
    assert state.values(1) == (1, 3)
    state.apply("player 1")  # the remembered Bug hits for its printed 1, not 3
    assert state.lives == [5, 4]


def test_c11_remembered_memory_does_nothing():
    program = ["Memory", "Memory", "Memory", "Bug", "AddFlag"]
    state = setup(1, 2, program, [[0, 1, 2, 3], [0, 1, 2, 4]], options=MEMORY)
    for card in range(3):  # nothing remembered, one Memory, two Memories: nothing to run
        assert state.cursor == card and state.legal() == ["pass"]
        state.apply("pass")
        state.apply("pass")


def test_c11_forkbomb_removes_the_memory_cards_flag():
    program = ["ForkBomb", "Bug", "Memory", "AddFlag", "MoveFlag"]
    state = setup(1, 2, program, [[0, 1, 2, 3], [0, 1, 3, 4]], ["pass"] * 4, options=MEMORY)
    state.apply("run")
    state.apply("player 1")  # ForkBomb: 2 damage, then the Memory's flag leaves
    state.apply("player 1")  # Bug: 1 damage
    assert state.lives == [5, 2]
    assert state.owners(2) == [] and state.removed == [1, 0]


# ---------------------------------------------------------------------------- variant option


@pytest.mark.parametrize("flip,first", [(False, 0), (True, 1)])
def test_reverse_flips_priority_walks_from_the_tail_while_reversed(flip, first):
    program = ["Reverse", "Bug", "AddFlag", "MoveFlag", "RemoveFlag"]
    every = list(range(5))
    state = setup(2, 2, program, [every, every], ["run", "pass"],
                  options={"reverse_flips_priority": flip})
    assert state.direction == -1 and state.cursor == 4
    assert state.to_move == first


@pytest.mark.parametrize("players,seed,order", [(4, 38721, "round_robin"), (5, 1384, "snake")])
def test_c11_memory_after_its_own_card_is_removed_goes_on(players, seed, order):
    """Found by the property tests: Memory ran RemoveCommand on itself, then a remembered
    MoveFlag found one card left (no destination: the step has no target, C5), and the running
    card, gone, must read as None rather than fail."""
    import random

    state = spaghetti.new_game(3, players, seed=seed,
                               options={"memory": True, "placement_order": order})
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "no option before the game is over"
        assert state.running_card is None or 0 <= state.running_card < len(state.kinds)
        state.apply_action(legal[rng.randrange(len(legal))])
    assert state.winner is not None


# ---------------------------------------------------------------------------- C4 by outcome


def test_c4_memory_remembering_two_reverse_cards_is_not_offered():
    # The two remembered Reverses cancel out: running leads where passing does (C4).
    program = ["Reverse", "Reverse", "Memory", "AddFlag", "Bug"]
    every = [0, 1, 2, 3, 4]
    state = setup(2, 2, program, [every, every], ["pass"] * 4, options=MEMORY)
    assert state.cursor == 2 and state.legal() == ["pass"]
    # A Reverse and a command that changes something: offered.
    program = ["Reverse", "Bug", "Memory", "AddFlag", "MoveFlag"]
    state = setup(2, 2, program, [every, every], ["pass"] * 4, options=MEMORY)
    assert state.cursor == 2 and state.legal() == ["pass", "run"]


def test_c4_c10_run_that_only_sends_the_runner_to_the_tail_is_offered():
    # Memory at the start remembers nothing: its command changes nothing, but under C10 running
    # sends Red's flag to the tail, where passing leaves it at the head.
    program = ["Memory", "Bug", "AddFlag", "MoveFlag", "ReversePriority"]
    options = {**RP, **MEMORY}
    state = setup(1, 2, program, [[0, 1, 2, 3], [0, 1, 2, 4]], options=options)
    assert state.cursor == 0 and state.to_move == 0 and state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.owners(0) == [1, 0]
    # With Red's flag alone on the card, running changes nothing at all: pass only.
    state = setup(1, 2, program, [[0, 1, 2, 3], [1, 2, 3, 4]], options=options)
    assert state.cursor == 0 and state.to_move == 0 and state.legal() == ["pass"]


def _from_record(options, program, actions, level=3, **extra):
    record = {"format": "spaghetti-record/1", "variant": "spaghetti-code", "level": level,
              "players": 2, "options": options, "program": program, "actions": actions, **extra}
    return records.loads(json.dumps(record))


def test_c4_c12_a_chip_put_on_an_instant_card_is_seen_by_the_position():
    # Memory remembers two Increment cards; the last Increment chip went onto an instant card
    # in the Memory run just before, so no way of running changes anything now. The chip
    # supply is part of the position (C9): running is not offered (it once was, because the
    # position kept the supply it had before that chip).
    placements = [f"place {i}" for i in range(6) for _ in range(2)]
    state = _from_record(
        {"memory": True, "instant_cards": True},
        ["Increment", "Increment", "Memory", "AddFlag", "AddFlag", "AddFlag"],
        ["take 0", "take 1", *placements, "run", "param i1.0", "run", "param i0.0", "run",
         "param 0.0", "run", "param 0.0", "run", "param i0.0", "param i1.0"],
        instant_deal=["MoveFlag", "MoveCommand", "Bug"])
    assert state.chips[0] == 0 and state.kinds[state.cursor].name == "Memory"
    assert state.legal() == ["pass", "instant"]


def test_c9_p13_memory_keeps_in_the_position_only_what_it_can_still_read():
    # Twice on Reverse with the same program, direction and flags, Memory the card arrived at
    # before; the one before that differs (none, then Reverse), but only a Memory could read
    # it, and the cursor is not on one: the same position, so the stalemate comes at once (C9).
    placements = [f"place {i}" for i in range(5) for _ in range(2)]
    actions = [*placements, "pass", "pass", "run", "pass", "run", "pass"]
    program = ["Memory", "Reverse", "AddFlag", "AddFlag", "AddFlag"]
    state = _from_record({"memory": True}, program, actions, level=2)
    assert state.is_over and state.winner == 0  # most queue heads (C9 (3))
    manual = _from_record({"memory": True, "stalemate": "manual"}, program, actions, level=2)
    assert manual.legal() == ["pass", "run", "declare"]


def test_c9_the_first_choice_after_memory_runs_is_checked_for_a_repeat():
    # Memory runs a remembered RemoveCommand, then MoveFlag: its flag choice is a new position.
    # Later Memory remembers a Memory (nothing) and MoveFlag, so "run" leads straight to the
    # same flag choice. The first choice after "run" can be skipped by the repetition check
    # only where no other way leads to it; here one does, and the repeat ends the game (C9).
    program = ["RemoveCommand", "Increment", "MoveCommand", "MoveFlag", "RemoveFlag", "Memory"]
    actions = ["place 2", "place 0", "place 4", "place 5", "place 0", "place 2", "place 1",
               "place 4", "place 5", "place 1", "place 3", "place 3", "run", "card 1", "run",
               "card 3", "run", "card 0", "at 2", "run", "card 2", "at 1", "run", "card 1",
               "pass", "run", "flag 2.0", "to 0", "run", "card 0", "flag 0.1", "to 1", "run",
               "flag 1.1", "to 0", "run"]
    state = _from_record(MEMORY, program, actions)
    assert state.is_over and state.reason == "stalemate" and state.winner == 0
    manual = _from_record({**MEMORY, "stalemate": "manual"}, program, actions)
    assert "declare" in manual.legal()
