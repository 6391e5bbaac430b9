"""Battle of the Spaghetti Monsters (スパゲッティモンスターの戦い, source 003, SPEC section 5):
the same engine with its own islands, two rules that differ, and its own words."""

import pytest

import spaghetti
from spaghetti import Game, SetupError, records

from helpers import placed
from spaghetti.render import render
from spaghetti.i18n import describe
from rich.console import Console

MONSTERS = "spaghetti-monsters"
LEVEL1 = ["Birth", "Drifting", "Death", "Prayer", "Sacrifice"]


def game(program=LEVEL1, level=1, players=2, options=None):
    return spaghetti.new_game(level, players, program=program, options=options or {},
                              variant=MONSTERS)


def test_monsters_islands_by_level_with_japanese_names():
    names = {1: ["Birth", "Drifting", "Death", "Prayer", "Sacrifice"],
             2: ["Move Island", "Sink", "Reverse Current"], 3: ["Bless", "Curse"]}
    deck = Game(3, 2, variant=MONSTERS).deck
    assert [c.name for c in deck] == names[1] + names[2] + names[3]
    assert [c.name_ja for c in deck] == ["生", "漂流", "死", "祈り", "いけにえ", "島の移動", "沈没",
                                         "海流の反転", "祝福", "呪い"]
    assert [c.name for c in Game(1, 2, variant=MONSTERS).deck] == names[1]


def test_monsters_extra_cards_and_hidden_magic():
    game_ = Game(2, 2, variant=MONSTERS, options={"reverse_priority": True, "memory": True})
    assert [c.name_ja for c in game_.deck[-2:]] == ["革命", "記憶"]
    assert [c.name for c in game_.rules.instant] == ["Move Island", "Drifting", "Prayer"]


def test_monsters_prayer_hits_an_enemy_only():
    state = placed(game(["Prayer", "Birth", "Drifting", "Death", "Sacrifice"]),
                   [0, 1, 2, 3], [1, 2, 3, 4])
    assert state.to_move == 0 and state.kinds[state.cursor].name == "Prayer"
    state.apply("run")
    assert state.legal() == ["player 1"]  # never the actor (Bug may hit oneself)
    state.apply("player 1")
    assert state.lives == [5, 4]


def test_monsters_prayer_has_one_parameter_and_three_players_choose_one_enemy():
    state = game(["Prayer", "Birth", "Drifting", "Death", "Sacrifice"], players=3)
    for card in [0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 0]:
        state.apply(f"place {card}")
    assert state.values(0) == (1,)
    state.apply("run")
    assert state.legal() == ["player 1", "player 2"]
    state.apply("player 2")
    assert state.lives == [5, 5, 4] and state.deciding == "turn"  # one enemy, then done


def test_monsters_sacrifice_hits_an_enemy_then_the_inhabitant_leaves():
    state = placed(game(["Sacrifice", "Birth", "Drifting", "Death", "Prayer"]),
                   [0, 1, 2, 3], [1, 2, 3, 4])
    state.apply("run")
    assert state.legal() == ["player 1"]
    state.apply("player 1")
    assert state.lives == [5, 3] and state.owners(0) == [] and state.removed == [1, 0]


def test_monsters_stalemate_tiebreak_4_looks_from_the_start_of_the_row():
    # Equal life, flags and heads: Spaghetti Code asks the cursor's card, Monsters the first
    # island from the start of the row.
    programs = {MONSTERS: LEVEL1, "spaghetti-code": ["AddFlag", "MoveFlag", "RemoveFlag", "Bug",
                                                     "ForkBomb"]}
    for variant, expected in ((MONSTERS, 1), ("spaghetti-code", 0)):
        state = spaghetti.new_game(1, 2, program=programs[variant], variant=variant)
        # a position where (1)-(3) tie: one flag each, each a head; the cursor on card 1
        state.queues = [(1 << 3,), (0,), (), (), ()]
        state.on_board = [1, 1]
        state.cursor = 1
        assert state.tiebreak_winner() == expected


def test_monsters_record_names_the_variant_and_round_trips():
    state = placed(game(), [0, 1, 2, 3], [1, 2, 3, 4])
    text = records.dumps(state)
    assert '"variant": "spaghetti-monsters"' in text and '"Birth"' in text
    assert records.loads(text).position_key() == state.position_key()


def test_monsters_cards_are_not_spaghetti_code_cards():
    with pytest.raises(SetupError, match="unknown card 'Bug'"):
        game(["Bug", "Birth", "Drifting", "Death", "Prayer"])
    with pytest.raises(SetupError, match="unknown variant"):
        Game(variant="pasta")


def test_monsters_speak_of_islands_and_inhabitants():
    state = game()
    assert describe(state, "place 0") == "Red placed an inhabitant on Birth."
    assert describe(state, "place 0", "ja") == "赤が「生」に島民を置いた。"
    console = Console(width=100, record=True)
    console.print(render(state, "en"))
    screen = console.export_text()
    assert "Battle of the Spaghetti Monsters" in screen and "inhabitants head first" in screen
    assert "flag" not in screen.lower()
