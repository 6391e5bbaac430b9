"""The island cards of *Battle of the Spaghetti Monsters* (スパゲッティモンスターの戦い, source 003).

The fantasy edition of the same game: command cards are islands, flags are inhabitants, the cursor
is a wizard, Increment and Decrement chips are blessings and curses. Each island declares the same
primitives as its Spaghetti Code twin (SPEC section 5), with two differences of rule: Prayer and
Sacrifice hurt an enemy, never the actor (``other=True``), and Prayer has a single parameter.
"""

from __future__ import annotations

from .cards import EXTRA, CardType, Choose, Do, built_in

DEATH = CardType(
    "Death", "死",
    "Remove {0} inhabitant(s) from the game.",
    "任意の{0}人の島民をゲームから取り除く",
    level=1, params=(1,), effect=(Choose("remove_flag", count=0),))

DRIFTING = CardType(
    "Drifting", "漂流",
    "Move {0} inhabitant(s) to the end of another island.",
    "任意の{0}人の島民を別の島の末尾へ移動する",
    level=1, params=(1,), effect=(Choose("move_flag", count=0),))

BIRTH = CardType(
    "Birth", "生",
    "Add an inhabitant to the end of any island other than this one.",
    "この島以外の任意の島の末尾に島民を追加する",
    level=1, effect=(Choose("add_flag", other=True),))

PRAYER = CardType(
    "Prayer", "祈り",
    "An enemy Spaghetti Monster loses {0} life.",
    "敵スパモンのライフを-{0}する",
    level=1, params=(1,), effect=(Choose("damage", amount=0, other=True),))

SACRIFICE = CardType(
    "Sacrifice", "いけにえ",
    "An enemy Spaghetti Monster loses {0} life; then the inhabitant who invoked this magic "
    "leaves the game.",
    "敵スパモンのライフを-{0}し、この魔法を発動させた島民をゲームから取り除く。",
    level=1, params=(2,), effect=(Choose("damage", amount=0, other=True),
                                  Do("remove_running_flag")))

MOVE_ISLAND = CardType(
    "Move Island", "島の移動",
    "Move {0} island(s) to any position. The wizard, if on it, moves with the island.",
    "{0}つの島を任意の位置に移動。魔術師が乗っている場合、魔術師は島と一緒に移動する。",
    level=2, params=(1,), effect=(Choose("move_card", count=0),))

REVERSE_CURRENT = CardType(
    "Reverse Current", "海流の反転",
    "Reverse the direction in which the wizard tours the islands.",
    "魔術師が島をめぐる向きを反転する。",
    level=2, effect=(Do("reverse"),))

SINK = CardType(
    "Sink", "沈没",
    "Sink any island together with its inhabitants. If the wizard is on it, the wizard moves "
    "to the next island.",
    "任意の島を乗っている島民ごとゲームから取り除く。魔術師が乗っている場合は、魔術師は次の島へ移動する。",
    level=2, effect=(Choose("remove_card"),))

BLESS = CardType(
    "Bless", "祝福",
    "Raise any number in brackets written on a card by {0}.",
    "任意のカードに書かれた角括弧で囲まれた数値を+{0}する",
    level=3, params=(1,), effect=(Choose("raise", amount=0),))

CURSE = CardType(
    "Curse", "呪い",
    "Lower any number in brackets written on a card by {0}. It never goes below zero.",
    "任意のカードに書かれた角括弧で囲まれた数値を-{0}する。ただし角括弧の中の数値をマイナスにすることはできない。",
    level=3, params=(1,), effect=(Choose("lower", amount=0),))

REVOLUTION = CardType(
    "Revolution", "革命",
    "On every island other than this one, reverse the order of the inhabitants.",
    "この島以外のすべての島で島民の順序を反転する。",
    level=EXTRA, effect=(Do("reverse_queues"),))

MEMORY = CardType(
    "Memory", "記憶",
    "Cast the magic of the islands the wizard stayed at just before this one and the one "
    "before that. Both or neither.",
    "魔術師が直前とその前に滞在した島の魔法を実行する。両方を発動するか両方を発動しないかのどちらか。",
    level=EXTRA, effect=(Do("recall"),))

#: The ten island cards, in the rulebook's order of levels.
MONSTER_CARDS: tuple[CardType, ...] = (
    BIRTH, DRIFTING, DEATH, PRAYER, SACRIFICE,
    MOVE_ISLAND, SINK, REVERSE_CURRENT,
    BLESS, CURSE,
)
#: The extra cards, each brought in by the same option as in Spaghetti Code.
MONSTER_EXTRA = {"reverse_priority": REVOLUTION, "memory": MEMORY}
#: The hidden magic cards (伏せ魔法), the instant cards of this edition.
HIDDEN_MAGIC: tuple[CardType, ...] = (MOVE_ISLAND, DRIFTING, PRAYER)
built_in(__name__, (*MONSTER_CARDS, *MONSTER_EXTRA.values()))
