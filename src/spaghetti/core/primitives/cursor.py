"""Primitives on the cursor and on what runs: reverse, call, jump, and the commands a card runs
as its own (Memory's recall, the Nightmare notes' copies)."""

from __future__ import annotations

from .. import notation as N
from ..codes import CARD_ID
from ..flags import PENDING
from .base import Board, CardType, Primitive, Step, Telling


class Reverse(Primitive):
    name = "reverse"
    undoable = True
    words = {
        "en": {"reverse": "the cursor now walks {dir}", "fwd": "forward", "bwd": "backward"},
        "ja": {"reverse": "カーソルの向きが{dir}になった", "fwd": "順方向", "bwd": "逆方向"},
        "monsters/en": {"reverse": "the wizard now tours {dir}"},
        "monsters/ja": {"reverse": "魔術師の向きが{dir}になった"},
        "nightmare/en": {"reverse": "the PC now runs {dir}"},
        "nightmare/ja": {"reverse": "PCの向きが{dir}になった"},
    }

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        board.direction = -board.direction


class Call(Primitive):
    """Subroutine (Pasta Logic): the cursor visits a card near this one and comes back (C16)."""

    name = "call"
    chooses = "card"
    needs_amount = True
    takes_count = False
    nests = True
    words = {
        "en": {"call": "the cursor visits {dst} for a while"},
        "ja": {"call": "カーソルが一時的に{dst}へ移動した"},
    }

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        """A card within ``amount`` places before or after this one, counted round the program,
        not this one nor any card whose visit waits for a call (C16)."""
        here = board.this_index()
        if here < 0:
            return []
        n = len(board.queues)
        reach = step.amount_of(vals)
        waiting = {u for u in board.calls if type(u) is int}
        near = {(here + d) % n for d in range(-reach, reach + 1) if d}
        return [CARD_ID[i] for i in sorted(near) if i != here and board.uids[i] not in waiting]

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        """C4: a call changes the game only through what the called card holds: flags, which
        get their turns, or chips, which go back as the cursor leaves it (C17); or when Memory
        remembers the arrival (C11). A call to an empty card comes back to the same position."""
        targets = self.targets(board, step, vals)
        if board.memory_on:
            return bool(targets)
        return any(board.queues[t & 0xFFFF] or board.temp_chips and any(board.mods[t & 0xFFFF])
                   for t in targets)

    def choose(self, board: Board, step: Step, action: int) -> bool:
        """The cursor visits the card (a full visit, C1), then comes back to finish the visit
        of the card it left."""
        c = action & 0xFFFF
        board.chosen = board.chosen | {board.uids[c]}
        board.calls += (board.uids[board.cursor],)
        board.cursor = c
        board.arrive()
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        return t.words["call"].format(dst=t.card(t.before, N.argument(t.action))), False


class Jump(Primitive):
    """JUMP (Nightmare): the cursor jumps to a card far enough away; run from its own card, the
    first jump fixes the destination (N6)."""

    name = "jump"
    chooses = "card"
    needs_amount = True
    takes_count = False
    delays = True
    automatic = True
    words = {
        "en": {"jump": "the cursor jumps to {dst}"},
        "ja": {"jump": "カーソルが{dst}へジャンプした"},
        "nightmare/en": {"jump": "the PC jumps to {dst}"},
        "nightmare/ja": {"jump": "PCが{dst}へジャンプした"},
    }

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        """A card at least ``amount`` places from the cursor's, counted round the program."""
        n = len(board.queues)
        reach = step.amount_of(vals)
        c = board.cursor
        return [CARD_ID[i] for i in range(n) if min((i - c) % n, (c - i) % n) >= reach
                and i != c]

    @staticmethod
    def _own(board: Board) -> bool:
        """Is this JUMP run from its own card (not a copy, N6)?"""
        this = board.this_uid
        return board.first_cmd and this in board.uids and \
            board.kinds[board.uids.index(this)] is board.cmd

    def resolve(self, board: Board, step: Step) -> bool:
        """With its destination fixed, the cursor jumps there without a choice."""
        if not self._own(board):
            return False
        target = dict(board.jumps).get(board.this_uid)
        if target is None or target not in board.uids:
            return False
        self._jump(board, board.uids.index(target))
        return True

    def choose(self, board: Board, step: Step, action: int) -> bool:
        c = action & 0xFFFF
        board.chosen = board.chosen | {board.uids[c]}
        self._jump(board, c)
        return False

    def _jump(self, board: Board, i: int) -> None:
        """The visit of the cursor's card ends, the flags on their way arrive, and card i is
        visited afresh when the command is over (N6)."""
        c = board.cursor
        board.queues[c] = tuple([code & ~PENDING for code in board.queues[c]])
        if self._own(board):  # the destination is fixed from now on
            this = board.this_uid
            board.jumps = tuple((j, t) for j, t in board.jumps if j != this) + \
                ((this, board.uids[i]),)
        board.land()
        board.cursor = i
        board.rearrive = True
        board.forget_key()

    def tell(self, t: Telling) -> tuple[str, bool]:
        return t.words["jump"].format(dst=t.card(t.before, N.argument(t.action))), False


class Recall(Primitive):
    """Memory (C11): the command is the remembered cards' commands. The state runs them when the
    card starts (they are known only then), so the step itself does nothing."""

    name = "recall"
    custom = False
    recalls = True
    runs_others = True

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        pass


def _is_copy(card: CardType) -> bool:
    return any(s.prim.runs_others and not s.prim.recalls for s in card.effect)


class _Copy(Primitive):
    """The Nightmare notes' copies: other cards' commands run next, as if written on this card,
    with their current values; "this card" stays this one (SPEC 6)."""

    runs_others = True

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        """The copied cards, by their signed distance from this card in the direction at the
        start of the run; they run in the order the direction gives as each runs. A copy card
        copied already in this run does nothing (so copies end)."""
        this = board.this_uid
        if this not in board.uids:
            return
        n = len(board.queues)
        here = board.uids.index(this)
        commands = []
        for offset in self.offsets(step, vals, n, board.run_dir):
            i = (here + offset) % n
            kind = board.kinds[i]
            if i == here or (board.uids[i] in board.copied and _is_copy(kind)):
                continue
            if _is_copy(kind):
                board.copied = board.copied | {board.uids[i]}
            commands.append((offset, kind, board.vals[i]))
        if commands:
            board.queue_copies(commands)


class CopyAhead(_Copy):
    """MIMIC: the ``amount`` cards ahead, nearest first (N11: each other card at most once,
    however high the number has been raised)."""

    name = "copy_ahead"
    needs_amount = True
    fixed_targets = True

    def offsets(self, step: Step, vals: tuple[int, ...], n: int, d: int) -> list[int]:
        return [d * j for j in range(1, min(step.amount_of(vals), n - 1) + 1)]


class CopyBehind(_Copy):
    """ECHO: the ``amount`` cards behind."""

    name = "copy_behind"
    needs_amount = True
    fixed_targets = True

    def offsets(self, step: Step, vals: tuple[int, ...], n: int, d: int) -> list[int]:
        return [-d * j for j in range(1, min(step.amount_of(vals), n - 1) + 1)]


class CopyNext(_Copy):
    """FLOAT's second half: the card next in the direction from where this card now is."""

    name = "copy_next"

    def offsets(self, step: Step, vals: tuple[int, ...], n: int, d: int) -> list[int]:
        return [d]
