"""Collection at the root. Some modules are also compiled (setup.py): a module with a compiled
twin beside it is imported as the native module, so pytest cannot collect its doctests from the
source; they run on the Python path instead (tests/test_compiled_core.py)."""

import pathlib

PACKAGE = pathlib.Path(__file__).parent / "src" / "spaghetti"

collect_ignore = [str(source) for source in PACKAGE.rglob("*.py")
                  if any(source.parent.glob(f"{source.stem}.cpython-*"))]
