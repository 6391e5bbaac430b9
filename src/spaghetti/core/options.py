"""The rule options, each declared once: its values (the default first), the player counts it is
for, and its name and meaning in English and Japanese.

A game of the family (:mod:`spaghetti.core.variants`) lists the options it takes; everything
else is read from here: the check of a game's options (:class:`~spaghetti.core.game.Game`), the
command line's help, the web form's labels, the table in docs/rules.md (:func:`markdown`, a test
holds the two equal) and the records, which write only the options that differ from their
default.

>>> OPTIONS["placement_order"].default
'round_robin'
>>> OPTIONS["win_hp"].parse("none") is None
True
>>> OPTIONS["interrupt"].words
['false', 'true']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import SetupError
from .notation import whole_number

_WORDS = {"true": True, "on": True, "yes": True, "false": False, "off": False, "no": False}


def word(value: Any) -> str:
    """A value as typed on a command line: ``true``, ``none``, ``snake``, ``6``."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)


@dataclass(frozen=True)
class Option:
    """One rule option.

    ``values``: the values it may take, the default first. ``players``: the player counts it is
    for (empty: any). ``label`` and ``meaning`` say it in English, ``label_ja`` and
    ``meaning_ja`` in Japanese; ``value_labels`` names a value in words where its own spelling
    does not say it (``{"snake": ("snake (back and forth)", "折り返し")}``). ``judged_alike``:
    it changes only the order of play, not what a position holds, so a learned evaluation of the
    game at its default judges the game with any of its values
    (:func:`spaghetti.ai.value.shipped`)."""

    name: str
    values: tuple[Any, ...]
    label: str
    label_ja: str
    meaning: str
    meaning_ja: str
    value_labels: dict[str, tuple[str, str]] = field(default_factory=dict)
    players: tuple[int, ...] = ()
    judged_alike: bool = False

    @property
    def default(self) -> Any:
        return self.values[0]

    @property
    def words(self) -> list[str]:
        """The values as typed on a command line, the default first."""
        return [word(v) for v in self.values]

    def parse(self, value: Any) -> Any:
        """The value meant by ``value`` (as typed: ``on``, ``none``, ``6``; or as JSON holds
        it). Raises :class:`SetupError`, in words, if it is not one of the values."""
        if isinstance(value, str):
            typed = value.strip().lower()
            if isinstance(self.default, bool):
                value = _WORDS.get(typed, value)
            elif typed in ("none", "null") and None in self.values:
                value = None
            elif any(type(v) is int for v in self.values) and \
                    (number := whole_number(typed)) is not None:
                value = number
        if not any(type(value) is type(v) and value == v for v in self.values):
            raise SetupError(f"option {self.name!r} cannot be {value!r}; it is one of: "
                             f"{', '.join(self.words)}")
        return value

    def value_label(self, value: Any, lang: str = "en") -> str:
        """A value in words (yes/no for an on/off option)."""
        if isinstance(value, bool):
            return ("はい" if value else "いいえ") if lang == "ja" else ("yes" if value else "no")
        labels = self.value_labels.get(word(value))
        return word(value) if labels is None else labels[lang == "ja"]

    def for_players(self, players: int) -> bool:
        return not self.players or players in self.players

    def describe(self) -> dict[str, Any]:
        """The option as JSON for the web page: values (the default first), labels, players."""
        return {"values": list(self.values), "label": {"en": self.label, "ja": self.label_ja},
                "value_labels": {w: {"en": en, "ja": ja}
                                 for w, (en, ja) in self.value_labels.items()},
                "players": list(self.players)}


_ON_OFF = (False, True)

#: Every rule option of the family, in the order the docs and the forms list them.
OPTIONS: dict[str, Option] = {o.name: o for o in (
    Option("placement_order", ("round_robin", "snake"), "Placement order", "配置の順番",
           "the order of placement turns: `round_robin` is 0, 1, ..., N-1, 0, 1, ... (the "
           "rulebook); `snake` is 0, 1, ..., N-1, N-1, ..., 1, 0, 0, 1, ... (the designer's 2009 "
           "notes)",
           "配置の手番の順: `round_robin` は 0,1,…,N-1,0,1,…(ルールブック)、`snake` は "
           "0,1,…,N-1,N-1,…,0,0,1,…(作者の2009年のメモ)",
           {"round_robin": ("round robin", "順番に"),
            "snake": ("snake (back and forth)", "折り返し")}, judged_alike=True),
    Option("remove_all_winner", ("head", "tail"), "When every flag is removed, the winner is",
           "全フラグ除去時の勝者",
           "when one RemoveCommand removes every remaining flag: the owner of the removed "
           "card's head flag wins (the rulebook), or of its tail flag (the rulebook says either "
           "convention is fine if agreed beforehand)",
           "1枚のコマンド除去で残りのフラグがすべてなくなったとき: 除去したカードの先頭のフラグの"
           "持ち主が勝つ(ルールブック)、または末尾のフラグの持ち主",
           {"head": ("the head flag's owner", "先頭のフラグの持ち主"),
            "tail": ("the tail flag's owner", "末尾のフラグの持ち主")}),
    Option("stalemate", ("auto", "manual"), "Stalemate", "膠着状態",
           "`auto`: the game ends by itself at the first repeated position; `manual`: at a "
           "repeated position any player still in may `declare` the stalemate, or all play on "
           "(a player who leads the tie-break would always declare, so `auto` is exact under "
           "rational play)",
           "`auto`: 最初に局面が繰り返されたとき自動で終わる。`manual`: 繰り返された局面で残って"
           "いるプレイヤーの誰でも `declare` で宣言できる(しなければ続ける)",
           {"auto": ("ends the game by itself", "自動で終了"),
            "manual": ("is declared by a player", "プレイヤーが宣言")}),
    Option("reverse_priority", _ON_OFF, "Extra card: ReversePriority", "追加カード: 優先順位反転",
           "the extra card ReversePriority joins the deck (and changes the visit rule, C10)",
           "追加カード「優先順位反転」がデッキに加わる(訪問の規則が変わる、C10)"),
    Option("memory", _ON_OFF, "Extra card: Memory", "追加カード: メモリ",
           "the extra card Memory joins the deck (C11)",
           "追加カード「メモリ」がデッキに加わる(C11)"),
    Option("reverse_flips_priority", _ON_OFF, "Variant: Reverse also flips priority",
           "変種: リバースで優先順位も反転",
           "variant rule: while the cursor runs backwards, queues are walked from the tail",
           "変種ルール: カーソルが逆向きに進む間、列は末尾から処理される"),
    Option("instant_cards", _ON_OFF, "Expansion: instant cards", "拡張: インスタントカード",
           "three instant command cards, drafted face down before placement (C12)",
           "3枚のインスタントコマンドカードを配置の前に伏せたまま選ぶ(C12)", players=(2,)),
    Option("interrupt", _ON_OFF, "Expansion: interrupt", "拡張: 割り込み",
           "eliminated players gain interrupt tokens and may add flags (C13)",
           "脱落したプレイヤーが割り込みトークンを得て、フラグを追加できる(C13)",
           players=(3, 4, 5)),
    Option("sequential_open", _ON_OFF, "Expansion: sequential open", "拡張: 順次公開",
           "the cards are laid face down and opened one by one during placement (C14)",
           "カードを伏せて並べ、配置の間に1枚ずつ表にする(C14)"),
    Option("fair_first", _ON_OFF, "Expansion: fair first player", "拡張: 公平な先手決め",
           "player A lays out the program, player B chooses to be first or second",
           "プレイヤーAがプログラムを並べ、プレイヤーBが先手か後手かを選ぶ", players=(2,)),
    Option("setup", ("rulebook", "we-are-programmer", "life-race", "inflation", "catastrophe",
                     "novice"), "Setup", "セットアップ",
           "Pasta Logic's deal: the rulebook's, or one of the designer's named setups",
           "パスタロジックの配り方: ルールブックの配り方、または作者の名前付きセットアップ",
           {"rulebook": ("the rulebook's deal", "ルールブックの配り方"),
            "we-are-programmer": ("We are programmers", "We are programmer"),
            "life-race": ("Life race", "ライフレース"),
            "inflation": ("Inflation", "インフレーション"),
            "catastrophe": ("Catastrophe", "カタストロフ"), "novice": ("Novice", "初心者")}),
    Option("life_cap", (6, None), "Life cap (the die)", "ライフの上限(ダイス)",
           "life cannot rise above 6, the die's highest face (C15); `none` lifts the cap",
           "ライフはダイスの最大の目6を超えない(C15)。`none` で上限なし",
           {"none": ("no cap", "上限なし")}),
    Option("bits", ("auto", 2, 3, 4, 5, 6, 7, 8), "Bits per player", "1人あたりのビット",
           "bits each player places: `auto` is 6 with 2 players, 5 with 3, 4 with 4 or 5 (N1)",
           "各プレイヤーが配置するビットの数: `auto` は2人で6、3人で5、4人か5人で4(N1)",
           {"auto": ("by the number of players", "人数による")}),
    Option("start_hp", (10, 5, 8, 12, 15), "Starting HP", "開始時のHP",
           "each player's HP at the start (N1)", "開始時の各プレイヤーのHP(N1)"),
    Option("win_hp", (20, 15, 25, 30, None), "HP that wins", "勝利するHP",
           "a player whose HP reaches it wins (N1); `none` plays without",
           "HPがこの値に達したプレイヤーが勝つ(N1)。`none` でなし", {"none": ("none", "なし")}),
    Option("coin_flip", _ON_OFF, "Coin flip", "コイントス",
           "at the start of each visit of a card with two bits or more, a coin decides whether "
           "its queue is walked from the head or the tail (N10)",
           "ビットが2個以上のカードを訪れるたび、最初にコインで列を先頭から処理するか末尾から"
           "処理するかを決める(N10)"),
    Option("stacking", (True, False), "Bits may stack at placement", "配置でビットを重ねられる",
           "bits may be placed on any card, one's own too (N12)",
           "ビットはどのカードにも置ける、自分のビットの上にも(N12)"),
)}

