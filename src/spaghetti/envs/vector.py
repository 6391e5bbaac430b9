"""Many games at once: a vector environment in Gymnasium's sense, for training.

:class:`SpaghettiVectorEnv` steps ``num_envs`` copies of :class:`SpaghettiEnv` together (one
batch of observations, rewards and masks per step) in this process. A finished game starts
anew in the same step (Gymnasium's ``SAME_STEP`` autoreset): the observation and the mask
returned are always those of a game in progress, so a masked policy can act on every row; the
last observation of the game that ended is in ``infos["final_obs"]``.

>>> import numpy as np
>>> envs = SpaghettiVectorEnv(4, level=1)
>>> obs, infos = envs.reset(seed=0)
>>> obs.shape[0], envs.action_masks().shape[0]
(4, 4)
>>> actions = np.array([int(np.flatnonzero(m)[0]) for m in envs.action_masks()])
>>> obs, rewards, terminated, truncated, infos = envs.step(actions)
>>> rewards.shape
(4,)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from ..errors import SetupError
from .gymnasium import SpaghettiEnv


class SpaghettiVectorEnv(SyncVectorEnv):
    """``num_envs`` games of :class:`SpaghettiEnv`, stepped as one batch. The keyword arguments
    are those of :class:`SpaghettiEnv`, the same for every game; ``reset(seed=s)`` seeds game
    ``i`` with ``s + i``."""

    def __init__(self, num_envs: int, **kwargs: Any):
        if type(num_envs) is not int or num_envs < 1:
            raise SetupError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        SpaghettiEnv(**kwargs)  # the arguments are checked once, with a clear message
        super().__init__([lambda: SpaghettiEnv(**kwargs) for _ in range(num_envs)],
                         autoreset_mode=AutoresetMode.SAME_STEP)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, one row a game (``num_envs`` x the action ids)."""
        return np.stack(self.call("action_masks"))
