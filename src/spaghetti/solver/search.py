"""Exact search over :mod:`.fast` positions: depth-first proof-number search (df-pn), with the
stalemate rule C9 folded into the keys so that no value ever leaks between histories.

**What is searched.** The base game has no draws with two players, so a position is a win for
seat 0 or for seat 1, and the question "does seat 0 win?" is an AND/OR proof: seat 0's turns are
OR nodes, seat 1's AND nodes. Placement positions (``("place", queues, index)``) are nodes of
the same search, so a whole game is one proof from the empty board.

**Proof numbers.** Each node carries ``pn`` (how many leaves must still be shown to prove a win of
seat 0, at least) and ``dn`` (the same for a win of seat 1); a proven node has ``(0, INF)`` or
``(INF, 0)``. df-pn (Nagai 2002) always expands the most-proving node, in depth-first form: a
node is searched until its numbers pass thresholds handed down by its parent. A new node starts
at ``(1, n)`` or ``(n, 1)``, where ``n`` estimates the mover's turns from the card under the
cursor (:func:`_estimate`): a MoveFlag turn has many, a Bug turn two. Proof numbers only steer the
search; a node is proven exactly when a proof exists, whatever the estimates.

**Repetition (C9) and the keys.** An *epoch* is a stretch of turns with no irreversible change;
the engine forgets earlier positions at each irreversible change, so a repeated position can
only be one of the current epoch, and it ends the game (``stalemate: auto``), won by the
tie-break winner of that position. The future of a turn position therefore depends on the
position *and the set of positions seen in its epoch*, and that pair is the key of a node.
Equal keys have equal values, so the table is exact: no graph-history interaction, nothing
stored under one history and read under another. A turn that ends an epoch leads to a key with
a history of one position, which is shared by every line that reaches it. Each key strictly
extends its parent's history or lowers lives, supplies or flag counts, so the search graph has
no cycle, and df-pn terminates.

**Dominated turns.** Bug and ForkBomb aimed at the mover's own seat are left out (see
:meth:`~.fast.Model.moves`): the opponent as target is never worse.

**Backends.** The extension ``_csearch`` does the same search in C (the same keys, estimates,
thresholds, child order and node count while its table keeps every entry); it hashes the
history set into 64 bits and bounds its table, replacing the entries that took least work.
``Solver`` uses it when it is built and the model fits it, else the Python code below.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..core.flags import OWNER_SHIFT
from .fast import ADD, END, IRR, MOVE, REMOVE, REV, Model

if TYPE_CHECKING:
    from ._csearch import Core

_csearch: ModuleType | None
try:
    from . import _csearch
except ImportError:  # built without a compiler: the Python search
    _csearch = None

INF = (1 << 28) - 1  #: the proof number of a refuted node
BACKENDS = ("auto", "c", "python")
#: The C table's default size in megabytes: room for a few million positions, plenty for the
#: perfect player and hints; whole programs want more (``spaghetti solve --table-mb``).
TABLE_MB = 128


#: Seconds between two calls of a search's progress callback.
PROGRESS_EVERY = 0.2


class Timeout(Exception):
    """The time limit or the node budget was reached before the value was proven.
    :func:`.api.solve` says how far it got: ``nodes`` searched in ``seconds``."""

    nodes = 0
    seconds = 0.0


@contextmanager
def cycles_left_alone() -> Iterator[None]:
    """The cyclic garbage collector paused for a search. The searches make no reference
    cycles, and a full pass of the collector over their tables (millions of tuples) takes a
    tenth of the time searched so far, during which no deadline is looked at. Afterwards what
    the search made goes to the oldest generation untraversed (frozen and thawed at once: two
    list splices), else the first collection after it would visit all of it at once."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if paused:
            gc.enable()


class Limited:
    """A search's limits, checked by :meth:`_tick` at each position it visits: the deadline
    (a ``time.monotonic()`` value) and the progress callback at every position, since one
    position of a large program can take long, and no count of positions stands for the
    clock; the budget of positions only when the count is a multiple of :attr:`BUDGET_EVERY`,
    so that it stops every backend at the same count."""

    BUDGET_EVERY = 0x4000
    deadline: float | None = None
    on_progress: Callable[[Any], object] | None = None
    max_nodes: int | None = None
    nodes = 0
    _next_progress = 0.0

    def _tick(self) -> None:
        if self.deadline is not None or self.on_progress is not None:
            now = time.monotonic()
            if self.deadline is not None and now > self.deadline:
                raise Timeout()
            if self.on_progress is not None and now >= self._next_progress:
                self._next_progress = now + PROGRESS_EVERY
                self.on_progress(self)
        if (self.max_nodes is not None and not self.nodes & (self.BUDGET_EVERY - 1)
                and self.nodes > self.max_nodes):
            raise Timeout()


def c_unsupported_reason(model: Model) -> str | None:
    """Why the C search cannot take this model, or None if it can."""
    if _csearch is None:
        return "the extension spaghetti.solver._csearch is not built"
    if len(model.kinds) > _csearch.MAX_CARDS:
        return f"the C search covers programs of up to {_csearch.MAX_CARDS} cards"
    if len(model.placement_order) + 2 * model.supply > _csearch.MAX_FLAGS:
        return f"the C search covers up to {_csearch.MAX_FLAGS} flags"
    if len(model.placement_order) > _csearch.MAX_PLACEMENTS:
        return f"the C search covers up to {_csearch.MAX_PLACEMENTS} placements"
    if max(model.life, model.supply) > _csearch.MAX_VALUE:
        return f"the C search covers lives and supplies up to {_csearch.MAX_VALUE}"
    return None


def _estimate(model: Model, pos) -> tuple[int, int]:
    """The proof and disproof numbers of a new node: ``(1, n)`` when seat 0 moves (one good turn
    proves it, all ``n`` must fail to refute it), ``(n, 1)`` when seat 1 does; then the number of
    the side behind in material (twice the lives plus the flags on the cards) is multiplied by
    one plus its deficit."""
    if pos[0] == "place":
        return 1, 1
    queues, cursor, mover, lives, supply = pos
    kind = model.kinds[cursor]
    n = model.n
    total = sum(len(q) for q in queues)
    if kind == MOVE:
        est = 1 + total * (n - 1) // 2
    elif kind == REMOVE:
        est = 1 + total // 2
    elif kind == ADD:
        est = 1 + (n - 1 if supply[mover] else 0)
    else:  # Bug, ForkBomb: pass or hit
        est = 2
    pn, dn = (1, est) if mover == 0 else (est, 1)
    # the material balance: lives count double, flags on the cards once
    ones = sum(1 for q in queues for c in q if c >> OWNER_SHIFT)
    d = 2 * (lives[0] - lives[1]) + total - 2 * ones
    if d < 0:
        pn *= 1 - d
    elif d > 0:
        dn *= 1 + d
    return pn, dn


def _won(seat: int) -> tuple[int, int]:
    """The numbers of a node proven won by ``seat``."""
    return (0, INF) if seat == 0 else (INF, 0)


def _winner(entry) -> int | None:
    """The seat a table entry (or fixed numbers) proves the winner, or None."""
    if entry is None or 0 not in entry[:2]:
        return None
    return 0 if entry[0] == 0 else 1


def _mover(model: Model, pos) -> int:
    return model.placement_order[pos[2]] if pos[0] == "place" else pos[2]


class Solver(Limited):
    """Solves positions of one :class:`~.fast.Model`; its table is kept between calls.

    ``backend``: "c" (the extension; ValueError if it cannot take the model), "python", or
    "auto" (C when it can). ``on_progress(solver)`` is called every 0.2 s by both searches; an
    exception it raises stops the search. ``time_limit``: seconds from now; the search stops
    with :class:`Timeout` when they run out (``deadline``: the same, as a ``time.monotonic()``
    value). ``max_nodes``: a budget of positions, checked every 16,384 by both (the same count,
    so a budget stops both at the same point): past it, :class:`Timeout`. ``table_mb``: the
    size of the C search's table (the Python one grows as needed)."""

    def __init__(self, model: Model, time_limit: float | None = None, on_progress=None,
                 backend: str = "auto", max_nodes: int | None = None,
                 table_mb: int = TABLE_MB):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}")
        self._core: Core | None = None
        if backend != "python":
            reason = c_unsupported_reason(model)
            if reason is None:
                assert _csearch is not None  # else there would be a reason
                self._core = _csearch.Core(model.kinds, model.placement_order, model.life,
                                           model.supply, Timeout, table_mb)
                self._core.max_nodes = max_nodes
            elif backend == "c":
                raise ValueError(reason)
        self.backend = "python" if self._core is None else "c"
        self.model = model
        self.table: dict = {}
        self.nodes = 0
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.on_progress = on_progress
        self.max_nodes = max_nodes
        self._children_cache: dict = {}

    # ---------------------------------------------------------------- public

    @property
    def table_size(self) -> int:
        """Entries in the table."""
        return len(self.table) if self._core is None else self._core.table_size

    def value(self, pos, history=()) -> int:
        """The seat that wins from ``pos`` under perfect play. ``pos`` is a turn position of
        :mod:`.fast` or a placement position (``Model.start()`` and its successors);
        ``history``: the repetition keys of the current epoch before a turn position
        (``Model.rep_key``)."""
        key = self._root(pos, history)
        if not isinstance(key, tuple):
            return key
        if self._core is not None:
            progress = None if self.on_progress is None else self._c_progress
            try:
                return self._core.value(*self._as_call(key), self.deadline, progress)
            finally:
                self.nodes = self._core.nodes
        proven = _winner(self.table.get(key))
        if proven is not None:
            return proven
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200000))
        try:
            pn, dn = self._mid(key, INF, INF)
        finally:
            sys.setrecursionlimit(old)
        return 0 if pn == 0 else 1

    def value_of_choice(self, mover: int, roots) -> tuple[int, int]:
        """The winner of a choice of ``mover`` between ``roots`` (each a turn position and its
        history, or the seat that wins at once), and the index of a root that keeps that value
        for the mover if it wins, else of the root whose refutation took most work.

        The choice is a node of the same df-pn search, above the roots: the middle of a command
        (the flag chosen, the card still to choose), whose outcomes are the turn positions the
        command can lead to. Searching them together proves the choice as soon as one outcome
        is shown to win for the mover, however hard the others are; solving them one by one
        could spend its whole budget refuting the first."""
        keys = []
        nums = []
        for root in roots:
            key = root if isinstance(root, int) else self._root(*root)
            keys.append(key)
            if not isinstance(key, tuple):
                nums.append(_won(key))
                continue
            entry = self._entry(key)
            nums.append(entry[:2] if entry is not None else _estimate(self.model, key[0]))
        if not keys:
            raise ValueError("a choice needs at least one option")
        is_or = mover == 0
        while True:
            best, phi, second, delta, bdelta = _select(nums, is_or)
            if phi == 0 or delta == 0:
                break
            # the root's thresholds are INF: searched until proven
            cth_phi = min(INF, second + second // 4 + 1)
            cth_delta = INF - delta + bdelta
            nums[best] = self._search(keys[best], *((cth_phi, cth_delta) if is_or else
                                                    (cth_delta, cth_phi)))
        winner = mover if phi == 0 else 1 - mover
        if winner == mover:
            return winner, best
        work = [-1 if not isinstance(k, tuple) else (self._entry(k) or (0, 0, 0))[2]
                for k in keys]
        return winner, max(range(len(keys)), key=lambda i: work[i])

    def _search(self, key, thpn: int, thdn: int) -> tuple[int, int]:
        """Search the node ``key`` until its numbers reach the thresholds; its numbers."""
        if self._core is not None:
            progress = None if self.on_progress is None else self._c_progress
            try:
                pn, dn = self._core.search(*self._as_call(key), thpn, thdn, self.deadline,
                                           progress)
            finally:
                self.nodes = self._core.nodes
            return pn, dn
        entry = self.table.get(key)
        if entry is not None and (0 in entry[:2] or entry[0] >= thpn or entry[1] >= thdn):
            return entry[:2]
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200000))
        try:
            return self._mid(key, thpn, thdn)
        finally:
            sys.setrecursionlimit(old)

    def principal_line(self, pos, history=(), limit=400) -> tuple[int, list[str]]:
        """The value and a principal line: the winner's proven turns, and for the loser the
        turn whose refutation took the most work (the stiffest resistance the search met)."""
        winner = self.value(pos, history)
        key = self._root(pos, history)
        line: list[str] = []
        while isinstance(key, tuple) and len(line) < limit:
            mover = _mover(self.model, key[0])
            known = []  # (options, fixed, child, winner or None, work)
            for options, fixed, child in self._children(key):
                if fixed is not None:
                    known.append((options, fixed, child, _winner(fixed), -1))
                    continue
                entry = self._entry(child)
                known.append((options, fixed, child, _winner(entry),
                              0 if entry is None else entry[2]))
            if mover == winner:
                # a turn the table proves, else the first one a search proves
                best = next((k for k in known if k[3] == winner), None)
                if best is None:
                    best = next(k for k in known
                                if k[1] is None and self.value(*self._as_call(k[2])) == winner)
            else:  # every turn loses: the one whose refutation the table says took most work
                best = max(known, key=lambda k: k[4])
            line.extend(best[0])
            if best[1] is not None:
                break
            key = best[2]
        return winner, line

    def save_table(self, path: str) -> None:
        """Write the C search's table to ``path`` (gigabytes for a whole program), so that a
        later solver of the same model and table size can go on from it (:meth:`load_table`).
        Written to a temporary file and renamed: an interrupted save leaves no torn table."""
        if self._core is None:
            raise ValueError("only the C search's table can be saved")
        tmp = path + ".tmp"
        self._core.save(tmp)
        os.replace(tmp, path)

    def load_table(self, path: str) -> None:
        """Replace the table by one saved with :meth:`save_table`: every proof and every
        number in it stays valid, since the table is keyed on positions and histories alone.
        ValueError if the file is not a table of this model and table size."""
        if self._core is None:
            raise ValueError("only the C search's table can be loaded")
        self._core.load(path)

    # ---------------------------------------------------------------- keys and children

    def _root(self, pos, history):
        """The key of ``pos`` with ``history``, or the winner if that position is repeated."""
        if pos[0] == "place":
            return (pos, frozenset())
        rk = self.model.rep_key(pos)
        if rk in history:
            return self.model.tiebreak(pos)
        return (pos, frozenset(history) | {rk})

    @staticmethod
    def _as_call(key: tuple) -> tuple[tuple, tuple]:
        pos, hist = key
        if pos[0] == "place":
            return pos, ()
        return pos, tuple(hist - {Model.rep_key(pos)})

    def _entry(self, key):
        """The table's ``(pn, dn, work)`` for a key, or None."""
        if self._core is not None:
            return self._core.entry(*self._as_call(key))
        return self.table.get(key)

    def _children(self, key):
        """``(options, fixed, child)`` for each turn, in the search's order: ``fixed`` is the
        ``(pn, dn)`` of a turn whose outcome is known at once (a game end, a repetition), else
        None and ``child`` is the key the turn leads to."""
        cached = self._children_cache.get(key)
        if cached is not None:
            return cached
        pos, hist = key
        model = self.model
        out: list[tuple[Any, Any, Any]] = []
        if pos[0] == "place":
            for option, child in model.place_moves(pos):
                out.append(((option,), None, self._root(child, ())))
        else:
            for options, tag, res in _ordered(model, pos):
                if tag == END:
                    out.append((options, _won(res), None))
                elif tag == REV:
                    rk = model.rep_key(res)
                    if rk in hist:
                        out.append((options, _won(model.tiebreak(res)), None))
                    else:
                        out.append((options, None, (res, hist | {rk})))
                else:  # a new epoch
                    out.append((options, None, self._root(res, ())))
        if len(self._children_cache) > 100_000:  # a cache, not a table: bounded memory
            self._children_cache.clear()
        self._children_cache[key] = out
        return out

    # ---------------------------------------------------------------- df-pn

    def _mid(self, key, thpn, thdn):
        """Search ``key`` until its numbers reach ``thpn`` or ``thdn``; store and return them."""
        self.nodes += 1
        self._tick()
        start = self.nodes
        model = self.model
        table = self.table
        is_or = _mover(model, key[0]) == 0
        children = self._children(key)
        # the children's numbers, read once: afterwards only the child searched changes (a
        # stale sibling only steers the search; proven numbers never change)
        nums = []
        for _, fixed, child in children:
            if fixed is not None:
                nums.append(fixed)
            else:
                entry = table.get(child)
                nums.append(entry[:2] if entry is not None else _estimate(model, child[0]))
        # In phi/delta form: phi is the mover's number (pn at an OR node, dn at an AND node),
        # the least of the children's deltas; delta is the sum of the children's phis.
        while True:
            best, phi, second, delta, bdelta = _select(nums, is_or)
            thphi, thdelta = (thpn, thdn) if is_or else (thdn, thpn)
            if phi >= thphi or delta >= thdelta:
                break
            # the best child is never a fixed turn here: this node would be proven. The 1+epsilon
            # trick (Pawlewicz and Lew 2007): a child may run a quarter past its sibling's number
            # before the search switches, which saves most re-expansions.
            cth_phi = min(thphi, second + second // 4 + 1)
            cth_delta = thdelta - delta + bdelta
            child = children[best][2]
            nums[best] = self._mid(child, *((cth_phi, cth_delta) if is_or else
                                            (cth_delta, cth_phi)))
        pn, dn = (phi, delta) if is_or else (delta, phi)
        old = table.get(key)
        table[key] = (pn, dn, self.nodes - start + 1 + (old[2] if old is not None else 0))
        return pn, dn

    def _c_progress(self):
        # (called back by the C core only, and only when there is a callback)
        assert self._core is not None and self.on_progress is not None
        self.nodes = self._core.nodes
        self.on_progress(self)


def _select(nums, is_or: bool) -> tuple[int, int, int, int, int]:
    """df-pn's look at a node's children (``nums``: their ``(pn, dn)``), in phi/delta form:
    ``(best, phi, second, delta, bdelta)``. The children's phi is the mover's number (pn at an
    OR node, dn at an AND node) and delta the other one; the node's phi is the least of the
    children's phis, first reached at ``best``, ``second`` the next least; the node's delta is
    the sum of the children's deltas (INF if one is), ``bdelta`` the best child's."""
    best = -1
    phi = second = INF
    delta = bdelta = 0
    for i, (cpn, cdn) in enumerate(nums):
        cphi, cdelta = (cpn, cdn) if is_or else (cdn, cpn)
        delta = INF if cdelta == INF or delta == INF else min(delta + cdelta, INF - 1)
        if best < 0 or cphi < phi:
            if best >= 0:
                second = phi
            best, phi, bdelta = i, cphi, cdelta
        elif cphi < second:
            second = cphi
    return best, phi, second, delta, bdelta


def _ordered(model: Model, pos):
    """The mover's turns, most promising first: a game end won, damage to the opponent, removal
    of the opponent's flags, adding a flag, the reversible turns, losing a flag of one's own, a
    game end lost. The order only breaks ties between equal proof numbers."""
    mover = pos[2]
    opp = 1 - mover
    lives, supply = pos[3], pos[4]
    scored = []
    for options, tag, res in model.moves(pos, self_damage=False):
        if tag == END:
            score = 0 if res == mover else 9
        elif tag == IRR:
            nl, ns = res[3], res[4]
            if nl[opp] < lives[opp]:
                score = 1 if nl[mover] == lives[mover] else 2
            elif nl[mover] < lives[mover]:
                score = 6
            elif ns != supply:
                score = 3
            else:  # a flag removed: the opponent's first
                mine = sum(1 for q in res[0] for c in q if c >> 3 == mover)
                before = sum(1 for q in pos[0] for c in q if c >> 3 == mover)
                score = 2 if mine == before else 5
        else:
            score = 4
        scored.append((score, options, tag, res))
    scored.sort(key=lambda t: t[0])
    return [(o, t, r) for _, o, t, r in scored]
