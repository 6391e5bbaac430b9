"""Exact level-1 values by epochs: a reachability game wherever the stalemate winner is fixed.

**Epochs.** Call the stretch of play between two irreversible turns an *epoch* (see
:mod:`.fast`: ``pass`` and MoveFlag are reversible, every other command is not). Within an epoch
lives, supplies and each seat's count of flags on the cards never change, and the engine only
compares positions of the current epoch for repetition (C9). The first position ``p0`` of an
epoch has the history ``{p0}`` alone, whatever came before, so its value is a function of the
position: call it the position's *start value*.

**A fixed tie-break winner.** C9 decides a stalemate by (1) most life, (2) most flags on the
cards, then (3) queue heads and (4) the head at the cursor. When lives differ, or lives are equal
and the flag counts differ, (1) or (2) decides, and those are the same at every position of the
epoch: every stalemate in it is won by the same seat ``W`` (:func:`fixed_winner`). Let ``L`` be
the other seat. Then the start value of ``p0`` is the value of a reachability game on the
*epoch graph* ``G`` (the positions reachable from ``p0`` by reversible turns; edges the
reversible turns; *exits* the irreversible turns and game ends, each good for one seat: an
irreversible turn by the start value of the position it leads to):

    ``L`` wins from ``p0`` exactly when ``p0`` is in ``L``'s attractor of the exits good for
    ``L``: the least set ``A`` holding every ``L`` turn position with an exit good for ``L``
    or a turn into ``A``, and every ``W`` turn position all of whose exits are good for ``L``
    and all of whose turns lead into ``A``.

(a) If ``p0`` is in ``A``, give each member its *rank*, the round of the construction that
added it. ``L`` plays a turn to a lower rank or an exit good for ``L``; every turn of ``W``
inside ``A`` leads to a lower rank or an exit good for ``L``. Ranks fall strictly along the
play, so no position of it comes back (``p0`` included, the highest of them): no stalemate
happens, and within at most ``rank(p0)`` turns the play takes an exit good for ``L``.

(b) If ``p0`` is not in ``A``, ``W`` keeps the play out of ``A``: at a ``W`` position outside
``A`` some turn leads out of ``A`` or to an exit good for ``W`` (else the position would be in
``A``), and at an ``L`` position outside ``A`` every turn does. ``G`` is finite, so the play
either takes an exit good for ``W`` or comes back to a position seen before: a stalemate, won by
``W``, since ``W`` wins every stalemate of the epoch.

So the exponential family of (position, history) keys that :mod:`.search` meets inside such an
epoch is replaced by one pass over its positions. The argument also settles every other position
``q`` of ``G`` *as an epoch start* (history ``{q}``): its attractor membership depends only on
the graph reachable from ``q``, which is part of ``G``. It does **not** give the value of ``q``
reached in the middle of the epoch: there the positions already seen are stalemates won by ``W``
if the play comes back to them, so the value is the same attractor computed on ``G`` with those
positions removed (the argument above, with the seen positions as exits good for ``W``), and it
changes with the history. Only epoch starts are history-free.

**Lazily.** Exits are costly (each is a game of its own) and epoch graphs can be large, so
both are taken only as needed. The attractor is computed twice on the part of the graph
explored so far, counting what is not known yet (a position not expanded, an exit not solved)
first against ``L`` and then for ``L``: the first set is part of the true attractor and the
second holds it, so ``p0`` in the first proves ``L``'s win and ``p0`` out of the second proves
``W``'s. In between, lines of play are followed from ``p0`` through the positions still open,
each side taking its most promising turn first, to expand the position or solve the exit
where a line ends; an exit is tried within a budget of positions, raised while every open exit
needs more, so that a hard exit never hides an easy one beside it. The rounds between two
computations do as much work as one pass over the graph, so the computations cost no more
than the rounds.

**Epochs whose tie-break winner is not fixed** (lives and flag counts equal: the first epoch of
a game, and any later one that restores the balance) keep the exact history-keyed df-pn search
of :mod:`.search` (its Python code), whose exits into fixed epochs are answered here (each
within a budget that grows with every attempt, as df-pn searches a child only as far as its
thresholds). Placement positions belong to that search too, so a whole program is solved from
the empty board, the first position after placement being an epoch start like any other.

Only exact facts are used: Bug and ForkBomb aimed at the mover's own seat are left out as in
:mod:`.search` (never better than the same command aimed at the opponent).
"""

from __future__ import annotations

import sys
import time
from collections import deque
from typing import Any, Iterable

from .fast import REV, Model, fixed_winner
from .search import INF, Solver, Timeout, _ordered, _won

__all__ = ["EpochSolver", "EpochGraph", "fixed_winner", "Timeout"]

Position = Any  #: a turn position of :mod:`.fast`, or a placement position
Exit = Any  #: a winning seat (a game end) or the first position of the next epoch


class EpochGraph:
    """The part of an epoch's graph explored so far: turn positions joined by reversible turns.

    ``nodes[i]`` is a position and ``mover[i]`` its mover. Once ``done[i]`` (the position is
    *expanded*), ``succ[i]`` lists the indices its reversible turns lead to and ``exits[i]`` the
    outcomes of its other turns: a seat (the game ends, that seat wins) or a position (an
    irreversible turn: the first position of another epoch); ``pred[i]`` lists the expanded
    positions with a reversible turn to ``i``. Every position reachable from an expanded one is
    in the graph, so the graph holds what is reachable from any of its positions, up to the
    positions not yet expanded (its *frontier*)."""

    __slots__ = ("nodes", "index", "mover", "done", "succ", "pred", "exits", "turns",
                 "winner", "settled")

    def __init__(self, winner: int):
        self.nodes: list[Position] = []
        self.index: dict[Position, int] = {}
        self.mover = bytearray()
        self.done = bytearray()
        self.succ: list[list[int]] = []
        self.pred: list[list[int]] = []
        self.exits: list[list[Exit]] = []
        #: the turns in the mover's order of promise: ``j >= 0`` the edge to position ``j``,
        #: ``~k`` (negative) the exit ``exits[i][k]``
        self.turns: list[list[int]] = []
        #: the seat that wins every stalemate in the epoch
        self.winner = winner
        #: positions whose start value is already in the solver's memo
        self.settled = bytearray()

    def __len__(self) -> int:
        return len(self.nodes)

    def add(self, pos: Position) -> int:
        """The index of ``pos``, added to the frontier if new."""
        i = self.index.get(pos)
        if i is None:
            i = self.index[pos] = len(self.nodes)
            self.nodes.append(pos)
            self.mover.append(pos[2])
            self.done.append(0)
            self.settled.append(0)
            self.succ.append([])
            self.pred.append([])
            self.exits.append([])
            self.turns.append([])
        return i


class _Budget(Exception):
    """An attempt at an exit ran out of the positions it was given (not an error: the exit
    stays unknown for now, and the work done is kept in the memos and graphs)."""


class _Fallback(Solver):
    """The Python df-pn search of :mod:`.search` for the epochs whose tie-break winner is not
    fixed (and for placement): a node that starts a fixed epoch is answered by the epoch
    method instead of being searched."""

    def __init__(self, model: Model, owner: EpochSolver):
        super().__init__(model, backend="python")
        self._owner = owner
        #: the nodes the next attempt at a fixed epoch's start may take
        self._budgets: dict[Position, int] = {}

    def _mid(self, key, thpn, thdn):
        owner = self._owner
        if self.nodes + owner.expanded >= owner._stop:
            raise _Budget()
        pos = key[0]
        if pos[0] != "place" and fixed_winner(pos) is not None:
            # only an irreversible turn enters a fixed epoch from an unfixed one (reversible
            # turns keep lives and flag counts), so this key is an epoch start. It is tried
            # within a budget, as df-pn searches a child only up to its thresholds: a hard one
            # must not be solved to the end while an easy sibling decides the parent.
            budget = self._budgets.get(pos, 16)
            winner = owner._attempt(pos, budget)
            if winner is None:  # numbers as large as the work spent: df-pn looks elsewhere
                self._budgets[pos] = 4 * budget
                nums = (min(budget, INF - 1), min(budget, INF - 1))
            else:
                nums = _won(winner)
            self.table[key] = (*nums, 1)
            return nums
        return super()._mid(key, thpn, thdn)

    def _tick(self):
        self._owner._check()


class EpochSolver:
    """Exact values of one :class:`~.fast.Model`: fixed epochs by attractors, the rest by
    df-pn. Memos are kept between calls.

    ``nodes`` counts the positions expanded: the positions of the epoch graphs built plus the
    df-pn search's nodes (``expanded`` and ``search.nodes`` apart), comparable with
    :attr:`.search.Solver.nodes`. ``time_limit`` (seconds) and ``max_nodes`` stop a call with
    :class:`~.search.Timeout`; what was proven before stays in the memos."""

    def __init__(self, model: Model, time_limit: float | None = None,
                 max_nodes: int | None = None):
        self.model = model
        self.deadline = None if time_limit is None else time.monotonic() + time_limit
        self.max_nodes = max_nodes
        #: start values: the winner from a turn position whose history is itself alone
        self.values: dict[Position, int] = {}
        #: each turn position of a fixed epoch already explored: its graph and index
        self.graph_of: dict[Position, tuple[EpochGraph, int]] = {}
        self.expanded = 0
        self.search = _Fallback(model, self)
        #: the node count at which the attempt under way gives up (:class:`_Budget`); the
        #: outermost one is ``max_nodes``
        self._stop = 1 << 62 if max_nodes is None else max_nodes

    @property
    def nodes(self) -> int:
        return self.expanded + self.search.nodes

    # ---------------------------------------------------------------- public

    def value(self, pos: Position, history: Iterable = ()) -> int:
        """The seat that wins from ``pos`` under perfect play: a turn position with
        ``history``, the repetition keys (:meth:`~.fast.Model.rep_key`) of the positions of its
        epoch before it, or a placement position (the empty board is ``model.start()``)."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200000))  # lines of reversible turns run deep in df-pn
        try:
            if pos[0] == "place":
                return self.search.value(pos)
            hist = set(history)
            if self.model.rep_key(pos) in hist:  # the position repeats: a stalemate at once
                return self.model.tiebreak(pos)
            if not hist:
                return self.start_value(pos)
            winner = fixed_winner(pos)
            if winner is None:
                return self.search.value(pos, hist)
            return self._within(pos, hist, winner)
        except _Budget:  # the outermost budget: max_nodes
            raise Timeout() from None
        finally:
            sys.setrecursionlimit(old)

    def start_value(self, pos: Position) -> int:
        """The winner from the turn position ``pos`` as the start of an epoch (history
        ``{pos}``), memoised: it depends on the position alone."""
        known = self.values.get(pos)
        if known is not None:
            return known
        winner = fixed_winner(pos)
        if winner is None:
            known = self.search.value(pos)
        else:
            graph, i = self._graph(pos, winner)
            known = self._solve(graph, i, None)
        self.values[pos] = known
        return known

    def _attempt(self, pos: Position, budget: int) -> int | None:
        """The start value of ``pos`` if it can be proven within ``budget`` more nodes, else
        None (an attempt inside an attempt gives up with the outer one when that runs out)."""
        outer = self._stop
        self._stop = min(outer, self.nodes + budget)
        try:
            return self.start_value(pos)
        except _Budget:
            if self.nodes >= outer:
                raise
            return None
        finally:
            self._stop = outer

    # ---------------------------------------------------------------- epoch graphs

    def _graph(self, pos: Position, winner: int) -> tuple[EpochGraph, int]:
        """The epoch graph holding ``pos`` (the one that met it already, if any: it holds or
        will reach everything reachable from ``pos``), and the index of ``pos`` in it."""
        found = self.graph_of.get(pos)
        if found is not None:
            return found
        g = EpochGraph(winner)
        i = g.add(pos)
        self.graph_of[pos] = (g, i)
        return g, i

    def _expand(self, g: EpochGraph, i: int) -> None:
        """List the turns of ``g.nodes[i]``: reversible ones as edges (new positions join the
        frontier), the others as exits."""
        if self.expanded + self.search.nodes >= self._stop:
            raise _Budget()
        self.expanded += 1
        if not self.expanded & 0xFFF:
            self._check()
        succ, exits, turns = g.succ[i], g.exits[i], g.turns[i]
        # the mover's most promising turns first (as df-pn orders them): a position is often
        # decided by its first exit, and the later ones are then never solved
        for _, tag, res in _ordered(self.model, g.nodes[i]):
            if tag == REV:
                n = len(g.nodes)
                j = g.add(res)
                if j == n:
                    self.graph_of[res] = (g, j)
                succ.append(j)  # the model lists each result once: no duplicates
                g.pred[j].append(i)
                turns.append(j)
            else:  # END: the seat that wins; IRR: the next epoch's first position
                turns.append(~len(exits))
                exits.append(res)
        g.done[i] = 1

    def _status(self, e: Exit) -> int | None:
        """The seat an exit is good for, None while unknown."""
        return e if isinstance(e, int) else self.values.get(e)

    def _attractor(self, g: EpochGraph, optimistic: bool, blocked: set[int]) -> bytearray:
        """Membership in ``L``'s attractor of the exits good for ``L`` (``L`` = ``1 -
        g.winner``), what is not known yet counted for ``L`` if ``optimistic``, else against
        it: the unknown exits, and the frontier's positions (as members, or as stalemates won
        by ``W``). The pessimistic set is part of the true attractor and the optimistic one
        holds it, since an attractor only grows with its targets. ``blocked`` positions (seen
        earlier in the epoch) are never members: a turn into one is a stalemate won by ``W``.
        Linear in the graph: a ``W`` position counts down its turns still outside."""
        loser = 1 - g.winner
        status = self._status
        n = len(g.nodes)
        inside = bytearray(n)
        left = [0] * n
        todo: list[int] = []
        for i in range(n):
            if i in blocked:
                left[i] = -1
            elif not g.done[i]:
                if optimistic:
                    inside[i] = 1
                    todo.append(i)
                else:
                    left[i] = -1
            elif g.mover[i] == loser:
                for e in g.exits[i]:
                    s = status(e)
                    if s == loser or (s is None and optimistic):
                        inside[i] = 1
                        todo.append(i)
                        break
            else:
                for e in g.exits[i]:
                    s = status(e)
                    if not (s == loser or (s is None and optimistic)):
                        left[i] = -1  # an exit good for W: never a member
                        break
                else:
                    left[i] = len(g.succ[i])
                    if not left[i]:
                        inside[i] = 1
                        todo.append(i)
        while todo:
            j = todo.pop()
            for i in g.pred[j]:
                if inside[i] or left[i] < 0:
                    continue
                if g.mover[i] == loser:
                    inside[i] = 1
                    todo.append(i)
                else:
                    left[i] -= 1
                    if not left[i]:
                        inside[i] = 1
                        todo.append(i)
        return inside

    def _solve(self, g: EpochGraph, root: int, history: set | None) -> int:
        """The winner from ``g.nodes[root]``, the positions ``history`` seen before it in its
        epoch (None at an epoch start): the two attractors until they agree on the root,
        exploring the graph and solving exits in between."""
        loser = 1 - g.winner
        budget = 16  # nodes for an attempt at an exit; raised while every open exit needs more
        while True:
            blocked = set() if history is None else {
                g.index[p] for p in history if p in g.index}
            sure = self._attractor(g, False, blocked)  # L wins here whatever is unknown
            maybe = self._attractor(g, True, blocked)  # outside, W wins whatever it is
            if history is None:  # every decided position's start value, for later queries
                for i in range(len(g.nodes)):
                    if not g.settled[i] and (sure[i] or not maybe[i]):
                        g.settled[i] = 1
                        self.values[g.nodes[i]] = loser if sure[i] else g.winner
            if sure[root]:
                return loser
            if not maybe[root]:
                return g.winner
            progress, put_off = self._walks(g, root, sure, maybe, blocked, budget)
            if not progress:
                if put_off:
                    budget *= 4
                else:  # the lines found nothing open (cycles close them): a broad round
                    self._work(g, root, sure, maybe, blocked)

    def _walks(self, g: EpochGraph, root: int, sure: bytearray, maybe: bytearray,
               blocked: set[int], budget: int) -> tuple[bool, bool]:
        """Follow lines of play from ``root`` through open positions (in ``maybe``, not in
        ``sure``), each side taking its most promising open turn, and expand the frontier
        position or solve the unknown exit where a line ends; the next line goes past it. A
        narrow search, as a proof is narrow: one turn of the winner's at each position. Lines
        go on until the work done is one pass over the graph. An exit is tried with
        ``budget`` nodes: one that needs more is put off for the round, and the line goes on
        by the next turn, so that a hard exit never hides an easy one beside it (the caller
        raises the budget when nothing else is left). Returns whether anything was expanded or
        solved, and whether an exit was put off.

        Positions found decided on the way (a known exit good for the mover) or with no open
        turn left are closed for the rest of the round; so are the positions of the line
        already walked (a line never goes round a cycle)."""
        n = len(sure)
        loser = 1 - g.winner
        closed = set(blocked)
        put_off: set[Exit] = set()
        begin = self.nodes
        progress = False
        while root not in closed:
            on_path = {root}
            i = root
            while True:
                if not g.done[i]:
                    self._expand(g, i)
                    progress = True
                    break
                mine = g.mover[i] == loser
                step = -1
                for t in g.turns[i]:
                    if t < 0:
                        e = g.exits[i][~t]
                        s = e if isinstance(e, int) else self.values.get(e)
                        if s is None:
                            if e in put_off:
                                continue
                            s = self._attempt(e, budget)
                            if s is None:
                                put_off.add(e)
                                continue
                            progress = True
                            step = -2
                        if (s == loser) == mine:  # decided: good for the mover
                            closed.add(i)
                            step = -2
                        if step == -2:
                            break
                    elif t not in on_path and t not in closed and (
                            t >= n or (maybe[t] and not sure[t])):
                        step = t
                        break
                if step == -2:
                    break
                if step < 0:  # nothing open left here: the next line avoids it
                    closed.add(i)
                    break
                i = step
                on_path.add(i)
            if self.nodes - begin >= n:
                break
        return progress, bool(put_off)

    def _work(self, g: EpochGraph, root: int, sure: bytearray, maybe: bytearray,
              blocked: set[int]) -> None:
        """Expand frontier positions and solve unknown exits where they matter: at the
        positions still open (in ``maybe``, not in ``sure``), in order of distance from
        ``root`` through open positions, until the work done is one pass over the graph (so
        the attractors computed between two rounds cost no more than the round). The root is
        open, and an open position reaches the frontier or an unknown exit through open
        positions (else it would be decided), so every round does something."""
        loser = 1 - g.winner
        n = len(sure)
        seen = {root}
        order = deque([root])
        begin = self.nodes
        progress = False
        while order:
            i = order.popleft()
            if not g.done[i]:
                self._expand(g, i)
                progress = True
            else:
                mine = g.mover[i] == loser
                for e in g.exits[i]:
                    s = e if isinstance(e, int) else self.values.get(e)
                    if s is None:
                        s = self.start_value(e)
                        progress = True
                    if (s == loser) == mine:  # the position is decided: no more exits matter
                        break
            if self.nodes - begin >= n:
                return
            for j in g.succ[i]:
                # positions new in this round are open: they join the frontier
                if j not in seen and j not in blocked and (j >= n or (maybe[j] and not sure[j])):
                    seen.add(j)
                    order.append(j)
        assert progress, "every round does something"

    def _within(self, pos: Position, hist: set, winner: int) -> int:
        """The winner from ``pos`` in the middle of a fixed epoch, the repetition keys ``hist``
        seen before it: the attractor with those positions removed."""
        g, i = self._graph(pos, winner)
        lives_supply = pos[3:]
        return self._solve(g, i, {rk + lives_supply for rk in hist})

    def _check(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Timeout()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout()
