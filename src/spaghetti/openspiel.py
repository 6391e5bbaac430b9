"""Spaghetti Code as an OpenSpiel game (``pyspiel.register_game``), over the engine's door.

    import pyspiel
    import spaghetti.openspiel  # registers "spaghetti_code"
    game = pyspiel.load_game("spaghetti_code", {"program": "Bug,MoveFlag,AddFlag,RemoveFlag,ForkBomb"})

Two players, level 1. Actions are dense indexes of the level-1 options (``pass``, ``run``,
``done``, ``place N``, ``card N``, ``to N``, ``player S``, ``flag N.K``); ``action_to_string``
gives the option in notation. OpenSpiel needs a finite ``max_game_length``: the parameter
``max_decisions`` (default 400) caps the number of decisions, and a game that reaches the cap is
adjudicated by the C9 tie-break, as if a stalemate were declared there. Games that end by
themselves (elimination, automatic stalemate) are unchanged by the cap.

Requires the ``open_spiel`` package (``pip install 'spaghetti[openspiel]'``).
"""

from __future__ import annotations

import pyspiel

from .core import notation as N
from .core.game import Game

SHORT_NAME = "spaghetti_code"
MAX_CARDS = 5
MAX_QUEUE = 20  # every flag of both players on one card

_OPTIONS = (["pass", "run", "done"] + [f"place {i}" for i in range(MAX_CARDS)]
            + [f"card {i}" for i in range(MAX_CARDS)] + [f"to {i}" for i in range(MAX_CARDS)]
            + ["player 0", "player 1"]
            + [f"flag {i}.{k}" for i in range(MAX_CARDS) for k in range(MAX_QUEUE)])
_ENGINE_IDS = [N.parse(o) for o in _OPTIONS]
_INDEX = {a: i for i, a in enumerate(_ENGINE_IDS)}
DEFAULT_PROGRAM = "Bug,MoveFlag,AddFlag,RemoveFlag,ForkBomb"

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Spaghetti Code (level 1, 2 players)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"program": DEFAULT_PROGRAM, "max_decisions": 400})


class SpaghettiGame(pyspiel.Game):
    """The game: a program (card names separated by commas) and a decision cap."""

    def __init__(self, params=None):
        params = dict(params or {})
        self.program = [n.strip() for n in str(params.get("program", DEFAULT_PROGRAM)).split(",")]
        self.max_decisions = int(params.get("max_decisions", 400))
        if len(self.program) > MAX_CARDS:
            raise ValueError(f"at most {MAX_CARDS} cards")
        self.rules = Game(level=1, players=2)
        self.rules.new_state(program=self.program)  # checks the program
        info = pyspiel.GameInfo(num_distinct_actions=len(_OPTIONS), max_chance_outcomes=0,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=self.max_decisions)
        super().__init__(_GAME_TYPE, info, {"program": ",".join(self.program),
                                            "max_decisions": self.max_decisions})

    def new_initial_state(self):
        return SpaghettiState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return _Observer()


class SpaghettiState(pyspiel.State):
    """An OpenSpiel state wrapping an engine :class:`~spaghetti.core.state.State`."""

    def __init__(self, game: SpaghettiGame, engine=None):
        super().__init__(game)
        self._cap = game.max_decisions
        self.engine = engine if engine is not None else game.rules.new_state(
            program=game.program)
        self._capped_winner = None

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return self.engine.to_move

    def _legal_actions(self, player):
        return sorted(_INDEX[a] for a in self.engine.legal_actions())

    def _apply_action(self, action):
        self.engine.apply_action(_ENGINE_IDS[action])
        if not self.engine.is_over and len(self.engine.history) >= self._cap:
            self._capped_winner = self.engine.tiebreak_winner()  # the decision cap: C9 tie-break

    def _action_to_string(self, player, action):
        return _OPTIONS[action]

    def is_terminal(self):
        return self.engine.is_over or self._capped_winner is not None

    def winner(self):
        return self.engine.winner if self.engine.is_over else self._capped_winner

    def returns(self):
        w = self.winner()
        if w is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if w == 0 else [-1.0, 1.0]

    def __str__(self):
        return _describe(self.engine)


def _describe(engine) -> str:
    """The whole position as text (perfect information: every seat sees all of it)."""
    return repr(engine.position_key()) + f" moves={len(engine.history)}"


class _Observer:
    """String observations: the game has perfect information."""

    def __init__(self):
        self.tensor = None
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        return _describe(state.engine)


pyspiel.register_game(_GAME_TYPE, SpaghettiGame)
