"""An experiment as data: which game, which players, how many games, which seeds.

An experiment is a small TOML file (or the same fields from the command line)::

    [experiment]
    name = "snake-vs-round-robin"      # names the results file
    variant = "spaghetti-code"
    level = 1
    players = 2
    ai = "easy"                        # one computer player for every seat, or a list by seat
    games = 400
    seed = 0
    options = {}                       # the game's rule options
    cards = "my-cards.toml"            # optional: custom cards that join the deck

    [b]                                # optional: a second arm, the same with these changed
    options = {placement_order = "snake"}

Game ``i`` of both arms is dealt by seed ``seed + i`` (the arms are paired: the same deals), and
seat ``s``'s computer player is seeded from ``seed``, ``i`` and ``s``, so a run replays exactly.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ..ai import LEVELS
from ..core.game import Game
from ..errors import SetupError, too_many_digits

#: The keys an ``[experiment]`` table may have.
KEYS = ("name", "variant", "level", "players", "ai", "games", "seed", "options", "cards")
#: The keys the ``[b]`` arm may change.
B_KEYS = ("options", "ai", "cards", "level", "players")
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class Arm:
    """One setup the experiment plays: a game and its players."""

    variant: str = "spaghetti-code"
    level: int = 1
    players: int = 2
    ai: tuple[str, ...] = ("easy",)  # by seat; one name plays every seat
    options: dict[str, Any] = field(default_factory=dict)
    cards: str | None = None  # a custom cards file, read by the caller (the core reads no files)

    def seat_ai(self, seat: int) -> str:
        return self.ai[seat] if len(self.ai) > 1 else self.ai[0]

    def cards_in(self, read: dict[str, tuple] | None) -> tuple:
        """This arm's custom cards among those read by file name (none where it names no file)."""
        return (read or {}).get(self.cards or "", ())

    def game(self, custom_cards: tuple = ()) -> Game:
        """The game this arm plays (raises :class:`SetupError` naming what is wrong)."""
        return Game(level=self.level, players=self.players, variant=self.variant,
                    options=self.options, custom_cards=custom_cards)


@dataclass(frozen=True)
class Experiment:
    name: str
    a: Arm
    b: Arm | None = None
    games: int = 100
    seed: int = 0

    @property
    def arms(self) -> dict[str, Arm]:
        return {"a": self.a} if self.b is None else {"a": self.a, "b": self.b}

    def key(self) -> str:
        """A digest of everything that decides the results: a saved run is reused only by the
        same experiment (its number of games aside, so a run can be extended)."""
        data = {"arms": {k: asdict(v) for k, v in self.arms.items()}, "seed": self.seed}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    def check(self, custom_cards: dict[str, tuple] | None = None) -> None:
        """Raise :class:`SetupError` with one clear line if an arm's game cannot be played."""
        for name, arm in self.arms.items():
            for ai in arm.ai:
                if ai not in LEVELS:
                    raise SetupError(f"arm {name}: ai {ai!r} is not a computer player; one of "
                                     f"{', '.join(LEVELS)}")
            if len(arm.ai) not in (1, arm.players):
                raise SetupError(f"arm {name}: ai lists {len(arm.ai)} players for "
                                 f"{arm.players} seats (give one, or one per seat)")
            arm.game(arm.cards_in(custom_cards))


def _arm(table: dict, base: Arm | None, where: str) -> Arm:
    allowed = KEYS if base is None else B_KEYS
    unknown = [k for k in table if k not in allowed]
    if unknown:
        raise SetupError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(allowed)})")
    arm = base or Arm()
    changes: dict[str, Any] = {}
    for key in ("variant", "cards"):
        if key in table:
            if not isinstance(table[key], str):
                raise SetupError(f"{where}: {key} must be a string, not {table[key]!r}")
            changes[key] = table[key]
    for key in ("level", "players"):
        if key in table:
            if type(table[key]) is not int:
                raise SetupError(f"{where}: {key} must be a whole number, not {table[key]!r}")
            changes[key] = table[key]
    if "ai" in table:
        ai = table["ai"]
        ai = (ai,) if isinstance(ai, str) else ai
        if not isinstance(ai, (list, tuple)) or not ai or not all(isinstance(a, str) for a in ai):
            raise SetupError(f"{where}: ai must be a computer player's name or a list of them")
        changes["ai"] = tuple(ai)
    if "options" in table:
        if not isinstance(table["options"], dict):
            raise SetupError(f"{where}: options must be a table like {{stalemate = \"manual\"}}")
        changes["options"] = {**(arm.options if base is not None else {}), **table["options"]}
    return replace(arm, **changes)


def from_data(data: Any, where: str = "experiment") -> Experiment:
    """An experiment from its decoded TOML (``[experiment]`` and an optional ``[b]``)."""
    if not isinstance(data, dict) or not isinstance(data.get("experiment"), dict):
        raise SetupError(f"{where}: an experiment file has an [experiment] table")
    unknown = [k for k in data if k not in ("experiment", "b")]
    if unknown:
        raise SetupError(f"{where}: unknown table [{unknown[0]}] (tables: experiment, b)")
    table = data["experiment"]
    name = table.get("name")
    if not isinstance(name, str) or not name.strip() or "/" in name:
        raise SetupError(f"{where}: name must be a short text without '/', not {name!r}")
    games, seed = table.get("games", 100), table.get("seed", 0)
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise SetupError(f"{where}: games must be 1 to {MAX_GAMES:,}, not {games!r}")
    if type(seed) is not int or seed < 0:
        raise SetupError(f"{where}: seed must be a whole number 0 or more, not {seed!r}")
    a = _arm({k: v for k, v in table.items() if k not in ("name", "games", "seed")}, None,
             f"{where} [experiment]")
    b = None
    if "b" in data:
        if not isinstance(data["b"], dict) or not data["b"]:
            raise SetupError(f"{where}: [b] must change something of the first arm")
        b = _arm(data["b"], a, f"{where} [b]")
    return Experiment(name.strip(), a, b, games, seed)


def loads(text: str, where: str = "experiment") -> Experiment:
    """An experiment from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SetupError(f"{where}: bad TOML: {exc}") from None
    except ValueError:
        raise SetupError(f"{where}: bad TOML: {too_many_digits()}") from None
    except RecursionError:
        raise SetupError(f"{where}: bad TOML: nested too deep") from None
    return from_data(data, where)
