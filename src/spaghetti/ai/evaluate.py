"""A readable static evaluation of a position, for the greedy player and MCTS playout cut-offs.

``evaluate(state, seat)`` is a number in [-1, 1] from ``seat``'s point of view: +1 a sure win,
-1 a sure loss. A finished game is worth exactly its result (``state.returns()``); an unfinished
one is a weighted sum of a few differences between the seat and its opponents, squashed by
``tanh`` and scaled a little below 1, so that no unfinished position looks as good (or as bad) as
a finished one.

Each term is "mine minus the mean of the opponents still in the game", divided by what the
quantity starts at, so the terms are comparable and work for 2 to 5 players:

- **life** (weight ``W_LIFE``): lives are the main way to win or lose (life 0 is out), and every
  point lost is lost for good.
- **flags** on the cards (``W_FLAGS``): a player with no flag on a card is out, and each flag is
  a turn in every pass of the cursor, that is, a chance to act. During placement the flags still
  in hand count as well, or the seat that places first would look ahead.
- **supply** (``W_SUPPLY``, small): the flags AddFlag can still bring onto the cards; they only
  matter through AddFlag, hence the small weight.
- **heads** of the queues (``W_HEADS``): the head flag acts first in a visit, before anyone can
  move or remove it, and heads decide the stalemate tie-break after lives and flags.
- **soon** (``W_SOON``): whose flags get the next turns, walking from the cursor in its
  direction (the flags still pending on the cursor's card first), each turn weighted by
  ``SOON_DECAY`` to the power of how far away it is, and worth double on a card that hurts
  (Bug, ForkBomb). The position is a race: the next few turns decide who hits whom first.

``LearnedJudge`` is the other way a search judges its leaves, by a network (``ai/value.py``
makes it): it lives here because this module is compiled, so that call runs no Python.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

from ..core.flags import OWNER_SHIFT, PENDING
from ..core.state import State
from ..envs.observation import CardBlocks, Writer

W_LIFE: Final = 1.0
W_FLAGS: Final = 0.5
W_SUPPLY: Final = 0.1
W_HEADS: Final = 0.3
W_SOON: Final = 0.3

SOON_TURNS: Final = 8  # how many upcoming turns the "soon" term looks at
SOON_DECAY: Final = 0.8
HURTS: Final = 2.0  # weight of a turn on a card that damages a player, against 1 for any other card

SCALE: Final = 0.9  # an unfinished position is worth at most this much

#: The terms, in the order the weighted sum adds them.
TERMS: Final = ("life", "flags", "supply", "heads", "soon")
WEIGHTS = {"life": W_LIFE, "flags": W_FLAGS, "supply": W_SUPPLY, "heads": W_HEADS,
           "soon": W_SOON}
# (Each term's quantities are a list of floats, one a seat, in a list in TERMS' order, and the
# weights are named constants: the hot path of every search reads them by index and as C
# numbers, where names, dicts and tuples cost more than the sums.)
_tanh: Final = math.tanh  # (kept: compiled code would look it up in math at every call)


def _diff(values: list[float], seat: int, alive: list[bool]) -> float:
    """``values[seat]`` minus the mean over the other seats still in the game; 0 when none
    is."""
    total = 0.0
    others = 0
    for p in range(len(values)):
        if p != seat and alive[p]:
            total += values[p]
            others += 1
    if not others:
        return 0.0
    return values[seat] - total / others


def _lead(values: list[float], seat: int, alive: list[bool]) -> float:
    """``values[seat]`` minus the largest over the other seats still in the game; 0 when none
    is."""
    best = 0.0
    found = False
    for p in range(len(values)):
        if p != seat and alive[p] and (not found or values[p] > best):
            best = values[p]
            found = True
    return values[seat] - best if found else 0.0


def upcoming_turns(state: State, limit: int = SOON_TURNS) -> list[tuple[int, int]]:
    """The next ``limit`` turns as ``(seat, card)``, in order, as the cursor would give them if
    no command changed the program. During placement: none."""
    owners, cards = _upcoming(state, limit)
    return list(zip(owners, cards))


def _upcoming(state: State, limit: int) -> tuple[list[int], list[int]]:
    """:func:`upcoming_turns` as two lists, the seats and the cards."""
    owners: list[int] = []
    cards: list[int] = []
    queues = state.queues
    n = len(queues)
    if state.phase != "execution" or not n:
        return owners, cards
    c = state.cursor
    holder = state.turn_flag
    for k, code in enumerate(queues[c]):
        if code & PENDING or (holder is not None and k == holder[1]):  # the turn, then pending
            owners.append(code >> OWNER_SHIFT)
            cards.append(c)
    step = state.direction
    for _ in range(n * 2):
        if len(owners) >= limit:
            break
        c = (c + step) % n
        for code in queues[c]:
            owners.append(code >> OWNER_SHIFT)
            cards.append(c)
    return owners[:limit], cards[:limit]


def _quantities(state: State) -> list[list[float]]:
    """Each term's quantity for every seat (TERMS' order), before the differences: computed
    once a position, however many seats are judged. (The hot path of every search: it reads
    the flag codes of the queues directly.)"""
    players = len(state.alive)  # (a list's length: state.players is the game's, looked up)
    heads = [0.0] * players
    for queue in state.queues:
        if queue:
            owner = queue[0] >> OWNER_SHIFT
            heads[owner] = heads[owner] + 1.0  # (written out: compiled as a float's sum)
    soon = [0.0] * players
    weight = 1.0
    kinds = state.kinds
    owners, cards = _upcoming(state, SOON_TURNS)
    for i in range(len(owners)):
        owner = owners[i]
        soon[owner] = soon[owner] + weight * (HURTS if kinds[cards[i]].hurts else 1.0)
        weight *= SOON_DECAY
    lives, flags = _counts(state)
    return [lives, flags, [float(x) for x in state.supply], heads, soon]


def _counts(state: State) -> tuple[list[float], list[float]]:
    """Lives and flags of every seat: the quantities a beginner counts (``material``)."""
    alive = state.alive
    lives = [float(max(life, 0)) if alive[p] else 0.0 for p, life in enumerate(state.lives)]
    flags = [float(state.on_board[p] + state.hand[p]) for p in range(len(alive))]
    return lives, flags


def _scales(state: State) -> list[float]:
    """What each term's quantity starts at (TERMS' order): its difference is divided by it."""
    game = state.game
    return [float(game.life), float(game.flags_placed), float(max(game.supply, 1)),
            float(max(len(state.kinds), 1)), HURTS]


def terms(state: State, seat: int) -> dict[str, float]:
    """The unweighted terms of the evaluation (each roughly in [-1, 1]), for reading and tests."""
    quantities, scales, alive = _quantities(state), _scales(state), state.alive
    return {name: _diff(quantities[k], seat, alive) / scales[k] for k, name in enumerate(TERMS)}


def _weighted(quantities: list[list[float]], scales: list[float], seat: int,
              alive: list[bool]) -> float:
    """The weighted sum of ``seat``'s terms, each against the mean of the others."""
    total = 0.0  # (in TERMS' order, one after the other, as sum() added them until 3.12)
    total += W_LIFE * (_diff(quantities[0], seat, alive) / scales[0])
    total += W_FLAGS * (_diff(quantities[1], seat, alive) / scales[1])
    total += W_SUPPLY * (_diff(quantities[2], seat, alive) / scales[2])
    total += W_HEADS * (_diff(quantities[3], seat, alive) / scales[3])
    total += W_SOON * (_diff(quantities[4], seat, alive) / scales[4])
    return total


def evaluate(state: State, seat: int, rival: str = "mean") -> float:
    """The value of ``state`` for ``seat``, in [-1, 1] (exactly ``returns()`` when over).
    ``rival``: whom the seat is measured against with 3 players or more, ``"mean"`` (the mean
    of the opponents still in) or ``"leader"`` (the strongest of them); with 2 players the two
    are the same.

    >>> import spaghetti
    >>> state = spaghetti.new_game(seed=1)
    >>> evaluate(state, 0)
    0.0
    """
    if state.is_over:
        return state.returns()[seat]
    if not state.alive[seat]:
        return -1.0  # out of the game (3+ players): nothing left to win
    if rival == "leader" and state.players > 2:
        return evaluate_all(state, rival)[seat]
    return SCALE * _tanh(_weighted(_quantities(state), _scales(state), seat, state.alive))


def material(state: State, seat: int) -> float:
    """The evaluation of lives and flags alone, what a beginner counts (``easy`` judges by it):
    ``evaluate`` without the supply, the heads of the queues and whose turns come soon.

    >>> import spaghetti
    >>> material(spaghetti.new_game(seed=1), 0)
    0.0
    """
    if state.is_over:
        return state.returns()[seat]
    alive = state.alive
    if not alive[seat]:
        return -1.0
    lives, flags = _counts(state)  # (not the turns to come)
    scales = _scales(state)
    return SCALE * _tanh(W_LIFE * (_diff(lives, seat, alive) / scales[0])
                             + W_FLAGS * (_diff(flags, seat, alive) / scales[1]))


def evaluate_all(state: State, rival: str = "mean") -> list[float]:
    """``evaluate`` for every seat: the vector MCTS backs up at a playout cut-off, and max-n at
    its horizon.

    Against the leader, a seat's weighted sum of quantities is measured against the largest of
    the other seats' still in: only the strongest opponent stands between a seat and the win,
    so harm done to a trailing one is worth nothing. The search of ``normal`` judging by it
    scored 61 % (3 players) and 75 % (4 players) against ``easy``, which judges against the
    mean; judging against the mean, 50 % with 3 players (docs/performance.md, the ladder)."""
    if state.is_over:
        return state.returns()
    quantities, scales, alive = _quantities(state), _scales(state), state.alive
    players = len(alive)
    if rival == "leader" and players > 2:
        life, flags, supply, heads, soon = quantities
        strength = [0.0] * players
        for p in range(players):
            total = 0.0  # (in TERMS' order, one after the other, as sum() added them until 3.12)
            total += W_LIFE * life[p] / scales[0]
            total += W_FLAGS * flags[p] / scales[1]
            total += W_SUPPLY * supply[p] / scales[2]
            total += W_HEADS * heads[p] / scales[3]
            total += W_SOON * soon[p] / scales[4]
            strength[p] = total
        return [SCALE * _tanh(_lead(strength, p, alive)) if alive[p] else -1.0
                for p in range(players)]
    return [SCALE * _tanh(_weighted(quantities, scales, p, alive)) if alive[p] else -1.0
            for p in range(players)]


class LearnedJudge:
    """The learned evaluation as a search calls it at its horizon (``ai/value.py`` makes it,
    where its sums are exact: ``ValueNet.exact_sums``): the seat's observation written over the
    one written last for that seat (``envs/observation.py``), then the network in C
    (``ai/_value.c``, ``value_from``) adds the rows of the features that changed to that
    seat's first-layer sums. A class of this compiled module, so that the call a search makes
    at every leaf runs no Python."""

    def __init__(self, writer: Writer, blocks: list[CardBlocks],
                 kernel: Callable[[bytes, bytearray, bytearray, bytes, bytes, bytes, float],
                                  float],
                 w1q: bytes, b1: bytes, w2: bytes, b2: float, scale: float,
                 kernel_all: Callable[[bytes, bytearray, list[bytearray], list[bytes], bytes,
                                       bytes, float], list[float]],
                 rotated: list[bytes]) -> None:
        self.writer = writer
        self.blocks = blocks
        self.kernel = kernel
        self.w1q, self.b1, self.w2, self.b2 = w1q, b1, w2, b2
        self.scale = scale
        seats, inputs, hidden = len(blocks), writer.size, len(b1) // 4
        #: Each seat's last observation and its first layer's sums (doubles holding whole
        #: numbers of 2^-24).
        self.last = [bytearray(inputs) for _ in range(seats)]
        self.sums = [bytearray(8 * hidden) for _ in range(seats)]
        #: Where each seat's observation is seat 0's with the seats numbered from it
        #: (``Encoder.seat_rotation``): the first layer for each seat, its rows in the order of
        #: seat 0's features, so that one observation serves every seat (:meth:`every_seat`,
        #: by ``kernel_all``: ``_value.values_from``), with the last one read and each seat's
        #: sums of it; else empty.
        self.rotated = rotated
        self.kernel_all = kernel_all
        self.rotated_last = bytearray(inputs)
        self.rotated_sums = [bytearray(8 * hidden) for _ in range(seats)]

    def __call__(self, state: State, seat: int) -> float:
        return self.scale * self.kernel(self.writer.write(state, seat, self.blocks[seat]),
                                        self.last[seat], self.sums[seat], self.w1q, self.b1,
                                        self.w2, self.b2)

    def every_seat(self, state: State) -> list[float]:
        """The value for each seat: ``[self(state, s) for s in seats]`` to the last bit (the
        sums are exact, in any order), but the observation written once, for seat 0, where
        the others' are it renumbered (a max-n search judges every leaf so)."""
        if not self.rotated:
            return [self(state, s) for s in range(len(self.blocks))]
        values = self.kernel_all(self.writer.write(state, 0, self.blocks[0]), self.rotated_last,
                                 self.rotated_sums, self.rotated, self.b1, self.w2, self.b2)
        scale = self.scale
        return [scale * v for v in values]


def every_seat(judge: Callable[[State, int], float], state: State) -> list[float]:
    """``judge``'s value of the position for every seat (the learned one writes the position
    once for them all: :meth:`LearnedJudge.every_seat`)."""
    if isinstance(judge, LearnedJudge):
        return judge.every_seat(state)
    return [judge(state, p) for p in range(state.players)]
