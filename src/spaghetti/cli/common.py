"""What the subcommands share: reading records, rule options, programs and custom cards.

:mod:`spaghetti.cli.main` and the subcommands in their own modules (:mod:`.arena`,
:mod:`.solve`) import from here, so that the subcommands never import ``main``.
"""

from __future__ import annotations

from typing import Any

import click

from .. import records
from ..core.cards import CardType
from ..core.game import OPTIONS, option_words
from ..custom_cards import loads as load_cards
from ..errors import RecordError, SetupError


def read_record_data(path: str) -> Any:
    """The decoded JSON of a record file (``-``: standard input), checked not to nest too
    deeply (:func:`spaghetti.records.decode`); its fields are checked when it is replayed."""
    if path == "-":
        with click.open_file("-", "rb") as f:
            raw = f.read()
        name = "<stdin>"
    else:
        with open(path, "rb") as f:
            raw = f.read()
        name = path
    try:
        return records.decode(raw)
    except RecordError as exc:
        raise RecordError(f"{name}: {exc}") from None


# Each option's values as typed on the command line, default first.
OPTION_WORDS = {name: option_words(name) for name in OPTIONS}


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    """The ``--option name=value`` pairs as a dict (the values are checked by the game)."""
    options: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            known = ", ".join(f"{k}={'|'.join(v)}" for k, v in OPTION_WORDS.items())
            raise SetupError(f"--option expects name=value, not {pair!r} (options: {known})")
        options[name.strip()] = value.strip()
    return options


def parse_program(text: str | None) -> list[str] | None:
    """The card names of ``--program A,B,...`` (None without it)."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise SetupError("--program needs card names separated by commas, e.g. "
                         "AddFlag,MoveFlag,RemoveFlag,Bug,ForkBomb")
    return names


def read_cards(path: str | None) -> tuple[CardType, ...]:
    """The custom cards of a TOML file (none without ``--cards``)."""
    if path is None:
        return ()
    with open(path, "rb") as f:
        raw = f.read()
    return load_cards(raw, path)
