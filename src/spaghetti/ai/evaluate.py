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
from collections.abc import Callable, Sequence

from ..core.flags import OWNER_SHIFT, PENDING
from ..core.state import State
from ..envs.observation import CardBlocks, Writer

W_LIFE = 1.0
W_FLAGS = 0.5
W_SUPPLY = 0.1
W_HEADS = 0.3
W_SOON = 0.3

SOON_TURNS = 8  # how many upcoming turns the "soon" term looks at
SOON_DECAY = 0.8
HURTS = 2.0  # weight of a turn on a card that damages a player, against 1 for any other card

SCALE = 0.9  # an unfinished position is worth at most this much


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _diff(values: Sequence[float], seat: int, alive: Sequence[bool],
          against: Callable[[list[float]], float] = _mean) -> float:
    """``values[seat]`` minus the mean (or ``against``, e.g. ``max``) over the other seats still
    in the game; 0 when none is."""
    others = [values[p] for p in range(len(values)) if p != seat and alive[p]]
    if not others:
        return 0.0
    return values[seat] - against(others)


def upcoming_turns(state: State, limit: int = SOON_TURNS) -> list[tuple[int, int]]:
    """The next ``limit`` turns as ``(seat, card)``, in order, as the cursor would give them if
    no command changed the program. During placement: none."""
    if state.phase != "execution":
        return []
    queues = state.queues
    n = len(queues)
    if not n:
        return []
    turns: list[tuple[int, int]] = []
    c = state.cursor
    holder = state.turn_flag
    for k, code in enumerate(queues[c]):
        if code & PENDING or (holder is not None and k == holder[1]):  # the turn, then pending
            turns.append((code >> OWNER_SHIFT, c))
    step = state.direction
    for _ in range(n * 2):
        if len(turns) >= limit:
            break
        c = (c + step) % n
        turns.extend((code >> OWNER_SHIFT, c) for code in queues[c])
    return turns[:limit]


def _hurts(kind) -> bool:
    """Does a card of this kind damage a player? (Read once per kind: kinds are immutable.)"""
    found = _HURTS.get(kind)
    if found is None:
        found = _HURTS[kind] = any(s.prim.hurts_chosen for s in kind.effect)
    return found


_HURTS: dict = {}


def _quantities(state: State) -> dict[str, list[float]]:
    """Each term's quantity for every seat, before the differences: computed once a position,
    however many seats are judged. (The hot path of every search: it reads the flag codes of
    the queues directly.)"""
    players = state.players
    heads = [0.0] * players
    for queue in state.queues:
        if queue:
            heads[queue[0] >> OWNER_SHIFT] += 1
    soon = [0.0] * players
    weight = 1.0
    kinds = state.kinds
    for owner, card in upcoming_turns(state):
        soon[owner] += weight * (HURTS if _hurts(kinds[card]) else 1.0)
        weight *= SOON_DECAY
    quantities = _counts(state)  # (first: the order the weighted sum adds them in)
    quantities["supply"] = [float(x) for x in state.supply]
    quantities["heads"] = heads
    quantities["soon"] = soon
    return quantities


def _counts(state: State) -> dict[str, list[float]]:
    """Lives and flags of every seat: the quantities a beginner counts (``material``)."""
    alive = state.alive
    lives = [float(max(life, 0)) if alive[p] else 0.0 for p, life in enumerate(state.lives)]
    flags = [float(state.on_board[p] + state.hand[p]) for p in range(state.players)]
    return {"life": lives, "flags": flags}


def _scales(state: State) -> dict[str, float]:
    game = state.game
    return {"life": game.life, "flags": game.flags_placed, "supply": max(game.supply, 1),
            "heads": max(len(state.kinds), 1), "soon": HURTS}


def terms(state: State, seat: int) -> dict[str, float]:
    """The unweighted terms of the evaluation (each roughly in [-1, 1]), for reading and tests."""
    return _terms(_quantities(state), _scales(state), seat, state.alive)


def _terms(quantities: dict[str, list[float]], scales: dict[str, float], seat: int,
           alive) -> dict[str, float]:
    return {name: _diff(values, seat, alive) / scales[name]
            for name, values in quantities.items()}


WEIGHTS = {"life": W_LIFE, "flags": W_FLAGS, "supply": W_SUPPLY, "heads": W_HEADS,
           "soon": W_SOON}


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
    return _squash(terms(state, seat))


def material(state: State, seat: int) -> float:
    """The evaluation of lives and flags alone, what a beginner counts (``easy`` judges by it):
    ``evaluate`` without the supply, the heads of the queues and whose turns come soon.

    >>> import spaghetti
    >>> material(spaghetti.new_game(seed=1), 0)
    0.0
    """
    if state.is_over:
        return state.returns()[seat]
    if not state.alive[seat]:
        return -1.0
    named = _terms(_counts(state), _scales(state), seat, state.alive)  # (not the turns to come)
    return SCALE * math.tanh(W_LIFE * named["life"] + W_FLAGS * named["flags"])


def _squash(named: dict[str, float]) -> float:
    return SCALE * math.tanh(sum(WEIGHTS[name] * value for name, value in named.items()))


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
    if rival == "leader" and state.players > 2:
        factors = [(WEIGHTS[name], scales[name], values) for name, values in quantities.items()]
        strength = [sum(w * values[p] / s for w, s, values in factors)
                    for p in range(state.players)]
        return [SCALE * math.tanh(_diff(strength, p, alive, max)) if alive[p] else -1.0
                for p in range(state.players)]
    return [_squash(_terms(quantities, scales, p, alive)) if alive[p] else -1.0
            for p in range(state.players)]


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
