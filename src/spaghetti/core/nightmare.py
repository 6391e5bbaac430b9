"""The eighteen cards of the Nightmare notes (source 004, SPEC section 6): the designer's 2009
game in the style of Tom Jolly's *Programmer's Nightmare*, every card once, all dealt.

Flags are *bits*, the cursor is the *PC*, life is *HP*. Every Arabic numeral on a card is a
parameter (``{0}``, ``{1}``), which INC and DEC change by one, below zero too. Copies (MIMIC,
ECHO, FLOAT) run the copied cards' commands as if written on the copying card (:mod:`state`).
"""

from __future__ import annotations

from .cards import CardType, Choose, Do, Step, built_in


def _card(name: str, ja: str, text: str, text_ja: str, params: tuple[int, ...] = (),
          effect: tuple[Step, ...] = ()) -> CardType:
    return CardType(name, ja, text, text_ja, level=1, params=params, effect=effect)


MIMIC = _card("MIMIC", "MIMIC", "Copy the {0} cards ahead in the PC's direction.",
              "PC進行方向の{0}枚をコピー", (2,), (Do("copy_ahead", amount=0),))
ECHO = _card("ECHO", "ECHO", "Copy the {0} cards behind, against the PC's direction.",
             "PC進行と逆方向の{0}枚をコピー", (2,), (Do("copy_behind", amount=0),))
INC = _card("INC", "INC", "Raise an Arabic numeral of {0} card(s) by {1}.",
            "任意の{0}枚のカードのアラビア数字を{1}増やす", (1, 1),
            (Choose("raise", count=0, amount=1, per_card=True),))
DEC = _card("DEC", "DEC", "Lower an Arabic numeral of {0} card(s) by {1}; it may go below zero.",
            "任意の{0}枚のカードのアラビア数字を{1}減らす(負になってもかまわない)", (1, 1),
            (Choose("lower", count=0, amount=1, per_card=True),))
ZAP = _card("ZAP", "ZAP", "{1} damage to {0} player(s).", "{0}人のプレイヤーに{1}のダメージ",
            (1, 1), (Choose("damage", count=0, amount=1),))
HEAL = _card("HEAL", "HEAL", "{0} player(s) recover {1} HP.", "{0}人のプレイヤーのHPを{1}回復",
             (1, 2), (Choose("heal", count=0, amount=1),))
KILL_CARD = _card("KILL_CARD", "KILL_CARD", "Remove the card just before or just after this one.",
                  "このカードの直前または直後のカードを取り除く", (),
                  (Choose("remove_card", adjacent=True),))
KILL_BIT = _card("KILL_BIT", "KILL_BIT", "Remove {0} bit(s).", "任意の{0}つのビットを取り除く",
                 (1,), (Choose("remove_flag", count=0),))
MOVE_CARD = _card("MOVE_CARD", "MOVE_CARD",
                  "Move {0} card(s) anywhere. If this card moves, the PC moves with it.",
                  "{0}枚のカードを任意の場所に移動する。このカードを移動した場合はPCも移動する。", (1,),
                  (Choose("move_card", count=0),))
MOVE_BIT = _card("MOVE_BIT", "MOVE_BIT", "Move {0} bit(s) to any card.",
                 "任意の{0}個のビットを任意のカードに移動する", (1,), (Choose("move_flag", count=0),))
CHARM = _card("CHARM", "CHARM", "Change {0} bit(s) to your colour. This card vanishes.",
              "{0}つのビットを自分の色に変更する。このカードは消滅する。", (1,),
              (Choose("charm", count=0), Do("remove_this_card")))
WORM = _card("WORM", "WORM", "Add a bit of yours to any card; it arrives when the PC moves.",
             "任意のカードに自分のビットを追加する。ただし追加はターン終了時", (),
             (Choose("add_flag", later=True),))
JUMP = _card("JUMP", "JUMP",
             "The PC jumps to any card at least {0} cards away. Once it has jumped, the "
             "destination is fixed to that card; if it is removed, it may be chosen again.",
             "PCを{0}カード以上離れた任意のカードにジャンプさせる。一度ジャンプするとジャンプ先はそのカードに"
             "固定される。ジャンプ先が削除されると再度指定可能になる。", (3,), (Choose("jump", amount=0),))
BOMB = _card("BOMB", "BOMB", "{1} damage to {0} player(s), then remove this card.",
             "{0}人のプレイヤーに{1}のダメージを与えてこのカードを取り除く", (1, 4),
             (Choose("damage", count=0, amount=1), Do("remove_this_card")))
REVERSE = _card("REVERSE", "REVERSE", "Reverse the PC's direction.", "PC進行方向を反転する", (),
                (Do("reverse"),))
SPAWN = _card("SPAWN", "SPAWN",
              "Add a bit of your colour to this card and to every card holding {0} bits or "
              "more; they arrive when the PC moves.",
              "このカードと{0}個以上ビットののっているカードに自分の色のビットを追加する。", (2,),
              (Do("spawn", amount=0),))
FLOAT = _card("FLOAT", "FLOAT",
              "Move this card {0} place forward or back, then copy the next card in the PC's "
              "direction.", "{0}つ前または後ろに移動し、PC進行方向の次のカードをコピーする。", (1,),
              (Choose("float", amount=0), Do("copy_next")))
SURGE = _card("SURGE", "SURGE",
              "{0} damage to each player with a bit on this card, {1} to each player without.",
              "このカードにビットの乗っている人に{0}、乗っていない人に{1}のダメージ", (1, 3),
              (Do("damage_here", amount=0), Do("damage_not_here", amount=1)))

#: The eighteen cards, in the notes' order, each once in every program.
NIGHTMARE_CARDS: tuple[CardType, ...] = (
    MIMIC, ECHO, INC, DEC, ZAP, HEAL, KILL_CARD, KILL_BIT, MOVE_CARD, MOVE_BIT, CHARM, WORM,
    JUMP, BOMB, REVERSE, SPAWN, FLOAT, SURGE,
)
built_in(__name__, NIGHTMARE_CARDS)
