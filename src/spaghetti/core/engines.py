"""The two paths of the rules core, from one source.

The files of ``spaghetti/core`` are the rules core. Where the install could build them (a C
compiler and mypyc, see ``setup.py``), they are compiled to native modules that Python imports
in their place: the fast path. The same files loaded as Python are the reference, and the
fallback where nothing was compiled. Both play identical games (``tests/test_compiled_core.py``
drives them in lockstep; ``benchmarks/differential.py`` runs the same check at scale).

Where the core is compiled, :func:`python_core` loads its source once more as Python, as the
package ``spaghetti._python.core``: a second, separate copy of the core (its own cards, games
and states), so that both paths can run side by side in one process; :func:`python_module`
does the same for any module of the package (the compiled search, ``ai.mcts``).

>>> from spaghetti.core.game import Game
>>> game = Game(level=1)
>>> fast, readable = game.new_state(seed=3), game.new_state(seed=3, python=True)
>>> fast.legal() == readable.legal()
True
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.abc
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

from . import state as _state
from .cards import CardType
from .state import FIELDS

#: True where ``spaghetti.core.state`` is a compiled module.
COMPILED: bool = not (_state.__file__ or "").endswith(".py")

_ALIAS = "spaghetti._python"
_PACKAGE = Path(__file__).resolve().parent.parent


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds ``spaghetti._python`` and its modules: the package's files, as Python source
    (never the compiled modules beside them)."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if not name.startswith(_ALIAS + "."):
            return None
        base = _PACKAGE.joinpath(*name[len(_ALIAS) + 1:].split("."))
        if base.is_dir():
            return importlib.util.spec_from_file_location(
                name, base / "__init__.py", submodule_search_locations=[str(base)])
        source = base.with_suffix(".py")
        return importlib.util.spec_from_file_location(name, source) if source.exists() else None


def python_module(name: str) -> ModuleType:
    """A module of the package (``"core"``, ``"ai.mcts"``) as Python: the module itself where
    the core is not compiled, else its source loaded once more under ``spaghetti._python``,
    its imports within the package loaded the same way."""
    package = __name__.rsplit(".", 2)[0]  # spaghetti, or spaghetti._python in the copy
    if not COMPILED:
        return importlib.import_module(f"{package}.{name}")
    if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    if _ALIAS not in sys.modules:  # the copy's top: an empty package (no import of it all)
        top = ModuleType(_ALIAS)
        top.__path__ = [str(_PACKAGE)]
        sys.modules[_ALIAS] = top
    return importlib.import_module(f"{_ALIAS}.{name}")


def python_core() -> ModuleType:
    """The rules core as Python: ``spaghetti.core`` itself where it is not compiled, else its
    source loaded once more as the package ``spaghetti._python.core``."""
    return python_module("core")


def python_game(game: Any) -> Any:
    """The same game (level, players, options, variant, players' cards) in the Python core."""
    core = python_core()
    if game.__class__ is core.Game:
        return game
    return core.Game(level=game.level, players=game.players, options=dict(game.options),
                     variant=game.variant,
                     custom_cards=tuple(_python_card(c, core) for c in game.custom_cards))


def _python_card(card: CardType, core: ModuleType) -> Any:
    """A player's card, declared again in the Python core's terms (its steps name the same
    primitives there)."""
    steps = []
    for step in card.effect:
        kind = core.cards.Choose if step.__class__.__name__ == "Choose" else core.cards.Do
        steps.append(kind(**{f.name: getattr(step, f.name) for f in dataclasses.fields(kind)
                             if f.init}))
    return core.CardType(card.name, card.name_ja, card.text, card.text_ja, level=card.level,
                         params=card.params, effect=tuple(steps))


#: Caches, filled by who asked what and when, not by the game; the game itself (each path has
#: its own); and seen_base, compared with seen (``_field``): left out of comparisons.
UNCOMPARED = ("_legal", "_sig", "seen_sig", "game", "seen_base")


def python_twin(state: Any) -> Any:
    """The same game as ``state``, at its start, on the Python path (same program, same
    instant card deal)."""
    deal = [card.name for card in state.deal] if state.inst_on else None
    return python_game(state.game).new_state(program=list(state.program), deal=deal,
                                              python=True)


def canonical(value: Any) -> Any:
    """A value of a state in terms both paths share: cards by name, sets sorted."""
    if isinstance(value, (tuple, list)):
        return tuple(canonical(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("set",) + tuple(sorted((canonical(v) for v in value), key=repr))
    if hasattr(value, "effect") and hasattr(value, "name_ja"):  # a card of either path
        return ("card", value.name)
    return value


def differences(a: Any, b: Any) -> list[str]:
    """The fields in which two states differ (caches and the game aside), in words; empty
    when the two are the same game at the same point."""
    found = []
    for name in FIELDS:
        mine, theirs = _field(a, name), _field(b, name)
        if name not in UNCOMPARED and mine != theirs and canonical(mine) != canonical(theirs):
            found.append(f"{name}: {mine!r} != {theirs!r}")
    return found


def _field(state: Any, name: str) -> Any:
    if name == "seen":  # the positions seen, wherever the state keeps them (State.lookahead)
        return state._seen_all()
    return getattr(state, name)


def lockstep(fast: Any, slow: Any, choose: Any, limit: int = 20000) -> int:
    """Play two states with the same options, ``choose(state)`` picking each, and check them
    at every decision: the legal options in order, the position key and every field. Raises
    AssertionError at the first difference; returns the decisions played."""
    for n in range(limit):
        if fast.legal_actions() != slow.legal_actions():
            raise AssertionError(f"decision {n}: legal {fast.legal_actions()} != "
                                 f"{slow.legal_actions()}")
        found = differences(fast, slow)
        key, other = fast.position_key(), slow.position_key()
        if found or key != other and canonical(key) != canonical(other):
            raise AssertionError(f"decision {n}: {found or 'the position keys differ'}")
        if fast.is_over:
            return n
        action = choose(fast)
        fast.apply_action(action)
        slow.apply_action(action)
    return limit


def path() -> str:
    """Which path runs the rules here, in words: ``compiled`` or ``python``."""
    return "compiled" if COMPILED else "python"


def perft(state: Any, depth: int) -> int:
    """The number of lines of play ``depth`` decisions long from ``state`` (a line that ends
    with the game sooner counts once): the engine's "perft", whose counts at fixed depths from
    fixed deals change whenever a rule or a speed path plays differently."""
    if depth == 0 or state.is_over:
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.copy()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total
