"""A compact, immutable model of level-1 positions for two players, built for exhaustive search.

The engine (:class:`spaghetti.core.state.State`) is general and mutable; search wants positions
it can hash, share and throw away by the million. This module models the same game for the case
the solver handles (two players, cards of level 1, no expansions, ``stalemate: auto``) and is
checked against the engine by differential tests (same options, same successors, same results).

**A position** is the tuple ``(queues, cursor, mover, lives, supply)`` at a *turn decision* of the
execution phase (a flag has the turn: pass or run):

- ``queues``: a tuple of tuples, one per card in program order; each flag is the engine's code
  ``owner << 3 | marks`` (``PENDING`` = 1: still to get its turn in this visit; ``RUNNING`` = 4:
  the ForkBomb flag holding the turn). Flag identities do not count (C9), so this is exact.
- ``cursor``: the card visited; the direction is always +1 at level 1 (no Reverse).
- ``mover``: the seat whose flag has the turn.
- ``lives``, ``supply``: pairs, one per seat.

The program (the kinds of the cards) never changes at level 1, so it is not in the position.

**Moves are whole turns.** A turn is ``pass``, or ``run`` and all its targets (``run``,
``flag 2.0``, ``to 4``): the same seat makes every choice of a command, and the positions between
them are never checked for repetition (they only repeat if the turn decision before them did), so
treating the turn as one move is exact. Each move says whether it is *reversible* (``pass`` and
MoveFlag: lives, supplies and flag counts unchanged, so the repetition history goes on) or not
(every other command: the history starts afresh, as the engine's ``seen`` set does).
"""

from __future__ import annotations

from ..core.flags import OWNER_SHIFT, PENDING, RUNNING

ADD, MOVE, REMOVE, BUG, FORK = range(5)
KIND_OF = {"AddFlag": ADD, "MoveFlag": MOVE, "RemoveFlag": REMOVE, "Bug": BUG, "ForkBomb": FORK}
CARD_NAMES = {v: k for k, v in KIND_OF.items()}

#: Outcome tags of a move (see :meth:`Model.moves`).
REV, IRR, END = 0, 1, 2

_CLEAR = ~(PENDING | RUNNING)


class Model:
    """The rules of one level-1 program for two players, as pure functions on positions.

    >>> m = Model(["Bug", "MoveFlag", "AddFlag", "RemoveFlag", "ForkBomb"])
    >>> m.kinds
    (3, 1, 0, 2, 4)
    """

    def __init__(self, program, placement_order=(0, 1, 0, 1, 0, 1, 0, 1), life=5, supply=6):
        self.kinds = tuple(KIND_OF[name] for name in program)
        self.n = len(self.kinds)
        self.placement_order = tuple(placement_order)
        self.life = life
        self.supply = supply

    # ---------------------------------------------------------------- placement

    def start(self):
        """The placement position before the first flag: ``("place", queues, index)``."""
        return ("place", ((),) * self.n, 0)

    def place_moves(self, ppos):
        """``(option, next)`` for each placement; ``next`` is a placement position, or the first
        turn position of the execution phase once every flag is placed."""
        _, queues, i = ppos
        seat = self.placement_order[i]
        code = seat << OWNER_SHIFT
        out = []
        for c, q in enumerate(queues):
            if code in q:
                continue
            qs = queues[:c] + (q + (code,),) + queues[c + 1:]
            if i + 1 < len(self.placement_order):
                out.append((f"place {c}", ("place", qs, i + 1)))
            else:
                out.append((f"place {c}", self.begin(qs)))
        return out

    def begin(self, queues):
        """The first turn of the execution phase: the cursor arrives fresh on card 0."""
        qs = list(queues)
        flags = [0, 0]
        for q in qs:
            for code in q:
                flags[code >> OWNER_SHIFT] += 1
        if not flags[0] or not flags[1]:
            raise ValueError("a player has no flag on the cards after placement")
        # No flag is pending yet: the search for one from the last card arrives at card 0 first.
        cursor, mover = self._next_turn(qs, self.n - 1)
        return (tuple(qs), cursor, mover, (self.life, self.life), (self.supply, self.supply))

    # ---------------------------------------------------------------- turns

    def _next_turn(self, qs, c):
        """Give the turn to the next pending flag of card ``c``, or move on to the next card with
        flags and arrive there (C1). Changes the list ``qs``; returns ``(cursor, mover)``."""
        q = qs[c]
        for k in range(len(q)):
            if q[k] & PENDING:
                break
        else:
            n = self.n
            for _ in range(n):
                c = (c + 1) % n
                q = qs[c]
                if q:
                    break
            k = 0
            q = tuple([x | PENDING for x in q])
        code = q[k] ^ PENDING
        if self.kinds[c] == FORK:
            code |= RUNNING
        qs[c] = q[:k] + (code,) + q[k + 1:]
        return c, code >> OWNER_SHIFT

    def _after_command(self, qs, cursor, actor, lives, supply, flags=None):
        """End of a command: check eliminations (C6) after an irreversible one (``flags``: the
        flag counts on the cards after it; None for a reversible one), hand the turn on.
        Marks were cleared by the caller. Returns ``(END, winner)`` or ``(REV|IRR, position)``."""
        if flags is not None:
            out0 = lives[0] <= 0 or not flags[0]
            out1 = lives[1] <= 0 or not flags[1]
            if out0 or out1:
                if out0 and out1:
                    return END, actor  # C8: everyone out by a command other than RemoveCommand
                return END, 1 if out0 else 0
            c, mover = self._next_turn(qs, cursor)
            return IRR, (tuple(qs), c, mover, lives, supply)
        c, mover = self._next_turn(qs, cursor)
        return REV, (tuple(qs), c, mover, lives, supply)

    def moves(self, pos, self_damage=True):
        """Every turn open to the mover: ``(options, tag, result)`` where ``options`` is the tuple
        of option strings the turn plays, and ``result`` is the next turn position (``tag`` REV or
        IRR) or the winning seat (``tag`` END). Turns that lead to the same result are listed
        once.

        ``self_damage=False`` leaves out Bug and ForkBomb aimed at the mover's own seat: they are
        never better than the same command aimed at the opponent. Both give the same queues,
        cursor and supplies with a fresh history, only lives (a-1, b) against (a, b-1); and more
        life for oneself or less for the opponent never hurts: eliminations (C6), the actor rule
        when both are out (C8) and the stalemate tie-break (C9, lives first) all favour the
        player with more life, whatever the play that follows."""
        queues, cursor, mover, lives, supply = pos
        kind = self.kinds[cursor]
        out = []
        seen = set()
        after = self._after_command

        def add(options, res):
            if res not in seen:
                seen.add(res)
                out.append((options, *res))

        n = self.n
        if kind == FORK:  # the turn flag carries RUNNING: pass clears it, run removes it
            q = queues[cursor]
            for k in range(len(q)):
                if q[k] & RUNNING:
                    break
            qs = list(queues)
            qs[cursor] = q[:k] + (q[k] & ~RUNNING,) + q[k + 1:]
            add(("pass",), after(qs, cursor, mover, lives, supply))
            flags = [0, 0]
            for qq in queues:
                for c in qq:
                    flags[c >> OWNER_SHIFT] += 1
            flags[mover] -= 1
            for p in (0, 1) if self_damage else (1 - mover,):
                lv = (lives[0] - 2, lives[1]) if p == 0 else (lives[0], lives[1] - 2)
                qs = list(queues)
                qs[cursor] = q[:k] + q[k + 1:]
                add(("run", f"player {p}"), after(qs, cursor, mover, lv, supply, flags))
            return out
        add(("pass",), after(list(queues), cursor, mover, lives, supply))
        if kind == MOVE:
            if n > 1:
                for c, q in enumerate(queues):
                    for k in range(len(q)):
                        rest = q[:k] + q[k + 1:]
                        code = q[k] & ~PENDING
                        for d in range(n):
                            if d != c:
                                qs = list(queues)
                                qs[c] = rest
                                qs[d] = qs[d] + (code,)
                                add(("run", f"flag {c}.{k}", f"to {d}"),
                                    after(qs, cursor, mover, lives, supply))
            return out
        flags = [0, 0]
        for q in queues:
            for c in q:
                flags[c >> OWNER_SHIFT] += 1
        if kind == BUG:
            for p in (0, 1) if self_damage else (1 - mover,):
                lv = (lives[0] - 1, lives[1]) if p == 0 else (lives[0], lives[1] - 1)
                add(("run", f"player {p}"), after(list(queues), cursor, mover, lv, supply, flags))
        elif kind == ADD:
            if supply[mover] and n > 1:
                sp = (supply[0] - 1, supply[1]) if mover == 0 else (supply[0], supply[1] - 1)
                code = mover << OWNER_SHIFT
                flags[mover] += 1
                for c in range(n):
                    if c != cursor:
                        qs = list(queues)
                        qs[c] = qs[c] + (code,)
                        add(("run", f"card {c}"), after(qs, cursor, mover, lives, sp, flags))
        else:  # REMOVE
            for c, q in enumerate(queues):
                for k in range(len(q)):
                    owner = q[k] >> OWNER_SHIFT
                    left = [flags[0], flags[1]]
                    left[owner] -= 1
                    qs = list(queues)
                    qs[c] = q[:k] + q[k + 1:]
                    add(("run", f"flag {c}.{k}"), after(qs, cursor, mover, lives, supply, left))
        return out

    # ---------------------------------------------------------------- stalemate (C9)

    @staticmethod
    def rep_key(pos):
        """What the repetition check compares (lives and supplies are constant between
        irreversible turns, so they are left out, as in the engine)."""
        return pos[0], pos[1], pos[2]

    def tiebreak(self, pos):
        """C9: the winner of a stalemate declared in this position (both players in the game)."""
        settled = fixed_winner(pos)
        if settled is not None:
            return settled
        queues, cursor = pos[0], pos[1]
        heads = [0, 0]
        for q in queues:
            if q:
                heads[q[0] >> OWNER_SHIFT] += 1
        if heads[0] != heads[1]:
            return 0 if heads[0] > heads[1] else 1
        n = self.n
        for i in range(n):
            q = queues[(cursor + i) % n]
            if q:
                return q[0] >> OWNER_SHIFT
        return 0  # unreachable: both players have flags on the cards


def fixed_winner(pos) -> int | None:
    """The C9 winner of a turn position by its first two criteria alone (lives, then flags on
    the cards), else None. Reversible turns change neither, so it is the winner of every
    stalemate of the position's epoch.

    >>> fixed_winner((((0,), (8,)), 0, 0, (2, 1), (0, 0)))
    0
    >>> fixed_winner((((0, 8), (8,)), 0, 0, (1, 1), (0, 0)))
    1
    >>> fixed_winner((((0,), (8,)), 0, 0, (1, 1), (0, 0))) is None
    True
    """
    queues, _, _, lives, _ = pos
    if lives[0] != lives[1]:
        return 0 if lives[0] > lives[1] else 1
    flags = [0, 0]
    for q in queues:
        for code in q:
            flags[code >> OWNER_SHIFT] += 1
    if flags[0] != flags[1]:
        return 0 if flags[0] > flags[1] else 1
    return None


def from_state(state):
    """The model and position of an engine state at a turn decision of the execution phase, and
    the repetition history: the positions of the current epoch before this one (the engine's
    ``seen`` positions, as :meth:`Model.rep_key`)."""
    model = Model(state.program, state.game.placement_order, state.game.life, state.game.supply)
    pos = (tuple(state.queues), state.cursor, state.to_move, tuple(state.lives),
           tuple(state.supply))
    history = set()
    for key in state.seen_positions:
        ctx = key[0]
        if isinstance(ctx, int):  # a turn decision: (mover, cursor, direction, sig, queues)
            history.add((key[4], key[1], ctx))
    history.discard(Model.rep_key(pos))  # the engine has already noted the current position
    return model, pos, history


def clear_marks(queues):
    """The queues without marks (for display)."""
    return tuple(tuple(c & _CLEAR for c in q) for q in queues)
