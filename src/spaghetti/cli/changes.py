"""What some moves changed on the table, for marking the last move on the board.

:func:`changes` plays options from a state on a copy and says, card by card (by the card's
identity, so that cards moved or removed on the way are followed), which flags arrived and from
where, which left, which numbers changed, which card moved, which cards left the program, and how
lives changed. Only public facts: who owns a flag, which card, which number.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..core.state import State


@dataclass
class CardChanges:
    """What happened to one card (a card identity)."""

    arrived: Counter = field(default_factory=Counter)  # owner -> flags that arrived
    notes: list[tuple[str, int | None]] = field(default_factory=list)  # (what, seat)
    params: set[int] = field(default_factory=set)  # parameters whose value changed
    moved_from: int | None = None  # its index before a MoveCommand-like move


@dataclass
class Changes:
    """What a sequence of options changed, by card identity (``uid``)."""

    cards: dict[int, CardChanges] = field(default_factory=dict)
    gone: list[tuple[int, str]] = field(default_factory=list)  # (index it had, English name)
    lives: dict[int, int] = field(default_factory=dict)  # seat -> change of life

    def card(self, uid: int) -> CardChanges:
        return self.cards.setdefault(uid, CardChanges())

    def arrived_at(self, state: State, index: int) -> set[int]:
        """The positions in the queue of card ``index`` of ``state`` (the state after the
        moves) holding flags that arrived: the last flags of each owner that arrived."""
        found = self.cards.get(state.uids[index])
        if found is None or not found.arrived:
            return set()
        owners = state.owners(index)
        marked: set[int] = set()
        for owner, count in found.arrived.items():
            for k in range(len(owners) - 1, -1, -1):
                if count <= 0:
                    break
                if owners[k] == owner:
                    marked.add(k)
                    count -= 1
        return marked

    def of(self, state: State, index: int) -> CardChanges | None:
        return self.cards.get(state.uids[index])


def _step(before: State, after: State, marks: Changes, mark) -> None:
    """Add what one option changed (``before`` -> ``after``) to ``marks``."""
    where_before = {uid: i for i, uid in enumerate(before.uids)}
    where_after = {uid: i for i, uid in enumerate(after.uids)}
    gains: list[tuple[int, int]] = []  # (owner, uid)
    losses: list[tuple[int, int]] = []
    for uid, j in where_after.items():
        now = Counter(after.owners(j))
        i = where_before.get(uid)
        then = Counter(before.owners(i)) if i is not None else Counter()
        for owner, n in (now - then).items():
            gains += [(owner, uid)] * n
        for owner, n in (then - now).items():
            losses += [(owner, uid)] * n
        if i is not None:
            if before.vals[i] != after.vals[j] or before.mods[i] != after.mods[j]:
                changed = {p for p, (a, b) in enumerate(zip(before.vals[i], after.vals[j]))
                           if a != b}
                changed |= {p for p, (a, b) in enumerate(zip(before.mods[i], after.mods[j]))
                            if a != b}
                marks.card(uid).params |= changed
    for uid, i in where_before.items():
        if uid not in where_after:
            marks.gone.append((i, before.kinds[i].name))
            continue
    # A card that changed place while the others kept their order: MoveCommand, SwapCommand.
    common = [uid for uid in before.uids if uid in where_after]
    order_after = sorted(common, key=lambda u: where_after[u])
    if common != order_after:
        for uid in _out_of_place(common, order_after):
            marks.card(uid).moved_from = where_before[uid]
    # Flags: a loss and a gain of the same owner in one option is a move.
    for owner, uid in gains:
        source = next((pair for pair in losses if pair[0] == owner and pair[1] != uid), None)
        card = marks.card(uid)
        card.arrived[owner] += 1
        if source is not None:
            losses.remove(source)
            src = where_after.get(source[1], where_before.get(source[1], -1))
            card.notes.append((f"+{mark(owner)}←{src}", owner))
            marks.card(source[1]).notes.append((f"{mark(owner)}→{where_after[uid]}", owner))
        # (a flag from the supply is marked on the flag itself)
    for owner, uid in losses:
        if uid in where_after:
            marks.card(uid).notes.append((f"−{mark(owner)}", owner))


def _out_of_place(before: list[int], after: list[int]) -> list[int]:
    """The fewest cards whose removal leaves the others in the same order (those that moved):
    the complement of a longest common subsequence of the two orders."""
    n = len(before)
    position = {u: k for k, u in enumerate(after)}
    seq = [position[u] for u in before]
    # longest increasing subsequence of seq, by patience sorting with back pointers
    tails: list[int] = []
    tails_at: list[int] = []
    back = [-1] * n
    for k, v in enumerate(seq):
        p = bisect.bisect_left(tails, v)
        if p == len(tails):
            tails.append(v)
            tails_at.append(k)
        else:
            tails[p] = v
            tails_at[p] = k
        back[k] = tails_at[p - 1] if p else -1
    keep = set()
    k = tails_at[-1] if tails_at else -1
    while k >= 0:
        keep.add(k)
        k = back[k]
    return [before[k] for k in range(n) if k not in keep]


def changes(start: State, options: Sequence[str], mark) -> Changes:
    """What playing ``options`` from ``start`` changed (``start`` is not changed). ``mark``:
    a seat's short mark (``R``, ``赤``), for the notes."""
    marks = Changes()
    state = start.copy()
    lives = list(start.lives)
    for option in options:
        before = state.copy()
        state.apply(option)
        _step(before, state, marks, mark)
    marks.lives = {s: b - a for s, (a, b) in enumerate(zip(lives, state.lives)) if a != b}
    return marks
