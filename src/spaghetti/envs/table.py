"""A game's table for an environment's ``render()``: as text (``ansi``) and as an image
(``rgb_array``).

The text is the terminal game's own table (:func:`spaghetti.render.render`), printed by
rich without colour. The image is drawn here with numpy alone (no plotting library, no imaging
library): one tile per program card in a row, in table order, and one strip per seat below.

- a card: its name (the first six letters, in a small bitmap font) and its current parameter
  values; a face-down card (sequential open) is dark grey with ``?``; the card at the cursor
  has a yellow frame and an arrow for the direction under it, the card whose command runs an
  orange one;
- its queue: one square per flag in its owner's colour, head at the top; a flag still to get
  its turn in this visit (pending) has a white dot, the flag deciding this turn a white frame;
- a seat: its colour, its life as a bar of red pips and a number, its supply as small squares in
  its colour; the seat to move has a white frame, a seat out of the game is crossed, the winner
  has a gold bar.
"""

from __future__ import annotations

import io

import numpy as np

from ..core.state import State
from ..core.view import REFEREE, knows_card

#: Seat colours (red, blue, green, yellow, purple, and three more).
SEAT_COLOURS = ((220, 50, 47), (38, 139, 210), (133, 153, 0), (181, 137, 0), (108, 113, 196),
                (42, 161, 152), (211, 54, 130), (203, 75, 22))
BACKGROUND = (24, 28, 36)
CARD = (238, 232, 213)
CARD_DOWN = (88, 96, 104)
INK = (16, 16, 16)
WHITE = (250, 250, 250)
YELLOW = (255, 210, 0)
ORANGE = (255, 128, 0)
GOLD = (255, 190, 40)
LIFE = (230, 40, 60)

# A 3x5 bitmap font: each glyph is five rows of three bits, top row first.
_GLYPHS = {
    "A": "111101111101101", "B": "110101110101110", "C": "111100100100111",
    "D": "110101101101110", "E": "111100110100111", "F": "111100110100100",
    "G": "111100101101111", "H": "101101111101101", "I": "111010010010111",
    "J": "001001001101111", "K": "101101110101101", "L": "100100100100111",
    "M": "101111111101101", "N": "110101101101101", "O": "111101101101111",
    "P": "111101111100100", "Q": "111101101111001", "R": "110101110101101",
    "S": "111100111001111", "T": "111010010010010", "U": "101101101101111",
    "V": "101101101101010", "W": "101101111111101", "X": "101101010101101",
    "Y": "101101010010010", "Z": "111001010100111", "0": "111101101101111",
    "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111",
    "7": "111001001001001", "8": "111101111101111", "9": "111101111001111",
    "-": "000000111000000", "+": "000010111010000", "?": "111001011000010",
    " ": "000000000000000", "_": "000000000000111", ".": "000000000000010",
}
_FONT = {ch: np.array([int(b) for b in bits], dtype=bool).reshape(5, 3)
         for ch, bits in _GLYPHS.items()}

SCALE = 2  # font scale: glyphs 6x10 pixels
CARD_W, CARD_H = 64, 40
FLAG = 10  # a flag's square
GAP = 8
QUEUE_ROWS = 10  # flags drawn per card (more show as a "+" under the column)
ARROW_H = 16  # the strip under the cards where the cursor's arrow points its direction
SEAT_H = 22


def _text(img: np.ndarray, x: int, y: int, text: str, colour, scale: int = SCALE) -> None:
    for ch in text.upper():
        glyph = _FONT.get(ch, _FONT["?"])
        block = np.kron(glyph, np.ones((scale, scale), dtype=bool))
        h, w = block.shape
        region = img[y:y + h, x:x + w]
        region[block[:region.shape[0], :region.shape[1]]] = colour
        x += w + scale


def _box(img: np.ndarray, x: int, y: int, w: int, h: int, colour) -> None:
    img[max(y, 0):y + h, max(x, 0):x + w] = colour


def _frame(img: np.ndarray, x: int, y: int, w: int, h: int, colour, t: int = 2) -> None:
    _box(img, x, y, w, t, colour)
    _box(img, x, y + h - t, w, t, colour)
    _box(img, x, y, t, h, colour)
    _box(img, x + w - t, y, t, h, colour)


def image_size(cards: int, players: int) -> tuple[int, int]:
    """(height, width) of the image of a table with this many program cards and seats."""
    width = GAP + max(cards, 4) * (CARD_W + GAP)
    height = GAP + CARD_H + ARROW_H + QUEUE_ROWS * (FLAG + 2) + GAP + players * (SEAT_H + 4) + GAP
    return height, width


def draw(state: State, cards: int, viewer: int | str = REFEREE) -> np.ndarray:
    """The table as an ``(H, W, 3)`` ``uint8`` image, as ``viewer`` may see it; the size depends
    only on ``cards`` (the program's length at the start) and the number of seats."""
    height, width = image_size(cards, state.players)
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = BACKGROUND
    turn = state.turn_flag
    running = state.running_card
    executing = state.phase == "execution"
    for i, card in enumerate(state.kinds[:cards]):
        x = GAP + i * (CARD_W + GAP)
        y = GAP
        known = knows_card(state, viewer, i)
        _box(img, x, y, CARD_W, CARD_H, CARD if known else CARD_DOWN)
        if known:
            _text(img, x + 3, y + 4, card.name.replace(" ", "")[:6], INK)
            values = " ".join(str(v) for v in state.vals[i])
            _text(img, x + 3, y + 22, values[:9], INK)
        else:
            _text(img, x + CARD_W // 2 - 3, y + 14, "?", WHITE)
        if running == i:
            _frame(img, x - 2, y - 2, CARD_W + 4, CARD_H + 4, ORANGE, 3)
        if executing and state.cursor == i:
            _frame(img, x, y, CARD_W, CARD_H, YELLOW, 3)
            ay = y + CARD_H + 2
            cx = x + CARD_W // 2
            for k in range(6):  # an arrowhead pointing the cursor's way
                tip = cx + (k if state.direction > 0 else -k)
                _box(img, min(tip, cx), ay + k, abs(tip - cx) + 1, 12 - 2 * k, YELLOW)
        qy = y + CARD_H + ARROW_H
        owners, pending = state.owners(i), state.pending(i)
        for k, (owner, waiting) in enumerate(zip(owners, pending)):
            if k >= QUEUE_ROWS:
                _text(img, x + CARD_W - 10, qy + QUEUE_ROWS * (FLAG + 2) - 10, "+", WHITE, 1)
                break
            fx, fy = x + CARD_W // 2 - FLAG // 2, qy + k * (FLAG + 2)
            _box(img, fx, fy, FLAG, FLAG, SEAT_COLOURS[owner % len(SEAT_COLOURS)])
            if waiting:
                _box(img, fx + 4, fy + 4, 2, 2, WHITE)
            if turn == (i, k):
                _frame(img, fx - 2, fy - 2, FLAG + 4, FLAG + 4, WHITE, 1)
    top = GAP + CARD_H + ARROW_H + QUEUE_ROWS * (FLAG + 2) + GAP
    for s in range(state.players):
        y = top + s * (SEAT_H + 4)
        colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
        _box(img, GAP, y, SEAT_H, SEAT_H, colour)
        if state.to_move == s and not state.is_over:
            _frame(img, GAP - 3, y - 3, SEAT_H + 6, SEAT_H + 6, WHITE, 2)
        if state.winner == s:
            _box(img, GAP, y + SEAT_H - 4, SEAT_H, 4, GOLD)
        life = state.lives[s]
        for k in range(max(0, min(life, 30))):
            _box(img, GAP + SEAT_H + 8 + k * 7, y + 4, 5, 14, LIFE)
        lx = GAP + SEAT_H + 8 + max(0, min(life, 30)) * 7 + 4
        _text(img, lx, y + 6, str(life), WHITE)
        for k in range(min(state.supply[s], 10)):  # the supply: one small flag each
            _box(img, lx + 36 + k * 9, y + 7, 7, 7, colour)
        if not state.alive[s]:
            for k in range(SEAT_H):
                _box(img, GAP + k, y + k, 2, 2, WHITE)
                _box(img, GAP + SEAT_H - 2 - k, y + k, 2, 2, WHITE)
    return img


def text(state: State, viewer: int | str = REFEREE, width: int = 100) -> str:
    """The terminal game's table as plain text (no colour codes)."""
    from rich.console import Console

    from ..render import render

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False,
                      legacy_windows=False)
    console.print(render(state, width=width, viewer=viewer, log_size=0, with_options=True))
    return out.getvalue()
