"""The decisions before the program runs: the setup of the expansions (SPEC section 3: the fair
first player, the instant card draft, sequential open) and the placement of flags."""

from __future__ import annotations

from typing import Any

from . import notation as N
from .board import (
    _COIN_OUTCOMES,
    D_ARRANGE,
    D_COIN,
    D_INTERRUPT,
    D_OPEN,
    D_PLACE,
    D_SEAT,
    D_TAKE,
    EXECUTION,
    PLACEMENT,
    SETUP,
)
from .codes import DECLARE, INTERRUPT_ID, PASS, PLACE_ID, SEAT, TAKE_ID
from .flags import OWNER_SHIFT
from .outcome import Outcome


class Opening(Outcome):
    """A game in progress as far as its opening: the expansions' setup decisions and the
    placement of flags, up to the start of execution."""

    __slots__ = ()

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
        self.arrive()
        self._next_turn()

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
            seat = self.actor
            c = self.opened - 1
            if self.hand[seat] and seat << OWNER_SHIFT not in self.queues[c]:
                return (PASS, PLACE_ID[c])
            return (PASS,)
        if d == D_INTERRUPT:
            options = (PASS,) + INTERRUPT_ID[:len(self.queues)]
            return options + (DECLARE,) if self.repeated else options
        if d == D_COIN:
            return _COIN_OUTCOMES + (DECLARE,) if self.repeated else _COIN_OUTCOMES
        if d == D_ARRANGE:
            return tuple(dict.fromkeys(N.arrange(card.name) for card in self.to_arrange))
        if d == D_SEAT:
            return (SEAT | 0, SEAT | 1)
        if d == D_TAKE:
            return tuple([TAKE_ID[i] for i in range(len(self.deal)) if i not in self.drawn])
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
            instant[self.actor] = (card, (0,) * len(card.params))
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
            self._put(self.opened - 1, self.actor)
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
