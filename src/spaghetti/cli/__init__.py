"""The ``spaghetti`` command line: play in the terminal, read and write game records."""
