"""Pasta Logic (パスタロジック, source 001, SPEC section 4): its deal, its sixteen cards, and
C15-C19."""

import random

import pytest

import spaghetti
from spaghetti import Game, SetupError, records

from helpers import placed

PASTA = "pasta-logic"


def game(program, options=None):
    return spaghetti.new_game(1, 2, program=program, options=options or {}, variant=PASTA)


# ---------------------------------------------------------------------------- setup


def test_pasta_deal_is_the_three_basic_cards_and_five_others_shuffled():
    g = Game(1, 2, variant=PASTA)
    for seed in range(20):
        names = g.shuffled_program(seed)
        assert len(names) == 8 == len(set(names))
        assert {"AddFlag", "MoveFlag", "Bug"} <= set(names)
    assert g.flags_placed == 5 and g.supply == 5 and g.life == 5 and g.chips == 2


def test_pasta_named_setups_and_the_novice_game():
    g = Game(1, 2, variant=PASTA, options={"setup": "catastrophe"})
    assert sorted(g.shuffled_program(1)) == sorted(["RemoveFlag", "RemoveCommand", "Increment",
                                                   "Subroutine", "SwapCommand", "Bug",
                                                   "ForkBomb", "TradeOff"])
    novice = Game(1, 2, variant=PASTA, options={"setup": "novice"})
    assert novice.shuffled_program(1) == ["Bug", "AddFlag", "Subroutine", "MoveFlag", "Increment"]
    assert (novice.life, novice.flags_placed) == (3, 3)
    state = novice.new_state(seed=9)
    assert state.lives == [3, 3] and state.hand == [3, 3]


def test_pasta_is_a_two_player_game_without_levels_and_spaghetti_options():
    with pytest.raises(SetupError, match="players must be 2 in Pasta Logic"):
        Game(1, 3, variant=PASTA)
    with pytest.raises(SetupError, match="^Pasta Logic has only level 1, not 2$"):
        Game(2, 2, variant=PASTA)
    with pytest.raises(SetupError, match="does not apply to Pasta Logic"):
        Game(1, 2, variant=PASTA, options={"instant_cards": True})
    with pytest.raises(SetupError, match="life_cap"):
        Game(1, 2, variant=PASTA, options={"life_cap": 7})


def test_pasta_record_round_trip_lists_its_own_options():
    state = spaghetti.new_game(1, 2, seed=3, variant=PASTA, options={"life_cap": "none"})
    text = records.dumps(state)
    assert '"life_cap": null' in text and "instant_cards" not in text
    assert records.loads(text).game == state.game


# ---------------------------------------------------------------------------- cards

BASIC5 = ["AddFlag", "MoveFlag", "Bug"]


def test_pasta_bug_hits_the_opponent_without_a_choice():
    state = placed(game(["Bug", "AddFlag", "MoveFlag", "Rotate", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert state.lives == [5, 4] and state.deciding == "turn"


def test_pasta_addflag_adds_to_up_to_n_other_cards():
    state = placed(game(["AddFlag", "Bug", "MoveFlag", "Rotate", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert "card 0" not in state.legal()
    state.apply("card 3")  # Blue placed there first, then Red
    assert state.owners(3) == [1, 0, 0] and state.supply == [4, 5]


def test_pasta_removeflag_takes_flags_from_one_card_only():
    state = placed(game(["RemoveFlag", "Bug", "MoveFlag", "Rotate", "AddFlag"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert all(not o.startswith("flag 0.") for o in state.legal())  # not this card
    state.apply("flag 2.0")  # Blue's flag, the head of card 2
    assert state.owners(2) == [0]


def test_pasta_removeflag_with_n_2_stays_on_the_first_card():
    state = placed(game(["Increment", "RemoveFlag", "Bug", "MoveFlag", "AddFlag", "Rotate"]),
                   [0, 1, 2, 3, 4], [0, 2, 3, 4, 5])
    state.apply("run")
    state.apply("param 1.0")  # RemoveFlag {2}
    state.apply("pass")
    assert state.kinds[state.cursor].name == "RemoveFlag" and state.values(1) == (2,)
    state.apply("run")
    state.apply("flag 2.0")
    assert state.legal() == ["flag 2.0", "done"]  # only the same card now


def test_pasta_reorder_chooses_the_new_order_one_place_at_a_time():
    state = placed(game(["Reorder", "Bug", "MoveFlag", "AddFlag", "Rotate", "Debug"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 5])
    state.apply("run")
    assert state.legal() == ["card 1", "card 2", "card 3", "card 4"]
    state.apply("card 2")
    assert state.deciding == "flag" and state.legal() == ["flag 2.0", "flag 2.1"]
    # card 2 holds Blue's flag, then Red's: Red's takes the head, Blue's the last place by itself
    state.apply("flag 2.1")
    assert state.owners(2) == [0, 1] and state.deciding == "turn"


def test_pasta_rotate_moves_every_other_tail_to_the_head():
    state = placed(game(["Rotate", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    state.apply("run")
    assert [state.owners(i) for i in range(5)] == [[0, 1]] + [[1, 0]] * 4


def test_pasta_fastpass_costs_a_life_and_adds_at_the_head():
    state = placed(game(["FastPass", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert state.lives == [4, 5]
    state.apply("card 1")  # Blue's flag, then Red's: Red's new flag goes before both
    assert state.owners(1) == [0, 1, 0]


def test_pasta_debug_removes_its_flag_and_heals_c15_up_to_six():
    state = placed(game(["Debug", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert state.lives == [6, 5] and state.owners(0) == [1]  # 5 + 3, kept on a die: 6
    state = placed(game(["Debug", "Bug", "MoveFlag", "AddFlag", "Reorder"],
                        {"life_cap": None}), [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert state.lives == [8, 5]


def test_pasta_tradeoff_and_c18_both_out_at_once_is_a_draw():
    state = placed(game(["TradeOff", "Bug", "MoveFlag", "AddFlag", "Reorder"],
                        {"setup": "rulebook"}), [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.lives = [1, 2]
    state.apply("run")
    assert state.is_over and state.winner is None and state.draw
    assert state.returns() == [0.0, 0.0]


def test_pasta_removecommand_also_removes_the_running_flag():
    state = placed(game(["RemoveCommand", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [0, 1, 2, 3, 4])
    state.apply("run")
    state.apply("card 1")
    assert len(state.kinds) == 4 and state.owners(0) == [1]


def test_pasta_reverse_costs_a_life():
    state = placed(game(["Reverse", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    assert state.lives == [4, 5] and state.direction == -1


def test_pasta_swapcommand_keeps_the_cursor_on_its_card_c2():
    state = placed(game(["SwapCommand", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    state.apply("card 3")
    assert [k.name for k in state.kinds][:4] == ["AddFlag", "Bug", "MoveFlag", "SwapCommand"]
    assert state.cursor == 3


# ---------------------------------------------------------------------------- C16, C17, C19


def test_c16_subroutine_visits_a_card_within_reach_and_comes_back():
    # Subroutine at 1 reaches cards 0 and 2; Red's flag is at its head, then Blue's.
    state = placed(game(["Bug", "Subroutine", "AddFlag", "MoveFlag", "Increment"]),
                   [1, 0, 2, 3, 4], [2, 1, 3, 4, 0])
    state.apply("pass")  # Red, then Blue, on Bug
    state.apply("pass")
    assert state.kinds[state.cursor].name == "Subroutine" and state.to_move == 0
    state.apply("run")
    assert state.legal() == ["card 0", "card 2"]
    state.apply("card 2")  # a full visit of AddFlag: Blue's flag, then Red's
    assert state.cursor == 2 and state.calls and state.to_move == 1
    state.apply("pass")
    state.apply("pass")
    # back on Subroutine, whose visit goes on with Blue's flag
    assert not state.calls and state.cursor == 1 and state.to_move == 1
    state.apply("pass")
    assert state.kinds[state.cursor].name == "AddFlag"  # then the cursor moves on


def test_c16_a_card_waiting_for_its_call_cannot_be_called():
    state = placed(game(["Subroutine", "Subroutine", "Bug", "AddFlag", "MoveFlag"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")  # Red on Subroutine 0 calls Subroutine 1 (Blue's flag, then Red's)
    state.apply("card 1")
    assert state.to_move == 1
    state.apply("run")
    assert state.legal() == ["card 2"]  # not card 0, whose visit waits; not itself


def test_c17_chips_leave_a_card_when_the_cursor_does():
    state = placed(game(["Increment", "Bug", "MoveFlag", "AddFlag", "Reorder"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    state.apply("run")
    state.apply("param 1.0")  # Bug {2}
    assert state.chips == [1, 2] and state.values(1) == (2,)
    state.apply("pass")  # Blue on Increment; the cursor goes to Bug, which keeps its chip
    assert state.values(1) == (2,)
    state.apply("run")  # Blue's flag first on Bug: 2 damage to Red
    assert state.lives == [3, 5]
    state.apply("pass")  # Red on Bug; the cursor leaves Bug, and so does the chip
    assert state.values(1) == (1,) and state.chips == [2, 2]


def test_c19_removing_the_called_card_returns_to_the_caller():
    state = placed(game(["RemoveCommand", "Subroutine", "Bug", "AddFlag", "MoveFlag"]),
                   [1, 0, 2, 3, 4], [0, 1, 2, 3, 4])
    # RemoveCommand holds Blue's flag, then Red's; Subroutine Red's, then Blue's.
    state.apply("pass")
    state.apply("pass")
    assert state.kinds[state.cursor].name == "Subroutine" and state.to_move == 0
    state.apply("run")
    state.apply("card 0")  # call RemoveCommand
    assert state.kinds[state.cursor].name == "RemoveCommand" and state.calls
    assert state.to_move == 1
    state.apply("pass")
    state.apply("run")  # Red's flag
    state.apply("card 0")  # RemoveCommand removes itself during the call
    assert not state.calls and state.kinds[state.cursor].name == "Subroutine"
    assert state.to_move == 1  # the caller's visit goes on with Blue's flag


def test_c4_subroutine_runs_only_when_a_call_would_change_something_p24():
    # Subroutine at 0 reaches cards 1 and 6, both empty and without chips: a call comes back
    # to the position passing leads to.
    state = game(["Subroutine", "AddFlag", "Bug", "MoveFlag", "Reorder", "Rotate", "FastPass"])
    for option in ["place 0", "place 0", "place 2", "place 2", "place 3", "place 3", "place 4",
                   "place 4", "place 5", "place 5"]:
        state.apply(option)
    assert state.kinds[state.cursor].name == "Subroutine" and state.legal() == ["pass"]
    # A chip on a card in reach is a change: it goes back as the cursor leaves that card (C17).
    state.mods[1], state.chips[0] = (1,), state.chips[0] - 1
    state._legal = None
    assert state.legal() == ["pass", "run"]


def _nested_call(program, outer, calls):
    """Two flags on each card (Red's first); every flag passes until Red's on card ``outer``,
    then ``calls`` are played."""
    state = game(program)
    for i in range(5):
        state.apply(f"place {i}")
        state.apply(f"place {i}")
    while state.cursor != outer:
        state.apply("pass")
    for option in calls:
        state.apply(option)
    return state


def test_p28_a_removed_caller_that_was_called_hands_the_return_to_its_caller():
    # Subroutine 2 calls Subroutine 1, which calls RemoveCommand 0; Blue's flag there removes
    # Subroutine 1 (its follower would be Subroutine 2, whose visit is waiting).
    state = _nested_call(["RemoveCommand", "Subroutine", "Subroutine", "Bug", "AddFlag"],
                         2, ["run", "card 1", "run", "card 0"])
    assert state.calls and state.to_move == 0 and state.kinds[state.cursor].name == "RemoveCommand"
    state.apply("run")
    state.apply("card 1")
    state.apply("pass")  # Blue on RemoveCommand; its visit, and the removed caller's, end
    assert not state.calls and state.cursor == 1 and state.kinds[1].name == "Subroutine"
    assert state.to_move == 1  # the outer Subroutine's visit goes on with Blue's flag
    assert state.legal() == ["pass", "run"] and state.owners(1) == [0, 1]


def test_p28_the_called_card_is_not_visited_again_when_its_caller_goes():
    # Subroutine 1 calls Subroutine 2, which calls RemoveCommand 3 (the removed caller's
    # follower); Red there removes Subroutine 2, Blue passes: back to Subroutine 1 at once.
    state = _nested_call(["Bug", "Subroutine", "Subroutine", "RemoveCommand", "AddFlag"],
                         1, ["run", "card 2", "run", "card 3"])
    state.apply("run")
    state.apply("card 2")
    state.apply("pass")
    assert not state.calls and state.kinds[state.cursor].name == "Subroutine"
    assert state.cursor == 1 and state.to_move == 1


def test_p28_the_called_card_removing_its_caller_then_itself_returns_to_the_outer_caller():
    state = _nested_call(["Bug", "Subroutine", "Subroutine", "RemoveCommand", "AddFlag"],
                         1, ["run", "card 2", "run", "card 3"])
    state.apply("run")
    state.apply("card 2")  # Red removes Subroutine 2
    state.apply("run")
    state.apply("card 2")  # Blue removes RemoveCommand itself, now at index 2
    assert [k.name for k in state.kinds] == ["Bug", "Subroutine", "AddFlag"]
    assert not state.calls and state.cursor == 1 and state.to_move == 1


# ---------------------------------------------------------------------------- random games


@pytest.mark.parametrize("setup", ["rulebook", "we-are-programmer", "life-race", "inflation",
                                   "catastrophe", "novice"])
def test_pasta_random_games_keep_the_invariants(setup):
    rng = random.Random(setup)
    for seed in range(40):
        state = spaghetti.new_game(1, 2, seed=seed, variant=PASTA, options={"setup": setup})
        chips = state.game.chips
        while not state.is_over:
            state.apply(rng.choice(state.legal()))
            assert all(life <= 6 for life in state.lives)
            inc = state.chips[0] + sum(m for ms in state.mods for m in ms if m > 0)
            dec = state.chips[1] - sum(m for ms in state.mods for m in ms if m < 0)
            assert (inc, dec) == (chips, chips)
            for p in range(2):
                assert (state.on_board[p] + state.supply[p] + state.removed[p]
                        + state.hand[p]) == 10
        assert state.draw == (state.winner is None)
        assert records.loads(records.dumps(state)).position_key() == state.position_key()


def _called_remove_command():
    """Red's AddFlag gives RemoveCommand a third flag; Blue's Subroutine calls RemoveCommand,
    whose queue is then Blue, Red, Red; Blue's flag removes the calling Subroutine."""
    state = placed(game(["AddFlag", "Subroutine", "RemoveCommand", "Bug", "MoveFlag"]),
                   [0, 1, 2, 3, 4], [1, 2, 3, 4, 0])
    for option in ["run", "card 2", "pass", "run", "card 2", "run", "card 1"]:
        state.apply(option)
    assert [state.kinds[i].name for i in range(4)] == ["AddFlag", "RemoveCommand", "Bug",
                                                      "MoveFlag"]
    assert state.cursor == 1 and state.to_move == 0 and state.calls
    return state


def test_c19_return_point_is_the_card_that_followed_the_removed_subroutine():
    state = _called_remove_command()
    # Red removes AddFlag, before the Subroutine's old place: an index would now name Bug.
    for option in ["run", "card 0", "pass"]:
        state.apply(option)
    assert not state.calls
    assert state.kinds[state.cursor].name == "RemoveCommand"  # the follower, a fresh arrival
    assert state.owners(state.cursor) == [0] and state.to_move == 0


def test_c19_a_removed_return_card_passes_the_return_to_its_own_follower():
    state = _called_remove_command()
    # Red removes AddFlag, then RemoveCommand itself (the return card): its follower, Bug.
    for option in ["run", "card 0", "run", "card 0"]:
        state.apply(option)
    assert [state.kinds[i].name for i in range(2)] == ["Bug", "MoveFlag"]
    assert not state.calls and state.cursor == 0 and state.to_move == 1
