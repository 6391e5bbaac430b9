"""The numbers of an observation vector, written where the rules core is compiled.

:class:`spaghetti.envs.encoding.Encoder` decides the layout and documents it; a
:class:`Writer` holds that layout's offsets and writes one position into a fresh buffer of
signed bytes, one a feature. Every entry is a whole number within ``[-LIMIT, LIMIT]`` (flags,
counts, one-hot bits, card numbers, lives), so a byte holds it exactly, and numpy turns the
buffer into the ``float32`` vector in one step. This module is compiled with the rules core
(setup.py), so it reads a state's fields as a C structure's members; it stays plain Python
(no numpy), and runs as such where nothing is compiled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from librt.strings import BytesWriter, write_i32_le
from mypy_extensions import i64

from ..core.board import D_TARGET, D_TURN, DECISION_NAMES
from ..core.flags import OWNER_SHIFT, PENDING, RUNNING
from ..core.primitives.base import CardType
from ..core.state import State
from ..core.view import knows_card, knows_instant

#: Numbers are clipped to this range (lives, values, counts); every entry lies in it.
LIMIT: Final = 99
#: The phases, and what a decision is about (``State.deciding``), in their one-hot order.
PHASES: Final = ("setup", "placement", "execution", "over")
DECIDING: Final = ("place", "turn", "card", "flag", "to", "at", "player", "param", "arrange",
                   "seat", "take", "open", "interrupt", "coin", "over")
#: The choose primitives a target decision may apply (``State.choosing``), in one-hot order; a
#: primitive not listed (a new one) sets the last bit, "other".
CHOOSING: Final = ("add_flag", "move_flag", "remove_flag", "charm", "reorder", "remove_card",
                   "move_card", "swap_card", "float", "jump", "call", "damage", "heal", "raise",
                   "lower")
# Each name's place in its one-hot (looked up, where a scan compared the names in turn).
_PHASE_INDEX: Final = {name: i for i, name in enumerate(PHASES)}
_DECIDING_INDEX: Final = {name: i for i, name in enumerate(DECIDING)}
_CHOOSING_INDEX: Final = {name: i for i, name in enumerate(CHOOSING)}
# A decision's place in DECIDING by its number (but a target decision's, which is its
# primitive's: State.deciding), read without making its name.
_DECIDING_BY_CODE: Final[tuple[int, ...]] = tuple(_DECIDING_INDEX.get(name, -1)
                                                  for name in DECISION_NAMES)
#: Instant card status per seat, one-hot.
INSTANT_STATUS: Final = ("none", "held", "used", "discarded")
#: The features of one seat, in order.
SEAT_FEATURES: Final = ("alive", "to_move", "first", "winner", "life", "supply", "hand",
                        "removed", "on_cards", "tokens")
#: The kinds of engine ids (core/codes.py: the kind above bit 16) the mask writer's tables hold.
KINDS: Final = 16
#: A queue place's features beyond the owner's one-hot: pending, running, the flag deciding
#: this turn, the pair's second place.
QUEUE_FEATURES: Final = 4


def clip(x: int) -> int:
    """``x`` within ``[-LIMIT, LIMIT]``."""
    return -LIMIT if x < -LIMIT else LIMIT if x > LIMIT else x


def _index(names: tuple[str, ...], name: str) -> int:
    for i, n in enumerate(names):
        if n == name:
            return i
    return -1


class CardBlocks:
    """One game's observation as last written for one seat, kept to be written over: its row,
    and for each card the parts its block was written from (kind, numbers, modifiers, queue,
    whether it was known; a kind of None where no block is written). A card whose parts are
    the same objects is left as it is in the row; one that changed has its old block taken
    off and its new one written. A new game, or another seat, takes new blocks."""

    def __init__(self, cards: int, size: int) -> None:
        self.kinds: list[CardType | None] = [None] * cards
        self.vals: list[tuple[int, ...]] = [()] * cards
        self.mods: list[tuple[int, ...]] = [()] * cards
        self.queues: list[tuple[int, ...]] = [()] * cards
        self.known: list[bool] = [False] * cards
        self.row = BytesWriter()
        self.row.write(bytes(size))
        #: Where the last write marked the moment in the cards' blocks (cleared at the next).
        self.marks: list[int] = []

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        # (A compiled class is rebuilt by calling it: the row is kept to be written over from
        # these very objects, which a copy does not hold, so it starts empty.)
        return CardBlocks, (len(self.kinds), len(self.row))


class Writer:
    """Writes the observation of one game's layout (the offsets come from the Encoder)."""

    def __init__(self, players: int, cards: int, names: tuple[str, ...], params: int,
                 queue: int, slot: int, card_features: int, instants: tuple[str, ...],
                 iparams: int, starts: dict[str, int], size: int, hidden: bool,
                 fair_first: bool) -> None:
        self._made_with = (players, cards, names, params, queue, slot, card_features, instants,
                           iparams, starts, size, hidden, fair_first)
        self.players: i64 = players
        self.cards: i64 = cards
        self.names = names
        self.params: i64 = params
        self.queue: i64 = queue
        self.instants = instants
        self.iparams: i64 = iparams
        self.size: i64 = size
        self.zeros = bytes(size)
        # What follows the cards, written afresh each time.
        self.rest_at: i64 = cards * card_features
        self.rest_zeros = bytes(size - self.rest_at)
        self.hidden = hidden
        self.fair_first = fair_first
        self.slot: i64 = slot
        self.card_features: i64 = card_features
        self.q_at: i64 = card_features - queue * slot
        self.moment: i64 = 2 + len(names) + 2 * params  # the card block's "cursor" feature
        self.kind_index = {name: i for i, name in enumerate(names)}
        self.instant_index = {name: i for i, name in enumerate(instants)}
        self.phase_at: i64 = starts["phase"]
        self.deciding_at: i64 = starts["deciding"]
        self.choosing_at: i64 = starts["choosing"]
        self.choices_left_at: i64 = starts["choices_left"]
        self.forward_at: i64 = starts["forward"]
        self.chance_at: i64 = starts["chance"]
        self.repeated_at: i64 = starts["repeated"]
        self.chips_at: i64 = starts["chips"]
        self.seats_at: i64 = starts["seats"]
        self.instant_status_at: i64 = starts["instant_status"]
        self.instant_card_at: i64 = starts["instant_card"]
        self.instant_chips_at: i64 = starts["instant_chips"]
        self.face_down_at: i64 = starts["face_down"]
        self.to_arrange_at: i64 = starts["to_arrange"]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Writer, self._made_with

    def write(self, state: State, seat: i64, blocks: CardBlocks | None = None) -> bytes:
        """The position as ``seat`` may know it, seats numbered from ``seat``: one byte a
        feature, a negative number in two's complement. ``blocks``: this game's row as last
        written for ``seat``, written over where the position changed (and kept up to date
        here); without it, a fresh row."""
        # (librt's BytesWriter: compiled code sets its bytes as a C array's, where a
        # bytearray's would each take a call and a new index object.)
        if blocks is None:
            blocks = CardBlocks(self.cards, self.size)
        buf = blocks.row
        p = self.players
        cf = self.card_features
        nk: i64 = len(self.names)
        slot = self.slot
        hidden = self.hidden and not state.is_over
        # The last write's marks of the moment go first: the cards' blocks never set them.
        marks = blocks.marks
        for where in marks:
            buf[where] = 0
        marks.clear()
        kinds, vals, mods, queues = state.kinds, state.vals, state.mods, state.queues
        # The program: each card's kind, numbers and queue, a block a card. The board replaces
        # a card's parts when they change, never changes them, so a block written from the
        # same objects is the same, and stays as it is in the row.
        cards: i64 = min(len(kinds), self.cards)
        kept_kinds, kept_vals, kept_mods, kept_queues, kept_known = \
            blocks.kinds, blocks.vals, blocks.mods, blocks.queues, blocks.known
        i: i64
        for i in range(self.cards):
            old = kept_kinds[i]
            base = i * cf
            if i >= cards:  # (no card here now)
                if old is None:
                    break  # (nor further on, since the last write)
                self._head(buf, base, old, kept_vals[i], kept_mods[i], kept_known[i], False)
                self._queue(buf, base, seat, kept_queues[i], False)
                kept_kinds[i] = None
                kept_queues[i] = ()
                continue
            known = not hidden or knows_card(state, seat, i)
            kind, v, m, q = kinds[i], vals[i], mods[i], queues[i]
            if old is not kind or kept_vals[i] is not v or kept_mods[i] is not m or \
                    kept_known[i] != known:
                if old is not None:
                    self._head(buf, base, old, kept_vals[i], kept_mods[i], kept_known[i], False)
                self._head(buf, base, kind, v, m, known, True)
                kept_kinds[i], kept_vals[i], kept_mods[i], kept_known[i] = kind, v, m, known
            old_q = kept_queues[i]
            if old_q is not q:
                self._queue(buf, base, seat, old_q, False)
                self._queue(buf, base, seat, q, True)
                kept_queues[i] = q
        # Everything after the cards is written afresh.
        buf.truncate(self.rest_at)
        buf.write(self.rest_zeros)
        # What belongs to the moment: the cursor, the card running, the pair in progress, the
        # flag deciding, flags on their way.
        at = self.moment
        if state.phase == "execution" and state.cursor < self.cards:
            self._mark(buf, marks, state.cursor * cf + at)
        running = state.running_card
        if running is not None and running < self.cards:
            self._mark(buf, marks, running * cf + at + 1)
        selection = state.selection
        if selection is not None:
            if isinstance(selection, tuple):
                sel_card, sel_k = selection[0], selection[1]
            else:
                sel_card, sel_k = selection, -1
            if sel_card < self.cards:
                self._mark(buf, marks, sel_card * cf + at + 2)
                if 0 <= sel_k < self.queue:
                    self._mark(buf, marks, sel_card * cf + self.q_at + sel_k * slot + p + 3)
        if state.decision == D_TURN:  # (the turn's flag: State.turn_flag, without its tuple)
            c, k = state.cursor, state.turn_pos
            if c < self.cards and k < self.queue:
                self._mark(buf, marks, c * cf + self.q_at + k * slot + p + 2)
        if state.arrivals or state.jumps:
            uids = state.uids
            for sender, u in state.arrivals:
                place = uids.index(u) if u in uids else self.cards
                if place < self.cards:
                    where = place * cf + at + 3 + (sender - seat) % p
                    buf[where] = clip(buf[where] + 1)
                    marks.append(where)
            for j, t in state.jumps:
                if j in uids and t in uids:
                    source, target = uids.index(j), uids.index(t)
                    if max(source, target) < self.cards:
                        self._mark(buf, marks, source * cf + at + 3 + p)
                        self._mark(buf, marks, target * cf + at + 4 + p)
        # What is being decided.
        buf[self.phase_at + _PHASE_INDEX[state.phase]] = 1
        d = state.decision
        k = _DECIDING_INDEX.get(state.deciding, -1) if d == D_TARGET else _DECIDING_BY_CODE[d]
        if k >= 0:
            buf[self.deciding_at + k] = 1
        choosing = state.choosing
        if choosing is not None:
            k = _CHOOSING_INDEX.get(choosing, -1)
            buf[self.choosing_at + (k if k >= 0 else len(CHOOSING))] = 1
            buf[self.choices_left_at] = clip(state.count_left) & 0xFF
        if state.direction > 0:
            buf[self.forward_at] = 1
        if state.is_chance:
            buf[self.chance_at] = 1
        if state.repeated:
            buf[self.repeated_at] = 1
        at = self.chips_at
        buf[at] = clip(state.chips[0]) & 0xFF
        buf[at + 1] = clip(state.chips[1]) & 0xFF
        buf[at + 2] = clip(state.opened)
        # The seats, from the observer round. (Who is to move, first and the winner as numbers,
        # -1 for none: compared as such, not as objects that may be None.)
        nf: i64 = len(SEAT_FEATURES)
        to_move: i64 = -1 if state.to_move is None else state.to_move
        first: i64 = state.first
        winner: i64 = -1 if state.winner is None else state.winner
        alive, lives, supply = state.alive, state.lives, state.supply
        hand, removed, on_cards, tokens = state.hand, state.removed, state.on_board, state.tokens
        s: i64
        for s in range(p):
            at = self.seats_at + (s - seat) % p * nf
            buf[at] = 1 if alive[s] else 0
            buf[at + 1] = 1 if to_move == s else 0
            buf[at + 2] = 1 if first == s else 0
            buf[at + 3] = 1 if winner == s else 0
            buf[at + 4] = clip(lives[s]) & 0xFF
            buf[at + 5] = clip(supply[s]) & 0xFF
            buf[at + 6] = clip(hand[s]) & 0xFF
            buf[at + 7] = clip(removed[s]) & 0xFF
            buf[at + 8] = clip(on_cards[s])  # (the flags on cards: the queues' count)
            buf[at + 9] = clip(tokens[s]) & 0xFF
        if self.instants:
            self._instants(state, seat, buf)
        if self.fair_first:
            at = self.to_arrange_at
            buf[at + nk] = clip(len(state.to_arrange))
            if seat == 0 or not self.hidden or state.is_over:
                for card in state.to_arrange:
                    where = at + self.kind_index[card.name]
                    buf[where] = clip(buf[where] + 1)
        return buf.getvalue()

    def _mark(self, buf: BytesWriter, marks: list[int], where: i64) -> None:
        """A mark of the moment at ``where`` in a card's block, kept in ``marks`` to be
        cleared at the next write."""
        buf[where] = 1
        marks.append(where)

    def _head(self, buf: BytesWriter, base: i64, kind: CardType, v: tuple[int, ...],
              m: tuple[int, ...], known: bool, on: bool) -> None:
        """A card's block in the row from ``base``, but for its queue: present, and its kind
        and numbers where the seat may know them. Written (``on``), or taken off: every byte
        it writes set to 0 again."""
        one = 1 if on else 0
        nk: i64 = len(self.names)
        buf[base] = one
        if known:
            buf[base + 1] = one
            buf[base + 2 + self.kind_index[kind.name]] = one
            j: i64
            for j in range(min(len(v), len(m))):
                buf[base + 2 + nk + j] = clip(v[j]) & 0xFF if on else 0
                buf[base + 2 + nk + self.params + j] = clip(m[j]) & 0xFF if on else 0

    def _queue(self, buf: BytesWriter, base: i64, seat: i64, q: tuple[int, ...],
               on: bool) -> None:
        """The queue of the card whose block starts at ``base``: each flag's owner (from
        ``seat`` round), pending, running; the flags beyond the places counted. Written
        (``on``) or taken off, as :meth:`_head`."""
        one = 1 if on else 0
        p = self.players
        if len(q) > self.queue:
            buf[base + self.q_at - 1] = clip(len(q) - self.queue) if on else 0
        at = base + self.q_at
        k: i64
        for k in range(min(len(q), self.queue)):
            code = q[k]
            buf[at + ((code >> OWNER_SHIFT) - seat) % p] = one
            if code & PENDING:
                buf[at + p] = one
            if code & RUNNING:
                buf[at + p + 1] = one
            at += self.slot

    def _instants(self, state: State, seat: i64, buf: BytesWriter) -> None:
        """Each seat's instant card: its status, its kind where ``seat`` may know it, the chips
        placed on it (public, as the view shows them); the face-down cards left at setup."""
        taken = {s: i for i, s in state.drawn_by().items()}
        p = self.players
        ni, nip = len(self.instants), self.iparams
        ns = len(INSTANT_STATUS)
        for s in range(p):
            r = (s - seat) % p
            held, gone = state.instant[s], state.instant_gone[s]
            status = "held" if held else gone[0] if gone else "none"
            buf[self.instant_status_at + r * ns + _index(INSTANT_STATUS, status)] = 1
            if s in taken and knows_instant(state, seat, s):
                card = state.deal[taken[s]]
                buf[self.instant_card_at + r * ni + self.instant_index[card.name]] = 1
            if held:
                chips = held[1]
                for j in range(min(len(chips), nip)):
                    buf[self.instant_chips_at + r * nip + j] = clip(chips[j]) & 0xFF
        if state.phase == "setup":
            for i in range(3):
                if i not in state.drawn:
                    buf[self.face_down_at + i] = 1


class MaskWriter:
    """Writes the mask of legal actions (one byte a compact id), or the legal compact ids
    themselves. ``bands`` (``(kind, start, width, per_card)``) and ``bare`` (the compact id of
    each option without an argument, -1 for none) give the compact ids that arithmetic finds
    from the engine's id (core/codes.py: the kind above bit 16, the arguments below; a kind
    of two arguments takes ``per_card`` ids for each first one, 0 for a kind of one); any other
    id's is asked of ``compact`` (``ActionCodec._encode_other``) once and kept, since the same ids
    come back decision after decision."""

    def __init__(self, size: int, compact: Callable[[int], int],
                 bands: Sequence[tuple[int, int, int, int]] = (),
                 bare: Sequence[int] = ()) -> None:
        self.size = size
        self.compact = compact
        self._made_with = (size, compact, tuple(bands), tuple(bare))
        self.known: dict[int, int] = {}
        self.none = bytes(size)  # the mask of no legal action
        # Each kind's first compact id (-1: asked of the codec), its width, its per_card.
        self.starts: list[int] = [-1] * KINDS
        self.widths: list[int] = [0] * KINDS
        self.per_card: list[int] = [0] * KINDS
        for kind, start, width, per_card in bands:
            k = kind >> 16
            self.starts[k], self.widths[k], self.per_card[k] = start, width, per_card
        self.bare: list[int] = list(bare)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return MaskWriter, self._made_with

    def id_of(self, action: int) -> int:
        """``action``'s compact id: by arithmetic where its band allows, else asked of the
        codec once and kept; ``ValueError`` (the codec's) for an id beyond its ranges."""
        k = action >> 16
        if k == 0:
            if action < len(self.bare):
                c = self.bare[action]
                if c >= 0:
                    return c
        elif k < KINDS:
            start = self.starts[k]
            if start >= 0:
                arg = action & 0xFFFF
                per_card = self.per_card[k]
                if per_card > 0:
                    low = arg & 0xFF
                    arg = (arg >> 8) * per_card + low if low < per_card else self.widths[k]
                if arg < self.widths[k]:
                    return start + arg
        known = self.known.get(action)
        if known is not None:
            return known
        c = self.compact(action)
        self.known[action] = c
        return c

    def write(self, legal: Sequence[int]) -> bytes:
        """The mask of ``legal``."""
        buf = BytesWriter()
        buf.write(self.none)
        for action in legal:
            buf[self.id_of(action)] = 1
        return buf.getvalue()

    def ids(self, legal: Sequence[int], base: int) -> bytes:
        """The compact ids of ``legal``, each plus ``base`` (a row's start in a batch of masks
        laid end to end), as 32-bit little-endian integers: what numpy sets in one step."""
        buf = BytesWriter()
        for action in legal:
            write_i32_le(buf, base + self.id_of(action))
        return buf.getvalue()
