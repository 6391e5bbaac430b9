"""The games of the family as data: each variant is its cards and the few facts that differ.

A :class:`Variant` names its deck (each card with the level that brings it), its extra and
instant cards, how many flags a player places at each level, life, chips, the words its table
speaks (``vocabulary``) and the rules that really differ. The engine reads these facts through
:class:`~spaghetti.core.game.Game`; it has no copy per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import monsters, nightmare, pasta
from .cards import EXTRA_CARDS, INSTANT_CARDS, SPAGHETTI_CODE_CARDS, CardType
from .options import OPTIONS, Option


def _options(*names: str) -> dict[str, Option]:
    """A game's own options, by name (each is declared once, in :mod:`.options`)."""
    return {name: OPTIONS[name] for name in names}


#: The options of Spaghetti Code and its expansions (SPEC sections 2 and 3): the base game's
#: (SPEC 2.2, 2.6, 2.7), the extra cards and the variant rule, and the expansions.
SPAGHETTI_OPTIONS = _options("placement_order", "remove_all_winner", "stalemate",
                             "reverse_priority", "memory", "reverse_flips_priority",
                             "instant_cards", "interrupt", "sequential_open", "fair_first")
#: Pasta Logic (SPEC section 4): the deal, and the die that keeps life (C15).
PASTA_OPTIONS = _options("placement_order", "stalemate", "sequential_open", "fair_first",
                         "setup", "life_cap")
#: The Nightmare notes (SPEC section 6, C20-): bits placed per player, starting HP, the HP
#: that wins, the coin flip, and stacking at placement (N12).
NIGHTMARE_OPTIONS = _options("placement_order", "stalemate", "bits", "start_hp", "win_hp",
                             "coin_flip", "stacking")


@dataclass(frozen=True)
class Setup:
    """A named way to start a game: its cards (shuffled or in this order), and life and flags
    per player where they differ from the rulebook's."""

    cards: tuple[str, ...] = ()  # empty: the rulebook's deal
    shuffled: bool = True
    life: int | None = None
    flags: int | None = None


@dataclass(frozen=True, eq=False)
class Variant:
    """One game of the family."""

    name: str  # as records write it
    title: str
    title_ja: str
    cards: tuple[CardType, ...]  # the deck in rulebook order; a card's level says when it joins
    extra: dict[str, CardType] = field(default_factory=dict)  # option -> extra card
    instant: tuple[CardType, ...] = ()  # the instant cards (option instant_cards)
    placed: dict[int, int] = field(default_factory=lambda: {1: 4, 2: 5, 3: 6})
    players: tuple[int, ...] = (2, 3, 4, 5)
    life: int = 5
    chips: int = 5  # Increment and as many Decrement chips, from level 3 on
    vocabulary: str = "code"  # "monsters": islands, inhabitants, a wizard (i18n)
    # C9 (4): the head flag that breaks the last tie is looked for from the cursor in its
    # direction (Spaghetti Code), or from the start of the row (Spaghetti Monsters).
    tiebreak_from_start: bool = False
    # The rule options this game takes (none but those named: a game takes no other's).
    options: dict[str, Option] = field(default_factory=dict)
    chips_from_level: int = 3
    # Pasta Logic: the program is these BASIC cards and `drawn` others at random (SPEC 4), or a
    # named setup (option "setup").
    basic: tuple[CardType, ...] = ()
    drawn: int = 0
    setups: dict[str, Setup] = field(default_factory=dict)
    temporary_chips: bool = False  # C17: chips leave a card when the cursor does
    draws: bool = False  # C18: everyone out at once is a draw (no head-flag rule)
    # The Nightmare notes: flags per player by the number of players, numbers change freely
    # (no chips, below zero too: N2), a heal has no ceiling, and a life reaching a height wins
    # (options "bits", "start_hp", "win_hp"; flags stack at placement by option "stacking").
    placed_by_players: dict[int, int] = field(default_factory=dict)
    free_numbers: bool = False
    heal_capped: bool = True  # a heal stops at the starting life

    @property
    def levels(self) -> tuple[int, ...]:
        return tuple(self.placed)

    @property
    def reverse_priority(self) -> CardType | None:
        """The extra card whose presence brings the visit rule C10."""
        return self.extra.get("reverse_priority")

    def all_cards(self) -> tuple[CardType, ...]:
        return self.cards + tuple(self.extra.values())


SPAGHETTI_CODE = Variant(
    "spaghetti-code", "Spaghetti Code", "スパゲッティコード",
    cards=SPAGHETTI_CODE_CARDS, extra=dict(EXTRA_CARDS), instant=INSTANT_CARDS,
    options=SPAGHETTI_OPTIONS)

SPAGHETTI_MONSTERS = Variant(
    "spaghetti-monsters", "Battle of the Spaghetti Monsters", "スパゲッティモンスターの戦い",
    cards=monsters.MONSTER_CARDS, extra=dict(monsters.MONSTER_EXTRA),
    instant=monsters.HIDDEN_MAGIC, vocabulary="monsters", tiebreak_from_start=True,
    options=_options("placement_order", "remove_all_winner", "stalemate", "reverse_priority",
                     "memory", "reverse_flips_priority", "instant_cards", "interrupt",
                     "sequential_open", "fair_first"))

PASTA_LOGIC = Variant(
    "pasta-logic", "Pasta Logic", "パスタロジック",
    cards=pasta.PASTA_CARDS, placed={1: 5}, players=(2,), life=5, chips=2, chips_from_level=1,
    options=PASTA_OPTIONS,
    basic=pasta.BASIC, drawn=5, temporary_chips=True, draws=True,
    # The rulebook's deal, and the named setups of the designer's own program of this game.
    setups={
        "rulebook": Setup(),
        "we-are-programmer": Setup(("MoveFlag", "Reorder", "Reverse", "Subroutine", "Rotate",
                                    "SwapCommand", "Bug", "FastPass")),
        "life-race": Setup(("Increment", "Reorder", "AddFlag", "MoveFlag", "ForkBomb", "Debug",
                            "TradeOff", "Bug")),
        "inflation": Setup(("SwapCommand", "Subroutine", "AddFlag", "MoveFlag", "Increment",
                            "FastPass", "TradeOff", "Debug")),
        "catastrophe": Setup(("RemoveFlag", "RemoveCommand", "Increment", "Subroutine",
                              "SwapCommand", "Bug", "ForkBomb", "TradeOff")),
        "novice": Setup(("Bug", "AddFlag", "Subroutine", "MoveFlag", "Increment"),
                        shuffled=False, life=3, flags=3),
    })

NIGHTMARE = Variant(
    "nightmare", "Nightmare", "ナイトメア", cards=nightmare.NIGHTMARE_CARDS, placed={1: 6},
    life=10, chips=0, chips_from_level=1, vocabulary="nightmare",
    options=NIGHTMARE_OPTIONS, placed_by_players={2: 6, 3: 5, 4: 4, 5: 4},
    free_numbers=True, heal_capped=False)

#: Every variant by its record name.
VARIANTS: dict[str, Variant] = {v.name: v for v in (SPAGHETTI_CODE, SPAGHETTI_MONSTERS,
                                                     PASTA_LOGIC, NIGHTMARE)}



def options_markdown(lang: str = "en") -> str:
    """The table of every option for docs/rules.md: name (and player counts), values, the
    games that take it, meaning."""
    ja = lang == "ja"
    rows = ["| オプション | 値(最初が既定) | ゲーム | 意味 |" if ja else
            "| option | values (the first is the default) | games | meaning |", "|---|---|---|---|"]
    for name, o in OPTIONS.items():
        values = ", ".join(f"`{w}`" for w in o.words)
        players = ""
        if o.players:
            counts = (f"{o.players[0]}-{o.players[-1]}" if len(o.players) > 1
                      else str(o.players[0]))
            players = f"({counts}人)" if ja else f" ({counts} players)"
        games = ", ".join(f"`{v.name}`" for v in VARIANTS.values() if name in v.options)
        rows.append(f"| `{name}`{players} | {values} | {games} | "
                    f"{o.meaning_ja if ja else o.meaning} |")
    return "\n".join(rows)


__all__ = ["NIGHTMARE_OPTIONS", "OPTIONS", "PASTA_OPTIONS", "SPAGHETTI_OPTIONS", "VARIANTS",
           "Option", "Setup", "Variant", "options_markdown"]
