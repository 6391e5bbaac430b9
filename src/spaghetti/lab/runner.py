"""Playing an experiment's games: one game as a small record of what the measures need, and a
run over a process pool that saves each game as it ends, so a stopped run resumes.

The results file is JSON lines: a header naming the experiment and its key, then one line a game.
"""

from __future__ import annotations

import json
import os
import pathlib
import random
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from ..ai import make_player
from ..errors import SetupError
from .experiment import Arm, Experiment

FORMAT = "spaghetti-lab/1"
#: A game still on after this many decisions is saved as unfinished (no winner, reason
#: ``unfinished``), counted apart from wins and draws. Repetition (C9) ends every game in the
#: end, but a seat that keeps moving cards can make every position new for thousands of
#: decisions; the longest game that ended in the published runs took 1,941.
MAX_DECISIONS = 2_000


def play_one(arm: Arm, seed: int, index: int, cards: tuple = ()) -> dict[str, Any]:
    """Game ``index`` of an arm: dealt by ``seed + index``, each seat's computer player seeded
    from both. Returns what the measures read: the winner and how the game ended, its length,
    and for each card how often each seat's flags ran it and how often it was passed."""
    game = arm.game(cards)
    deal = seed + index
    state = game.new_state(seed=deal)
    players = [make_player(arm.seat_ai(s), (seed * 1_000_003 + index) * 8 + s)
               for s in range(arm.players)]
    chance = random.Random(deal)
    runs: dict[str, list[int]] = {}
    passes: dict[str, int] = {}
    advances, last = 0, None
    while not state.is_over and len(state.history) < MAX_DECISIONS:
        if state.is_chance:
            state.apply(state.sample_chance(chance))
            continue
        seat = state.to_move
        assert seat is not None
        option = players[seat].choose(state)
        if state.deciding == "turn":
            name = state.kinds[state.cursor].name
            if last is not None and state.cursor != last:
                advances += 1
            last = state.cursor
            if option == "run" or option == "instant":
                runs.setdefault(name, [0] * arm.players)[seat] += 1
            elif option == "pass":
                passes[name] = passes.get(name, 0) + 1
        state.apply(option)
    return {"i": index, "seed": deal, "program": list(state.program), "first": state.first,
            "winner": state.winner, "reason": state.reason if state.is_over else "unfinished",
            "decisions": len(state.history),
            "rounds": round(advances / max(1, len(state.program)), 3), "runs": runs,
            "passes": passes}


def _job(args: tuple[Arm, int, int, tuple, str]) -> tuple[str, dict[str, Any]]:
    arm, seed, index, cards, name = args
    return name, play_one(arm, seed, index, cards)


def load(path: pathlib.Path, experiment: Experiment) -> dict[str, dict[int, dict]]:
    """The games saved for this experiment, by arm and index. Raises :class:`SetupError` if the
    file holds another experiment's games."""
    done: dict[str, dict[int, dict]] = {name: {} for name in experiment.arms}
    if not path.exists():
        return done
    try:
        with path.open(encoding="utf-8") as f:
            lines = [line for line in f if line.strip()]
    except UnicodeDecodeError:
        raise SetupError(f"{path}: not a results file of the lab") from None
    if not lines:
        return done
    try:
        head = json.loads(lines[0])
    except (ValueError, RecursionError):  # not JSON, or a number longer than Python converts
        raise SetupError(f"{path}: not a results file of the lab") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SetupError(f"{path}: not a results file of the lab")
    if head.get("key") != experiment.key():
        raise SetupError(f"{path}: holds the results of another setup of {head.get('name')!r}; "
                         "give another name, or --fresh to start again")
    for line in lines[1:]:
        try:
            entry = json.loads(line)
            done[entry["arm"]][entry["game"]["i"]] = entry["game"]
        except (ValueError, RecursionError, KeyError, TypeError):
            continue  # a line cut short when a run was stopped: played again
    return done


def run(experiment: Experiment, path: pathlib.Path, cards: dict[str, tuple] | None = None,
        workers: int | None = None, fresh: bool = False,
        on_game: Callable[[int, int], None] | None = None,
        ray_address: str | None = None) -> dict[str, list[dict]]:
    """Play the games of every arm not saved yet in ``path``, saving each as it ends; return
    every arm's games in order. ``cards``: custom cards by file name, as read by the caller.
    ``on_game(done, total)`` is told of progress. ``workers``: processes (default: the CPUs;
    1 plays in this process). ``ray_address``: play on a Ray cluster instead ("local" starts
    Ray on this machine); a game's result depends only on its seeds, so it is the same."""
    experiment.check(cards)
    if fresh and path.exists():
        path.unlink()
    done = load(path, experiment)
    todo = [(arm, experiment.seed, i, (cards or {}).get(arm.cards or "", ()), name)
            for name, arm in experiment.arms.items()
            for i in range(experiment.games) if i not in done[name]]
    total = len(experiment.arms) * experiment.games
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", encoding="utf-8") as out:
        if new:
            out.write(json.dumps({"format": FORMAT, "name": experiment.name,
                                  "key": experiment.key()}) + "\n")
        count = total - len(todo)
        if on_game:
            on_game(count, total)
        games = _play_ray(todo, ray_address) if ray_address else _play(todo, workers)
        for name, game in games:
            done[name][game["i"]] = game
            out.write(json.dumps({"arm": name, "game": game}) + "\n")
            out.flush()
            count += 1
            if on_game:
                on_game(count, total)
    return {name: [games[i] for i in sorted(games) if i < experiment.games]
            for name, games in done.items()}


def _play(todo: list, workers: int | None) -> Iterable[tuple[str, dict]]:
    workers = workers or os.cpu_count() or 1
    if workers <= 1 or len(todo) <= 1:
        for job in todo:
            yield _job(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: set[Future] = set()
        jobs = iter(todo)
        for job in jobs:  # a bounded window: results come back while games are still queued
            pending.add(pool.submit(_job, job))
            if len(pending) >= workers * 4:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()
                nxt = next(jobs, None)
                if nxt is not None:
                    pending.add(pool.submit(_job, nxt))


def _play_ray(todo: list, address: str) -> Iterable[tuple[str, dict]]:
    try:
        import ray
    except ImportError:
        raise SetupError("--ray needs the ray package (pip install 'spaghetti[ray]')") from None
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=os.cpu_count(), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address)
    remote = ray.remote(_job)
    pending = [remote.remote(job) for job in todo]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield ray.get(done[0])
