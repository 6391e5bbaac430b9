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

# Rule options with their allowed values; the first is the default. Each game names its own.
#: The base game's (SPEC 2.2, 2.6, 2.7), which every game of the family shares but the second.
PLACEMENT_ORDER = {"placement_order": ("round_robin", "snake")}
REMOVE_ALL_WINNER = {"remove_all_winner": ("head", "tail")}
STALEMATE = {"stalemate": ("auto", "manual")}
#: The extra cards and the variant rule (SPEC section 3).
EXTRA_OPTIONS = {"reverse_priority": (False, True), "memory": (False, True),
                 "reverse_flips_priority": (False, True)}
#: The expansions' (SPEC section 3): the instant cards and the fair first player for two
#: players, interrupt for three or more, sequential open.
INSTANT_OPTION = {"instant_cards": (False, True)}
INTERRUPT = {"interrupt": (False, True)}
OPENING = {"sequential_open": (False, True), "fair_first": (False, True)}
#: The options of Spaghetti Code and its expansions (SPEC sections 2 and 3).
SPAGHETTI_OPTIONS = {**PLACEMENT_ORDER, **REMOVE_ALL_WINNER, **STALEMATE, **EXTRA_OPTIONS,
                     **INSTANT_OPTION, **INTERRUPT, **OPENING}
#: Pasta Logic (SPEC section 4): the deal, and the die that keeps life (C15).
PASTA_OPTIONS = {**PLACEMENT_ORDER, **STALEMATE, **OPENING,
                 "setup": ("rulebook", "we-are-programmer", "life-race", "inflation",
                           "catastrophe", "novice"),
                 "life_cap": (6, None)}
#: The Nightmare notes (SPEC section 6, C20-): bits placed per player ("auto": 6 with 2
#: players, 5 with 3, 4 with 4 or 5), starting HP, the HP that wins, the coin flip, and
#: stacking at placement (on, as the notes have it; off to measure what it does, N12).
NIGHTMARE_OPTIONS = {**PLACEMENT_ORDER, **STALEMATE,
                     "bits": ("auto", 2, 3, 4, 5, 6, 7, 8),
                     "start_hp": (10, 5, 8, 12, 15),
                     "win_hp": (20, 15, 25, 30, None),
                     "coin_flip": (False, True),
                     "stacking": (True, False)}


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
    # The rule options of this game, each with its allowed values, the default first.
    options: dict[str, tuple] = field(default_factory=lambda: dict(SPAGHETTI_OPTIONS))
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
    cards=SPAGHETTI_CODE_CARDS, extra=dict(EXTRA_CARDS), instant=INSTANT_CARDS)

SPAGHETTI_MONSTERS = Variant(
    "spaghetti-monsters", "Battle of the Spaghetti Monsters", "スパゲッティモンスターの戦い",
    cards=monsters.MONSTER_CARDS, extra=dict(monsters.MONSTER_EXTRA),
    instant=monsters.HIDDEN_MAGIC, vocabulary="monsters", tiebreak_from_start=True)

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

#: Every rule option of the family with its allowed values (the same wherever a game has it):
#: the catalogue interfaces list; a game takes only its own (``Variant.options``).
OPTIONS: dict[str, tuple] = {name: values for v in VARIANTS.values()
                             for name, values in v.options.items()}
