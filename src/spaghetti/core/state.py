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

:class:`State` is the last of a chain of classes, one concern a module: the fields and the board's
operations (:mod:`.board`), the position and the repetition check (:mod:`.position`), the end
(:mod:`.outcome`), setup and placement (:mod:`.opening`); here, the door, the visit loop and the
commands.
"""

from __future__ import annotations

from typing import Any, NoReturn, cast

from ..errors import IllegalOptionError, NotationError
from . import notation as N
from .board import (
    _COIN_OUTCOMES,
    _COPY_GROUP,
    DECISION_NAMES,
    _NONE_COPIED,
    _TRANSIENT,
    _TURN_PASS_ONLY,
    _TURN_PASS_RUN,
    D_COIN,
    D_INTERRUPT,
    D_PLACE,
    D_TARGET,
    D_TURN,
    EXECUTION,
    FIELDS,
    OVER,
    PLACEMENT,
    SETUP,
    NOTHING_SEEN,
    BoardKey,
)
from .cards import CardType, Choose, Do, Step
from .codes import COIN, DECLARE, DONE, INSTANT, PASS, PLACE_ID, RUN
from .flags import MOVED, OWNER_SHIFT, PENDING, RUNNING
from .opening import Opening

__all__ = ["EXECUTION", "FIELDS", "OVER", "PLACEMENT", "SETUP", "BoardKey", "State"]


def _legal_id(action: object, legal: tuple) -> bool:
    """Is this one of the legal ids (an int: True and 1.0 equal 1)? (A function, and ``legal``
    an untyped tuple, so that ``action`` stays an object: compiled code would otherwise unbox it
    as an int, and box it again.) The ids a caller took from the legal options are those very
    objects: found by identity, without comparing numbers."""
    for option in legal:
        if option is action:
            return True
    return action in legal and type(action) is int


class State(Opening):
    """A game in progress. Mutable; :meth:`copy` is cheap."""

    __slots__ = ()

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

    def apply_action(self, action: object, _text: str | None = None) -> None:
        """Play one option given as an action id. Raises and changes nothing if it is not legal."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if not _legal_id(action, legal):
            self._reject(action, _text)
        # The id as given goes into the history: compiled code would otherwise make it again.
        self.history.append(action)
        option = cast(int, action)
        self._legal = None
        d = self.decision
        if d == D_TURN:
            if option == PASS:
                if self.marked:
                    self._clear_marks()
                self._next_turn()
            elif option == RUN:
                self._start_command()
            elif option == INSTANT:
                self._start_instant()
            else:
                self._end_stalemate()
                return
        elif d == D_TARGET:
            if option == DECLARE:
                self._end_stalemate()
                return
            self._choose(option)
        elif d == D_PLACE:
            self._place(option & 0xFFFF)
        elif d == D_INTERRUPT:
            if option == DECLARE:
                self._end_stalemate()
                return
            self._interrupt(option)
        elif d == D_COIN:
            if option == DECLARE:
                self._end_stalemate()
                return
            self.coin_due = False
            self.tail_first = option == COIN | 1
            self._next_turn()
        else:
            self._setup_action(d, option)
        self._reached()

    def copy(self) -> State:
        """An independent copy of this state (its history and seen positions too)."""
        return self._copied(True)

    def lookahead(self) -> State:
        """A copy to search from: the same position and positions seen (C9), without the list
        of moves that led here, which no search reads. The positions seen so far are set
        apart and shared by every copy made from this one, each of which copies only what its
        own line sees after: late in a long game a search copies a few positions a node, where
        :meth:`copy` would copy hundreds, and the moves."""
        new = self._copied(False)
        seen = self._seen_all()
        new.seen_base = seen.copy() if seen is self.seen else seen
        new.seen_whole = self.seen_whole
        new.seen_sig = self.seen_sig
        return new

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
        new.blind = self.blind
        new.auto_stalemate = self.auto_stalemate
        new.derived = self.derived
        new.is_over = self.is_over
        new.progressed = self.progressed
        new._legal = self._legal
        new._sig = self._sig
        new.plain = self.plain
        new.rp_card = self.rp_card
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
        new.heals = self.heals
        new.runs_others = self.runs_others
        new.stacking = self.stacking
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
            new.seen = self.seen.copy()
            new.seen_base = self.seen_base
            new.seen_whole = self.seen_whole
            new.seen_sig = self.seen_sig
        else:
            new.history = []
            new._forget_seen()
        return new

    def _forget_seen(self) -> None:
        """No position seen (C9): nothing in ``seen`` or its base, not keyed whole, no
        signature kept."""
        self.seen = {}
        self.seen_base = NOTHING_SEEN
        self.seen_whole = False
        self.seen_sig = None

    @property
    def is_chance(self) -> bool:
        """Is the current decision a chance event (the coin flip), not a player's choice?"""
        return self.decision == D_COIN

    def chance_outcomes(self) -> list[tuple[str, float]]:
        """At a chance event, each outcome in notation with its probability; else empty."""
        if self.decision != D_COIN:
            return []
        return [(N.to_string(a), 0.5) for a in _COIN_OUTCOMES]

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

    def determinize(self, seat: int, rng: Any) -> State:
        """A copy in which what ``seat`` may not know is dealt anew with ``rng``, consistently
        with what it knows: the instant cards it has not seen, and face-down cards not yet
        opened. Two states that ``seat`` cannot tell apart give the same copy for the same
        ``rng`` state, so a search on the copy cannot peek (information-set MCTS). The copy
        forgets the positions seen before (C9): they held the hidden truth."""
        new = self.copy()
        new._forget_seen()
        if self.is_over:
            return new
        if self.inst_on and self.deal:
            new._redeal_instants(seat, rng)
        if self.seq_open and not (self.game.option("fair_first") and seat == 0):
            new._redeal_face_down(rng)
        return new

    @property
    def deciding(self) -> str:
        """What the current decision is about: place, turn, card, flag, to, at, player, param,
        or over when the game has ended; with the expansions also arrange, seat, take, open
        (sequential open's place-or-pass) and interrupt."""
        d = self.decision
        if d != D_TARGET:
            return DECISION_NAMES[d]
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
        if self.cmd is None:
            return None
        i = self.this_index()
        return None if i < 0 else i  # (-1: its card was removed while it ran: Memory, C3)

    def _reject(self, action: object, text: str | None) -> NoReturn:
        try:
            shown = text if text is not None else N.to_string(cast(int, action)) \
                if type(action) is int else repr(action)
        except NotationError:
            shown = repr(action)
        legal = tuple(self.legal())
        if self.phase == OVER:
            raise IllegalOptionError(f"{shown!r}: the game is over", shown, legal)
        raise IllegalOptionError(
            f"{shown!r} is not legal here (seat {self.to_move} to {self.deciding}); "
            f"legal: {', '.join(legal)}", shown, legal)

    def _compute_legal(self) -> tuple[int, ...]:
        d = self.decision
        if d == D_TURN:
            base: tuple[int, ...] = _TURN_PASS_RUN if self._can_run() else _TURN_PASS_ONLY
            if self.inst_on and self.instant[self.actor] is not None:
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
            if self.stacking:  # Nightmare: any card, one's own flags too (N12)
                return PLACE_ID[:len(self.queues)]
            # (An object: compiled code would box an int again for each card it looks on.)
            mine: object = self.actor << OWNER_SHIFT  # flags carry no marks during placement
            return tuple([PLACE_ID[i] for i, q in enumerate(self.queues) if mine not in q])
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
        command with that many ways of running is taken to change something. A copy is made
        only when the line it starts is explored: where an early line differs, as most do, its
        siblings are never copied (the answer is the same, and so is the count of copies
        wherever it runs out, since then every line is explored)."""
        passed = self._trial()
        passed._legal = _TURN_PASS_ONLY
        passed.apply_action(PASS)
        target = passed.position_key()
        ran = self._trial()
        ran._legal = (RUN,)
        ran.apply_action(RUN)
        if ran.decision != D_TARGET:
            return ran.position_key() != target
        trials = [ran]
        unexplored = [list(ran.legal_actions())]  # each trial's options not explored yet
        while trials:
            if not unexplored[-1]:
                trials.pop()
                unexplored.pop()
                continue
            action = unexplored[-1].pop()
            if action == DECLARE:
                continue
            budget -= 1
            if budget < 0:
                return True
            child = trials[-1].copy()
            child.apply_action(action)
            if child.decision != D_TARGET:
                if child.position_key() != target:
                    return True
                continue
            trials.append(child)
            unexplored.append(list(child.legal_actions()))
        return False

    def _trial(self) -> State:
        """A copy to try a line on, blind to repetition (it only compares outcomes)."""
        trial = self._blank_copy()
        trial.blind = True
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
        if type(step) is Choose:
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
        seat = self.actor
        if action != PASS:  # spend a token: a flag from supply joins the card's tail
            self.tokens = tuple(t - (p == seat) for p, t in enumerate(self.tokens))
            self.add_flag(action & 0xFFFF, seat)
        self.interrupters = self.interrupters[1:]
        if self.interrupters:
            self.to_move = self.interrupters[0]
            return
        self.arrive()  # the visit starts with the interrupting flags in place
        self._next_turn()

    def arrive(self) -> None:
        """The cursor arrives at its card: every flag then on it is pending (C1); with
        ReversePriority in the program, only the first (C10)."""
        c = self.cursor
        if not self.plain:
            if self.memory_on:  # C11: every arrival counts, empty cards too
                self.trail = (self.trail[1], self.here)
                self.here = self.kinds[c]
            rp = self.rp_card
            self.c10_visit = False
            if rp is not None:
                for kind in self.kinds:  # (by identity, as `in` would, without its calls)
                    if kind is rp:
                        self.c10_visit = True
                        break
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
        flags: list[int] | None = None  # the queue made anew (a list: fewer objects than slices)
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
                self.land()
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
            flags = [code | PENDING for code in q]
            k = 0
        if flags is None:
            flags = list(q)
        code = flags[k] ^ PENDING
        if self.kinds[c].uses_running_flag:  # P2 (the fast path: no expansion marks more)
            code |= RUNNING
            self.marked = True
        flags[k] = code
        queues[c] = tuple(flags)
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
            # (A walk by index, not over a range object made at each visit.)
            step = -1 if self._walks_backwards() else 1
            k = len(q) - 1 if step < 0 else 0
            while 0 <= k < len(q):
                if q[k] & PENDING:
                    self._give_turn(c, q, k)
                    return
                k += step
            if self.calls:  # a call's visit is over: back to the card that called (C16)
                self._return_from_call()
                continue
            empty = empty + 1 if not q else 0
            if empty > len(queues):
                raise AssertionError("no flag on any card, yet the game is not over")
            self._leave(c)
            if self.arrivals:
                self.land()
            self.cursor = (c + self.direction) % len(queues)
            if self.intr_on and self._offer_interrupts():
                return  # the visit starts once the interrupts are answered
            self.arrive()

    def _give_turn(self, c: int, q: tuple[int, ...], k: int) -> None:
        """The turn hand-over of the expanded path (the fast path has its own, inline)."""
        code = q[k] ^ PENDING
        card = self.kinds[c]
        # P2: the flag with the turn is marked while the rules can still refer to it.
        if card.uses_running_flag or self.c10_visit or card.recalls and any(
                r is not None and r.uses_running_flag for r in self.trail):
            code |= RUNNING
            self.marked = True
        flags = list(q)
        flags[k] = code
        self.queues[c] = tuple(flags)
        self.turn_pos = k
        self.to_move = code >> OWNER_SHIFT
        self.decision = D_TURN

    @staticmethod
    def _instant_values(held: tuple) -> tuple[int, ...]:
        card, mods = held
        return tuple(p + m for p, m in zip(card.params, mods))

    def _start_instant(self) -> None:
        """The flag's owner runs their instant card's command as if printed on this card; the
        instant card leaves the game, revealed."""
        seat = self.actor
        held = self.instant[seat]
        values = self._instant_values(held)  # counts are read at run
        self.instant_leaves(seat, "used")
        self._start_run()
        self._begin(held[0], values)

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
            if isinstance(step, Do):
                step.prim.do(self, step, vals)
                continue
            count = 1 if step.count is None else vals[step.count]
            if count <= 0 or (step.amount is not None and vals[step.amount] == 0):
                continue
            if step.automatic and step.prim.resolve(self, step):
                continue
            self.count_left = count
            self.chosen = step.fresh
            self.n_chosen = 0
            self.selected = None
            self.decision = D_TARGET
            targets = self._targets()
            if targets:
                self._legal = tuple(targets)
                # Nothing has changed since "run" on this card: see _reached. Only where a
                # command starts by nothing else (no Memory, copies or instant cards).
                self.derived = self.step_i == 0 and self.first_cmd and self.simple_key \
                    and not self.runs_others
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
            self.arrive()

    def _pop_return(self) -> tuple[int, bool]:
        """Where the visit of a called card returns to, and whether it arrives there afresh.
        The caller's visit goes on; a caller removed meanwhile that was itself called has
        its own visit ended too, back to its caller (P28); at the bottom of the chain, C3
        applies from the removed caller's place: its follower, arrived at afresh (C19)."""
        calls = self.calls
        while True:
            back = calls[-1]
            calls = calls[:-1]
            if type(back) is int or back[1] is not None:
                break
        self.calls = calls
        return (back, False) if type(back) is int else (back[1], True)

    def _leave(self, c: int) -> None:
        """The cursor leaves card c: with temporary chips (C17) its chips go back."""
        if self.temp_chips and any(self.mods[c]):
            self._chips_back(self.mods[c])
            self.mods[c] = (0,) * len(self.mods[c])
            self.vals[c] = self.kinds[c].params
            self._sig = None

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
            self.arrive()
        self._next_turn()

    def _next_later(self) -> tuple[CardType, tuple[int, ...]]:
        """Take the next command waiting to run. Of a group of copies, the first in the order
        the direction gives now (SPEC 6: 「コピーされた複数枚の実行順序はコピー実行時のPCの向きで
        決まる」): a REVERSE among them turns the order of those still to run."""
        head, rest = self.later[0], self.later[1:]
        if type(head[0]) is not str:
            self.later = rest
            return head
        copies = sorted(head[1], key=lambda c: c[0] * self.direction)
        if len(copies) > 1:
            rest = ((_COPY_GROUP, tuple(copies[1:])),) + rest
        self.later = rest
        return copies[0][1], copies[0][2]

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
