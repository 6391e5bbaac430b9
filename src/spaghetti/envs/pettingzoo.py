"""The family as a PettingZoo AEC environment (docs/envs.md).

>>> from spaghetti.envs.pettingzoo import env
>>> e = env(variant="spaghetti-code", level=1, players=2, seed=3)
>>> e.reset()
>>> e.agent_selection, e.possible_agents
('player_0', ['player_0', 'player_1'])
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs), int(obs["action_mask"].sum())
(['action_mask', 'observation'], 5)
>>> e.step(int(obs["action_mask"].argmax()))   # place a flag on the first card
>>> e.agent_selection
'player_1'

One agent per seat, ``player_0`` .. ``player_{n-1}``; the agent to act is the seat to move. Every
game of the family, 2 to 5 players, with the rules' options as constructor arguments. An action
is a compact id (:data:`~spaghetti.envs.encoding.NUM_ACTIONS` of them); the observation is a dict
of the seat's own view as a flat vector and the mask of its legal actions. Rewards come at the
end: +1 the winner, -1 every other seat, 0 to all for a draw (Pasta Logic) or a game cut short.
Chance events (the Nightmare notes' coin flip) are drawn inside the environment with its seeded
random number generator: no agent sees them as decisions.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from ..core import notation as N
from ..core.game import Game
from ..core.state import State
from ..core.view import REFEREE, check_viewer
from ..errors import IllegalOptionError, SetupError
from . import table
from .batch import resolve_chance
from .encoding import NUM_ACTIONS, ActionCodec, Encoder, program_length
from .encoding import observation_dtype as observation_dtype_

#: Decisions (of all seats together) after which a game still going is cut short.
MAX_MOVES = 1000


def make_game(variant: str = "spaghetti-code", level: int = 1, players: int = 2,
              options: dict | None = None, cards: Any = ()) -> Game:
    """The rules of an environment's games (options checked as the engine checks them)."""
    if isinstance(cards, (str, bytes)):
        from ..custom_cards import loads
        cards = loads(cards)
    return Game(level=level, players=players, options=dict(options or {}), variant=variant,
                custom_cards=tuple(cards))


class SpaghettiAECEnv(AECEnv, EzPickle):
    """One game of the family at a time, as a PettingZoo AEC environment.

    Arguments: ``variant``, ``level``, ``players``, ``options`` (rule options by name, as
    :class:`~spaghetti.core.game.Game` takes them), ``program`` (card names; default: a new
    shuffle each game), ``cards`` (custom cards, TOML text or cards), ``seed`` (of the
    environment's random number generator when ``reset`` is given none), ``max_moves``
    (decisions before a game is cut short: truncation, or with ``adjudicate`` the stalemate
    tie-break C9 ends it as a declared stalemate would, a termination with its +1/-1),
    ``render_mode`` (``"ansi"`` or ``"rgb_array"``), ``render_viewer`` (whose view is drawn:
    ``"referee"``, a seat, or ``"observer"``), ``observation_dtype`` (``"float32"``, or
    ``"int8"``: the same numbers in a quarter of the memory).

    An illegal action raises :class:`~spaghetti.errors.IllegalOptionError` (a ``ValueError``)
    and changes nothing; wrap the environment in PettingZoo's ``TerminateIllegalWrapper`` to end
    the game with a penalty instead.
    """

    metadata: dict[str, Any] = {"name": "spaghetti_v0", "render_modes": ["ansi", "rgb_array"],
                                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, variant: str = "spaghetti-code", level: int = 1, players: int = 2,
                 options: dict | None = None, program: list[str] | None = None,
                 cards: Any = (), seed: int | None = None, max_moves: int | None = MAX_MOVES,
                 adjudicate: bool = False, render_mode: str | None = None,
                 render_viewer: int | str = REFEREE, observation_dtype: str = "float32"):
        EzPickle.__init__(self, variant=variant, level=level, players=players, options=options,
                          program=program, cards=cards, seed=seed, max_moves=max_moves,
                          adjudicate=adjudicate, render_mode=render_mode,
                          render_viewer=render_viewer, observation_dtype=observation_dtype)
        super().__init__()
        self.game = make_game(variant, level, players, options, cards)
        self.program = list(program) if program is not None else None
        if self.program is not None:
            self.game.new_state(self.program, 0)  # check it now, not at the first reset
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError(f"render_mode is one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        if max_moves is not None and max_moves < 1:
            raise SetupError(f"max_moves must be at least 1, not {max_moves!r}")
        self.dtype = observation_dtype_(observation_dtype)
        self.render_mode = render_mode
        self.render_viewer = render_viewer
        self.max_moves = max_moves
        self.adjudicate = adjudicate
        self._seed = seed
        self.cards = program_length(self.game, self.program)
        self.codec = ActionCodec(self.game)
        self.encoder = Encoder(self.game, self.cards)
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = self.encoder.bounds(self.dtype)
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, dtype=self.dtype),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng: random.Random | None = None
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- the game

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random(self._seed)
        deal = self._rng.randrange(2**31)
        self.state = state = self.game.new_state(self.program, deal)
        resolve_chance(state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._seat_agent()

    def _seat_agent(self) -> str:
        state = self.state
        assert state is not None and state.to_move is not None
        return self.possible_agents[state.to_move]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None and self._rng is not None
        if action is None:
            raise IllegalOptionError(f"{agent} is to move: None is not an action", "None",
                                     tuple(state.legal()))
        try:
            engine_action = self.codec.decode(int(action))
        except ValueError:
            raise IllegalOptionError(f"{action!r} is not an action id (0-{NUM_ACTIONS - 1})",
                                     repr(action), tuple(state.legal())) from None
        self._cumulative_rewards[agent] = 0.0
        state.apply_action(engine_action)
        resolve_chance(state, self._rng)
        self.rewards = {a: 0.0 for a in self.agents}
        capped = (self.max_moves is not None and not state.is_over
                  and len(state.history) >= self.max_moves)
        if state.is_over:
            returns = state.returns()
            for a, r in zip(self.possible_agents, returns):
                self.rewards[a] = float(r)
                self.terminations[a] = True
                self.infos[a] = {"winner": state.winner, "result": state.reason}
        elif capped and self.adjudicate:  # as a declared stalemate: C9's tie-break
            winner = state.tiebreak_winner()
            for s, a in enumerate(self.possible_agents):
                self.rewards[a] = 1.0 if s == winner else -1.0
                self.terminations[a] = True
                self.infos[a] = {"winner": winner, "result": "max_moves"}
        elif capped:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"winner": None, "result": "max_moves"}
        else:
            self.agent_selection = self._seat_agent()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.state
        assert state is not None
        seat = self.agent_name_mapping[agent]
        if state.to_move == seat and not state.is_over:
            mask = self.codec.mask(state.legal_actions())
        else:
            mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": self.encoder.encode(state, seat, self.dtype), "action_mask": mask}

    def legal(self) -> list[str]:
        """The options of the agent to act, in notation (for people and logs)."""
        assert self.state is not None
        return self.state.legal()

    def action_to_string(self, action: int) -> str:
        """A compact id in notation (``"flag 2.0"``)."""
        return N.to_string(self.codec.decode(int(action)))

    def string_to_action(self, option: str) -> int:
        """The compact id of an option in notation."""
        return self.codec.encode(N.parse(option))

    # ----------------------------------------------------------------- pictures

    def render(self) -> Any:
        if self.render_mode is None:
            from gymnasium import logger
            logger.warn("render() called without a render_mode: none was given at "
                        "construction (\"ansi\" or \"rgb_array\")")
            return None
        state = self.state
        if state is None:
            raise SetupError("render() before reset(): there is no game yet")
        check_viewer(state, self.render_viewer)
        if self.render_mode == "ansi":
            return table.text(state, self.render_viewer)
        return table.draw(state, self.cards, self.render_viewer)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return str(self.metadata["name"])


def raw_env(**kwargs: Any) -> SpaghettiAECEnv:
    """The environment without PettingZoo's wrappers."""
    return SpaghettiAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo's own games come: order enforced (``reset`` first, ...)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
