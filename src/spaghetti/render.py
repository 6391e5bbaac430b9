"""Rich rendering of a game state: the program as a row of cards, the players, the decision.

Everything readable without colour too (flags are letters, the cursor is an arrow), so that a
plain-text capture or a non-TTY pipe still shows the whole game.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from .core.state import State
from .core.view import REFEREE, knows_card, knows_instant
from .i18n import card_name, colour, lang_for, mark, option_label, style, t

CARD_WIDTH = 14  # width of one card's column in the row layout


def flags_text(state: State, card: int, lang: str, vertical: bool) -> Text:
    """The queue of a card, head first, in player colours; pending flags marked ``*``."""
    text = Text()
    owners, pending = state.owners(card), state.pending(card)
    turn = state.turn_flag
    acting = turn[1] if turn is not None and turn[0] == card else None
    for k, (owner, waiting) in enumerate(zip(owners, pending)):
        if k:
            text.append("\n" if vertical else " ")
        if k == acting:
            text.append(mark(owner, lang), style=style(owner) + " reverse")
            text.append("<", style="bold")
        else:
            text.append(mark(owner, lang), style=style(owner))
            text.append("*" if waiting else " " if vertical else "", style="bold")
    if not owners:
        text.append("·", style="dim")
    return text


def params_text(state: State, card: int) -> Text:
    text = Text()
    for value, mod in zip(state.vals[card], state.mods[card]):
        piece = f"{{{value}}}"
        text.append(piece, style="bold cyan" if mod == 0 else "bold magenta")
        if mod:
            text.append(f"({mod:+d})", style="dim")
    return text


def program_table(state: State, lang: str, width: int, viewer=REFEREE) -> RenderableType:
    """The program: one column per card when it fits the width, else one row per card. Cards
    the viewer may not know (sequential open) show face down."""
    n = len(state.kinds)
    hidden = {i for i in range(n) if not knows_card(state, viewer, i)}

    def name(i: int) -> str:
        return "?" if i in hidden else card_name(state, i, lang).split("#")[0]

    def params(i: int) -> Text:
        return Text(t("face_down", lang), style="dim") if i in hidden else params_text(state, i)

    if n == 0:
        return Text(t("nonempty_program", lang), style="dim")
    run = state.running_card
    arrow = "→" if state.direction > 0 else "←"
    if n * (CARD_WIDTH + 1) + 1 <= width:
        table = Table(box=box.ROUNDED, show_header=True, header_style="bold", padding=(0, 0),
                      show_lines=True)
        for i in range(n):
            head = Text(f"{i}\n", style="dim")
            head.append(name(i), style="bold reverse" if i == state.cursor else "bold")
            table.add_column(head, width=CARD_WIDTH, justify="center", no_wrap=True,
                             overflow="ellipsis")
        table.add_row(*[params(i) for i in range(n)])
        table.add_row(*[flags_text(state, i, lang, vertical=True) for i in range(n)])
        marks = []
        for i in range(n):
            cell = Text()
            if i == state.cursor:
                cell.append(f"▲ {arrow}", style="bold")
                if run == i:
                    cell.append(f" {t('running', lang)}", style="bold yellow")
            elif run == i:
                cell.append(t("running", lang), style="bold yellow")
            marks.append(cell)
        table.add_row(*marks)
        return table
    table = Table(box=box.SIMPLE_HEAD, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("", no_wrap=True)
    table.add_column("#", justify="right")
    table.add_column(t("program", lang), no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("", overflow="fold")
    for i in range(n):
        cur = Text(f"▶{arrow}" if i == state.cursor else "", style="bold")
        label = Text(name(i), style="bold reverse" if i == state.cursor else "bold")
        if run == i:
            label.append(f" ({t('running', lang)})", style="yellow")
        table.add_row(cur, str(i), label, params(i),
                      flags_text(state, i, lang, vertical=False))
    return table


def players_table(state: State, lang: str, computers: Sequence[bool] = (),
                  human_seats: Sequence[int] = ()) -> Table:
    placement = state.phase == "placement"
    # Collapsed padding and no edge: eight columns of five players fit 80 columns.
    table = Table(box=box.SIMPLE_HEAD, header_style="bold", pad_edge=False, show_edge=False,
                  collapse_padding=True)
    table.add_column("")
    table.add_column(t("col.player", lang), no_wrap=True)
    table.add_column(t("col.life", lang), no_wrap=True)
    table.add_column(t("col.on_cards", lang), justify="right")
    table.add_column(t("col.supply", lang), justify="right")
    if placement:
        table.add_column(t("col.hand", lang), justify="right")
    table.add_column(t("col.removed", lang), justify="right")
    table.add_column(t("col.status", lang))
    bar = max(state.lives) <= 5
    on_cards = [0] * state.players
    for i in range(len(state.kinds)):
        for owner in state.owners(i):
            on_cards[owner] += 1
    for seat in range(state.players):
        who = Text(colour(seat, lang) if lang == "ja"
                   else f"{mark(seat, lang)} {colour(seat, lang)}",
                   style=style(seat))
        if seat < len(computers) and computers[seat]:
            who.append(f" ({t('computer', lang)})", style="dim")
        elif seat in human_seats and any(computers):
            who.append(f" ({t('you', lang)})", style="dim")
        # A heart for each life while they are few; beyond five (Nightmare's 10 to 20 HP)
        # one heart and the number, as the full-screen game shows them.
        lives = Text("♥" * max(state.lives[seat], 0) if bar else "♥", style="red")
        lives.append(f" {state.lives[seat]}")
        status = Text()
        if state.winner == seat:
            status.append(t("winner_mark", lang), style="bold green")
        elif not state.alive[seat]:
            status.append(t("out", lang), style="dim")
        elif state.to_move == seat:
            status.append(t("to_move_mark", lang), style="bold")  # its row starts with ▶
        row: list[RenderableType] = [
            Text("▶", style="bold") if state.to_move == seat else Text(""), who, lives,
            str(on_cards[seat]), str(state.supply[seat])]
        if placement:
            row.append(str(state.hand[seat]))
        row += [str(state.removed[seat]), status]
        table.add_row(*row, style="dim" if not state.alive[seat] else None)
    return table


def decision_line(state: State, lang: str) -> Text:
    """Whose turn it is and what is being decided."""
    if state.is_over:
        return result_line(state, lang)
    if state.is_chance:
        return Text("▶ " + t("decide.coin", lang), style="bold")
    seat = state.to_move
    assert seat is not None, "a seat decides unless the game is over or a coin flip is due"
    p = colour(seat, lang)
    deciding = state.deciding
    run = state.running_card
    if deciding == "open":
        c = state.opened - 1
    elif state.phase == "execution" and deciding != "interrupt":
        c = run if run is not None else state.cursor
    else:
        c = None
    card = "" if c is None else card_name(state, c, lang)
    if lang == "ja" and card:
        card = f"「{card}」"
    text = Text()
    text.append("▶ ", style="bold")
    line = t(f"decide.{deciding}", lang, p=p, card=card, n=state.hand[seat])
    text.append(line, style=style(seat))
    if c is not None:
        text.append(f"\n  {state.kinds[c].display_name(lang)}: "
                    f"{state.kinds[c].text_for(state.vals[c], lang)}", style="dim")
    if state.repeated:
        text.append("\n" + t("repeated", lang), style="bold yellow")
    return text


def result_line(state: State, lang: str) -> Text:
    if state.winner is None:
        return Text(t("draw", lang), style="bold")
    return Text("★ " + t(f"won.{state.reason}", lang, p=colour(state.winner, lang)),
                style=f"{style(state.winner)}")


def header(state: State, lang: str, seed: int | None = None) -> Text:
    game = state.game
    text = Text()
    rules = game.rules
    text.append(rules.title_ja if lang == "ja" else rules.title, style="bold")
    parts = [t("level", lang, n=game.level), t("players_n", lang, n=game.players),
             t(f"phase.{state.phase}", lang), t("move_no", lang, n=len(state.history))]
    if seed is not None:
        parts.insert(2, t("seed", lang, n=seed))
    text.append("  ·  " + "  ·  ".join(parts), style="dim")
    return text


def short_label(state: State, option: str, lang: str) -> str:
    """A shorter label than :func:`option_label` for flag targets: the owner's mark and card."""
    words = option.split()
    if words[0] == "flag":
        card, k = (int(x) for x in words[1].split("."))
        return f"{mark(state.owners(card)[k], lang)} {card_name(state, card, lang)}"
    return option_label(state, option, lang)


def options_table(state: State, lang: str, width: int = 80) -> RenderableType:
    """The legal options, numbered from 1, with their notation and a few words.

    Many options (targets) go in several columns, so that the board stays on the screen.
    """
    legal = state.legal()
    if len(legal) > 8:
        num = len(str(len(legal)))

        def numbered(label) -> list[Text]:
            items = []
            for n, option in enumerate(legal, 1):
                item = Text(f"{n:>{num}}) ", style="bold")
                item.append(option, style="cyan")
                item.append(" " + label(state, option, lang))
                items.append(item)
            return items

        items = numbered(option_label)
        longest = max(item.cell_len for item in items)
        if longest * 2 + 4 > width:  # narrow screen: flags by their mark and card only
            items = numbered(short_label)
            longest = max(item.cell_len for item in items)
        if longest * 2 + 4 <= width:
            return Columns(items, column_first=True, padding=(0, 3), width=longest)
    table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 1))
    table.add_column(justify="right", style="bold")
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    for n, option in enumerate(state.legal(), 1):
        table.add_row(f"{n})", option, option_label(state, option, lang))
    return table


def expansions_text(state: State, lang: str, viewer=REFEREE) -> list[Text]:
    """Lines for the expansions in play: first player, instant cards, interrupt tokens."""
    option = state.game.option
    lines = []
    if option("fair_first") and state.phase != "setup":
        lines.append(Text(t("first_line", lang, p=colour(state.first, lang)),
                          style=style(state.first)))
    if option("instant_cards"):
        cards = []
        for seat in range(state.players):
            held, gone = state.instant[seat], state.instant_gone[seat]
            if held:
                if knows_instant(state, viewer, seat):
                    values = tuple(p + m for p, m in zip(held[0].params, held[1]))
                    what = f"{held[0].display_name(lang)} {held[0].text_for(values, lang)}"
                else:
                    what = t("instant.hidden", lang)
            elif gone:
                what = t(f"instant.{gone[0]}", lang,
                         card=gone[1].display_name(lang) if gone[1] else "")
            else:
                what = t("instant.none", lang)
            cards.append(f"{colour(seat, lang)}: {what}")
        lines.append(Text(t("instant_line", lang, cards="  ·  ".join(cards))))
    if option("interrupt"):
        tokens = "  ".join(f"{colour(s, lang)} {n}" for s, n in enumerate(state.tokens)
                           if not state.alive[s])
        if tokens:
            lines.append(Text(t("tokens_line", lang, tokens=tokens)))
    return lines


def custom_legend(state: State, lang: str) -> list[Text]:
    """The text of each custom card in the program (players wrote them: nobody knows them by
    heart), with its current parameter values."""
    custom = state.game.custom_cards
    lines = []
    shown = set()
    for i, kind in enumerate(state.kinds):
        if kind in custom and kind not in shown:
            shown.add(kind)
            line = Text("  ✎ ", style="dim")
            line.append(kind.display_name(lang), style="bold")
            line.append(": " + kind.text_for(state.vals[i], lang), style="dim")
            lines.append(line)
    return lines


def render(state: State, lang: str = "en", *, width: int = 100, log: Sequence[str] = (),
           log_size: int = 6, seed: int | None = None, computers: Sequence[bool] = (),
           human_seats: Sequence[int] = (), with_options: bool = False,
           viewer: int | str = REFEREE) -> Group:
    """The whole screen for a state as ``viewer`` may see it: header, program, players, chips,
    the expansions, last moves, decision."""
    lang = lang_for(lang, state)  # the words of the game on the table
    parts: list[RenderableType] = [header(state, lang, seed), Text("")]
    parts.append(program_table(state, lang, width, viewer))
    parts.append(Text("  " + t("head_note", lang), style="dim"))
    parts.extend(custom_legend(state, lang))
    parts += [Text(""), players_table(state, lang, computers, human_seats), Text("")]
    if state.game.level >= 3:
        parts.append(Text(t("chips", lang, inc=state.chips[0], dec=state.chips[1])))
    parts.extend(expansions_text(state, lang, viewer))
    if log_size:
        parts.append(Text(t("last_moves", lang), style="bold underline"))
        if log:
            start = max(0, len(log) - log_size)
            for n, line in enumerate(log[start:], start + 1):
                parts.append(Text(f"  {n:>3}. {line}"))
        else:
            parts.append(Text("  " + t("no_moves", lang), style="dim"))
    parts.append(Text(""))
    parts.append(decision_line(state, lang))
    if with_options and not state.is_over:
        parts.append(Padding(options_table(state, lang, width - 2), (0, 0, 0, 2), expand=False))
    return Group(*parts)
