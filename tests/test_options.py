"""Each rule option is declared once (spaghetti.core.options) and everything reads it from there:
the games' checks, the records, the command line's help, the web form and the docs table."""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from click.testing import CliRunner

from spaghetti import Game, SetupError
from spaghetti.cli.main import cli
from spaghetti.core.options import OPTIONS, Option
from spaghetti.core.variants import VARIANTS, Variant, options_markdown
from spaghetti.records import decode, record_of, replay

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_every_game_takes_the_one_declaration_of_each_of_its_options():
    for variant in VARIANTS.values():
        assert variant.options, variant.name
        for name, option in variant.options.items():
            assert option is OPTIONS[name], (variant.name, name)


def test_a_game_takes_no_option_it_does_not_name():
    # An option added to Spaghetti Code does not join another game by itself.
    bare = Variant("bare", "Bare", "裸", cards=VARIANTS["spaghetti-code"].cards)
    assert bare.options == {}
    assert set(VARIANTS["nightmare"].options).isdisjoint({"memory", "remove_all_winner"})


def test_a_value_is_checked_against_the_games_own_option():
    assert Game(variant="nightmare", options={"win_hp": "none"}).option("win_hp") is None
    with pytest.raises(SetupError, match="'start_hp' cannot be 7; it is one of: 10, 5, 8"):
        Game(variant="nightmare", options={"start_hp": 7})
    with pytest.raises(SetupError, match="does not apply to Nightmare"):
        Game(variant="nightmare", options={"memory": True})
    # Another game's option at its default changes nothing, and is not kept.
    assert "memory" not in Game(variant="nightmare", options={"memory": "off"}).options
    with pytest.raises(SetupError, match="unknown option 'colour'"):
        Game(options={"colour": "red"})


@pytest.mark.parametrize(("name", "players", "allowed"), [
    ("instant_cards", 2, True), ("instant_cards", 3, False), ("fair_first", 4, False),
    ("interrupt", 3, True), ("interrupt", 5, True), ("interrupt", 2, False)])
def test_an_option_for_some_player_counts_is_refused_at_the_others(name, players, allowed):
    assert OPTIONS[name].for_players(players) is allowed
    if allowed:
        assert Game(players=players, options={name: True}).option(name) is True
    else:
        with pytest.raises(SetupError, match=f"option {name} is for"):
            Game(players=players, options={name: True})
    Game(players=players, options={name: False})  # off is fine at any count


def test_a_record_writes_only_the_options_that_differ_from_their_default():
    state = Game(variant="nightmare", options={"coin_flip": True, "stacking": False,
                                               "placement_order": "round_robin"}).new_state(seed=1)
    record = record_of(state)
    assert record["options"] == {"coin_flip": True, "stacking": False}
    again = replay(decode(json.dumps(record)))
    assert again.game.options == state.game.options
    assert record_of(Game().new_state(seed=1))["options"] == {}


def test_every_option_has_labels_and_a_meaning_in_both_languages():
    for option in OPTIONS.values():
        assert isinstance(option, Option)
        assert option.label and option.label_ja and option.meaning and option.meaning_ja
        assert option.default == option.values[0]
        for value in option.values:
            assert option.parse(option.words[option.values.index(value)]) == value
        for word in option.value_labels:
            assert word in option.words, (option.name, word)
    assert OPTIONS["placement_order"].value_label("snake", "ja") == "折り返し"
    assert OPTIONS["memory"].value_label(True) == "yes"


def test_the_command_line_help_lists_every_option_from_its_declaration():
    text = CliRunner().invoke(cli, ["new", "--help"], terminal_width=2000).output
    text = re.sub(r"\s+", " ", text)
    for option in OPTIONS.values():
        assert f"{option.name}={'|'.join(option.words)} ({option.label}" in text


def test_the_web_form_reads_the_labels_from_the_declarations(tmp_path):
    from starlette.testclient import TestClient

    from spaghetti.web.app import create_app

    with TestClient(create_app(str(tmp_path / "games.db"))) as client:
        meta = client.get("/api/meta").json()
    assert set(meta["options"]) == set(OPTIONS)
    assert meta["options"]["interrupt"]["players"] == [3, 4, 5]
    assert meta["options"]["win_hp"]["value_labels"]["none"] == {"en": "none", "ja": "なし"}
    assert meta["options"]["coin_flip"]["label"]["ja"] == "コイントス"
    js = (ROOT / "src/spaghetti/web/static/common.js").read_text(encoding="utf-8")
    assert "Placement order" not in js and "配置の順番" not in js  # no copy kept by hand


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_docs_table_is_made_from_the_declarations(lang):
    doc = (ROOT / "docs/rules.md").read_text(encoding="utf-8")
    table = re.search(rf"<!-- options-table {lang} -->\n(.*?)\n<!-- /options-table -->",
                      doc, re.S)
    assert table is not None
    assert table.group(1) == options_markdown(lang), (
        "docs/rules.md: paste spaghetti.core.variants.options_markdown() into the table")
