"""What a primitive is, and the board it works on.

A :class:`Primitive` is one word of the vocabulary cards are written in (``add_flag``,
``reverse``, ...). It keeps in one place everything the game needs to know about it: its facts
(what a step of it chooses, which step keys it takes), whether running it can change anything
(C4), its targets, its effect, and its words in English and Japanese. The state runs the door
and the visit loop and lends each primitive a :class:`Board`: the fields and the few operations a
primitive may use, so that primitives never import the state (no import circle).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from mypy_extensions import mypyc_attr

from ..codes import CARD

if TYPE_CHECKING:
    from ..cards import CardType, Step
    from ..game import Game

#: Every primitive by name, in the order they are declared.
PRIMITIVES: dict[str, Primitive] = {}


class Board(Protocol):
    """The part of a game in progress a primitive reads and changes.

    The lists are indexed by card position (kinds, current values, chip modifiers, queues of
    flag codes, card identities) or by seat (lives, alive, supply, flags on board, removed)."""

    game: Game
    kinds: list[CardType]
    vals: list[tuple[int, ...]]
    mods: list[tuple[int, ...]]
    queues: list[tuple[int, ...]]
    uids: list[int]
    lives: list[int]
    alive: list[bool]
    supply: list[int]
    on_board: list[int]
    chips: list[int]
    cursor: int
    direction: int
    to_move: int | None
    # The command running: its card's identity ("this card"), values, and the choice so far.
    cmd: CardType | None
    this_uid: int
    cmd_vals: tuple[int, ...]
    first_cmd: bool
    run_dir: int
    chosen: Any  # frozenset of uids or of options; for players a bit mask
    selected: Any  # the first half of a pair: a flag (card, k), or a card's uid
    count_left: int
    derived: bool
    calls: tuple[Any, ...]
    memory_on: bool
    temp_chips: bool
    jumps: tuple[tuple[int, int], ...]
    copied: frozenset[int]
    rearrive: bool
    instant: tuple[Any, ...]
    inst_on: bool
    free: bool
    _legal: tuple[int, ...] | None
    _sig: Any

    @property
    def _actor(self) -> int: ...  # the seat to move (during a command, the actor)
    def _this_index(self) -> int: ...
    def _progress(self) -> None: ...
    def _arrive(self) -> None: ...
    def _land(self) -> None: ...
    def _add_flag(self, card: int, seat: int, head: bool = False) -> None: ...
    def _add_later(self, card: int, seat: int) -> None: ...
    def _take_from_supply(self, seat: int) -> None: ...
    def _remove_flag(self, card: int, k: int) -> None: ...
    def _move_flag(self, source: tuple[int, int], dest: int) -> None: ...
    def _move_card(self, i: int, at: int) -> None: ...
    def _swap_card(self, j: int) -> None: ...
    def _remove_card(self, i: int) -> None: ...
    def _instant_leaves(self, seat: int, how: str) -> None: ...
    def _damage(self, seat: int, amount: int) -> None: ...
    def _heal(self, seat: int, amount: int) -> None: ...
    def _change_param(self, card: int, index: int, delta: int) -> None: ...
    def _shift(self, printed: int, m: int, delta: int) -> int: ...
    def _queue_copies(self, commands: list[tuple[int, CardType, tuple[int, ...]]]) -> None: ...


@dataclass(frozen=True)
class Telling:
    """What a primitive needs to put one chosen option into words (``i18n.describe``)."""

    before: Any  # the State before the option, and after it
    after: Any
    action: int
    words: dict[str, str]
    actor: int | None
    p: str  # the actor's colour in words
    running: str  # the running card's name in words
    card: Callable[[Any, int], str]  # (state, index) -> a card's name in words
    colour: Callable[[int], str]  # seat -> its colour in words
    instant_card: Callable[[int], str]  # seat -> "<colour>'s instant card" in words


# A new primitive is a class of its own, in compiled code or not (tests, players' extensions).
@mypyc_attr(allow_interpreted_subclasses=True)
class Primitive:
    """One primitive. Subclasses declare the facts as class attributes and override what they do.

    A *choose* primitive (``chooses`` set) applies itself to each target the actor picks, one at
    a time (C5); a *do* primitive happens by itself.
    """

    name: ClassVar[str] = ""
    #: What a choose step picks first: "card", "flag", "player", "param" or "at"; None: a do step.
    chooses: ClassVar[str | None] = None
    #: The second half of a pair (move_flag: "to", move_card: "at", reorder: "flag").
    then: ClassVar[str | None] = None
    needs_amount: ClassVar[bool] = False
    takes_count: ClassVar[bool] = True  # (choose steps) "up to n" distinct targets
    takes_other: ClassVar[bool] = False  # (choose steps) only targets other than this card
    #: The step keys of this primitive's own (head, same_card, adjacent, later, per_card).
    keys: ClassVar[frozenset[str]] = frozenset()
    #: Open to custom cards (Memory's recall is not: it needs the Memory option's record).
    custom: ClassVar[bool] = True
    #: Two steps of it may undo each other: C4 then asks the outcome (CardType.composite).
    undoable: ClassVar[bool] = False
    #: Runs other cards' commands (Memory, copies): C4 asks the outcome, or the copied steps.
    runs_others: ClassVar[bool] = False
    #: (copies) The cards copied are known before the run (``offsets``); FLOAT's are not.
    fixed_targets: ClassVar[bool] = False
    #: Is Memory's recall: the command is the remembered ones (C11).
    recalls: ClassVar[bool] = False
    #: Can raise a life: then lives are part of the position key (C9).
    heals: ClassVar[bool] = False
    #: What a do step does to the actor's own life by its amount: -1 lowers it (damage_self),
    #: +1 raises it (heal_self), 0 leaves it (C4 asks the net effect of a card's own steps).
    own_life: ClassVar[int] = 0
    #: A choice of a player to hurt (damage): the evaluation counts such cards as threats.
    hurts_chosen: ClassVar[bool] = False
    #: Puts flags on their way or fixes a jump: part of the position key (C9).
    delays: ClassVar[bool] = False
    #: Makes the cursor visit another card and come back (C16): visits nest.
    nests: ClassVar[bool] = False
    #: Refers to the flag that ran the command: it stays marked while it has the turn (P2).
    uses_running_flag: ClassVar[bool] = False
    #: May resolve without a choice (:meth:`resolve`).
    automatic: ClassVar[bool] = False
    #: A do step's words when ``run`` is described, if nothing else there shows it.
    run_word: ClassVar[str | None] = None
    #: The words of its sentences: "en", "ja", and "<vocabulary>/<lang>" for a game's own.
    words: ClassVar[dict[str, dict[str, str]]] = {}
    #: The empty choice a step starts from: a bit mask of seats, or a set.
    fresh: ClassVar[Any] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            PRIMITIVES[cls.name] = cls()

    def changes(self, board: Board, card: CardType, step: Step, vals: tuple[int, ...]) -> bool:
        """C4: could running this step, with these values, change the game? Asked at ``run``
        (no command is running yet; "this card" is the cursor's). By default a choice changes
        something when it has a target, and a do step always does."""
        return bool(self.targets(board, step, vals)) if self.chooses else True

    def targets(self, board: Board, step: Step, vals: tuple[int, ...]) -> list[int]:
        """The options of the step's next choice (also asked by C4 before ``run``)."""
        return []

    def choose(self, board: Board, step: Step, action: int) -> bool:
        """Apply one chosen option; True while the pair (or Reorder's order) goes on."""
        raise NotImplementedError(self.name)

    def do(self, board: Board, step: Step, vals: tuple[int, ...]) -> None:
        """A do step's effect."""
        raise NotImplementedError(self.name)

    def offsets(self, step: Step, vals: tuple[int, ...], n: int, d: int) -> list[int]:
        """(copies) The signed distances from this card of the cards copied, with ``n`` cards
        in the program and the direction ``d`` at the start of the run."""
        return []

    def resolve(self, board: Board, step: Step) -> bool:
        """An ``automatic`` choose step that needs no choice now: do it, and say True."""
        return False

    def tell(self, t: Telling) -> tuple[str, bool]:
        """The chosen option in words: a clause of "ran" (False), or a whole sentence (True)."""
        raise NotImplementedError(self.name)

    def __repr__(self) -> str:
        return f"<primitive {self.name}>"


def unchosen_cards(board: Board, this: int) -> list[int]:
    """The ``card N`` options of a step: cards not chosen by it yet (C5), but the card whose
    identity is ``this`` (-1: none left out)."""
    chosen = board.chosen
    return [CARD | i for i, u in enumerate(board.uids) if u != this and u not in chosen]


def words_for(lang: str, vocabulary: str = "code") -> dict[str, str]:
    """Every primitive's words in a language, with the game's own vocabulary over them."""
    merged: dict[str, str] = {}
    for prim in PRIMITIVES.values():
        merged.update(prim.words.get(lang, {}))
    for prim in PRIMITIVES.values():
        merged.update(prim.words.get(f"{vocabulary}/{lang}", {}))
    return merged

