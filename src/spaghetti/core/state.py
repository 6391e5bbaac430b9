"""The state of a game and its one door: ``legal()`` and ``apply(option)``.

A game is a sequence of decision points (SPEC 7.1). At each one exactly one seat, ``to_move``,
picks one of ``legal()``; ``apply`` plays it, or raises :class:`IllegalOptionError` and changes
nothing. The same door is open in integer form (``legal_actions`` / ``apply_action``) for search,
which is far cheaper; :mod:`spaghetti.core.notation` converts between the two.

>>> from spaghetti.core.game import Game
>>> program = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
>>> state = Game(level=1).new_state(program=program)
>>> state.legal()[:2]
['place 0', 'place 1']
>>> state.apply("place 4")
>>> state.to_move
1

Representation, chosen for speed: the program is held as parallel lists indexed by position
(card kinds, parameter modifiers and values, queues, card identities). A queue is a tuple of
small integers, one per flag: the owner's seat shifted left by 3, plus mark bits. Flags are
interchangeable apart from their owner and marks, which is exactly what C9 says a position is made
of, so the position key is little more than these tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from ..errors import IllegalOptionError, NotationError
from . import notation as N
from .codes import COIN, DECLARE, DONE, INSTANT, INTERRUPT, PASS, PLACE, RUN, SEAT, TAKE
from .cards import CardType, Choose, Do, Step
# The game's facts as the board reads them: game.py makes states, so state.py names no Game.
from .primitives.base import GameFacts

from .flags import MOVED, OWNER_SHIFT, PENDING, RUNNING  # a flag's code (core/flags.py)

_TRANSIENT: Final = MOVED | RUNNING

# Phases.
SETUP: Final = "setup"
PLACEMENT: Final = "placement"
EXECUTION: Final = "execution"
OVER: Final = "over"
# What is being decided. The last five belong to the expansions (SPEC section 3): the fair first
# player's arrangement and seat choice, the instant card draft, sequential open's placement, and
# an eliminated player's interrupt.
# (Final, one to a line: the compiled core reads them as constants.)
D_PLACE: Final = 0
D_TURN: Final = 1
D_TARGET: Final = 2
D_OVER: Final = 3
D_ARRANGE: Final = 4
D_SEAT: Final = 5
D_TAKE: Final = 6
D_OPEN: Final = 7
D_INTERRUPT: Final = 8
# A chance event, not a player's choice: the Nightmare notes' coin flip for a visit's order.
D_COIN: Final = 9
_DECIDING = {D_PLACE: "place", D_TURN: "turn", D_OVER: "over", D_ARRANGE: "arrange",
             D_SEAT: "seat", D_TAKE: "take", D_OPEN: "open", D_INTERRUPT: "interrupt",
             D_COIN: "coin"}
_COIN_OUTCOMES: Final = (COIN | 0, COIN | 1)

# Marks a group of copied commands in ``State.later``: they run in the order of the direction
# at the moment each runs (SPEC 6). Told apart from a card by its type, not its identity, so
# that a pickled state plays on.
_COPY_GROUP: Final = "copies"
_NONE_COPIED: frozenset[int] = frozenset()
_TURN_PASS_ONLY: Final = (PASS,)
_TURN_PASS_RUN: Final = (PASS, RUN)


class BoardKey:
    """The board's part of a position key (the cards, their modifiers and chips, and lives
    where they heal), with its hash kept: the board changes at about one decision in ten, and
    every decision's key is hashed into ``seen``, so hashing it once saves most of that work.
    Equal to a BoardKey of the same parts of either path (the compiled and the Python one)."""

    __slots__ = ("parts", "hashed")

    def __init__(self, parts: tuple) -> None:
        self.parts = parts
        self.hashed = hash(parts)

    def __hash__(self) -> int:
        return self.hashed

    def __eq__(self, other: object) -> bool:
        return self is other or self.parts == getattr(other, "parts", None)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __repr__(self) -> str:
        return f"BoardKey{self.parts!r}"

    def __reduce__(self) -> tuple:
        return BoardKey, (self.parts,)


#: Every field of a state. ``State.copy`` assigns each one (a test checks it).
FIELDS = (
    "game", "program", "kinds", "mods", "vals", "queues", "uids", "cursor", "direction",
    "lives", "supply", "hand", "removed", "on_board", "chips", "alive", "phase", "decision",
    "to_move", "place_order", "place_index", "turn_pos", "cmd", "this_uid", "cmd_vals",
    "step_i", "count_left", "chosen", "n_chosen", "selected", "removed_queue", "rearrive",
    "marked", "winner", "draw", "reason", "seen", "seen_sig", "repeated", "history",
    "auto_stalemate", "derived", "is_over", "progressed", "_legal", "_sig", "plain", "rp_on",
    "memory_on", "flip", "trail", "here", "c10_visit", "later", "first_cmd", "first",
    "to_arrange", "deal", "instant", "instant_gone", "opened", "passes", "rot", "tokens",
    "interrupters", "inst_on", "intr_on", "seq_open", "drawn", "calls", "temp_chips",
    "simple_key", "arrivals", "jumps", "run_dir", "copied", "free", "win", "coin_on",
    "coin_due", "tail_first",
)


class State:
    """A game in progress. Mutable; :meth:`copy` is cheap."""

    __slots__ = FIELDS

    def __init__(self, game: GameFacts | None = None, cards: Sequence[CardType] = (),
                 instants: Iterable[CardType] = ()):
        if game is None:  # an empty shell that copy() fills in
            return
        n = game.players
        self.game = game
        self.program = tuple(c.name for c in cards)  # as dealt, for records
        self.kinds = list(cards)
        self.mods = [(0,) * len(c.params) for c in cards]
        self.vals = [c.params for c in cards]
        self.queues: list[tuple[int, ...]] = [() for _ in cards]
        self.uids = list(range(len(cards)))
        self.cursor = 0
        self.direction = 1
        self.lives = [game.life] * n
        self.supply = [game.supply] * n
        self.hand = [game.flags_placed] * n
        self.removed = [0] * n
        self.on_board = [0] * n
        self.chips = [game.chips, game.chips]  # Increment, Decrement chips in the shared supply
        self.alive = [True] * n
        self.phase = PLACEMENT
        self.place_order = game.placement_order
        self.place_index = 0
        self.decision = D_PLACE
        self.to_move: int | None = self.place_order[0]
        self.turn_pos = 0
        self.cmd: CardType | None = None
        self.this_uid = -1
        self.cmd_vals: tuple[int, ...] = ()
        self.step_i = 0
        self.count_left = 0
        self.chosen: frozenset[int] | int = 0
        self.n_chosen = 0
        self.selected: tuple[int, int] | int | None = None
        self.removed_queue: tuple[int, ...] | None = None
        self.rearrive = False
        self.marked = False
        self.winner: int | None = None
        self.draw = False
        self.reason: str | None = None
        self.seen: set = set()
        self.seen_sig: int | None = None  # see seen_signature; None: not kept
        self.repeated = False
        self.history: list[int] = []
        self.auto_stalemate = game.option("stalemate") == "auto"
        self.derived = False
        self.is_over = False  # True once the game has ended
        self.progressed = False  # an irreversible change since the last elimination check
        # Expansions (SPEC section 3). Without them, visits take a faster path.
        option = game.option
        self.rp_on = bool(option("reverse_priority"))
        self.memory_on = bool(option("memory"))
        self.flip = bool(option("reverse_flips_priority"))
        self.inst_on = bool(option("instant_cards"))
        self.intr_on = bool(option("interrupt"))
        self.seq_open = bool(option("sequential_open"))
        # Interrupt needs to see every advance; instant cards are part of the position (C9).
        # Pasta Logic: chips leave with the cursor (C17), and Subroutine's calls (C16).
        self.temp_chips = game.rules.temporary_chips
        self.calls: tuple = ()  # the cards whose visits wait for a call to end: uid, or
        #                         ("gone", uid) of the card the return goes to instead (C19),
        #                         or ("gone", None) for a removed caller that was itself
        #                         called: its caller's visit goes on (P28)
        # The expansions that see every arrival or advance take the expanded visit path.
        # The Nightmare notes' coin flip: at each visit of a card with two flags or more, a
        # chance event decides whether the queue is walked from the head or from the tail.
        self.coin_on = bool(option("coin_flip"))
        self.coin_due = False
        self.tail_first = False
        self.plain = not (self.rp_on or self.memory_on or self.flip or self.intr_on
                          or self.coin_on)
        # Those with state of their own add it to the position key (C9).
        # The Nightmare notes: flags that arrive when the cursor moves (seat, card uid), JUMP's
        # fixed destinations (JUMP uid, target uid), the direction at "run" (copies read it),
        # the copy cards already copied in this run (so copies end), free numbers.
        self.arrivals: tuple = ()
        self.jumps: tuple = ()
        self.run_dir = 1
        self.copied = _NONE_COPIED
        self.free = game.rules.free_numbers
        self.win = game.win_life
        self.simple_key = self.plain and not (self.inst_on or game.calls or game.delays)
        self.trail: tuple = (None, None)  # C11: the cards of the two arrivals before this one
        self.here: CardType | None = None  # the card of the latest arrival
        self.c10_visit = False  # this visit follows C10 (ReversePriority in the program)
        self.later: tuple = ()  # Memory: remembered commands still to run, with their values
        self.first_cmd = True  # the command running is the first of its run
        self._legal: tuple[int, ...] | None = None
        self._sig: BoardKey | None = None
        self.first = 0  # the first player: places first (seat 0 unless the fair first player)
        self.deal = tuple(instants)  # instant cards in face-down order (the referee's truth)
        # Per seat: the unused instant card and the net chips on its parameters, or None; and how
        # it left the game: None, ("used", card) revealed, or ("discarded", None) unrevealed.
        self.instant: tuple = (None,) * n
        self.instant_gone: tuple = (None,) * n
        # The cards before this index are face up (sequential open lays them out face down).
        self.opened = 0 if self.seq_open else len(cards)
        self.passes = 0  # sequential open: passes in a row on the open card
        self.rot = 0  # sequential open: the seat whose turn it is in the rotation
        self.tokens: tuple[int, ...] = (0,) * n  # interrupt tokens (C13)
        self.interrupters: tuple[int, ...] = ()  # eliminated seats still to answer this advance
        self.drawn: tuple[int, ...] = ()  # face-down instant cards taken so far, by index
        self.to_arrange: tuple[CardType, ...] = ()
        if option("fair_first"):  # A (seat 0) lays out the program card by card
            self.to_arrange = tuple(cards)
            for name in ("kinds", "mods", "vals", "queues", "uids"):
                setattr(self, name, [])
            self.phase = SETUP
            self.decision = D_ARRANGE
            self.to_move = 0
        else:
            self._after_arrangement()

    # ------------------------------------------------------------------ public API

    @property
    def players(self) -> int:
        return self.game.players

    def legal(self) -> list[str]:
        """The options of the current decision, in notation; empty when the game is over."""
        return [N.to_string(a) for a in self.legal_actions()]

    def apply(self, option: str) -> None:
        """Play one option given in notation. Raises and changes nothing if it is not legal."""
        try:
            action = N.parse(option)
        except NotationError as exc:
            raise IllegalOptionError(f"{exc}", str(option), tuple(self.legal())) from None
        self.apply_action(action, option)

    def legal_actions(self) -> tuple[int, ...]:
        """The options of the current decision as action ids."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def apply_action(self, action: int, _text: str | None = None) -> None:
        """Play one option given as an action id. Raises and changes nothing if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            self._reject(action, _text)
        self.history.append(action)
        self._legal = None
        d = self.decision
        if d == D_TURN:
            if action == PASS:
                if self.marked:
                    self._clear_marks()
                self._next_turn()
            elif action == RUN:
                self._start_command()
            elif action == INSTANT:
                self._start_instant()
            else:
                self._end_stalemate()
                return
        elif d == D_TARGET:
            if action == DECLARE:
                self._end_stalemate()
                return
            self._choose(action)
        elif d == D_PLACE:
            self._place(action & 0xFFFF)
        elif d == D_INTERRUPT:
            if action == DECLARE:
                self._end_stalemate()
                return
            self._interrupt(action)
        elif d == D_COIN:
            if action == DECLARE:
                self._end_stalemate()
                return
            self.coin_due = False
            self.tail_first = action == COIN | 1
            self._next_turn()
        else:
            self._setup_action(d, action)
        self._reached()

    def copy(self) -> State:
        """An independent copy of this state (its history and seen positions too)."""
        return self._copied(True)

    def _blank_copy(self) -> State:
        """The same without the history and the seen positions, for C4's trial runs."""
        return self._copied(False)

    def _copied(self, whole: bool) -> State:
        """Straight-line code, one assignment per field (FIELDS), the mutable ones copied:
        search copies a state for every node it makes."""
        new = State(None)
        new.game = self.game
        new.program = self.program
        new.kinds = self.kinds[:]
        new.mods = self.mods[:]
        new.vals = self.vals[:]
        new.queues = self.queues[:]
        new.uids = self.uids[:]
        new.cursor = self.cursor
        new.direction = self.direction
        new.lives = self.lives[:]
        new.supply = self.supply[:]
        new.hand = self.hand[:]
        new.removed = self.removed[:]
        new.on_board = self.on_board[:]
        new.chips = self.chips[:]
        new.alive = self.alive[:]
        new.phase = self.phase
        new.decision = self.decision
        new.to_move = self.to_move
        new.place_order = self.place_order
        new.place_index = self.place_index
        new.turn_pos = self.turn_pos
        new.cmd = self.cmd
        new.this_uid = self.this_uid
        new.cmd_vals = self.cmd_vals
        new.step_i = self.step_i
        new.count_left = self.count_left
        new.chosen = self.chosen
        new.n_chosen = self.n_chosen
        new.selected = self.selected
        new.removed_queue = self.removed_queue
        new.rearrive = self.rearrive
        new.marked = self.marked
        new.winner = self.winner
        new.draw = self.draw
        new.reason = self.reason
        new.repeated = self.repeated
        new.auto_stalemate = self.auto_stalemate
        new.derived = self.derived
        new.is_over = self.is_over
        new.progressed = self.progressed
        new._legal = self._legal
        new._sig = self._sig
        new.plain = self.plain
        new.rp_on = self.rp_on
        new.memory_on = self.memory_on
        new.flip = self.flip
        new.trail = self.trail
        new.here = self.here
        new.c10_visit = self.c10_visit
        new.later = self.later
        new.first_cmd = self.first_cmd
        new.first = self.first
        new.to_arrange = self.to_arrange
        new.deal = self.deal
        new.instant = self.instant
        new.instant_gone = self.instant_gone
        new.opened = self.opened
        new.passes = self.passes
        new.rot = self.rot
        new.tokens = self.tokens
        new.interrupters = self.interrupters
        new.inst_on = self.inst_on
        new.intr_on = self.intr_on
        new.seq_open = self.seq_open
        new.drawn = self.drawn
        new.calls = self.calls
        new.temp_chips = self.temp_chips
        new.simple_key = self.simple_key
        new.arrivals = self.arrivals
        new.jumps = self.jumps
        new.run_dir = self.run_dir
        new.copied = self.copied
        new.free = self.free
        new.win = self.win
        new.coin_on = self.coin_on
        new.coin_due = self.coin_due
        new.tail_first = self.tail_first
        if whole:
            new.history = self.history[:]
            new.seen = set(self.seen)
            new.seen_sig = self.seen_sig
        else:
            new.history = []
            new.seen = set()
            new.seen_sig = None
        return new

    @property
    def is_chance(self) -> bool:
        """Is the current decision a chance event (the coin flip), not a player's choice?"""
        return self.decision == D_COIN

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """At a chance event, each outcome in notation with its probability; else empty."""
        if self.decision != D_COIN:
            return []
        return [(N.to_string(a), 0.5) for a in _COIN_OUTCOMES]

    def may_declare(self, seat: int) -> bool:
        """C9 ``manual``: may ``seat`` declare a stalemate now? Any player still in the game
        may, whoever is to move, while the position is a repeat."""
        return self.repeated and not self.is_over and 0 <= seat < self.players and \
            self.alive[seat]

    def declare(self, seat: int) -> None:
        """C9 ``manual``: ``seat`` declares a stalemate; the game ends at once. The record holds
        ``declare`` at this decision point, whoever said it (the outcome does not depend on
        who). Raises and changes nothing if ``seat`` may not declare now."""
        if not self.may_declare(seat):
            why = ("the game is over" if self.is_over else
                   f"seat {seat} is not a player still in the game"
                   if not (0 <= seat < self.players and self.alive[seat]) else
                   "the position is not a repeat (C9)")
            raise IllegalOptionError(f"'declare' by seat {seat}: {why}", "declare",
                                     tuple(self.legal()))
        self.apply_action(DECLARE)

    def sample_chance(self, rng: Any) -> str:
        """An outcome of the current chance event, drawn with ``rng`` by its probability."""
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise ValueError("no chance event to draw for")
        r = rng.random()
        for option, p in outcomes:
            r -= p
            if r < 0:
                return option
        return outcomes[-1][0]

    @property
    def hidden(self) -> bool:
        """Does this game hide anything from the players (instant cards, sequential open)?"""
        return self.game.hidden_information

    @property
    def draw_order(self) -> tuple[int, int]:
        """The seats in the order they take instant cards: the second player first (000)."""
        return (1 - self.first, self.first)

    def drawn_by(self) -> dict[int, int]:
        """Each face-down instant card taken so far (by its number) and the seat that took it."""
        return dict(zip(self.drawn, self.draw_order))

    def determinize(self, seat: int, rng: Any) -> State:
        """A copy in which what ``seat`` may not know is dealt anew with ``rng``, consistently
        with what it knows: the instant cards it has not seen, and face-down cards not yet
        opened. Two states that ``seat`` cannot tell apart give the same copy for the same
        ``rng`` state, so a search on the copy cannot peek (information-set MCTS). The copy
        forgets the positions seen before (C9): they held the hidden truth."""
        new = self.copy()
        new.seen = set()
        new.seen_sig = None
        if self.is_over:
            return new
        if self.inst_on and self.deal:
            new._redeal_instants(seat, rng)
        if self.seq_open and not (self.game.option("fair_first") and seat == 0):
            new._redeal_face_down(rng)
        return new

    def _redeal_instants(self, seat: int, rng: Any) -> None:
        owner = self.drawn_by()
        unknown = [i for i in range(len(self.deal)) if i not in owner or not (
            owner[i] == seat or (self.instant_gone[owner[i]] or ("",))[0] == "used")]
        cards = sorted((self.deal[i] for i in unknown), key=lambda c: c.name)
        for _ in range(24):  # a held card's chips must fit the parameters dealt to it
            rng.shuffle(cards)
            deal = list(self.deal)
            for i, card in zip(unknown, cards):
                deal[i] = card
            instant = list(self.instant)
            for i in unknown:
                held = instant[owner[i]] if i in owner else None
                if held:
                    mods = held[1]
                    if any(m for m in mods[len(deal[i].params):]):
                        break
                    instant[owner[i]] = (deal[i], tuple(
                        mods[j] if j < len(mods) else 0 for j in range(len(deal[i].params))))
            else:
                self.deal, self.instant = tuple(deal), tuple(instant)
                return

    def _redeal_face_down(self, rng: Any) -> None:
        """Sequential open: the cards not yet opened (and those A has still to lay out) are dealt
        anew; they hold no flags and no chips yet."""
        start = self.opened
        pool = self.kinds[start:] + list(self.to_arrange)
        pool.sort(key=lambda c: c.name)
        rng.shuffle(pool)
        n = len(self.kinds) - start
        self.kinds[start:] = pool[:n]
        self.vals[start:] = [c.params for c in pool[:n]]
        self.mods[start:] = [(0,) * len(c.params) for c in pool[:n]]
        self.to_arrange = tuple(pool[n:])
        self._sig = None

    def position_key(self) -> tuple:
        """The position (C9): what decides the future, with flags known only by owner and marks."""
        return self._key() + (tuple(self.lives), tuple(self.supply), tuple(self.hand),
                              tuple(self.alive), self.phase, self.first, self.opened,
                              self.passes, self.rot, self.to_arrange, self.instant_gone)

    def returns(self) -> list[float]:
        """+1 for the winner and -1 for the others; all 0 for a draw or a game not over."""
        if self.winner is None:
            return [0.0] * self.players
        return [1.0 if p == self.winner else -1.0 for p in range(self.players)]

    @property
    def deciding(self) -> str:
        """What the current decision is about: place, turn, card, flag, to, at, player, param,
        or over when the game has ended; with the expansions also arrange, seat, take, open
        (sequential open's place-or-pass) and interrupt."""
        d = self.decision
        if d != D_TARGET:
            return _DECIDING[d]
        assert self.cmd is not None  # (a target decision belongs to a command)
        prim = self.cmd.effect[self.step_i].prim
        if self.selected is not None:  # the second half of a pair, or Reorder's next place
            return prim.then or ""
        return prim.chooses or ""

    @property
    def turn_flag(self) -> tuple[int, int] | None:
        """``(card, k)``: the flag deciding whether to run its card, at a turn decision."""
        return (self.cursor, self.turn_pos) if self.decision == D_TURN else None

    @property
    def choosing(self) -> str | None:
        """The primitive the current target choice applies (``add_flag``, ``move_flag``,
        ``remove_flag``, ``damage``, ``move_card``, ``remove_card``, ``raise``, ``lower``)."""
        if self.decision != D_TARGET or self.cmd is None:
            return None
        return self.cmd.effect[self.step_i].action

    @property
    def selection(self) -> tuple[int, int] | int | None:
        """The first half of a pair waiting for its second: the flag ``(card, k)`` waiting for
        ``to N``, or the index of the card waiting for ``at N``."""
        sel = self.selected
        if self.decision != D_TARGET or sel is None:
            return None
        return sel if isinstance(sel, tuple) else self.uids.index(sel)

    @property
    def running_card(self) -> int | None:
        """Index of the card whose command is being run, or ``None``."""
        if self.cmd is None or self.this_uid not in self.uids:
            return None  # no command, or its card was removed while it ran (Memory, C3)
        return self.uids.index(self.this_uid)

    def values(self, card: int) -> tuple[int, ...]:
        """Current parameter values of the card at an index."""
        return self.vals[card]

    def owners(self, card: int) -> list[int]:
        """The owners of the flags on a card, head first."""
        return [c >> OWNER_SHIFT for c in self.queues[card]]

    @property
    def seen_positions(self) -> frozenset:
        """The positions seen since the last irreversible change (C9), by their repetition key:
        the history that decides whether the next position repeats."""
        return frozenset(self.seen)

    @property
    def seen_signature(self) -> int:
        """A 64-bit signature of :attr:`seen_positions` (the exclusive or of their hashes): a
        search's table of values tells two histories apart by it without hashing them whole.
        Equal histories have equal signatures within a process (string hashes are salted per
        process); unequal ones collide with odds of 2**-64. The first request computes it; from
        then on this state and its copies keep it up to date as positions are seen (play that
        never asks pays nothing)."""
        if self.seen_sig is None:
            signature = 0
            for key in self.seen:
                signature ^= hash(key)
            self.seen_sig = signature
        return self.seen_sig

    def pending(self, card: int) -> list[bool]:
        """For each flag of a card, head first: does it still have a turn to come in this visit?"""
        return [bool(c & PENDING) for c in self.queues[card]]

    @property
    def _actor(self) -> int:
        """The seat to move, where there is one (at every decision but a chance event)."""
        seat = self.to_move
        assert seat is not None
        return seat

    # ------------------------------------------------------------------ errors

    def _reject(self, action: int, text: str | None) -> None:
        try:
            shown = text if text is not None else N.to_string(action)
        except NotationError:
            shown = repr(action)
        legal = tuple(self.legal())
        if self.phase == OVER:
            raise IllegalOptionError(f"{shown!r}: the game is over", shown, legal)
        raise IllegalOptionError(
            f"{shown!r} is not legal here (seat {self.to_move} to {self.deciding}); "
            f"legal: {', '.join(legal)}", shown, legal)

    # ------------------------------------------------------------------ legal options

    def _compute_legal(self) -> tuple[int, ...]:
        d = self.decision
        if d == D_TURN:
            base: tuple[int, ...] = _TURN_PASS_RUN if self._can_run() else _TURN_PASS_ONLY
            if self.inst_on and self.instant[self._actor] is not None:
                base += (INSTANT,)  # C4: the card's departure alone changes the position
            return base + (DECLARE,) if self.repeated else base
        if d == D_TARGET:
            targets = self._targets()
            if self.n_chosen and self.selected is None:
                targets.append(DONE)
            if self.repeated:
                targets.append(DECLARE)
            return tuple(targets)
        if d == D_PLACE:
            if self.game.option("stacking"):  # Nightmare: any card, one's own flags too (N12)
                return tuple([PLACE | i for i in range(len(self.queues))])
            mine = self._actor << OWNER_SHIFT  # flags carry no marks during placement
            return tuple([PLACE | i for i, q in enumerate(self.queues) if mine not in q])
        return self._setup_legal(d)

    def _can_run(self) -> bool:
        """C4: "run" is offered only when some way of running leads to another position than
        passing does."""
        c = self.cursor
        card = self.kinds[c]
        if card.composite:
            steps = self._copied_steps(card, self.vals[c])
            if steps is None:  # its effects may cancel out: only the outcome tells
                return self._outcome_differs()
            return any(self._step_changes(k, step, v) for k, step, v in steps) or \
                self.c10_visit and self._c10_runner_moves()
        return self._changes(card, self.vals[c]) or self.c10_visit and self._c10_runner_moves()

    def _copied_steps(self, card: CardType, vals: tuple[int, ...]
                      ) -> list[tuple[CardType, Step, tuple[int, ...]]] | None:
        """For a card that copies other cards (MIMIC, ECHO): every step its run would run, its
        own and the copied cards', each with its card and values; known before the run since
        the copied cards are those ahead or behind in the direction now (SPEC 6). None when
        they may still cancel out (two steps that reverse or rotate the same things, a copied
        copy, Memory) or when the copied card depends on the run (FLOAT's next card): then
        only the outcome tells."""
        if card.recalls:
            return None
        n = len(self.queues)
        here = self.cursor
        steps: list[tuple[CardType, Step, tuple[int, ...]]] = []
        for step in card.effect:
            prim = step.prim
            if not prim.runs_others:
                steps.append((card, step, vals))
                continue
            if not prim.fixed_targets:
                return None
            for offset in prim.offsets(step, vals, n, self.direction):
                i = (here + offset) % n
                kind = self.kinds[i]
                if i == here:
                    continue
                if kind.composite:
                    return None
                steps.extend((kind, s, self.vals[i]) for s in kind.effect)
        undoable = [s.prim for _, s, _ in steps if s.prim.undoable]
        return None if len(undoable) > len(set(undoable)) else steps

    def _c10_runner_moves(self) -> bool:
        """C10 and C4: does sending the flag that has the turn to the tail (the head, walking
        backwards) change its queue, as passing would not?"""
        q = [code & ~_TRANSIENT for code in self.queues[self.cursor]]
        runner = q.pop(self.turn_pos)
        moved = [runner] + q if self._walks_backwards() else q + [runner]
        q.insert(self.turn_pos, runner)
        return moved != q

    def _outcome_differs(self, budget: int = 4096) -> bool:
        """C4 decided by outcome: does some way of running (``run``, then every choice of
        targets) lead to another position than passing? Explored on copies, depth first,
        stopping at the first outcome that differs. ``budget`` bounds the copies made; a
        command with that many ways of running is taken to change something."""
        passed = self._trial()
        passed._legal = _TURN_PASS_ONLY
        passed.apply_action(PASS)
        target = passed.position_key()
        ran = self._trial()
        ran._legal = (RUN,)
        ran.apply_action(RUN)
        stack = [ran]
        while stack:
            trial = stack.pop()
            if trial.decision != D_TARGET:
                if trial.position_key() != target:
                    return True
                continue
            for action in trial.legal_actions():
                if action == DECLARE:
                    continue
                budget -= 1
                if budget < 0:
                    return True
                child = trial.copy()
                child.apply_action(action)
                stack.append(child)
        return False

    def _trial(self) -> State:
        """A copy to try a line on, blind to repetition (it only compares outcomes)."""
        trial = self._blank_copy()
        trial.auto_stalemate = False
        return trial

    def _changes(self, card: CardType, vals: tuple[int, ...]) -> bool:
        """Would running this command, with these values, change the game (C4)? Each step's
        primitive answers for itself; a choice with nothing to choose is no change."""
        for step in card.effect:
            if self._step_changes(card, step, vals):
                return True
        return False

    def _step_changes(self, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        """C4 for one step of a command (a choice with nothing to choose changes nothing)."""
        if step.__class__ is Choose:
            if step.count is not None and vals[step.count] <= 0:
                return False
            if step.amount is not None and vals[step.amount] == 0:
                return False
        return step.prim.changes(self, card, step, vals)

    def _targets(self) -> list[int]:
        """Targets of the current Choose step (not yet ``done``)."""
        assert self.cmd is not None
        step = self.cmd.effect[self.step_i]
        return step.prim.targets(self, step, self.cmd_vals)

    def _this_index(self) -> int:
        """The index of "this card": the running command's, or at ``run`` the cursor's; -1
        once it has left the game."""
        if self.cmd is None:
            return self.cursor
        this = self.this_uid
        return self.uids.index(this) if this in self.uids else -1

    # ------------------------------------------------------------------ placement

    def _place(self, card: int) -> None:
        seat = self.to_move  # as _put, inline: placement is a hot path of random play
        assert seat is not None
        self.queues[card] += (seat << OWNER_SHIFT,)
        self.hand[seat] -= 1
        self.on_board[seat] += 1
        self.place_index += 1
        if self.place_index < len(self.place_order):
            self.to_move = self.place_order[self.place_index]
            return
        self._begin_execution()

    def _put(self, card: int, seat: int) -> None:
        """A flag from the seat's hand joins the card's tail (placement)."""
        self.queues[card] += (seat << OWNER_SHIFT,)
        self.hand[seat] -= 1
        self.on_board[seat] += 1

    def _begin_execution(self) -> None:
        """Start of execution (SPEC 7.1): eliminations, then a fresh arrival on card 0."""
        self.phase = EXECUTION
        self._sig = None
        if self._eliminate():
            return
        self.cursor = 0
        self.direction = 1
        self._arrive()
        self._next_turn()

    # ------------------------------------------------------------------ setup (SPEC section 3)

    def _after_arrangement(self) -> None:
        """The program is laid out: the instant card draft if on, then placement."""
        if self.inst_on:
            self.phase = SETUP
            self.decision = D_TAKE
            self.to_move = self.draw_order[0]
        else:
            self._start_placement()

    def _start_placement(self) -> None:
        self.phase = PLACEMENT
        if self.seq_open:  # card 0 opens; the first player starts the rotation
            self.opened = 1
            self.rot = self.to_move = self.first
            self.passes = 0
            self.decision = D_OPEN
            return
        n = self.players
        self.place_order = tuple((s + self.first) % n for s in self.game.placement_order)
        self.place_index = 0
        self.decision = D_PLACE
        self.to_move = self.place_order[0]

    def _setup_legal(self, d: int) -> tuple[int, ...]:
        if d == D_OPEN:
            seat = self._actor
            c = self.opened - 1
            if self.hand[seat] and seat << OWNER_SHIFT not in self.queues[c]:
                return (PASS, PLACE | c)
            return (PASS,)
        if d == D_INTERRUPT:
            options = (PASS,) + tuple(INTERRUPT | i for i in range(len(self.queues)))
            return options + (DECLARE,) if self.repeated else options
        if d == D_COIN:
            return _COIN_OUTCOMES + (DECLARE,) if self.repeated else _COIN_OUTCOMES
        if d == D_ARRANGE:
            return tuple(dict.fromkeys(N.arrange(card.name) for card in self.to_arrange))
        if d == D_SEAT:
            return (SEAT | 0, SEAT | 1)
        if d == D_TAKE:
            return tuple(TAKE | i for i in range(len(self.deal)) if i not in self.drawn)
        return ()

    def _setup_action(self, d: int, action: int) -> None:
        arg = action & 0xFFFF
        if d == D_OPEN:
            self._open_turn(action)
        elif d == D_ARRANGE:  # fair first player: A puts the named card next in the program
            k = next(k for k, card in enumerate(self.to_arrange) if N.arrange(card.name) == action)
            card = self.to_arrange[k]
            self.to_arrange = self.to_arrange[:k] + self.to_arrange[k + 1:]
            self.kinds.append(card)
            self.mods.append((0,) * len(card.params))
            self.vals.append(card.params)
            self.queues.append(())
            self.uids.append(len(self.uids))
            if not self.seq_open:
                self.opened = len(self.kinds)
            if not self.to_arrange:
                self.decision = D_SEAT
                self.to_move = 1  # B, the player who did not arrange, chooses
        elif d == D_SEAT:
            self.first = 1 if arg == 0 else 0  # B is seat 1: "first" makes seat 1 first
            self._after_arrangement()
        else:  # D_TAKE
            self.drawn += (arg,)
            card = self.deal[arg]
            instant = list(self.instant)
            instant[self._actor] = (card, (0,) * len(card.params))
            self.instant = tuple(instant)
            if len(self.drawn) == 2:  # the third card stays face down all game
                self._start_placement()
            else:
                self.to_move = self.draw_order[1]

    def _open_turn(self, action: int) -> None:
        """Sequential open: place on the open card or pass, in one rotation; when everyone has
        passed in a row the next card opens; after the last, C14."""
        n = self.players
        if action == PASS:
            self.passes += 1
        else:
            self._put(self.opened - 1, self._actor)
            self.passes = 0
        self.rot = (self.rot + 1) % n
        if not any(self.hand):  # every flag is placed: the rest open, and execution begins
            self.opened = len(self.queues)
            self._begin_execution()
            return
        if self.passes == n:
            self.passes = 0
            if self.opened == len(self.queues):  # C14: the rest as in 2.2, the rotation going on
                order, hand, seat = [], list(self.hand), self.rot
                while any(hand):
                    if hand[seat]:
                        order.append(seat)
                        hand[seat] -= 1
                    seat = (seat + 1) % n
                self.place_order = tuple(order)
                self.place_index = 0
                self.decision = D_PLACE
                self.to_move = order[0]
                return
            self.opened += 1
        self.to_move = self.rot

    def _offer_interrupts(self) -> bool:
        """C13, after an advance and before the visit: eliminated players gain a token when the
        cursor comes onto card 0 (P15: never more tokens than flags in supply), then each one
        holding a token, in seat order, may interrupt. True if someone is to decide."""
        alive = self.alive
        if all(alive):
            return False
        n = self.players
        if self.cursor == 0:
            self.tokens = tuple(t if alive[p] else min(t + 1, self.supply[p])
                                for p, t in enumerate(self.tokens))
        who = tuple(p for p in range(n) if not alive[p] and self.tokens[p] and self.supply[p])
        if not who:
            return False
        self.interrupters = who
        self.decision = D_INTERRUPT
        self.to_move = who[0]
        return True

    def _interrupt(self, action: int) -> None:
        seat = self._actor
        if action != PASS:  # spend a token: a flag from supply joins the card's tail
            self.tokens = tuple(t - (p == seat) for p, t in enumerate(self.tokens))
            self._add_flag(action & 0xFFFF, seat)
        self.interrupters = self.interrupters[1:]
        if self.interrupters:
            self.to_move = self.interrupters[0]
            return
        self._arrive()  # the visit starts with the interrupting flags in place
        self._next_turn()

    # ------------------------------------------------------------------ visits (C1)

    def _arrive(self) -> None:
        """The cursor arrives at its card: every flag then on it is pending (C1); with
        ReversePriority in the program, only the first (C10)."""
        c = self.cursor
        if not self.plain:
            if self.memory_on:  # C11: every arrival counts, empty cards too
                self.trail = (self.trail[1], self.here)
                self.here = self.kinds[c]
            self.c10_visit = self.rp_on and self.game.rules.reverse_priority in self.kinds
        q = self.queues[c]
        if self.coin_on:  # a new visit: its order is yet to be flipped for, if it matters
            self.tail_first = False
            self.coin_due = len(q) > 1
        if not q:
            return
        if self.c10_visit:
            k = len(q) - 1 if self._walks_backwards() else 0
            self.queues[c] = q[:k] + (q[k] | PENDING,) + q[k + 1:]
        else:
            self.queues[c] = tuple([x | PENDING for x in q])

    def _walks_backwards(self) -> bool:
        """Option reverse_flips_priority: while the direction is -1, queues are walked from the
        tail (SPEC section 3)."""
        return self.flip and self.direction < 0 or self.tail_first

    def _next_turn(self) -> None:
        """Give the turn to the next pending flag, advancing the cursor as visits end."""
        if not self.plain:
            self._next_turn_expanded()
            return
        queues = self.queues
        c = self.cursor
        q = queues[c]
        k = 0
        for code in q:
            if code & PENDING:
                break
            k += 1
        else:
            if self.calls:  # a call's visit is over: back to the card that called (C16)
                self._return_from_call()
                self._next_turn()
                return
            # No pending flag left: the visit ends and the cursor advances to the next card
            # with flags (an empty card is visited and left at once).
            if self.arrivals:  # flags on their way arrive as the cursor moves
                self._land()
            n = len(queues)
            step = self.direction
            temp = self.temp_chips
            for _ in range(n):
                if temp:  # C17: the chips leave with the cursor
                    self._leave(c)
                c = (c + step) % n
                q = queues[c]
                if q:
                    break
            else:
                raise AssertionError("no flag on any card, yet the game is not over")
            self.cursor = c
            # Arrival (C1): every flag now on the card is pending; the head gets the turn.
            q = tuple([code | PENDING for code in q])
            k = 0
        code = q[k] ^ PENDING
        if self.kinds[c].uses_running_flag:  # P2 (the fast path: no expansion marks more)
            code |= RUNNING
            self.marked = True
        queues[c] = q[:k] + (code,) + q[k + 1:]
        self.turn_pos = k
        self.to_move = code >> OWNER_SHIFT
        self.decision = D_TURN

    def _next_turn_expanded(self) -> None:
        """As :meth:`_next_turn`, arriving at every card on the way (Memory remembers them)."""
        queues = self.queues
        empty = 0
        while True:
            c = self.cursor
            q = queues[c]
            if self.coin_due:  # chance decides the order of this visit first
                self.decision = D_COIN
                self.to_move = None
                return
            order = range(len(q) - 1, -1, -1) if self._walks_backwards() else range(len(q))
            for k in order:
                if q[k] & PENDING:
                    self._give_turn(c, q, k)
                    return
            if self.calls:  # a call's visit is over: back to the card that called (C16)
                self._return_from_call()
                continue
            empty = empty + 1 if not q else 0
            if empty > len(queues):
                raise AssertionError("no flag on any card, yet the game is not over")
            self._leave(c)
            if self.arrivals:
                self._land()
            self.cursor = (c + self.direction) % len(queues)
            if self.intr_on and self._offer_interrupts():
                return  # the visit starts once the interrupts are answered
            self._arrive()

    def _give_turn(self, c: int, q: tuple[int, ...], k: int) -> None:
        """The turn hand-over of the expanded path (the fast path has its own, inline)."""
        code = q[k] ^ PENDING
        card = self.kinds[c]
        # P2: the flag with the turn is marked while the rules can still refer to it.
        if card.uses_running_flag or self.c10_visit or card.recalls and any(
                r is not None and r.uses_running_flag for r in self.trail):
            code |= RUNNING
            self.marked = True
        self.queues[c] = q[:k] + (code,) + q[k + 1:]
        self.turn_pos = k
        self.to_move = code >> OWNER_SHIFT
        self.decision = D_TURN

    # ------------------------------------------------------------------ commands

    @staticmethod
    def _instant_values(held: tuple) -> tuple[int, ...]:
        card, mods = held
        return tuple(p + m for p, m in zip(card.params, mods))

    def _start_instant(self) -> None:
        """The flag's owner runs their instant card's command as if printed on this card; the
        instant card leaves the game, revealed."""
        seat = self._actor
        held = self.instant[seat]
        values = self._instant_values(held)  # counts are read at run
        self._instant_leaves(seat, "used")
        self._start_run()
        self._begin(held[0], values)

    def _instant_leaves(self, seat: int, how: str) -> None:
        """Seat's instant card leaves the game: ``used`` (revealed) or ``discarded``
        (RemoveCommand, unrevealed); its chips go back to the supply (P14)."""
        card, mods = self.instant[seat]
        self._chips_back(mods)
        self.instant = tuple(None if s == seat else h for s, h in enumerate(self.instant))
        self.instant_gone = tuple((how, card if how == "used" else None) if s == seat else g
                                  for s, g in enumerate(self.instant_gone))
        self._progress()

    def _start_run(self) -> None:
        """A run begins on the cursor's card: "this card" is fixed, and copies choose their
        cards by the direction now (SPEC 6, custom cards too) and end."""
        self.this_uid = self.uids[self.cursor]
        self.removed_queue = None
        self.first_cmd = True
        self.run_dir = self.direction
        self.copied = _NONE_COPIED  # (the copying card itself is never copied)

    def _start_command(self) -> None:
        c = self.cursor  # as _start_run, inline: a hot path of random play and search
        self.this_uid = self.uids[c]
        self.removed_queue = None
        self.first_cmd = True
        self.run_dir = self.direction
        self.copied = _NONE_COPIED
        card = self.kinds[c]
        if card.recalls:  # C11: the remembered commands, older first, as printed
            commands = self._remembered()
            if not commands:  # nothing to run (C10 may still send the runner to the tail)
                self.cmd = card
                self._end_command()
                return
            self.later = tuple(commands[1:])
            self._begin(*commands[0])
        else:
            self._begin(card, self.vals[c])  # counts are read at run (SPEC 7.1)

    def _remembered(self) -> list[tuple[CardType, tuple[int, ...]]]:
        """C11: what Memory runs: the remembered cards' commands with their printed values
        (a remembered Memory does nothing)."""
        return [(r, r.params) for r in self.trail if r is not None and not r.recalls]

    def _begin(self, card: CardType, values: tuple[int, ...]) -> None:
        self.cmd = card
        self.cmd_vals = values
        self.step_i = -1
        self._next_step()

    def _next_step(self) -> None:
        """Go on to the next step of the command, doing automatic steps, until a choice is due."""
        assert self.cmd is not None
        effect = self.cmd.effect
        vals = self.cmd_vals
        while True:
            self.step_i += 1
            if self.step_i == len(effect):
                self._end_command()
                return
            step = effect[self.step_i]
            if step.__class__ is Do:
                step.prim.do(self, step, vals)
                continue
            count = 1 if step.count is None else vals[step.count]
            if count <= 0 or (step.amount is not None and vals[step.amount] == 0):
                continue
            prim = step.prim
            if prim.automatic and prim.resolve(self, step):
                continue
            self.count_left = count
            self.chosen = prim.fresh
            self.n_chosen = 0
            self.selected = None
            self.decision = D_TARGET
            targets = self._targets()
            if targets:
                self._legal = tuple(targets)
                # Nothing has changed since "run" on this card: see _reached. Only where a
                # command starts by nothing else (no Memory, copies or instant cards).
                self.derived = self.step_i == 0 and self.first_cmd and self.simple_key \
                    and not self.game.runs_others
                return

    def _choose(self, action: int) -> None:
        """Apply one chosen target (C5, SPEC 7.1: it resolves at once)."""
        if action == DONE:
            self._next_step()
            return
        assert self.cmd is not None
        step = self.cmd.effect[self.step_i]
        if step.prim.choose(self, step, action):
            return  # the first half of a pair: its second half follows, no done between
        self.n_chosen += 1
        self.count_left -= 1
        if self.count_left:
            targets = self._targets()
            if targets:
                if self.selected is None:
                    targets.append(DONE)
                self._legal = tuple(targets)
                return
        self._next_step()

    def _return_from_call(self) -> None:
        """The called card's visit is over: the cursor goes back to the card that called. If
        that card was removed meanwhile, C3 applies from the place it had (C19)."""
        self._leave(self.cursor)
        to, fresh = self._pop_return()
        self.cursor = self.uids.index(to)
        if fresh:
            self._arrive()

    def _pop_return(self) -> tuple[int, bool]:
        """Where the visit of a called card returns to, and whether it arrives there afresh.
        The caller's visit goes on; a caller removed meanwhile that was itself called has
        its own visit ended too, back to its caller (P28); at the bottom of the chain, C3
        applies from the removed caller's place: its follower, arrived at afresh (C19)."""
        calls = self.calls
        while True:
            back = calls[-1]
            calls = calls[:-1]
            if back.__class__ is int or back[1] is not None:
                break
        self.calls = calls
        return (back, False) if back.__class__ is int else (back[1], True)

    def _leave(self, c: int) -> None:
        """The cursor leaves card c: with temporary chips (C17) its chips go back."""
        if self.temp_chips and any(self.mods[c]):
            self._chips_back(self.mods[c])
            self.mods[c] = (0,) * len(self.mods[c])
            self.vals[c] = self.kinds[c].params
            self._sig = None

    def _add_later(self, card: int, seat: int) -> None:
        """WORM, SPAWN: a flag from the seat's supply that joins the card's tail when the cursor
        next moves (the notes: so copies cannot breed flags without end)."""
        self._take_from_supply(seat)
        self.arrivals += ((seat, self.uids[card]),)
        self._progress()

    def _land(self) -> None:
        """The cursor moves: the flags on their way arrive, each at its card's tail, in the order
        they were sent; one whose card has gone back to its owner's supply (N4)."""
        for seat, uid in self.arrivals:
            if uid in self.uids:
                i = self.uids.index(uid)
                self.queues[i] += (seat << OWNER_SHIFT,)
                self.on_board[seat] += 1
            else:
                self.supply[seat] += 1
        self.arrivals = ()

    def _end_command(self) -> None:
        if self.later:  # Memory, copies: the next command, with targets of its own
            card, values = self._next_later()
            self.first_cmd = False
            self._clear_marks(MOVED)
            self._begin(card, values)
            return
        self.cmd = None
        if self.c10_visit and not self.rearrive:
            self._c10_to_tail()
        if self.marked:
            self._clear_marks()
        # Only irreversible changes (life lost, flags gone) can put a player out.
        if self.progressed and self._eliminate():
            return
        if self.rearrive:  # C3: the cursor's card was removed; its follower is a fresh arrival
            self.rearrive = False
            self._arrive()
        self._next_turn()

    def _next_later(self) -> tuple[CardType, tuple[int, ...]]:
        """Take the next command waiting to run. Of a group of copies, the first in the order
        the direction gives now (SPEC 6: 「コピーされた複数枚の実行順序はコピー実行時のPCの向きで
        決まる」): a REVERSE among them turns the order of those still to run."""
        head, rest = self.later[0], self.later[1:]
        if head[0].__class__ is not str:
            self.later = rest
            return head
        copies = sorted(head[1], key=lambda c: c[0] * self.direction)
        if len(copies) > 1:
            rest = ((_COPY_GROUP, tuple(copies[1:])),) + rest
        self.later = rest
        return copies[0][1], copies[0][2]

    def _clear_marks(self, marks: int = _TRANSIENT) -> None:
        self.marked = marks != _TRANSIENT
        queues = self.queues
        for i, q in enumerate(queues):
            for c in q:
                if c & marks:
                    queues[i] = tuple([c & ~marks for c in q])
                    break

    def _c10_to_tail(self) -> None:
        """C10: the flag that ran goes to the tail of the visited card, if still on it (to the
        head while the queue is walked backwards)."""
        c = self.cursor
        q = self.queues[c]
        for k, code in enumerate(q):
            if code & RUNNING:
                rest = q[:k] + q[k + 1:]
                self.queues[c] = (code,) + rest if self._walks_backwards() else rest + (code,)
                return

    # ------------------------------------------------------------------ primitives

    def _progress(self) -> None:
        """Something irreversible happened (life lost, flag taken from supply, flag or card
        removed, player out): no earlier position can come back, so forget them (C9)."""
        self.seen.clear()
        if self.seen_sig is not None:
            self.seen_sig = 0
        self.progressed = True

    def _add_flag(self, card: int, seat: int, head: bool = False) -> None:
        self._take_from_supply(seat)
        self.on_board[seat] += 1
        code = seat << OWNER_SHIFT
        self.queues[card] = (code,) + self.queues[card] if head else self.queues[card] + (code,)
        self._progress()

    def _take_from_supply(self, seat: int) -> None:
        """A flag leaves the seat's supply for the cards. P15: a player never holds more
        interrupt tokens than flags in supply (an eliminated player's interrupting flag may
        run AddFlag with the last one)."""
        supply = self.supply[seat] - 1
        self.supply[seat] = supply
        if self.tokens[seat] > supply:
            self.tokens = tuple(min(t, supply) if p == seat else t
                                for p, t in enumerate(self.tokens))

    def _discard(self, codes: Iterable[int]) -> None:
        """These flags have left the cards for good: count them removed."""
        for code in codes:
            owner = code >> OWNER_SHIFT
            self.removed[owner] += 1
            self.on_board[owner] -= 1

    def _remove_flag(self, card: int, k: int) -> None:
        q = self.queues[card]
        owner = q[k] >> OWNER_SHIFT  # one flag: counted here, not by _discard (a hot path)
        self.removed[owner] += 1
        self.on_board[owner] -= 1
        self.queues[card] = q[:k] + q[k + 1:]
        self._progress()

    def _move_flag(self, source: tuple[int, int], dest: int) -> None:
        card, k = source
        q = self.queues[card]
        code = q[k] & ~PENDING  # a flag that leaves its card loses its turn (C1)
        if self.count_left > 1:  # another move may follow: it must pick another flag (C5)
            code |= MOVED
            self.marked = True
        self.queues[card] = q[:k] + q[k + 1:]
        self.queues[dest] += (code,)

    def _damage(self, seat: int, amount: int) -> None:
        if amount:
            self.lives[seat] -= amount
            if self.game.heals:  # a life can come back: the loss is not irreversible (C9)
                self.progressed = True  # (eliminations are still checked)
                self._sig = None  # lives are in the key
            else:
                self._progress()

    def _heal(self, seat: int, amount: int) -> None:
        """The player gains ``amount`` life, never above the starting life (each player has
        only their five life counters)."""
        life = self.lives[seat]
        cap = self.game.life_cap
        self.lives[seat] = life + amount if cap is None else max(life, min(life + amount, cap))
        self.progressed = True  # a life may reach the height that wins, or fall (Nightmare)
        self._sig = None  # lives are in the key of a game that heals (C9)

    def _take_card(self, i: int) -> tuple[CardType, tuple[int, ...], tuple[int, ...],
                                          tuple[int, ...], int]:
        return (self.kinds.pop(i), self.mods.pop(i), self.vals.pop(i), self.queues.pop(i),
                self.uids.pop(i))

    def _move_card(self, i: int, at: int) -> None:
        """Take the card at i out and insert it at index ``at``; the cursor stays on its card."""
        cursor_uid = self.uids[self.cursor]
        kind, mods, vals, queue, uid = self._take_card(i)
        self.kinds.insert(at, kind)
        self.mods.insert(at, mods)
        self.vals.insert(at, vals)
        self.queues.insert(at, queue)
        self.uids.insert(at, uid)
        self.cursor = self.uids.index(cursor_uid)  # C2
        self._sig = None

    def _swap_card(self, j: int) -> None:
        """This card and card j swap places, each with its queue and chips; the cursor stays
        on its card (C2)."""
        i = self.uids.index(self.this_uid)
        cursor_uid = self.uids[self.cursor]
        kinds, mods, vals, queues, uids = self.kinds, self.mods, self.vals, self.queues, self.uids
        kinds[i], kinds[j] = kinds[j], kinds[i]
        mods[i], mods[j] = mods[j], mods[i]
        vals[i], vals[j] = vals[j], vals[i]
        queues[i], queues[j] = queues[j], queues[i]
        uids[i], uids[j] = uids[j], uids[i]
        self.cursor = self.uids.index(cursor_uid)
        self._sig = None

    def _remove_card(self, i: int) -> None:
        n = len(self.queues)
        cursor = self.cursor
        queue = self.queues[i]
        self.removed_queue = queue
        self._discard(queue)
        self._chips_back(self.mods[i])  # P8
        uid = self.uids[i]
        # C3's follower, worked out before the removal: a card, not an index.
        follower = self.uids[(i + self.direction) % n] if n > 1 else -1
        gone = ("gone", uid)
        if uid in self.calls or gone in self.calls:
            # C19: the return to this card goes to its follower instead (and so on, should
            # that one be removed too before the return); a caller that was itself called
            # only hands the return on to its own caller (P28).
            self.calls = tuple(
                (("gone", None) if j and u == uid else ("gone", follower))
                if u == uid or u == gone else u for j, u in enumerate(self.calls))
        to = self.uids[cursor]
        if i == cursor and n > 1:
            to = follower  # C3: the visit ends; the follower is arrived at anew
            self.rearrive = True
            if self.calls:  # C19: the called card's visit ends: back to the caller
                to, self.rearrive = self._pop_return()
        self._take_card(i)
        self.cursor = self.uids.index(to) if self.queues else 0
        self._sig = None
        self._progress()

    def _chips_back(self, mods: tuple[int, ...]) -> None:
        """A card with these net chips leaves the game: its chips go back to the supply (P8)."""
        if self.free:  # numbers that change freely are not chips (N2): nothing goes back
            return
        for m in mods:
            self.chips[m < 0] += abs(m)
        self._sig = None  # the chip supply is part of the position

    def _queue_copies(self, commands: list[tuple[int, CardType, tuple[int, ...]]]) -> None:
        """Copied commands (offset from this card, card, values) run next, as one group: their
        order is read from the direction as each runs (:meth:`_next_later`)."""
        self.later = ((_COPY_GROUP, tuple(commands)),) + self.later

    def _change_param(self, card: int, index: int, delta: int) -> None:
        """Raise (delta > 0) or lower a parameter by chips, within the chip supply (SPEC 2.5)."""
        mods = list(self.mods[card])
        printed = self.kinds[card].params[index]
        m = mods[index] = self._shift(printed, mods[index], delta)
        self.mods[card] = tuple(mods)
        vals = list(self.vals[card])
        vals[index] = printed + m
        self.vals[card] = tuple(vals)
        self._sig = None

    def _shift(self, printed: int, m: int, delta: int) -> int:
        """The net chips ``m`` on a parameter printed ``printed`` after raising it by ``delta``
        (lowering if negative), chip by chip within the shared chip supply (SPEC 2.5)."""
        if self.free:  # Nightmare: no chips, and numbers may go below zero
            return m + delta
        chips = self.chips
        self._sig = None  # the chip supply is part of the position
        if delta > 0:
            for _ in range(delta):
                if m < 0:
                    m += 1
                    chips[1] += 1
                elif chips[0]:
                    chips[0] -= 1
                    m += 1
                else:
                    break
        else:
            for _ in range(min(-delta, printed + m)):
                if m > 0:
                    m -= 1
                    chips[0] += 1
                elif chips[1]:
                    chips[1] -= 1
                    m -= 1
                else:
                    break
        return m

    # ------------------------------------------------------------------ the end (2.6, 2.7)

    def _eliminate(self) -> bool:
        """C6: eliminations after a whole command (or placement); True if the game is over."""
        self.progressed = False
        lives, on_board, alive = self.lives, self.on_board, self.alive
        for p, in_game in enumerate(alive):  # usually nobody is out: find that without a set
            if in_game and (lives[p] <= 0 or not on_board[p]):
                break
        else:
            return self.win is not None and self._height_win()
        out = {p for p in range(self.players) if alive[p] and (lives[p] <= 0 or not on_board[p])}
        before = [p for p in range(self.players) if alive[p]]
        for p in out:
            alive[p] = False
        if self.players >= 3:  # C7: an eliminated player's flags leave the game
            for i, q in enumerate(self.queues):
                kept = tuple(c for c in q if c >> OWNER_SHIFT not in out)
                if len(kept) < len(q):
                    self._discard(c for c in q if c >> OWNER_SHIFT in out)
                    self.queues[i] = kept
            if self.arrivals:  # those on their way too: they never land (N4)
                for seat, _ in self.arrivals:
                    if seat in out:
                        self.removed[seat] += 1
                self.arrivals = tuple(a for a in self.arrivals if a[0] not in out)
        self._progress()
        left = [p for p in range(self.players) if alive[p]]
        if len(left) == 1:
            self._finish(left[0], "elimination")
        elif not left:  # C8, or a draw where the game has no head-flag rule (C18)
            winner = None if self.game.rules.draws else self._everyone_out_winner(before)
            self._finish(winner, "elimination")
        elif self.win is not None:
            return self._height_win()
        return self.phase == OVER

    def _height_win(self) -> bool:
        """The Nightmare notes' "HP 20: win": a player still in whose life has reached it wins
        at once; if several do, the actor, or else the first of them after the actor in seat
        order (N7)."""
        win = self.win
        assert win is not None
        high = [p for p in range(self.players) if self.alive[p] and self.lives[p] >= win]
        if not high:
            return False
        actor = self.to_move if self.to_move is not None else 0
        self._finish(min(high, key=lambda p: (p - actor) % self.players), "height")
        return True

    def _everyone_out_winner(self, before: list[int]) -> int:
        """C8: after RemoveCommand the head (or tail) flag's owner of the removed card wins;
        after any other command, the actor."""
        queue = self.removed_queue
        if queue:
            order = queue[::-1] if self.game.option("remove_all_winner") == "tail" else queue
            for code in order:
                if code >> OWNER_SHIFT in before:
                    return code >> OWNER_SHIFT
        if self.to_move in before:
            return self.to_move
        # P16: an interrupting (eliminated) actor cannot win: the C9 tie-break among the players
        # who were still in decides.
        return self.tiebreak_winner(before)

    def _end_stalemate(self) -> None:
        self._finish(self.tiebreak_winner(), "stalemate")

    def tiebreak_winner(self, among: list[int] | None = None) -> int:
        """C9: the winner if the game were declared a stalemate now (among the players still
        in, or those given)."""
        tied = [p for p in range(self.players) if self.alive[p]] if among is None else among
        heads = [0] * self.players
        for q in self.queues:
            if q:
                heads[q[0] >> OWNER_SHIFT] += 1
        for measure in (self.lives, self.on_board, heads):
            best = max(measure[p] for p in tied)
            tied = [p for p in tied if measure[p] == best]
            if len(tied) == 1:
                return tied[0]
        n = len(self.queues)
        if self.game.rules.tiebreak_from_start:  # Spaghetti Monsters: from the start of the row
            walk = list(self.queues)
        else:
            walk = [self.queues[(self.cursor + self.direction * i) % n] for i in range(n)]
        for q in walk:
            if q and q[0] >> OWNER_SHIFT in tied:
                return q[0] >> OWNER_SHIFT
        for q in walk:
            for c in q:
                if c >> OWNER_SHIFT in tied:
                    return c >> OWNER_SHIFT
        return tied[0]

    def _finish(self, winner: int | None, reason: str) -> None:
        self.phase = OVER
        self.is_over = True
        self.decision = D_OVER
        self.winner = winner
        self.draw = winner is None
        self.reason = reason
        self.to_move = None
        self.cmd = None
        self._legal = ()

    # ------------------------------------------------------------------ repetition (C9)

    def _reached(self) -> None:
        """A decision point has been reached: check it against the earlier positions."""
        if self.phase != EXECUTION:
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
        seen = self.seen
        size = len(seen)
        key = self._key()
        seen.add(key)  # the set did not grow iff the position was seen
        if len(seen) == size:
            if self.auto_stalemate:
                self._end_stalemate()
                return
            self.repeated = True
            self._legal = None  # declare joins the options
            return
        if self.seen_sig is not None:
            self.seen_sig ^= hash(key)
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

    def _key(self) -> tuple:
        """The reversible part of the position. The rest (lives, supplies, hands, who is still
        in) only ever changes irreversibly, and every such change empties ``seen``
        (:meth:`_progress`), so within ``seen`` it is the same for every entry."""
        sig = self._sig
        if sig is None:
            sig = self._sig = BoardKey((tuple([k.name for k in self.kinds]), tuple(self.mods),
                                        tuple(self.chips), self.game.heals and tuple(self.lives)))
        d = self.decision
        ctx: object
        if d == D_TURN:
            ctx = self.to_move
        elif d == D_TARGET:
            ctx = self._target_context()
        else:
            ctx = (d, self.to_move, self.interrupters)
        key: tuple[Any, ...] = (ctx, self.cursor, self.direction, sig, *self.queues)
        if self.simple_key:
            return key
        # The state of the expansions (C9): the remembered cards, whether C10 rules the visit,
        # the unused instant cards with their chips, the interrupt tokens, the cards waiting
        # for a call to end.
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
            key += (None if older is None else older.name, None if newer is None else newer.name,
                    None if self.here is None else self.here.name)
        if self.rp_on:
            key += (self.c10_visit,)
        if self.inst_on:
            key += (tuple(h and (h[0].name, h[1]) for h in self.instant),)
        if self.intr_on:
            key += (self.tokens,)
        if self.calls:
            n = len(self.uids)  # a return to a follower (C19) counts from -n
            key += (tuple(self.uids.index(u) if u.__class__ is int
                          else None if u[1] is None else self.uids.index(u[1]) - n
                          for u in self.calls),)
        if self.coin_on:
            key += (self.tail_first,)
        if self.arrivals or self.jumps:  # flags on their way, fixed JUMP destinations
            index = {u: i for i, u in enumerate(self.uids)}
            key += ("on their way", tuple((s, index.get(u)) for s, u in self.arrivals),
                    tuple(sorted((index.get(j), index.get(t)) for j, t in self.jumps)))
        return key

    def _target_context(self) -> tuple:
        """What is being decided inside a command (SPEC 7.1): the command, its step, the count
        left and what has been chosen so far, with cards known by their current index."""
        chosen: object = self.chosen
        if isinstance(chosen, frozenset) and chosen:
            chosen = tuple(sorted([self.uids.index(u) for u in chosen if u in self.uids]))
        selected = self.selected
        if selected.__class__ is int:
            selected = self.uids.index(selected)
        # "this card" is the cursor's card while a command waits for a choice.
        assert self.cmd is not None
        return (self.to_move, self.cmd.name, self.step_i, self.cmd_vals, self.count_left,
                chosen, selected, self.rearrive, self._later_key())

    def _later_key(self) -> tuple:
        """The commands waiting to run (Memory, copies), by name; a group of copies with the
        offsets that order it."""
        return tuple(tuple((o, k.name) for o, k, _ in item[1]) if item[0].__class__ is str
                     else item[0].name for item in self.later)
