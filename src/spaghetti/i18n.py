"""Words for the user interface, in English and Japanese.

:func:`t` looks up a UI string; :func:`describe` turns one move into a sentence, e.g.
``"Red ran MoveFlag: moved Blue's flag from Bug to AddFlag."``

>>> import spaghetti
>>> state = spaghetti.new_game(1, 2, program=["AddFlag", "MoveFlag", "RemoveFlag", "Bug",
...                                           "ForkBomb"])
>>> describe(state, "place 3")
'Red placed a flag on Bug.'
>>> describe(state, "place 3", "ja")
'赤が「バグ」にフラグを置いた。'
"""

from __future__ import annotations

from .core import notation as N
from .core.primitives import PRIMITIVES, Telling, words_for
from .core.state import State

LANGS = ("en", "ja")

#: Seat colours: English name, Japanese name, one-letter mark, rich style.
COLOURS = (
    ("Red", "赤", "R", "bold red"),
    ("Blue", "青", "B", "bold blue"),
    ("Green", "緑", "G", "bold green"),
    ("Yellow", "黄", "Y", "bold yellow"),
    ("Purple", "紫", "P", "bold magenta"),
)

_STRINGS: dict[str, tuple[str, str]] = {
    # (English, Japanese)
    "level": ("level {n}", "レベル{n}"),
    # The computer's difficulties, as the ladder (docs/performance.md) measures them.
    "ai.random": ("random: any legal option", "ランダム: 合法な手から無作為"),
    "ai.easy": ("easy: its own move only, at once, counting lives and flags as a beginner "
                "does; beats random",
                "やさしい: 自分の手だけを読む（即答）。初心者のようにライフと旗の数だけで判断する。"
                "ランダムに勝つ"),
    "ai.normal": ("normal: reads the replies too, under 1 s a move (judging by a learned "
                  "network at levels 2 and 3 with 2 players and at level 3 with 3); won 87 % "
                  "against easy at level 1 and 75-95 % at level 3 with 2 to 4 players",
                  "ふつう: 相手の応手も読む（1手1秒以内。レベル2・3の2人とレベル3の3人では自己対局で"
                  "学習した評価を使う）。やさしいに対しレベル1で勝率87%、レベル3で75〜95%（2〜4人）"),
    "ai.hard": ("hard: reads deeper and plays proven moves near the end (at level 1 from "
                "placement on), about 5 s a move at most, judging by a learned network where "
                "normal does and at level 3 with 4 players; won 90 % against normal at level 1 "
                "and 69 % at level 3 with 2 players, 55-70 % with 3-4 players",
                "つよい: さらに深く読み、終盤（レベル1では配置から）はソルバーが証明した手を指す"
                "（1手およそ5秒以内。ふつうと同じ対局とレベル3の4人では学習した評価を使う）。"
                "2人ではふつうに対しレベル1で勝率90%、レベル3で69%、3〜4人では55〜70%"),
    "ai.perfect": ("perfect: the solver's proven move (at level 1 with two players, most whole "
                   "games; up to about 5 s more a move), else as hard; at level 1 even with "
                   "hard, which proves most placements too (each won 8 of 10 as the first "
                   "player)",
                   "完全: ソルバーが証明した手を指す（レベル1・2人ならほとんどの対局で最初から。"
                   "1手あたり最大約5秒多く考える）。見つからなければ「つよい」と同じ。"
                   "レベル1ではつよいも配置の多くを証明するので互角（先手でそれぞれ10局中8勝）"),
    "players_n": ("{n} players", "{n}人"),
    "seed": ("seed {n}", "シード {n}"),
    "move_no": ("move {n}", "{n}手目"),
    "phase.setup": ("setup", "準備フェーズ"),
    "phase.placement": ("placement", "配置フェーズ"),
    "phase.execution": ("execution", "実行フェーズ"),
    "phase.over": ("game over", "ゲーム終了"),
    "program": ("Program", "プログラム"),
    "cursor": ("cursor", "カーソル"),
    "forward": ("forward →", "順方向 →"),
    "backward": ("← backward", "← 逆方向"),
    "running": ("running", "実行中"),
    "head_note": ("flags head first  ·  < has the turn  ·  * yet to act in this visit",
                  "フラグは先頭から  ·  < 手番のフラグ  ·  * この訪問でまだ手番が来る"),
    "players": ("Players", "プレイヤー"),
    "col.player": ("player", "プレイヤー"),
    "col.life": ("life", "ライフ"),
    "col.on_cards": ("on cards", "場"),
    "col.supply": ("supply", "手持ち"),
    "col.hand": ("to place", "配置残り"),
    "col.removed": ("removed", "除去"),
    "col.status": ("", ""),
    "out": ("out", "脱落"),
    "winner_mark": ("winner", "勝者"),
    "to_move_mark": ("to move", "手番"),
    "you": ("you", "あなた"),
    "computer": ("computer", "コンピュータ"),
    "chips": ("Chip supply: Increment {inc} · Decrement {dec}",
              "チップの山: インクリメント {inc} · デクリメント {dec}"),
    "last_moves": ("Last moves", "最近の手"),
    "no_moves": ("(no moves yet)", "(まだ手はありません)"),
    "options": ("Your options", "選択肢"),
    "decide.place": ("{p}: place a flag on a card without one of yours ({n} left to place).",
                     "{p}: 自分のフラグがまだないカードにフラグを置く(残り{n}本)。"),
    "decide.turn": ("{p}'s flag has the turn on {card}: run it or pass.",
                    "{p}のフラグの手番です（{card}）: 実行するかパスするか。"),
    "decide.card": ("{p} is running {card}: choose a card.",
                    "{p}が{card}を実行中: カードを選ぶ。"),
    "decide.flag": ("{p} is running {card}: choose a flag.",
                    "{p}が{card}を実行中: フラグを選ぶ。"),
    "decide.to": ("{p} is running {card}: choose where the flag goes.",
                  "{p}が{card}を実行中: フラグの移動先を選ぶ。"),
    "decide.at": ("{p} is running {card}: choose the card's new position.",
                  "{p}が{card}を実行中: カードの新しい位置を選ぶ。"),
    "decide.player": ("{p} is running {card}: choose a player.",
                      "{p}が{card}を実行中: プレイヤーを選ぶ。"),
    "decide.param": ("{p} is running {card}: choose a parameter.",
                     "{p}が{card}を実行中: パラメータを選ぶ。"),
    "decide.coin": ("The coin is flipped: head, the queue is walked from the head; tail, from "
                    "the tail.", "コイントス: 表なら列の先頭から、裏なら末尾から実行する。"),
    "opt.coin_head": ("from the head", "先頭から"),
    "opt.coin_tail": ("from the tail", "末尾から"),
    "won.height": ("{p} wins: their life reached the height that wins.",
                   "{p}の勝ち: ライフが勝利の値に達しました。"),
    "decide.arrange": ("{p} (A) lays out the program: choose the next card.",
                       "{p}（A）がプログラムを並べる: 次のカードを選ぶ。"),
    "decide.seat": ("{p} (B) chooses to play first or second.",
                    "{p}（B）が先手か後手かを選ぶ。"),
    "decide.take": ("{p}: take one of the face-down instant cards.",
                    "{p}: 伏せられた即時コマンドカードを1枚取る。"),
    "decide.open": ("{p}: place a flag on the open card {card}, or pass.",
                    "{p}: 開いたカード{card}にフラグを置くか、パスする。"),
    "decide.interrupt": ("{p} (out) may spend an interrupt token: add a flag to a card, or pass.",
                         "{p}（脱落）: インタラプトでカードにフラグを追加するか、パスする。"),
    "face_down": ("face down", "伏せ札"),
    "instant_line": ("Instant cards: {cards}", "即時コマンドカード: {cards}"),
    "instant.held": ("{card}", "{card}"),
    "instant.hidden": ("face down", "伏せたまま"),
    "instant.none": ("none yet", "まだなし"),
    "instant.used": ("used ({card})", "使用済み（{card}）"),
    "instant.discarded": ("discarded", "破棄"),
    "tokens_line": ("Interrupt tokens: {tokens}", "インタラプトトークン: {tokens}"),
    "first_line": ("{p} plays first.", "{p}が先手。"),
    "opt.arrange": ("next card: {card}", "次のカード: {card}"),
    "opt.seat_first": ("play first", "先手を選ぶ"),
    "opt.seat_second": ("play second", "後手を選ぶ"),
    "opt.take": ("face-down card {n}", "伏せ札{n}"),
    "opt.instant": ("run your instant card {card} here: {text}",
                    "ここで即時コマンドカード「{card}」を実行: {text}"),
    "opt.interrupt": ("interrupt: a flag to {card}", "インタラプト: {card}にフラグ"),
    "opt.icard": ("{p}'s instant card", "{p}の即時コマンドカード"),
    "opt.iparam": ("{p}'s instant card: parameter {i} (now {v})",
                   "{p}の即時コマンドカード: パラメータ{i}（現在{v}）"),
    "repeated": ("This position has occurred before: you may declare a stalemate.",
                 "この局面は以前にも現れました。膠着状態を宣言できます。"),
    "repeated_any": ("The position repeats: any player may type 'declare <seat>' ({seats}).",
                     "局面が繰り返しています。どのプレイヤーも 'declare <席>' で膠着状態を宣言できます（{seats}）。"),
    "declare_seat": ("{p}: declare {n}", "{p}: declare {n}"),
    "declare_refused": ("{p} cannot declare now: {why}.", "{p}は今は宣言できません: {why}。"),
    "declare_usage": ("Type 'declare' (the player to move) or 'declare <seat>': {seats}.",
                      "'declare'（手番のプレイヤー）か 'declare <席>' を入力してください: {seats}。"),
    "prompt": ("{p} > ", "{p} > "),
    "prompt_hint": ("Type a number or an option (help: commands)",
                    "番号か選択肢を入力 (help でコマンド一覧)"),
    "help": (
        "Type the number of an option, or the option itself (e.g. 'flag 2.0'). A number\n"
        "counts the options from 1 as listed, in the full-screen game too; a card goes by\n"
        "its position in notation ('place 2').\n"
        "Commands:\n"
        "  undo        take back your last move (and the computer's moves after it)\n"
        "  save FILE   save the game record to FILE\n"
        "  hint        the computer's suggestion: a proof when the solver finds one,\n"
        "              else its best guess from a search\n"
        "  declare N   at a repeated position: seat N declares a stalemate\n"
        "              (any player still in the game may)\n"
        "  help        show this help\n"
        "  quit        leave the game (an unfinished game's record is kept, its file\n"
        "              named; Ctrl+C does the same, with exit status 130)",
        "選択肢の番号か、選択肢そのもの（例: 'flag 2.0'）を入力してください。\n"
        "番号は一覧の選択肢を1から数えたもので、全画面のゲームでも同じです。\n"
        "カードは記法の位置で指定します（'place 2'）。\n"
        "コマンド:\n"
        "  undo        直前の自分の手を取り消す（その後のコンピュータの手も）\n"
        "  save FILE   棋譜を FILE に保存する\n"
        "  hint        コンピュータのおすすめ: ソルバーが証明できればその手、\n"
        "              できなければ探索による推定\n"
        "  declare N   繰り返し局面で、席 N が膠着状態を宣言する\n"
        "              （残っているプレイヤーなら誰でも）\n"
        "  help        このヘルプを表示する\n"
        "  quit        ゲームをやめる（未完了のゲームの棋譜は保存し、\n"
        "              そのファイル名を表示。Ctrl+C も同じ。終了ステータスは 130）"),
    "bad_input": ("Not an option here: {text!r}. Type a number from 1 to {n}, an option, or "
                  "'help'.",
                  "ここでは選べません: {text!r}。1から{n}の番号、選択肢、または 'help' を入力してください。"),
    "clock_prompt": ("[{s} s] ", "[{s}秒] "),
    "time_up": ("Time ran out: {option} was played at random.",
                "時間切れ: {option} を無作為に選びました。"),
    "thinking": ("{p} (computer) is thinking...", "{p}（コンピュータ）が考え中..."),
    "hint_thinking": ("Looking for the best option...", "最善の選択肢を探しています..."),
    "hint": ("Hint: {option}  ({label})  visits {visits} of {total}, win chance about {chance}%",
             "ヒント: {option}（{label}）  訪問 {visits}/{total}、勝率 約{chance}%"),
    "hint_proven": ("Hint: {option}  ({label})  proven by the exact solver: {verdict}",
                    "ヒント: {option}（{label}）  厳密解で証明済み: {verdict}"),
    "proven_win": ("you win with perfect play", "最善を尽くせば勝ち"),
    "proven_draw": ("a draw with perfect play", "最善を尽くせば引き分け"),
    "proven_expect": ("expected result {value:+.3f} (+1 a win, -1 a loss)",
                      "期待値 {value:+.3f}（勝ち +1、負け -1）"),
    "hint_other": ("      {option}  visits {visits}, win chance about {chance}%",
                   "      {option}  訪問 {visits}、勝率 約{chance}%"),
    "undone": ("Took back {n} move(s).", "{n}手を取り消しました。"),
    "nothing_to_undo": ("There is no move of yours to take back.", "取り消せる自分の手がありません。"),
    "saved": ("Saved the record to {file}.", "棋譜を {file} に保存しました。"),
    "save_usage": ("Usage: save FILE", "使い方: save FILE"),
    "save_failed": ("Could not save: {err}", "保存できませんでした: {err}"),
    "puzzle.intro": ("Puzzle {i} of {total}: {p} (seat {seat}) to move wins in {n} of its turns "
                     "(this one counted). Options: {options}",
                     "パズル {i}/{total}: 手番の{p}（席{seat}）は、この手番を含めて{n}回の手番のうちに"
                     "勝てます。選択肢: {options}"),
    "puzzle.prompt": ("your answer", "答え"),
    "puzzle.right": ("Right! The winning line: {line}", "正解！ 勝ち筋: {line}"),
    "puzzle.wrong": ("Not this one: {why}.", "不正解: {why}。"),
    "puzzle.ends": ("{wrong!r} ends the game, and not with your win",
                    "{wrong!r} でゲームは終わりますが、あなたの勝ちではありません"),
    "puzzle.holds": ("after {wrong!r} the others can hold out past your turn {n}: only {answer!r} "
                     "wins in {n}",
                     "{wrong!r} の後は、相手があなたの{n}回目の手番より後まで持ちこたえられます。"
                     "{n}回以内に勝てるのは {answer!r} だけです"),
    "puzzle.streak": ("streak: {n}", "連続正解: {n}"),
    "puzzle.no_answer": ("No answer given: the puzzle is left unsolved and the streak stays as "
                         "it was.", "答えがありません: パズルは解かれないまま、連続正解の記録も"
                                   "そのままです。"),
    "autosave_created": ("Created the folder {dir} for the records of finished games.",
                         "終わったゲームの棋譜を保存するフォルダ {dir} を作りました。"),
    "unfinished": ("Game left unfinished after {n} moves.", "ゲームは{n}手で未完了のまま終了しました。"),
    "kept_unfinished": ("Its record is in {file}: go on with 'spaghetti play --load {file}'.",
                        "棋譜は {file} にあります。続きは 'spaghetti play --load {file}' で。"),
    "won.elimination": ("{p} wins: every other player was eliminated.",
                        "{p}の勝ち: ほかのプレイヤーが全員脱落しました。"),
    "won.stalemate": ("{p} wins by the stalemate tie-break (the position repeated).",
                      "{p}の勝ち: 局面が繰り返したため、膠着状態の判定で勝ちました。"),
    "draw": ("The game is a draw.", "引き分けです。"),
    "seat_is_computer": ("{p} (computer)", "{p}（コンピュータ）"),
    "opt.place": ("on {card}: {text}", "{card}に置く: {text}"),
    "opt.pass": ("do not run the command", "コマンドを実行しない"),
    "opt.run": ("run {card}: {text}", "{card}を実行: {text}"),
    "opt.done": ("stop choosing", "選択を終える"),
    "opt.declare": ("declare a stalemate ({p} would win)", "膠着状態を宣言（{p}の勝ちになる）"),
    "opt.card": ("{card}", "{card}"),
    "opt.flag": ("{owner}'s flag on {card}", "{card}の{owner}のフラグ"),
    "opt.flag_head": ("{owner}'s flag on {card} (head)", "{card}の{owner}のフラグ（先頭）"),
    "opt.to": ("to {card}", "{card}へ"),
    "opt.at": ("to position {n}", "位置{n}へ"),
    "opt.player": ("{player} (life {life})", "{player}（ライフ{life}）"),
    "opt.param": ("{card}: parameter {i} (now {v})", "{card}: パラメータ{i}（現在{v}）"),
    "nonempty_program": ("(no cards left)", "(カードがありません)"),
}


# The words of Battle of the Spaghetti Monsters' table: islands, inhabitants, a wizard, magic,
# blessings and curses (SPEC section 5). Only the strings that differ.
_MONSTER_STRINGS: dict[str, tuple[str, str]] = {
    "phase.setup": ("preparation", "準備フェーズ"),
    "phase.placement": ("placing inhabitants", "島民の配置フェーズ"),
    "phase.execution": ("the wizard's tour", "魔術師の巡回フェーズ"),
    "program": ("Islands", "島"),
    "cursor": ("wizard", "魔術師"),
    "running": ("casting", "発動中"),
    "head_note": ("inhabitants head first  ·  < has the turn  ·  * yet to act in this visit",
                  "島民は先頭から  ·  < 手番の島民  ·  * この訪問でまだ手番が来る"),
    "col.on_cards": ("on islands", "島"),
    "chips": ("Chip supply: Blessing {inc} · Curse {dec}", "チップの山: 祝福 {inc} · 呪い {dec}"),
    "decide.place": ("{p}: place an inhabitant on an island without one of yours ({n} left).",
                     "{p}: 自分の島民がまだいない島に島民を置く(残り{n}人)。"),
    "decide.turn": ("{p}'s inhabitant may ask the wizard for the magic of {card}: cast or pass.",
                    "{p}の島民の手番です（{card}）: 魔法を発動するかパスするか。"),
    "decide.card": ("{p} is casting {card}: choose an island.", "{p}が{card}を発動中: 島を選ぶ。"),
    "decide.flag": ("{p} is casting {card}: choose an inhabitant.",
                    "{p}が{card}を発動中: 島民を選ぶ。"),
    "decide.to": ("{p} is casting {card}: choose where the inhabitant goes.",
                  "{p}が{card}を発動中: 島民の移動先を選ぶ。"),
    "decide.at": ("{p} is casting {card}: choose the island's new position.",
                  "{p}が{card}を発動中: 島の新しい位置を選ぶ。"),
    "decide.player": ("{p} is casting {card}: choose a Spaghetti Monster.",
                      "{p}が{card}を発動中: スパモンを選ぶ。"),
    "decide.param": ("{p} is casting {card}: choose a number in brackets.",
                     "{p}が{card}を発動中: 角括弧の数値を選ぶ。"),
    "decide.take": ("{p}: take one of the face-down hidden magic cards.",
                    "{p}: 伏せられた伏せ魔法カードを1枚取る。"),
    "decide.open": ("{p}: place an inhabitant on the open island {card}, or pass.",
                    "{p}: 開いた島{card}に島民を置くか、パスする。"),
    "decide.interrupt": ("{p} (out) may interrupt: add an inhabitant to an island, or pass.",
                         "{p}（脱落）: インタラプトで島に島民を追加するか、パスする。"),
    "instant_line": ("Hidden magic: {cards}", "伏せ魔法: {cards}"),
    "opt.pass": ("do not cast the magic", "魔法を発動しない"),
    "opt.run": ("cast {card}: {text}", "{card}を発動: {text}"),
    "opt.flag": ("{owner}'s inhabitant on {card}", "{card}の{owner}の島民"),
    "opt.flag_head": ("{owner}'s inhabitant on {card} (head)", "{card}の{owner}の島民（先頭）"),
    "opt.instant": ("cast your hidden magic {card} here: {text}",
                    "ここで伏せ魔法「{card}」を発動: {text}"),
    "opt.interrupt": ("interrupt: an inhabitant to {card}", "インタラプト: {card}に島民"),
    "opt.icard": ("{p}'s hidden magic", "{p}の伏せ魔法"),
    "opt.iparam": ("{p}'s hidden magic: number {i} (now {v})", "{p}の伏せ魔法: 数値{i}（現在{v}）"),
    "opt.param": ("{card}: number {i} (now {v})", "{card}: 数値{i}（現在{v}）"),
    "nonempty_program": ("(no islands left)", "(島がありません)"),
}
# The Nightmare notes: flags are bits, the cursor is the PC, life is HP.
_NIGHTMARE_STRINGS: dict[str, tuple[str, str]] = {
    "head_note": ("bits head first  ·  < has the turn  ·  * yet to act in this visit",
                  "ビットは先頭から  ·  < 手番のビット  ·  * この訪問でまだ手番が来る"),
    "col.life": ("HP", "HP"),
    "decide.place_any": ("{p}: place a bit on any card ({n} left to place).",
                         "{p}: 任意のカードにビットを置く(残り{n}個)。"),
    "decide.place": ("{p}: place a bit on a card without one of yours ({n} left to place).",
                     "{p}: 自分のビットがないカードにビットを置く(残り{n}個)。"),
    "decide.turn": ("{p}'s bit has the turn on {card}: run it or pass.",
                    "{p}のビットの手番です（{card}）: 実行するかパスするか。"),
    "decide.flag": ("{p} is running {card}: choose a bit.", "{p}が{card}を実行中: ビットを選ぶ。"),
    "decide.to": ("{p} is running {card}: choose where the bit goes.",
                  "{p}が{card}を実行中: ビットの移動先を選ぶ。"),
    "decide.at": ("{p} is running {card}: choose the card's new place.",
                  "{p}が{card}を実行中: カードの新しい位置を選ぶ。"),
    "decide.param": ("{p} is running {card}: choose an Arabic numeral.",
                     "{p}が{card}を実行中: アラビア数字を選ぶ。"),
    "opt.flag": ("{owner}'s bit on {card}", "{card}の{owner}のビット"),
    "opt.flag_head": ("{owner}'s bit on {card} (head)", "{card}の{owner}のビット（先頭）"),
    "opt.player": ("{player} (HP {life})", "{player}（HP {life}）"),
}
_VOCABULARIES = {"code": {}, "monsters": _MONSTER_STRINGS, "nightmare": _NIGHTMARE_STRINGS}


class Lang(str):
    """A language code (``"en"``, ``"ja"``) that also knows the vocabulary of the game on the
    table (``"code"``: cards, flags, a cursor; ``"monsters"``: islands, inhabitants, a wizard).
    It compares equal to its code, so it goes wherever a language code goes."""

    vocabulary = "code"

    def __new__(cls, code: str, vocabulary: str = "code") -> Lang:
        lang = super().__new__(cls, code)
        lang.vocabulary = vocabulary
        return lang


def lang_for(lang: str, state: State) -> Lang:
    """The language ``lang`` speaking the vocabulary of ``state``'s game."""
    return Lang(str(lang), state.game.rules.vocabulary)


def t(key: str, lang: str = "en", **kwargs) -> str:
    """A UI string in a language (and the vocabulary a :class:`Lang` carries), formatted with
    ``kwargs``."""
    words = _VOCABULARIES[getattr(lang, "vocabulary", "code")]
    en, ja = words.get(key) or _STRINGS[key]
    text = ja if lang == "ja" else en
    return text.format(**kwargs) if kwargs else text


def colour(seat: int, lang: str = "en") -> str:
    """A seat's colour name: Red, Blue, ... / 赤, 青, ..."""
    en, ja, _, _ = COLOURS[seat % len(COLOURS)]
    return ja if lang == "ja" else en


def style(seat: int) -> str:
    """The rich style of a seat's colour."""
    return COLOURS[seat % len(COLOURS)][3]


def mark(seat: int, lang: str = "en") -> str:
    """A seat's short mark on a card: R B G Y P / 赤 青 緑 黄 紫."""
    return COLOURS[seat % len(COLOURS)][1 if lang == "ja" else 2]


def card_name(state: State, index: int, lang: str = "en") -> str:
    """A card's name; with its index when the program holds that kind more than once."""
    kind = state.kinds[index]
    name = kind.display_name(lang)
    if sum(1 for k in state.kinds if k is kind) > 1:
        name = f"{name}#{index}"
    return name


def _q(name: str, lang: str) -> str:
    return f"「{name}」" if lang == "ja" else name


def option_label(state: State, option: str, lang: str = "en") -> str:
    """A few words saying what an option of ``state.legal()`` targets (for a numbered menu)."""
    lang = lang_for(lang, state)
    action = N.parse(option)
    kind = N.kind(action)
    if kind == N.PLACE:
        c = N.argument(action)
        return t("opt.place", lang, card=_q(card_name(state, c, lang), lang),
                 text=state.kinds[c].text_for(state.vals[c], lang))
    if action == N.PASS:
        return t("opt.pass", lang)
    if action == N.RUN:
        c = state.cursor
        return t("opt.run", lang, card=_q(card_name(state, c, lang), lang),
                 text=state.kinds[c].text_for(state.vals[c], lang))
    if action == N.DONE:
        return t("opt.done", lang)
    if action == N.DECLARE:
        return t("opt.declare", lang, p=colour(state.tiebreak_winner(), lang))
    if kind == N.CARD:
        return t("opt.card", lang, card=_q(card_name(state, N.argument(action), lang), lang))
    if kind == N.FLAG:
        c, k = N.pair(action)
        key = "opt.flag_head" if k == 0 else "opt.flag"
        return t(key, lang, owner=colour(state.owners(c)[k], lang),
                 card=_q(card_name(state, c, lang), lang))
    if kind == N.TO:
        return t("opt.to", lang, card=_q(card_name(state, N.argument(action), lang), lang))
    if kind == N.AT:
        return t("opt.at", lang, n=N.argument(action))
    if kind == N.PLAYER:
        s = N.argument(action)
        return t("opt.player", lang, player=colour(s, lang), life=state.lives[s])
    if kind == N.PARAM:
        c, i = N.pair(action)
        return t("opt.param", lang, card=_q(card_name(state, c, lang), lang), i=i,
                 v=state.vals[c][i])
    if kind == N.COIN:
        return t("opt.coin_head" if N.argument(action) == 0 else "opt.coin_tail", lang)
    if kind == N.INTERRUPT:
        return t("opt.interrupt", lang, card=_q(card_name(state, N.argument(action), lang), lang))
    if kind == N.TAKE:
        return t("opt.take", lang, n=N.argument(action))
    if kind == N.SEAT:
        return t("opt.seat_first" if N.argument(action) == 0 else "opt.seat_second", lang)
    if kind == N.ARRANGE:
        card = next(c for c in state.to_arrange if N.arrange(c.name) == action)
        return t("opt.arrange", lang,
                 card=f"{card.display_name(lang)}: {card.text_for(None, lang)}")
    if action == N.INSTANT:  # only the seat to move sees its own options
        assert state.to_move is not None, "an instant card is played by the seat to move"
        held = state.instant[state.to_move]
        values = tuple(p + m for p, m in zip(held[0].params, held[1]))
        return t("opt.instant", lang, card=held[0].display_name(lang),
                 text=held[0].text_for(values, lang))
    if kind == N.ICARD:
        return t("opt.icard", lang, p=colour(N.argument(action), lang))
    if kind == N.IPARAM:
        s, i = N.pair(action)
        held = state.instant[s]
        return t("opt.iparam", lang, p=colour(s, lang), i=i, v=held[0].params[i] + held[1][i])
    return option


# ---------------------------------------------------------------------- describe

_EN = {
    "place": "{p} placed a flag on {card}.",
    "pass": "{p} passed on {card}.",
    "run": "{p} runs {card}.",
    "ran": "{p} ran {card}: {what}.",
    "done": "{p} stopped choosing targets for {card}.",
    "declare": "{p} declared a stalemate.",
    "arrange": "{p} laid out {card} as card {n}.",
    "seat": "{p} chose to play {which}.",
    "first": "first",
    "second": "second",
    "take": "{p} took face-down instant card {n}.",
    "open_pass": "{p} passed on the open card {card}.",
    "interrupt": "{p} interrupted: a flag to {card}.",
    "interrupt_pass": "{p} did not interrupt.",
    "instant": "{p} runs the instant card {card} on {dst}.",
    "out": " {who} is out.",
    "wins": " {who} wins ({how}).",
    "how.elimination": "elimination",
    "how.stalemate": "stalemate",
    "how.height": "life reached the height that wins",
    "coin": "The coin says {side}: this visit walks the queue from the {side}.",
    "join": "; ",
}
_JA = {
    "place": "{p}が{card}にフラグを置いた。",
    "pass": "{p}は{card}をパスした。",
    "run": "{p}が{card}を実行する。",
    "ran": "{p}が{card}を実行: {what}。",
    "done": "{p}は{card}の対象選択を終えた。",
    "declare": "{p}が膠着状態を宣言した。",
    "arrange": "{p}が{card}を{n}番目に並べた。",
    "seat": "{p}は{which}を選んだ。",
    "first": "先手",
    "second": "後手",
    "take": "{p}が伏せ札{n}の即時コマンドカードを取った。",
    "open_pass": "{p}は開いたカード{card}をパスした。",
    "interrupt": "{p}がインタラプト: {card}にフラグ。",
    "interrupt_pass": "{p}はインタラプトしなかった。",
    "instant": "{p}が{dst}で即時コマンドカード{card}を実行する。",
    "out": "{who}が脱落。",
    "wins": "{who}の勝ち（{how}）。",
    "how.elimination": "全員脱落",
    "how.stalemate": "膠着状態",
    "how.height": "ライフが勝利の値に到達",
    "coin": "コイントス: この訪問は列の{side}から実行する。",
    "join": "、",
}


_MONSTER_EN = {
    "place": "{p} placed an inhabitant on {card}.",
    "run": "{p} casts {card}.",
    "ran": "{p} cast {card}: {what}.",
    "take": "{p} took face-down hidden magic {n}.",
    "open_pass": "{p} passed on the open island {card}.",
    "interrupt": "{p} interrupted: an inhabitant to {card}.",
    "instant": "{p} casts the hidden magic {card} on {dst}.",
    "arrange": "{p} laid out {card} as island {n}.",
}
_MONSTER_JA = {
    "place": "{p}が{card}に島民を置いた。",
    "run": "{p}が{card}を発動する。",
    "ran": "{p}が{card}を発動: {what}。",
    "take": "{p}が伏せ札{n}の伏せ魔法を取った。",
    "open_pass": "{p}は開いた島{card}をパスした。",
    "interrupt": "{p}がインタラプト: {card}に島民。",
    "instant": "{p}が{dst}で伏せ魔法{card}を発動する。",
    "arrange": "{p}が{card}を{n}番目の島として並べた。",
}


_NIGHTMARE_EN = {
    "place": "{p} placed a bit on {card}.",
}
_NIGHTMARE_JA = {
    "place": "{p}が{card}にビットを置いた。",
}
_EXTRA_WORDS = {"monsters": (_MONSTER_EN, _MONSTER_JA), "nightmare": (_NIGHTMARE_EN, _NIGHTMARE_JA)}


def _words(lang: str) -> dict:
    """The sentence templates of :func:`describe` for a language and its vocabulary: the
    sentences of the table here, and each primitive's own (spaghetti.core.primitives)."""
    code = "ja" if lang == "ja" else "en"
    vocabulary = getattr(lang, "vocabulary", "code")
    base = _JA if code == "ja" else _EN
    extra = _EXTRA_WORDS.get(vocabulary)
    own = extra[1] if extra and code == "ja" else extra[0] if extra else {}
    return {**base, **own, **words_for(code, vocabulary)}


def _by_themselves(before: State, after: State, w: dict, lang: str,
                   chosen: int | None = None) -> list[str]:
    """What steps that need no choice did between two states: the cursor reversed, lives
    changed (but the life of the ``chosen`` player, which the choice itself describes)."""
    what = []
    if after.direction != before.direction:
        what.append(w["reverse"].format(dir=w["fwd"] if after.direction > 0 else w["bwd"]))
    for s, (a, b) in enumerate(zip(before.lives, after.lives)):
        if a != b and s != chosen:
            self_ = "_self" if s == before.to_move else ""
            key = ("damage" if b < a else "heal") + self_
            what.append(w[key].format(who=colour(s, lang), n=abs(a - b)))
    return what


def describe(before: State, option: str, lang: str = "en", by: int | None = None) -> str:
    """A sentence in words for playing ``option`` (one of ``before.legal()``) in ``before``.

    ``before`` is not changed. Raises :class:`~spaghetti.IllegalOptionError` if the option is
    not legal there. ``by``: the seat that chose it, when not the seat to move (C9 ``manual``:
    any player still in the game may declare a stalemate at a repeated position).
    """
    lang = lang_for(lang, before)
    w = _words(lang)
    after = before.copy()
    after.apply(option)
    action = N.parse(option)
    kind = N.kind(action)
    actor = before.to_move if by is None else by
    p = colour(actor, lang) if actor is not None else "?"

    def cname(state: State, i: int) -> str:
        return _q(card_name(state, i, lang), lang)

    run = before.running_card
    if run is not None:
        running = cname(before, run)
    else:  # no card during the arrangement of the program (fair first player)
        running = cname(before, before.cursor) if before.cursor < len(before.kinds) else ""
    what: list[str] = []
    if kind == N.PLACE:
        text = w["place"].format(p=p, card=cname(before, N.argument(action)))
    elif kind == N.COIN:
        side = ("head", "tail") if lang != "ja" else ("先頭", "末尾")
        text = w["coin"].format(side=side[N.argument(action)])
    elif kind == N.ARRANGE:
        # With sequential open, A lays the cards face down: the words must not say which.
        card = cname(after, len(before.kinds)) if not before.game.option("sequential_open") \
            else ("伏せたカード" if lang == "ja" else "a face-down card")
        text = w["arrange"].format(p=p, card=card, n=len(before.kinds))
    elif kind == N.SEAT:
        text = w["seat"].format(p=p, which=w["first" if N.argument(action) == 0 else "second"])
    elif kind == N.TAKE:
        text = w["take"].format(p=p, n=N.argument(action))
    elif kind == N.INTERRUPT:
        text = w["interrupt"].format(p=p, card=cname(before, N.argument(action)))
    elif action == N.PASS and before.deciding == "interrupt":
        text = w["interrupt_pass"].format(p=p)
    elif action == N.PASS and before.deciding == "open":
        text = w["open_pass"].format(p=p, card=cname(before, before.opened - 1))
    elif action == N.INSTANT:
        assert actor is not None, "an instant card is played by the seat to move"
        held = before.instant[actor]
        text = w["instant"].format(p=p, card=_q(held[0].display_name(lang), lang),
                                   dst=cname(before, before.cursor))
    elif action == N.PASS:
        text = w["pass"].format(p=p, card=cname(before, before.cursor))
    elif action == N.DECLARE:
        text = w["declare"].format(p=p)
    elif action == N.DONE:
        text = w["done"].format(p=p, card=running)
    elif action == N.RUN:
        # Steps that happen by themselves (Reverse; ForkBomb with damage 0; a custom card's
        # damage_self, heal_self) resolve at run.
        what.extend(_by_themselves(before, after, w, lang))
        what.extend(w[step.prim.run_word] for step in before.kinds[before.cursor].effect
                    if step.prim.run_word)
        if sum(after.removed) > sum(before.removed):
            what.append(w["bomb_flag"])
        if what:
            text = w["ran"].format(p=p, card=running, what=w["join"].join(what))
        else:
            text = w["run"].format(p=p, card=running)
    else:
        assert before.choosing is not None  # (every other decision is described above)
        step_words, whole = PRIMITIVES[before.choosing].tell(Telling(
            before, after, action, w, actor, p, running, cname, lambda s: colour(s, lang),
            lambda s: t("opt.icard", lang, p=colour(s, lang))))
        if whole:
            return step_words
        what.append(step_words)
        # A custom card's later steps may follow by themselves.
        what.extend(_by_themselves(before, after, w, lang,
                                   N.argument(action) if kind == N.PLAYER else None))
        text = w["ran"].format(p=p, card=running, what=w["join"].join(what) or option)
    # Eliminations and the end of the game.
    for seat in range(before.players):
        if before.alive[seat] and not after.alive[seat]:
            text += w["out"].format(who=colour(seat, lang))
    if after.is_over and after.winner is not None:
        text += w["wins"].format(who=colour(after.winner, lang), how=w[f"how.{after.reason}"])
    return text


def describe_game(first: State, options: list[str], lang: str = "en") -> list[str]:
    """Sentences for a sequence of options played from ``first`` (which is not changed)."""
    state = first.copy()
    lines = []
    for option in options:
        lines.append(describe(state, option, lang))
        state.apply(option)
    return lines
