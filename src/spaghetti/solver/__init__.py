"""The exact solver: who wins a two-player level-1 position under perfect play, and how.

:mod:`.fast` models level-1 positions as immutable tuples with their own move generator (checked
against the engine); :mod:`.search` proves the value with a repetition-aware depth-first search.
"""
