"""The expansions of SPEC section 3 that change the setup or the decisions: instant command cards
(C12), interrupt (C13), sequential open (C14) and the fair first player, with this project's
clarifications P14-P19 (docs/rules.md)."""

import json
import random
from pathlib import Path

import pytest

import spaghetti
from spaghetti import Game, IllegalOptionError, SetupError, records
from spaghetti.core.view import view

INSTANT = {"instant_cards": True}
LEVEL1 = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
LEVEL3 = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb", "MoveCommand",
          "RemoveCommand", "Reverse", "Increment", "Decrement"]
DEAL = ["Bug", "MoveFlag", "MoveCommand"]  # face-down cards 0, 1, 2


def instant_game(program=LEVEL3, level=3, deal=DEAL, takes=("take 0", "take 1"), options=None):
    """Seat 1 takes first, then seat 0: by default seat 1 holds Bug and seat 0 MoveFlag."""
    state = Game(level, 2, options={**INSTANT, **(options or {})}).new_state(program, deal=deal)
    for option in takes:
        state.apply(option)
    return state


def place_round_robin(state, cards0, cards1):
    for a, b in zip(cards0, cards1):
        state.apply(f"place {a}")
        state.apply(f"place {b}")


def random_until(state, cond, seed=0, limit=20000):
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over or cond(state):
            return state
        state.apply(rng.choice(state.legal()))
    raise AssertionError("condition never reached")


# ---------------------------------------------------------------------------- instant cards


def test_instant_draft_second_player_takes_first_then_first_player():
    state = Game(3, 2, options=INSTANT).new_state(LEVEL3, deal=DEAL)
    assert (state.phase, state.deciding, state.to_move) == ("setup", "take", 1)
    assert state.legal() == ["take 0", "take 1", "take 2"]
    state.apply("take 2")
    assert state.to_move == 0 and state.legal() == ["take 0", "take 1"]
    state.apply("take 0")
    assert state.instant[1][0].name == "MoveCommand" and state.instant[0][0].name == "Bug"
    assert (state.phase, state.deciding, state.to_move) == ("placement", "place", 0)


def test_instant_cards_are_for_two_players_only():
    with pytest.raises(SetupError, match="instant_cards is for 2 players"):
        Game(3, 3, options=INSTANT)


def test_instant_deal_must_list_the_three_cards_once():
    with pytest.raises(SetupError, match="each once"):
        Game(3, 2, options=INSTANT).new_state(LEVEL3, deal=["Bug", "Bug", "MoveFlag"])
    with pytest.raises(SetupError, match="needs the option instant_cards"):
        Game(3, 2).new_state(LEVEL3, deal=DEAL)


def test_instant_is_offered_at_the_flag_s_turn_and_runs_as_if_printed_there():
    state = instant_game()  # seat 0 holds MoveFlag
    place_round_robin(state, [0, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])
    assert state.deciding == "turn" and state.to_move == 0 and state.cursor == 0
    assert "instant" in state.legal()
    state.apply("instant")
    assert state.deciding == "flag"  # MoveFlag's targets, on the AddFlag card
    assert state.instant[0] is None and state.instant_gone[0] == ("used", state.deal[1])
    state.apply("flag 1.0")  # Blue's flag on MoveFlag
    state.apply("to 0")
    assert state.owners(0) == [0, 1] and state.owners(1) == []
    # used: revealed to everyone, and never offered again
    assert view(state, 1)["instant"][0] == {"status": "used", "card": "MoveFlag",
                                            "params": None, "modifiers": None}
    state = random_until(state, lambda s: s.deciding == "turn" and s.to_move == 0)
    assert "instant" not in state.legal()


def test_c4_instant_whose_command_does_nothing_is_still_offered_its_departure_changes():
    # Seat 0 holds MoveFlag; its count lowered to 0 by its owner, running it moves no flag,
    # but the card leaving the game (revealed, its chip back) is a change of position (C4, C9).
    state = instant_game(program=["Decrement", "AddFlag", "Bug", "MoveFlag", "RemoveFlag",
                                  "ForkBomb"])
    place_round_robin(state, [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0])
    assert state.to_move == 0 and state.kinds[state.cursor].name == "Decrement"
    state.apply("run")
    assert "param i0.0" in state.legal()
    state.apply("param i0.0")
    assert state.instant[0][1] == (-1,) and state.chips == [5, 4]
    state = random_until(state, lambda s: s.deciding == "turn" and s.to_move == 0
                         and s.instant[0] is not None)
    assert "instant" in state.legal()
    decrement_chips = state.chips[1]
    state.apply("instant")  # no flag to choose: the command is over at once
    assert state.deciding != "flag"
    assert state.instant[0] is None and state.instant_gone[0] == ("used", state.deal[1])
    assert state.chips[1] == decrement_chips + 1  # its Decrement chip back (P14)


def test_c12_increment_reaches_own_instant_card_every_parameter_the_other_s_first_only():
    # Seat 1 holds Bug {1}{1}; seat 0 holds MoveFlag {1}.
    state = instant_game(program=["Increment", "AddFlag", "Bug", "MoveFlag", "RemoveFlag",
                                  "ForkBomb"])
    place_round_robin(state, [1, 2, 3, 4, 5, 0], [0, 1, 2, 3, 4, 5])
    assert state.to_move == 1 and state.kinds[state.cursor].name == "Increment"
    state.apply("run")
    legal = state.legal()
    assert "param i1.0" in legal and "param i1.1" in legal  # own Bug: both parameters
    assert "param i0.0" in legal and "param i0.1" not in legal  # the other's: the first only
    state.apply("param i1.1")
    assert state.instant[1][1] == (0, 1) and state.chips == [4, 5]


def test_c12_remove_command_discards_an_instant_card_unrevealed_p14_chips_back():
    program = ["Increment", "RemoveCommand", "Bug", "MoveFlag", "RemoveFlag", "ForkBomb"]
    state = instant_game(program=program)
    place_round_robin(state, [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5])
    state.apply("run")
    state.apply("param i1.0")  # a chip on Blue's face-down card
    assert state.chips == [4, 5]
    state.apply("pass")  # Blue on Increment
    assert state.kinds[state.cursor].name == "RemoveCommand" and state.to_move == 0
    state.apply("run")
    assert "card i0" in state.legal() and "card i1" in state.legal()
    state.apply("card i1")
    assert state.instant[1] is None and state.instant_gone[1] == ("discarded", None)
    assert state.chips == [5, 5]  # P14
    seen_by_0 = view(state, 0)["instant"][1]
    assert seen_by_0["status"] == "discarded" and seen_by_0["card"] is None
    assert view(state)["instant"][1]["card"] == "Bug"  # the referee knows


def test_instant_deal_is_in_the_record_and_round_trips():
    state = instant_game()
    place_round_robin(state, [0, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])
    state.apply("instant")
    text = records.dumps(state)
    assert '"instant_deal": ["Bug", "MoveFlag", "MoveCommand"]' in text
    again = records.loads(text)
    assert again.position_key() == state.position_key() and again.instant == state.instant


def test_instant_deal_without_record_field_comes_from_the_seed():
    a = spaghetti.new_game(3, 2, seed=5, options=INSTANT)
    b = spaghetti.new_game(3, 2, seed=5, options=INSTANT)
    assert [c.name for c in a.deal] == [c.name for c in b.deal]
    assert sorted(c.name for c in a.deal) == ["Bug", "MoveCommand", "MoveFlag"]


# ---------------------------------------------------------------------------- interrupt (C13)

INTERRUPT = {"interrupt": True}


def interrupt_game(seed):
    return spaghetti.new_game(1, 3, seed=seed, options=INTERRUPT)


def test_interrupt_is_for_three_or_more_players():
    with pytest.raises(SetupError, match="interrupt is for 3 to 5 players"):
        Game(1, 2, options=INTERRUPT)


def find_interrupt(seed):
    state = interrupt_game(seed)
    return random_until(state, lambda s: s.deciding == "interrupt", seed)


def test_c13_interrupt_decisions_come_after_an_advance_before_the_visit():
    for seed in range(40):
        state = find_interrupt(seed)
        if state.is_over:
            continue
        seat = state.to_move
        assert not state.alive[seat] and state.tokens[seat] >= 1 and state.supply[seat] >= 1
        legal = state.legal()
        assert legal[0] == "pass" and legal[1:] == [f"interrupt {i}" for i in
                                                    range(len(state.kinds))]
        card = state.cursor
        before_q = state.owners(card)
        assert not any(state.pending(card))  # the visit has not started
        tokens, supply = state.tokens[seat], state.supply[seat]
        state.apply(f"interrupt {card}")
        assert state.tokens[seat] == tokens - 1 and state.supply[seat] == supply - 1
        if state.deciding == "turn" and state.cursor == card:
            # P17: a flag added before the visit starts gets its turn in this visit.
            assert state.owners(card) == before_q + [seat]
            assert state.pending(card)[-1] or state.turn_flag == (card, len(before_q))
        return
    pytest.fail("no interrupt found")


def test_c13_tokens_are_gained_on_card_0_and_p15_capped_by_supply():
    checked = 0
    for seed in range(60):
        state = interrupt_game(seed)
        rng = random.Random(seed)
        while not state.is_over and checked < 30:
            before = state.copy()
            state.apply(rng.choice(state.legal()))
            for p in range(3):
                assert state.tokens[p] <= state.supply[p]  # P15
                if state.alive[p]:
                    assert state.tokens[p] == 0
            gained = [p for p in range(3) if state.tokens[p] > before.tokens[p]]
            if gained:
                assert state.cursor == 0 and state.deciding in ("interrupt", "turn")
                checked += 1
    assert checked


def test_c13_eliminated_interrupter_stays_out_and_cannot_win():
    ends = 0
    for seed in range(80):
        state = interrupt_game(seed)
        rng = random.Random(seed)
        interrupted = set()
        while not state.is_over:
            option = rng.choice(state.legal())
            if option.startswith("interrupt"):
                interrupted.add(state.to_move)
            state.apply(option)
        if interrupted:
            ends += 1
            assert state.winner not in interrupted
    assert ends


def test_p16_everyone_out_by_an_interrupting_actor_goes_to_the_tiebreak():
    # Construct it: Blue and Green are the players still in; Red, out, runs RemoveFlag {1} ...
    # which cannot put two out at once, so use the rule directly on a position.
    state = interrupt_game(1)
    state.alive = [False, True, True]
    state.lives = [0, 2, 3]
    state.removed_queue = None
    state.to_move = 0
    assert state._everyone_out_winner([1, 2]) == 2  # most life among those who were in


# ---------------------------------------------------------------------------- sequential open

SEQ = {"sequential_open": True}


def seq_game(players=2, level=1, program=LEVEL1):
    return Game(level, players, options=SEQ).new_state(program)


@pytest.mark.parametrize("moves,placed,next_first", [
    (["place", "place", "pass", "pass"], [0, 1], 0),   # 先手置く、後手置く、先手パス、後手パス
    (["place", "pass", "pass"], [0], 1),                # 先手置く、後手パス、先手パス
    (["pass", "place", "pass", "pass"], [1], 0),        # 先手パス、後手置く、先手パス、後手パス
    (["pass", "place", "place", "pass", "pass"], [1, 0], 1),
    (["pass", "pass"], [], 0),                          # 先手パス、後手パス
])
def test_sequential_open_follows_the_source_table(moves, placed, next_first):
    state = seq_game()
    assert state.deciding == "open" and state.opened == 1
    for move in moves:
        state.apply("place 0" if move == "place" else "pass")
    assert state.owners(0) == placed
    assert state.opened == 2 and state.to_move == next_first


def test_sequential_open_offers_only_the_open_card_and_pass_when_own_flag_is_there():
    state = seq_game()
    assert state.legal() == ["pass", "place 0"]
    state.apply("place 0")
    state.apply("pass")
    assert state.legal() == ["pass"]  # Red's flag is already on the open card


def test_c14_flags_left_after_the_last_card_are_placed_continuing_the_rotation():
    state = seq_game()
    for _ in range(5):  # both pass on every card
        state.apply("pass")
        state.apply("pass")
    assert state.phase == "placement" and state.deciding == "place"
    assert state.place_order == (0, 1) * 4  # the rotation goes on with Red
    state = seq_game()
    for card in range(5):
        if card == 0:
            state.apply("place 0")  # Red places, Blue passes, Red passes: Blue starts card 1
            state.apply("pass")
            state.apply("pass")
        else:
            for _ in range(2):
                state.apply("pass")
    assert state.place_order[:2] == (1, 0) and state.place_order.count(0) == 3


def test_sequential_open_ends_placement_when_every_flag_is_placed():
    state = seq_game()
    for card in range(4):
        state.apply(f"place {card}")
        state.apply(f"place {card}")
        if card < 3:
            state.apply("pass")
            state.apply("pass")
    assert state.phase == "execution" and state.opened == 5


def test_sequential_open_hides_unopened_cards_from_the_seats():
    state = seq_game()
    seen = view(state, 0)
    assert seen["program"][0]["card"] == "AddFlag"
    assert all(c["card"] is None and c["params"] is None for c in seen["program"][1:])
    assert view(state)["program"][1]["card"] == "MoveFlag"  # the referee


# ---------------------------------------------------------------------------- fair first player

FAIR = {"fair_first": True}


def test_fair_first_a_arranges_then_b_chooses_first():
    state = Game(1, 2, options=FAIR).new_state(LEVEL1)
    assert (state.phase, state.deciding, state.to_move) == ("setup", "arrange", 0)
    assert state.legal() == [f"arrange {n}" for n in LEVEL1]
    for name in ["Bug", "ForkBomb", "AddFlag", "RemoveFlag", "MoveFlag"]:
        state.apply(f"arrange {name}")
    assert [k.name for k in state.kinds] == ["Bug", "ForkBomb", "AddFlag", "RemoveFlag",
                                             "MoveFlag"]
    assert (state.deciding, state.to_move, state.legal()) == ("seat", 1,
                                                              ["seat first", "seat second"])
    state.apply("seat first")
    assert state.first == 1 and state.phase == "placement" and state.to_move == 1
    state.apply("place 0")
    assert state.to_move == 0


def test_fair_first_b_chooses_second():
    state = Game(1, 2, options=FAIR).new_state(LEVEL1)
    for name in LEVEL1:
        state.apply(f"arrange {name.lower()}")  # names are matched without regard to case
    state.apply("seat second")
    assert state.first == 0 and state.to_move == 0


def test_fair_first_with_repeated_cards_offers_each_name_once():
    state = Game(1, 2, options=FAIR).new_state(["Bug", "Bug", "AddFlag", "AddFlag", "MoveFlag"])
    assert state.legal() == ["arrange Bug", "arrange AddFlag", "arrange MoveFlag"]
    with pytest.raises(IllegalOptionError):
        state.apply("arrange ForkBomb")
    with pytest.raises(IllegalOptionError, match="not an option"):
        state.apply("arrange")


@pytest.mark.parametrize("choice,second", [("seat first", 0), ("seat second", 1)])
def test_instant_draft_the_second_player_after_the_fair_first_choice_takes_first(choice, second):
    state = Game(3, 2, options={**FAIR, **INSTANT}).new_state(LEVEL3, deal=DEAL)
    for name in LEVEL3:
        state.apply(f"arrange {name}")
    state.apply(choice)  # B (seat 1) chooses; whoever is then second (後手) takes first
    assert state.deciding == "take" and state.to_move == second
    state.apply("take 1")
    assert state.to_move == 1 - second


def test_fair_first_record_round_trips_with_the_instant_draft():
    state = Game(3, 2, options={**FAIR, **INSTANT}).new_state(LEVEL3, deal=DEAL)
    for name in LEVEL3:
        state.apply(f"arrange {name}")
    state.apply("seat first")  # seat 1 is first: seat 0, second, takes first
    assert state.deciding == "take" and state.to_move == 0
    state.apply("take 1")
    state.apply("take 0")
    again = records.loads(records.dumps(state))
    assert again.history == state.history and again.position_key() == state.position_key()


def test_fair_first_is_for_two_players_only():
    with pytest.raises(SetupError, match="fair_first is for 2 players"):
        Game(1, 4, options=FAIR)


def _record_up_to_its_last_decision(name: str):
    """A record that ends where a repetition should end the game, and the state one decision
    before that end."""
    data = json.loads((Path(__file__).parent / "records" / name).read_text())
    before = records.replay({**data, "actions": data["actions"][:-1]})
    return records.replay(data), before


def test_c9_p15_a_token_goes_with_the_last_flag_an_interrupting_flag_adds():
    # Yellow, out, interrupts; its flag runs AddFlag with Yellow's last flag in supply: the
    # token it still held is worth nothing now and leaves the position (P15), so a loop later
    # the position repeats and the game ends by the tie-break (C9).
    state, before = _record_up_to_its_last_decision("p15-interrupt-token-without-supply.json")
    assert not before.is_over
    assert all(t <= s for t, s in zip(before.tokens, before.supply))
    assert state.is_over and state.reason == "stalemate" and state.winner == 0


def test_c9_p13_at_an_interrupt_only_a_memory_there_can_read_the_older_card():
    # At an interrupt the cursor has come to a card but not arrived: the arrival pushes the
    # older remembered card out, and the newer one is read only by a Memory on this card
    # (here MoveFlag): two interrupts that differ only in it are the same position (C9).
    state, before = _record_up_to_its_last_decision("p13-memory-history-at-interrupt.json")
    assert not before.is_over
    assert state.is_over and state.reason == "stalemate" and state.winner == 1
