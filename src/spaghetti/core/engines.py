"""The two paths of the rules core, from one source.

``spaghetti/core/state.py`` is the rules core. Where the install could build it (a C compiler
and mypyc, see ``setup.py``), that file is compiled to a native module that Python imports in
its place: the fast path. The same file loaded as Python is the reference, and the fallback
where nothing was compiled. Both play identical games (``tests/test_compiled_core.py`` drives
them in lockstep; ``benchmarks/differential.py`` runs the same check at scale).

>>> from spaghetti.core.game import Game
>>> game = Game(level=1)
>>> fast, readable = game.new_state(seed=3), game.new_state(seed=3, python=True)
>>> fast.legal() == readable.legal()
True
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from typing import Any

from . import state as _state
from .state import FIELDS

#: True where ``spaghetti.core.state`` is the compiled module.
COMPILED: bool = not (_state.__file__ or "").endswith(".py")

_REFERENCE = "spaghetti.core._state_python"


def python_state() -> ModuleType:
    """The rules core as Python: ``spaghetti.core.state`` itself where it is not compiled,
    else the same source loaded once under another name (its states are of another class, so
    the two never mix in one game)."""
    if not COMPILED:
        return _state
    module = sys.modules.get(_REFERENCE)
    if module is None:
        source = Path(_state.__file__ or "").with_name("state.py")
        spec = importlib.util.spec_from_file_location(_REFERENCE, source)
        if spec is None or spec.loader is None or not source.exists():
            raise ImportError(f"the Python source of the rules core is missing: {source}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[_REFERENCE] = module
        spec.loader.exec_module(module)
    return module


def path() -> str:
    """Which path runs the rules here, in words: ``compiled`` or ``python``."""
    return "compiled" if COMPILED else "python"


#: Caches, filled by who asked what and when, not by the game: left out of comparisons.
CACHES = ("_legal", "_sig", "seen_sig")


def python_twin(state: Any) -> Any:
    """The same game as ``state``, at its start, on the Python path (same program, same
    instant card deal)."""
    deal = [card.name for card in state.deal] if state.inst_on else None
    return state.game.new_state(program=list(state.program), deal=deal, python=True)


def differences(a: Any, b: Any) -> list[str]:
    """The fields in which two states differ (the caches aside), in words; empty when the
    two are the same game at the same point."""
    return [f"{name}: {getattr(a, name)!r} != {getattr(b, name)!r}" for name in FIELDS
            if name not in CACHES and getattr(a, name) != getattr(b, name)]


def lockstep(fast: Any, slow: Any, choose: Any, limit: int = 20000) -> int:
    """Play two states with the same options, ``choose(state)`` picking each, and check them
    at every decision: the legal options in order, the position key and every field. Raises
    AssertionError at the first difference; returns the decisions played."""
    for n in range(limit):
        if fast.legal_actions() != slow.legal_actions():
            raise AssertionError(f"decision {n}: legal {fast.legal_actions()} != "
                                 f"{slow.legal_actions()}")
        found = differences(fast, slow)
        if found or fast.position_key() != slow.position_key():
            raise AssertionError(f"decision {n}: {found or 'the position keys differ'}")
        if fast.is_over:
            return n
        action = choose(fast)
        fast.apply_action(action)
        slow.apply_action(action)
    return limit
