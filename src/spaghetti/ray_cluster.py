"""Joining a Ray cluster, for the jobs that can run over several machines (``spaghetti lab run
--ray``, ``spaghetti solve-level1 --ray``).

A cluster is started as Ray's documentation has it: ``ray start --head`` on one machine (it
prints its address, ``IP:PORT``), ``ray start --address=IP:PORT`` on each of the others, and the
job is run on any of them with ``--ray IP:PORT``; ``--ray local`` starts Ray in the job itself
instead. Ray's clusters authenticate with a token by default: ``ray start --head`` writes it to
``~/.ray/auth_token``, and a job that finds it there uses it (copy that file to the machines the
job runs from, or set ``RAY_AUTH_TOKEN``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import SetupError


def connect(address: str) -> Any:
    """The ``ray`` module, joined to the cluster at ``address`` (``local``: a Ray started here,
    on this machine's CPUs). Raises :class:`SetupError` in one line when it cannot."""
    try:
        import ray
    except ImportError:
        raise SetupError("--ray needs the ray package (pip install 'spaghetti[ray]')") from None
    if ray.is_initialized():
        return ray
    if address == "local":
        # "local" starts a Ray of its own even where a cluster of `ray start` runs here.
        ray.init(address="local", num_cpus=os.cpu_count(), include_dashboard=False,
                 log_to_driver=False)
        return ray
    # The client must ask for token mode itself: a cluster of `ray start` demands the token.
    if "RAY_AUTH_MODE" not in os.environ and (
            "RAY_AUTH_TOKEN" in os.environ or (Path.home() / ".ray" / "auth_token").exists()):
        os.environ["RAY_AUTH_MODE"] = "token"
    try:
        ray.init(address=address, log_to_driver=False)
    except ConnectionError as exc:
        raise SetupError(f"cannot join the Ray cluster at {address} ({exc}): give the address "
                         "'ray start --head' printed, with its token in ~/.ray/auth_token or "
                         "RAY_AUTH_TOKEN") from None
    return ray
