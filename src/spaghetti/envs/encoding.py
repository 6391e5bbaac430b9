"""Fixed-size tensors of a position, as one seat may know it, and compact action ids.

Two things every research environment needs from the engine, kept apart from any framework so
that PettingZoo, Gymnasium and anything else read the same numbers (docs/envs.md):

- :class:`ActionCodec`: the engine's action ids (:mod:`spaghetti.core.notation`) as compact ids
  ``0 .. NUM_ACTIONS - 1``. The first ``OPENSPIEL_ACTIONS`` ids are exactly those of the
  OpenSpiel adapter (:mod:`spaghetti.interop.openspiel`): the bare options, then one band per
  option kind (``place N``, ``card N``, ``to N``, ``at N``, ``player S``, ``interrupt N``,
  ``coin``, ``flag N.K``, ``param N.I``). The expansions' setup and instant-card options follow
  (``take N``, ``seat``, ``arrange NAME`` by the card's place in the game's deck, ``card iS``,
  ``param iS.I``): the OpenSpiel game of imperfect information uses every id, the
  perfect-information ones only those first ids.
- :class:`Encoder`: a position as a flat ``float32`` vector from one seat's point of view: what
  that seat may see and nothing else (:mod:`spaghetti.core.view`'s rules: another seat's unused
  instant card and face-down cards never show). Seats are numbered from the observer (``0`` is
  "me", ``1`` the next seat, ...), so one policy can play any seat.

>>> from spaghetti import Game
>>> state = Game(level=1).new_state(seed=1)
>>> codec = ActionCodec(state.game)
>>> [codec.decode(codec.encode(a)) == a for a in state.legal_actions()] == [True] * 5
True
>>> enc = Encoder(state.game, len(state.kinds))
>>> enc.encode(state, 0).shape == (enc.size,)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import notation as N
from ..core.flags import OWNER_SHIFT, PENDING, RUNNING
from ..core.game import Game
from ..core.state import State
from ..core.view import knows_card, knows_instant
from ..errors import SetupError

#: Program cards, flag positions in one queue, parameters of one card, seats: the ranges the
#: compact ids cover (the OpenSpiel adapter's).
MAX_CARDS = 32
MAX_FLAGS = 32
MAX_PARAMS = 4
MAX_SEATS = 8

_BARE = (N.PASS, N.RUN, N.DONE, N.DECLARE, N.INSTANT)
_ARRANGE_BAND = N.ARRANGE  # (its argument is the card's place in the deck, not a name number)
_WIDTHS = ((N.PLACE, MAX_CARDS), (N.CARD, MAX_CARDS), (N.TO, MAX_CARDS), (N.AT, MAX_CARDS),
           (N.PLAYER, MAX_SEATS), (N.INTERRUPT, MAX_CARDS), (N.COIN, 2),
           (N.FLAG, MAX_CARDS * MAX_FLAGS), (N.PARAM, MAX_CARDS * MAX_PARAMS),
           # Beyond the OpenSpiel adapter's ids: the expansions.
           (N.TAKE, 4), (N.SEAT, 2), (N.ARRANGE, MAX_CARDS), (N.ICARD, MAX_SEATS),
           (N.IPARAM, MAX_SEATS * MAX_PARAMS))
BANDS: tuple[tuple[int, int, int], ...]
_bands = []
_next = len(_BARE)
for _kind, _width in _WIDTHS:
    _bands.append((_kind, _next, _width))
    _next += _width
BANDS = tuple(_bands)
#: How many compact ids there are (the size of the action space and of the mask).
NUM_ACTIONS = _next
#: The ids shared with the OpenSpiel adapter (its ``NUM_ACTIONS``).
OPENSPIEL_ACTIONS = next(start for kind, start, _ in BANDS if kind == N.TAKE)
_BY_KIND = {kind: (start, width) for kind, start, width in BANDS}
_PAIRED = {N.FLAG: MAX_FLAGS, N.PARAM: MAX_PARAMS, N.IPARAM: MAX_PARAMS}


class ActionCodec:
    """Compact ids for the actions of one game (``arrange NAME`` needs the game's deck)."""

    def __init__(self, game: Game):
        self.names = tuple(dict.fromkeys(card.name for card in game.deck))
        self._name_index = {name.lower(): i for i, name in enumerate(self.names)}

    def encode(self, action: int) -> int:
        """The compact id of an engine action id; ``ValueError`` if it is beyond the ranges."""
        if action < N.PLACE:
            return _BARE.index(action)
        kind = action & N.KIND_MASK
        start, width = _BY_KIND[kind]
        arg = action & 0xFFFF
        if kind in _PAIRED:
            high, low = arg >> 8, arg & 0xFF
            if low >= _PAIRED[kind]:
                raise ValueError(f"{N.to_string(action)!r} is beyond what the compact ids "
                                 f"encode ({_PAIRED[kind]} per card)")
            arg = high * _PAIRED[kind] + low
        elif kind == _ARRANGE_BAND:
            arg = self._name_index[N.to_string(action).split(" ", 1)[1].lower()]
        if arg >= width:
            raise ValueError(f"{N.to_string(action)!r} is beyond what the compact ids encode")
        return start + arg

    def decode(self, compact: int) -> int:
        """The engine action id of a compact id; ``ValueError`` if no action has it."""
        if 0 <= compact < len(_BARE):
            return _BARE[compact]
        for kind, start, width in BANDS:
            if start <= compact < start + width:
                arg = compact - start
                if kind in _PAIRED:
                    return kind | (arg // _PAIRED[kind]) << 8 | arg % _PAIRED[kind]
                if kind == _ARRANGE_BAND:
                    if arg >= len(self.names):
                        break
                    return N.arrange(self.names[arg])
                return kind | arg
        raise ValueError(f"no action has the compact id {compact}")

    @staticmethod
    def arguments(compact: int) -> tuple[int, int, int]:
        """A compact id taken apart: ``(band, first, second)``. Bands 0-4 are the bare options,
        then :data:`BANDS` in order; ``flag 2.5`` gives (its band, 2, 5), ``place 3`` (its band,
        3, 0), ``arrange NAME`` the card's place in the deck as its first argument."""
        if 0 <= compact < len(_BARE):
            return compact, 0, 0
        for band, (kind, start, width) in enumerate(BANDS, len(_BARE)):
            if start <= compact < start + width:
                arg = compact - start
                if kind in _PAIRED:
                    return band, arg // _PAIRED[kind], arg % _PAIRED[kind]
                return band, arg, 0
        raise ValueError(f"no action has the compact id {compact}")

    def mask(self, legal: Sequence[int]) -> np.ndarray:
        """The legal actions as a 0/1 ``int8`` vector of ``NUM_ACTIONS``."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        if legal:
            mask[[self.encode(a) for a in legal]] = 1
        return mask


# --------------------------------------------------------------------------- observations

#: The phases, and what a decision is about (``State.deciding``), in their one-hot order.
PHASES = ("setup", "placement", "execution", "over")
DECIDING = ("place", "turn", "card", "flag", "to", "at", "player", "param", "arrange", "seat",
            "take", "open", "interrupt", "coin", "over")
#: The choose primitives a target decision may apply (``State.choosing``), in one-hot order; a
#: primitive not listed (a new one) sets the last bit, "other".
CHOOSING = ("add_flag", "move_flag", "remove_flag", "charm", "reorder", "remove_card",
            "move_card", "swap_card", "float", "jump", "call", "damage", "heal", "raise",
            "lower")
#: Instant card status per seat, one-hot.
INSTANT_STATUS = ("none", "held", "used", "discarded")
#: Numbers are clipped to this range (lives, values, counts); every entry lies in it.
LIMIT = 99.0
_QUEUE_FEATURES = 4  # pending, running, the flag deciding this turn, the pair's second place
_SEAT_FEATURES = ("alive", "to_move", "first", "winner", "life", "supply", "hand", "removed",
                  "on_cards", "tokens")


def _clip(x: float) -> float:
    return -LIMIT if x < -LIMIT else LIMIT if x > LIMIT else x


class Encoder:
    """The observation vector of one game (variant, level, players, options, program length).

    The layout is fixed for a game and documented in docs/envs.md; :meth:`layout` lists it as
    ``(name, start, length)`` rows. Hidden information is never read for a seat that may not
    know it: :meth:`encode` of two positions that a seat cannot tell apart gives the same vector
    (tests/test_envs.py checks this against ``State.determinize``).
    """

    def __init__(self, game: Game, cards: int):
        if cards > MAX_CARDS:
            raise SetupError(f"the environments encode programs of up to {MAX_CARDS} cards, "
                             f"not {cards}")
        self.game = game
        self.players = p = game.players
        self.cards = cards
        self.names = tuple(dict.fromkeys(card.name for card in game.deck))
        self._kind_index = {name: i for i, name in enumerate(self.names)}
        self.instants = tuple(card.name for card in game.rules.instant) \
            if game.option("instant_cards") else ()
        self._instant_index = {name: i for i, name in enumerate(self.instants)}
        self.params = max((len(c.params) for c in game.deck), default=0)
        self.iparams = max((len(c.params) for c in game.rules.instant), default=0) \
            if self.instants else 0
        total = 10 * p  # flags of every colour (FLAGS_PER_COLOUR)
        self.queue = min(MAX_FLAGS, total)
        self.slot = p + _QUEUE_FEATURES
        self.card_features = (2 + len(self.names) + 2 * self.params + 3 + p + 2 + 1
                              + self.queue * self.slot)
        rows: list[tuple[str, int]] = [
            ("cards", cards * self.card_features),
            ("phase", len(PHASES)), ("deciding", len(DECIDING)),
            ("choosing", len(CHOOSING) + 1), ("choices_left", 1), ("forward", 1),
            ("chance", 1), ("repeated", 1), ("chips", 2), ("opened", 1),
            ("seats", p * len(_SEAT_FEATURES)),
            ("instant_status", p * len(INSTANT_STATUS) if self.instants else 0),
            ("instant_card", p * len(self.instants)),
            ("instant_chips", p * self.iparams),
            ("face_down", 3 if self.instants else 0),
            ("to_arrange", len(self.names) + 1 if game.option("fair_first") else 0),
        ]
        self._start: dict[str, int] = {}
        at = 0
        self.rows: list[tuple[str, int, int]] = []
        for name, length in rows:
            self._start[name] = at
            self.rows.append((name, at, length))
            at += length
        self.size = at
        self._q_at = self.card_features - self.queue * self.slot
        self._overflow = self._q_at - 1
        self._rows: dict[tuple, np.ndarray] = {}
        self._hidden = bool(game.option("sequential_open"))
        self._fair_first = bool(game.option("fair_first"))
        self._sequential = bool(game.option("sequential_open"))

    def layout(self) -> list[tuple[str, int, int]]:
        """The blocks of the vector in order: ``(name, start, length)``."""
        return list(self.rows)

    def card_layout(self) -> list[tuple[str, int]]:
        """The features of one card's block in order: ``(name, length)``."""
        return [("present", 1), ("known", 1), ("kind", len(self.names)),
                ("values", self.params), ("chips", self.params), ("cursor", 1),
                ("running", 1), ("selected", 1), ("arriving", self.players),
                ("jump_from", 1), ("jump_to", 1), ("overflow", 1),
                ("queue", self.queue * self.slot)]

    def _card_row(self, key: tuple) -> np.ndarray:
        """The part of a card's block that depends on the card alone (kind, numbers, queue) and
        the observer: cached, since most cards do not change from one decision to the next."""
        row = self._rows.get(key)
        if row is not None:
            return row
        name, vals, mods, queue, known, seat = key
        p, nk, np_ = self.players, len(self.names), self.params
        row = np.zeros(self.card_features, dtype=np.float32)
        row[0] = 1.0
        if known:
            row[1] = 1.0
            row[2 + self._kind_index[name]] = 1.0
            for j, (v, m) in enumerate(zip(vals, mods)):
                row[2 + nk + j] = v
                row[2 + nk + np_ + j] = m
        if len(queue) > self.queue:
            row[self._overflow] = len(queue) - self.queue
        at = self._q_at
        for code in queue[:self.queue]:
            row[at + ((code >> OWNER_SHIFT) - seat) % p] = 1.0
            if code & PENDING:
                row[at + p] = 1.0
            if code & RUNNING:
                row[at + p + 1] = 1.0
            at += self.slot
        np.clip(row, -LIMIT, LIMIT, out=row)
        row.flags.writeable = False
        if len(self._rows) >= 100_000:
            self._rows.clear()
        self._rows[key] = row
        return row

    def encode(self, state: State, seat: int) -> np.ndarray:
        """The position as ``seat`` may know it, seats numbered from ``seat``."""
        obs = np.zeros(self.size, dtype=np.float32)
        cards = obs[:self.cards * self.card_features].reshape(self.cards, self.card_features)
        p = self.players
        rel = [(s - seat) % p for s in range(p)]
        start = self._start
        # The program: the cached part of each card's block, then what is about this moment.
        hidden = self._hidden and not state.is_over
        card_row = self._card_row
        rows = self._rows
        kinds, vals, mods, queues = state.kinds, state.vals, state.mods, state.queues
        for i in range(min(len(kinds), self.cards)):
            known = not hidden or knows_card(state, seat, i)
            key = (kinds[i].name, vals[i], mods[i], queues[i], known, seat)
            row = rows.get(key)
            cards[i] = row if row is not None else card_row(key)
        flat = obs
        cf = self.card_features
        at = 2 + len(self.names) + 2 * self.params
        if state.phase == "execution" and state.cursor < self.cards:
            flat[state.cursor * cf + at] = 1.0
        running = state.running_card
        if running is not None and running < self.cards:
            flat[running * cf + at + 1] = 1.0
        selection = state.selection
        if selection is not None:
            sel_card, sel_k = selection if isinstance(selection, tuple) else (selection, None)
            if sel_card < self.cards:
                flat[sel_card * cf + at + 2] = 1.0
                if sel_k is not None and sel_k < self.queue:
                    flat[sel_card * cf + self._q_at + sel_k * self.slot + p + 3] = 1.0
        turn = state.turn_flag
        if turn is not None and turn[0] < self.cards and turn[1] < self.queue:
            flat[turn[0] * cf + self._q_at + turn[1] * self.slot + p + 2] = 1.0
        if state.arrivals or state.jumps:
            uids = state.uids
            for s, u in state.arrivals:
                if u in uids and uids.index(u) < self.cards:
                    flat[uids.index(u) * cf + at + 3 + rel[s]] += 1.0
            for j, t in state.jumps:
                if j in uids and t in uids and max(uids.index(j), uids.index(t)) < self.cards:
                    flat[uids.index(j) * cf + at + 3 + p] = 1.0
                    flat[uids.index(t) * cf + at + 4 + p] = 1.0
        # What is being decided.
        flat[start["phase"] + PHASES.index(state.phase)] = 1.0
        deciding = state.deciding
        if deciding in DECIDING:
            flat[start["deciding"] + DECIDING.index(deciding)] = 1.0
        choosing = state.choosing
        if choosing is not None:
            flat[start["choosing"] + (CHOOSING.index(choosing) if choosing in CHOOSING
                                      else len(CHOOSING))] = 1.0
            flat[start["choices_left"]] = min(state.count_left, LIMIT)
        if state.direction > 0:
            flat[start["forward"]] = 1.0
        if state.is_chance:
            flat[start["chance"]] = 1.0
        if state.repeated:
            flat[start["repeated"]] = 1.0
        at = start["chips"]
        flat[at:at + 3] = (state.chips[0], state.chips[1], state.opened)
        # The seats, from the observer round.
        on_cards = [0] * p
        for queue in queues:
            for code in queue:
                on_cards[code >> OWNER_SHIFT] += 1
        nf = len(_SEAT_FEATURES)
        seats = start["seats"]
        for s in range(p):
            at = seats + rel[s] * nf
            flat[at:at + nf] = (state.alive[s], state.to_move == s, state.first == s,
                                state.winner == s, _clip(state.lives[s]), state.supply[s],
                                state.hand[s], state.removed[s], on_cards[s], state.tokens[s])
        if self.instants:
            self._instants(state, seat, rel, flat)
        if self._fair_first:
            at = start["to_arrange"]
            flat[at + len(self.names)] = len(state.to_arrange)
            if seat == 0 or not self._sequential or state.is_over:
                for card in state.to_arrange:
                    flat[at + self._kind_index[card.name]] += 1.0
        return obs

    def _instants(self, state: State, seat: int, rel: list[int], flat: np.ndarray) -> None:
        start = self._start
        taken = {s: i for i, s in state.drawn_by().items()}
        ni, nip = len(self.instants), self.iparams
        for s in range(self.players):
            r = rel[s]
            held, gone = state.instant[s], state.instant_gone[s]
            status = "held" if held else gone[0] if gone else "none"
            flat[start["instant_status"] + r * len(INSTANT_STATUS)
                 + INSTANT_STATUS.index(status)] = 1.0
            if s in taken and knows_instant(state, seat, s):
                card = state.deal[taken[s]]
                flat[start["instant_card"] + r * ni + self._instant_index[card.name]] = 1.0
            if held:  # chips placed on it are public (as the view shows them)
                for j, m in enumerate(held[1][:nip]):
                    flat[start["instant_chips"] + r * nip + j] = _clip(m)
        if state.phase == "setup":
            for i in range(3):
                if i not in state.drawn:
                    flat[start["face_down"] + i] = 1.0

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """The observation space's bounds (every entry lies in ``[-LIMIT, LIMIT]``)."""
        return (np.full(self.size, -LIMIT, dtype=np.float32),
                np.full(self.size, LIMIT, dtype=np.float32))
