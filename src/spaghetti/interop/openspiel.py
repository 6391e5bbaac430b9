"""The game for OpenSpiel: ``pyspiel.load_game("python_spaghetti_code")``.

(With the Nightmare notes' coin flip, a game with chance nodes:
``pyspiel.load_game("python_spaghetti_code_chance", {"variant": "nightmare", ...})``; the
first name is deterministic, as OpenSpiel's alpha-beta search requires.)

A small adapter over the engine's one door. Importing this module registers the game (it needs
the ``open_spiel`` package: ``pip install -e '.[openspiel]'``). Game parameters:

- ``variant`` (``spaghetti-code``, ``spaghetti-monsters``, ``pasta-logic``, ``nightmare``),
  ``level`` (1-3), ``seed`` (the deal), ``program`` (card names separated by commas; empty:
  shuffled with the seed), ``options`` (``name=value`` pairs separated by ``;``);
- ``max_moves``: OpenSpiel needs a finite game, so a game still going after this many decisions
  ends there and is adjudicated by the stalemate tie-break (C9), as a declared stalemate would be.

Two players, zero-sum (+1 the winner, -1 the loser, 0 and 0 a draw). The games with hidden
information (instant cards, sequential open) are refused: this adapter is for perfect
information. The Nightmare notes' coin flip is an explicit chance node.

Actions are compact integers (OpenSpiel wants them below ``num_distinct_actions``): the engine's
option kinds each get a band (:func:`encode`, :func:`decode`), and ``action_to_string`` gives
the notation.
"""

from __future__ import annotations

import pyspiel

from ..core import notation as N
from ..core.game import Game
from ..errors import SetupError

SHORT_NAME = "python_spaghetti_code"
CHANCE_NAME = "python_spaghetti_code_chance"
MAX_MOVES = 1000
_CARDS = 32  # card indexes below this
_FLAGS = 32  # flag positions below this
_PARAMS = 4  # parameter indexes below this

# The bands of compact action ids: (engine kind, first id, width).
_BARE = (N.PASS, N.RUN, N.DONE, N.DECLARE, N.INSTANT)
_BANDS: list[tuple[int, int, int]] = []
_next = len(_BARE)
for _kind, _width in ((N.PLACE, _CARDS), (N.CARD, _CARDS), (N.TO, _CARDS), (N.AT, _CARDS),
                      (N.PLAYER, 8), (N.INTERRUPT, _CARDS), (N.COIN, 2),
                      (N.FLAG, _CARDS * _FLAGS), (N.PARAM, _CARDS * _PARAMS)):
    _BANDS.append((_kind, _next, _width))
    _next += _width
NUM_ACTIONS = _next
_BY_KIND = {kind: (start, width) for kind, start, width in _BANDS}


def encode(action: int) -> int:
    """The compact id of an engine action id."""
    if action < N.PLACE:
        return _BARE.index(action)
    kind = action & N.KIND_MASK
    start, width = _BY_KIND[kind]
    arg = action & 0xFFFF
    if kind == N.FLAG:
        arg = (arg >> 8) * _FLAGS + (arg & 0xFF)
    elif kind == N.PARAM:
        arg = (arg >> 8) * _PARAMS + (arg & 0xFF)
    if arg >= width:
        raise ValueError(f"{N.to_string(action)!r} is beyond what the adapter encodes")
    return start + arg


def decode(compact: int) -> int:
    """The engine action id of a compact id."""
    if compact < len(_BARE):
        return _BARE[compact]
    for kind, start, width in _BANDS:
        if start <= compact < start + width:
            arg = compact - start
            if kind == N.FLAG:
                return kind | (arg // _FLAGS) << 8 | arg % _FLAGS
            if kind == N.PARAM:
                return kind | (arg // _PARAMS) << 8 | arg % _PARAMS
            return kind | arg
    raise ValueError(f"no action has the id {compact}")


def _game_type(name: str, chance: bool) -> pyspiel.GameType:
    mode = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=name,
        long_name="Spaghetti Code (and its family)" + (", with chance" if chance else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={"variant": "spaghetti-code", "level": 1, "seed": 0,
                                 "program": "", "options": "", "max_moves": MAX_MOVES})


_GAME_TYPE = _game_type(SHORT_NAME, chance=False)
_CHANCE_TYPE = _game_type(CHANCE_NAME, chance=True)


def _options(text: str) -> dict:
    options = {}
    for pair in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = pair.partition("=")
        if not sep:
            raise SetupError(f"options: expected name=value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


class SpaghettiGame(pyspiel.Game):
    """The engine's game, as an OpenSpiel game (deterministic: no coin flip)."""

    game_type = _GAME_TYPE

    def __init__(self, params=None):
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        rules = Game(level=int(params["level"]), players=2, variant=params["variant"],
                     options=_options(params["options"]))
        if rules.hidden_information:
            raise SetupError("the OpenSpiel adapter plays games of perfect information: "
                             "no instant cards, no sequential open")
        chance = self.game_type is _CHANCE_TYPE
        if rules.option("coin_flip") and not chance:
            raise SetupError(f"the coin flip makes a game of chance: load {CHANCE_NAME!r}")
        info = pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS,
                                max_chance_outcomes=2 if chance else 0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=int(params["max_moves"]))
        super().__init__(self.game_type, info, params)  # (attributes set before are lost)
        self.rules = rules
        self.program = [n.strip() for n in params["program"].split(",") if n.strip()] or None
        self.seed = int(params["seed"])
        self.max_moves = int(params["max_moves"])

    def new_initial_state(self):
        return SpaghettiState(self, self.rules.new_state(self.program, self.seed))


class SpaghettiState(pyspiel.State):
    """A position, as an OpenSpiel state: the engine's state and the decision cap."""

    def __init__(self, game: SpaghettiGame, state):
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying its attributes: only plain values
        # here (cards and games are immutable and copy as themselves).
        self.state = state
        self.max_moves = game.max_moves
        self.capped = False  # ended by the decision cap, adjudicated by C9's tie-break

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.state.is_chance:
            return pyspiel.PlayerId.CHANCE
        return self.state.to_move

    # At a chance node OpenSpiel numbers the outcomes from 0 (coin head 0, coin tail 1).

    def _legal_actions(self, player):
        if self.state.is_chance:
            return [N.argument(a) for a in self.state.legal_actions()]
        return sorted(encode(a) for a in self.state.legal_actions())

    def chance_outcomes(self):
        return [(N.argument(N.parse(option)), p) for option, p in self.state.chance_outcomes()]

    def _apply_action(self, action):
        self.state.apply_action(N.COIN | action if self.state.is_chance else decode(action))
        if not self.state.is_over and len(self.state.history) >= self.max_moves:
            self.capped = True

    def _action_to_string(self, player, action):
        return N.to_string(N.COIN | action if player == pyspiel.PlayerId.CHANCE
                           else decode(action))

    def is_terminal(self):
        return self.state.is_over or self.capped

    def returns(self):
        if self.state.is_over:
            return self.state.returns()
        if self.capped:
            winner = self.state.tiebreak_winner()
            return [1.0 if p == winner else -1.0 for p in range(2)]
        return [0.0, 0.0]

    def __str__(self):
        return repr(self.state.position_key()) + (" capped" if self.capped else "")


class SpaghettiChanceGame(SpaghettiGame):
    """The same, with the coin flip's chance nodes allowed."""

    game_type = _CHANCE_TYPE


pyspiel.register_game(_GAME_TYPE, SpaghettiGame)
pyspiel.register_game(_CHANCE_TYPE, SpaghettiChanceGame)
