"""Spaghetti Code (スパゲッティコード), Hirokazu Nishio's card game, as a Python library.

>>> import spaghetti
>>> state = spaghetti.new_game(level=1, players=2, seed=7)
>>> state.phase, state.to_move
('placement', 0)
>>> state.apply(state.legal()[0])
"""

from .core import OPTIONS, Game, State
from .errors import (IllegalOptionError, NotationError, RecordError, SetupError,
                     SpaghettiError)

__version__ = "0.1.0"


def new_game(level: int = 1, players: int = 2, program: list[str] | None = None,
             seed: int | None = None, options: dict[str, str] | None = None) -> State:
    """A new game at the start of placement (see :meth:`Game.new_state`)."""
    return Game(level=level, players=players, options=options or {}).new_state(program, seed)


__all__ = ["Game", "IllegalOptionError", "NotationError", "OPTIONS", "RecordError", "SetupError",
           "SpaghettiError", "State", "new_game"]
