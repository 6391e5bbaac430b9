"""The rulebooks' advice on each card, in English and Japanese, for the card help of the page.

Spaghetti Code's tips come from its rulebook's strategy hints (攻略ヒント) and the level texts;
Battle of the Spaghetti Monsters' from its own rulebook, which gives the same advice in the
words of islands and inhabitants. Pasta Logic's and the Nightmare notes' cards have no advice in
their documents, so they have no tips.
"""

from __future__ import annotations

TIPS: dict[str, dict[str, str]] = {
    # Spaghetti Code: levels 1-3
    "AddFlag": {
        "en": "Adds a flag from your unused ones. Flags removed by RemoveFlag leave the game, so "
              "an AddFlag / RemoveFlag loop is not endless: the unused flags run out. Added flags "
              "also change how strong RemoveFlag, Bug and ForkBomb are.",
        "ja": "未使用のフラグからフラグを追加します。RemoveFlagで取り除かれたフラグはゲームから"
              "なくなるので、AddFlagとRemoveFlagのループは無限ループになりません（いずれ未使用の"
              "フラグがなくなります）。フラグが増えるとRemoveFlag・Bug・ForkBombの強弱関係も変わります。",
    },
    "MoveFlag": {
        "en": "Better for the flag placed first: the head flag can move the flags behind it. A "
              "card made a no-op by Decrement is a handy place to move flags to, but it may be "
              "incremented again.",
        "ja": "先にフラグを立てた方が有利なコマンドです。先頭のフラグが後ろのフラグを動かせるからです。"
              "Decrementで無効化されたカード（NOP）はフラグの移動先にとても都合がいいですが、"
              "Incrementされる可能性があります。",
    },
    "RemoveFlag": {
        "en": "At level 1 it takes one of the opponent's 4 flags and one of their chances to act: "
              "more than 25% of their strength, more than Bug's 20%. Better for the flag placed "
              "first: the head flag can remove the ones behind it.",
        "ja": "レベル1では相手の4個のフラグの1個を削り、さらに相手の行動手数を減らすので、"
              "ダメージの割合は25%を超え、Bugの20%より強力です。先頭のフラグが後ろのフラグを"
              "取り除けるので、先にフラグを立てた方が有利です。",
    },
    "Bug": {
        "en": "At level 1, one life of the opponent's 5 is 20% of their strength: weaker than "
              "RemoveFlag, which takes a flag (25%) and a chance to act. More flags (AddFlag, "
              "higher levels) change this.",
        "ja": "レベル1では相手のライフ5のうち1を減らす20%のダメージで、フラグを1個（25%）と"
              "行動手数を奪うRemoveFlagより弱いです。AddFlagやレベルでフラグが増えるとこの関係は変わります。",
    },
    "ForkBomb": {
        "en": "The life goes first, then the flag: your last flag can sacrifice itself to take "
              "the opponent's last life and win. At level 1 it is weak (2 of 5 lives, 40%, "
              "for one of your 4 flags, 25%).",
        "ja": "まず相手のライフを減らし、それからフラグが取り除かれます。最後の一つのフラグが"
              "自分の身を犠牲にして相手のライフを削りきり、ギリギリ勝つこともあります。レベル1では"
              "40% − 25% でさらに弱いカードです。",
    },
    "MoveCommand": {
        "en": "Looks weak but makes strong combos (the rulebook's: moved in front of AddFlag "
              "with the cursor, it runs AddFlag twice onto ForkBomb). Better for the flag placed "
              "later, which can undo the move.",
        "ja": "一見貧弱ですが、他のカードとの組み合わせで強力なコンボを生み出します。後から逆の"
              "操作をすることで先の人の操作を打ち消せるので、後からフラグを立てた方が有利です。",
    },
    "RemoveCommand": {
        "en": "Very strong: the card goes with all its flags, and it can take the opponent's last "
              "flag. If it removes every flag left, the head flag's owner wins. Many of your "
              "flags on an incremented card can go at once.",
        "ja": "フラグごとコマンドカードを取り除くとても強力なカードで、敵の最後のフラグを取り除いて"
              "勝つこともあります。敵味方すべてのフラグが取り除かれる場合は先頭フラグのプレイヤーの"
              "勝ちです。Incrementされたカードにたくさん立てた自分のフラグもまとめて取り除かれえます。",
    },
    "Reverse": {
        "en": "Only the cursor's direction changes: on a card the head flag still acts first "
              "(ReversePriority reverses that). Better for the flag placed later, which can "
              "reverse it back.",
        "ja": "カーソルがコマンドをなめる順序が変わるだけで、コマンドの中で先頭のフラグが先に"
              "実行されることは変わりません（その反転はReversePriority）。後から逆の操作ができる"
              "ので、後からフラグを立てた方が有利です。",
    },
    "Increment": {
        "en": "Raises a number in braces: RemoveFlag {1} becomes {2}. Tempting to pile your flags "
              "on an incremented card, but RemoveCommand can take them all at once.",
        "ja": "波括弧の数値を増やします。RemoveFlagの{1}が{2}になります。Incrementされたカードには"
              "自分のフラグをたくさん立てたくなりますが、RemoveCommandでまとめて取り除かれる"
              "可能性があります。",
    },
    "Decrement": {
        "en": "At {0} a card does nothing (a no-op): a handy place to move flags to with "
              "MoveFlag, but it may be incremented again. Never below zero.",
        "ja": "{0}になったカードは何もしない（NOP）ので、MoveFlagでフラグを移動させる先として"
              "とても都合がいいです。ただしIncrementされる可能性があります。マイナスにはなりません。",
    },
    # Spaghetti Code: the extra cards
    "ReversePriority": {
        "en": "With it, only the head flag may act at each visit, and a flag that runs goes to "
              "the tail: not running keeps the head and takes the chance from the flags behind. "
              "The cursor moves faster, so combos are easier.",
        "ja": "このカードを入れると、カーソルが訪れるたびに先頭のフラグだけが実行でき、実行した"
              "フラグは末尾に移ります。「実行しない」ことで後ろのフラグから発動のチャンスを"
              "奪えます。カーソルの移動が速くなり、コンボが作りやすくなります。",
    },
    "Memory": {
        "en": "Runs the two cards the cursor visited before, as printed (whatever their numbers "
              "and flags now): the one two back first, then the last one. Both or neither.",
        "ja": "直前とその前に訪れたカードのコマンドを、デフォルトの記述のまま（Increment/Decrementや"
              "フラグに関係なく）実行します。先に2つ前、次に直前。両方を発動するか、両方を"
              "発動しないかのどちらかです。",
    },
    # Battle of the Spaghetti Monsters
    "Birth": {
        "en": "Inhabitants taken by Death leave the game, so a Birth / Death loop is not "
              "endless: the unused inhabitants run out.",
        "ja": "「死」で取り除かれた島民はゲームからいなくなるので、「生」と「死」のループは"
              "無限ループになりません。追加する未使用の島民がいなくなるからです。",
    },
    "Drifting": {
        "en": "Better for the one placed first: the head inhabitant can set the second adrift. A "
              "card made a no-op by a Curse is a handy place to drift to; beware of a Blessing.",
        "ja": "先頭の島民が二番手の島民を流せるので、先に置いた方が有利です。呪いで無効化された"
              "カード（NOP）は漂流の移動先にとても都合がいいですが、祝福される可能性を忘れると危険です。",
    },
    "Death": {
        "en": "Better for the one placed first: the head inhabitant can kill the second. At level "
              "1 it takes one of 4 inhabitants and a chance to act: stronger than Prayer.",
        "ja": "先頭の島民が二番手の島民を殺せるので、先に置いた方が有利です。レベル1では相手の"
              "4人の島民の1人を削り、行動手数も減らすので、「祈り」より強力です。",
    },
    "Prayer": {
        "en": "At level 1 one life of 5 is weaker than Death, which takes one of 4 inhabitants; "
              "more inhabitants (Birth, higher levels) change this.",
        "ja": "レベル1ではライフ5のうち1を減らす「祈り」は「死」より弱いです。島民が増えると"
              "この強弱関係は変わります。",
    },
    "Sacrifice": {
        "en": "The life goes first, then the inhabitant: your last inhabitant can give itself to "
              "finish the enemy and win. At level 1 weaker still than Prayer.",
        "ja": "まず相手のライフを減らし、それから島民が取り除かれます。最後の一人が自分の身を"
              "犠牲にして勝つこともあります。レベル1では「祈り」よりさらに弱いです。",
    },
    "Move Island": {
        "en": "Looks weak but makes strong combos. Better for the one placed later, who can undo "
              "the move.",
        "ja": "一見貧弱ですが他のカードとの組み合わせで強力なコンボを生み出します。後から逆の操作で"
              "打ち消せるので、後から置いた方が有利です。",
    },
    "Sink": {
        "en": "Very strong: the island sinks with all its inhabitants. If every inhabitant left "
              "goes down, the head inhabitant's player wins. A blessed island full of yours can "
              "sink at once.",
        "ja": "住んでいる島民ごと島を取り除くとても強力なカードです。敵味方すべての島民が取り除かれる"
              "場合、列の先頭の島民のプレイヤーが勝ちます。祝福された島にたくさん置いた島民も"
              "まとめて沈みえます。",
    },
    "Reverse Current": {
        "en": "Only the order in which the wizard tours the islands changes: on an island the "
              "head inhabitant still acts first (Revolution reverses that). Better placed later.",
        "ja": "魔術師が島を訪れる順序が変わるだけで、島の中で先に来た島民が先に行動することは"
              "変わりません（その反転は「革命」）。後から置いた方が有利です。",
    },
    "Bless": {
        "en": "Tempting to put many inhabitants on a blessed island, but Sink can take them all.",
        "ja": "祝福されたカードには自分の島民をたくさん置きたくなりますが、沈没のカードによって"
              "まとめて取り除かれる可能性があります。",
    },
    "Curse": {
        "en": "A card cursed to 0 does nothing: a handy place to drift inhabitants to, but it "
              "may be blessed again.",
        "ja": "呪いで無効化されたカード（NOP）は島民を漂流させる先としてとても都合がいいですが、"
              "祝福される可能性を忘れると危険です。",
    },
    "Revolution": {
        "en": "Reverses who acts first on every other island: the order Reverse Current leaves "
              "alone.",
        "ja": "ほかのすべての島で行動の順序を反転します。「海流の反転」では変わらない順序です。",
    },
}
