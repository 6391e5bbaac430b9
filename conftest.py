"""Collection at the root. The rules core's source is also compiled (setup.py): where it is,
``spaghetti.core.state`` is the native module, and its doctests run on the Python source
instead (tests/test_compiled_core.py)."""

collect_ignore = ["src/spaghetti/core/state.py"]
