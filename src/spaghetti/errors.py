"""The errors the package raises. Each carries a message meant for a person to read."""

import sys


class SpaghettiError(Exception):
    """Base class: any problem with a game, an option or a record."""


class NotationError(SpaghettiError):
    """A string that is not an option of the notation (SPEC section 7)."""


class IllegalOptionError(SpaghettiError):
    """An option that is notation but not legal at the current decision.

    The state it was offered to is unchanged.
    """

    def __init__(self, message: str, option: str = "", legal: tuple[str, ...] = ()):
        super().__init__(message)
        self.option = option
        self.legal = legal


class SetupError(SpaghettiError):
    """A game that cannot be set up: unknown card, bad level, too few cards, bad option."""


class RecordError(SpaghettiError):
    """A game record that cannot be read, with the position of its first problem."""


class CardFileError(SetupError):
    """Custom cards (TOML, or a record's ``cards``) that cannot be read: the card and the field."""


def too_many_digits() -> str:
    """The problem of JSON or TOML text holding an integer longer than Python converts (its
    decoder raises a bare ValueError that suggests raising the interpreter's limit)."""
    return f"a number of more than {sys.get_int_max_str_digits():,} digits"
