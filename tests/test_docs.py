"""The worked example of docs/notation.md prints exactly the record the document shows."""

import contextlib
import io
import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parent.parent / "docs" / "notation.md"


def test_notation_worked_example_is_what_the_engine_prints():
    doc = DOC.read_text(encoding="utf-8")
    code = re.search(r"## A worked example.*?```python\n(.*?)```", doc, re.S).group(1)
    shown = re.search(r"The record it prints:\n\n```json\n(.*?)```", doc, re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(code, {})
    assert printed.getvalue() == shown
