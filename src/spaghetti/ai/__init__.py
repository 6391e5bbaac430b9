"""Computer players. A player is anything with ``choose(state) -> option``."""

from typing import Protocol, runtime_checkable

from ..core.state import State


@runtime_checkable
class Player(Protocol):
    """Chooses one option of ``state.legal()`` (a string) for the seat to move."""

    def choose(self, state: State) -> str: ...


from .random_player import RandomPlayer  # noqa: E402

__all__ = ["Player", "RandomPlayer"]
