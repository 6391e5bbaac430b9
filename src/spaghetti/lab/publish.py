"""The lab's published results, made again from their experiment files by one command
(``spaghetti lab publish``): every experiment played (resumed where its games are saved), its
report written, and the sections of docs/lab/README.md that are made from results written
anew between their markers (``<!-- lab:NAME -->`` ... ``<!-- /lab:NAME -->``).

Made from results today: ``strength``, the first seat's win rate against the players' strength
(random, easy, normal, hard, and perfect play at level 1 from the exact solve), one line per
level, and what each step of strength changes on the deals both strengths played;
``seats``, every seat's win rate with 2 players in each game of the family (``seats-*`` results
of 2 players); ``seats-players``, the same with 3 to 5 players, a table for each game;
``balance``, every A/B experiment (a ``[b]`` arm): what arm b changes, and each seat's win rate in
both arms with the difference (the first seat's with 2 players, every seat's with more);
``snake``, the snake placement order by strength: the ``strength-snake-code-...`` results (the
same players and deals as the ``strength-code-...`` ones, with the option ``placement_order =
"snake"``), each seat against its round robin on the deals both played, and perfect play at
level 1 from both exact solves.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable

from ..ai import LEVELS
from ..core.options import OPTIONS
from ..errors import SetupError
from . import runner
from .exact import exact_change, exact_seats
from .experiment import Experiment
from .measures import (Difference, PairedDifference, Rate, endings, length, seat_changes,
                       seat_name, seat_wins)

#: The strengths of the seat-advantage figure, weakest first (perfect: level 1, exact).
STRENGTHS = ("random", "easy", "normal", "hard")
_STRENGTH_NAME = re.compile(r"strength-(?:([a-z]+)-)?code-l(\d)(?:-(\d)p)?-([a-z]+)$")


def strength_games(out: pathlib.Path, rule: str | None = None
                   ) -> dict[tuple[int, int], dict[str, list[dict]]]:
    """The games of the ``strength-code-l<L>[-<P>p]-<ai>`` results in ``out`` that still stand
    (superseded ones aside), by (level, players) and strength; with ``rule`` (``snake``) those of
    ``strength-<rule>-code-...``, the same players on the same deals under a balancing rule."""
    found: dict[tuple[int, int], dict[str, list[dict]]] = {}
    for path in sorted(out.glob("strength-*.jsonl")):
        match = _STRENGTH_NAME.match(path.stem)
        if not match or match.group(1) != rule or match.group(4) not in LEVELS:
            continue
        head, games = runner.declared(path)
        if head.get("superseded") or not games:
            continue
        found.setdefault((int(match.group(2)), int(match.group(3) or 2)), {})[match.group(4)] = \
            [game for _, game in games]
    return found


def strength_rates(found: dict[tuple[int, int], dict[str, list[dict]]]
                   ) -> dict[tuple[int, int], dict[str, Rate]]:
    """The first seat's win rate by (level, players) and strength, of the games
    :func:`strength_games` found; perfect play at level 1 with 2 players from the exact solve
    (proven programs, not a sample)."""
    rates = {setup: {ai: seat_wins(games, setup[1])[0] for ai, games in by_ai.items()}
             for setup, by_ai in found.items()}
    if rates:
        rates.setdefault((1, 2), {})["perfect"] = exact_seats().first_rate
    return rates


def strength_steps(found: dict[tuple[int, int], dict[str, list[dict]]]
                   ) -> list[tuple[int, int, str, str, PairedDifference]]:
    """What each step of strength changes, of the games :func:`strength_games` found: for
    each (level, players) and each two strengths next to each other among those played
    (random, easy, normal, hard), the first seat's win rate of the weaker and of the stronger
    on the deals both played, as a :class:`PairedDifference` (stronger minus weaker, paired
    by deal)."""
    steps = []
    for (level, players), by_ai in sorted(found.items()):
        played = [ai for ai in STRENGTHS if ai in by_ai]
        for weaker, stronger in zip(played, played[1:]):
            steps.append((level, players, weaker, stronger,
                          seat_changes(by_ai[weaker], by_ai[stronger], players)[0]))
    return steps


def strength_section(out: pathlib.Path, figures: bool = True) -> str:
    """docs/lab/README.md's ``strength`` section: the table, and the figure beside the results
    (``out/strength.png`` and ``.svg``) where matplotlib is installed."""
    found = strength_games(out)
    rates = strength_rates(found)
    if not rates:
        return "(No strength results yet: `spaghetti lab publish` plays them.)"
    columns = [s for s in (*STRENGTHS, "perfect") if any(s in r for r in rates.values())]
    lines = ["| level | players | fair share | " + " | ".join(columns) + " |",
             "|---|---|---|" + "---|" * len(columns)]
    for level, players in sorted(rates):
        cells = [_cell(rates[level, players].get(s)) for s in columns]
        lines.append(f"| {level} | {players} | {1 / players:.1%} | " + " | ".join(cells) + " |")
    lines += ["", "The first seat's wins of the games each set of players played (every seat the "
              "same player, the same fresh deals at every strength: seeds 100000 on), with the "
              "95 % interval; perfect play at level 1 is the exact solve's proven programs "
              "(`spaghetti lab exact`)."]
    steps = strength_steps(found)
    if steps:
        lines += ["", "| level | players | step | deals | first seat, weaker | stronger | "
                      "change (95 %) |", "|---|---|---|---|---|---|---|"]
        for level, players, weaker, stronger, step in steps:
            lines.append(f"| {level} | {players} | {weaker} to {stronger} | {step.a.n} | "
                         f"{step.a.value:.1%} | {step.b.value:.1%} | {_shown(step)} |")
        lines += ["", "What each step of strength changes: the first seat's wins on the deals "
                      "both strengths played, and the difference with Newcombe's 95 % interval "
                      "for paired data (each deal a pair), in bold where it leaves out zero."]
    if figures:
        try:
            _strength_figure(rates, columns, out)
        except ImportError:
            return "\n".join(lines)
        lines += ["", f"![The first seat's win rate against strength]"
                      f"({_relative(out)}/strength.svg)"]
    return "\n".join(lines)


def _shown(change: Difference) -> str:
    """A change as the tables show it: in bold where its interval leaves out zero."""
    return f"**{change}**" if change.clear else str(change)


def _cell(rate: Rate | None) -> str:
    if rate is None:
        return ""
    lo, hi = rate.interval
    return f"{rate.value:.1%} ({lo:.1%}-{hi:.1%}, {rate.k}/{rate.n})"


def _relative(out: pathlib.Path) -> str:
    """Where the README (in docs/lab) finds the results folder."""
    parts = out.resolve().parts
    return "results" if parts[-1] == "results" and parts[-2] == "lab" else str(out)


def _setup_name(level: int, players: int) -> tuple[str, str]:
    """A setup as the figures' legends name it, in English and Japanese."""
    return (f"level {level}" + (f", {players} players" if players != 2 else ""),
            f"レベル{level}" + (f"・{players}人" if players != 2 else ""))


#: A line of a figure: its English and Japanese labels, its rates by strength, its style.
Line = tuple[str, str, dict[str, Rate], dict[str, str]]


def _figure(lines: list[Line], columns: list[str],
            out: pathlib.Path, name: str, title: tuple[str, str], shares: set[int]) -> None:
    """The first seat's win rate against strength (``columns``), a line for each of ``lines``
    (English and Japanese labels, the rates by strength, matplotlib's style of the line) and
    the fair share of each player count of ``shares``, saved as ``out/NAME.png`` and ``.svg``."""
    from .report import _label, _pyplot, save_figure

    plt, cjk = _pyplot()
    fig, ax = plt.subplots(figsize=(9.6, 4.0))
    for label, label_ja, rates, style in lines:
        xs = [i for i, s in enumerate(columns) if s in rates]
        got = [rates[columns[i]] for i in xs]
        ax.errorbar(xs, [r.value for r in got],
                    yerr=[[r.value - r.interval[0] for r in got],
                          [r.interval[1] - r.value for r in got]],
                    marker="o", capsize=3, label=_label(label, label_ja, cjk), **style)
    ax.set_xticks(range(len(columns)))
    ax.set_xticklabels(columns)
    ax.set_ylim(0, 1)
    for players in sorted(shares):
        ax.axhline(1 / players, color="grey", linewidth=0.8, linestyle="--")
    ax.set_xlabel(_label("strength of every player", "全員の強さ", cjk))
    ax.set_ylabel(_label("first seat's win rate (95 %)", "先手の勝率（95%）", cjk))
    ax.set_title(_label(*title, cjk))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    for ext in ("png", "svg"):
        save_figure(fig, out / f"{name}.{ext}", dpi=120)
    plt.close(fig)


def _strength_figure(rates: dict[tuple[int, int], dict[str, Rate]], columns: list[str],
                     out: pathlib.Path) -> None:
    lines: list[Line] = [(*_setup_name(*setup), rates[setup], {}) for setup in sorted(rates)]
    _figure(lines, columns, out, "strength",
            ("The first seat's advantage against strength", "強さと先手の有利"),
            {players for _, players in rates})


#: The games of the family in the seat tables, in their order, by variant.
GAMES = {"spaghetti-code": "Spaghetti Code",
         "spaghetti-monsters": "Battle of the Spaghetti Monsters",
         "nightmare": "the Nightmare notes", "pasta-logic": "Pasta Logic"}


def _seat_results(out: pathlib.Path) -> list[tuple[dict, list[dict], str]]:
    """The ``seats-*`` results in ``out`` that still stand, as (the game's arm, its games, the
    experiment file's name), in the order of :data:`GAMES`, then level and players."""
    found = []
    for path in out.glob("seats-*.jsonl"):
        head, games = runner.declared(path)
        arm = head.get("experiment", {}).get("arms", {}).get("a")
        if head.get("superseded") or not games or not arm or arm.get("variant") not in GAMES:
            continue
        found.append((arm, [game for _, game in games], f"{path.stem}.toml"))
    order = list(GAMES)
    return sorted(found, key=lambda r: (order.index(r[0]["variant"]), r[0].get("level", 1),
                                        r[0]["players"]))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _games_cell(games: list[dict]) -> str:
    cut = sum(g["reason"] == "unfinished" for g in games)
    return f"{len(games)}" + (f" ({cut} unfinished)" if cut else "")


def _seat_cell(rate: Rate, players: int) -> str:
    """A seat's rate, in bold where its interval leaves out the fair share."""
    lo, hi = rate.interval
    text = f"{rate.value:.1%} ({lo:.1%}-{hi:.1%})"
    return f"**{text}**" if hi < 1 / players or lo > 1 / players else text


def _setup(arm: dict) -> str:
    if arm["variant"] == "pasta-logic":
        return "the rulebook's deal"
    return f"level {arm.get('level', 1)}"


def seats_section(out: pathlib.Path, figures: bool = True) -> str:
    """docs/lab/README.md's ``seats`` section: each seat's win rate with 2 players."""
    rows = [r for r in _seat_results(out) if r[0]["players"] == 2]
    if not rows:
        return "(No 2-player seat results yet: `spaghetti lab publish --only 'seats-*'` " \
               "plays them.)"
    lines = ["| game | setup | games | first seat wins | second seat wins | draws | experiment |",
             "|---|---|---|---|---|---|---|"]
    for arm, games, name in rows:
        first, second = seat_wins(games, 2)
        draws = endings(games).get("draw")
        lines.append(f"| {_capital(GAMES[arm['variant']])} | {_setup(arm)} | "
                     f"{_games_cell(games)} | {_seat_cell(first, 2)} | {_seat_cell(second, 2)} | "
                     f"{draws.k if draws else 0} | `{name}` |")
    lines += ["", "Each seat's wins of the games played, with the 95 % interval (Wilson), in bold "
              "where it leaves out a half; a draw is a game without a winner, an unfinished one "
              "was cut off at 2,000 decisions (neither is a seat's win)."]
    return "\n".join(lines)


def seats_players_section(out: pathlib.Path, figures: bool = True) -> str:
    """docs/lab/README.md's ``seats-players`` section: each seat's win rate with 3 to 5
    players, a table for each game of the family."""
    rows = [r for r in _seat_results(out) if r[0]["players"] > 2]
    if not rows:
        return "(No seat results of 3 to 5 players yet: `spaghetti lab publish --only " \
               "'seats-*'` plays them.)"
    seats = ("first seat", "second", "third", "fourth", "fifth")
    lines: list[str] = []
    for variant, game in GAMES.items():
        mine = [r for r in rows if r[0]["variant"] == variant]
        if not mine:
            continue
        heights = any(g["reason"] == "height" for _, games, _ in mine for g in games)
        title = f"**{_capital(game)}**"
        lines += [title + (" (the games won by reaching the height that wins are given beside "
                           "the stalemates)" if heights else ""), "",
                  "| level | players | games | " + " | ".join(seats) +
                  " | draws | stalemates | length | experiment |",
                  "|---|---|---|" + "---|" * len(seats) + "---|---|---|---|"]
        for arm, games, name in mine:
            players = arm["players"]
            cells = [_seat_cell(r, players) for r in seat_wins(games, players)]
            cells += [""] * (len(seats) - len(cells))
            ends = endings(games)
            draws = ends.get("draw")
            stalemates = f"{ends['stalemate'].value:.0%}" if "stalemate" in ends else "0%"
            if "height" in ends:
                stalemates += f" (+{ends['height'].value:.0%} at the height)"
            lines.append(f"| {arm.get('level', 1)} | {players} | {_games_cell(games)} | "
                         + " | ".join(cells) + f" | {draws.k if draws else 0} | {stalemates} | "
                         f"{length(games)[0].value:.0f} | `{name}` |")
        lines.append("")
    lines.append("A seat's wins of the games played, with the 95 % interval (Wilson), in bold "
                 "where it leaves out the fair share (a third, a quarter, a fifth). Stalemates "
                 "end with a winner by C9's tie-break and count in the seats' rates; draws (no "
                 "winner) are counted apart. Length is the mean number of decisions.")
    return "\n".join(lines)


def _change(a: dict, b: dict) -> str:
    """What arm b changes of arm a, in words: the options by their labels, custom cards by their
    file, the players."""
    said = []
    for name, value in b.get("options", {}).items():
        if a.get("options", {}).get(name) == value:
            continue
        option = OPTIONS.get(name)
        if option is None:
            said.append(f"{name} = {value}")
        elif isinstance(value, bool):
            said.append(option.label + ("" if value else ": off"))
        else:
            said.append(f"{option.label}: {option.value_label(value)}")
    if b.get("cards") != a.get("cards") and b.get("cards"):
        said.append(f"custom cards join the deck ({pathlib.PurePath(b['cards']).name})")
    if b.get("ai") != a.get("ai"):
        said.append("players " + ", ".join(b["ai"]))
    return "; ".join(said) or "(nothing)"


def _game(arm: dict) -> str:
    level = "" if arm["variant"] == "pasta-logic" else f", level {arm.get('level', 1)}"
    game = _capital(GAMES.get(arm["variant"], arm["variant"]))
    return f"{game}{level}, {arm['players']} players"


def balance_section(out: pathlib.Path, figures: bool = True) -> str:
    """docs/lab/README.md's ``balance`` section: every A/B result that still stands."""
    found = []
    for path in sorted(out.glob("*.jsonl")):
        head, games = runner.declared(path)
        arms = head.get("experiment", {}).get("arms", {})
        if head.get("superseded") or "b" not in arms or not games:
            continue
        by_arm: dict[str, list[dict]] = {"a": [], "b": []}
        for arm, game in games:
            by_arm.setdefault(arm, []).append(game)
        # The players' column says where both arms judged by hand (runner.learned_alike).
        hand = not runner.learned_alike(runner.experiment_of(head["experiment"]))
        found.append((arms, by_arm, path.stem, hand))
    if not found:
        return "(No A/B results yet.)"
    found.sort(key=lambda r: (STRENGTHS.index(r[0]["a"]["ai"][0])
                              if r[0]["a"]["ai"][0] in STRENGTHS else 9, r[2]))
    lines = ["| arm b (what it changes) | game | players | games an arm | seat | "
             "arm a (the rulebook) | arm b | difference b - a (95 %) | experiment |",
             "|---|---|---|---|---|---|---|---|---|"]
    for arms, by_arm, name, hand in found:
        a, b = arms["a"], arms["b"]
        players = a["players"]
        changes = seat_changes(by_arm["a"], by_arm["b"], players)
        for seat in range(1 if players == 2 else players):
            diff = changes[seat]
            ai = ", ".join(a["ai"]) + (" (hand-written evaluation)" if hand else "")
            first = (f"| {_change(a, b)} | {_game(a)} | {ai} | {diff.a.n} |" if seat == 0 else
                     "| | | | |")
            lines.append(f"{first} {seat + 1} | {diff.a.value:.1%} | {diff.b.value:.1%} | "
                         f"{_shown(diff)} | " + (f"`{name}.toml` |" if seat == 0 else " |"))
    lines += ["", "Both arms play the same deals. A seat's win rate in each arm on the deals "
              "both played, and the difference with Newcombe's 95 % interval for paired data "
              "(each deal a pair), in bold where it leaves out zero; with 2 players the first "
              "seat's (the second's is the rest but for draws), with more every seat's. The "
              "experiment file names its report (`results/NAME/report.md`)."]
    return "\n".join(lines)


def snake_section(out: pathlib.Path, figures: bool = True) -> str:
    """docs/lab/README.md's ``snake`` section: the snake placement order by strength, each
    ``strength-snake-code-...`` result against the round robin of its ``strength-code-...``
    result on the deals both played, and perfect play at level 1 from the two exact solves."""
    rulebook, snake = strength_games(out), strength_games(out, "snake")
    paired = {(setup, ai): seat_changes(rulebook[setup][ai], games, setup[1])
              for setup, by_ai in snake.items() for ai, games in by_ai.items()
              if ai in rulebook.get(setup, {})}
    if not paired:
        return "(No snake results yet: `spaghetti lab publish --only 'strength-*'` plays them.)"
    if (1, 2) in snake:
        paired[(1, 2), "perfect"] = [exact_change("snake")]
    order = (*STRENGTHS, "perfect")
    lines = ["| level | players | strength of every player | deals | seat | round robin | "
             "snake | change (95 %) |", "|---|---|---|---|---|---|---|---|"]
    for (level, players), ai in sorted(paired, key=lambda k: (k[0], order.index(k[1]))):
        changes = paired[(level, players), ai]
        for seat in range(1 if players == 2 else players):
            diff = changes[seat]
            deals = f"{diff.a.n} programs" if ai == "perfect" else str(diff.a.n)
            head = f"| {level} | {players} | {ai} | {deals} |" if seat == 0 else "| | | | |"
            lines.append(f"{head} {seat_name(seat)} | {diff.a.value:.1%} | {diff.b.value:.1%} | "
                         f"{_shown(diff)} |")
    lines += ["", "The same players on the same deals (seeds 100000 on) under the rulebook's "
              "round robin and under the snake order (0, 1, 1, 0, ... with 2 players; 0, 1, 2, "
              "2, 1, 0, ... with 3): each seat's wins on the deals both played, and the "
              "difference with Newcombe's 95 % interval for paired data, in bold where it "
              "leaves out zero; with 2 players the first seat's (the second's is the rest but "
              "for unfinished games), with 3 every seat's. Perfect play at level 1 is the two "
              "exact solves, on the programs proven under both orders."]
    if figures:
        try:
            _snake_figure(paired, out)
        except ImportError:
            return "\n".join(lines)
        lines += ["", f"![The first seat's win rate against strength, round robin and snake]"
                      f"({_relative(out)}/snake.svg)"]
    return "\n".join(lines)


def _snake_figure(paired: dict[tuple[tuple[int, int], str], list[PairedDifference]],
                  out: pathlib.Path) -> None:
    columns = [s for s in (*STRENGTHS, "perfect") if any(k[1] == s for k in paired)]
    option = OPTIONS["placement_order"]
    lines: list[Line] = []
    for index, setup in enumerate(sorted({setup for setup, _ in paired})):
        first = {ai: changes[0] for (at, ai), changes in paired.items() if at == setup}
        name, name_ja = _setup_name(*setup)
        color = f"C{index}"
        for order, style in (("round_robin", {"color": color, "linestyle": ":"}),
                             ("snake", {"color": color})):
            label, label_ja = option.value_label(order), option.value_label(order, "ja")
            lines.append((f"{name}, {label}", f"{name_ja}・{label_ja}",
                          {ai: d.a if order == "round_robin" else d.b
                           for ai, d in first.items()}, style))
    _figure(lines, columns, out, "snake",
            ("Snake placement against strength", "スネーク配置と強さ"),
            {players for (_, players), _ in paired})


#: The README's sections made from results, by marker name.
SECTIONS: dict[str, Callable[[pathlib.Path, bool], str]] = {
    "strength": strength_section, "seats": seats_section, "seats-players": seats_players_section,
    "balance": balance_section, "snake": snake_section}


def write_sections(readme: pathlib.Path, out: pathlib.Path, figures: bool = True) -> list[str]:
    """Write anew the sections of ``readme`` between their markers; the names written."""
    text = readme.read_text(encoding="utf-8")
    written = []
    for name, make in SECTIONS.items():
        pattern = re.compile(rf"(<!-- lab:{name} -->\n).*?(<!-- /lab:{name} -->)", re.S)
        if pattern.search(text):
            body = make(out, figures)

            def fill(m: re.Match[str], body: str = body) -> str:
                return m.group(1) + body + "\n" + m.group(2)

            text = pattern.sub(fill, text)
            written.append(name)
    readme.write_text(text, encoding="utf-8")
    return written


def to_play(experiments: list[Experiment], out: pathlib.Path,
            rerun_superseded: bool) -> list[tuple[Experiment, bool]]:
    """The experiments to play, each with whether its saved games go first (a superseded
    result, when asked to run it again); a superseded one otherwise stays as it is."""
    plan = []
    for experiment in experiments:
        path = out / f"{experiment.name}.jsonl"
        superseded = runner.started(path) and runner.read(path)[0].get("superseded")
        if superseded and not rerun_superseded:
            continue
        plan.append((experiment, bool(superseded)))
    if not plan and experiments:
        raise SetupError("every experiment's result is superseded: give --rerun-superseded to "
                         "play them again")
    return plan
