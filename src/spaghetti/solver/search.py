"""Exact search over :mod:`.fast` positions, with the stalemate rule C9 and a safe table.

The base game has no draws with two players, so a value is simply the seat that wins, and the
search is a depth-first AND/OR proof: the mover wins if one of its turns wins, else loses (an
alpha-beta search with the window closed around the only two values).

**Repetition (C9).** An *epoch* is a stretch of turns with no irreversible change. The engine
forgets the earlier positions at each irreversible change, so a repeated position can only be one
of the current epoch: the search keeps the positions of the current epoch on its path, and a
turn that reaches one of them ends the game, won by the tie-break winner of that position,
exactly as ``stalemate: auto`` does.

**The table and graph-history interaction.** The value of a position can depend on the path that
led to it (which positions would count as repeated). The table therefore holds only values
*proven without the history above the position*, that is the value the position has with an empty
history (as at the start of an epoch), and uses them only where that is sound:

- at the start of an epoch (empty history), any entry;
- within an epoch, when the stalemate winner is the same throughout the epoch (lives or flag
  counts differ, and both are constant within an epoch) and the entry says that player wins: a
  repetition can only help them, so their win holds with any history.

A value found with a history is stored when the search never met a position of that history
(tracked as the lowest path index a repetition hit), or when it is a win for the player the
repetitions do not favour (a history only takes options away from them, so their win holds with
an empty one too).

**Dominated turns.** Bug and ForkBomb aimed at the mover's own seat are left out (see
:meth:`~.fast.Model.moves`): the opponent as target is never worse.

**Move ordering.** First turns whose outcome is known at once (a game end, a repetition, a table
entry): a win among them ends the search of the node. Then irreversible turns, damage to the
opponent and removal of their flags first, then the reversible ones.

**Backends.** The extension ``_csearch`` does the same search in C (the same values, tables,
move order and node count) on positions packed into 128 bits; ``Solver`` uses it when it is
built and the model fits it, else the Python code below.
"""

from __future__ import annotations

import sys
import time

from .fast import END, IRR, REV, Model

try:
    from . import _csearch
except ImportError:  # built without a compiler: the Python search
    _csearch = None

INF = 1 << 30
BACKENDS = ("auto", "c", "python")


class Timeout(Exception):
    """The time limit was reached before the value was proven."""


def c_unsupported_reason(model: Model) -> str | None:
    """Why the C search cannot take this model, or None if it can."""
    if _csearch is None:
        return "the extension spaghetti.solver._csearch is not built"
    if len(model.kinds) > _csearch.MAX_CARDS:
        return f"the C search covers programs of up to {_csearch.MAX_CARDS} cards"
    if len(model.placement_order) + 2 * model.supply > _csearch.MAX_FLAGS:
        return f"the C search covers up to {_csearch.MAX_FLAGS} flags"
    if max(model.life, model.supply) > _csearch.MAX_VALUE:
        return f"the C search covers lives and supplies up to {_csearch.MAX_VALUE}"
    return None


class Solver:
    """Solves positions of one :class:`~.fast.Model`; its table is kept between calls.

    ``backend``: "c" (the extension; ValueError if it cannot take the model), "python", or
    "auto" (C when it can). ``on_progress(solver)`` is called every 16,384 positions by the
    Python search, every 0.2 s by the C one (which searches millions a second); an exception it
    raises stops the search. ``max_nodes``: a budget of positions, checked every 16,384 by both
    (the same count, so a budget stops both at the same point): past it, :class:`Timeout`."""

    def __init__(self, model: Model, time_limit: float | None = None, on_progress=None,
                 backend: str = "auto", max_nodes: int | None = None):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}")
        self._core = None
        if backend != "python":
            reason = c_unsupported_reason(model)
            if reason is None:
                self._core = _csearch.Core(model.kinds, Timeout)
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
        self._moves_cache: dict = {}
        self.tentative: list = []
        self.segments: list = []  # (start in tentative, lowest path index relied on)
        # The two reachability games of epochs without a fixed stalemate winner, by that winner.
        self.gtables: dict = {0: {}, 1: {}}

    # ---------------------------------------------------------------- public

    @property
    def table_size(self) -> int:
        """Entries in the main table."""
        return len(self.table) if self._core is None else self._core.table_size

    def value(self, pos, history=()) -> int:
        """The seat that wins from the turn position ``pos`` under perfect play; ``history``:
        the repetition keys of the current epoch before ``pos`` (``Model.rep_key``)."""
        if self._core is not None:
            if self.model.rep_key(pos) in history:
                return self.model.tiebreak(pos)
            progress = None if self.on_progress is None else self._c_progress
            try:
                return self._core.value(pos, tuple(history), self.deadline, progress)
            finally:
                self.nodes = self._core.nodes
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 200000))
        self.tentative.clear()
        self.segments.clear()
        try:
            key = self.model.rep_key(pos)
            if key in history:
                return self.model.tiebreak(pos)
            if not history:
                return self._epoch(pos)
            path = {k: -1 for k in history}
            path[key] = 0
            fixed = self.model.fixed_tiebreak(pos)
            if fixed is None:
                return self._free(pos, path, 0)[0]
            # The reachability values in the table assume an empty history: with one, the
            # positions of this epoch get a table of their own (its history counts as wins
            # of the fixed stalemate winner).
            return self._reach(pos, path, 0, fixed, {})[0]
        finally:
            sys.setrecursionlimit(old)

    def principal_line(self, pos, history=(), limit=400) -> tuple[int, list[str]]:
        """The value and a principal line: the winner's winning turns, and the loser's
        turns chosen to resist longest in the search's eyes (the first that still loses)."""
        winner = self.value(pos, history)
        line: list[str] = []
        path = list(history)
        model = self.model
        while len(line) < limit:
            path.append(model.rep_key(pos))
            mover = pos[2]
            nxt = None
            for options, tag, res in self._ordered(pos):
                if tag == END:
                    w, child, hist = res, None, None
                elif tag == REV and model.rep_key(res) in path:
                    w, child, hist = model.tiebreak(res), None, None
                else:
                    hist = path if tag == REV else []
                    w, child = self.value(res, hist), res
                if (mover == winner) == (w == mover):
                    nxt = (options, child, tag)
                    break
                if nxt is None and w == winner:
                    nxt = (options, child, tag)
            if nxt is None:  # cannot happen: the value says some turn keeps it
                break
            options, child, tag = nxt
            line.extend(options)
            if child is None:
                break
            if tag == IRR:
                path = []
            pos = child
        return winner, line

    # ---------------------------------------------------------------- search

    def _ordered(self, pos):
        """The mover's turns, most promising first (see the module docstring)."""
        moves = self._moves_cache.get(pos)
        if moves is not None:
            return moves
        model = self.model
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
                    score = 6  # hurting oneself: rarely right
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
        moves = [(o, t, r) for _, o, t, r in scored]
        if len(self._moves_cache) > 100_000:  # a cache, not a table: bounded memory
            self._moves_cache.clear()
        self._moves_cache[pos] = moves
        return moves

    def _search(self, pos, path, d):
        """The value of a turn position within the epoch whose path is ``path`` (``pos`` at index
        ``d``): ``(winner, hit)``, see :meth:`_reach` and :meth:`_free`."""
        fixed = self.model.fixed_tiebreak(pos)
        if fixed is None:
            return self._free(pos, path, d)
        return self._reach(pos, path, d, fixed, self.table)

    def _epoch(self, pos):
        """The value of the first position of an epoch (empty history).

        When the stalemate winner varies within the epoch, first try the two reachability games
        (see :meth:`_reach`) in which one player must force a winning exit and every repetition
        counts against them: a player who wins theirs wins the real game (their strategy never
        repeats a position). Only when neither does is the path-dependent search needed."""
        v = self.table.get(pos)
        if v is not None:
            return v
        key = self.model.rep_key(pos)
        if self.model.fixed_tiebreak(pos) is None:
            mover = pos[2]
            for p in (mover, 1 - mover):
                w = self._reach(pos, {key: 0}, 0, 1 - p, self.gtables[1 - p])[0]
                if w == p:
                    self.table[pos] = p
                    return p
        return self._search(pos, {key: 0}, 0)[0]

    def _reach(self, pos, path, d, t, table):
        """An epoch whose stalemate winner ``t`` is fixed. Then the game within the epoch is a
        reachability game: the other player ``o`` wins exactly when they can force an exit (an
        irreversible turn) that wins for them, and play that goes on forever, or repeats, is won
        by ``t``. Its values do not depend on the path (a win of ``o`` never repeats a position:
        each turn brings the attractor rank down; a win of ``t`` survives any history), so they
        are table values. Positions on the path count as wins of ``t`` *for now*: a win of ``t``
        that relied on one (``hit`` < ``d``) stays tentative until that position is settled (a
        win of ``t``: confirmed; of ``o``: dropped)."""
        self.nodes += 1
        if not self.nodes & 0x3FFF:
            self._tick()
        v = table.get(pos)
        if v is not None:
            return v, INF
        model = self.model
        mover = pos[2]
        tent = self.tentative
        start = len(tent)
        result = None
        hit = INF
        pending = []
        for options, tag, res in self._ordered(pos):
            if tag == END:
                if res == mover:
                    result = mover
                    hit = INF
                    break
                continue
            key, known = None, self.table  # an irreversible turn: a new epoch's table
            if tag == REV:
                key = model.rep_key(res)
                idx = path.get(key)
                if idx is not None:
                    if t == mover:
                        result, hit = mover, idx
                        break
                    hit = min(hit, idx)
                    continue
                known = table
            w = known.get(res)
            if w is not None:
                if w == mover:
                    result, hit = mover, INF
                    break
                continue
            pending.append((res, key))
        if result is None:
            for res, key in pending:
                if key is None:
                    w, h = self._epoch(res), INF
                else:
                    path[key] = d + 1
                    try:
                        w, h = self._reach(res, path, d + 1, t, table)
                    finally:
                        del path[key]
                if w == mover:
                    result, hit = mover, h
                    break
                hit = min(hit, h)
            else:
                result = 1 - mover
        segs = self.segments
        if result != t:  # a win of o: true whatever the path
            table[pos] = result
            while segs and segs[-1][0] >= start:
                segs.pop()
            del tent[start:]
            return result, INF
        if hit >= d:  # settled: so is every tentative win that relied on this position only
            table[pos] = t
            sub = []
            while segs and segs[-1][0] >= start:
                sub.append(segs.pop())
            sub.reverse()
            tail: list = []
            low = INF
            for i, (s0, dep) in enumerate(sub):
                end = sub[i + 1][0] if i + 1 < len(sub) else len(tent)
                if dep >= d:
                    for p in tent[s0:end]:
                        table[p] = t
                else:
                    tail.extend(tent[s0:end])
                    low = min(low, dep)
            tent[start:] = tail
            if len(tent) > start:
                segs.append((start, low))  # what is left, merged (a lower bound is safe)
            return t, INF
        low = hit
        while segs and segs[-1][0] >= start:
            low = min(low, segs.pop()[1])
        segs.append((start, low))
        tent.append(pos)
        return t, hit

    def _free(self, pos, path, d):
        """An epoch whose stalemate winner depends on the repeated position (equal lives and
        flag counts). Values here depend on the path: ``hit`` is the lowest path index of a
        repeated position the result relied on; only results with ``hit >= d`` (no reliance on
        the history above ``pos``) are stored, and entries are only used at the start of an
        epoch."""
        self.nodes += 1
        if not self.nodes & 0x3FFF:
            self._tick()
        table = self.table
        model = self.model
        if len(path) == 1:
            v = table.get(pos)
            if v is not None:
                return v, INF
        mover = pos[2]
        pending = []
        hit = INF
        for options, tag, res in self._ordered(pos):
            if tag == END:
                if res == mover:
                    table[pos] = mover
                    return mover, INF
                continue
            if tag == REV:
                key = model.rep_key(res)
                idx = path.get(key)
                if idx is not None:
                    if model.tiebreak(res) == mover:
                        if idx >= d:
                            table[pos] = mover
                        return mover, idx
                    hit = min(hit, idx)
                    continue
                pending.append((res, key))
            else:
                w = table.get(res)
                if w is not None:
                    if w == mover:
                        table[pos] = mover
                        return mover, INF
                    continue
                pending.append((res, None))
        for res, key in pending:
            if key is None:
                w, h = self._epoch(res), INF
            else:
                path[key] = d + 1
                try:
                    w, h = self._free(res, path, d + 1)
                finally:
                    del path[key]
            if w == mover:
                if h >= d:
                    table[pos] = mover
                return mover, h
            hit = min(hit, h)
        if hit >= d:
            table[pos] = 1 - mover
        return 1 - mover, hit

    def _c_progress(self):
        self.nodes = self._core.nodes
        self.on_progress(self)

    def _tick(self):
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise Timeout()
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise Timeout()
        if self.on_progress is not None:
            self.on_progress(self)
