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

from ..core.board import D_TURN
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
#: Instant card status per seat, one-hot.
INSTANT_STATUS: Final = ("none", "held", "used", "discarded")
#: The features of one seat, in order.
SEAT_FEATURES: Final = ("alive", "to_move", "first", "winner", "life", "supply", "hand",
                        "removed", "on_cards", "tokens")
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
    """The card blocks last written for one game seen from one seat, each with the parts of
    the card it was written from (kind, numbers, modifiers, queue). A new game, or another
    seat, takes new blocks."""

    def __init__(self, cards: int) -> None:
        self.kinds: list[object] = [None] * cards
        self.vals: list[object] = [None] * cards
        self.mods: list[object] = [None] * cards
        self.queues: list[object] = [None] * cards
        self.blocks: list[bytes] = [b""] * cards

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # (A compiled class is rebuilt by calling it: the blocks kept are a cache of blocks
        # written from these very objects, which a copy does not hold, so it starts empty.)
        return CardBlocks, (len(self.blocks),)


class Writer:
    """Writes the observation of one game's layout (the offsets come from the Encoder)."""

    def __init__(self, players: int, cards: int, names: tuple[str, ...], params: int,
                 queue: int, slot: int, card_features: int, instants: tuple[str, ...],
                 iparams: int, starts: dict[str, int], size: int, hidden: bool,
                 fair_first: bool) -> None:
        self._made_with = (players, cards, names, params, queue, slot, card_features, instants,
                           iparams, starts, size, hidden, fair_first)
        self.players = players
        self.cards = cards
        self.names = names
        self.params = params
        self.queue = queue
        self.instants = instants
        self.iparams = iparams
        self.size = size
        self.zeros = bytes(size)
        # What follows the cards of a program of n cards, made once for each n.
        self.tails = [self.zeros[n * card_features:] for n in range(cards + 1)]
        self.card_zeros = bytes(card_features)
        self.hidden = hidden
        self.fair_first = fair_first
        self.slot = slot
        self.card_features = card_features
        self.q_at = card_features - queue * slot
        self.moment = 2 + len(names) + 2 * params  # the card block's "cursor" feature
        self.kind_index = {name: i for i, name in enumerate(names)}
        self.instant_index = {name: i for i, name in enumerate(instants)}
        self.phase_at = starts["phase"]
        self.deciding_at = starts["deciding"]
        self.choosing_at = starts["choosing"]
        self.choices_left_at = starts["choices_left"]
        self.forward_at = starts["forward"]
        self.chance_at = starts["chance"]
        self.repeated_at = starts["repeated"]
        self.chips_at = starts["chips"]
        self.seats_at = starts["seats"]
        self.instant_status_at = starts["instant_status"]
        self.instant_card_at = starts["instant_card"]
        self.instant_chips_at = starts["instant_chips"]
        self.face_down_at = starts["face_down"]
        self.to_arrange_at = starts["to_arrange"]

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return Writer, self._made_with

    def write(self, state: State, seat: int, blocks: CardBlocks | None = None) -> bytes:
        """The position as ``seat`` may know it, seats numbered from ``seat``: one byte a
        feature, a negative number in two's complement. ``blocks``: the card blocks written
        for this game and seat before, copied where a card has not changed (and kept up to
        date here)."""
        # (librt's BytesWriter: compiled code sets its bytes as a C array's, where a
        # bytearray's would each take a call and a new index object.)
        buf = BytesWriter()
        p = self.players
        cf = self.card_features
        nk = len(self.names)
        slot = self.slot
        hidden = self.hidden and not state.is_over
        kinds, vals, mods, queues = state.kinds, state.vals, state.mods, state.queues
        # The program: each card's kind, numbers and queue, a block a card. The board replaces
        # a card's parts when they change, never changes them, so a block written from the
        # same objects is the same.
        cards = min(len(kinds), self.cards)
        for i in range(cards):
            known = not hidden or knows_card(state, seat, i)
            kind, v, m, q = kinds[i], vals[i], mods[i], queues[i]
            if blocks is not None and known and blocks.kinds[i] is kind and \
                    blocks.vals[i] is v and blocks.mods[i] is m and blocks.queues[i] is q:
                buf.write(blocks.blocks[i])
                continue
            block = self._card(seat, kind, v, m, q, known)
            buf.write(block)
            if blocks is not None and known:
                blocks.kinds[i], blocks.vals[i], blocks.mods[i], blocks.queues[i] = kind, v, m, q
                blocks.blocks[i] = block
        buf.write(self.tails[cards])
        # What belongs to the moment: the cursor, the card running, the pair in progress, the
        # flag deciding, flags on their way.
        at = self.moment
        if state.phase == "execution" and state.cursor < self.cards:
            buf[state.cursor * cf + at] = 1
        running = state.running_card
        if running is not None and running < self.cards:
            buf[running * cf + at + 1] = 1
        selection = state.selection
        if selection is not None:
            if isinstance(selection, tuple):
                sel_card, sel_k = selection[0], selection[1]
            else:
                sel_card, sel_k = selection, -1
            if sel_card < self.cards:
                buf[sel_card * cf + at + 2] = 1
                if 0 <= sel_k < self.queue:
                    buf[sel_card * cf + self.q_at + sel_k * slot + p + 3] = 1
        if state.decision == D_TURN:  # (the turn's flag: State.turn_flag, without its tuple)
            c, k = state.cursor, state.turn_pos
            if c < self.cards and k < self.queue:
                buf[c * cf + self.q_at + k * slot + p + 2] = 1
        if state.arrivals or state.jumps:
            uids = state.uids
            for s, u in state.arrivals:
                if u in uids and uids.index(u) < self.cards:
                    where = uids.index(u) * cf + at + 3 + (s - seat) % p
                    buf[where] = clip(buf[where] + 1)
            for j, t in state.jumps:
                if j in uids and t in uids and max(uids.index(j), uids.index(t)) < self.cards:
                    buf[uids.index(j) * cf + at + 3 + p] = 1
                    buf[uids.index(t) * cf + at + 4 + p] = 1
        # What is being decided.
        buf[self.phase_at + _PHASE_INDEX[state.phase]] = 1
        k = _DECIDING_INDEX.get(state.deciding, -1)
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
        nf = len(SEAT_FEATURES)
        to_move = -1 if state.to_move is None else state.to_move
        first = state.first
        winner = -1 if state.winner is None else state.winner
        alive, lives, supply = state.alive, state.lives, state.supply
        hand, removed, on_cards, tokens = state.hand, state.removed, state.on_board, state.tokens
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

    def _card(self, seat: int, kind: CardType, v: tuple[int, ...], m: tuple[int, ...],
              q: tuple[int, ...], known: bool) -> bytes:
        """One card's block: present, its kind and numbers where ``seat`` may know them, its
        queue (owners from ``seat`` round, pending, running)."""
        block = BytesWriter()
        block.write(self.card_zeros)
        nk = len(self.names)
        p = self.players
        block[0] = 1
        if known:
            block[1] = 1
            block[2 + self.kind_index[kind.name]] = 1
            for j in range(min(len(v), len(m))):
                block[2 + nk + j] = clip(v[j]) & 0xFF
                block[2 + nk + self.params + j] = clip(m[j]) & 0xFF
        if len(q) > self.queue:
            block[self.q_at - 1] = clip(len(q) - self.queue)
        at = self.q_at
        for k in range(min(len(q), self.queue)):
            code = q[k]
            block[at + ((code >> OWNER_SHIFT) - seat) % p] = 1
            if code & PENDING:
                block[at + p] = 1
            if code & RUNNING:
                block[at + p + 1] = 1
            at += self.slot
        return block.getvalue()

    def _instants(self, state: State, seat: int, buf: BytesWriter) -> None:
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
    themselves, given the codec's function from an engine action id to its compact id
    (``ActionCodec.encode``); each id's compact id is asked once and kept, since the same ids
    come back decision after decision."""

    def __init__(self, size: int, compact: Callable[[int], int]) -> None:
        self.size = size
        self.compact = compact
        self.known: dict[int, int] = {}
        self.none = bytes(size)  # the mask of no legal action

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return MaskWriter, (self.size, self.compact)

    def _learn(self, action: int) -> int:
        """``action``'s compact id, asked of the codec and kept (the loops look in ``known``
        first); ``ValueError`` (the codec's) for an id beyond its ranges."""
        c = self.compact(action)
        self.known[action] = c
        return c

    def write(self, legal: Sequence[int]) -> bytes:
        """The mask of ``legal``."""
        buf = BytesWriter()
        buf.write(self.none)
        known = self.known
        for action in legal:
            c = known.get(action)
            if c is None:
                c = self._learn(action)
            buf[c] = 1
        return buf.getvalue()

    def ids(self, legal: Sequence[int], base: int) -> bytes:
        """The compact ids of ``legal``, each plus ``base`` (a row's start in a batch of masks
        laid end to end), as 32-bit little-endian integers: what numpy sets in one step."""
        buf = BytesWriter()
        known = self.known
        for action in legal:
            c = known.get(action)
            if c is None:
                c = self._learn(action)
            write_i32_le(buf, base + c)
        return buf.getvalue()
