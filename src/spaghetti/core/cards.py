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

# What a card is made of is declared with the primitives (a step names one); the cards are here.
# (_builtin_card: pickles made before the card's type moved there name it here.)
from .primitives.base import CardType, Choose, Do, Step, _builtin_card, built_in

__all__ = ["CardType", "Choose", "Do", "EXTRA", "STEP_FLAGS", "Step", "_builtin_card",
           "built_in"]

#: The level of the extra cards: they join a game by option, at any level.
EXTRA = 4
#: The keys a step may have besides its primitive, count and amount (docs/custom-cards.md).
STEP_FLAGS = ("other", "head", "same_card", "adjacent", "later", "per_card")


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
