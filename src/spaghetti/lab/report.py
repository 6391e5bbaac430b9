"""An experiment's report: Markdown with its tables and figures (PNG and SVG), labels in English
and Japanese. Figures need matplotlib; Japanese labels need a CJK font (Noto Sans CJK, Debian's
``fonts-noto-cjk``); without one the figures keep their English labels and the report says so.
"""

from __future__ import annotations

import pathlib
from typing import Any

from .experiment import Experiment
from .measures import Rate, card_strength, seat_changes, seat_name, seat_wins

CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic")


def _pyplot() -> tuple[Any, str | None]:
    """matplotlib's pyplot on a file backend, and the CJK font found (or None)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import font_manager
    from matplotlib import pyplot as plt

    names = {f.name for f in font_manager.fontManager.ttflist}
    cjk = next((n for n in CJK_FONTS if n in names), None)
    plt.rcParams["font.family"] = ["DejaVu Sans"] + ([cjk] if cjk else [])
    plt.rcParams["svg.fonttype"] = "path"  # the SVG shows the glyphs without the font
    return plt, cjk


def save_figure(fig: Any, path: pathlib.Path, dpi: float | None = None) -> None:
    """Write a figure so that the same figure writes the same bytes: an SVG without the date it
    was made and with fixed ids, so a report made again changes only where its numbers do."""
    import matplotlib

    svg = path.suffix == ".svg"
    with matplotlib.rc_context({"svg.hashsalt": "spaghetti"} if svg else {}):
        fig.savefig(path, dpi=dpi, metadata={"Date": None} if svg else None)


def _label(en: str, ja: str, cjk: str | None) -> str:
    return f"{en} / {ja}" if cjk else en


def figures(experiment: Experiment, results: dict[str, list[dict]],
            out: pathlib.Path) -> list[str]:
    """Draw the seat win rates (each arm) and the card strengths (first arm); return the file
    names written (PNG and SVG of each)."""
    plt, cjk = _pyplot()
    written = []
    arms = list(results)
    players = experiment.a.players
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    width = 0.8 / len(arms)
    for j, name in enumerate(arms):
        rates = seat_wins(results[name], players)
        xs = [s + j * width for s in range(players)]
        ys = [r.value for r in rates]
        err = [[r.value - r.interval[0] for r in rates], [r.interval[1] - r.value for r in rates]]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=f"arm {name}")
    ax.set_xticks([s + width * (len(arms) - 1) / 2 for s in range(players)])
    ax.set_xticklabels([_label(seat_name(s), f"{s + 1}番手", cjk) for s in range(players)])
    ax.set_ylim(0, 1)
    ax.axhline(1 / players, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylabel(_label("win rate (95 % interval)", "勝率（95%区間）", cjk))
    ax.set_title(_label("Win rate by seat", "手番ごとの勝率", cjk))
    if len(arms) > 1:
        ax.legend()
    fig.tight_layout()
    for ext in ("png", "svg"):
        save_figure(fig, out / f"seats.{ext}")
        written.append(f"seats.{ext}")
    plt.close(fig)

    cards = card_strength(results["a"], players)
    if cards:
        fig, ax = plt.subplots(figsize=(6.4, 0.5 + 0.35 * len(cards)))
        rows = list(range(len(cards)))
        rates = [c.top_runner_wins for c in cards]
        ax.barh(rows, [r.value for r in rates],
                xerr=[[r.value - r.interval[0] for r in rates],
                      [r.interval[1] - r.value for r in rates]], capsize=3)
        ax.set_yticks(rows)
        ax.set_yticklabels([c.name for c in cards])
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel(_label("wins of the seat that ran it most", "最も多く実行した手番の勝率",
                             cjk))
        ax.set_title(_label("Card strength", "カードの強さ", cjk))
        fig.tight_layout()
        for ext in ("png", "svg"):
            save_figure(fig, out / f"cards.{ext}")
            written.append(f"cards.{ext}")
        plt.close(fig)
    return written


def markdown(experiment: Experiment, results: dict[str, list[dict]], summaries: dict[str, dict],
             images: list[str], command: str, note: str = "", learned: bool = True) -> str:
    """The report's text (``learned=False``: the searching players judged by the hand-written
    evaluation in both arms, :func:`spaghetti.lab.runner.learned_alike`)."""
    lines = [f"# {experiment.name}", "", f"Reproduce: `{command}`", ""]
    for name, arm in experiment.arms.items():
        opts = ", ".join(f"{k}={v}" for k, v in arm.options.items() if v is not None) or "rulebook"
        ai = ", ".join(arm.ai)
        lines.append(f"- arm {name}: {arm.variant}, level {arm.level}, {arm.players} players, "
                     f"options {opts}, players {ai}"
                     + (f", cards {arm.cards}" if arm.cards else ""))
    played = min(len(games) for games in results.values())
    if not learned:
        lines.append("- the searching players judge by the hand-written evaluation in both "
                     "arms: a learned one ships for one arm's game only")
    lines += [f"- games per arm: {played}, deals from seed {experiment.seed} (the arms "
              "play the same deals)", ""]
    players = experiment.a.players
    lines += ["## Win rate by seat", "", "| arm | " + " | ".join(
        seat_name(s) for s in range(players)) + " | draws | unfinished |",
        "|---|" + "---|" * (players + 2)]
    for name, games in results.items():
        rates = seat_wins(games, players)
        ends = summaries[name]["endings"]
        draws, cut = (ends[k]["count"] if k in ends else 0 for k in ("draw", "unfinished"))
        lines.append(f"| {name} | " + " | ".join(str(r) for r in rates) + f" | {draws} | {cut} |")
    lines.append("")
    if "b" in results:
        lines += ["## Arm b against arm a", "", "On the deals both arms played, paired by deal "
                  "(Newcombe's interval for paired data).", "",
                  "| seat | difference (95 % interval) | |", "|---|---|---|"]
        for s, d in enumerate(seat_changes(results["a"], results["b"], players)):
            lines.append(f"| {seat_name(s)} | {d} | {'clear' if d.clear else 'not shown'} |")
        lines.append("")
    lines += ["## How games end, and how long they are", "", "| arm | endings | decisions | "
              "rounds of the cursor |", "|---|---|---|---|"]
    for name, sm in summaries.items():
        ends = ", ".join(f"{k} {Rate(v['count'], sm['games']).value:.0%}"
                         for k, v in sm["endings"].items())
        d, r = sm["decisions"], sm["rounds"]
        lines.append(f"| {name} | {ends} | {d['mean']:.1f} ({d['interval'][0]:.1f}-"
                     f"{d['interval'][1]:.1f}) | {r['mean']:.1f} ({r['interval'][0]:.1f}-"
                     f"{r['interval'][1]:.1f}) |")

    def shown(r: dict | None) -> str:
        if r is None:
            return "-"
        return f"{r['rate']:.0%} ({r['interval'][0]:.0%}-{r['interval'][1]:.0%}, n={r['n']})"

    def deck(name: str) -> set[str]:
        return {c["card"] for c in summaries[name]["cards"]}

    # Arm b's cards too where its deck differs (a custom card, another setup): that is the
    # question such an experiment asks.
    for name in [n for n in summaries if n == "a" or deck(n) != deck("a")]:
        lines += ["", f"## Cards (arm {name})", "", "| card | run | passed | run share | wins of "
                  "the seat that ran it most | first seat's wins with it in the program "
                  "| without it |",
                  "|---|---|---|---|---|---|---|"]
        for c in summaries[name]["cards"]:
            lo, hi = c["interval"]
            lines.append(f"| {c['card']} | {c['runs']} | {c['passes']} | {c['run_share']:.0%} | "
                         f"{c['top_runner_wins']:.0%} ({lo:.0%}-{hi:.0%}, n={c['n']}) | "
                         f"{shown(c.get('seat1_with'))} | {shown(c.get('seat1_without'))} |")
    lines += ["", "(The seat that ran a card most is often simply the seat with more flags left, "
              "which is also the seat that wins: compare cards with each other, not with 50 %. "
              "With and without are shown where the program varies: Pasta Logic's deal, custom "
              "cards.)"]
    lines.append("")
    for image in images:
        if image.endswith(".png"):
            lines += [f"![{image[:-4]}]({image})", ""]
    if note:
        lines += [note, ""]
    return "\n".join(lines)
