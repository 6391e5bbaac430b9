"""The games of the family as data: each variant is its cards and the few facts that differ.

A :class:`Variant` names its deck (each card with the level that brings it), its extra and
instant cards, how many flags a player places at each level, life, chips, the words its table
speaks (``vocabulary``) and the rules that really differ. The engine reads these facts through
:class:`~spaghetti.core.game.Game`; it has no copy per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import monsters
from .cards import EXTRA_CARDS, INSTANT_CARDS, SPAGHETTI_CODE_CARDS, CardType


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

#: Every variant by its record name.
VARIANTS: dict[str, Variant] = {v.name: v for v in (SPAGHETTI_CODE, SPAGHETTI_MONSTERS)}
#: Every built-in card name (letter case ignored): custom cards may not take one.
BUILT_IN_NAMES = frozenset(card.name.lower() for v in VARIANTS.values() for card in
                           v.all_cards() + v.instant)
