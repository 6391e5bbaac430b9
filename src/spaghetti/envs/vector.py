"""Many games at once: a vector environment in Gymnasium's sense, for training.

:class:`SpaghettiVectorEnv` steps ``num_envs`` games of :class:`SpaghettiEnv` together (one
batch of observations, rewards and masks per step) in this process. A finished game starts
anew in the same step (Gymnasium's ``SAME_STEP`` autoreset): the observation and the mask
returned are always those of a game in progress, so a masked policy can act on every row; the
last observation of the game that ended is in ``infos["final_obs"]``.

Each game is dealt as a lone ``SpaghettiEnv`` deals it and plays the same; a step of every game
is one call into :class:`~spaghetti.envs.batch.Batch`, compiled with the rules core, which
writes the observations of all the games into one buffer and their legal ids into another,
from which numpy sets the masks at once.

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

import sys
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..errors import IllegalOptionError, SetupError
from .batch import GOING, TERMINATED, TRUNCATED
from .encoding import NUM_ACTIONS
from .gymnasium import SpaghettiEnv


class SpaghettiVectorEnv(VectorEnv):
    """``num_envs`` games of :class:`SpaghettiEnv`, stepped as one batch. The keyword arguments
    are those of :class:`SpaghettiEnv`, the same for every game; ``reset(seed=s)`` seeds game
    ``i`` with ``s + i``. ``envs`` holds the games (each its ``state``, ``seat``, ``render``)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP,
                "render_modes": SpaghettiEnv.metadata["render_modes"]}

    def __init__(self, num_envs: int, **kwargs: Any):
        if type(num_envs) is not int or num_envs < 1:
            raise SetupError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
        self.envs = [SpaghettiEnv(**kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._illegal = first.illegal
        self._size = first.encoder.size
        self._batch = first.batch(num_envs)
        self._seats = np.zeros(num_envs, dtype=np.int64)
        self._dealt = False
        self._obs_arrays = _Recycled((num_envs, self._size), first.dtype)
        self._mask_arrays = _Recycled((num_envs * NUM_ACTIONS,), np.int8)
        self._mask_ids: list[np.ndarray] = []  # the ids each of them has set
        self._mask = np.zeros((num_envs, NUM_ACTIONS), dtype=np.int8)

    def _deal(self, i: int, seed: int | None) -> None:
        env = self.envs[i]
        env.deal(seed)
        env.load(self._batch, i)
        self._seats[i] = env.seat

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        if seed is None or isinstance(seed, int):
            seeds = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise SetupError(f"reset(seed=...): one seed for each of the {self.num_envs} "
                                 f"games, not {len(seeds)}")
        for i, s in enumerate(seeds):
            self._deal(i, s)
        self._dealt = True
        return self._observations(), self._infos({})

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        if not self._dealt:
            raise SetupError("step() before reset(): there is no game yet")
        chosen = np.asarray(actions).reshape(-1)
        if len(chosen) != self.num_envs:
            raise SetupError(f"step(): one action for each of the {self.num_envs} games, "
                             f"not {len(chosen)}")
        ids = chosen.tolist() if chosen.dtype.kind in "iu" else [int(a) for a in chosen.tolist()]
        batch = self._batch
        if self._illegal == "raise":
            bad = batch.first_illegal(ids)
            if bad >= 0:
                state = self.envs[bad].state
                assert state is not None
                raise IllegalOptionError(
                    f"game {bad}: {ids[bad]!r} is not legal here; legal: "
                    f"{', '.join(state.legal())}", repr(ids[bad]), tuple(state.legal()))
        batch.step(ids)
        n = self.num_envs
        if batch.ended.count(GOING) == n:  # (most steps: no game ended, every reward 0)
            return (self._observations(), np.zeros(n), np.zeros(n, dtype=np.bool_),
                    np.zeros(n, dtype=np.bool_), self._infos({}))
        ended = np.array(batch.ended, dtype=np.int8)
        rewards = np.array(batch.rewards, dtype=np.float64)
        terminated = ended == TERMINATED
        truncated = ended == TRUNCATED
        infos: dict[str, Any] = {}
        finished = ended != GOING
        if finished.any():
            done = np.flatnonzero(finished).tolist()
            final_obs = np.full(self.num_envs, None, dtype=object)
            final_info = np.full(self.num_envs, None, dtype=object)
            for i in done:
                final_obs[i] = np.frombuffer(batch.observation(i), dtype=np.int8).astype(
                    self._obs_arrays.dtype)
                final_info[i] = self._final_info(i)
            for i in done:
                self._deal(i, None)
            infos.update(final_obs=final_obs, _final_obs=finished,
                         final_info=final_info, _final_info=finished.copy())
        return self._observations(), rewards, terminated, truncated, self._infos(infos)

    def _final_info(self, i: int) -> dict:
        info = self.envs[i].ending()
        if self._batch.illegal[i]:
            info["illegal_action"] = True
        return info

    def _written(self) -> np.ndarray:
        """The observations as the batch wrote them: one signed byte a feature."""
        return np.frombuffer(self._batch.observations(), dtype=np.int8).reshape(
            self.num_envs, self._size)

    def _observations(self) -> np.ndarray:
        """The observations in the environment's type, in an array nobody else holds."""
        out = self._obs_arrays.take()[1]
        np.copyto(out, self._written())
        return out

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game, one row a game (``num_envs`` x the action ids):
        the array of ``infos["action_mask"]``, seen as booleans."""
        return self._mask.view(np.bool_)

    def _infos(self, infos: dict) -> dict:
        """Every game's mask and seat, as Gymnasium's vector environments give infos."""
        # (The masks are set once a step, in an array nobody else holds: one kept from an
        # earlier step stays as it was. Only the ids an array had set are cleared.)
        k, flat = self._mask_arrays.take()
        ids = np.frombuffer(self._batch.legal_ids(), dtype="<i4")
        if 0 <= k < len(self._mask_ids):
            flat[self._mask_ids[k]] = 0
            self._mask_ids[k] = ids
        elif k >= 0:  # (new in the pool; -1: new, and not kept)
            self._mask_ids.append(ids)
        flat[ids] = 1
        self._mask = flat.reshape(self.num_envs, NUM_ACTIONS)
        everyone = np.ones(self.num_envs, dtype=np.bool_)
        infos.update(action_mask=self._mask, _action_mask=everyone,
                     seat=self._seats.copy(), _seat=everyone)
        return infos

    def render(self) -> tuple[Any, ...] | None:
        if self.render_mode is None:
            return None
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        self.envs = []


class _Recycled:
    """Arrays of one shape handed out, each written again once nobody holds it any more (its
    only references are then this pool's list and ``getrefcount``'s argument): a new array
    of a step's size at every step costs more than the games' step itself (the allocator
    hands its pages back and they are faulted in again)."""

    def __init__(self, shape: tuple[int, ...], dtype: Any, keep: int = 4):
        self.shape, self.dtype, self.keep = shape, dtype, keep
        self.arrays: list[np.ndarray] = []

    def take(self) -> tuple[int, np.ndarray]:
        """A free array and its place in the pool (-1: a new one the pool does not keep), as
        last written (zeros if new)."""
        arrays = self.arrays
        for k in range(len(arrays)):
            if sys.getrefcount(arrays[k]) <= 2:  # (the list's reference and the argument)
                return k, arrays[k]
        array = np.zeros(self.shape, dtype=self.dtype)
        if len(self.arrays) < self.keep:
            self.arrays.append(array)
            return len(self.arrays) - 1, array
        return -1, array
