"""The rules core: pure, deterministic, no input or output."""

from .cards import SPAGHETTI_CODE_CARDS, CardType, Choose, Do
from .game import OPTIONS, Game
from .state import EXECUTION, OVER, PLACEMENT, State

__all__ = ["CardType", "Choose", "Do", "EXECUTION", "Game", "OPTIONS", "OVER", "PLACEMENT",
           "SPAGHETTI_CODE_CARDS", "State"]
