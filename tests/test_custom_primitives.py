"""Every primitive of docs/custom-cards.md on a custom card, in every game of the family.

Each test builds a small program of custom cards (the Blank card) in each of the four games
(Spaghetti Code, Battle of the Spaghetti Monsters, Pasta Logic, the Nightmare notes), places the
flags, runs the custom card and checks the documented effect against the position before it:
the "Choose primitives" and "Do primitives" tables, the step keys (count, amount, other, head,
same_card, adjacent, later), C1-C6 and B1-B6 as docs/custom-cards.md states them.

Where the games differ by their own rules the expected outcome differs too, and each test says
which rule it follows: life and its ceiling (B1; Pasta Logic's die, C15, goes to 6; the Nightmare
notes' HP starts at 10 with no ceiling, N1 and N2), chips (level 3 only in Spaghetti Code and
the Monsters, P5; two temporary ones from the start in Pasta Logic, C17; none in the Nightmare
notes, whose numbers change freely and go below zero, N2), two players only in Pasta Logic, and
the Monsters' words.

The fillers (Idle, Alpha, Beta, Gamma) are custom cards whose only step is a damage_self of 0:
C4 never offers `run` on them, so a flag on one can only pass. The helper gives each seat the
game's number of flags: the ones a test names, then one on each of a row of Idle cards added at
the end of the program, one flag per Idle card (so their queues never read differently both
ways, nor hold two flags).
"""

from __future__ import annotations

import json

import pytest

from spaghetti import custom_cards as cc
from spaghetti.core.game import Game
from spaghetti.i18n import describe

SC, MON, PASTA, NM = "spaghetti-code", "spaghetti-monsters", "pasta-logic", "nightmare"
GAMES = (SC, MON, PASTA, NM)
every_game = pytest.mark.parametrize("variant", GAMES)

# The facts of each game these tests rely on, from docs/family.md and docs/rules.md (not from
# the engine): starting life, the ceiling of a heal (B1: the starting life; C15: Pasta Logic's
# die shows at most 6; N2: no ceiling in the Nightmare notes), the chips of each kind and the
# lowest level that has them (P5, C17, N2), flags placed by two players at level 1 (N1: 6 bits).
LIFE = {SC: 5, MON: 5, PASTA: 5, NM: 10}
CAP = {SC: 5, MON: 5, PASTA: 6, NM: None}
CHIPS = {SC: 5, MON: 5, PASTA: 2, NM: 0}
CHIP_LEVEL = {SC: 3, MON: 3, PASTA: 1, NM: 1}
PLACED = {SC: 4, MON: 4, PASTA: 5, NM: 6}
FREE_NUMBERS = {NM}  # N2: no chips, numbers go below zero


def card(name, effect, params=()):
    """TOML text of one custom card; the text prints every parameter."""
    text = "Card " + "".join("{%d}" % i for i in range(len(params))) + "."
    return (f'[[card]]\nname = "{name}"\ntext = "{text}"\nparams = {json.dumps(list(params))}\n'
            f"effect = {effect}\n")


FILLERS = "".join(card(name, '[{do = "damage_self", amount = 0}]', [0])
                  for name in ("Idle", "Alpha", "Beta", "Gamma"))


def players_for(variant):
    """Three players where the game allows it; Pasta Logic is for two only."""
    return 2 if variant == PASTA else 3


def start(variant, program, flags, cards="", players=2, level=1, options=None):
    """A game of ``variant`` with the custom ``cards`` (and the fillers), ``program`` followed
    by Idle cards, and seat s's flags on ``flags[s]`` first, then one on an Idle card each until
    it has placed the game's number of flags. Placement follows the game's own order."""
    game = Game(level=level, players=players, variant=variant, options=options or {},
                custom_cards=cc.loads(cards + FILLERS))
    n = game.flags_placed
    flags = [list(f) for f in flags] + [[] for _ in range(players - len(flags))]
    program = list(program)
    todo = []
    for mine in flags:
        pads = list(range(len(program), len(program) + n - len(mine)))
        program += ["Idle"] * len(pads)
        todo.append(mine + pads)
    state = game.new_state(program)
    for seat in game.placement_order:
        state.apply(f"place {todo[seat].pop(0)}")
    assert state.phase == "execution" and not state.is_over
    return state


def names(state):
    return [k.name for k in state.kinds]


def queues(state):
    return [state.owners(i) for i in range(len(state.kinds))]


def every_flag(state, skip=()):
    """`flag N.K` for every flag on every card but those in ``skip``."""
    return {f"flag {i}.{k}" for i in range(len(state.kinds)) if i not in skip
            for k in range(len(state.owners(i)))}


def cards_but(state, *skip):
    return {f"card {i}" for i in range(len(state.kinds)) if i not in skip}


def pass_until(state, cond, limit=500):
    for _ in range(limit):
        if cond(state):
            return state
        assert state.deciding == "turn" and not state.is_over
        state.apply("pass")
    raise AssertionError("condition never reached")


# ---------------------------------------------------------------------- the games themselves


@every_game
def test_custom_cards_join_each_game_with_its_own_facts(variant):
    """The facts the other tests rely on, as the rules state them for each game."""
    state = start(variant, ["Alpha"], [[0], [0]], level=CHIP_LEVEL[variant])
    game = state.game
    assert game.life == LIFE[variant] and state.lives == [LIFE[variant]] * 2
    assert game.life_cap == CAP[variant]
    assert state.chips == [CHIPS[variant]] * 2
    if variant in (SC, MON):  # P5: no chips before level 3
        assert start(variant, ["Alpha"], [[0], [0]]).chips == [0, 0]
        assert state.supply == [10 - 6] * 2  # level 3: 6 flags placed each
    else:
        assert state.supply == [10 - PLACED[variant]] * 2
    assert game.custom_cards[0].name == "Idle" and "Alpha" in names(state)


# ---------------------------------------------------------------------- choose primitives


PLANT = card("MyPlant", '[{choose = "add_flag"}]')


@every_game
def test_custom_add_flag_joins_the_tail_from_the_supply(variant):
    state = start(variant, ["MyPlant", "Alpha", "Beta"], [[0, 2], [0, 2]], PLANT)
    assert state.turn_flag == (0, 0) and state.to_move == 0
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.choosing == "add_flag" and state.deciding == "card"
    # without `other`, any card, this one included
    assert set(state.legal()) == cards_but(state)
    before, supply, board = queues(state), list(state.supply), list(state.on_board)
    words = describe(state, "card 2")
    assert ({MON: "inhabitant", NM: "bit"}.get(variant, "flag")) in words
    state.apply("card 2")
    after = queues(state)
    assert after[2] == before[2] + [0]  # the actor's flag, at the tail
    assert after[:2] + after[3:] == before[:2] + before[3:]
    assert state.supply == [supply[0] - 1, supply[1]]
    assert state.on_board == [board[0] + 1, board[1]]
    # the command is over: Blue's flag on MyPlant has its turn
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


FILL = card("MyFill", '[{choose = "add_flag", count = 0}]', [9])
CHARM = card("MyCharm", '[{choose = "charm"}]')


@every_game
def test_custom_count_chooses_up_to_n_distinct_cards_and_add_flag_stops_with_the_supply(
        variant):
    state = start(variant, ["MyFill", "MyCharm"], [[0, 1], [0]], FILL + CHARM)
    supply = state.supply[0]
    assert supply == 10 - PLACED[variant] and supply < 9  # fewer flags than the count
    state.apply("run")
    assert set(state.legal()) == cards_but(state)  # no `done` before the first choice
    n = len(state.kinds)
    chosen = []
    for j in range(supply):
        target = n - 1 - j  # from the end of the row
        state.apply(f"card {target}")
        chosen.append(target)
        if j < supply - 1:
            legal = state.legal()
            assert "done" in legal  # C5: up to n, done after the first
            assert set(legal) - {"done"} == cards_but(state, *chosen)  # distinct cards
    # the supply is empty: the step stops by itself, though the count was 9
    assert state.supply[0] == 0 and state.deciding == "turn" and state.turn_flag == (0, 1)
    assert all(state.owners(i)[-1] == 0 for i in chosen)
    state.apply("pass")  # Blue on MyFill
    assert state.cursor == 1 and state.to_move == 0
    # C4: CHARM needs a flag in the actor's supply: nothing to give, so no run
    assert state.legal() == ["pass"]


MOVE = card("MyMove", '[{choose = "move_flag", count = 0}]', [2])


@every_game
def test_custom_move_flag_to_the_tail_of_another_card_and_never_twice(variant):
    state = start(variant, ["MyMove", "Alpha", "Beta", "Gamma"], [[0, 1], [0, 1, 2]], MOVE)
    state.apply("run")
    assert set(state.legal()) == every_flag(state)  # any flag, the running one included
    before, removed, supply = queues(state), list(state.removed), list(state.supply)
    state.apply("flag 1.1")  # Blue's flag on Alpha
    assert state.deciding == "to" and state.selection == (1, 1)
    # any card but its own, and no `done` in the middle of a pair
    assert set(state.legal()) == {f"to {i}" for i in range(len(state.kinds)) if i != 1}
    state.apply("to 3")
    after = queues(state)
    assert after[1] == before[1][:1] and after[3] == before[3] + [1]
    assert state.removed == removed and state.supply == supply
    # a flag moved once by this step cannot be chosen again: Gamma's new tail flag is out
    legal = state.legal()
    assert "done" in legal and "flag 3.0" not in legal
    assert set(legal) - {"done"} == every_flag(state) - {"flag 3.0"}
    state.apply("flag 0.0")  # the flag that ran this may move too
    state.apply("to 2")
    assert state.owners(0) == [1] and state.owners(2) == before[2] + [0]
    assert state.deciding == "turn" and state.turn_flag == (0, 0)  # Blue's turn on MyMove


SNIP = card("MySnip", '[{choose = "remove_flag"}]')


@every_game
def test_custom_remove_flag_takes_the_flag_out_of_the_game(variant):
    state = start(variant, ["MySnip", "Alpha"], [[0, 1], [0, 1]], SNIP)
    state.apply("run")
    assert set(state.legal()) == every_flag(state)  # the flag that ran this included
    before, removed, supply = queues(state), list(state.removed), list(state.supply)
    board = list(state.on_board)
    state.apply("flag 1.1")
    assert state.owners(1) == before[1][:1]
    assert state.removed == [removed[0], removed[1] + 1]
    assert state.supply == supply  # it leaves the game: never back to the supply
    assert state.on_board == [board[0], board[1] - 1]
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


SAME = card("MySame", '[{choose = "remove_flag", count = 0, same_card = true}]', [3])


@every_game
def test_custom_same_card_takes_every_flag_from_the_card_of_the_first(variant):
    players = players_for(variant)
    flags = [[0, 1], [0, 1], [1]][:players]
    state = start(variant, ["MySame", "Alpha"], flags, SAME, players=players)
    state.apply("run")
    assert set(state.legal()) == every_flag(state)  # the first: any flag
    before = state.owners(1)
    state.apply("flag 1.0")
    # then only flags of Alpha, the card of the first, or done
    assert set(state.legal()) == {f"flag 1.{k}" for k in range(len(before) - 1)} | {"done"}
    state.apply("flag 1.0")
    assert state.owners(1) == before[2:]
    if players == 3:  # Green's flag is the last on Alpha: the count allows one more
        assert set(state.legal()) == {"flag 1.0", "done"}
        state.apply("done")
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


REMOVE_CARD = card("MyCut", '[{choose = "remove_card"}]')


@every_game
def test_custom_remove_card_takes_it_out_with_its_flags_and_c3_on_the_cursor(variant):
    state = start(variant, ["MyCut", "Alpha", "Beta"], [[0, 1], [0, 1]], REMOVE_CARD)
    state.apply("run")
    assert set(state.legal()) == cards_but(state)  # this card included
    before, removed = names(state), list(state.removed)
    state.apply("card 1")
    assert names(state) == before[:1] + before[2:]
    assert state.removed == [removed[0] + 1, removed[1] + 1]  # Alpha's flags left the game
    assert state.cursor == 0 and state.turn_flag == (0, 1)

    # C3: this card removes itself: the visit ends (Blue's turn on it is lost) and the card
    # that followed it is visited afresh.
    state = start(variant, ["MyCut", "Alpha", "Beta"], [[0, 1], [0, 1]], REMOVE_CARD)
    state.apply("run")
    state.apply("card 0")
    assert names(state)[:2] == ["Alpha", "Beta"] and state.cursor == 0
    assert state.removed == [1, 1]
    assert state.deciding == "turn" and state.turn_flag == (0, 0) and state.to_move == 0
    assert state.pending(0) == [False, True]  # a fresh arrival: the head has the turn


CUT_CHIPS = card("MyPrice", '[{choose = "raise", amount = 0}, {choose = "remove_card"}]', [1])


@pytest.mark.parametrize("variant", [SC, MON, PASTA, NM])
def test_custom_remove_card_returns_its_chips_to_the_supply_p8(variant):
    """P8; in Nightmare numbers change freely and are not chips: nothing goes back (N2)."""
    level = CHIP_LEVEL[variant]
    state = start(variant, ["MyPrice", "Alpha", "Beta"], [[0], [0]], CUT_CHIPS, level=level)
    state.apply("run")
    state.apply("param 1.0")  # Alpha's 0 rises by 1
    assert state.values(1) == (1,)
    if variant in FREE_NUMBERS:
        assert state.chips == [0, 0]
    else:
        assert state.chips == [CHIPS[variant] - 1, CHIPS[variant]]
    state.apply("card 1")
    assert "Alpha" not in names(state)
    assert state.chips == [CHIPS[variant]] * 2  # back to the shared supply (none in Nightmare)


MOVER = card("MyShift", '[{choose = "move_card"}]')


@every_game
def test_custom_move_card_inserts_it_at_an_index_and_the_cursor_stays_on_its_card(variant):
    state = start(variant, ["MyShift", "Alpha", "Beta", "Gamma"], [[0, 1], [0]], MOVER)
    state.apply("run")
    assert set(state.legal()) == cards_but(state)
    before, q = names(state), queues(state)
    state.apply("card 1")
    assert state.deciding == "at" and state.selection == 1
    assert set(state.legal()) == {f"at {i}" for i in range(len(before)) if i != 1}
    state.apply("at 3")
    assert names(state)[:4] == ["MyShift", "Beta", "Gamma", "Alpha"]
    assert state.owners(3) == q[1] and state.owners(1) == q[2]  # with its queue
    assert state.cursor == 0 and state.turn_flag == (0, 1)

    # C2: moving the cursor's card takes the cursor with it
    state = start(variant, ["MyShift", "Alpha", "Beta", "Gamma"], [[0, 1], [0]], MOVER)
    state.apply("run")
    state.apply("card 0")
    state.apply("at 2")
    assert names(state)[:4] == ["Alpha", "Beta", "MyShift", "Gamma"]
    assert state.cursor == 2 and state.turn_flag == (2, 1) and state.to_move == 1
    state.apply("pass")  # the next advance starts from the card's new place, forwards
    assert state.cursor == min(i for i in range(3, len(state.kinds)) if state.owners(i))


SWAP = card("MySwap", '[{choose = "swap_card"}]')
SWAP_GONE = card("MyGone", '[{do = "remove_this_card"}, {choose = "swap_card"}]')


@every_game
def test_custom_swap_card_swaps_places_with_queues_and_the_cursor_goes_along(variant):
    state = start(variant, ["MySwap", "Alpha", "Beta", "Gamma"], [[0, 2], [0, 3]], SWAP)
    state.apply("run")
    assert set(state.legal()) == cards_but(state, 0)  # always another card
    before, q = names(state), queues(state)
    state.apply("card 3")
    assert names(state)[:4] == ["Gamma", "Alpha", "Beta", "MySwap"]
    assert queues(state)[:4] == [q[3], q[1], q[2], q[0]]
    # B4, C2: the cursor stays on its card; Blue's flag on it still acts in this visit
    assert state.cursor == 3 and state.turn_flag == (3, 1) and state.to_move == 1
    assert len(names(state)) == len(before)

    # No target once this card has left the game: the step is skipped.
    state = start(variant, ["MyGone", "Alpha", "Beta"], [[0, 1], [0, 2]], SWAP_GONE)
    state.apply("run")
    assert "MyGone" not in names(state) and state.deciding == "turn"


HIT = card("MyHit", '[{choose = "damage", amount = 0}]', [2])


@every_game
def test_custom_damage_any_player_still_in_the_actor_included(variant):
    state = start(variant, ["MyHit", "Alpha"], [[0], [0]], HIT)
    state.apply("run")
    # the custom card's own rule: any player, the actor too (even in the Monsters' game,
    # whose Prayer hits an enemy only)
    assert state.legal() == ["player 0", "player 1"]
    state.apply("player 1")
    assert state.lives == [LIFE[variant], LIFE[variant] - 2]
    state.apply("run")  # Blue's flag: may hurt itself
    state.apply("player 1")
    assert state.lives == [LIFE[variant], LIFE[variant] - 4]


KO = card("MyKO", '[{choose = "damage", amount = 0}]', [40])


@every_game
def test_custom_damage_only_players_still_in(variant):
    players = players_for(variant)
    state = start(variant, ["MyKO", "Alpha"], [[0]] * players, KO, players=players)
    state.apply("run")
    state.apply("player 1")  # Blue is out once the command has resolved (C6)
    if players == 2:  # Pasta Logic: the other player out ends the game
        assert state.is_over and state.winner == 0
        return
    assert state.alive == [True, False, True]
    assert state.owners(0) == [0, 2]  # C7: Blue's flags left the game
    assert state.turn_flag == (0, 1) and state.to_move == 2
    state.apply("run")
    assert state.legal() == ["player 0", "player 2"]


HURT = card("MyHurt", '[{choose = "damage", amount = 0}]', [1])
HEAL = card("MyHeal", '[{choose = "heal", amount = 0}]', [2])


@every_game
def test_custom_heal_never_above_the_ceiling_and_only_players_who_can_gain(variant):
    life, cap = LIFE[variant], CAP[variant]
    # Everyone at full life. B1/B2/C4: with a ceiling at the starting life nobody can gain,
    # so no run; Pasta Logic's die goes to 6 (C15) and the Nightmare notes have no ceiling.
    state = start(variant, ["MyHeal", "Alpha"], [[0], [1]], HEAL)
    if cap == life:
        assert state.legal() == ["pass"]
    else:
        assert state.legal() == ["pass", "run"]
        state.apply("run")
        assert state.legal() == ["player 0", "player 1"]
        state.apply("player 0")
        assert state.lives == [life + 2 if cap is None else min(life + 2, cap), life]

    # Red hurts Blue by 1, then heals by 2.
    state = start(variant, ["MyHurt", "MyHeal"], [[0, 1], []], HURT + HEAL)
    state.apply("run")
    state.apply("player 1")
    assert state.lives == [life, life - 1]
    assert state.cursor == 1 and state.to_move == 0
    state.apply("run")
    can_gain = [p for p in (0, 1) if cap is None or state.lives[p] < cap]
    assert state.legal() == [f"player {p}" for p in can_gain]
    state.apply("player 1")
    assert state.lives[1] == (life + 1 if cap is None else min(life + 1, cap))


@every_game
def test_custom_heal_in_the_same_command_keeps_a_player_in_c6(variant):
    life = LIFE[variant]
    # damage by the whole starting life, then heal by 1
    risk = card("MyRisk", '[{choose = "damage", amount = 0}, {choose = "heal", amount = 1}]',
                [life, 1])
    state = start(variant, ["MyRisk", "Alpha"], [[0], [1]], risk)
    state.apply("run")
    state.apply("player 1")
    assert state.lives == [life, 0] and not state.is_over  # not out before the command ends
    assert "player 1" in state.legal()
    state.apply("player 1")
    assert state.lives == [life, 1] and state.alive == [True, True] and not state.is_over


UP = card("MyUp", '[{choose = "raise", amount = 0}]', [1])
BIG_UP = card("MyBigUp", '[{choose = "raise", amount = 0}]', [7])


@every_game
def test_custom_raise_rises_within_the_chip_supply(variant):
    # At level 1 the Spaghetti Code and Monsters games have no chips (P5): a card whose only
    # step is a raise is never offered run. Pasta Logic has two chips from the start; the
    # Nightmare notes' numbers change freely.
    state = start(variant, ["MyUp", "Alpha"], [[0], [0]], UP)
    assert state.legal() == (["pass"] if CHIP_LEVEL[variant] > 1 else ["pass", "run"])

    state = start(variant, ["MyUp", "Alpha"], [[0], [0]], UP, level=CHIP_LEVEL[variant])
    state.apply("run")
    # any parameter of any card, those at 0 too
    assert set(state.legal()) == {f"param {i}.{j}" for i, vs in enumerate(state.vals)
                                  for j in range(len(vs))}
    state.apply("param 0.0")  # its own amount
    assert state.values(0) == (2,)
    if variant in FREE_NUMBERS:
        assert state.chips == [0, 0]
    else:
        assert state.chips == [CHIPS[variant] - 1, CHIPS[variant]]
    state.apply("pass")  # Blue on MyUp; then the cursor leaves MyUp
    assert state.cursor != 0
    if variant == PASTA:  # C17: the chips leave with the cursor
        assert state.values(0) == (1,) and state.chips == [2, 2]
    else:
        assert state.values(0) == (2,)

    # An amount beyond the chips left: the parameter rises as far as the chips go.
    state = start(variant, ["MyBigUp", "Alpha"], [[0], [0]], BIG_UP, level=CHIP_LEVEL[variant])
    state.apply("run")
    state.apply("param 1.0")
    assert state.values(1) == ((7,) if variant in FREE_NUMBERS else (min(7, CHIPS[variant]),))
    assert state.chips == [0, CHIPS[variant]]


DOWN = card("MyDown", '[{choose = "lower", amount = 0}]', [4])
THREE = card("MyThree", '[{do = "damage_self", amount = 0}]', [3])


@every_game
def test_custom_lower_falls_by_up_to_amount_never_below_zero(variant):
    state = start(variant, ["MyDown", "MyThree"], [[0], [0]], DOWN + THREE)
    assert state.legal() == (["pass"] if CHIP_LEVEL[variant] > 1 else ["pass", "run"])

    state = start(variant, ["MyDown", "MyThree"], [[0], [0]], DOWN + THREE,
                  level=CHIP_LEVEL[variant])
    state.apply("run")
    every = {f"param {i}.{j}" for i, vs in enumerate(state.vals) for j in range(len(vs))}
    if variant in FREE_NUMBERS:  # N2: any number, 0 too: it goes below zero
        assert set(state.legal()) == every
    else:  # only a parameter above 0
        assert set(state.legal()) == {"param 0.0", "param 1.0"}
    state.apply("param 1.0")  # MyThree's 3, lowered by up to 4
    expected = {SC: 0, MON: 0, PASTA: 1, NM: -1}[variant]  # Pasta Logic: two chips only
    assert state.values(1) == (expected,)
    used = 3 - expected
    assert state.chips == ([0, 0] if variant in FREE_NUMBERS
                           else [CHIPS[variant], CHIPS[variant] - used])


REORDER = card("MyOrder", '[{choose = "reorder", count = 0, other = true}]', [2])


@every_game
def test_custom_reorder_a_card_one_place_at_a_time(variant):
    state = start(variant, ["MyOrder", "Alpha", "Beta", "Gamma"], [[0, 1, 2, 3], [0, 1, 2]],
                  REORDER)
    state.apply("run")
    # cards other than this one with two flags or more (the Idle cards hold one each)
    assert set(state.legal()) == {"card 1", "card 2"}
    state.apply("card 1")
    assert state.owners(1) == [0, 1]
    assert set(state.legal()) == {"flag 1.0", "flag 1.1"}  # no done inside a card
    state.apply("flag 1.1")  # Blue's flag takes the head; the last place goes by itself
    assert state.owners(1) == [1, 0]
    assert set(state.legal()) == {"card 2", "done"}  # not yet reordered, or stop
    state.apply("card 2")
    state.apply("flag 2.0")  # the same order again
    assert state.owners(2) == [0, 1]
    assert state.deciding == "turn" and state.turn_flag == (0, 1)  # count 2 used up


@every_game
def test_custom_charm_turns_another_player_s_flag_with_its_marks(variant):
    state = start(variant, ["MyCharm", "Alpha"], [[0, 1], [0, 1]], CHARM)
    state.apply("run")
    q = queues(state)
    assert set(state.legal()) == {f"flag {i}.{k}" for i, owners in enumerate(q)
                                  for k, o in enumerate(owners) if o != 0}
    supply, removed = list(state.supply), list(state.removed)
    assert state.pending(0) == [False, True]
    state.apply("flag 0.1")  # Blue's flag on MyCharm, still to have its turn
    assert state.owners(0) == [0, 0]
    assert state.supply == [supply[0] - 1, supply[1] + 1] and state.removed == removed
    # with its marks: the flag, now Red's, still has its turn in this visit
    assert state.deciding == "turn" and state.turn_flag == (0, 1) and state.to_move == 0


JUMP = card("MyJump", '[{choose = "jump", amount = 0}]', [2])
FAR = card("MyFar", '[{choose = "jump", amount = 0}]', [40])


@every_game
def test_custom_jump_goes_far_enough_and_the_first_jump_fixes_the_destination(variant):
    # (stalemate "manual": the second jump reaches the position of the first, a repeat (C9))
    state = start(variant, ["MyJump", "Alpha", "Beta", "Gamma"], [[0, 3], [0, 3]], JUMP,
                  options={"stalemate": "manual"})
    n = len(state.kinds)
    state.apply("run")
    # at least 2 places from the cursor's card, counted round the program
    assert set(state.legal()) == {f"card {i}" for i in range(n) if min(i, n - i) >= 2}
    state.apply("card 3")
    # the visit of MyJump ends (Blue's turn there lapses); Gamma is visited afresh
    assert state.cursor == 3 and state.turn_flag == (3, 0) and state.to_move == 0
    assert state.pending(0) == [False, False] and state.pending(3) == [False, True]
    # Round the program again to MyJump: now it jumps to Gamma without a choice.
    state.apply("pass")
    pass_until(state, lambda s: s.turn_flag == (0, 0))
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.deciding == "turn" and state.cursor == 3 and state.turn_flag == (3, 0)
    assert "declare" in state.legal()  # the same position as after the first jump

    # C4: no card far enough, no run
    state = start(variant, ["MyFar", "Alpha"], [[0], [0]], FAR)
    assert state.legal() == ["pass"]


FLOAT = card("MyFloat", '[{choose = "float", amount = 0}]', [1])


@every_game
def test_custom_float_swaps_with_the_card_amount_places_away(variant):
    state = start(variant, ["MyFloat", "Alpha", "Beta"], [[0, 1], [0]], FLOAT)
    n = len(state.kinds)
    state.apply("run")
    assert set(state.legal()) == {"at 1", f"at {n - 1}"}  # one place either way, round
    q = queues(state)
    state.apply("at 1")
    assert names(state)[:3] == ["Alpha", "MyFloat", "Beta"]
    assert queues(state)[:2] == [q[1], q[0]]
    assert state.cursor == 1 and state.turn_flag == (1, 1) and state.to_move == 1  # C2

    state = start(variant, ["MyFloat", "Alpha", "Beta"], [[0, 1], [0]], FLOAT)
    state.apply("run")
    state.apply(f"at {n - 1}")  # round the program: it trades places with the last card
    assert names(state)[0] == "Idle" and names(state)[n - 1] == "MyFloat"
    assert state.cursor == n - 1


CALL = card("MyCall", '[{choose = "call", amount = 0}]', [1])


@every_game
def test_custom_call_visits_a_near_card_and_comes_back(variant):
    state = start(variant, ["MyCall", "Alpha", "Beta"], [[0], [0, 1]], CALL)
    n = len(state.kinds)
    state.apply("run")
    assert set(state.legal()) == {"card 1", f"card {n - 1}"}  # within 1, not this card
    state.apply("card 1")
    assert state.cursor == 1 and state.turn_flag == (1, 0) and state.to_move == 1
    state.apply("pass")  # the call's visit is over: back to finish MyCall's visit
    assert state.cursor == 0 and state.turn_flag == (0, 1) and state.to_move == 1
    state.apply("pass")
    assert state.cursor == 1 and state.turn_flag == (1, 0)  # the ordinary advance

    # C16: a card whose visit waits for a call to end cannot be called; C4 (P24): nor is a
    # call offered when the only card in reach is empty (it would change nothing)
    state = start(variant, ["MyCall", "MyCall", "Beta"], [[0], [0, 1]], CALL)
    state.apply("run")
    state.apply("card 1")
    assert state.legal() == ["pass"]
    state = start(variant, ["MyCall", "MyCall", "Beta"], [[0, 2], [0, 1]], CALL)
    state.apply("run")
    state.apply("card 1")
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.legal() == ["card 2"]


# ---------------------------------------------------------------------- do primitives


REV = card("MyRev", '[{do = "reverse"}]')


@every_game
def test_custom_reverse_flips_the_direction_for_the_next_advance(variant):
    state = start(variant, ["MyRev", "Alpha"], [[0], [0, 1]], REV)
    n = len(state.kinds)
    assert state.direction == 1
    state.apply("run")
    assert state.direction == -1 and state.cursor == 0 and state.turn_flag == (0, 1)
    state.apply("pass")
    assert state.cursor == n - 1  # walking backwards, round the program


FLIPQ = card("MyFlipQ", '[{do = "reverse_queues"}]')


@every_game
def test_custom_reverse_queues_on_every_card_but_this_one(variant):
    state = start(variant, ["MyFlipQ", "Alpha", "Beta"], [[0, 1], [0, 1]], FLIPQ)
    q = queues(state)
    state.apply("run")
    assert queues(state) == [q[0]] + [o[::-1] for o in q[1:]]
    # no C10 from a custom card: the runner stays at the head, Blue's turn comes next
    assert state.owners(0) == [0, 1] and state.turn_flag == (0, 1)

    # C4: every other queue reads the same both ways: no run
    state = start(variant, ["MyFlipQ", "Alpha", "Beta"], [[0, 1], [2]], FLIPQ)
    assert state.legal() == ["pass"]


BURN = card("MyBurn", '[{do = "remove_running_flag"}]')
SNIP_BURN = card("MySnipBurn", '[{choose = "remove_flag"}, {do = "remove_running_flag"}]')
MOVE_BURN = card("MyMoveBurn", '[{choose = "move_flag"}, {do = "remove_running_flag"}]')


@every_game
def test_custom_remove_running_flag_if_it_is_still_on_a_card(variant):
    state = start(variant, ["MyBurn", "Alpha"], [[0], [0]], BURN)
    removed = list(state.removed)
    state.apply("run")
    assert state.owners(0) == [1] and state.removed == [removed[0] + 1, removed[1]]
    assert state.turn_flag == (0, 0) and state.to_move == 1

    # The running flag moved away first: it is still on a card, and leaves from there.
    state = start(variant, ["MyMoveBurn", "Alpha"], [[0], [0, 1]], MOVE_BURN)
    state.apply("run")
    state.apply("flag 0.0")
    state.apply("to 1")
    assert state.owners(0) == [1] and state.owners(1) == [1]
    assert state.removed == [1, 0]

    # Removed already by the first step: nothing more leaves.
    state = start(variant, ["MySnipBurn", "Alpha"], [[0], [0, 1]], SNIP_BURN)
    state.apply("run")
    state.apply("flag 0.0")
    assert state.removed == [1, 0] and state.owners(0) == [1]
    # Another flag chosen: that one and the running flag both leave.
    state = start(variant, ["MySnipBurn", "Alpha"], [[0], [0, 1]], SNIP_BURN)
    state.apply("run")
    state.apply("flag 1.0")
    assert state.removed == [1, 1] and state.owners(0) == [1] and state.owners(1) == []


SELF_HURT = card("MyOuch", '[{do = "damage_self", amount = 0}]', [2])


@every_game
def test_custom_damage_self_the_actor_loses_amount(variant):
    life = LIFE[variant]
    state = start(variant, ["MyOuch", "Alpha"], [[0], [0]], SELF_HURT)
    state.apply("run")
    assert state.lives == [life - 2, life] and state.turn_flag == (0, 1)
    state.apply("run")
    assert state.lives == [life - 2, life - 2]


SELF_HEAL = card("MyRest", '[{do = "heal_self", amount = 0}]', [3])


@every_game
def test_custom_heal_self_the_actor_gains_never_above_the_ceiling(variant):
    life, cap = LIFE[variant], CAP[variant]
    state = start(variant, ["MyRest", "Alpha"], [[0], [0]], SELF_HEAL)
    if cap == life:  # at full life nothing can change (C4)
        assert state.legal() == ["pass"]
    else:
        state.apply("run")
        assert state.lives[0] == (life + 3 if cap is None else cap)

    state = start(variant, ["MyOuch", "MyRest"], [[0, 1], []], SELF_HURT + SELF_HEAL)
    state.apply("run")
    assert state.lives[0] == life - 2 and state.cursor == 1
    state.apply("run")
    assert state.lives == [life + 1 if cap is None else min(life + 1, cap), life]


OTHERS = card("MyBlast", '[{do = "damage_others", amount = 0}]', [2])


@every_game
def test_custom_damage_others_every_other_player_still_in(variant):
    players = players_for(variant)
    life = LIFE[variant]
    state = start(variant, ["MyBlast", "Alpha"], [[0]] + [[1]] * (players - 1), OTHERS,
                  players=players)
    assert state.legal() == ["pass", "run"]
    state.apply("run")  # no choice: Pasta Logic's "the opponent", everyone else elsewhere
    assert state.lives == [life] + [life - 2] * (players - 1)


DOOM = card("MyDoom", '[{do = "damage_others", amount = 0}, {do = "damage_self", amount = 0}]',
            [40])


@every_game
def test_custom_damage_others_and_self_everyone_out_at_once(variant):
    # "If everyone still in is eliminated by one command, the actor wins (C8)"; Pasta Logic
    # has C18 instead: a draw. (N7: C8 applies in the Nightmare notes.)
    state = start(variant, ["MyDoom", "Alpha"], [[1], [0]], DOOM)
    assert state.turn_flag == (0, 0) and state.to_move == 1  # Blue's flag runs it
    state.apply("run")
    assert state.is_over and state.alive == [False, False]
    if variant == PASTA:
        assert state.winner is None and state.draw
    else:
        assert state.winner == 1 and not state.draw


ROTATE = card("MyRotate", '[{do = "rotate_queues"}]')


@every_game
def test_custom_rotate_queues_tail_to_head_on_every_card_but_this_one(variant):
    players = players_for(variant)
    state = start(variant, ["MyRotate", "Alpha", "Beta"], [[0, 1]] * players, ROTATE,
                  players=players)
    q = queues(state)
    assert len(q[1]) == players
    state.apply("run")
    assert queues(state) == [q[0]] + [o[-1:] + o[:-1] for o in q[1:]]
    assert state.owners(1) == [players - 1] + list(range(players - 1))

    # C4: no card but this one holds two flags: nothing to rotate
    state = start(variant, ["MyRotate", "Alpha"], [[0], [0]], ROTATE)
    assert state.legal() == ["pass"]


ZAP = card("MyZap", '[{choose = "damage", amount = 0}]', [1])
PLANT_OTHER = card("MyPlantO", '[{choose = "add_flag", other = true}]')
MIMIC = card("MyMimic", '[{do = "copy_ahead", amount = 0}]', [2])


@every_game
def test_custom_copy_ahead_runs_the_cards_ahead_nearest_first_as_this_card(variant):
    cards = MIMIC + PLANT_OTHER + ZAP + SNIP
    state = start(variant, ["MyMimic", "MyPlantO", "MyZap", "MySnip"], [[0], [0]], cards)
    life = LIFE[variant]
    state.apply("run")
    # MyPlantO's command first (the nearest), "this card" still MyMimic: card 0 is excluded,
    # MyPlantO itself is not.
    assert state.choosing == "add_flag"
    assert set(state.legal()) == cards_but(state, 0)
    before = state.owners(1)
    state.apply("card 1")
    assert state.owners(1) == before + [0]
    assert state.choosing == "damage"  # then MyZap's, with its own value
    state.apply("player 1")
    assert state.lives == [life, life - 1]
    # MySnip (three ahead) is not copied: the command is over
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


REV_MIMIC = card("MyRevMimic", '[{do = "reverse"}, {do = "copy_ahead", amount = 0}]', [1])
MIMIC3 = card("MyMimic3", '[{do = "copy_ahead", amount = 0}]', [3])


@every_game
def test_custom_copy_ahead_reads_the_direction_at_run_and_orders_by_the_direction_now(variant):
    # The cards ahead are read in the direction at `run`: reversing first changes nothing
    # about which (MyZap, card 1), not the last card of the row.
    cards = REV_MIMIC + ZAP
    state = start(variant, ["MyRevMimic", "MyZap"], [[0], [0]], cards)
    state.apply("run")
    assert state.direction == -1 and state.choosing == "damage"
    # N5 ("custom cards copy the same way in every game"): the copies run nearest first going
    # forward, but after a copied reverse the rest run in the other order.
    cards = MIMIC3 + REV + PLANT_OTHER + ZAP
    state = start(variant, ["MyMimic3", "MyRev", "MyPlantO", "MyZap"], [[0], [0]], cards)
    state.apply("run")
    assert state.direction == -1 and state.choosing == "damage"  # MyZap before MyPlantO
    state.apply("player 1")
    assert state.choosing == "add_flag" and set(state.legal()) == cards_but(state, 0)
    state.apply("card 2")
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


ECHO = card("MyEcho", '[{do = "copy_behind", amount = 0}]', [2])


@every_game
def test_custom_copy_behind_runs_the_cards_behind_in_the_cursor_s_direction(variant):
    cards = ECHO + PLANT_OTHER + ZAP
    state = start(variant, ["MyPlantO", "MyZap", "MyEcho"], [[2], [2]], cards)
    assert state.cursor == 2 and state.turn_flag == (2, 0)  # empty cards are left at once
    state.apply("run")
    # going forward, the farthest behind first: MyPlantO (card 0), then MyZap (card 1)
    assert state.choosing == "add_flag"
    assert set(state.legal()) == cards_but(state, 2)  # "this card" is MyEcho
    state.apply("card 0")
    assert state.owners(0) == [0]
    assert state.choosing == "damage"
    state.apply("player 1")
    assert state.lives[1] == LIFE[variant] - 1 and state.turn_flag == (2, 1)


FLOAT_NEXT = card("MyDrift", '[{choose = "float", amount = 0}, {do = "copy_next"}]', [1])
NEXT = card("MyNext", '[{do = "copy_next"}]')


@every_game
def test_custom_copy_next_copies_the_next_card_from_where_this_card_now_is(variant):
    cards = FLOAT_NEXT + PLANT_OTHER + ZAP
    state = start(variant, ["MyDrift", "MyPlantO", "MyZap"], [[0], [0]], cards)
    state.apply("run")
    state.apply("at 1")
    assert names(state)[:3] == ["MyPlantO", "MyDrift", "MyZap"]
    # next in the direction from index 1 is MyZap (not MyPlantO, next from where it was)
    assert state.choosing == "damage"
    state.apply("player 1")
    assert state.lives[1] == LIFE[variant] - 1

    state = start(variant, ["MyNext", "MyPlantO", "MyZap"], [[0], [0]], NEXT + PLANT_OTHER + ZAP)
    state.apply("run")
    assert state.choosing == "add_flag" and set(state.legal()) == cards_but(state, 0)


MIMIC1 = card("MyMimicA", '[{do = "copy_ahead", amount = 0}]', [1])
MIMIC2 = card("MyMimicB", '[{do = "copy_ahead", amount = 0}]', [1])


@every_game
def test_custom_copies_always_end(variant):
    # MyMimicA copies MyMimicB, whose copy (as if on MyMimicA) would copy MyMimicB again: a copy
    # card copied a second time in the same run does nothing. Nothing changes, so no run (C4).
    cards = MIMIC1 + MIMIC2 + ZAP
    state = start(variant, ["MyMimicA", "MyMimicB", "MyZap"], [[0], [0]], cards)
    assert state.legal() == ["pass"]
    # Raised to 2, MyMimicB's copy reaches MyZap: run, then MyZap's damage, then the end.
    cards = MIMIC1 + MIMIC2.replace("params = [1]", "params = [2]") + ZAP
    state = start(variant, ["MyMimicA", "MyMimicB", "MyZap"], [[0], [0]], cards)
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.choosing == "damage"
    state.apply("player 1")
    assert state.deciding == "turn" and state.turn_flag == (0, 1)


BOMB = card("MyBomb", '[{do = "remove_this_card"}]')


@every_game
def test_custom_remove_this_card_leaves_with_its_flags_and_c3(variant):
    state = start(variant, ["MyBomb", "Alpha", "Beta"], [[0, 1], [0, 1]], BOMB)
    n = len(state.kinds)
    state.apply("run")
    assert "MyBomb" not in names(state) and len(state.kinds) == n - 1
    assert state.removed == [1, 1]  # both flags on it
    # C3: the visit ends, Alpha (its follower) is visited afresh
    assert state.cursor == 0 and names(state)[0] == "Alpha"
    assert state.turn_flag == (0, 0) and state.pending(0) == [False, True]


SPAWN = card("MySpawn", '[{do = "spawn", amount = 0}]', [2])


@every_game
def test_custom_spawn_sends_flags_that_arrive_when_the_cursor_moves(variant):
    state = start(variant, ["MySpawn", "Alpha", "Beta"], [[0, 1, 2], [0, 1]], SPAWN)
    q, supply = queues(state), list(state.supply)
    # this card, and every card holding at least 2 flags: MySpawn and Alpha (not Beta)
    state.apply("run")
    assert state.supply == [supply[0] - 2, supply[1]]
    assert queues(state) == q  # on their way, not on the cards yet
    assert state.turn_flag == (0, 1)
    state.apply("pass")  # the cursor moves: they arrive at the tails
    assert state.owners(0) == q[0] + [0] and state.owners(1) == q[1] + [0]
    assert state.owners(2) == q[2]
    assert state.cursor == 1 and state.pending(1) == [False, True, True]


SURGE_HERE = card("MyHere", '[{do = "damage_here", amount = 0}]', [1])
SURGE_AWAY = card("MyAway", '[{do = "damage_not_here", amount = 0}]', [2])


@every_game
def test_custom_damage_here_hits_every_player_with_a_flag_on_this_card(variant):
    players = players_for(variant)
    flags = [[0], [0, 1], [1]][:players] if players == 3 else [[0], [1]]
    here = {p for p, f in enumerate(flags) if 0 in f}
    life = LIFE[variant]
    state = start(variant, ["MyHere", "Alpha"], flags, SURGE_HERE, players=players)
    state.apply("run")
    assert state.lives == [life - 1 if p in here else life for p in range(players)]


@every_game
def test_custom_damage_here_on_a_copy_counts_flags_on_the_copying_card(variant):
    # N8 and "as if written on this card": MyMimicA copies MyHere; "this card" is MyMimicA,
    # where only Red has a flag (Blue's is on MyHere).
    life = LIFE[variant]
    state = start(variant, ["MyMimicA", "MyHere"], [[0], [1]], MIMIC1 + SURGE_HERE)
    state.apply("run")
    assert state.lives == [life - 1, life]


@every_game
def test_custom_damage_not_here_hits_every_player_without_a_flag_on_this_card(variant):
    players = players_for(variant)
    flags = [[0], [0, 1], [1]][:players] if players == 3 else [[0], [1]]
    here = {p for p, f in enumerate(flags) if 0 in f}
    life = LIFE[variant]
    state = start(variant, ["MyAway", "Alpha"], flags, SURGE_AWAY, players=players)
    state.apply("run")
    assert state.lives == [life if p in here else life - 2 for p in range(players)]


# ---------------------------------------------------------------------- step keys


PUMP = card("MyPump", '[{choose = "raise", amount = 0}, {choose = "damage", amount = 1}]', [1, 1])


@every_game
def test_custom_amount_is_the_value_at_run_chips_included_for_the_whole_command(variant):
    life = LIFE[variant]
    state = start(variant, ["MyPump", "Alpha"], [[0], [0]], PUMP, level=CHIP_LEVEL[variant])
    state.apply("run")
    state.apply("param 0.1")  # its own damage: 1 -> 2, during the command
    assert state.values(0) == (1, 2)
    state.apply("player 1")
    assert state.lives == [life, life - 1]  # the value read at run holds
    assert state.turn_flag == (0, 1)  # Blue on MyPump: the cursor has not left it
    state.apply("run")
    state.apply("param 0.0")
    state.apply("player 0")
    assert state.lives == [life - 2, life - 1]  # the raised value, read at Blue's run


HIT_SOME = card("MyHits", '[{choose = "damage", count = 0, amount = 1}]', [2, 1])
HIT_NONE = card("MyHits0", '[{choose = "damage", count = 0, amount = 1}]', [0, 1])


@every_game
def test_custom_count_up_to_n_distinct_players_then_done(variant):
    players = players_for(variant)
    life = LIFE[variant]
    state = start(variant, ["MyHits", "Alpha"], [[0]] * players, HIT_SOME, players=players)
    state.apply("run")
    assert state.legal() == [f"player {p}" for p in range(players)]
    state.apply("player 1")
    assert state.legal() == [f"player {p}" for p in range(players) if p != 1] + ["done"]
    state.apply("done")
    assert state.lives == [life - (p == 1) for p in range(players)]
    assert state.deciding == "turn" and state.turn_flag == (0, 1)
    state.apply("run")  # both choices this time: distinct players
    state.apply("player 1")
    state.apply("player 0")
    assert state.lives[:2] == [life - 1, life - 2] and state.deciding == "turn"

    # A count of 0: the step is skipped, and nothing else would change: no run (C4).
    state = start(variant, ["MyHits0", "Alpha"], [[0], [0]], HIT_NONE)
    assert state.legal() == ["pass"]


TRIO = card("MyTrio", '[{choose = "remove_flag", other = true}, {choose = "add_flag", '
            'other = true}, {choose = "damage", amount = 0, other = true}]', [1])
LEAVE = card("MyLeave", '[{do = "remove_this_card"}, {choose = "remove_flag", other = true}]')


@every_game
def test_custom_other_excludes_this_card_and_the_actor(variant):
    state = start(variant, ["MyTrio", "Alpha"], [[0, 1], [0, 1]], TRIO)
    state.apply("run")
    assert set(state.legal()) == every_flag(state, skip=(0,))  # not on this card
    state.apply("flag 1.1")
    assert set(state.legal()) == cards_but(state, 0)  # a card other than this one
    state.apply("card 1")
    assert state.owners(1) == [0, 0]
    assert state.legal() == ["player 1"]  # a player other than the actor
    state.apply("player 1")
    assert state.lives == [LIFE[variant], LIFE[variant] - 1]

    # B6: once this card has left the game, `other` excludes no card or flag
    state = start(variant, ["MyLeave", "Alpha", "Beta"], [[0, 1], [0, 1]], LEAVE)
    state.apply("run")
    assert "MyLeave" not in names(state)
    assert set(state.legal()) == every_flag(state)


HEAD = card("MyFront", '[{choose = "add_flag", head = true}]')


@every_game
def test_custom_head_adds_the_flag_at_the_head(variant):
    state = start(variant, ["MyFront", "Alpha"], [[0, 1], [0, 1]], HEAD)
    q, supply = queues(state), state.supply[0]
    state.apply("run")
    state.apply("card 1")
    assert state.owners(1) == [0] + q[1] and state.supply[0] == supply - 1
    # On this card: the new flag joins during the visit, so it waits (C1); Blue's turn comes.
    state = start(variant, ["MyFront", "Alpha"], [[0, 1], [0, 1]], HEAD)
    state.apply("run")
    state.apply("card 0")
    assert state.owners(0) == [0, 0, 1]
    assert state.turn_flag == (0, 2) and state.to_move == 1
    state.apply("pass")
    assert state.cursor == 1  # the flag at the head had no turn in this visit


KILL = card("MyKill", '[{choose = "remove_card", adjacent = true}]')


@every_game
def test_custom_adjacent_only_the_card_just_before_or_after(variant):
    state = start(variant, ["MyKill", "Alpha", "Beta"], [[0, 1], [0, 2]], KILL)
    n = len(state.kinds)
    state.apply("run")
    assert set(state.legal()) == {"card 1", f"card {n - 1}"}  # round the program
    before = names(state)
    state.apply(f"card {n - 1}")
    assert names(state) == before[:-1]
    state = start(variant, ["MyKill", "Alpha", "Beta"], [[0, 1], [0, 2]], KILL)
    state.apply("run")
    state.apply("card 1")
    assert names(state)[:2] == ["MyKill", "Beta"] and state.removed == [1, 0]


WORM = card("MyWorm", '[{choose = "add_flag", later = true}]')


@every_game
def test_custom_later_the_flag_leaves_the_supply_now_and_lands_when_the_cursor_moves(variant):
    state = start(variant, ["MyWorm", "Alpha", "Beta"], [[0], [0, 2]], WORM)
    q, supply = queues(state), state.supply[0]
    state.apply("run")
    state.apply("card 1")
    assert state.supply[0] == supply - 1
    assert queues(state) == q  # not yet on Alpha
    assert state.turn_flag == (0, 1)
    state.apply("pass")  # the cursor moves: the flag joins Alpha's tail, before the arrival
    assert state.owners(1) == q[1] + [0]
    assert state.cursor == 1 and state.turn_flag == (1, 0) and state.to_move == 0


WORM_JUMP = card("MyWormJump", '[{choose = "add_flag", later = true}, '
                 '{choose = "jump", amount = 0}]', [2])


@every_game
def test_custom_later_lands_when_the_cursor_jumps(variant):
    # "when the cursor next moves": a jump moves it (N4: an advance or a JUMP)
    state = start(variant, ["MyWormJump", "Alpha", "Beta", "Gamma"], [[0, 3], [0, 3]],
                  WORM_JUMP)
    q = queues(state)
    state.apply("run")
    state.apply("card 1")
    assert queues(state) == q
    state.apply("card 3")
    assert state.owners(1) == q[1] + [0] and state.cursor == 3 and state.turn_flag == (3, 0)


# ---------------------------------------------------------------------- C4 and B5


TWICE = card("MyDizzy", '[{do = "reverse"}, {do = "reverse"}]')
UP_DOWN = card("MyUpDown", '[{do = "heal_self", amount = 0}, {do = "damage_self", amount = 0}]',
               [1])
DOWN_UP = card("MyDownUp", '[{do = "damage_self", amount = 0}, {do = "heal_self", amount = 0}]',
               [1])
ZERO_HIT = card("MyNoHit", '[{choose = "damage", amount = 0}]', [0])
OTHER_HEAL = card("MyCare", '[{choose = "heal", amount = 0, other = true}]', [1])


@every_game
def test_custom_c4_run_only_when_running_can_change_something(variant):
    def offered(program, cards, flags=((0,), (0,))):
        return "run" in start(variant, program, [list(f) for f in flags], cards).legal()

    # B5: two reverses cancel out
    assert not offered(["MyDizzy", "Alpha"], TWICE)
    # amount 0: nothing to do
    assert not offered(["MyNoHit", "Alpha"], ZERO_HIT)
    # B5: lose one then gain one from full life: nothing changes with or without a ceiling
    assert not offered(["MyDownUp", "Alpha"], DOWN_UP)
    # gain one then lose one from full life: the ceiling eats the gain where it is the starting
    # life (a net loss); Pasta Logic's 6 (C15) and no ceiling (N2) give the life back
    assert offered(["MyUpDown", "Alpha"], UP_DOWN) == (CAP[variant] == LIFE[variant])
    # heal another player, everyone at full life
    assert offered(["MyCare", "Alpha"], OTHER_HEAL) == (CAP[variant] != LIFE[variant])
    # B5: a chosen step that could undo a step by itself (lose one, then heal a player) is
    # offered even if every way of running ends where it started
    gamble = card("MyGamble", '[{do = "damage_self", amount = 0}, {choose = "heal", '
                  'amount = 0}]', [1])
    state = start(variant, ["MyGamble", "Alpha"], [[0], [0]], gamble)
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    life, cap = LIFE[variant], CAP[variant]
    assert state.lives == [life - 1, life]
    assert state.legal() == (["player 0"] if cap == life else ["player 0", "player 1"])
    state.apply("player 0")
    assert state.lives == [life, life]
    # ... and with Blue hurt, only Blue can be chosen
    state = start(variant, ["MyHurt", "MyCare"], [[0, 1], []], HURT + OTHER_HEAL)
    state.apply("run")
    state.apply("player 1")
    assert state.cursor == 1 and state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.legal() == ["player 1"]
