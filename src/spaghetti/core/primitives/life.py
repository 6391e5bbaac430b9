"""Primitives on players' lives: damage and heal, chosen or by themselves."""

from __future__ import annotations

from .. import notation as N
from ..codes import PLAYER_ID
from ..flags import OWNER_SHIFT
from .base import Board, CardType, Primitive, Step, Telling, self_life


def below_cap(board: Board, life: int) -> bool:
    """Can a heal raise this life (C15, B1)?"""
    cap = board.game.life_cap
    return cap is None or life < cap


def _player(primitive: Primitive, t: Telling) -> tuple[str, bool]:
    """A chosen player's life change in words (the same words for damage and heal: a custom
    card's amount may be 0), then what the steps that follow by themselves did to that life."""
    s = N.argument(t.action)
    alone = t.alone(primitive)
    what = _life(t, s, t.before.lives[s] - alone.lives[s])
    later = alone.lives[s] - t.after.lives[s]
    if later:
        what += t.words["join"] + _life(t, s, later)
    run = t.before.running_card
    if sum(t.after.removed) > sum(t.before.removed) and run is not None \
            and t.before.kinds[run].uses_running_flag:  # ForkBomb's second half, at once
        what += t.words["join"] + t.words["bomb_flag"]
    return what, False


def _life(t: Telling, s: int, lost: int) -> str:
    """Seat ``s`` lost ``lost`` life (gained, if negative), in words."""
    key = "no_damage" if lost == 0 else ("damage_self" if s == t.actor else "damage")
    if lost < 0:
        key, lost = ("heal_self" if s == t.actor else "heal"), -lost
    return t.words[key].format(who=t.colour(s), n=lost)


class Damage(Primitive):
    name = "damage"
    chooses = "player"
    hurts_chosen = True
    needs_amount = True
    takes_other = True
    fresh = 0  # the players chosen, as a bit mask
    words = {
        "en": {"damage": "{who} lost {n} life", "no_damage": "{who} lost no life"},
        "ja": {"damage": "{who}のライフが{n}減った", "no_damage": "{who}のライフは減らなかった"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        if step.other:
            return any(alive and p != board.actor for p, alive in enumerate(board.alive))
        return True

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        chosen = board.chosen
        me = board.actor if step.other else -1
        return [PLAYER_ID[p] for p, alive in enumerate(board.alive)
                if alive and p != me and not chosen >> p & 1]

    def choose(self, board: Board, step: Step, action: int) -> bool:
        seat = action & 0xFFFF
        board.chosen |= 1 << seat
        board.damage(seat, step.amount_of(board.cmd_vals))
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        return _player(self, t)


class Heal(Primitive):
    name = "heal"
    chooses = "player"
    needs_amount = True
    takes_other = True
    heals = True
    fresh = 0
    words = {
        "en": {"heal": "{who} gained {n} life"},
        "ja": {"heal": "{who}のライフが{n}増えた"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        me = board.actor if step.other else -1
        return any(alive and p != me and below_cap(board, board.lives[p])
                   for p, alive in enumerate(board.alive))

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        chosen = board.chosen
        me = board.actor if step.other else -1
        # a player at full life is no target for a heal (C5)
        return [PLAYER_ID[p] for p, alive in enumerate(board.alive)
                if alive and p != me and not chosen >> p & 1
                and below_cap(board, board.lives[p])]

    def choose(self, board: Board, step: Step, action: int) -> bool:
        seat = action & 0xFFFF
        board.chosen |= 1 << seat
        board.heal(seat, step.amount_of(board.cmd_vals))
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        return _player(self, t)


class DamageSelf(Primitive):
    name = "damage_self"
    needs_amount = True
    own_life = -1
    words = {
        "en": {"damage_self": "{who} (themself) lost {n} life"},
        "ja": {"damage_self": "{who}（自分）のライフが{n}減った"},
    }

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        life = board.lives[board.actor]  # only the net effect of the card's self steps
        return self_life(card.effect, vals, life, board.game.life_cap) != life

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        board.damage(board.actor, step.amount_of(vals))


class HealSelf(DamageSelf):
    name = "heal_self"
    heals = True
    own_life = 1
    words = {
        "en": {"heal_self": "{who} (themself) gained {n} life"},
        "ja": {"heal_self": "{who}（自分）のライフが{n}増えた"},
    }

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        board.heal(board.actor, step.amount_of(vals))


class _DamageSome(Primitive):
    """Damage to every player still in whom ``hit`` picks."""

    needs_amount = True

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        return bool(step.amount_of(vals)) and bool(self.hit(board))

    def hit(self, board: Board) -> list[int]:
        raise NotImplementedError

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        amount = step.amount_of(vals)
        for p in self.hit(board):
            board.damage(p, amount)


class DamageOthers(_DamageSome):
    """Pasta Logic's "the opponent": every other player still in."""

    name = "damage_others"

    def hit(self, board: Board) -> list[int]:
        return [p for p, alive in enumerate(board.alive) if alive and p != board.actor]


def _here(board: Board) -> set[int]:
    """The owners of the flags on this card (none once it has left the game)."""
    i = board.this_index()
    return {c >> OWNER_SHIFT for c in board.queues[i]} if i >= 0 else set()


class DamageHere(_DamageSome):
    """SURGE (Nightmare): the players with a flag on this card."""

    name = "damage_here"

    def hit(self, board: Board) -> list[int]:
        owners = _here(board)
        return [p for p, alive in enumerate(board.alive) if alive and p in owners]


class DamageNotHere(_DamageSome):
    """SURGE (Nightmare): the players without a flag on this card."""

    name = "damage_not_here"

    def hit(self, board: Board) -> list[int]:
        owners = _here(board)
        return [p for p, alive in enumerate(board.alive) if alive and p not in owners]

