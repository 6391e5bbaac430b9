"""The fields of a game in progress, and the operations on its board that the primitives
use (:class:`~spaghetti.core.primitives.base.Board`): flags, cards, lives, chips.

A state is a chain of classes, one concern each, from the inside out: :class:`BoardState`
(here), :class:`~spaghetti.core.position.Position` (the repetition key, C9),
:class:`~spaghetti.core.outcome.Outcome` (elimination, the end, the tie-break),
:class:`~spaghetti.core.opening.Opening` (setup and placement) and
:class:`~spaghetti.core.state.State` (the door and the visit loop).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from .codes import COIN, PASS, RUN
from .flags import MOVED, OWNER_SHIFT, PENDING, RUNNING
from .primitives.base import Board, CardType, GameFacts

_TRANSIENT: Final = MOVED | RUNNING
#: The empty ``seen_base`` every state starts from: shared, so never written (nothing writes a
#: ``seen_base``).
NOTHING_SEEN: Final[dict[tuple, Any]] = {}

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
# Each decision's name, by its number (a target decision's is its primitive's: "").
# (A Final tuple: compiled code indexes it as a constant, where a module's dict was looked up
# by name and then by key.)
DECISION_NAMES: Final[tuple[str, ...]] = ("place", "turn", "", "over", "arrange", "seat",
                                          "take", "open", "interrupt", "coin")
# (Typed tuple[int, ...], a tuple of any length: compiled code then keeps each one as a Python
# tuple made once, where a fixed-length tuple would be a C structure that every use turns into a
# new tuple.)
_COIN_OUTCOMES: Final[tuple[int, ...]] = (COIN | 0, COIN | 1)

# Marks a group of copied commands in ``State.later``: they run in the order of the direction
# at the moment each runs (SPEC 6). Told apart from a card by its type, not its identity, so
# that a pickled state plays on.
_COPY_GROUP: Final = "copies"
_NONE_COPIED: frozenset[int] = frozenset()
_TURN_PASS_ONLY: Final[tuple[int, ...]] = (PASS,)
_TURN_PASS_RUN: Final[tuple[int, ...]] = (PASS, RUN)


class BoardKey:
    """The board's part of a position key (the cards, their modifiers and chips, and lives
    where they heal), with its hash kept: the board changes at about one decision in ten, and
    every decision's key is hashed into ``seen``, so hashing it once saves most of that work.
    (Alpha-beta keeps its whole position keys so too: it hashes each four times.)
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
    "marked", "winner", "draw", "reason", "seen", "seen_base", "seen_whole", "seen_sig",
    "repeated",
    "history",
    "auto_stalemate", "derived", "is_over", "progressed", "_legal", "_sig", "plain", "rp_card",
    "memory_on", "flip", "trail", "here", "c10_visit", "later", "first_cmd", "first",
    "to_arrange", "deal", "instant", "instant_gone", "opened", "passes", "rot", "tokens",
    "interrupters", "inst_on", "intr_on", "seq_open", "drawn", "calls", "temp_chips",
    "simple_key", "arrivals", "jumps", "run_dir", "copied", "free", "win", "coin_on",
    "coin_due", "tail_first", "heals", "runs_others", "stacking", "blind",
)


class BoardState(Board):
    """The fields of a game in progress and its board's operations (see the module)."""

    __slots__ = tuple(name for name in FIELDS if name not in Board.__slots__)

    def __init__(self, game: GameFacts | None = None, cards: Sequence[CardType] = (),
                 instants: Iterable[CardType] = ()):
        if game is None:  # an empty shell that copy() fills in
            return
        n = game.players
        self.game = game
        self.program: tuple[str, ...] = ()  # the cards as dealt, for records (lay_out)
        self.kinds: list[CardType] = []
        self.mods: list[tuple[int, ...]] = []
        self.vals: list[tuple[int, ...]] = []
        self.queues: list[tuple[int, ...]] = []
        self.uids: list[int] = []
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
        self.chosen: Any = 0  # frozenset of uids or of options; for players a bit mask
        self.n_chosen = 0
        self.selected: Any = None  # the first half of a pair: a flag (card, k), or a uid
        self.removed_queue: tuple[int, ...] | None = None
        self.rearrive = False
        self.marked = False
        self.winner: int | None = None
        self.draw = False
        self.reason: str | None = None
        # The positions seen since the last irreversible change, by the rest of their key
        # (Position._reached); Position.seen_positions gives them whole. Those seen before a
        # search began are in seen_base, which the search's copies share and never write
        # (State.lookahead): each copy copies only what its own line has seen.
        self.seen: dict[tuple, Any] = {}
        self.seen_base: dict[tuple, Any] = NOTHING_SEEN
        self.seen_whole = False  # seen keys each position by its whole key
        self.seen_sig: int | None = None  # see seen_signature; None: not kept
        self.repeated = False
        self.blind = False  # a line C4 tries out: no position is looked for or remembered
        self.history: list[Any] = []  # action ids (as given: see State.apply_action)
        # (The options read as a dictionary: the game's option() is a call into Python.)
        option = game.options.get
        self.auto_stalemate = option("stalemate") == "auto"
        self.derived = False
        self.is_over = False  # True once the game has ended
        self.progressed = False  # an irreversible change since the last elimination check
        # Expansions (SPEC section 3). Without them, visits take a faster path.
        # ReversePriority's card where the option puts it in the deck (C10 looks for it in the
        # program at each arrival), else None.
        self.rp_card: CardType | None = \
            game.rules.reverse_priority if option("reverse_priority") else None
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
        self.plain = not (self.rp_card is not None or self.memory_on or self.flip or self.intr_on
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
        # Facts of the game read at every decision, kept here: compiled code reads the game's by
        # name, a field of its own directly.
        self.heals = game.heals
        self.runs_others = game.runs_others
        self.stacking = bool(option("stacking"))
        # C11: the cards of the two arrivals before this one
        self.trail: tuple[CardType | None, CardType | None] = (None, None)
        self.here: CardType | None = None  # the card of the latest arrival
        self.c10_visit = False  # this visit follows C10 (ReversePriority in the program)
        self.later: tuple = ()  # Memory: remembered commands still to run, with their values
        self.first_cmd = True  # the command running is the first of its run
        self._legal: tuple[int, ...] | None = None
        self._sig: BoardKey | None = None
        self.first = 0  # the first player: places first (seat 0 unless the fair first player)
        self.deal: tuple[CardType, ...] = ()  # instant cards face down in order (the referee's)
        # Per seat: the unused instant card and the net chips on its parameters, or None; and how
        # it left the game: None, ("used", card) revealed, or ("discarded", None) unrevealed.
        self.instant: tuple = (None,) * n
        self.instant_gone: tuple = (None,) * n
        self.opened = 0  # the cards before this index are face up (lay_out)
        self.passes = 0  # sequential open: passes in a row on the open card
        self.rot = 0  # sequential open: the seat whose turn it is in the rotation
        self.tokens: tuple[int, ...] = (0,) * n  # interrupt tokens (C13)
        self.interrupters: tuple[int, ...] = ()  # eliminated seats still to answer this advance
        self.drawn: tuple[int, ...] = ()  # face-down instant cards taken so far, by index
        self.to_arrange: tuple[CardType, ...] = ()
        self.lay_out(cards, instants)

    def lay_out(self, cards: Sequence[CardType], instants: Iterable[CardType]) -> None:
        """Deal the program's cards and the instant cards (face down, in order) to a state made
        without them: the start of a game. (Game.new_state copies such a state, made once for
        its game, and deals to the copy: a copy is several times cheaper than reading the
        game's facts again.)"""
        self.program = tuple([c.name for c in cards])
        self.deal = tuple(instants)
        # The cards before this index are face up (sequential open lays them out face down).
        self.opened = 0 if self.seq_open else len(cards)
        self._legal = None
        self._sig = None
        if self.game.option("fair_first"):  # A (seat 0) lays out the program card by card
            self.to_arrange = tuple(cards)
            self.phase = SETUP
            self.decision = D_ARRANGE
            self.to_move = 0
            return
        self.kinds = list(cards)
        self.mods = [(0,) * len(c.params) for c in cards]
        self.vals = [c.params for c in cards]
        self.queues = [() for _ in cards]
        self.uids = list(range(len(cards)))
        self._after_arrangement()

    @property
    def players(self) -> int:
        return self.game.players

    def values(self, card: int) -> tuple[int, ...]:
        """Current parameter values of the card at an index."""
        return self.vals[card]

    def owners(self, card: int) -> list[int]:
        """The owners of the flags on a card, head first."""
        return [c >> OWNER_SHIFT for c in self.queues[card]]

    def pending(self, card: int) -> list[bool]:
        """For each flag of a card, head first: does it still have a turn to come in this visit?"""
        return [bool(c & PENDING) for c in self.queues[card]]

    def this_index(self) -> int:
        """The index of "this card": the running command's, or at ``run`` the cursor's; -1
        once it has left the game."""
        if self.cmd is None:
            return self.cursor
        try:  # (one scan of the cards, where `in` then `index` made two)
            return self.uids.index(self.this_uid)
        except ValueError:
            return -1

    def _clear_marks(self, marks: int = _TRANSIENT) -> None:
        self.marked = marks != _TRANSIENT
        queues = self.queues
        for i, q in enumerate(queues):
            for c in q:
                if c & marks:
                    queues[i] = tuple([c & ~marks for c in q])
                    break

    def forget_key(self) -> None:
        """The board's part of the position key is made again when next asked for (after a
        change no operation here made)."""
        self._sig = None

    def offer(self, options: tuple[int, ...]) -> None:
        """The options of the next choice are these, as a primitive worked them out (Reorder's
        places), rather than its targets."""
        self._legal = options

    def progress(self) -> None:
        """Something irreversible happened (life lost, flag taken from supply, flag or card
        removed, player out): no earlier position can come back, so forget them (C9)."""
        self.seen.clear()
        self.seen_base = NOTHING_SEEN
        self.seen_whole = False
        if self.seen_sig is not None:
            self.seen_sig = 0
        self.progressed = True

    def add_flag(self, card: int, seat: int, head: bool = False) -> None:
        self.take_from_supply(seat)
        self.on_board[seat] += 1
        code = seat << OWNER_SHIFT
        self.queues[card] = (code,) + self.queues[card] if head else self.queues[card] + (code,)
        self.progress()

    def take_from_supply(self, seat: int) -> None:
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

    def remove_flag(self, card: int, k: int) -> None:
        q = self.queues[card]
        owner = q[k] >> OWNER_SHIFT  # one flag: counted here, not by _discard (a hot path)
        self.removed[owner] += 1
        self.on_board[owner] -= 1
        self.queues[card] = q[:k] + q[k + 1:]
        self.progress()

    def move_flag(self, source: tuple[int, int], dest: int) -> None:
        card, k = source
        q = self.queues[card]
        code = q[k] & ~PENDING  # a flag that leaves its card loses its turn (C1)
        if self.count_left > 1:  # another move may follow: it must pick another flag (C5)
            code |= MOVED
            self.marked = True
        self.queues[card] = q[:k] + q[k + 1:]
        self.queues[dest] += (code,)

    def damage(self, seat: int, amount: int) -> None:
        if amount:
            self.lives[seat] -= amount
            if self.heals:  # a life can come back: the loss is not irreversible (C9)
                self.progressed = True  # (eliminations are still checked)
                self._sig = None  # lives are in the key
            else:
                self.progress()

    def heal(self, seat: int, amount: int) -> None:
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

    def move_card(self, i: int, at: int) -> None:
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

    def swap_card(self, j: int) -> None:
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

    def remove_card(self, i: int) -> None:
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
        self.progress()

    def _chips_back(self, mods: tuple[int, ...]) -> None:
        """A card with these net chips leaves the game: its chips go back to the supply (P8)."""
        if self.free:  # numbers that change freely are not chips (N2): nothing goes back
            return
        for m in mods:
            self.chips[m < 0] += abs(m)
        self._sig = None  # the chip supply is part of the position

    def queue_copies(self, commands: list[tuple[int, CardType, tuple[int, ...]]]) -> None:
        """Copied commands (offset from this card, card, values) run next, as one group: their
        order is read from the direction as each runs (:meth:`_next_later`)."""
        self.later = ((_COPY_GROUP, tuple(commands)),) + self.later

    def change_param(self, card: int, index: int, delta: int) -> None:
        """Raise (delta > 0) or lower a parameter by chips, within the chip supply (SPEC 2.5)."""
        mods = list(self.mods[card])
        printed = self.kinds[card].params[index]
        m = mods[index] = self.shift(printed, mods[index], delta)
        self.mods[card] = tuple(mods)
        vals = list(self.vals[card])
        vals[index] = printed + m
        self.vals[card] = tuple(vals)
        self._sig = None

    def shift(self, printed: int, m: int, delta: int) -> int:
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

    def instant_leaves(self, seat: int, how: str) -> None:
        """Seat's instant card leaves the game: ``used`` (revealed) or ``discarded``
        (RemoveCommand, unrevealed); its chips go back to the supply (P14)."""
        card, mods = self.instant[seat]
        self._chips_back(mods)
        self.instant = tuple(None if s == seat else h for s, h in enumerate(self.instant))
        self.instant_gone = tuple((how, card if how == "used" else None) if s == seat else g
                                  for s, g in enumerate(self.instant_gone))
        self.progress()

    def add_later(self, card: int, seat: int) -> None:
        """WORM, SPAWN: a flag from the seat's supply that joins the card's tail when the cursor
        next moves (the notes: so copies cannot breed flags without end)."""
        self.take_from_supply(seat)
        self.arrivals += ((seat, self.uids[card]),)
        self.progress()

    def land(self) -> None:
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

    # The steps that the later classes of the chain take (see the module), named here for the
    # operations above and the setup that call them.

    def _after_arrangement(self) -> None:
        raise NotImplementedError  # (opening.py)

    def _end_stalemate(self) -> None:
        raise NotImplementedError  # (outcome.py)

    def _next_turn(self) -> None:
        raise NotImplementedError  # (state.py)

    def _pop_return(self) -> tuple[int, bool]:
        raise NotImplementedError  # (state.py)
