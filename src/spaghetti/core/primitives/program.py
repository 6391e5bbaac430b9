"""Primitives on the program's cards: remove, move, swap, float."""

from __future__ import annotations

from .. import notation as N
from ..codes import AT_ID, CARD, CARD_ID, ICARD, ICARD_ID, KIND_MASK
from .base import Board, CardType, Primitive, Step, Telling, unchosen_cards


def _adjacent(board: Board) -> list[int]:
    """KILL_CARD (Nightmare): the card just before or just after this one, not chosen yet."""
    n = len(board.queues)
    here = board.this_index()
    if here < 0 or n < 2:
        return []
    chosen = board.chosen if board.cmd is not None else ()
    return [CARD_ID[i] for i in sorted({(here - 1) % n, (here + 1) % n})
            if i != here and board.uids[i] not in chosen]


class RemoveCard(Primitive):
    name = "remove_card"
    chooses = "card"
    takes_other = True
    keys = frozenset({"adjacent"})
    words = {
        "en": {"remove_card": "removed {dst} and its {n} flag(s)",
               "discard_instant": "discarded {who}'s instant card unseen"},
        "ja": {"remove_card": "{dst}をフラグ{n}本ごと取り除いた",
               "discard_instant": "{who}の即時コマンドカードを伏せたまま破棄した"},
        "monsters/en": {"remove_card": "sank {dst} with its {n} inhabitant(s)",
                        "discard_instant": "discarded {who}'s hidden magic unseen"},
        "monsters/ja": {"remove_card": "{dst}を島民{n}人ごと沈めた",
                        "discard_instant": "{who}の伏せ魔法を伏せたまま破棄した"},
        "nightmare/en": {"remove_card": "removed {dst} and its {n} bit(s)"},
        "nightmare/ja": {"remove_card": "{dst}をビット{n}個ごと取り除いた"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        if step.adjacent:
            return bool(_adjacent(board))
        return len(board.queues) > 1 if step.other else True

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        if step.adjacent:
            return _adjacent(board)
        cards = unchosen_cards(board, board.this_uid if step.other else -1)
        if board.inst_on:  # C12: an unused instant card is a card
            cards += [ICARD_ID[s] for s, held in enumerate(board.instant) if held]
        return cards

    def choose(self, board: Board, step: Step, action: int) -> bool:
        arg = action & 0xFFFF
        if action & KIND_MASK == ICARD:  # C12: discarded unrevealed
            board.instant_leaves(arg, "discarded")
            return False
        board.chosen = board.chosen | {board.uids[arg]}
        board.remove_card(arg)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        arg = N.argument(t.action)
        if N.kind(t.action) == ICARD:
            return t.words["discard_instant"].format(who=t.colour(arg)), False
        return t.words["remove_card"].format(dst=t.card(t.before, arg),
                                             n=len(t.before.owners(arg))), False


class MoveCard(Primitive):
    name = "move_card"
    chooses = "card"
    then = "at"
    takes_other = True
    words = {
        "en": {"move_card": "moved {dst} to position {n}",
               "pick_card": "{p} picked {dst} to move."},
        "ja": {"move_card": "{dst}を位置{n}へ移動した",
               "pick_card": "{p}が{dst}を移動するために選んだ。"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return len(board.queues) > 1

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        n = len(board.queues)
        if n < 2:
            return []  # no other position to move a card to
        sel = board.selected
        if sel is not None:  # the new index of the selected card
            at = board.uids.index(sel)
            return [AT_ID[i] for i in range(n) if i != at]
        return unchosen_cards(board, board.this_uid if step.other else -1)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        if action & KIND_MASK == CARD:
            board.selected = board.uids[action & 0xFFFF]
            board.derived = True
            return True  # the pair goes on with "at N"
        uid = board.selected
        board.move_card(board.uids.index(uid), action & 0xFFFF)
        board.chosen = board.chosen | {uid}
        board.selected = None
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        if N.kind(t.action) == CARD:
            return t.words["pick_card"].format(
                p=t.p, dst=t.card(t.before, N.argument(t.action))), True
        return t.words["move_card"].format(dst=t.card(t.before, t.before.selection),
                                           n=N.argument(t.action)), False


class SwapCard(Primitive):
    """SwapCommand (Pasta Logic): this card and another swap places (C2)."""

    name = "swap_card"
    chooses = "card"
    words = {
        "en": {"swap_card": "swapped {src} and {dst}"},
        "ja": {"swap_card": "{src}と{dst}の位置を入れ替えた"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return len(board.queues) > 1

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        if board.this_uid not in board.uids:
            return []  # this card has left the game: nothing to swap it with
        return unchosen_cards(board, board.this_uid)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        arg = action & 0xFFFF
        board.chosen = board.chosen | {board.uids[arg]}
        board.swap_card(arg)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        return t.words["swap_card"].format(src=t.running,
                                           dst=t.card(t.before, N.argument(t.action))), False


class Float(Primitive):
    """FLOAT (Nightmare): this card swaps places with the one ``amount`` places away."""

    name = "float"
    chooses = "at"
    needs_amount = True
    takes_count = False
    words = {
        "en": {"float": "{src} moved to place {n}"},
        "ja": {"float": "{src}が位置{n}へ移動した"},
    }

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        n = len(board.queues)
        here = board.this_index()
        if here < 0 or n < 2:
            return []
        d = step.amount_of(vals)
        return [AT_ID[i] for i in sorted({(here - d) % n, (here + d) % n}) if i != here]

    def choose(self, board: Board, step: Step, action: int) -> bool:
        board.swap_card(action & 0xFFFF)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        return t.words["float"].format(src=t.running, n=N.argument(t.action)), False


class RemoveThisCard(Primitive):
    """BOMB, CHARM (Nightmare): this card leaves the game with its flags (C3)."""

    name = "remove_this_card"

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        if board.this_uid in board.uids:
            board.remove_card(board.uids.index(board.this_uid))
