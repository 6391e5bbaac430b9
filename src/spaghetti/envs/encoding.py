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
  "me", ``1`` the next seat, ...), so one policy can play any seat. Every entry is a whole
  number within ``[-LIMIT, LIMIT]``, so the same vector also comes as ``int8``
  (``OBSERVATION_DTYPES``): a quarter of the memory, the same numbers.

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
from ..core.engines import python_module
from ..core.game import Game
from ..core.state import State
from ..errors import SetupError
from . import observation
from .observation import (CHOOSING, DECIDING, INSTANT_STATUS, LIMIT, PHASES, QUEUE_FEATURES,
                          CardBlocks, MaskWriter, SEAT_FEATURES, Writer)

#: Program cards, flag positions in one queue, parameters of one card, seats: the ranges the
#: compact ids cover (the OpenSpiel adapter's).
MAX_CARDS = 32
MAX_FLAGS = 32
MAX_PARAMS = 4
MAX_SEATS = 8
#: The observations' types an environment offers (``observation_dtype=``): the same numbers.
OBSERVATION_DTYPES = {"float32": np.float32, "int8": np.int8}

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
        #: The mask of legal actions (the environments'), and :meth:`encode`: a compact id
        #: found by arithmetic from the bands, or asked of :meth:`_encode_other` once and kept.
        self.mask_writer = MaskWriter(
            NUM_ACTIONS, self._encode_other,
            bands=[(kind, start, width, _PAIRED.get(kind, 0)) for kind, start, width in BANDS
                   if kind != _ARRANGE_BAND],
            bare=[_BARE.index(a) if a in _BARE else -1 for a in range(max(_BARE) + 1)])
        self._decoded: dict[int, int] = {}  # each compact id's action, once asked

    def encode(self, action: int) -> int:
        """The compact id of an engine action id; ``ValueError`` if it is beyond the ranges."""
        return self.mask_writer.id_of(int(action))  # (a numpy integer too)

    def _encode_other(self, action: int) -> int:
        """What the bands' arithmetic does not give (the mask writer asks once for each id):
        ``arrange NAME`` by the deck's names, and the errors."""
        if action < N.PLACE:
            raise ValueError(f"no compact id for the action id {action}")
        kind = action & N.KIND_MASK
        if kind == _ARRANGE_BAND:
            start, width = _BY_KIND[kind]
            arg = self._name_index[N.to_string(action).split(" ", 1)[1].lower()]
            if arg < width:
                return start + arg
        elif kind in _PAIRED and action & 0xFF >= _PAIRED[kind]:
            raise ValueError(f"{N.to_string(action)!r} is beyond what the compact ids "
                             f"encode ({_PAIRED[kind]} per card)")
        raise ValueError(f"{N.to_string(action)!r} is beyond what the compact ids encode")

    def decode(self, compact: int) -> int:
        """The engine action id of a compact id; ``ValueError`` if no action has it."""
        action = self._decoded.get(compact)
        if action is None:
            action = self._decode(compact)
            if type(compact) is int:  # (what a numpy integer gives back is numpy's)
                self._decoded[compact] = action
        return action

    def _decode(self, compact: int) -> int:
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
        return np.frombuffer(bytearray(self.mask_writer.write(legal)), dtype=np.int8)


# --------------------------------------------------------------------------- observations


def program_length(game: Game, program: list[str] | None) -> int:
    """How many cards the program holds at the start (it never grows): the length of the
    vector's card blocks."""
    if program is not None:
        return len(program)
    return len(game.shuffled_program(0))


class Encoder:
    """The observation vector of one game (variant, level, players, options, program length).

    The layout is fixed for a game and documented in docs/envs.md; :meth:`layout` lists it as
    ``(name, start, length)`` rows. Hidden information is never read for a seat that may not
    know it: :meth:`encode` of two positions that a seat cannot tell apart gives the same vector
    (tests/test_envs.py checks this against ``State.determinize``). The numbers are written by
    :class:`~spaghetti.envs.observation.Writer`, compiled with the rules core;
    ``python=True`` takes its Python source instead.
    """

    def __init__(self, game: Game, cards: int, python: bool = False):
        if cards > MAX_CARDS:
            raise SetupError(f"the environments encode programs of up to {MAX_CARDS} cards, "
                             f"not {cards}")
        self.game = game
        self.players = p = game.players
        self.cards = cards
        self.names = tuple(dict.fromkeys(card.name for card in game.deck))
        self.instants = tuple(card.name for card in game.rules.instant) \
            if game.option("instant_cards") else ()
        self.params = max((len(c.params) for c in game.deck), default=0)
        self.iparams = max((len(c.params) for c in game.rules.instant), default=0) \
            if self.instants else 0
        total = 10 * p  # flags of every colour (FLAGS_PER_COLOUR)
        self.queue = min(MAX_FLAGS, total)
        self.slot = p + QUEUE_FEATURES
        self.card_features = (2 + len(self.names) + 2 * self.params + 3 + p + 2 + 1
                              + self.queue * self.slot)
        rows: list[tuple[str, int]] = [
            ("cards", cards * self.card_features),
            ("phase", len(PHASES)), ("deciding", len(DECIDING)),
            ("choosing", len(CHOOSING) + 1), ("choices_left", 1), ("forward", 1),
            ("chance", 1), ("repeated", 1), ("chips", 2), ("opened", 1),
            ("seats", p * len(SEAT_FEATURES)),
            ("instant_status", p * len(INSTANT_STATUS) if self.instants else 0),
            ("instant_card", p * len(self.instants)),
            ("instant_chips", p * self.iparams),
            ("face_down", 3 if self.instants else 0),
            ("to_arrange", len(self.names) + 1 if game.option("fair_first") else 0),
        ]
        starts: dict[str, int] = {}
        at = 0
        self.rows: list[tuple[str, int, int]] = []
        for name, length in rows:
            starts[name] = at
            self.rows.append((name, at, length))
            at += length
        self.size = at
        # (``python=True``: the module's source run as Python, where it is compiled; the two
        # write the same vectors, which tests/test_envs.py checks.)
        module = python_module("envs.observation") if python else observation
        self._blocks = module.CardBlocks
        self.writer: Writer = module.Writer(
            p, cards, self.names, self.params, self.queue, self.slot, self.card_features,
            self.instants, self.iparams, starts, self.size,
            hidden=bool(game.option("sequential_open")), fair_first=bool(game.option("fair_first")))

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

    def seat_rotation(self, seat: int) -> np.ndarray | None:
        """Where each feature of seat 0's observation stands in ``seat``'s: ``encode(state,
        seat)[rotation] == encode(state, 0)`` in every position, since seats are numbered
        from the observer and nothing else differs. None where something else does: a game
        with hidden information (instant cards, sequential open), whose seats know different
        things. (A search that judges a position for every seat writes it once: ai/value.py.)"""
        if self.instants or self.writer.hidden:
            return None
        p = self.players
        rotation = np.arange(self.size)

        def rotate(start: int, width: int) -> None:
            """The ``p`` blocks of ``width`` features from ``start``, one a seat."""
            for s in range(p):
                new = start + (s - seat) % p * width
                rotation[start + s * width:start + (s + 1) * width] = range(new, new + width)

        in_card, at = {}, 0
        for name, length in self.card_layout():
            in_card[name] = at
            at += length
        for card in range(self.cards):
            base = card * self.card_features
            rotate(base + in_card["arriving"], 1)
            for k in range(self.queue):
                rotate(base + in_card["queue"] + k * self.slot, 1)  # (the flag's owner)
        rotate(next(start for name, start, _ in self.rows if name == "seats"),
               len(SEAT_FEATURES))
        return rotation

    def encode(self, state: State, seat: int, dtype: type = np.float32) -> np.ndarray:
        """The position as ``seat`` may know it, seats numbered from ``seat`` (a new array of
        ``dtype``, one of ``OBSERVATION_DTYPES``)."""
        return np.frombuffer(self.raw(state, seat), dtype=np.int8).astype(dtype)

    def raw(self, state: State, seat: int, blocks: CardBlocks | None = None) -> bytes:
        """:meth:`encode`'s numbers as they are written: one signed byte a feature.
        ``blocks`` (:meth:`card_blocks`, one for each seat it is used for): the observation
        written before for that seat, written over where the position changed; a card whose
        parts are the same objects is left as it is, as a search's positions mostly are."""
        return self.writer.write(state, int(seat), blocks)

    def card_blocks(self) -> CardBlocks:
        """A fresh row for :meth:`raw` to keep and write over, for one seat."""
        return self._blocks(self.writer.cards, self.writer.size)

    def bounds(self, dtype: type = np.float32) -> tuple[np.ndarray, np.ndarray]:
        """The observation space's bounds (every entry lies in ``[-LIMIT, LIMIT]``)."""
        return (np.full(self.size, -LIMIT, dtype=dtype), np.full(self.size, LIMIT, dtype=dtype))


def observation_dtype(name: str) -> type:
    """The numpy type of an observation named in ``OBSERVATION_DTYPES``, or a clear error."""
    if not isinstance(name, str) or name not in OBSERVATION_DTYPES:
        raise SetupError(f"observation_dtype is one of {', '.join(OBSERVATION_DTYPES)}, "
                         f"not {name!r}")
    return OBSERVATION_DTYPES[name]
