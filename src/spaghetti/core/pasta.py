"""The sixteen command cards of *Pasta Logic* (パスタロジック, source 001, SPEC section 4).

A two-player descendant of Spaghetti Code: three BASIC cards and five drawn at random make the
program. Cards with the same names as Spaghetti Code's are declared anew, because here they read
differently ("the opponent" instead of "any player", "other than this one", several cards).
"""

from __future__ import annotations

from .cards import CardType, Choose, Do, built_in

ADD_FLAG = CardType(
    "AddFlag", "フラグ追加",
    "Add a flag to the tail of {0} command card(s) other than this one.",
    "このコマンド以外の{0}枚のコマンドの末尾にフラグを追加する",
    level=1, params=(1,), effect=(Choose("add_flag", count=0, other=True),))

MOVE_FLAG = CardType(
    "MoveFlag", "フラグ移動",
    "Move {0} flag(s) not on this command to the tail of another command.",
    "このコマンド以外の{0}個のフラグを別のコマンドの末尾へ移動する",
    level=1, params=(1,), effect=(Choose("move_flag", count=0, other=True),))

REMOVE_FLAG = CardType(
    "RemoveFlag", "フラグ削除",
    "Remove {0} flag(s) from one command other than this one.",
    "このコマンド以外の1枚のコマンドから{0}個のフラグを取り除く",
    level=1, params=(1,), effect=(Choose("remove_flag", count=0, other=True, same_card=True),))

REORDER = CardType(
    "Reorder", "並び替え",
    "Rearrange the flags of {0} command(s) other than this one in any order.",
    "このコマンド以外の{0}枚のコマンドのフラグを任意に並び替える",
    level=1, params=(1,), effect=(Choose("reorder", count=0, other=True),))

ROTATE = CardType(
    "Rotate", "ローテート",
    "On every command other than this one, move the tail flag to the head.",
    "このカード以外のすべてのコマンドの末尾のフラグを先頭に移動する",
    level=1, effect=(Do("rotate_queues"),))

FAST_PASS = CardType(
    "FastPass", "ファストパス",
    "Lose {0} life, and add a flag to the head of {1} command(s) other than this one.",
    "ライフを{0}減らし、このコマンド以外の{1}枚のコマンドの先頭にフラグを追加",
    level=1, params=(1, 1), effect=(Do("damage_self", amount=0),
                                    Choose("add_flag", count=1, other=True, head=True)))

BUG = CardType(
    "Bug", "バグ",
    "Reduce the opponent's life by {0}.",
    "相手プレイヤーのライフを{0}減らす",
    level=1, params=(1,), effect=(Do("damage_others", amount=0),))

FORK_BOMB = CardType(
    "ForkBomb", "フォーク爆弾",
    "Reduce the opponent's life by {0}. Remove the flag that ran this.",
    "相手プレイヤーのライフを{0}減らす。起動フラグを取り除く",
    level=1, params=(2,), effect=(Do("damage_others", amount=0), Do("remove_running_flag")))

DEBUG = CardType(
    "Debug", "デバッグ",
    "Remove the flag that ran this, and raise your life by {0}.",
    "起動フラグを取り除き、自分のライフを{0}増やす。",
    level=1, params=(3,), effect=(Do("remove_running_flag"), Do("heal_self", amount=0)))

TRADE_OFF = CardType(
    "TradeOff", "トレードオフ",
    "Reduce your life by {0} and the opponent's life by {1}.",
    "自分のライフを{0}減らし、相手のライフを{1}減らす。",
    level=1, params=(1, 2), effect=(Do("damage_self", amount=0), Do("damage_others", amount=1)))

REMOVE_COMMAND = CardType(
    "RemoveCommand", "コマンド削除",
    "Remove any command from the game together with its flags. Remove the flag that ran this.",
    "任意のコマンドを立っているフラグごとゲームから取り除く。起動フラグを取り除く",
    level=1, effect=(Choose("remove_card"), Do("remove_running_flag")))

REVERSE = CardType(
    "Reverse", "リバース",
    "Reduce your life by {0}, and reverse the direction of the cursor.",
    "自分のライフを{0}減らし、カーソルの進む向きを反転する",
    level=1, params=(1,), effect=(Do("damage_self", amount=0), Do("reverse")))

SWAP_COMMAND = CardType(
    "SwapCommand", "コマンド交換",
    "Swap this command with any command. The flags on them and the cursor move with them.",
    "このコマンドを任意のコマンドと交換する。コマンドに乗っているフラグとカーソルは共に移動する",
    level=1, effect=(Choose("swap_card"),))

SUBROUTINE = CardType(
    "Subroutine", "サブルーチン",
    "Choose one command within {0} before or after this one, not this one; the cursor visits "
    "it for a while.",
    "このコマンドの前後{0}枚のコマンドからこのコマンド以外の1つを選び、カーソルが一時的に移動する。",
    level=1, params=(1,), effect=(Choose("call", amount=0),))

INCREMENT = CardType(
    "Increment", "インクリメント",
    "Increase any parameter by {0}.",
    "任意のパラメータを{0}増やす",
    level=1, params=(1,), effect=(Choose("raise", amount=0),))

DECREMENT = CardType(
    "Decrement", "デクリメント",
    "Decrease any parameter by {0}. It never goes below zero.",
    "任意のパラメータを{0}減らす",
    level=1, params=(1,), effect=(Choose("lower", amount=0),))

#: The three BASIC cards, in every program.
BASIC: tuple[CardType, ...] = (ADD_FLAG, MOVE_FLAG, BUG)
#: The other thirteen, five of which are drawn at random.
OTHERS: tuple[CardType, ...] = (
    REMOVE_FLAG, REORDER, ROTATE, FAST_PASS, FORK_BOMB, DEBUG, TRADE_OFF,
    REMOVE_COMMAND, REVERSE, SWAP_COMMAND, SUBROUTINE, INCREMENT, DECREMENT,
)
#: All sixteen, in the rulebook's order of kinds (flags, life, cards, parameters).
PASTA_CARDS: tuple[CardType, ...] = (
    ADD_FLAG, MOVE_FLAG, REMOVE_FLAG, REORDER, ROTATE, FAST_PASS,
    BUG, FORK_BOMB, DEBUG, TRADE_OFF,
    REMOVE_COMMAND, REVERSE, SWAP_COMMAND, SUBROUTINE,
    INCREMENT, DECREMENT,
)
built_in(__name__, PASTA_CARDS)
