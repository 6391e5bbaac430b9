"""One test per rule clause of SPEC section 2 and 7 (clarifications C1-C9, P1-P7), named for it.

Positions are built by playing option strings from the start of placement (tests/helpers.py);
expected values are worked out from the SPEC by hand, not read back from the engine.
"""

import pytest

import spaghetti
import spaghetti.records
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


def test_a_program_has_at_most_as_many_cards_as_an_option_can_name():
    """``flag N.K`` keeps N in 8 bits of its id: with 257 cards, a flag on the last card would
    have read as another option."""
    with pytest.raises(spaghetti.SetupError, match="257 cards; at most 256"):
        spaghetti.new_game(1, 2, program=["MoveFlag"] * 257)
    state = spaghetti.new_game(1, 2, program=["MoveFlag"] * 256)
    assert state.legal() == [f"place {i}" for i in range(256)]
    state.apply("place 255")
    assert state.to_move == 1  # the other seat: every card, each with its own id
    assert len(set(state.legal_actions())) == 256 and "place 255" in state.legal()


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


def test_running_card_names_the_running_command_until_it_ends():
    program = ["AddFlag", "RemoveCommand", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4]] * 2, ["pass", "pass"])
    assert state.deciding == "turn" and state.running_card is None
    state.apply("run")
    assert state.deciding == "card" and state.running_card == 1 == state.cursor
    state.apply("card 0")  # the card before it goes: the command ends, one card further up
    assert names(state)[0] == "RemoveCommand" and state.running_card is None


# ---------------------------------------------------------------- C4 what can be run


def test_c4_addflag_not_offered_with_empty_supply():
    program = ["AddFlag", "Bug", "MoveFlag", "RemoveFlag"]
    state = setup(1, 2, program, [[0, 1, 2, 3]] * 2)
    adds = 0
    while adds < 6:
        if state.cursor == 0 and state.to_move == 0 and state.deciding == "turn":
            assert state.legal() == ["pass", "run"]
            state.apply("run")
            state.apply("card 1")
            adds += 1
        else:
            state.apply("pass")
    assert state.supply == [0, 6]
    state = pass_until(state, lambda s: s.cursor == 0 and s.to_move == 0)
    assert state.legal() == ["pass"]
    assert not state.is_over


def test_c4_bug_with_zero_parameter_not_offered():
    program = ["Decrement", "Bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"]
    # count p at 0
    state = setup(3, 2, program, [list(range(6))] * 2, ["run", "param 1.0", "pass"])
    assert state.cursor == 1 and state.vals[1] == (0, 1) and state.legal() == ["pass"]
    # damage d at 0
    state = setup(3, 2, program, [list(range(6))] * 2, ["run", "param 1.1", "pass"])
    assert state.cursor == 1 and state.vals[1] == (1, 0) and state.legal() == ["pass"]


def test_c4_forkbomb_zero_damage_still_runs():
    program = ["Decrement", "ForkBomb", "AddFlag", "MoveFlag", "RemoveFlag", "Bug"]
    state = setup(3, 2, program, [list(range(6))] * 2,
                  ["run", "param 1.0", "run", "param 1.0"])
    assert state.vals[1] == (0,)
    assert state.cursor == 1 and state.to_move == 0
    assert state.legal() == ["pass", "run"]
    state.apply("run")  # no player step: the running flag is removed at once
    assert state.lives == [5, 5]
    assert state.owners(1) == [1]
    assert state.removed == [1, 0]
    assert state.deciding == "turn" and state.to_move == 1


# ---------------------------------------------------------------- C5 "up to n"

INC = ["Increment", "Bug", "MoveFlag", "MoveCommand", "AddFlag", "RemoveFlag"]


def test_c5_up_to_n_done_after_first():
    state = setup(3, 2, INC, [list(range(6))] * 2, ["run", "param 1.0", "pass"])
    assert state.vals[1] == (2, 1)
    state.apply("run")
    assert sorted(state.legal()) == ["player 0", "player 1"]  # no done before a first choice
    state.apply("player 1")
    assert sorted(state.legal()) == ["done", "player 0"]
    state.apply("done")
    assert state.lives == [5, 4]
    assert state.deciding == "turn" and state.to_move == 1 and state.cursor == 1


def test_c5_distinct_targets():
    state = setup(3, 2, INC, [list(range(6))] * 2, ["run", "param 1.0", "pass", "run", "player 1"])
    assert "player 1" not in state.legal()
    with pytest.raises(IllegalOptionError):
        state.apply("player 1")
    state.apply("player 0")
    # every living player chosen: the command ends by itself
    assert state.lives == [4, 4]
    assert state.deciding == "turn" and state.to_move == 1


def test_c5_moveflag_moves_distinct_flags():
    state = setup(3, 2, INC, [list(range(6))] * 2,
                  ["run", "param 2.0", "pass", "pass", "pass", "run", "flag 4.0", "to 5"])
    assert state.vals[2] == (2,)
    assert state.owners(5) == [0, 1, 0]
    legal = state.legal()
    assert "flag 5.2" not in legal  # already moved by this MoveFlag
    assert "flag 5.0" in legal and "flag 5.1" in legal and "done" in legal
    state.apply("flag 5.0")
    state.apply("to 4")
    assert state.owners(4) == [1, 0] and state.owners(5) == [1, 0]
    assert state.deciding == "turn"  # count used up


def test_pairs_stay_together_no_done_mid_pair():
    state = setup(3, 2, INC, [list(range(6))] * 2,
                  ["run", "param 2.0", "run", "param 3.0", "pass", "pass", "run", "flag 4.0"])
    assert all(o.startswith("to ") for o in state.legal())
    assert "done" not in state.legal()
    with pytest.raises(IllegalOptionError):
        state.apply("done")
    state.apply("to 5")
    assert "done" in state.legal()
    state.apply("flag 4.0")
    assert all(o.startswith("to ") for o in state.legal())
    state.apply("to 5")
    state.apply("pass")
    # MoveCommand with count 2: card N is always followed by at M
    assert state.cursor == 3 and state.vals[3] == (2,)
    state.apply("run")
    assert sorted(state.legal()) == [f"card {i}" for i in range(6)]
    state.apply("card 5")
    assert sorted(state.legal()) == [f"at {i}" for i in range(5)]
    state.apply("at 0")
    assert "done" in state.legal()
    assert "card 0" not in state.legal()  # that card has been moved already
    state.apply("card 1")
    assert sorted(state.legal()) == ["at 0", "at 2", "at 3", "at 4", "at 5"]


# ---------------------------------------------------------------- C6, C7, C8 the end


def test_c6_forkbomb_last_flag_wins():
    state = setup(1, 2, ["ForkBomb"] * 4, [[0, 1, 2, 3]] * 2,
                  ["run", "player 1", "pass",
                   "run", "player 1", "pass",
                   "run", "player 0", "pass"])
    assert state.lives == [3, 1] and state.on_board == [1, 4]
    state.apply("run")
    state.apply("player 1")  # its last flag: seat 1 at -1 life, seat 0 without flags
    assert state.is_over and state.phase == "over"
    assert state.lives == [3, -1] and state.on_board[0] == 0
    assert state.winner == 0 and state.reason == "elimination"
    assert state.legal() == []


def test_c6_p6_player_at_zero_life_mid_command_still_in_game():
    program = ["ForkBomb", "ForkBomb", "ForkBomb", "Increment", "Bug", "AddFlag"]
    state = setup(3, 2, program, [list(range(6))] * 2,
                  ["run", "player 1", "run", "player 0",
                   "run", "player 1", "run", "player 0",
                   "pass", "pass",
                   "run", "param 4.0", "pass",
                   "pass", "run", "player 0"])  # seat 1 runs Bug [2, 1]
    assert state.lives == [0, 1]
    assert state.alive == [True, True]  # not out before the command has resolved (C6)
    assert sorted(state.legal()) == ["done", "player 1"]  # P6: still a target


def test_c8_other_command_actor_wins():
    program = ["ForkBomb", "ForkBomb", "ForkBomb", "Increment", "Bug", "AddFlag"]
    state = setup(3, 2, program, [list(range(6))] * 2,
                  ["run", "player 1", "run", "player 0",
                   "run", "player 1", "run", "player 0",
                   "pass", "pass",
                   "run", "param 4.0", "pass",
                   "pass", "run", "player 0", "player 1"])
    assert state.lives == [0, 0]
    assert state.alive == [False, False]
    assert state.is_over and state.winner == 1  # the actor, seat 1


def test_c7_eliminated_players_flags_leave_3p():
    state = setup(1, 3, ["ForkBomb"] * 4, [[0, 1, 2, 3]] * 3,
                  ["run", "player 2", "run", "player 2", "pass", "run", "player 2"])
    assert state.lives == [5, 5, -1]
    assert state.alive == [True, True, False]
    assert all(2 not in state.owners(i) for i in range(4))
    assert state.removed[2] == 4 and state.on_board[2] == 0
    assert not state.is_over
    assert state.cursor == 1 and state.to_move == 1  # seat 1's pending flag keeps its turn
    state.apply("run")
    assert sorted(state.legal()) == ["player 0", "player 1"]  # an eliminated seat is no target


def test_c7_applies_to_the_elimination_that_ends_the_game():
    state = setup(1, 3, ["ForkBomb"] * 4, [[0, 1, 2, 3]] * 3,
                  ["run", "player 2", "run", "player 2", "pass", "run", "player 2",
                   "run", "player 0",                       # card 1: seat 0 at 3
                   "run", "player 1", "run", "player 0",    # card 2: seat 1 at 3, seat 0 at 1
                   "pass"])                                 # card 3: seat 0 passes
    assert state.owners(3) == [0, 1] and state.to_move == 1
    state.apply("run")
    state.apply("player 0")
    assert state.is_over and state.winner == 1
    assert state.owners(3) == []  # seat 0's flag left too; seat 1's ran and was removed
    assert state.on_board[0] == 0 and state.removed[0] == 4


def test_c7_two_players_loser_flags_stay():
    state = setup(1, 2, ["ForkBomb"] * 4, [[0, 1, 2, 3]] * 2,
                  ["run", "player 1", "pass", "run", "player 1", "pass", "run", "player 1"])
    assert state.is_over and state.winner == 0
    assert state.on_board[1] == 4 and all(1 in state.owners(i) for i in range(4))


def _remove_down_to_one_card(options=None):
    state = setup(2, 2, ["RemoveCommand"] * 5, [list(range(5))] * 2,
                  ["run", "card 1", "run", "card 1",   # cards 0, 3, 4 left
                   "run", "card 2", "run", "card 0"],  # the old card 3 alone
                  options=options)
    assert len(state.kinds) == 1 and state.owners(0) == [0, 1]
    assert state.on_board == [1, 1] and state.to_move == 0 and state.cursor == 0
    return state


def test_c8_removecommand_everyone_out_head_wins():
    state = _remove_down_to_one_card()
    state.apply("pass")
    state.apply("run")
    state.apply("card 0")  # seat 1 removes the last card: both out
    assert state.kinds == [] and state.on_board == [0, 0]
    assert state.is_over and state.winner == 0  # head of the removed card, not the actor


def test_c8_tail_option():
    state = _remove_down_to_one_card({"remove_all_winner": "tail"})
    state.apply("run")
    state.apply("card 0")  # seat 0 removes it
    assert state.is_over and state.winner == 1  # tail of the removed card, not the actor


# ---------------------------------------------------------------- C9 stalemate


def test_c9_repeated_position_ends_game_auto():
    state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2)
    for _ in range(7):
        state.apply("pass")
        assert not state.is_over
    state.apply("pass")  # back to seat 0's turn on card 0 with the same position
    assert state.is_over and state.reason == "stalemate"
    assert state.winner == 0  # four heads against none
    assert state.cursor == 0


@pytest.mark.parametrize("python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize("stalemate, seed", [("auto", 155), ("manual", 123)])
def test_c9_every_position_seen_is_remembered_however_many_share_all_but_their_queues(
        stalemate, seed, python):
    # The positions seen are kept by all of their key but the queues, with a list of queues
    # each, and each keyed whole in a long reversible stretch (as in these games of five
    # players). Against the plain rule: a position repeats iff it was among the positions
    # seen, and a new one joins them.
    import random
    game = spaghetti.Game(level=2, players=5, options={"stalemate": stalemate})
    state, rng = game.new_state(seed=seed, python=python), random.Random(seed)
    keyed_whole = repeats = 0
    while not state.is_over and len(state.history) < 1500:
        before = state.seen_positions
        options = state.legal_actions()
        state.apply_action(options[int(rng.random() * len(options))])
        if state.phase != "execution" or state.decision == 3:
            continue
        key = state._key(tuple(state.queues))
        after = state.seen_positions
        if state.is_over or state.repeated:
            assert key in before and after == before
            repeats += 1
        else:
            joined = key not in before and after == before | {key}
            anew = after == {key}  # after an irreversible change
            derived = stalemate == "auto" and after == before  # (see Position._reached)
            assert joined or anew or derived
        keyed_whole += state.seen_whole
    assert keyed_whole  # the positions keyed whole were put to the test
    assert repeats or stalemate == "auto"  # (where a repeat does not end the game)


@pytest.mark.parametrize("python", [False, True], ids=["compiled", "python"])
@pytest.mark.parametrize("stalemate, seed", [("auto", 155), ("manual", 123)])
def test_c9_a_lookahead_sees_every_position_seen_before_it(stalemate, seed, python):
    # A search starts from State.lookahead, which sets the positions seen apart (seen_base):
    # its copies share them and write only what their own line sees. From points of a long
    # game, a lookahead (copied at every step, as a search copies) and a whole copy play the
    # same random line: the same options, repeats and ends, and the same positions seen.
    import random
    game = spaghetti.Game(level=2, players=5, options={"stalemate": stalemate})
    state, rng = game.new_state(seed=seed, python=python), random.Random(seed)
    told = {"repeats": 0, "keyed whole from a base": 0, "a whole base": 0}
    while not state.is_over and len(state.history) < 1500:
        if state.phase == "execution" and len(state.history) % 25 == 0:
            whole = state.copy()
            ahead = state.lookahead()
            assert ahead.history == [] and ahead.seen == {}
            assert ahead.seen_signature == whole.seen_signature
            told["a whole base"] += bool(ahead.seen_whole and ahead.seen_base)
            line = random.Random(len(state.history))
            for _ in range(60):
                if whole.is_over:
                    break
                options = whole.legal_actions()
                assert ahead.legal_actions() == options
                action = options[int(line.random() * len(options))]
                based = bool(ahead.seen_base) and not ahead.seen_whole
                ahead = ahead.copy()
                ahead.apply_action(action)
                whole.apply_action(action)
                told["keyed whole from a base"] += based and ahead.seen_whole
                told["repeats"] += whole.repeated or whole.reason == "stalemate"
                assert (ahead.is_over, ahead.winner, ahead.repeated) == (
                    whole.is_over, whole.winner, whole.repeated)
                assert ahead.seen_positions == whole.seen_positions
                assert ahead.seen_signature == whole.seen_signature
                assert ahead.position_key() == whole.position_key()
        options = state.legal_actions()
        state.apply_action(options[int(rng.random() * len(options))])
    assert all(told.values()), told  # each way a base is read was put to the test


def test_c9_tiebreak_life():
    # Seat 1 holds 4 heads, seat 0 one; seat 0's Bug takes one life from seat 1.
    program = ["Bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = setup(1, 2, program, [[0, 1, 2, 3], [1, 2, 3, 4]], ["run", "player 1"])
    assert state.lives == [5, 4]
    state = pass_until(state, lambda s: s.is_over)
    assert state.reason == "stalemate" and state.winner == 0


def test_c9_tiebreak_flags():
    program = ["AddFlag", "Bug", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = setup(1, 2, program, [[0, 1, 2, 3], [1, 2, 3, 4]], ["run", "card 4"])
    assert state.on_board == [5, 4] and state.lives == [5, 5]
    assert [state.owners(i)[0] for i in range(5)] == [0, 1, 1, 1, 1]
    state = pass_until(state, lambda s: s.is_over)
    assert state.reason == "stalemate" and state.winner == 0


def test_c9_tiebreak_heads():
    state = setup(1, 2, L1, [[0, 1, 2, 3], [1, 2, 3, 4]])
    assert state.to_move == 0 and state.cursor == 0  # the cursor's card is seat 0's
    assert state.tiebreak_winner() == 1
    state = pass_until(state, lambda s: s.is_over)
    assert state.reason == "stalemate" and state.winner == 1 and state.cursor == 0


def test_c9_tiebreak_cursor():
    # Heads 2-2: cards [0,1], [1,0], [0,1], [1,0].
    state = setup(1, 2, L1, [[0, 2, 1, 3], [1, 3, 0, 2]], options={"stalemate": "manual"})
    assert [state.owners(i) for i in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert state.tiebreak_winner() == 0
    state.apply("pass")
    state.apply("pass")
    assert state.cursor == 1 and state.tiebreak_winner() == 1
    state.apply("pass")
    state.apply("pass")
    assert state.cursor == 2 and state.tiebreak_winner() == 0


def test_c9_tiebreak_cursor_empty_card_walks_in_direction():
    # Level 3: MoveFlag with count 2 moves the only flag off its own card; mid-command the
    # cursor's card is empty, so (4) looks at the next non-empty card forward (card 2, seat 1).
    program = ["Increment", "MoveFlag", "AddFlag", "RemoveFlag", "Bug", "ForkBomb", "Reverse"]
    state = setup(3, 2, program, [[0, 1, 3, 2, 5, 4], [0, 2, 3, 4, 5, 6]],
                  ["run", "param 1.0", "pass", "run", "flag 1.0", "to 6"])
    assert state.cursor == 1 and state.owners(1) == [] and state.deciding == "flag"
    assert [q[0] if q else None for q in owners(state)] == [0, None, 1, 0, 1, 0, 1]
    assert state.lives == [5, 5] and state.on_board == [6, 6]
    assert state.tiebreak_winner() == 1


def test_c9_manual_declare_offered_on_repeat():
    state = setup(1, 2, L1, [[0, 1, 2, 3], [1, 2, 3, 4]], options={"stalemate": "manual"})
    for _ in range(8):
        assert "declare" not in state.legal()
        state.apply("pass")
    assert not state.is_over
    assert state.cursor == 0 and state.legal() == ["pass", "run", "declare"]
    expected = state.tiebreak_winner()
    other = state.copy()
    other.apply("pass")  # playing on is allowed
    assert not other.is_over and "declare" in other.legal()  # still repeating
    state.apply("declare")
    assert state.is_over and state.reason == "stalemate" and state.winner == expected == 1


def test_c9_supply_counts_so_addflag_removeflag_loop_is_not_stalemate():
    program = ["AddFlag", "RemoveFlag", "MoveFlag", "Bug"]
    state = setup(1, 2, program, [[0, 1, 2, 3]] * 2)
    start = [state.owners(i) for i in range(4)], state.pending(0), state.to_move
    key = state.position_key()
    state.apply("run")
    state.apply("card 2")
    state.apply("pass")
    state.apply("run")
    state.apply("flag 2.2")  # the flag just added
    state = pass_until(state, lambda s: s.cursor == 0)
    # the program is back where it was, but a flag has gone from seat 0's supply
    assert ([state.owners(i) for i in range(4)], state.pending(0), state.to_move) == start
    assert not state.is_over
    assert state.supply == [5, 6] and state.position_key() != key
    # without the AddFlag, passing does repeat (seat 1's turn on RemoveFlag, as after the removal)
    state = pass_until(state, lambda s: s.is_over, limit=8)
    assert state.is_over and state.reason == "stalemate"


# ---------------------------------------------------------------- 2.4 the cards


def test_card_addflag_p1_card_other_than_this():
    state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2, ["run"])
    assert sorted(state.legal()) == ["card 1", "card 2", "card 3", "card 4"]
    state.apply("card 4")
    assert state.owners(4) == [0]
    assert state.supply == [5, 6] and state.on_board == [5, 4]
    assert state.to_move == 1 and state.cursor == 0


def test_card_moveflag_pair():
    state = setup(1, 2, MF, [[0, 1, 2, 3]] * 2, ["run"])
    expected = sorted(f"flag {i}.{k}" for i in range(4) for k in range(2))
    assert sorted(state.legal()) == expected  # any flag, the running one included
    state.apply("flag 2.1")
    assert sorted(state.legal()) == ["to 0", "to 1", "to 3", "to 4"]
    state.apply("to 4")
    assert state.owners(2) == [0] and state.owners(4) == [1]
    assert state.on_board == [4, 4] and state.removed == [0, 0]


def test_card_removeflag():
    program = ["RemoveFlag", "AddFlag", "MoveFlag", "Bug", "ForkBomb"]
    state = setup(1, 2, program, [[0, 1, 2, 3]] * 2, ["run"])
    assert "flag 0.0" in state.legal() and "flag 3.1" in state.legal()
    state.apply("flag 0.0")  # its own running flag
    assert state.owners(0) == [1]
    assert state.removed == [1, 0] and state.on_board == [3, 4] and state.supply == [6, 6]
    assert state.to_move == 1 and state.cursor == 0


def test_card_bug_params_players_then_damage():
    program = ["Increment", "Bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = setup(3, 2, program, [list(range(6))] * 2, ["run", "param 1.1", "pass"])
    assert state.vals[1] == (1, 2) and state.mods[1] == (0, 1)
    state.apply("run")
    assert sorted(state.legal()) == ["player 0", "player 1"]  # the actor may choose themself
    state.apply("player 1")
    assert state.lives == [5, 3]
    assert state.deciding == "turn" and state.to_move == 1  # count 1 used up: no done


def test_card_forkbomb():
    program = ["ForkBomb", "AddFlag", "MoveFlag", "RemoveFlag", "Bug"]
    state = setup(1, 2, program, [[0, 1, 2, 3]] * 2, ["run"])
    assert sorted(state.legal()) == ["player 0", "player 1"]
    state.apply("player 1")
    assert state.lives == [5, 3]
    assert state.owners(0) == [1] and state.removed == [1, 0] and state.on_board == [3, 4]
    assert state.to_move == 1


MC = ["MoveCommand", "AddFlag", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]


def test_card_movecommand_at_n_is_index_after_the_move_forward():
    state = setup(2, 2, MC, [[0, 1, 2, 3, 4]] * 2, ["run", "card 2"])
    assert sorted(state.legal()) == ["at 0", "at 1", "at 3", "at 4", "at 5"]
    state.apply("at 4")
    assert names(state) == ["MoveCommand", "AddFlag", "RemoveFlag", "Bug", "MoveFlag", "Reverse"]
    assert state.owners(4) == [0, 1]  # the queue moves with the card


def test_card_movecommand_at_n_backward():
    state = setup(2, 2, MC, [[0, 1, 2, 3, 4]] * 2, ["run", "card 5", "at 1"])
    assert names(state) == ["MoveCommand", "Reverse", "AddFlag", "MoveFlag", "RemoveFlag", "Bug"]
    assert state.owners(1) == [] and state.owners(5) == [0, 1]
    assert state.cursor == 0 and state.to_move == 1


def test_card_removecommand():
    program = ["RemoveCommand", "AddFlag", "MoveFlag", "RemoveFlag", "Bug", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 5]], ["run"])
    assert sorted(state.legal()) == [f"card {i}" for i in range(6)]  # this one included
    state.apply("card 4")
    assert names(state) == ["RemoveCommand", "AddFlag", "MoveFlag", "RemoveFlag", "Reverse"]
    assert state.removed == [1, 0] and state.on_board == [4, 5]
    assert state.cursor == 0 and state.to_move == 1


def test_card_reverse():
    program = ["Reverse", "AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4], [0, 1, 2, 3, 5]], ["run"])
    assert state.direction == -1
    assert state.legal() == ["pass", "run"] and state.to_move == 1
    state.apply("pass")
    assert state.cursor == 5  # backwards from card 0 wraps to the last card
    state.apply("pass")
    assert state.cursor == 4


# ---------------------------------------------------------------- 2.5 chips

CHIPS = ["Increment", "Decrement", "Bug", "MoveFlag", "AddFlag", "RemoveFlag"]


def test_increment_takes_a_chip():
    state = setup(3, 2, CHIPS, [list(range(6))] * 2, ["run"])
    params = sorted(state.legal())
    assert params == sorted(["param 0.0", "param 1.0", "param 2.0", "param 2.1", "param 3.0",
                             "param 5.0"])  # every parameter, this card's too; AddFlag has none
    state.apply("param 2.1")
    assert state.vals[2] == (1, 2) and state.mods[2] == (0, 1)
    assert list(state.chips) == [4, 5]


def test_increment_over_decrement_chip_returns_it():
    state = setup(3, 2, CHIPS, [list(range(6))] * 2, ["pass", "pass", "run", "param 2.0"])
    assert state.vals[2] == (0, 1) and state.mods[2] == (-1, 0) and list(state.chips) == [5, 4]
    state = pass_until(state, lambda s: s.cursor == 0 and s.to_move == 0)
    state.apply("run")
    state.apply("param 2.0")
    assert state.vals[2] == (1, 1) and state.mods[2] == (0, 0)
    assert list(state.chips) == [5, 5]  # the Decrement chip went back; no Increment chip used


def test_decrement_over_increment_chip_returns_it():
    state = setup(3, 2, CHIPS, [list(range(6))] * 2,
                  ["run", "param 2.0", "pass", "run", "param 2.0"])
    assert state.vals[2] == (1, 1) and state.mods[2] == (0, 0)
    assert list(state.chips) == [5, 5]


def test_decrement_never_below_zero():
    # Decrement's amount raised to 2, then it lowers Bug's count (1): to 0, one chip used.
    state = setup(3, 2, CHIPS, [list(range(6))] * 2, ["run", "param 1.0", "pass", "run"])
    assert state.vals[1] == (2,) and list(state.chips) == [4, 5]
    state.apply("param 2.0")
    assert state.vals[2] == (0, 1) and state.mods[2] == (-1, 0)
    assert list(state.chips) == [4, 4]
    state.apply("run")  # seat 1: a parameter at 0 cannot be chosen
    assert "param 2.0" not in state.legal() and "param 2.1" in state.legal()


def test_chip_supply_exhaustion_stops_a_raise():
    program = ["Increment", "Bug", "Decrement", "MoveFlag", "AddFlag", "RemoveFlag"]
    state = setup(3, 2, program, [list(range(6))] * 2,
                  ["run", "param 0.0",     # k 1 -> 2
                   "run", "param 0.0"])    # seat 1 raises by 2: k 4
    assert state.vals[0] == (4,) and list(state.chips) == [2, 5]
    state = pass_until(state, lambda s: s.cursor == 0 and s.to_move == 0)
    state.apply("run")
    state.apply("param 0.0")  # by 4, but only two chips are left
    assert state.vals[0] == (6,) and state.mods[0] == (5,) and list(state.chips) == [0, 5]
    # P3: no Increment chip and no Decrement chip on any parameter: run is not offered
    assert state.to_move == 1 and state.legal() == ["pass"]
    state.apply("pass")
    state = pass_until(state, lambda s: s.cursor == 2 and s.to_move == 0)
    state.apply("run")
    state.apply("param 1.1")  # a Decrement chip on Bug's damage
    state = pass_until(state, lambda s: s.cursor == 0 and s.to_move == 0)
    assert state.legal() == ["pass", "run"]  # now a raise can return that chip
    state.apply("run")
    assert len(state.legal()) == 6  # once run, any parameter may be chosen (P3)
    state.apply("param 1.1")
    assert state.vals[1] == (1, 1) and list(state.chips) == [0, 5]


def test_counts_read_at_run():
    # Seat 0's Increment raises its own amount to 2; seat 1's run of the same card in the same
    # visit reads 2 and raises Bug's damage by 2.
    state = setup(3, 2, CHIPS, [list(range(6))] * 2, ["run", "param 0.0"])
    assert state.vals[0] == (2,)
    state.apply("run")
    state.apply("param 2.1")
    assert state.vals[2] == (1, 3) and list(state.chips) == [2, 5]


# ---------------------------------------------------------------- the rulebook combo


def test_rulebook_combo_addflag_movecommand_forkbomb_six_damage():
    program = ["AddFlag", "MoveCommand", "ForkBomb", "MoveFlag", "RemoveFlag", "Bug",
               "RemoveCommand", "Reverse"]
    state = setup(2, 2, program, [[0, 1, 2, 3, 4], [3, 4, 5, 6, 7]])
    assert owners(state)[:3] == [[0], [0], [0]]
    state.apply("run")
    state.apply("card 2")  # AddFlag: a second flag on ForkBomb
    assert state.cursor == 1
    state.apply("run")
    state.apply("card 1")
    state.apply("at 0")  # MoveCommand moves itself before AddFlag, the cursor with it
    assert names(state)[:3] == ["MoveCommand", "AddFlag", "ForkBomb"]
    assert state.cursor == 1 and state.to_move == 0  # AddFlag runs again
    state.apply("run")
    state.apply("card 2")
    assert state.owners(2) == [0, 0, 0] and state.cursor == 2
    for life in (3, 1):
        state.apply("run")
        state.apply("player 1")
        assert state.lives == [5, life] and not state.is_over
    state.apply("run")
    state.apply("player 1")
    assert state.lives == [5, -1]
    assert state.is_over and state.winner == 0 and state.reason == "elimination"


# ---------------------------------------------------------------- notation and the door


@pytest.mark.parametrize("text", ["pass", "run", "done", "declare", "place 0", "card 7",
                                  "to 12", "at 3", "player 4", "flag 2.0", "flag 255.255",
                                  "param 9.1"])
def test_notation_round_trip(text):
    action = N.parse(text)
    assert isinstance(action, int)
    assert N.to_string(action) == text
    assert N.parse(N.to_string(action)) == action


def test_notation_distinct_options_distinct_ids():
    texts = ["pass", "run", "done", "declare"] + [f"{w} {i}" for w in
                                                  ("place", "card", "to", "at", "player")
                                                  for i in range(4)]
    texts += [f"{w} {i}.{k}" for w in ("flag", "param") for i in range(3) for k in range(3)]
    assert len({N.parse(t) for t in texts}) == len(texts)


def test_notation_forgives_case_and_spaces():
    assert N.parse("  Flag   2.1 ") == N.parse("flag 2.1")
    assert N.parse("RUN") == N.parse("run")


@pytest.mark.parametrize("bad", ["", "   ", "runn", "pass 1", "place", "place -1", "place 256",
                                 "place 1.0", "card x", "flag 1", "flag 1.2.3", "flag .1",
                                 "to 1 2", "param 1,2", "player 1e3", "done done",
                                 "place ²", "flag ².0", "param 1.²", "place " + "9" * 5000])
def test_notation_bad_strings_raise(bad):
    with pytest.raises(NotationError):
        N.parse(bad)


def test_a_whole_number_is_decimal_digits_python_can_read():
    assert N.whole_number("42") == 42 and N.whole_number("007") == 7
    assert N.whole_number("٣") == 3  # any script's decimal digits, as int reads them
    for text in ("²", "-1", "+1", "1.0", "", " 1", "1e3", "9" * 5000):
        assert N.whole_number(text) is None, text


@pytest.mark.parametrize("bad", [None, 3, b"pass", ["pass"]])
def test_notation_non_strings_raise(bad):
    with pytest.raises(NotationError):
        N.parse(bad)


def _snapshot(state):
    return (state.position_key(), list(state.history), state.legal(), state.to_move,
            state.deciding, list(state.lives), list(state.supply), list(state.removed))


@pytest.mark.parametrize("prefix,bad", [
    ([], "place 9"),
    (["place 0"], "place 9"),
    (["place 0", "place 0"], "place 0"),   # own flag already there
    ("placed", "run run"),
    ("placed", "player 1"),                # a target before run
    ("placed", "declare"),                 # not a repeated position
    ("placed+run", "flag 0.0"),            # AddFlag chooses a card
    ("placed+run", "card 0"),              # not this one
    ("placed+run", "done"),                # nothing chosen yet
    ("placed+run", "card 99"),
    ("placed+run", "xyz"),
])
def test_illegal_options_leave_state_unchanged(prefix, bad):
    if prefix == "placed":
        state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2)
    elif prefix == "placed+run":
        state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2, ["run"])
    else:
        state = play(1, 2, L1, prefix)
    before = _snapshot(state)
    with pytest.raises(IllegalOptionError) as info:
        state.apply(bad)
    assert isinstance(info.value, spaghetti.SpaghettiError)
    assert _snapshot(state) == before
    # and the state still plays on normally
    state.apply(state.legal()[0])
    assert len(state.history) == len(before[1]) + 1


def test_illegal_action_id_leaves_state_unchanged():
    state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2)
    before = _snapshot(state)
    for action in (N.parse("card 1"), N.parse("place 0"), 10**9):
        with pytest.raises(IllegalOptionError):
            state.apply_action(action)
    assert _snapshot(state) == before


def test_options_after_game_over_are_refused():
    state = setup(1, 2, L1, [[0, 1, 2, 3]] * 2)
    state = pass_until(state, lambda s: s.is_over)
    before = _snapshot(state)
    with pytest.raises(IllegalOptionError):
        state.apply("pass")
    assert _snapshot(state) == before and state.legal() == []


def test_c9_tiebreak_cursor_3p_skips_players_not_tied():
    # Queues: c0 [0,2,1] c1 [2,0,1] c2 [1,0] c3 [0,2] c4 [1,2]; seat 2 loses a life to Bug.
    program = ["Bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = setup(1, 3, program, [[0, 1, 3, 2], [2, 4, 0, 1], [1, 0, 3, 4]],
                  ["run", "player 2", "pass", "pass"], options={"stalemate": "manual"})
    assert owners(state) == [[0, 2, 1], [2, 0, 1], [1, 0], [0, 2], [1, 2]]
    assert state.lives == [5, 5, 4] and state.on_board == [4, 4, 4]
    # seats 0 and 1 tie on life, flags and heads (2 each); the cursor's card (1) is headed by
    # seat 2, who is not tied, so the walk goes on to card 2, headed by seat 1
    assert state.cursor == 1 and state.to_move == 2
    assert state.tiebreak_winner() == 1
    state.apply("pass")
    state.apply("pass")
    state.apply("pass")
    assert state.cursor == 2 and state.tiebreak_winner() == 1
    state.apply("pass")
    state.apply("pass")
    assert state.cursor == 3 and state.tiebreak_winner() == 0


def test_c9_tiebreak_only_players_still_in_game():
    # 3 players: seat 2 out (C7); seats 0 and 1 tie and the cursor's card decides between them.
    state = setup(1, 3, ["ForkBomb"] * 4, [[0, 1, 2, 3]] * 3,
                  ["run", "player 2", "run", "player 2", "pass", "run", "player 2"])
    assert state.alive == [True, True, False]
    # seat 0 has 2 flags left, seat 1 has 3, equal life: seat 1 leads on flags
    assert state.on_board[:2] == [2, 3] and state.lives[:2] == [5, 5]
    assert state.tiebreak_winner() == 1


def test_setup_unhashable_level_is_a_setup_error():
    with pytest.raises(spaghetti.SetupError):
        spaghetti.new_game([1], 2)


def test_p8_removed_cards_chips_return_to_supply():
    program = ["Increment", "RemoveCommand", "Bug", "AddFlag", "MoveFlag", "RemoveFlag"]
    every = list(range(6))
    state = setup(3, 2, program, [every, every])
    state.apply("run")
    state.apply("param 2.1")  # Bug's damage {1} -> {2}: an Increment chip leaves the supply
    assert state.chips == [4, 5] and state.values(2) == (1, 2)
    state.apply("pass")  # seat 1 on Increment
    state.apply("run")  # seat 0 on RemoveCommand
    state.apply("card 2")  # Bug goes, with its chip
    assert [k.name for k in state.kinds] == ["Increment", "RemoveCommand", "AddFlag",
                                             "MoveFlag", "RemoveFlag"]
    assert state.chips == [5, 5]


def test_c9_manual_any_player_still_in_may_declare():
    state = setup(1, 2, L1, [[0, 1, 2, 3], [1, 2, 3, 4]], options={"stalemate": "manual"})
    for _ in range(8):
        assert not state.may_declare(0) and not state.may_declare(1)
        with pytest.raises(spaghetti.IllegalOptionError, match="not a repeat"):
            state.declare(1)
        state.apply("pass")
    assert state.to_move == 0 and state.may_declare(0) and state.may_declare(1)
    for bad in (2, -1):
        assert not state.may_declare(bad)
        with pytest.raises(spaghetti.IllegalOptionError, match="not a player"):
            state.declare(bad)
    assert not state.is_over and len(state.history) == 16
    expected = state.tiebreak_winner()
    state.declare(1)  # the player not to move declares; the record holds `declare`
    assert state.is_over and state.reason == "stalemate" and state.winner == expected
    assert spaghetti.records.loads(spaghetti.records.dumps(state)).winner == expected
    assert spaghetti.core.notation.to_string(state.history[-1]) == "declare"
