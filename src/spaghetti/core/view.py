"""The state view: a plain JSON-ready dict of what someone at the table may see.

Documented field by field in docs/notation.md. Keys are stable; later variants add keys, never
change the meaning of one.

Who looks decides what is shown (``seat``):

- ``"referee"`` (the default): the whole truth, as a record holds it.
- a seat number: what that player may know. Another seat's unused instant card and the kinds of
  unopened face-down cards are ``null``; the legal options are listed only for the seat to move.
- ``"observer"``: a spectator, who may know only what is public, until the game is over, when
  nothing is hidden any more.
"""

from __future__ import annotations

from ..errors import SetupError
from .state import State

REFEREE, OBSERVER = "referee", "observer"


def check_viewer(state: State, seat) -> None:
    """Raise :class:`SetupError` unless ``seat`` is a seat of this game, "referee" or "observer"."""
    if seat in (REFEREE, OBSERVER):
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise SetupError(f"a viewer is a seat 0-{state.players - 1}, {REFEREE!r} or "
                         f"{OBSERVER!r}, not {seat!r}")


def view(state: State, seat: int | str = REFEREE) -> dict:
    """The state as a JSON-ready dict, as ``seat`` may see it.

    >>> import spaghetti
    >>> v = view(spaghetti.new_game(seed=1))
    >>> v["phase"], v["to_move"], len(v["program"])
    ('placement', 0, 5)
    >>> view(spaghetti.new_game(seed=1), seat=1)["legal"]    # seat 0 is to move
    []
    """
    check_viewer(state, seat)
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
    sees_legal = seat == REFEREE or seat == state.to_move
    return {
        "variant": game.variant,
        "level": game.level,
        "players": game.players,
        "options": dict(game.options),
        "viewer": seat,
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
        "legal": state.legal() if sees_legal else [],
    }
