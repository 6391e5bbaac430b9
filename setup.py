"""The compiled parts; everything else is in pyproject.toml.

- The exact solver's C core (``spaghetti.solver._csearch``), and the learned evaluation's
  network (``spaghetti.ai._value``).
- The rules core (and MCTS) compiled by mypyc from their own Python source: the same files are
  the readable reference and, compiled, the fast path.

Both are optional: without mypyc or a C compiler (or with SPAGHETTI_PURE_PYTHON=1 set) the
install still works and the same rules run as Python."""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

#: The modules mypyc compiles: the state, the cards and the primitives their effects name, and
#: the constants they read (flags' and actions' codes, Final: compiled in as numbers). The rest
#: stays Python: the games' card lists, the notation (its functions take what callers hand
#: them, numpy's integers too, which compiled code would refuse) and the interfaces.
COMPILED_CORE = [*(f"src/spaghetti/core/{name}.py"
                   for name in ("board", "position", "outcome", "opening", "state")),
                 "src/spaghetti/core/cards.py",
                 "src/spaghetti/core/flags.py", "src/spaghetti/core/codes.py",
                 "src/spaghetti/core/draws.py",
                 *(f"src/spaghetti/core/primitives/{name}.py"
                   for name in ("__init__", "base", "flags", "program", "life", "params",
                                "cursor")),
                 # The searches most bound by the engine's speed (hints, analysis, the lab, the
                 # computer players): MCTS, alpha-beta and the evaluation they share.
                 "src/spaghetti/ai/mcts.py", "src/spaghetti/ai/alphabeta.py",
                 "src/spaghetti/ai/evaluate.py", "src/spaghetti/ai/playout.py",
                 # The environments' observation vector (written at every step), and the
                 # vector environment's step of every game.
                 "src/spaghetti/envs/observation.py", "src/spaghetti/envs/batch.py"]


def remove_compiled() -> None:
    """SPAGHETTI_PURE_PYTHON: the modules an earlier install built in this tree go (from the
    sources' folders and the build folder), so that Python imports the sources."""
    for root in (Path("src"), *Path("build").glob("lib*")):
        for path in COMPILED_CORE:
            source = root / Path(path).relative_to("src")
            for built in source.parent.glob(f"{source.stem}.cpython-*"):
                built.unlink()
        for built in (root / "spaghetti").glob("compiled__mypyc.*"):
            built.unlink()


def compiled_core() -> list[Extension]:
    if os.environ.get("SPAGHETTI_PURE_PYTHON"):
        remove_compiled()
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(COMPILED_CORE, opt_level="3", verbose=False,
                              group_name="spaghetti.compiled")
    except Exception as exc:  # no mypyc, or it refused the source: the rules run as Python
        print(f"spaghetti: the compiled rules core is not built ({exc}); the rules run as "
              "Python", file=sys.stderr)
        return []
    for extension in extensions:
        extension.optional = True
    return extensions


setup(ext_modules=[Extension("spaghetti.solver._csearch", ["src/spaghetti/solver/_csearch.c"],
                             optional=True, extra_compile_args=["-O2"]),
                   # The learned evaluation's network (ai/value.py computes the same sums in
                   # Python without it; no fused multiply-adds, so both round alike). -O3
                   # vectorizes the first layer's sums, each unit's still added in order.
                   Extension("spaghetti.ai._value", ["src/spaghetti/ai/_value.c"],
                             optional=True, extra_compile_args=["-O3", "-ffp-contract=off"]),
                   *compiled_core()])
