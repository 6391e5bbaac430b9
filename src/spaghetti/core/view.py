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

#: Who looks: a seat's number, "referee" or "observer" (checked by :func:`check_viewer`).
Viewer = int | str

REFEREE, OBSERVER = "referee", "observer"


def check_viewer(state: State, seat: Viewer) -> None:
    """Raise :class:`SetupError` unless ``seat`` is a seat of this game, "referee" or "observer"."""
    if seat in (REFEREE, OBSERVER):
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.players:
        raise SetupError(f"a viewer is a seat 0-{state.players - 1}, {REFEREE!r} or "
                         f"{OBSERVER!r}, not {seat!r}")


def knows_card(state: State, viewer: Viewer, index: int) -> bool:
    """May ``viewer`` know the kind of the program card at ``index``? Face-down cards of
    sequential open are known only once opened, or to the player who arranged them (fair first
    player, seat 0), or to everyone once the game is over."""
    return (viewer == REFEREE or state.is_over or index < state.opened
            or (bool(state.game.option("fair_first")) and viewer == 0))


def knows_instant(state: State, viewer: Viewer, seat: int) -> bool:
    """May ``viewer`` know which instant card ``seat`` drew? Their own, a used (revealed) one,
    everything once the game is over; never another's unused or discarded one (C12)."""
    gone = state.instant_gone[seat]
    return (viewer == REFEREE or viewer == seat or state.is_over
            or (gone is not None and gone[0] == "used"))


def _instant(state: State, viewer: Viewer) -> list[dict] | None:
    """Each seat's instant card: its status (none, held, used, discarded) and, if the viewer may
    know it, its kind, values and chips."""
    if not state.game.option("instant_cards"):
        return None
    taken = {seat: index for index, seat in state.drawn_by().items()}
    shown = []
    for seat in range(state.players):
        entry: dict[str, object] = {"status": "none", "card": None, "params": None,
                                    "modifiers": None}
        shown.append(entry)
        if seat not in taken:
            continue
        card = state.deal[taken[seat]]
        held, gone = state.instant[seat], state.instant_gone[seat]
        entry["status"] = "held" if held else gone[0]
        known = knows_instant(state, viewer, seat)
        if known:
            entry["card"] = card.name
        if held:
            mods = list(held[1])
            if known:
                entry["params"] = [p + m for p, m in zip(card.params, mods)]
                entry["modifiers"] = mods
            else:  # the number of parameters would tell the kind: only chips placed show
                entry["modifiers"] = {str(i): m for i, m in enumerate(mods) if m}
    return shown


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
        known = knows_card(state, seat, i)
        program.append({
            "card": card.name if known else None,
            # Names and texts in both languages, with the current values in braces, so that a
            # reader needs no card list of its own (every game of the family, custom cards).
            "name": {"en": card.name, "ja": card.name_ja} if known else None,
            "text": {"en": card.text_for(state.vals[i]), "ja": card.text_for(state.vals[i], "ja")}
            if known else None,
            # The texts with their parameters as {0}, {1}, for readers that draw them apart.
            "template": {"en": card.text, "ja": card.text_ja} if known else None,
            "params": list(state.vals[i]) if known else None,
            "modifiers": list(state.mods[i]) if known else None,
            "flags": state.owners(i),
            "pending": state.pending(i),
        })
    over = state.is_over
    sees_legal = seat == REFEREE or seat == state.to_move
    option = game.option
    if option("fair_first") and state.phase == "setup" and state.to_arrange:
        left = [c.name for c in state.to_arrange]
        arrange = {"left": left if seat in (REFEREE, 0) or not option("sequential_open")
                   else None, "count": len(left)}
    else:
        arrange = None
    drawn = state.drawn
    third = None
    if option("instant_cards") and len(drawn) == 2 and (seat == REFEREE or over):
        third = state.deal[3 - sum(drawn)].name
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
        # The expansions (SPEC section 3); null when their option is off.
        "first": state.first,
        "opened": state.opened if option("sequential_open") else None,
        "arrange": arrange,
        "instant": _instant(state, seat),
        "face_down": ([i for i in range(len(state.deal)) if i not in drawn]
                      if option("instant_cards") and state.phase == "setup" else None),
        "third_instant": third,
        "tokens": list(state.tokens) if option("interrupt") else None,
        "interrupters": list(state.interrupters) if option("interrupt") else None,
        # The Nightmare notes: the coin flip's outcomes (a chance event, nobody's choice),
        # flags on their way (seat, card) that arrive when the cursor moves, JUMP's fixed
        # destinations (JUMP card, destination).
        "chance": [{"option": o, "probability": p} for o, p in state.chance_outcomes()]
        if state.is_chance else None,
        "arriving": [[s, state.uids.index(u) if u in state.uids else None]
                     for s, u in state.arrivals] if game.delays else None,
        "jumps": [[state.uids.index(j), state.uids.index(t)] for j, t in state.jumps
                  if j in state.uids and t in state.uids] if game.delays else None,
    }
