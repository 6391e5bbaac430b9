"""The recipes of docs/architecture.md ("How to add a card, a primitive, an option, a game"),
each followed here step by step and nothing more: what they name is all a change needs.
(The primitive's recipe: tests/test_primitives.py, ``test_a_new_primitive_is_...``.)"""

from __future__ import annotations

import json

import pytest
from helpers import placements

from spaghetti import Game
from spaghetti.core import options as options_module
from spaghetti.core import variants
from spaghetti.core.cards import SPAGHETTI_CODE_CARDS, CardType, Choose, built_in
from spaghetti.core.options import Option
from spaghetti.core.variants import VARIANTS, Variant, options_markdown
from spaghetti.i18n import describe
from spaghetti.records import decode, record_of, replay


@pytest.fixture
def a_new_game(monkeypatch):
    """A game of the family made by the game's recipe: a Variant in the catalogue."""

    def add(variant: Variant) -> Variant:
        monkeypatch.setitem(VARIANTS, variant.name, variant)
        return variant

    return add


def test_the_card_recipe(a_new_game):
    # 1. One declaration, from the primitives, in the module of its game.
    grab = CardType("Grab", "奪取", "Move a flag not on this card to this card.",
                    "このカード以外のフラグを1つこのカードへ移す", level=1,
                    effect=(Choose("move_flag", other=True),))
    # 2. Into its game's deck (the deck is a tuple in that module), and built in.
    deck = (*SPAGHETTI_CODE_CARDS[:4], grab)
    built_in(__name__, (grab,))
    a_new_game(Variant("grab-code", "Grab Code", "奪取コード", cards=deck,
                       options=dict(VARIANTS["spaghetti-code"].options)))
    # Nothing else: it deals, plays, is described, and a record of it replays.
    state = Game(variant="grab-code").new_state(program=["Grab", "AddFlag", "Bug", "MoveFlag",
                                                         "RemoveFlag"])
    for option in placements(1, 2, [[0, 1, 2, 3], [1, 2, 3, 4]]):
        state.apply(option)
    assert state.kinds[state.cursor] is grab and "run" in state.legal()
    state.apply("run")
    assert any(o.startswith("flag ") for o in state.legal())
    option = next(o for o in state.legal() if o.startswith("flag "))
    assert describe(state, option)
    state.apply(option)
    again = replay(decode(json.dumps(record_of(state))))
    assert again.position_key() == state.position_key()


def test_the_option_recipe(a_new_game, monkeypatch):
    # 1. One declaration in core/options.py: values (the default first), names, meaning.
    fast = Option("fast_start", (False, True), "Fast start", "速攻",
                  "each player places one flag fewer", "各プレイヤーが置くフラグが1つ少ない",
                  players=(2, 3))
    monkeypatch.setitem(options_module.OPTIONS, fast.name, fast)
    # 2. Named in the options of the games that take it (variants.py).
    a_new_game(Variant("fast-code", "Fast Code", "速攻コード", cards=SPAGHETTI_CODE_CARDS,
                       options={**VARIANTS["spaghetti-code"].options, "fast_start": fast}))
    # 3. Read where the rule differs: game.option(name). The rest follows from the declaration.
    game = Game(variant="fast-code", options={"fast_start": "on"})
    assert game.option("fast_start") is True
    assert record_of(game.new_state(seed=3))["options"] == {"fast_start": True}
    with pytest.raises(Exception, match="fast_start is for 2 to 3 players"):
        Game(variant="fast-code", players=4, options={"fast_start": True})
    with pytest.raises(Exception, match="does not apply to Spaghetti Code"):
        Game(options={"fast_start": True})
    table = options_markdown("en")
    assert "| `fast_start` (2-3 players) | `false`, `true` | `fast-code` |" in table
    assert fast.describe()["label"] == {"en": "Fast start", "ja": "速攻"}
    assert variants.OPTIONS is options_module.OPTIONS  # one catalogue
