"""Primitives on flags: add, move, remove, charm, reorder, and the queues all at once."""

from __future__ import annotations

from .. import notation as N
from ..codes import CARD, CARD_ID, FLAG, FLAG_ID, KIND_MASK, TO_ID
from ..flags import MOVED, OWNER_SHIFT, RUNNING
from .base import Board, CardType, Primitive, Step, Telling, unchosen_cards


def _flags(board: Board, step: Step) -> list[int]:
    """The flags a move_flag or remove_flag step may pick next: not on this card with
    ``other``, not moved by this step already (C5), and with ``same_card`` after the first, only
    those on the first one's card."""
    queues = board.queues
    if step.same_card and board.chosen:
        (uid,) = board.chosen
        if uid not in board.uids:
            return []
        focus = board.uids.index(uid)
        return [FLAG_ID[focus][k] for k, c in enumerate(queues[focus]) if not c & MOVED]
    this = board.this_index() if step.other else -1
    return [FLAG_ID[i][k] for i, q in enumerate(queues) if i != this
            for k, c in enumerate(q) if not c & MOVED]


def _flag_elsewhere(board: Board) -> bool:
    """C4 for a step on flags not on this card: is there one (it may go to this card)?"""
    c = board.cursor
    return any(q for i, q in enumerate(board.queues) if i != c)


def _owner(t: Telling, c: int, k: int) -> str:
    return t.colour(t.before.owners(c)[k])


class AddFlag(Primitive):
    name = "add_flag"
    chooses = "card"
    takes_other = True
    keys = frozenset({"head", "later"})
    words = {
        "en": {"add_flag": "added a flag to {dst}",
               "send_flag": "sent a flag to {dst}: it arrives when the cursor moves"},
        "ja": {"add_flag": "{dst}にフラグを追加した",
               "send_flag": "{dst}へフラグを送った（カーソルが動くときに着く）"},
        "monsters/en": {"add_flag": "added an inhabitant to {dst}",
                        "send_flag": "sent an inhabitant to {dst}: it arrives when the wizard "
                                     "moves"},
        "monsters/ja": {"add_flag": "{dst}に島民を追加した",
                        "send_flag": "{dst}へ島民を送った（魔術師が動くときに着く）"},
        "nightmare/en": {"add_flag": "added a bit to {dst}",
                         "send_flag": "sent a bit to {dst}: it arrives when the PC moves"},
        "nightmare/ja": {"add_flag": "{dst}にビットを追加した",
                         "send_flag": "{dst}へビットを送った（PCが動くときに着く）"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return bool(board.supply[board.actor]) and (len(board.queues) > 1 or not step.other)

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        if not board.supply[board.actor]:
            return []  # an effect does as much as it can (C5): no flag left to add
        return unchosen_cards(board, board.this_uid if step.other else -1)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        card = action & 0xFFFF
        board.chosen = board.chosen | {board.uids[card]}
        if step.later:
            board.add_later(card, board.actor)
        else:
            board.add_flag(card, board.actor, step.head)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        step = t.before.cmd.effect[t.before.step_i]
        key = "send_flag" if step.later else "add_flag"
        return t.words[key].format(dst=t.card(t.before, N.argument(t.action))), False


class MoveFlag(Primitive):
    name = "move_flag"
    chooses = "flag"
    then = "to"
    takes_other = True
    words = {
        "en": {"move_flag": "moved {owner}'s flag from {src} to {dst}",
               "pick_flag": "{p} picked {owner}'s flag on {src} to move."},
        "ja": {"move_flag": "{owner}のフラグを{src}から{dst}へ移動した",
               "pick_flag": "{p}が{src}の{owner}のフラグを移動するために選んだ。"},
        "monsters/en": {"move_flag": "moved {owner}'s inhabitant from {src} to {dst}",
                        "pick_flag": "{p} picked {owner}'s inhabitant on {src} to move."},
        "monsters/ja": {"move_flag": "{owner}の島民を{src}から{dst}へ移動した",
                        "pick_flag": "{p}が{src}の{owner}の島民を移動するために選んだ。"},
        "nightmare/en": {"move_flag": "moved {owner}'s bit from {src} to {dst}",
                         "pick_flag": "{p} picked {owner}'s bit on {src} to move."},
        "nightmare/ja": {"move_flag": "{owner}のビットを{src}から{dst}へ移動した",
                         "pick_flag": "{p}が{src}の{owner}のビットを移動するために選んだ。"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return _flag_elsewhere(board) if step.other else len(board.queues) > 1

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        n = len(board.queues)
        if n < 2:
            return []  # no other card to move a flag to
        sel = board.selected
        if sel is not None:  # the destination of the selected flag
            return [TO_ID[i] for i in range(n) if i != sel[0]]
        return _flags(board, step)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        if action & KIND_MASK == FLAG:
            board.selected = (action >> 8 & 0xFF, action & 0xFF)
            board.derived = True
            return True  # the pair goes on with "to N": no done mid-pair
        board.move_flag(board.selected, action & 0xFFFF)
        board.selected = None
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        if N.kind(t.action) == FLAG:
            c, k = N.pair(t.action)
            return t.words["pick_flag"].format(p=t.p, owner=_owner(t, c, k),
                                               src=t.card(t.before, c)), True
        c, k = t.before.selection
        return t.words["move_flag"].format(owner=_owner(t, c, k), src=t.card(t.before, c),
                                           dst=t.card(t.before, N.argument(t.action))), False


class RemoveFlag(Primitive):
    name = "remove_flag"
    chooses = "flag"
    takes_other = True
    keys = frozenset({"same_card"})
    words = {
        "en": {"remove_flag": "removed {owner}'s flag from {src}"},
        "ja": {"remove_flag": "{src}の{owner}のフラグを取り除いた"},
        "monsters/en": {"remove_flag": "removed {owner}'s inhabitant from {src}"},
        "monsters/ja": {"remove_flag": "{src}の{owner}の島民を取り除いた"},
        "nightmare/en": {"remove_flag": "removed {owner}'s bit from {src}"},
        "nightmare/ja": {"remove_flag": "{src}の{owner}のビットを取り除いた"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return _flag_elsewhere(board) if step.other else True

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        return _flags(board, step)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        c, k = action >> 8 & 0xFF, action & 0xFF
        if step.same_card and not board.chosen:
            board.chosen = frozenset((board.uids[c],))
        board.remove_flag(c, k)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        c, k = N.pair(t.action)
        return t.words["remove_flag"].format(owner=_owner(t, c, k),
                                             src=t.card(t.before, c)), False


class Charm(Primitive):
    """CHARM (Nightmare): another player's flag becomes one of the actor's."""

    name = "charm"
    chooses = "flag"
    words = {
        "en": {"charm": "{owner}'s flag on {src} became {p}'s"},
        "ja": {"charm": "{src}の{owner}のフラグが{p}の色になった"},
        "nightmare/en": {"charm": "{owner}'s bit on {src} became {p}'s"},
        "nightmare/ja": {"charm": "{src}の{owner}のビットが{p}の色になった"},
    }

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        actor = board.actor
        if not board.supply[actor]:
            return []  # the actor needs a flag of their own to put there
        return [FLAG_ID[i][k] for i, q in enumerate(board.queues)
                for k, c in enumerate(q) if c >> OWNER_SHIFT != actor]

    def choose(self, board: Board, step: Step, action: int) -> bool:
        """The flag goes back to its owner's supply and one from the actor's supply takes its
        place, with its marks (N3)."""
        card, k = action >> 8 & 0xFF, action & 0xFF
        q = board.queues[card]
        owner, actor = q[k] >> OWNER_SHIFT, board.actor
        board.supply[owner] += 1
        board.on_board[owner] -= 1
        board.take_from_supply(actor)
        board.on_board[actor] += 1
        board.queues[card] = q[:k] + (actor << OWNER_SHIFT | q[k] & 7,) + q[k + 1:]
        board.progress()
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        c, k = N.pair(t.action)
        return t.words["charm"].format(owner=_owner(t, c, k), src=t.card(t.before, c),
                                       p=t.p), False


class Reorder(Primitive):
    """Reorder (Pasta Logic): a card's flags in a new order, one place at a time."""

    name = "reorder"
    chooses = "card"
    then = "flag"
    takes_other = True
    words = {
        "en": {"pick_reorder": "{p} reorders the flags of {dst}.",
               "reorder_flag": "{p} put {owner}'s flag in place {n} on {src}."},
        "ja": {"pick_reorder": "{p}が{dst}のフラグを並び替える。",
               "reorder_flag": "{p}が{src}の{owner}のフラグを{n}番目にした。"},
    }

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        """A card other than this one with two flags or more (of different owners or marks),
        not yet reordered; while one is being reordered, the flag that takes the next place."""
        sel = board.selected if board.cmd is not None else None
        if sel is not None:  # reordering card c: its flags from place k on
            c, k = sel
            return [FLAG_ID[c][j] for j in range(k, len(board.queues[c]))]
        here = board.this_index()
        if here < 0:
            return []
        chosen = board.chosen if board.cmd is not None else ()
        return [CARD_ID[i] for i, (q, u) in enumerate(zip(board.queues, board.uids))
                if i != here and u not in chosen and len(set(q)) > 1]

    def choose(self, board: Board, step: Step, action: int) -> bool:
        if action & KIND_MASK == CARD:
            board.selected = (action & 0xFFFF, 0)
            board.derived = True
            return True  # its flags follow, one place at a time
        c, j = action >> 8 & 0xFF, action & 0xFF
        _, k = board.selected
        q = board.queues[c]
        board.queues[c] = q[:k] + (q[j],) + q[k:j] + q[j + 1:]
        k += 1
        if k < len(q) - 1:  # the last flag takes the last place by itself
            board.selected = (c, k)
            board.offer(FLAG_ID[c][k:len(q)])
            return True
        board.selected = None
        board.chosen = board.chosen | {board.uids[c]}
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        if N.kind(t.action) == CARD:
            return t.words["pick_reorder"].format(
                p=t.p, dst=t.card(t.before, N.argument(t.action))), True
        c, k = N.pair(t.action)
        return t.words["reorder_flag"].format(p=t.p, owner=_owner(t, c, k),
                                              src=t.card(t.before, c),
                                              n=t.before.selection[1] + 1), True


class RemoveRunningFlag(Primitive):
    """ForkBomb's second half: the flag that ran the command leaves the game."""

    name = "remove_running_flag"
    uses_running_flag = True
    words = {
        "en": {"bomb_flag": "the flag that ran it left the game"},
        "ja": {"bomb_flag": "起動したフラグはゲームから取り除かれた"},
        "monsters/en": {"bomb_flag": "the inhabitant who cast it left the game"},
        "monsters/ja": {"bomb_flag": "発動した島民はゲームから取り除かれた"},
        "nightmare/en": {"bomb_flag": "the bit that ran it left the game"},
        "nightmare/ja": {"bomb_flag": "起動したビットはゲームから取り除かれた"},
    }

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        for i, q in enumerate(board.queues):  # if it is still on a card
            for k, c in enumerate(q):
                if c & RUNNING:
                    board.remove_flag(i, k)
                    return


def _others(board: Board) -> list[tuple[int, tuple[int, ...]]]:
    """The indexes and queues of the cards other than this one."""
    here = board.this_index()
    return [(i, q) for i, q in enumerate(board.queues) if i != here]


class ReverseQueues(Primitive):
    """ReversePriority: every other card's queue, head to tail."""

    name = "reverse_queues"
    undoable = True

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return any(q != q[::-1] for _, q in _others(board))

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        for i, q in _others(board):
            board.queues[i] = q[::-1]


class RotateQueues(Primitive):
    """Rotate (Pasta Logic): on every other card the tail flag goes to the head."""

    name = "rotate_queues"
    undoable = True
    run_word = "rotate"
    words = {
        "en": {"rotate": "on every other card the tail flag went to the head"},
        "ja": {"rotate": "ほかのすべてのカードで末尾のフラグが先頭へ移った"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return any(q[-1:] + q[:-1] != q for _, q in _others(board))

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        for i, q in _others(board):
            if len(q) > 1:
                board.queues[i] = q[-1:] + q[:-1]


class Spawn(Primitive):
    """SPAWN (Nightmare): flags of the actor's on their way to this card and the full ones."""

    name = "spawn"
    needs_amount = True
    delays = True

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return bool(board.supply[board.actor])

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        threshold = step.amount_of(vals)
        this = board.this_uid
        for i, (q, uid) in enumerate(zip(board.queues, board.uids)):
            if uid == this or len(q) >= threshold:
                if not board.supply[board.actor]:
                    break
                board.add_later(i, board.actor)
