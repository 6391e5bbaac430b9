"""One test per rule clause of SPEC section 2 and 7 (clarifications C1-C9, P1-P7), named for it.

Positions are built by playing option strings from the start of placement (tests/helpers.py);
expected values are worked out from the SPEC by hand, not read back from the engine.
"""

import pytest

import spaghetti
from spaghetti import IllegalOptionError, NotationError
from spaghetti.core import notation as N

from helpers import pass_until, placement_seats, play, setup

L1 = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
L2 = L1 + ["MoveCommand", "RemoveCommand", "Reverse"]
L3 = L2 + ["Increment", "Decrement"]


def owners(state):
    return [state.owners(i) for i in range(len(state.kinds))]


def names(state):
    return [k.name for k in state.kinds]


# ---------------------------------------------------------------- 2.1 setup


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("level,placed,supply,chips",
                         [(1, 4, 6, [0, 0]), (2, 5, 5, [0, 0]), (3, 6, 4, [5, 5])])
def test_level_setup_table(level, placed, supply, chips, players):
    state = spaghetti.new_game(level, players, seed=3)
    assert state.phase == "placement"
    assert state.hand == [placed] * players
    assert state.supply == [supply] * players
    assert state.lives == [5] * players
    assert list(state.chips) == chips  # P5: levels 1-2 have no chips
    assert state.removed == [0] * players
    assert state.on_board == [0] * players
    assert state.alive == [True] * players
    assert state.to_move == 0
    assert len(state.kinds) == {1: 5, 2: 8, 3: 10}[level]
    assert sorted(names(state)) == sorted({1: L1, 2: L2, 3: L3}[level])


@pytest.mark.parametrize("level", [1, 2, 3])
def test_level_setup_flags_placed_then_execution(level):
    placed = {1: 4, 2: 5, 3: 6}[level]
    program = {1: L1, 2: L2, 3: L3}[level]
    state = setup(level, 2, program, [list(range(placed)), list(range(placed))])
    assert state.phase == "execution"
    assert state.hand == [0, 0]
    assert state.on_board == [placed, placed]
    assert state.supply == [10 - placed] * 2
    assert sum(len(state.owners(i)) for i in range(len(program))) == 2 * placed


def test_setup_program_must_have_enough_cards():
    with pytest.raises(spaghetti.SetupError):
        spaghetti.new_game(2, 2, program=["AddFlag"] * 4)  # level 2 places 5
    with pytest.raises(spaghetti.SetupError):
        spaghetti.new_game(1, 2, program=L1[:4] + ["Reverse"])  # a level-2 card at level 1
    state = spaghetti.new_game(1, 2, program=["bug", "BUG", "Bug", "forkbomb"])  # repeats, case
    assert names(state) == ["Bug", "Bug", "Bug", "ForkBomb"]


# ---------------------------------------------------------------- 2.2 placement


def test_placement_one_own_flag_per_card():
    state = play(1, 2, L1, ["place 0"])
    assert state.to_move == 1
    assert "place 0" in state.legal()  # another player's flag does not block
    state.apply("place 0")
    assert state.owners(0) == [0, 1]  # joins the tail
    assert "place 0" not in state.legal()
    with pytest.raises(IllegalOptionError):
        state.apply("place 0")
    assert state.legal() == ["place 1", "place 2", "place 3", "place 4"]


def test_placement_limit_does_not_hold_in_execution():
    # MoveFlag may put a second own flag on a card once execution has begun.
    state = setup(1, 2, ["MoveFlag", "AddFlag", "RemoveFlag", "Bug", "ForkBomb"],
                  [[0, 1, 2, 3], [0, 1, 2, 3]], ["run", "flag 1.0", "to 2"])
    assert state.owners(2) == [0, 1, 0]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_placement_round_robin(players):
    state = spaghetti.new_game(1, players, program=L1)
    seen = []
    while state.phase == "placement":
        seen.append(state.to_move)
        state.apply(state.legal()[0])
    assert seen == [i % players for i in range(4 * players)]


def test_placement_snake():
    state = spaghetti.new_game(1, 3, program=L1, options={"placement_order": "snake"})
    seen = []
    while state.phase == "placement":
        seen.append(state.to_move)
        state.apply(state.legal()[-1])
    assert seen == [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0]
    assert seen == placement_seats(1, 3, "snake")


def test_placement_snake_queue_order():
    # Snake 2 players: 0,1,1,0,0,1,1,0: seat 1 places twice running, so on card 1 it is first.
    state = setup(1, 2, L1, [[0, 1, 2, 3], [0, 1, 2, 3]], options={"placement_order": "snake"})
    # placements: s0 c0, s1 c0, s1 c1, s0 c1, s0 c2, s1 c2, s1 c3, s0 c3
    assert owners(state)[:4] == [[0, 1], [1, 0], [0, 1], [1, 0]]


# ---------------------------------------------------------------- start of execution (7.1)


def test_start_of_execution_cursor_fresh_on_card_0_direction_forward():
    state = setup(1, 2, L1, [[0, 1, 2, 3], [0, 1, 2, 3]])
    assert state.phase == "execution"
    assert state.cursor == 0 and state.direction == 1
    assert state.deciding == "turn"
    assert state.to_move == 0  # head of card 0
    assert state.pending(0) == [False, True]  # the head has the turn, the rest wait
    assert state.legal() == ["pass", "run"]


def test_start_of_execution_empty_card_0_is_left_at_once():
    # Nobody on card 0 (AddFlag): the first turn is on card 1, whose head is seat 1.
    state = setup(1, 2, L1, [[2, 1, 3, 4], [1, 2, 3, 4]])
    assert state.owners(0) == [] and state.owners(1) == [1, 0]
    assert state.cursor == 1
    assert state.to_move == 1


def test_advance_wraps_from_last_card_to_first():
    state = setup(1, 2, L1, [[0, 1, 2, 4], [1, 2, 3, 4]], options={"stalemate": "manual"})
    # visits: c0 [0], c1 [0,1], c2 [0,1], c3 [1], c4 [0,1], then c0 again
    state = pass_until(state, lambda s: s.cursor == 4)
    state.apply("pass")
    state.apply("pass")
    assert state.cursor == 0 and state.to_move == 0


# ---------------------------------------------------------------- C1 visits

MF = ["MoveFlag", "AddFlag", "RemoveFlag", "Bug", "ForkBomb"]


def test_c1_turns_walk_the_queue_head_to_tail():
    state = setup(1, 3, L1, [[0, 1, 2, 3]] * 3)
    turns = []
    while state.cursor == 0:
        turns.append(state.to_move)
        state.apply("pass")
    assert turns == [0, 1, 2]
    assert state.cursor == 1 and state.to_move == 0


def test_c1_flag_moved_onto_current_card_waits():
    state = setup(1, 2, MF, [[0, 1, 2, 3], [0, 1, 2, 3]], ["run", "flag 1.0", "to 0"])
    assert state.owners(0) == [0, 1, 0]
    assert state.pending(0)[2] is False  # the moved flag is not pending
    assert state.cursor == 0 and state.to_move == 1  # the pending seat-1 flag has its turn
    state.apply("pass")
    # the moved flag waits for a later visit: the cursor moves on
    assert state.cursor == 1
    assert state.owners(1) == [1]
    assert state.to_move == 1


def test_c1_pending_flag_moved_away_loses_turn():
    state = setup(1, 2, MF, [[0, 1, 2, 3], [0, 1, 2, 3]], ["run", "flag 0.1", "to 2"])
    assert state.owners(0) == [0]
    assert state.owners(2) == [0, 1, 1]
    assert state.pending(2) == [False, False, False]
    # seat 1's flag left card 0: the visit ends and card 1 is visited
    assert state.cursor == 1 and state.to_move == 0


def test_c1_pending_flag_removed_loses_turn():
    program = ["RemoveFlag", "AddFlag", "MoveFlag", "Bug", "ForkBomb"]
    state = setup(1, 3, program, [[0, 1, 2, 3]] * 3, ["run", "flag 0.1"])
    assert state.owners(0) == [0, 2]
    assert state.removed == [0, 1, 0]
    assert state.cursor == 0 and state.to_move == 2  # seat 1 lost its turn
    state.apply("pass")
    assert state.cursor == 1


def test_c1_running_flag_moved_away_and_back_does_not_act_again():
    # Seat 0 moves its own running flag to the tail of the current card... not allowed
    # (destination must differ), so it moves it away: it is then no longer on the card.
    state = setup(1, 2, MF, [[0, 1, 2, 3], [0, 1, 2, 3]], ["run", "flag 0.0"])
    assert "to 0" not in state.legal()
    state.apply("to 3")
    assert state.owners(0) == [1] and state.to_move == 1
    state.apply("pass")
    assert state.cursor == 1


def test_c1_every_turn_is_a_decision_even_pass_only():
    # Level 3: seat 0 decrements Bug's player count to 0; on Bug the only option is pass,
    # and it is still a decision recorded in the history.
    program = ["Decrement", "Bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = setup(3, 2, program, [list(range(6))] * 2, ["run", "param 1.0", "pass"])
    assert state.vals[1] == (0, 1)
    assert state.cursor == 1 and state.deciding == "turn"
    assert state.legal() == ["pass"]
    n = len(state.history)
    state.apply("pass")
    assert len(state.history) == n + 1 and state.history[-1] == N.PASS
    assert state.cursor == 1 and state.to_move == 1 and state.legal() == ["pass"]


# ---------------------------------------------------------------- C2, C3 cursor


def test_c2_cursor_moves_with_moved_card():
    program = ["MoveCommand", "AddFlag", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4]] * 2, ["run", "card 0", "at 3"])
    assert names(state) == ["AddFlag", "MoveFlag", "RemoveFlag", "MoveCommand", "Bug", "Reverse"]
    assert state.cursor == 3
    assert state.owners(3) == [0, 1]
    assert state.to_move == 1  # the visit goes on on the moved card
    state.apply("pass")
    assert state.cursor == 4 and names(state)[4] == "Bug"  # next advance from the new position


def test_c2_moving_another_card_keeps_cursor_on_its_card():
    program = ["AddFlag", "MoveCommand", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4]] * 2, ["pass", "pass", "run", "card 4", "at 0"])
    assert names(state) == ["Bug", "AddFlag", "MoveCommand", "MoveFlag", "RemoveFlag", "Reverse"]
    assert state.cursor == 2 and names(state)[state.cursor] == "MoveCommand"


def test_c3_removed_cursor_card_follower_arrives_fresh():
    program = ["RemoveCommand", "AddFlag", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4]] * 2, ["run", "card 0"])
    assert names(state) == program[1:]
    assert state.removed == [1, 1]
    assert state.on_board == [4, 4]
    # seat 1's pending flag on the removed card lost its turn; AddFlag is a fresh arrival
    assert state.cursor == 0 and state.to_move == 0
    assert state.pending(0) == [False, True]


def test_c3_follower_wraps_backwards():
    program = ["RemoveCommand", "Reverse", "AddFlag", "MoveFlag", "RemoveFlag", "Bug"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 5]] * 2,
                  ["pass", "pass", "run", "pass"])  # card 1 Reverse: direction -1
    assert state.direction == -1 and state.cursor == 0
    state.apply("run")
    state.apply("card 0")  # removes itself: the follower going backwards is the last card (Bug)
    assert names(state) == program[1:]
    assert state.cursor == 4 and names(state)[4] == "Bug"
    assert state.to_move == 0 and state.pending(4) == [False, True]


def test_c3_removing_a_card_before_the_cursor_keeps_cursor_on_its_card():
    program = ["AddFlag", "RemoveCommand", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4]] * 2, ["pass", "pass", "run", "card 0"])
    assert names(state) == program[1:]
    assert state.cursor == 0 and names(state)[0] == "RemoveCommand"
    assert state.to_move == 1  # the visit goes on: seat 1 is still pending here
    state.apply("pass")
    assert names(state)[state.cursor] == "MoveFlag"
