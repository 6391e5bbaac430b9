"""Primitives on parameters (the numbers in braces): raise and lower, by chips (SPEC 2.5) or,
where numbers change freely (Nightmare), by any amount, below zero too."""

from __future__ import annotations

from collections.abc import Iterator

from .. import notation as N
from ..codes import IPARAM_ID, KIND_MASK, PARAM, PARAM_ID
from .base import Board, CardType, Primitive, Step, Telling

_NO_CARDS: frozenset[int] = frozenset()


def instant_slots(board: Board) -> Iterator[tuple[int, int, int, int]]:
    """C12: the parameters of unused instant cards the actor may choose, as
    (seat, index, modifier, value): all of their own card's, only the first of another's."""
    for s, held in enumerate(board.instant):
        if held:
            card, mods = held
            for j in range(len(card.params) if s == board.actor else 1):
                yield s, j, mods[j], card.params[j] + mods[j]


class _Shift(Primitive):
    """Raise (``sign`` +1) or lower (-1) one parameter of each chosen target by ``amount``."""

    chooses = "param"
    needs_amount = True
    keys = frozenset({"per_card"})
    sign = 1

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        if board.free:  # numbers change freely: any card with a number
            return any(board.vals)
        return self.movable(board)

    def movable(self, board: Board) -> bool:
        raise NotImplementedError

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        chosen = board.chosen  # distinct parameters (C5), or distinct cards (per_card)
        done: frozenset[int] = frozenset([p >> 8 & 0xFF for p in chosen]) \
            if step.per_card and chosen else _NO_CARDS
        every = self.sign > 0 or board.free  # any number can rise (or, freely, fall)
        params: list[int] = []
        for i, vs in enumerate(board.vals):
            if done and i in done:
                continue
            ids = PARAM_ID[i]
            for j, v in enumerate(vs):
                if (every or v > 0) and not (chosen and ids[j] in chosen):
                    params.append(ids[j])  # (only a number above zero can fall)
        if board.inst_on:
            params += [IPARAM_ID[s][j] for s, j, m, v in instant_slots(board)
                       if self.sign > 0 or v > 0]
        return params

    def choose(self, board: Board, step: Step, action: int) -> bool:
        arg = action & 0xFFFF
        delta = self.sign * step.amount_of(board.cmd_vals)
        if action & KIND_MASK == PARAM:
            board.chosen = board.chosen | {action}
            board.change_param(arg >> 8, arg & 0xFF, delta)
            return False
        seat, index = arg >> 8, arg & 0xFF  # C12: a parameter of an unused instant card
        card, mods = board.instant[seat]
        mods = list(mods)
        mods[index] = board.shift(card.params[index], mods[index], delta)
        instant = list(board.instant)
        instant[seat] = (card, tuple(mods))
        board.instant = tuple(instant)
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        x, i = N.pair(t.action)
        # This step alone: ``t.after`` need not hold the card at ``x`` any more.
        alone = t.alone(self)
        if N.kind(t.action) == PARAM:
            a, b = t.before.vals[x][i], alone.vals[x][i]
            dst = t.card(t.before, x)
        else:
            held, held_after = t.before.instant[x], alone.instant[x]
            a, b = held[0].params[i] + held[1][i], held_after[0].params[i] + held_after[1][i]
            dst = t.instant_card(x)
        key = "param_same" if a == b else ("raise" if b > a else "lower")
        return t.words[key].format(dst=dst, i=i, a=a, b=b), False


class Raise(_Shift):
    name = "raise"
    words = {
        "en": {"raise": "raised {dst}'s parameter {i} from {a} to {b}",
               "param_same": "left {dst}'s parameter {i} at {a} (no chips left)"},
        "ja": {"raise": "{dst}のパラメータ{i}を{a}から{b}に増やした",
               "param_same": "{dst}のパラメータ{i}は{a}のまま（チップ切れ）"},
        "monsters/en": {"raise": "blessed {dst}'s number {i} from {a} to {b}",
                        "param_same": "left {dst}'s number {i} at {a} (no chips left)"},
        "monsters/ja": {"raise": "{dst}の数値{i}を{a}から{b}に祝福した",
                        "param_same": "{dst}の数値{i}は{a}のまま（チップ切れ）"},
    }

    def movable(self, board: Board) -> bool:
        """An Increment chip for a number, or a Decrement chip to take back."""
        if (board.chips[0] and any(board.vals)) or any(m < 0 for ms in board.mods for m in ms):
            return True
        return board.inst_on and any(board.chips[0] or m < 0
                                     for _, _, m, _ in instant_slots(board))


class Lower(_Shift):
    name = "lower"
    sign = -1
    words = {
        "en": {"lower": "lowered {dst}'s parameter {i} from {a} to {b}"},
        "ja": {"lower": "{dst}のパラメータ{i}を{a}から{b}に減らした"},
        "monsters/en": {"lower": "cursed {dst}'s number {i} from {a} to {b}"},
        "monsters/ja": {"lower": "{dst}の数値{i}を{a}から{b}に呪った"},
    }

    def movable(self, board: Board) -> bool:
        """A number above zero, with an Increment chip on it or a Decrement chip to spare."""
        chips = board.chips[1]
        for ms, vs in zip(board.mods, board.vals):
            for m, v in zip(ms, vs):
                if v > 0 and (m > 0 or chips):
                    return True
        return board.inst_on and any(v > 0 and (m > 0 or chips)
                                     for _, _, m, v in instant_slots(board))
