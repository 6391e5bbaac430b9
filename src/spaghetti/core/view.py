"""The state view: a plain JSON-ready dict of everything a player can see.

Documented field by field in docs/notation.md. Keys are stable; later variants add keys, never
change the meaning of one.
"""

from __future__ import annotations

from .state import State


def view(state: State) -> dict:
    """The state as a JSON-ready dict.

    >>> import spaghetti
    >>> v = view(spaghetti.new_game(seed=1))
    >>> v["phase"], v["to_move"], len(v["program"])
    ('placement', 0, 5)
    """
    game = state.game
    program = []
    for i, card in enumerate(state.kinds):
        program.append({
            "card": card.name,
            "params": list(state.vals[i]),
            "modifiers": list(state.mods[i]),
            "flags": state.owners(i),
            "pending": state.pending(i),
        })
    over = state.is_over
    return {
        "variant": game.variant,
        "level": game.level,
        "players": game.players,
        "options": dict(game.options),
        "phase": state.phase,
        "program": program,
        "cursor": state.cursor if program else None,
        "direction": state.direction,
        "lives": list(state.lives),
        "supply": list(state.supply),
        "hand": list(state.hand),
        "removed": list(state.removed),
        "chips": {"increment": state.chips[0], "decrement": state.chips[1]},
        "eliminated": [not alive for alive in state.alive],
        "to_move": state.to_move,
        "deciding": state.deciding,
        "running": state.running_card,
        "repeated": state.repeated,
        "winner": state.winner,
        "draw": over and state.winner is None,
        "result": state.reason,
        "moves": len(state.history),
        "legal": state.legal(),
    }
