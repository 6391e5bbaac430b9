"""The end of a game (SPEC 2.6, 2.7): elimination, a height that wins, the stalemate and its
tie-break, the result."""

from __future__ import annotations

from .board import (
    D_OVER,
    OVER,
)
from .flags import OWNER_SHIFT
from .position import Position


class Outcome(Position):
    """A game in progress as far as its end: who is out, who wins, and the result."""

    __slots__ = ()



    def returns(self) -> list[float]:
        """+1 for the winner and -1 for the others; all 0 for a draw or a game not over."""
        if self.winner is None:
            return [0.0] * self.players
        return [1.0 if p == self.winner else -1.0 for p in range(self.players)]

    def stalemate_returns(self) -> list[float]:
        """The returns were the game declared a stalemate now (C9's tie-break): how a game
        stopped at a cap of decisions is judged."""
        winner = self.tiebreak_winner()
        return [1.0 if p == winner else -1.0 for p in range(self.players)]

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
        self.progress()
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
