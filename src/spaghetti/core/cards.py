"""Command cards, each one small declaration: names, texts, parameters and an effect.

An effect is a sequence of *steps* built from a small vocabulary of primitives. A :class:`Choose`
step asks the actor for targets one at a time (up to a count read from a parameter, C5) and
applies its primitive to each as soon as it is chosen (SPEC 7.1); a :class:`Do` step happens by
itself. Each primitive is one object in :mod:`spaghetti.core.primitives`; a card only names
them, so a new card is a new declaration, not new engine code. The same vocabulary is open to the
players: :mod:`spaghetti.custom_cards` reads cards written in TOML (the rulebook's Blank card),
and docs/custom-cards.md gives the exact rule of every primitive.

Texts mark parameters as ``{0}``, ``{1}``: the index of the parameter, filled in with its current
value by :meth:`CardType.text_for`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, SupportsIndex

from .notation import register_card_name
from .primitives import PRIMITIVES, Primitive, self_life

#: The level of the extra cards: they join a game by option, at any level.
EXTRA = 4
#: The keys a step may have besides its primitive, count and amount (docs/custom-cards.md).
STEP_FLAGS = ("other", "head", "same_card", "adjacent", "later", "per_card")


class _Step:
    """What every step has: a primitive, and maybe an amount read from a parameter."""

    amount: int | None
    prim: Primitive

    def amount_of(self, values: tuple[int, ...]) -> int:
        """The step's amount with these parameter values (0 for a step without one)."""
        return 0 if self.amount is None else values[self.amount]

    def _check_amount(self) -> None:
        """An amount where the primitive reads one, and none where it does not."""
        if (self.amount is None) == self.prim.needs_amount:
            raise ValueError(f"{self.prim.name} {'needs' if self.amount is None else 'takes no'} "
                             "amount")


@dataclass(frozen=True)
class Choose(_Step):
    """Choose up to ``count`` distinct targets, one at a time, applying ``action`` to each.

    ``count`` and ``amount`` are parameter indexes (``None``: exactly one / no amount).
    ``other``: only targets other than this card (for flags: not on this card).
    ``head``: ``add_flag`` puts the flag at the head instead of the tail (FastPass).
    ``same_card``: ``remove_flag`` takes every flag from the card of the first one (Pasta
    Logic's RemoveFlag: "one card, up to n of its flags").
    ``adjacent``: ``remove_card`` only the card just before or just after this one (KILL_CARD).
    ``later``: ``add_flag``'s flag arrives when the cursor next moves (WORM).
    ``per_card``: ``raise`` / ``lower`` change one number of each chosen card: the distinct
    targets are cards, not numbers (the Nightmare notes' "任意の1枚のカード", SPEC 6).
    The primitive (:mod:`spaghetti.core.primitives`) says which of these it takes.
    """

    action: str
    count: int | None = None
    amount: int | None = None
    other: bool = False
    head: bool = False
    same_card: bool = False
    adjacent: bool = False
    later: bool = False
    per_card: bool = False
    prim: Primitive = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        prim = PRIMITIVES.get(self.action)
        if prim is None or prim.chooses is None:
            raise ValueError(f"unknown choice primitive {self.action!r}")
        object.__setattr__(self, "prim", prim)
        for key in ("head", "same_card", "adjacent", "later", "per_card"):
            if getattr(self, key) and key not in prim.keys:
                owners = [p.name for p in PRIMITIVES.values() if key in p.keys]
                raise ValueError(f"only {' and '.join(owners)} take {key!r}")
        if self.other and not prim.takes_other:
            raise ValueError(f"{self.action} takes no 'other'")
        if self.count is not None and not prim.takes_count:
            raise ValueError(f"{self.action} takes no count (it chooses one target)")
        self._check_amount()

    @property
    def target(self) -> str:
        """What the step chooses first: card, flag, player, param or at."""
        return self.prim.chooses or ""

@dataclass(frozen=True)
class Do(_Step):
    """A step that happens by itself.

    ``amount`` is a parameter index, for the primitives that read one (``damage_self``,
    ``heal_self``, ...). Do steps take none of the choice keys (they read as False).
    """

    action: str
    amount: int | None = None
    prim: Primitive = field(init=False, compare=False, repr=False)
    count = None  # (Do steps take none of the choice keys)
    other = False
    head = False
    same_card = False
    adjacent = False
    later = False
    per_card = False

    def __post_init__(self) -> None:
        prim = PRIMITIVES.get(self.action)
        if prim is None or prim.chooses is not None:
            raise ValueError(f"unknown primitive {self.action!r}")
        object.__setattr__(self, "prim", prim)
        self._check_amount()

#: A step of an effect.
Step = Choose | Do


@dataclass(frozen=True, eq=False)
class CardType:
    """One kind of command card.

    ``name`` is the card's name in English as the rulebook prints it (``AddFlag``); records use it.
    ``params`` are the printed values of the braced numbers, in text order.
    """

    name: str
    name_ja: str
    text: str
    text_ja: str
    level: int
    params: tuple[int, ...] = ()
    effect: tuple[Step, ...] = ()
    # True when the effect refers to "the flag that ran this": then that flag's identity is part
    # of the position while it has the turn (C9).
    uses_running_flag: bool = field(init=False)
    # True for Memory: its command is the commands the cursor visited just before (C11).
    recalls: bool = field(init=False)
    # True when the command's effects may cancel out, so that only running it shows whether it
    # changes the position (C4): Memory and copies run other commands, and two steps that
    # reverse or rotate the same things may undo each other.
    composite: bool = field(init=False)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """A built-in card pickles as a reference and reads back as the very same object: a
        state compares cards by identity. A player's card pickles by value."""
        ref = _BUILTIN_REFS.get(id(self))
        if ref is not None:
            return _builtin_card, ref
        return super().__reduce_ex__(protocol)

    def __post_init__(self) -> None:
        register_card_name(self.name)
        prims = [s.prim for s in self.effect]
        object.__setattr__(self, "uses_running_flag", any(p.uses_running_flag for p in prims))
        object.__setattr__(self, "recalls", any(p.recalls for p in prims))
        undoable = [p for p in prims if p.undoable]
        object.__setattr__(self, "composite", any(p.runs_others for p in prims)
                           or len(undoable) > len(set(undoable)))

    @property
    def heals(self) -> bool:
        """Can this card raise a life (``heal``, ``heal_self``)?"""
        return any(step.prim.heals for step in self.effect)

    def self_life(self, values: tuple[int, ...], life: int, cap: int | None) -> int:
        """The actor's life after this card's ``damage_self`` / ``heal_self`` steps alone,
        from ``life``, with these parameter values (C4 asks whether they change anything)."""
        return self_life(self.effect, values, life, cap)

    def text_for(self, values: tuple[int, ...] | None = None, lang: str = "en") -> str:
        """The card's text with its current parameter values in braces."""
        values = self.params if values is None else values
        template = self.text_ja if lang == "ja" else self.text
        return template.format(*(f"{{{v}}}" for v in values))

    def display_name(self, lang: str = "en") -> str:
        return self.name_ja if lang == "ja" else self.name

    def __repr__(self) -> str:
        return f"CardType({self.name})"

    def __copy__(self) -> CardType:
        return self  # immutable, and known by identity

    def __deepcopy__(self, memo: dict[int, Any]) -> CardType:
        return self


ADD_FLAG = CardType(
    "AddFlag", "フラグ追加",
    "Add a flag to the tail of any command card other than this one.",
    "このコマンドカード以外の任意のコマンドカードの末尾にフラグを追加する",
    level=1, effect=(Choose("add_flag", other=True),))

MOVE_FLAG = CardType(
    "MoveFlag", "フラグ移動",
    "Move {0} flag(s) to the tail of another command card.",
    "任意の{0}個のフラグを別のコマンドカードの末尾へ移動する",
    level=1, params=(1,), effect=(Choose("move_flag", count=0),))

REMOVE_FLAG = CardType(
    "RemoveFlag", "フラグ削除",
    "Remove {0} flag(s) from the game.",
    "任意の{0}個のフラグをゲームから取り除く",
    level=1, params=(1,), effect=(Choose("remove_flag", count=0),))

BUG = CardType(
    "Bug", "バグ",
    "Reduce the life of {0} player(s) by {1}.",
    "任意の{0}人のプレイヤーのライフを{1}減らす",
    level=1, params=(1, 1), effect=(Choose("damage", count=0, amount=1),))

FORK_BOMB = CardType(
    "ForkBomb", "フォーク爆弾",
    "Reduce one player's life by {0}, then remove the flag that ran this command from the game.",
    "任意の1人のプレイヤーのライフを{0}減らし、このコマンドを起動したフラグをゲームから取り除く",
    level=1, params=(2,), effect=(Choose("damage", amount=0), Do("remove_running_flag")))

MOVE_COMMAND = CardType(
    "MoveCommand", "コマンド移動",
    "Move {0} command card(s) to any position in the program. Its flags move with it.",
    "{0}つのコマンドカードxをプログラム中の任意の位置に移動する。xに立っているフラグは、xと一緒に移動する",
    level=2, params=(1,), effect=(Choose("move_card", count=0),))

REMOVE_COMMAND = CardType(
    "RemoveCommand", "コマンド削除",
    "Remove any command card from the game together with its flags. If the cursor is on it, "
    "the cursor moves to the next command.",
    "任意のコマンドカードxを立っているフラグごとゲームから取り除く。"
    "カーソルがxを指している場合は、カーソルは次のコマンドへ移動する。",
    level=2, effect=(Choose("remove_card"),))

REVERSE = CardType(
    "Reverse", "リバース",
    "Reverse the direction in which the cursor walks the command cards.",
    "カーソルがコマンドカードをなめる向きを反転する",
    level=2, effect=(Do("reverse"),))

INCREMENT = CardType(
    "Increment", "インクリメント",
    "Increase any parameter (a number in braces) by {0}.",
    "任意のパラメータ(波括弧で囲まれた数値)を{0}増やす",
    level=3, params=(1,), effect=(Choose("raise", amount=0),))

DECREMENT = CardType(
    "Decrement", "デクリメント",
    "Decrease any parameter (a number in braces) by {0}. It never goes below zero.",
    "任意のパラメータ(波括弧で囲まれた数値)を{0}減らす。ただし数値をマイナスにすることはできない。",
    level=3, params=(1,), effect=(Choose("lower", amount=0),))

REVERSE_PRIORITY = CardType(
    "ReversePriority", "優先順位反転",
    "Reverse the priority of the flags on every command card other than this one.",
    "このコマンドカード以外のすべてのコマンドカードに立っているフラグの優先順位を反転する",
    level=EXTRA, effect=(Do("reverse_queues"),))

MEMORY = CardType(
    "Memory", "メモリ",
    "Run the commands the cursor pointed at just before this command card and the one before "
    "that. Run both or neither.",
    "カーソルがこのコマンドカードの直前とその前に指していたコマンドを実行する。"
    "両方を発動するか両方を発動しないかのどちらかしか選べない。",
    level=EXTRA, effect=(Do("recall"),))

#: The built-in cards, by (the module that declares them, name); see CardType.__reduce_ex__.
_BUILTIN: dict[tuple[str, str], CardType] = {}
_BUILTIN_REFS: dict[int, tuple[str, str]] = {}


def built_in(module: str, cards: Iterable[CardType]) -> None:
    """Declare a game's own cards built in (they live as long as the process)."""
    for card in cards:
        _BUILTIN[module, card.name] = card
        _BUILTIN_REFS[id(card)] = (module, card.name)


def _builtin_card(module: str, name: str) -> CardType:
    importlib.import_module(module)  # (a process that reads a pickle may not have loaded it)
    return _BUILTIN[module, name]


#: The extra cards, each brought into a game by its option (SPEC section 3).
EXTRA_CARDS = {"reverse_priority": REVERSE_PRIORITY, "memory": MEMORY}

#: The instant command cards (SPEC section 3): three cards outside the program, one for each of
#: two players, dealt face down. The same commands as the program's cards of these names.
INSTANT_CARDS: tuple[CardType, ...] = (MOVE_COMMAND, MOVE_FLAG, BUG)

#: The ten command cards of Spaghetti Code, in rulebook order.
SPAGHETTI_CODE_CARDS: tuple[CardType, ...] = (
    ADD_FLAG, MOVE_FLAG, REMOVE_FLAG, BUG, FORK_BOMB,
    MOVE_COMMAND, REMOVE_COMMAND, REVERSE,
    INCREMENT, DECREMENT,
)
built_in(__name__, (*SPAGHETTI_CODE_CARDS, *EXTRA_CARDS.values()))
