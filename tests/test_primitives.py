"""The shape of the rules core: one object per primitive, each game's own options, switches named
for their rules, and the path docs/architecture.md gives for adding a primitive, followed once."""

from __future__ import annotations

import pathlib
import re

import pytest

from spaghetti import custom_cards as cc
from spaghetti.core.cards import SPAGHETTI_CODE_CARDS, CardType, Choose, Do
from spaghetti.core.game import Game
from spaghetti.core.primitives import PRIMITIVES, Primitive, words_for
from spaghetti.core.variants import NIGHTMARE_OPTIONS, OPTIONS, PASTA_OPTIONS, VARIANTS
from spaghetti.errors import SetupError
from spaghetti.i18n import describe

from helpers import placements

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


def test_every_primitive_of_the_custom_card_docs_is_one_object_and_the_reverse():
    text = (DOCS / "custom-cards.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", text, re.M))
    open_ = {name for name, p in PRIMITIVES.items() if p.custom}
    assert documented >= open_  # (the step keys' table names keys, not primitives)
    assert open_ == set(cc.CHOOSE_PRIMITIVES) | set(cc.DO_PRIMITIVES)
    assert not PRIMITIVES["recall"].custom and "recall" not in cc.DO_PRIMITIVES


@pytest.mark.parametrize("name", sorted(PRIMITIVES))
def test_each_primitive_speaks_both_languages_in_every_vocabulary(name):
    words = PRIMITIVES[name].words
    assert set(words.get("en", {})) == set(words.get("ja", {}))
    for key, table in words.items():
        if "/" in key:  # a game's own words replace words the primitive has in every game
            assert set(table) <= set(words["en"]), key
            assert set(words[key.replace("/en", "/ja")]) == set(words[key.replace("/ja", "/en")])


def test_every_choose_primitive_tells_its_choices_and_every_step_key_has_an_owner():
    for p in PRIMITIVES.values():
        if p.chooses:
            assert type(p).tell is not Primitive.tell, p.name
            assert type(p).targets is not Primitive.targets, p.name
            assert type(p).choose is not Primitive.choose, p.name
        else:
            assert type(p).do is not Primitive.do, p.name
    assert set(cc.FLAGS_OF) == {"head", "same_card", "adjacent", "later"}
    assert words_for("ja", "nightmare")["add_flag"] != words_for("ja")["add_flag"]


def test_a_step_key_another_primitive_owns_is_refused_naming_its_owner():
    with pytest.raises(ValueError, match="only add_flag take 'head'"):
        Choose("remove_flag", head=True)
    with pytest.raises(ValueError, match="jump takes no count"):
        Choose("jump", count=0, amount=0)
    with pytest.raises(ValueError, match="needs amount"):
        Do("damage_self")


def test_each_game_owns_its_options_and_reads_none_for_a_rule_it_has_not():
    nightmare = Game(variant="nightmare")
    assert set(nightmare.options) == set(NIGHTMARE_OPTIONS)
    assert nightmare.option("memory") is None and nightmare.option("coin_flip") is False
    assert set(Game(variant="pasta-logic").options) == set(PASTA_OPTIONS)
    assert set(OPTIONS) == {name for v in VARIANTS.values() for name in v.options}
    with pytest.raises(SetupError, match="does not apply to Nightmare"):
        Game(variant="nightmare", options={"memory": True})
    # An option of another game at its default is accepted and not kept.
    assert "memory" not in Game(variant="nightmare", options={"memory": False}).options


def test_switches_are_named_for_their_rules_not_for_a_game():
    nightmare, code = VARIANTS["nightmare"], VARIANTS["spaghetti-code"]
    assert nightmare.free_numbers and not nightmare.heal_capped
    assert not code.free_numbers and code.heal_capped
    assert Game(variant="nightmare").life_cap is None and Game().life_cap == 5


# ---------------------------------------------------------------- a new primitive, end to end


@pytest.fixture
def quake():
    """A new primitive, registered for this test only by its class statement."""

    class Quake(Primitive):
        """Every player still in loses ``amount`` life: the example of docs/architecture.md."""

        name = "test_quake"
        needs_amount = True
        words = {"en": {"quake": "the ground shook"}, "ja": {"quake": "地面が揺れた"}}
        run_word = "quake"

        def changes(self, board, card, step, vals):
            return vals[step.amount] > 0

        def do(self, board, step, vals):
            for p, alive in enumerate(board.alive):
                if alive:
                    board.damage(p, vals[step.amount])

    yield PRIMITIVES["test_quake"]
    del PRIMITIVES["test_quake"]


def test_a_new_primitive_is_one_class_and_a_new_card_one_declaration(quake):
    card = CardType("Quake", "地震", "Everyone loses {0} life.", "全員のライフを{0}減らす",
                    level=1, params=(1,), effect=(Do("test_quake", amount=0),))
    assert Do("test_quake", amount=0).prim is quake
    program = ["Quake"] + [c.name for c in SPAGHETTI_CODE_CARDS[:4]]
    state = Game(custom_cards=(card,)).new_state(program=program)
    for option in placements(1, 2, [[0, 1, 2, 3], [0, 1, 2, 4]]):
        state.apply(option)
    assert state.cursor == 0 and "run" in state.legal()
    said = describe(state, "run")
    assert "the ground shook" in said and "lost 1 life" in said
    state.apply("run")
    assert state.lives == [4, 4]
    assert words_for("ja")["quake"] == "地面が揺れた"
    # C4 asks the primitive: with 0 life to lose, running changes nothing, so it is not offered.
    calm = CardType("Calm", "静穏", "Everyone loses {0} life.", "全員のライフを{0}減らす",
                    level=1, params=(0,), effect=(Do("test_quake", amount=0),))
    state = Game(custom_cards=(calm,)).new_state(program=["Calm"] + program[1:])
    for option in placements(1, 2, [[0, 1, 2, 3], [0, 1, 2, 4]]):
        state.apply(option)
    assert state.cursor == 0 and state.legal() == ["pass"]


def test_the_actors_own_life_is_a_fact_of_the_primitive_not_of_its_name():
    # C4 reads the net effect of a card's self steps from each primitive's own_life, so a new
    # primitive that hurts its actor is counted without naming it anywhere.
    class Drain(Primitive):
        name = "test_drain"
        needs_amount = True
        own_life = -1

        def do(self, board, step, vals):
            board.damage(board.actor, step.amount_of(vals))

    try:
        card = CardType("Drain", "吸収", "You lose {0} and gain {1}.", "{0}失い{1}得る", level=1,
                        params=(2, 2), effect=(Do("test_drain", amount=0),
                                               Do("heal_self", amount=1)))
        assert card.self_life((2, 2), 3, 5) == 3  # the two cancel out: no change (C4)
        assert card.self_life((2, 1), 3, 5) == 2
        assert PRIMITIVES["damage"].hurts_chosen and not PRIMITIVES["heal"].hurts_chosen
    finally:
        del PRIMITIVES["test_drain"]
