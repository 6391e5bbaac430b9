"""Custom cards (the Blank card, SPEC section 3): the TOML format and its errors, the new
primitives (heal, swap_card, damage_self, heal_self, `other` for players) with C2, C4, C5, C9 and
SPEC 7.1, built-in cards rewritten as TOML behaving exactly as the built-in ones, records that
carry the cards, the command line, and random games with the example cards."""

from __future__ import annotations

import json
import pathlib
import random
import re

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import spaghetti
from spaghetti import custom_cards as cc
from spaghetti import records
from spaghetti.cli.main import cli
from spaghetti.core.cards import SPAGHETTI_CODE_CARDS
from spaghetti.core.game import Game
from spaghetti.errors import CardFileError, RecordError, SetupError
from spaghetti.i18n import describe

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "custom-cards.toml"


def example_cards():
    return cc.loads(EXAMPLE.read_text(encoding="utf-8"), "custom-cards.toml")


def card(name, effect, params="[]", text=None, extra=""):
    """TOML text of one card."""
    if text is None:
        n = len(json.loads(params))
        text = "Card " + "".join("{%d}" % i for i in range(n)) + "."
    return (f'[[card]]\nname = "{name}"\ntext = "{text}"\nparams = {params}\n'
            f"effect = {effect}\n{extra}")


HEAL = card("Heal", '[{choose = "heal", amount = 0}]', "[1]")
SWAP = card("Swap", '[{choose = "swap_card"}]')
SWAP2 = card("Swap2", '[{choose = "swap_card", count = 0}]', "[2]")
TRADE_OFF = card("TradeOff", '[{do = "damage_self", amount = 0}, '
                 '{choose = "damage", amount = 1, other = true}]', "[1, 2]")


def setup(program, flags, cards_text, level=1, players=2, actions=()):
    """Seat s places on flags[s] (round robin), then ``actions`` are played."""
    state = spaghetti.new_game(level, players, program=program, cards=cards_text)
    todo = [list(f) for f in flags]
    for i in range(len(todo[0]) * players):
        state.apply(f"place {todo[i % players].pop(0)}")
    for option in actions:
        state.apply(option)
    return state


# ---------------------------------------------------------------------- the format


def test_example_file_loads_three_cards_in_both_languages():
    cards = example_cards()
    assert [c.name for c in cards] == ["Heal", "Swap", "Detour"]
    for c in cards:
        assert c.name_ja != c.name and c.text_ja != c.text
        assert c.text_for(lang="ja") and c.text_for()


def test_defaults_name_ja_and_text_ja_are_the_english_ones():
    (c,) = cc.loads(HEAL)
    assert c.name_ja == "Heal" and c.text_ja == c.text and c.params == (1,)


def test_every_built_in_card_but_memory_round_trips_through_toml():
    built_in = [c for c in SPAGHETTI_CODE_CARDS]
    text = cc.dumps(built_in)
    renamed = re.sub(r'^name = "(\w+)"', r'name = "My\1"', text, flags=re.M)
    for mine, theirs in zip(cc.loads(renamed), built_in):
        assert mine.name == "My" + theirs.name
        assert (mine.text, mine.text_ja, mine.params, mine.effect) == \
            (theirs.text, theirs.text_ja, theirs.params, theirs.effect)
    assert cc.dumps(cc.loads(renamed)) == renamed


def errors_of(text):
    with pytest.raises(CardFileError) as info:
        cc.loads(text, "my.toml")
    message = str(info.value)
    assert "\n" not in message and message.startswith("my.toml: ")
    return message


@pytest.mark.parametrize("text, expected", [
    # unknown primitive
    (card("X", '[{choose = "teleport"}]'),
     "card 1 'X': effect[0]: choose: unknown primitive 'teleport'; choose primitives: add_flag"),
    (card("X", '[{do = "explode"}]'), "card 1 'X': effect[0]: do: unknown primitive 'explode'"),
    (card("X", '[{do = "recall"}]'), "unknown primitive 'recall' (Memory's own"),
    # bad parameter index
    (card("X", '[{choose = "move_flag", count = 1}]', "[1]"),
     "card 1 'X': effect[0]: count: 1 is not a parameter index (0 to 0)"),
    (card("X", '[{choose = "damage", amount = 0}]'),
     "effect[0]: amount: 0 is not a parameter index (none: the card has no params)"),
    (card("X", '[{choose = "damage", amount = "0"}]', "[1]"),
     "effect[0]: amount: '0' is not a parameter index"),
    # negative or non-integer parameter
    (card("X", '[{choose = "damage", amount = 0}]', "[-1]"),
     "card 1 'X': params[0]: must be a whole number from 0 to 99, not -1"),
    (card("X", '[{choose = "damage", amount = 0}]', "[1.5]"),
     "params[0]: must be a whole number from 0 to 99, not 1.5"),
    (card("X", '[{choose = "damage", amount = 0}]', "[true]", text="Card {0}."),
     "params[0]: must be a whole number from 0 to 99, not True"),
    (card("X", '[{choose = "damage", amount = 0}]', '"1"', text="Card."),
     "params: must be a list of whole numbers"),
    # missing name, bad name
    ('[[card]]\ntext = "t"\neffect = [{do = "reverse"}]\n', "my.toml: card 1: missing name"),
    (card("Two Words", '[{do = "reverse"}]'), "card 1: name: 'Two Words' is not a card name"),
    # duplicate name (a built-in card's name is allowed: P29)
    (card("Spin", '[{do = "reverse"}]') + card("spin", '[{do = "reverse"}]'),
     "card 2 'spin': name: another card of the file has this name"),
    # empty or missing effect
    (card("X", "[]"), "card 1 'X': effect: must be a non-empty list of steps"),
    ('[[card]]\nname = "X"\ntext = "t"\n', "card 1 'X': missing effect"),
    ('[[card]]\nname = "X"\neffect = [{do = "reverse"}]\n', "card 1 'X': missing text"),
    # unknown keys
    (card("X", '[{do = "reverse"}]', extra='colour = "red"\n'),
     "card 1 'X': unknown key 'colour' (keys: name, name_ja, text, text_ja, params, effect)"),
    (card("X", '[{do = "reverse", times = 2}]'), "effect[0]: unknown key 'times'"),
    ('title = "mine"\n' + card("X", '[{do = "reverse"}]'), "unknown key 'title' at the top level"),
    ("", "no card: write each card as a [[card]] table"),
    # bad TOML, with its line
    ('[[card]]\nname = "X"\ntext = "t"\neffect = [{do = "reverse"}\n',
     "bad TOML: Unclosed array \\(at the end, line 4\\)"),
    ('[[card]]\nname = "X"\ntext = t\n', r"bad TOML: Invalid value \(at line 3, column 8\)"),
    # steps and texts that do not fit their primitive
    (card("X", '[{choose = "damage"}]'), "effect[0]: damage needs an amount"),
    (card("X", '[{choose = "add_flag", amount = 0}]', "[1]"),
     "effect[0]: add_flag takes no amount"),
    (card("X", '[{choose = "call", count = 0, amount = 0}]', "[1]"),
     "effect[0]: call takes no count"),
    (card("X", '[{choose = "swap_card", other = true}]'), "effect[0]: swap_card takes no 'other'"),
    (card("X", '[{do = "reverse", count = 0}]', "[1]"), "effect[0]: a do step takes no count"),
    (card("X", '[{do = "heal_self"}]'), "effect[0]: heal_self needs an amount"),
    (card("X", '[{choose = "heal", amount = 0}]', "[1]", text="Heal {1}."),
     "card 1 'X': text: {1} is not a parameter"),
    (card("X", '[{choose = "heal", amount = 0}]', "[1]", text="Heal."),
     "text: parameter {0} is not in the text"),
    (card("X", '[{do = "reverse"}, {choose = "heal"}]'), "effect[1]: heal needs an amount"),
    (card("X", '[{choose = "damage", amount = 0}, "reverse"]', "[1]"),
     "effect[1]: a step must be a table"),
    (card("X", '[{choose = "damage", do = "reverse", amount = 0}]', "[1]"),
     "effect[0]: a step has either 'choose' or 'do'"),
    (card("X", '[{choose = "move_flag", other = 1}]'), "effect[0]: other: must be true or false"),
])
def test_validation_errors_name_the_card_and_the_field(text, expected):
    assert re.search(expected if "bad TOML" in expected else re.escape(expected),
                     errors_of(text))


def test_not_utf8_is_a_card_file_error():
    with pytest.raises(CardFileError, match="not UTF-8"):
        cc.loads(b"\xff\xfe", "x.toml")


def test_card_file_error_is_a_setup_error_and_exported():
    assert issubclass(CardFileError, SetupError) and spaghetti.CardFileError is CardFileError


# ---------------------------------------------------------------------- games with custom cards


def test_custom_cards_join_the_deck_at_any_level_and_game_card_finds_them():
    cards = example_cards()
    game = Game(level=1, custom_cards=cards)
    assert game.deck[-3:] == cards and len(game.deck) == 8
    assert game.card("heal") is cards[0] and game.card(" DETOUR ") is cards[2]
    assert set(game.shuffled_program(5)) >= {"Heal", "Swap", "Detour"}
    with pytest.raises(SetupError, match="unknown card 'Blank'.*Heal, Swap, Detour"):
        game.card("Blank")
    assert Game(level=1).deck == Game(level=1, custom_cards=()).deck


def test_p29_a_custom_card_named_as_a_built_in_card_takes_its_place_in_that_game():
    # A file written before a built-in card took its name plays as it did: in that game the
    # player's card is the one of that name, in the deck, the program, records and the key.
    mine = cc.loads(card("bug", '[{do = "reverse"}]'), "my.toml")[0]
    game = Game(level=1, custom_cards=(mine,))
    assert [c.name for c in game.deck].count("Bug") == 0 and game.deck[-1] is mine
    assert game.card("Bug") is mine and len(game.deck) == len(Game(level=1).deck)
    state = game.new_state(program=["bug", "AddFlag", "MoveFlag", "RemoveFlag", "ForkBomb"])
    assert state.kinds[0] is mine
    again = records.loads(records.dumps(state))
    assert again.kinds[0].effect == mine.effect and again.kinds[0].name == "bug"
    # With its option on, an extra card gives way to a player's card of its name too.
    memory = cc.loads(card("Memory", '[{do = "reverse"}]'), "my.toml")[0]
    deck = Game(level=1, options={"memory": True}, custom_cards=(memory,)).deck
    assert [c for c in deck if c.name.lower() == "memory"] == [memory]
    assert Game(level=1).card("Bug") is not mine  # other games keep the built-in card


def test_game_refuses_two_cards_of_one_name():
    cards = example_cards()
    with pytest.raises(SetupError, match="already a card named 'Heal'"):
        Game(custom_cards=cards + cards[:1])
    with pytest.raises(SetupError, match="custom_cards must be a sequence"):
        Game(custom_cards="Heal")


def test_new_game_takes_toml_text_or_cards():
    a = spaghetti.new_game(1, 2, seed=3, cards=EXAMPLE.read_text(encoding="utf-8"))
    b = spaghetti.new_game(1, 2, seed=3, cards=example_cards())
    assert a.program == b.program and "Heal" in a.program


def test_heal_raises_a_life_never_above_five_and_full_players_are_no_target():
    # Heal {2} at card 1. Red bugs Blue (5 -> 4); Blue passes; on Heal Red may heal only Blue.
    heal2 = HEAL.replace("params = [1]", "params = [2]")
    state = setup(["Bug", "Heal", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]], heal2,
                  actions=["run", "player 1", "pass"])
    assert state.lives == [5, 4]
    assert state.legal() == ["pass", "run"]
    state.apply("run")
    assert state.deciding == "player" and state.legal() == ["player 1"]  # Red is at 5
    state.apply("player 1")
    assert state.lives == [5, 5]  # 4 + 2, never above 5
    assert state.legal() == ["pass"]  # C4: nobody can gain life, so Blue's flag may only pass


def test_heal_up_to_n_distinct_players_one_at_a_time():
    heal_all = card("Mend", '[{choose = "heal", count = 0, amount = 1}]', "[3, 1]")
    state = setup(["Bug", "Mend", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]],
                  heal_all, players=2, actions=["run", "player 1", "run", "player 0", "run"])
    assert state.legal() == ["player 0", "player 1"]
    state.apply("player 1")
    assert state.lives == [4, 5]
    assert state.legal() == ["player 0", "done"]  # C5: distinct; done after the first
    state.apply("player 0")
    assert state.lives == [5, 5] and state.deciding == "turn"


def test_swap_card_swaps_with_queues_and_the_cursor_stays_on_its_card_c2():
    state = setup(["Swap", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [3, 2, 1, 0]], SWAP)
    assert state.cursor == 0 and state.to_move == 0
    state.apply("run")
    assert state.legal() == ["card 1", "card 2", "card 3"]  # any card other than this one
    queues = [state.owners(i) for i in range(4)]
    state.apply("card 3")
    assert [k.name for k in state.kinds] == ["RemoveFlag", "Bug", "AddFlag", "Swap"]
    assert [state.owners(i) for i in range(4)] == [queues[3], queues[1], queues[2], queues[0]]
    # C2: the cursor went with its card; Blue's flag on Swap still has its turn in this visit
    assert state.cursor == 3 and state.to_move == 1 and state.deciding == "turn"
    state.apply("pass")
    assert state.cursor == 0 and state.kinds[0].name == "RemoveFlag"  # the advance wraps


def test_swap_card_up_to_n_distinct_cards():
    state = setup(["Swap2", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [3, 2, 1, 0]], SWAP2,
                  actions=["run", "card 1"])
    assert [k.name for k in state.kinds] == ["Bug", "Swap2", "AddFlag", "RemoveFlag"]
    assert state.legal() == ["card 2", "card 3", "done"]  # Bug was chosen already
    state.apply("card 3")
    assert [k.name for k in state.kinds] == ["Bug", "RemoveFlag", "AddFlag", "Swap2"]
    assert state.deciding == "turn" and state.cursor == 3


def test_damage_self_at_run_then_another_player_and_eliminations_after_the_command():
    state = setup(["TradeOff", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [3, 2, 1, 0]],
                  TRADE_OFF)
    state.apply("run")
    assert state.lives == [4, 5]  # damage_self resolves at once (SPEC 7.1)
    assert state.legal() == ["player 1"]  # other = true: not the actor
    state.apply("player 1")
    assert state.lives == [4, 3]


def test_trade_off_eliminations_wait_for_the_whole_command_c6():
    # Red at 1 life runs TradeOff {1}{2} against Blue at 2: Red reaches 0 at "run" but is not out
    # until the command has resolved; then both are out at once and the actor wins (C8).
    state = setup(["TradeOff", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]],
                  TRADE_OFF)
    state.lives[:] = [1, 2]  # a position reached after some Bugs, set directly
    state.apply("run")
    assert state.lives == [0, 2] and not state.is_over and state.alive == [True, True]
    state.apply("player 1")
    assert state.is_over and state.winner == 0 and state.lives == [0, 0]


def test_c4_do_steps_offer_run_only_when_they_change_the_game():
    twice = card("Dizzy", '[{do = "reverse"}, {do = "reverse"}]')
    net_zero = card("Breathe", '[{do = "damage_self", amount = 0}, {do = "heal_self", '
                    'amount = 1}]', "[1, 1]")
    top_up = card("TopUp", '[{do = "heal_self", amount = 0}]', "[1]")
    zero = card("Nop", '[{do = "damage_self", amount = 0}]', "[0]")
    text = twice + net_zero + top_up + zero
    state = setup(["Dizzy", "Breathe", "TopUp", "Nop"], [[0, 1, 2, 3], [0, 1, 2, 3]], text)
    for _ in range(8):  # every card, both flags: nothing would change, so only pass
        assert state.legal() == ["pass"], state.kinds[state.cursor].name
        state.apply("pass")
    assert state.is_over and state.reason == "stalemate"
    cards = cc.loads(text)
    assert cards[1].self_life((1, 1), 5, 5) == 5 and cards[1].self_life((1, 1), 3, 5) == 3
    assert cards[1].self_life((2, 1), 5, 5) == 4 and cards[2].self_life((1,), 4, 5) == 5


def test_c4_other_needs_a_target_other_than_this_card():
    only = card("Shove", '[{choose = "move_flag", other = true}]')
    state = setup(["Shove", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]], only)
    state.apply("run")
    assert all(not option.startswith("flag 0.") for option in state.legal())
    # The same card with every other flag gone: nothing to move, so no run.
    state = setup(["Shove", "RemoveFlag", "AddFlag", "Bug"], [[0, 1, 2, 3], [0, 1, 2, 3]], only)
    state.queues[1:] = [(), (), ()]
    assert not state._can_run()


C4_CARDS = TRADE_OFF + HEAL + SWAP2 + """
[[card]]
name = "Medic"
text = "Gain {0}, then up to {1} others gain {0}."
params = [1, 1]
effect = [{do = "heal_self", amount = 0}, {choose = "heal", count = 1, amount = 0, other = true}]
[[card]]
name = "Shove"
text = "Remove {0} flag(s) not here, then add a flag."
params = [1]
effect = [{choose = "remove_flag", count = 0, other = true}, {choose = "add_flag"}]
[[card]]
name = "Dizzy"
text = "Reverse twice, then reverse priorities."
effect = [{do = "reverse"}, {do = "reverse"}, {do = "reverse_queues"}]
[[card]]
name = "Breathe"
text = "Lose {0} life, then gain {1}."
params = [1, 1]
effect = [{do = "damage_self", amount = 0}, {do = "heal_self", amount = 1}]
[[card]]
name = "Pal"
text = "Another player gains {0}; then swap."
params = [1]
effect = [{choose = "heal", amount = 0, other = true}, {choose = "swap_card"}]
"""


def board(state):
    """What a command can change (flags by owner only; the turn hand-over left out)."""
    return ([k.name for k in state.kinds], state.mods, [state.owners(i) for i in
            range(len(state.kinds))], state.lives, state.supply, state.removed, state.direction,
            state.chips)


def command_ends(state):
    """The boards at the end of the running command, for every way of choosing its targets."""
    if state.cmd is None or state.is_over:
        yield board(state)
        return
    for option in state.legal():
        if option != "declare":
            after = state.copy()
            after.apply(option)
            yield from command_ends(after)


def test_c4_run_is_offered_exactly_when_some_way_of_running_changes_the_game():
    """At every turn on a custom card of random games: `run` is legal iff running it (forced,
    when it is not legal) can end the command in a different board, over all target choices."""
    cards = cc.loads(C4_CARDS)
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = spaghetti.new_game(rng.randint(1, 3), rng.randint(2, 3), seed=seed, cards=cards,
                                   options={"stalemate": "manual"})
        for _ in range(300):
            if state.is_over:
                break
            if state.deciding == "turn" and state.kinds[state.cursor] in cards:
                forced = state.copy()
                forced._start_command()  # run, whether or not it is legal
                before = board(state)
                changes = any(end != before for end in command_ends(forced))
                assert ("run" in state.legal()) == changes, state.kinds[state.cursor].name
                checked += 1
            legal = state.legal()
            state.apply(legal[rng.randrange(len(legal))])
    assert checked > 300


def test_c9_a_damage_then_heal_loop_is_a_stalemate():
    # With a heal in the game lives go both ways: a damage no longer forgets earlier positions,
    # and lives are part of the key. Red bugs Blue, Blue heals back: the round repeats.
    state = setup(["Bug", "Heal", "Heal", "Heal"], [[0, 1, 2, 3], [0, 1, 2, 3]], HEAL)
    assert state.game.heals
    for _ in range(2):  # first round, then the same round again
        if state.is_over:
            break
        state.apply("run")
        state.apply("player 1")  # Blue 5 -> 4
        state.apply("pass")  # Blue on Bug
        state.apply("pass")  # Red on Heal
        state.apply("run")
        state.apply("player 1")  # Blue 4 -> 5
        for _ in range(4):
            state.apply("pass")  # nobody can heal: pass only
    assert state.is_over and state.reason == "stalemate"
    assert state.history.count(spaghetti.core.notation.parse("run")) == 2  # one round played


def test_c9_lives_are_in_the_key_only_when_the_game_heals():
    plain = setup(["Bug", "AddFlag", "MoveFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]], SWAP)
    assert not plain.game.heals and plain.position_key()[3].parts[3] is False
    healing = setup(["Bug", "Heal", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [0, 1, 2, 3]], HEAL)
    assert healing.position_key()[3].parts[3] == (5, 5)


def test_moves_of_the_new_primitives_in_words():
    state = setup(["TradeOff", "Heal", "Swap", "Bug"], [[0, 1, 2, 3], [0, 1, 2, 3]],
                  TRADE_OFF + HEAL + SWAP)
    assert describe(state, "run") == "Red ran TradeOff: Red (themself) lost 1 life."
    state.apply("run")
    assert describe(state, "player 1", "ja") == "赤が「TradeOff」を実行: 青のライフが2減った。"
    state.apply("player 1")
    state.apply("pass")
    state.apply("run")
    assert describe(state, "player 0") == "Red ran Heal: Red (themself) gained 1 life."
    state.apply("player 0")
    state.apply("run")
    assert describe(state, "player 1") == "Blue ran Heal: Blue (themself) gained 1 life."
    state.apply("player 1")
    state.apply("run")
    assert describe(state, "card 3") == "Red ran Swap: swapped Swap and Bug."


# ---------------------------------------------------------------------- built-in cards as TOML


def twin(card_type):
    """A custom card declared exactly as a built-in one, under another name."""
    text = cc.dumps([card_type]).replace(f'name = "{card_type.name}"',
                                         f'name = "Twin{card_type.name}"', 1)
    return cc.loads(text)


@pytest.mark.parametrize("built_in", SPAGHETTI_CODE_CARDS, ids=lambda c: c.name)
def test_built_in_card_and_its_toml_twin_play_identically(built_in):
    """Over random games (level 3, 2-4 players, random expansions), replacing a built-in card by
    its TOML twin changes nothing: the same legal options at every step and the same end."""
    cards = twin(built_in)
    for seed in range(20):
        rng = random.Random(seed)
        options = {name: rng.random() < 0.3
                   for name in ("memory", "reverse_priority", "reverse_flips_priority")}
        players = 2 + seed % 3
        program = Game(level=3, players=players, options=options).shuffled_program(seed)
        mine = [f"Twin{n}" if n == built_in.name else n for n in program]
        a = spaghetti.new_game(3, players, program=program, options=options)
        b = spaghetti.new_game(3, players, program=mine, options=options, cards=cards)
        for _ in range(3000):
            assert a.legal() == b.legal()
            if a.is_over:
                break
            legal = a.legal()
            option = legal[rng.randrange(len(legal))]
            a.apply(option)
            b.apply(option)
            assert (a.lives, a.supply, a.removed, a.cursor, a.direction, a.vals, a.chips) == \
                (b.lives, b.supply, b.removed, b.cursor, b.direction, b.vals, b.chips)
            assert [a.owners(i) for i in range(len(a.kinds))] == \
                [b.owners(i) for i in range(len(b.kinds))]
        assert a.is_over and b.is_over
        assert (a.winner, a.reason) == (b.winner, b.reason)


# ---------------------------------------------------------------------- records


def finished(seed, level=2, players=2, cards=None):
    state = spaghetti.new_game(level, players, seed=seed, cards=cards or example_cards())
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


def test_a_record_carries_the_cards_and_round_trips():
    state = finished(11)
    text = records.dumps(state)
    data = json.loads(text)
    assert list(data)[:6] == ["format", "variant", "level", "players", "options", "cards"]
    assert data["cards"] == [cc.to_data(c) for c in example_cards()]
    assert cc.from_data(data["cards"])[0].effect == example_cards()[0].effect
    again = records.loads(text)  # without the TOML file: the record is enough
    assert again.position_key() == state.position_key()
    assert (again.winner, again.reason, again.history) == (state.winner, state.reason,
                                                           state.history)
    assert records.dumps(again) == text


def test_a_record_without_custom_cards_has_no_cards_field():
    state = spaghetti.new_game(1, 2, seed=1)
    assert "cards" not in json.loads(records.dumps(state))


def test_a_record_with_bad_cards_is_refused_with_the_field():
    data = json.loads(records.dumps(spaghetti.new_game(1, 2, seed=1, cards=example_cards())))
    data["cards"][1]["effect"] = [{"choose": "swap_card", "count": 4}]
    with pytest.raises(RecordError, match=r"^cards: card 2 'Swap': effect\[0\]: count: 4 is not a"):
        records.replay(data)
    data["cards"] = {"name": "X"}
    with pytest.raises(RecordError, match="cards: expected a non-empty list of cards"):
        records.replay(data)


def test_a_record_naming_a_custom_card_needs_its_definition():
    data = json.loads(records.dumps(spaghetti.new_game(1, 2, seed=1, cards=example_cards())))
    del data["cards"]
    with pytest.raises(RecordError, match=r"program\[\d+\]: unknown card '(Heal|Swap|Detour)'"):
        records.replay(data)


# ---------------------------------------------------------------------- command line


def test_cli_new_and_play_with_cards(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["new", "--cards", str(EXAMPLE), "--seed", "7"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert [c["name"] for c in record["cards"]] == ["Heal", "Swap", "Detour"]
    result = runner.invoke(cli, ["play", "--cards", str(EXAMPLE), "--vs", "random", "--seed", "3",
                                 "--level", "2"], input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Detour: Move {1} flag(s) not on this card" in result.output  # the card's text
    result = runner.invoke(cli, ["play", "--cards", str(EXAMPLE), "--lang", "ja", "--seed", "3"],
                           input="")
    assert "迂回" in result.output


@pytest.mark.parametrize("content, message", [
    ('[[card]]\nname = "X"\ntext = "t"\neffect = [{do = "jump"}]\n',
     r"bad\.toml: card 1 'X': effect\[0\]: do: unknown primitive 'jump'"),
    ("[[card]\n", r"bad\.toml: bad TOML: .*line 1"),
    (None, r"missing\.toml: No such file or directory"),
])
@pytest.mark.parametrize("command", ["play", "new", "arena --players random,random --games 1"])
def test_cli_bad_card_file_is_one_line_and_status_2(tmp_path, content, message, command):
    path = tmp_path / ("bad.toml" if content is not None else "missing.toml")
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(cli, [*command.split(), "--cards", str(path)], input="")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spaghetti: error: ")
    assert re.search(message, lines[0])


def test_cli_replay_and_arena_with_custom_cards(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(records.dumps(finished(11)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0 and "Heal" in result.output
    result = CliRunner().invoke(cli, ["arena", "--players", "random,random", "--games", "2",
                                      "--cards", str(EXAMPLE)])
    assert result.exit_code == 0, result.output


def test_cli_load_and_cards_together_is_refused(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(records.dumps(spaghetti.new_game(1, 2, seed=1)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["play", "--load", str(path), "--cards", str(EXAMPLE)])
    assert result.exit_code == 2 and "carries its own cards" in result.stderr


# ---------------------------------------------------------------------- documentation


def test_docs_examples_load_and_the_example_file_is_in_the_docs():
    doc = (ROOT / "docs" / "custom-cards.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", doc, re.S)
    assert blocks
    for block in blocks:
        assert cc.loads(block)
    shown = [c for block in blocks for c in cc.loads(block)]
    for c in example_cards():
        assert any(cc.to_data(s) == cc.to_data(c) for s in shown), c.name
    for primitive in cc.CHOOSE_PRIMITIVES + cc.DO_PRIMITIVES:
        assert f"`{primitive}`" in doc


# ---------------------------------------------------------------------- random games


games = st.fixed_dictionaries({
    "level": st.integers(1, 3),
    "players": st.integers(2, 5),
    "seed": st.integers(0, 2**32 - 1),
    "stalemate": st.sampled_from(["auto", "manual"]),
    "memory": st.booleans(),
    "reverse_priority": st.booleans(),
    "reverse_flips_priority": st.booleans(),
    "trade_off": st.booleans(),
})


@settings(max_examples=200, deadline=None)
@given(g=games)
def test_random_games_with_the_example_cards_keep_the_invariants_and_end(g):
    cards = example_cards() + (cc.loads(TRADE_OFF) if g["trade_off"] else ())
    options = {k: g[k] for k in ("stalemate", "memory", "reverse_priority",
                                 "reverse_flips_priority")}
    state = spaghetti.new_game(g["level"], g["players"], seed=g["seed"], options=options,
                               cards=cards)
    rng = random.Random(g["seed"])
    chips = 5 if g["level"] == 3 else 0
    for _ in range(20000):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert legal and state.alive[state.to_move]
        state.apply_action(legal[rng.randrange(len(legal))])
        for p in range(g["players"]):
            on_cards = sum(state.owners(i).count(p) for i in range(len(state.kinds)))
            assert on_cards == state.on_board[p]
            assert on_cards + state.supply[p] + state.hand[p] + state.removed[p] == 10
        assert all(life <= 5 for life in state.lives)
        inc = sum(m for ms in state.mods for m in ms if m > 0)
        dec = -sum(m for ms in state.mods for m in ms if m < 0)
        assert (state.chips[0] + inc, state.chips[1] + dec) == (chips, chips)
        assert all(v >= 0 for vs in state.vals for v in vs)
    assert state.is_over, "the game did not end"
    assert state.reason in ("elimination", "stalemate")
    again = records.loads(records.dumps(state))
    assert again.position_key() == state.position_key() and again.winner == state.winner


AHEAD = card("Ahead", '[{do = "copy_ahead", amount = 0}]', "[1]")
LATER = card("Later", '[{choose = "add_flag", later = true}]')


def test_spec6_a_custom_copy_looks_ahead_in_the_direction_at_the_start_of_its_run():
    # Red reverses the cursor; on the way back, the Ahead card copies the card before it (Bug),
    # not the one after it (Reverse).
    program = ["Bug", "Ahead", "Reverse", "AddFlag", "MoveFlag"]
    every = [0, 1, 2, 3, 4]
    state = setup(program, [every, every], AHEAD, level=2,
                  actions=["pass", "pass", "pass", "pass", "run", "pass"])
    assert state.direction == -1 and state.kinds[state.cursor].name == "Ahead"
    assert "run" in state.legal()
    state.apply("run")
    assert state.choosing == "damage"


def test_c9_flags_on_their_way_are_in_the_view_and_the_position():
    from spaghetti.core.view import view
    program = ["Later", "Bug", "AddFlag", "MoveFlag"]
    state = setup(program, [[0, 1, 2, 3], [0, 1, 2, 3]], LATER, actions=["run", "card 2"])
    assert state.cursor == 0 and state.to_move == 1  # Blue's turn: Red's flag is on its way
    assert view(state)["arriving"] == [[0, 2]]
    landed = state.copy()
    landed.arrivals = ()
    assert landed.position_key() != state.position_key()
    assert landed._key(None) != state._key(None)  # and so is what seen holds
    state.apply("pass")
    assert state.owners(2) == [0, 1, 0] and view(state)["arriving"] == []


def test_a_chosen_damage_in_words_counts_that_step_alone():
    # The chosen player loses 1, then the card's next step hurts every other player by itself:
    # the words tell the chosen step's own loss, then the next step's, not their sum.
    twice = card("Twice", '[{choose = "damage", amount = 0, other = true}, '
                 '{do = "damage_others", amount = 1}]', "[1, 2]")
    state = setup(["Twice", "Bug", "AddFlag", "RemoveFlag"], [[0, 1, 2, 3], [1, 2, 3, 0]], twice)
    state.apply("run")
    assert state.lives[1] == 5
    assert describe(state, "player 1") == "Red ran Twice: Blue lost 1 life; Blue lost 2 life."
    assert describe(state, "player 1", "ja").startswith("赤が「Twice」を実行: 青のライフが1減った")
    state.apply("player 1")
    assert state.lives[1] == 2  # (the premise: the next step hurt Blue as well)
