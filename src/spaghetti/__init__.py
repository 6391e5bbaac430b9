"""Spaghetti Code (スパゲッティコード), Hirokazu Nishio's card game, as a Python library.

>>> import spaghetti
>>> state = spaghetti.new_game(level=1, players=2, seed=7)
>>> state.phase, state.to_move
('placement', 0)
>>> state.apply(state.legal()[0])
"""

from .core import OPTIONS, Game, State
from .errors import (CardFileError, IllegalOptionError, NotationError, RecordError, SetupError,
                     SpaghettiError)

__version__ = "0.1.0"


def new_game(level: int = 1, players: int = 2, program: list[str] | None = None,
             seed: int | None = None, options: dict[str, str] | None = None,
             cards=(), variant: str = "spaghetti-code") -> State:
    """A new game at the start (see :meth:`Game.new_state`).

    ``cards``: custom cards that join the deck, as TOML text or as cards already read
    (:func:`spaghetti.custom_cards.loads`). ``variant``: the game of the family
    (:data:`spaghetti.core.variants.VARIANTS`).
    """
    if isinstance(cards, (str, bytes)):
        from .custom_cards import loads
        cards = loads(cards)
    return Game(level=level, players=players, options=options or {}, variant=variant,
                custom_cards=cards).new_state(program, seed)


__all__ = ["CardFileError", "Game", "IllegalOptionError", "NotationError", "OPTIONS", "RecordError",
           "SetupError", "SpaghettiError", "State", "new_game"]
