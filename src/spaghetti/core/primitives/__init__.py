"""The vocabulary every card's effect is written in: one object per primitive.

Each primitive (:class:`~spaghetti.core.primitives.base.Primitive`) keeps its facts, whether
running it can change anything (C4), its targets, its effect and its words (EN/JA) together, in
the module of its kind: flags, program (cards), life, params, cursor. A new primitive is one
class in one of them; it registers itself in :data:`PRIMITIVES` by its name.

>>> PRIMITIVES["move_flag"].chooses, PRIMITIVES["move_flag"].then
('flag', 'to')
>>> sorted(name for name, p in PRIMITIVES.items() if p.chooses is None)[:3]
['copy_ahead', 'copy_behind', 'copy_next']
"""

from __future__ import annotations

from . import flags, program, life, params, cursor  # isort: skip (the order docs list them)
from .base import PRIMITIVES, Board, Primitive, Telling, self_life, words_for

__all__ = ["PRIMITIVES", "Board", "Primitive", "Telling", "cursor", "flags", "life", "params",
           "program", "self_life", "words_for"]
