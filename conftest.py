"""Collection at the root. The rules core's modules are also compiled (setup.py): a module
with a compiled twin beside it is imported as the native module, so pytest cannot collect its
doctests from the source; they run on the Python path instead (tests/test_compiled_core.py)."""

import pathlib

CORE = pathlib.Path(__file__).parent / "src" / "spaghetti" / "core"

collect_ignore = [str(source) for source in CORE.rglob("*.py")
                  if any(source.parent.glob(f"{source.stem}.cpython-*"))]
