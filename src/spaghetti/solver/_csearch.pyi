"""The C extension ``_csearch`` (``_csearch.c``): the df-pn search of :mod:`.search` in C.

Optional: built when a compiler is there (see setup.py); :mod:`.search` falls back to Python.
"""

from collections.abc import Callable, Sequence
from os import PathLike

MAX_CARDS: int
MAX_FLAGS: int
MAX_VALUE: int
MAX_PLACEMENTS: int

class Core:
    """The search state of one model (its table persists)."""

    def __init__(self, kinds: Sequence[int], placement_order: Sequence[int], life: int,
                 supply: int, timeout_exc: type[BaseException], table_mb: int, /) -> None: ...
    @property
    def max_nodes(self) -> int: ...  # 0: no budget
    @max_nodes.setter
    def max_nodes(self, value: int | None) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def table_size(self) -> int: ...
    def save(self, path: str | bytes | PathLike[str] | PathLike[bytes], /) -> None: ...
    def load(self, path: str | bytes | PathLike[str] | PathLike[bytes], /) -> None: ...
    def value(self, pos: tuple, history: tuple, deadline: float | None,
              progress: Callable[[], object] | None, /) -> int: ...
    def search(self, pos: tuple, history: tuple, thpn: int, thdn: int, deadline: float | None,
               progress: Callable[[], object] | None, /) -> tuple[int, int]: ...
    def entry(self, pos: tuple, history: tuple, /) -> tuple[int, int, int] | None: ...
