"""The position of a game, what repeats (C9): its key, and the check at each decision."""

from __future__ import annotations

from typing import Any, Final

from .board import (
    D_INTERRUPT,
    D_TARGET,
    D_TURN,
    EXECUTION,
    NOTHING_SEEN,
    BoardKey,
    BoardState,
)
from .codes import KIND_MASK
from .flags import PENDING


#: The most queues a rest of a key holds in a list in ``seen`` before it keys each position
#: whole (Position._reached).
_LISTED: Final = 8


class Position(BoardState):
    """A game in progress as far as its position: the key that tells two positions apart
    (C9), the positions seen, and the check at each decision point."""

    __slots__ = ()

    def position_key(self) -> tuple:
        """The position (C9): what decides the future, with flags known only by owner and marks."""
        return self._key(tuple(self.queues)) + (
            tuple(self.lives), tuple(self.supply), tuple(self.hand), tuple(self.alive),
            self.phase, self.first, self.opened, self.passes, self.rot, self.to_arrange,
            self.instant_gone)

    @property
    def seen_positions(self) -> frozenset:
        """The positions seen since the last irreversible change (C9), by their repetition key:
        the history that decides whether the next position repeats."""
        return frozenset(self._seen_keys())

    @property
    def seen_signature(self) -> int:
        """A 64-bit signature of :attr:`seen_positions` (the exclusive or of their keys'
        hashes): a search's table of values tells two histories apart by it without hashing
        them whole. Equal histories have equal signatures within a process (string hashes are
        salted per process); unequal ones collide with odds of 2**-64. The first request
        computes it; from then on this state and its copies keep it up to date as positions
        are seen (play that never asks pays nothing)."""
        if self.seen_sig is None:
            signature = 0
            for key in self._seen_keys():  # (not a frozenset first: that hashed each twice)
                signature ^= hash(key)
            self.seen_sig = signature
        return self.seen_sig

    def _reached(self) -> None:
        """A decision point has been reached: check it against the earlier positions."""
        if self.phase != EXECUTION or self.blind:
            return
        if self.derived:
            self.derived = False
            # This position is the last one plus what was chosen, with the board unchanged, and
            # no other way leads to it (the last one is read back from it): it repeats an
            # earlier position only if the last one did. With auto stalemate the last one was
            # new (or the game would be over), and a later repeat of this one would end the
            # game one decision earlier, so it need not be looked up or remembered. (Where
            # Memory, a copy or an instant card may start the same command from another
            # position, the first choice after "run" is not derived.)
            if self.auto_stalemate:
                return
        # The positions seen by the rest of their key, each with its queues: hashing the queues'
        # flags at every decision was the largest part of this check, and two positions seen
        # since the last irreversible change that differ only in their queues are rare (about
        # one pair in ten decisions at level 3), so the queues are compared only then. A rest
        # seen with a few queues holds a list of them. In a long reversible stretch (a rest
        # seen with more than eight) each position is keyed whole until the next irreversible
        # change: one look-up, as a set of keys made.
        # Those seen before a search began are in seen_base, never written: an entry of it
        # that changes is written to seen, which hides it from then on.
        seen = self.seen
        base = self.seen_base
        queues = tuple(self.queues)
        size = len(seen)
        if self.seen_whole:
            whole = self._key(queues)
            seen.setdefault(whole, None)
            repeat = len(seen) == size
            if not repeat and base:
                repeat = whole in base
        else:
            rest = self._key(None)
            whole = None
            earlier = seen.setdefault(rest, queues)
            repeat = False
            known = len(seen) == size
            if not known and base:
                below = base.get(rest)
                if below is not None:
                    earlier = seen[rest] = below
                    known = True
            if known:  # the rest was seen: with these queues?
                if type(earlier) is list:
                    repeat = queues in earlier
                    if not repeat and len(earlier) < _LISTED:
                        seen[rest] = earlier + [queues]  # (a new list: copies share the old)
                    elif not repeat:
                        self._key_whole()
                        whole = _plain(rest, queues)
                        self.seen[whole] = None
                else:
                    repeat = earlier == queues
                    if not repeat:
                        seen[rest] = [earlier, queues]
        if repeat:
            if self.auto_stalemate:
                self._end_stalemate()
                return
            self.repeated = True
            self._legal = None  # declare joins the options
            return
        if self.seen_sig is not None:
            self.seen_sig ^= hash(whole if whole is not None else _plain(rest, queues))
        if self.repeated:
            self.repeated = False
            self._legal = None

    def _may_recall(self) -> bool:
        """Can a Memory still run before the next arrival, and so read the older remembered
        card? Only on the cursor's card, by the flag with the turn or one still pending, once
        the visit has begun (an interrupt, before the arrival, is keyed apart in _key)."""
        c = self.cursor
        return (c < len(self.kinds) and self.kinds[c].recalls
                and (self.decision == D_TURN or any(x & PENDING for x in self.queues[c])))

    def _seen_all(self) -> dict[tuple, Any]:
        """``seen`` with what ``seen_base`` holds that it does not."""
        base = self.seen_base
        return {**base, **self.seen} if base else self.seen

    def _seen_keys(self) -> list[tuple]:
        """The keys of the positions seen, each once."""
        if self.seen_whole:
            return list(self._seen_all())
        return [_plain(rest, queues) for rest, queues in self._seen_pairs()]

    def _seen_pairs(self) -> list[tuple[tuple, tuple]]:
        """The positions seen (before they are keyed whole), each as the rest of its key and
        its queues."""
        pairs = []
        for rest, queues in self._seen_all().items():
            if type(queues) is list:
                pairs.extend([(rest, q) for q in queues])
            else:
                pairs.append((rest, queues))
        return pairs

    def _key_whole(self) -> None:
        """From now until the next irreversible change, ``seen`` keys each position whole (its
        key, as :attr:`seen_positions` gives it)."""
        self.seen = dict.fromkeys(self._seen_keys())
        self.seen_base = NOTHING_SEEN
        self.seen_whole = True

    def _key(self, queues: tuple | None) -> tuple:
        """The reversible part of the position, with ``queues`` in the place of the flags'
        queues (None for the rest of the key, as ``seen`` holds it). The rest (lives,
        supplies, hands, who is still in) only ever changes irreversibly, and every such change
        empties ``seen`` (:meth:`progress`), so within ``seen`` it is the same for every
        entry."""
        sig = self._sig
        if sig is None:
            sig = self._sig = BoardKey((tuple([k.name for k in self.kinds]), tuple(self.mods),
                                        tuple(self.chips), self.heals and tuple(self.lives)))
        d = self.decision
        ctx: object
        if d == D_TURN:
            ctx = self.to_move
        elif d == D_TARGET:
            ctx = self._target_context()
        else:
            ctx = (d, self.to_move, self.interrupters)
        if self.simple_key:
            # (The queues as one tuple in it: unpacking them would build a list first.)
            return (ctx, self.cursor, self.direction, sig, queues)
        # The state of the expansions (C9): the remembered cards, whether C10 rules the visit,
        # the unused instant cards with their chips, the interrupt tokens, the cards waiting
        # for a call to end. (Gathered in a list and made a tuple once: each tuple added to a
        # tuple would copy the whole key.)
        key: list[Any] = [ctx, self.cursor, self.direction, sig, queues]
        if self.memory_on:
            older, newer = self.trail
            if d == D_INTERRUPT:
                # Before the arrival, which pushes the older card out unread and makes the
                # newer one the older remembered card: read only by a Memory on this card (P13).
                older = None
                if not self.kinds[self.cursor].recalls:
                    newer = None
            elif not self._may_recall():  # pushed out unread at the next arrival (P13)
                older = None
            here = self.here
            key.append(None if older is None else older.name)
            key.append(None if newer is None else newer.name)
            key.append(None if here is None else here.name)
        if self.rp_card is not None:
            key.append(self.c10_visit)
        if self.inst_on:
            key.append(tuple(h and (h[0].name, h[1]) for h in self.instant))
        if self.intr_on:
            key.append(self.tokens)
        if self.calls:
            n = len(self.uids)  # a return to a follower (C19) counts from -n
            key.append(tuple(self.uids.index(u) if type(u) is int
                             else None if u[1] is None else self.uids.index(u[1]) - n
                             for u in self.calls))
        if self.coin_on:
            key.append(self.tail_first)
        if self.arrivals or self.jumps:  # flags on their way, fixed JUMP destinations
            index = {u: i for i, u in enumerate(self.uids)}
            key.append("on their way")
            key.append(tuple((s, index.get(u)) for s, u in self.arrivals))
            key.append(tuple(sorted((index.get(j), index.get(t)) for j, t in self.jumps)))
        return tuple(key)

    def _target_context(self) -> tuple:
        """What is being decided inside a command (SPEC 7.1): the command, its step, the count
        left and what has been chosen so far, with cards known by their current index."""
        chosen: object = self.chosen
        if isinstance(chosen, frozenset) and chosen:
            # Cards by their index now; options (raise and lower keep the numbers they chose,
            # as ids, which carry their kind's bits) as they are.
            uids = self.uids
            chosen = tuple(sorted([uids.index(u) for u in chosen if u in uids]
                                  + [u for u in chosen if u & KIND_MASK]))
        selected = self.selected
        if type(selected) is int:
            selected = self.uids.index(selected)
        # "This card" by its index: the cursor's card, or another where a copy (the Nightmare
        # notes' ECHO, MIMIC) runs another card's command (its adjacent cards are not the
        # cursor's then).
        assert self.cmd is not None
        return (self.to_move, self.cmd.name, self.step_i, self.cmd_vals, self.count_left,
                chosen, selected, self.rearrive, self._later_key(), self.this_index())

    def _later_key(self) -> tuple:
        """The commands waiting to run (Memory, copies), by name; a group of copies with the
        offsets that order it."""
        return tuple(tuple((o, k.name) for o, k, _ in item[1]) if type(item[0]) is str
                     else item[0].name for item in self.later)


def _plain(rest: tuple, queues: tuple) -> tuple:
    """A position's key from the rest of it and its queues."""
    return rest[:4] + (queues,) + rest[5:]
