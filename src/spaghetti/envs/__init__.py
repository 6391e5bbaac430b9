"""Research environments: the family as PettingZoo and Gymnasium environments (docs/envs.md).

- :mod:`spaghetti.envs.pettingzoo`: every game as a PettingZoo AEC environment, one agent a
  seat (``env()``, ``raw_env()``);
- :mod:`spaghetti.envs.gymnasium`: one seat learns, the others are the built-in computer
  players (``SpaghettiEnv``, registered as ``spaghetti/Spaghetti-v0``);
- :mod:`spaghetti.envs.encoding`: the observation vector and the compact action ids both use.

They need the ``rl`` extra (``pip install -e '.[rl]'``): PettingZoo, Gymnasium, numpy.
"""
