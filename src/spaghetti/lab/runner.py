"""Playing an experiment's games: one game as a small record of what the measures need, and a
run over a process pool that saves each game as it ends, so a stopped run resumes.

The results file is JSON lines: a header naming the experiment, its key, the experiment itself
and where its games come from (:func:`provenance`: the version and commit, the engine path, each
player's definition, the seeds), then one line a game. The players play without a clock (their
budgets are counts of positions), so a game depends on its seeds alone and :func:`verify`
replays it. A header may say ``superseded`` (why): its figures no longer replay and are kept as
the record of their run.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import random
import subprocess
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from importlib import metadata
from typing import Any

from ..ai import LEARNING_LEVELS, definition, make_player
from ..ai.value import learned_evaluation
from ..core import engines
from ..errors import SetupError
from ..ray_cluster import connect
from .experiment import Arm, Experiment

FORMAT = "spaghetti-lab/1"
#: A game still on after this many decisions is saved as unfinished (no winner, reason
#: ``unfinished``), counted apart from wins and draws. Repetition (C9) ends every game in the
#: end, but a seat that keeps moving cards can make every position new for thousands of
#: decisions; the longest game that ended in the published runs took 1,941.
MAX_DECISIONS = 2_000


def play_one(arm: Arm, seed: int, index: int, cards: tuple = (),
             learned: bool = True) -> dict[str, Any]:
    """Game ``index`` of an arm: dealt by ``seed + index``, each seat's computer player seeded
    from both (``learned=False``: judging by the hand-written evaluation, see
    :func:`learned_alike`). Returns what the measures read: the winner and how the game ended,
    its length, and for each card how often each seat's flags ran it and how often it was
    passed."""
    game = arm.game(cards)
    deal = seed + index
    state = game.new_state(seed=deal)
    players = [make_player(arm.seat_ai(s), (seed * 1_000_003 + index) * 8 + s, clock=False,
                           learned=learned)
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
            "passes": passes, "digest": _digest(state.history)}


def _digest(actions: list[int]) -> str:
    """Every decision of a game in 16 hex digits: two games with one digest played alike."""
    return hashlib.sha256(",".join(map(str, actions)).encode()).hexdigest()[:16]


def _commit() -> str | None:
    """The commit of the source this runs from, where it is a git checkout (``+`` when it has
    changes not committed); None elsewhere (an installed package)."""
    here = pathlib.Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                              text=True, timeout=10)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=here, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def learned_alike(experiment: Experiment, cards: dict[str, tuple] | None = None) -> bool:
    """Whether the searching players judge by the learned evaluation where one ships: yes,
    unless a network ships for one arm's game and not for the other's (an option that changes
    what a position holds leaves its game without one: ``ai.value.shipped``), where an A/B would
    compare evaluations along with the rules; both arms then judge by the hand-written one.
    (``easy`` and ``random`` read no network.)"""
    if not any(ai in LEARNING_LEVELS for arm in experiment.arms.values() for ai in arm.ai):
        return True
    ships = {learned_evaluation(arm.game(arm.cards_in(cards))) is not None
             for arm in experiment.arms.values()}
    return len(ships) == 1


def provenance(experiment: Experiment, learned: bool = True) -> dict[str, Any]:
    """Where an experiment's games come from: the project's version and commit, the rules
    core's path (compiled or Python), each player's definition, the options and the seeds."""
    try:
        version = metadata.version("spaghetti")
    except metadata.PackageNotFoundError:
        version = None
    levels = sorted({ai for arm in experiment.arms.values() for ai in arm.ai})
    return {"version": version, "commit": _commit(), "engine": engines.path(),
            "players": {level: definition(level) for level in levels},
            **({} if learned else {"evaluation": "hand-written in both arms (a network ships "
                                                 "for one arm's game only)"}),
            "options": {name: arm.options for name, arm in experiment.arms.items()},
            "seeds": [experiment.seed, experiment.seed + experiment.games - 1]}


def experiment_data(experiment: Experiment) -> dict[str, Any]:
    """The experiment as the header keeps it, so that its games replay without its file."""
    return {"name": experiment.name, "games": experiment.games, "seed": experiment.seed,
            "arms": {name: asdict(arm) for name, arm in experiment.arms.items()}}


def experiment_of(data: dict[str, Any]) -> Experiment:
    arms = {name: Arm(**{**arm, "ai": tuple(arm["ai"])}) for name, arm in data["arms"].items()}
    return Experiment(data["name"], arms["a"], arms.get("b"), data["games"], data["seed"])


def _job(args: tuple[Arm, int, int, tuple, str, bool]) -> tuple[str, dict[str, Any]]:
    arm, seed, index, cards, name, learned = args
    return name, play_one(arm, seed, index, cards, learned)


def read(path: pathlib.Path) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    """A results file's header and its games as (arm, game), in the order saved. Raises
    :class:`SetupError` if it is not a results file of the lab."""
    try:
        with path.open(encoding="utf-8") as f:
            lines = [line for line in f if line.strip()]
    except UnicodeDecodeError:
        raise SetupError(f"{path}: not a results file of the lab") from None
    if not lines:
        raise SetupError(f"{path}: empty: not a results file of the lab")
    try:
        head = json.loads(lines[0])
    except (ValueError, RecursionError):  # not JSON, or a number longer than Python converts
        raise SetupError(f"{path}: not a results file of the lab") from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SetupError(f"{path}: not a results file of the lab")
    games = []
    for line in lines[1:]:
        try:
            entry = json.loads(line)
            if isinstance(entry["game"]["i"], int):
                games.append((entry["arm"], entry["game"]))
        except (ValueError, RecursionError, KeyError, TypeError):
            continue  # a line cut short when a run was stopped: played again
    return head, games


def declared(path: pathlib.Path) -> tuple[dict[str, Any], list[tuple[str, dict]]]:
    """:func:`read`, less the games past the number its experiment declares (a run stopped
    past them, or one whose experiment was cut shorter, keeps them for when it grows again), as
    the report counts them."""
    head, games = read(path)
    declared_games = head.get("experiment", {}).get("games")
    if isinstance(declared_games, int):
        games = [(arm, game) for arm, game in games if game["i"] < declared_games]
    return head, games


def arm_games(path: pathlib.Path, arm: str = "a") -> tuple[int, list[dict]]:
    """The number of players of one arm of a results file, and its games (as many as its
    experiment declares: :func:`declared`). Raises :class:`SetupError` if the file has no
    such arm."""
    head, games = declared(path)
    experiment = head.get("experiment")
    arms = experiment.get("arms") if isinstance(experiment, dict) else None
    if not isinstance(arms, dict):
        raise SetupError(f"{path}: its first line names no experiment: not a results file of "
                         "the lab")
    if arm not in arms:
        raise SetupError(f"{path}: has no arm {arm!r} (its arms: {', '.join(arms) or 'none'})")
    players = arms[arm].get("players") if isinstance(arms[arm], dict) else None
    if type(players) is not int:
        raise SetupError(f"{path}: arm {arm!r} names no number of players: not a results file "
                         "of the lab")
    return players, [game for name, game in games if name == arm]


def started(path: pathlib.Path) -> bool:
    """Whether a run has saved anything in the results file ``path`` (it exists, not empty)."""
    return path.exists() and path.stat().st_size > 0


def load(path: pathlib.Path, experiment: Experiment) -> dict[str, dict[int, dict]]:
    """The games saved for this experiment, by arm and index. Raises :class:`SetupError` if the
    file holds another experiment's games."""
    done: dict[str, dict[int, dict]] = {name: {} for name in experiment.arms}
    if not started(path):
        return done
    head, games = read(path)
    if head.get("key") != experiment.key():
        raise SetupError(f"{path}: holds the results of another setup of {head.get('name')!r}; "
                         "give another name, or --fresh to start again")
    for arm, game in games:
        if arm in done:
            done[arm][game["i"]] = game
    return done


@dataclass(frozen=True)
class Progress:
    """How far an experiment's result is (:func:`progress`): the games an arm declares, those
    saved of them by arm, and whether the saved games still count for this experiment."""

    name: str
    games: int
    played: tuple[int, ...]
    superseded: str | None = None
    other_setup: bool = False  # the file holds another setup's games (``lab run`` refuses it)
    commits: tuple[str, ...] = ()  # where its games were played: the first run's, then resumed

    @property
    def left(self) -> int:
        """The games still to play (all of them, where the saved ones do not count)."""
        if self.superseded or self.other_setup:
            return self.games * len(self.played)
        return sum(self.games - n for n in self.played)

    @property
    def state(self) -> str:
        if self.other_setup:
            return "another setup"
        if self.superseded:
            return "superseded"
        if not any(self.played):
            return "not started"
        return "in part" if self.left else "done"


def progress(experiment: Experiment, path: pathlib.Path) -> Progress:
    """How far ``experiment``'s results file ``path`` is, playing nothing (``lab status``)."""
    arms = tuple(experiment.arms)
    if not started(path):
        return Progress(experiment.name, experiment.games, (0,) * len(arms))
    head, games = read(path)
    runs = [head.get("provenance", {}), *head.get("resumed", [])]
    commits = tuple(dict.fromkeys(str(r["commit"]) for r in runs
                                  if isinstance(r, dict) and r.get("commit")))
    saved: dict[str, set[int]] = {arm: set() for arm in arms}
    for arm, game in games:
        if arm in saved and game["i"] < experiment.games:
            saved[arm].add(game["i"])
    superseded = head.get("superseded")
    return Progress(experiment.name, experiment.games, tuple(len(saved[a]) for a in arms),
                    str(superseded) if superseded else None,
                    head.get("key") != experiment.key(), commits)


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify` found: the games replayed, those that played otherwise (arm, index,
    the fields that differ), or why the result is not checked (superseded)."""

    name: str
    checked: int = 0
    differ: tuple[tuple[str, int, tuple[str, ...]], ...] = ()
    superseded: str | None = None

    @property
    def holds(self) -> bool:
        return not self.differ


def verify(path: pathlib.Path, sample: int = 5,
           read_cards: Callable[[str], tuple] | None = None) -> Verdict:
    """Replay ``sample`` of a result's saved games (spread over the file, the shortest of each
    stretch) with today's code and
    compare each with what was saved: does the result still stand? A result marked superseded
    is not replayed. ``read_cards`` reads an arm's custom cards file (the core reads none)."""
    head, games = read(path)
    name = str(head.get("name"))
    if head.get("superseded"):
        return Verdict(name, superseded=str(head["superseded"]))
    if "experiment" not in head:
        raise SetupError(f"{path}: its header does not hold the experiment (made before results "
                         "kept it): run it again, or mark it superseded")
    experiment = experiment_of(head["experiment"])
    if experiment.key() != head.get("key"):
        raise SetupError(f"{path}: its header's experiment does not match its key")
    cards = {arm.cards: read_cards(arm.cards) for arm in experiment.arms.values()
             if arm.cards and read_cards is not None}
    learned = learned_alike(experiment, cards)
    picked = _spread_shortest(games, sample)
    differ = []
    for arm_name, saved in picked:
        arm = experiment.arms[arm_name]
        again = play_one(arm, experiment.seed, saved["i"],
                         arm.cards_in(cards), learned)
        fields = tuple(sorted(k for k in saved.keys() | again.keys()
                              if saved.get(k) != again.get(k)))
        if fields:
            differ.append((arm_name, saved["i"], fields))
    return Verdict(name, len(picked), tuple(differ))


def _spread_shortest(games: list[tuple[str, dict]], sample: int) -> list[tuple[str, dict]]:
    """``sample`` saved games spread over the file: the file cut into that many stretches, and
    of each the game of fewest decisions, so that a result of slow players (a game of three
    ``hard`` players takes minutes) replays in the least time that still reaches every part of
    it."""
    count = min(sample, len(games))
    stretches = [games[len(games) * k // count:len(games) * (k + 1) // count]
                 for k in range(count)]
    return [min(stretch, key=lambda entry: entry[1].get("decisions", 0))
            for stretch in stretches]


def _rewrite_header(path: pathlib.Path, head: dict[str, Any]) -> None:
    text = path.read_text(encoding="utf-8").split("\n", 1)
    path.write_text(json.dumps(head) + "\n" + (text[1] if len(text) > 1 else ""),
                    encoding="utf-8")


def _note_resumed(path: pathlib.Path, experiment: Experiment, playing: bool,
                  learned: bool) -> None:
    """A run goes on in a results file: its header takes the experiment as it is now (the
    number of games may have changed, and with it the seeds), and, when it plays new games,
    where they come from if that differs from the first run (another commit, engine or
    player)."""
    head, _ = read(path)
    if "experiment" not in head:
        return  # a result made before headers kept the experiment (superseded)
    now = provenance(experiment, learned)
    first = head.get("provenance", {})
    changed = False
    if head["experiment"] != experiment_data(experiment):
        head["experiment"] = experiment_data(experiment)
        first["seeds"] = now["seeds"]
        changed = True
    same = {k: v for k, v in now.items() if k != "seeds"}
    if playing and same != {k: v for k, v in first.items() if k != "seeds"} and \
            same not in head.get("resumed", []):
        head.setdefault("resumed", []).append(same)
        changed = True
    if changed:
        head["provenance"] = first
        _rewrite_header(path, head)


def supersede(path: pathlib.Path, reason: str) -> None:
    """Mark a result superseded (why, in words): its header says so, and :func:`verify` leaves
    it alone. The games stay, as the record of their run."""
    head, _ = read(path)
    if not reason.strip():
        raise SetupError("say why the result is superseded")
    head["superseded"] = reason.strip()
    _rewrite_header(path, head)


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
    learned = learned_alike(experiment, cards)
    todo = [(arm, experiment.seed, i, arm.cards_in(cards), name, learned)
            for name, arm in experiment.arms.items()
            for i in range(experiment.games) if i not in done[name]]
    total = len(experiment.arms) * experiment.games
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not started(path)
    if not new:
        _note_resumed(path, experiment, playing=bool(todo), learned=learned)
    with path.open("a", encoding="utf-8") as out:
        if new:
            out.write(json.dumps({"format": FORMAT, "name": experiment.name,
                                  "key": experiment.key(),
                                  "experiment": experiment_data(experiment),
                                  "provenance": provenance(experiment, learned)}) + "\n")
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
    ray = connect(address)
    remote = ray.remote(_job)
    pending = [remote.remote(job) for job in todo]
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        yield ray.get(done[0])
