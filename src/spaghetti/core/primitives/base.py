"""What a primitive is, and the board it works on.

A :class:`Primitive` is one word of the vocabulary cards are written in (``add_flag``,
``reverse``, ...). It keeps in one place everything the game needs to know about it: its facts
(what a step of it chooses, which step keys it takes), whether running it can change anything
(C4), its targets, its effect, and its words in English and Japanese. The state runs the door
and the visit loop and lends each primitive a :class:`Board`: the fields and the few operations a
primitive may use, so that primitives never import the state (no import circle).

The shape of a card lives here too: a :class:`Step` names its primitive and a primitive acts on
steps, so the two are declared together; :mod:`spaghetti.core.cards` holds the cards themselves.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, SupportsIndex

from mypy_extensions import mypyc_attr

from ..codes import CARD_ID
from ..notation import register_card_name

#: Every primitive by name, in the order they are declared.
PRIMITIVES: dict[str, Primitive] = {}


class RulesFacts(Protocol):
    """What the board reads of a game's own rules (``core.variants.Variant``)."""

    @property
    def title(self) -> str: ...
    @property
    def title_ja(self) -> str: ...
    @property
    def vocabulary(self) -> str: ...
    @property
    def draws(self) -> bool: ...
    @property
    def free_numbers(self) -> bool: ...
    @property
    def reverse_priority(self) -> CardType | None: ...
    @property
    def temporary_chips(self) -> bool: ...
    @property
    def tiebreak_from_start(self) -> bool: ...


class GameFacts(Protocol):
    """What the board reads of the game it is a position of (``core.game.Game``): the facts
    fixed when the game is made. (A protocol, so that the board's layer needs no game.)"""

    @property
    def variant(self) -> str: ...
    @property
    def level(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def custom_cards(self) -> tuple[CardType, ...]: ...
    @property
    def rules(self) -> RulesFacts: ...

    def option(self, name: str) -> Any: ...
    @property
    def flags_placed(self) -> int: ...
    @property
    def supply(self) -> int: ...
    @property
    def life(self) -> int: ...
    @property
    def win_life(self) -> int | None: ...
    @property
    def life_cap(self) -> int | None: ...
    @property
    def chips(self) -> int: ...
    @property
    def hidden_information(self) -> bool: ...
    @property
    def calls(self) -> bool: ...
    @property
    def delays(self) -> bool: ...
    @property
    def runs_others(self) -> bool: ...
    @property
    def heals(self) -> bool: ...
    @property
    def placement_order(self) -> tuple[int, ...]: ...


class Board:
    """The part of a game in progress a primitive reads and changes.

    The lists are indexed by card position (kinds, current values, chip modifiers, queues of
    flag codes, card identities) or by seat (lives, alive, supply, flags on board, removed).
    The cards, their numbers and chips, the lives and the supplies change only through the
    operations below (``add_flag`` ... ``change_param``), which keep the cached part of the
    position key and the counts right; a primitive writes itself only what the position key
    reads afresh at every decision: its choice's bookkeeping (``chosen``, ``selected``,
    ``derived``), the cursor and its direction, a queue's order, and the Nightmare notes'
    ``calls``, ``jumps``, ``copied`` and ``rearrive``.

    A class, not a protocol: the state's chain of classes starts from it
    (:class:`~spaghetti.core.board.BoardState` does the operations), so that compiled primitives
    read its fields directly instead of by name. Its methods here only name the operations."""

    #: The fields, declared below: the state's chain of classes adds its own.
    __slots__ = (
        "game", "kinds", "vals", "mods", "queues", "uids", "lives", "alive", "supply",
        "on_board", "chips", "cursor", "direction", "to_move", "cmd", "this_uid", "cmd_vals",
        "first_cmd", "run_dir", "chosen", "selected", "count_left", "derived", "calls",
        "memory_on", "temp_chips", "jumps", "copied", "rearrive", "instant", "inst_on", "free",
    )

    game: GameFacts
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

    @property
    def actor(self) -> int:
        """The seat to move, where there is one (at every decision but a chance event)."""
        seat = self.to_move
        assert seat is not None
        return seat

    def this_index(self) -> int:
        raise NotImplementedError

    def progress(self) -> None:
        raise NotImplementedError

    def forget_key(self) -> None:  # the board's part of the position key is to be made anew
        raise NotImplementedError

    def offer(self, options: tuple[int, ...]) -> None:  # the next choice's options, as they are
        raise NotImplementedError

    def arrive(self) -> None:
        raise NotImplementedError

    def land(self) -> None:
        raise NotImplementedError

    def add_flag(self, card: int, seat: int, head: bool = False) -> None:
        raise NotImplementedError

    def add_later(self, card: int, seat: int) -> None:
        raise NotImplementedError

    def take_from_supply(self, seat: int) -> None:
        raise NotImplementedError

    def remove_flag(self, card: int, k: int) -> None:
        raise NotImplementedError

    def move_flag(self, source: tuple[int, int], dest: int) -> None:
        raise NotImplementedError

    def move_card(self, i: int, at: int) -> None:
        raise NotImplementedError

    def swap_card(self, j: int) -> None:
        raise NotImplementedError

    def remove_card(self, i: int) -> None:
        raise NotImplementedError

    def instant_leaves(self, seat: int, how: str) -> None:
        raise NotImplementedError

    def damage(self, seat: int, amount: int) -> None:
        raise NotImplementedError

    def heal(self, seat: int, amount: int) -> None:
        raise NotImplementedError

    def change_param(self, card: int, index: int, delta: int) -> None:
        raise NotImplementedError

    def shift(self, printed: int, m: int, delta: int) -> int:
        raise NotImplementedError

    def queue_copies(self, commands: list[tuple[int, CardType, tuple[int, ...]]]) -> None:
        raise NotImplementedError


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

    def alone(self, primitive: Primitive) -> Any:
        """The state after the option's own step: by the next decision (``after``) the steps
        that follow by themselves may have changed more (a copied BOMB removes the copying card,
        N5; a later step hurts the chosen player again)."""
        state = self.before.copy()
        primitive.choose(state, state.cmd.effect[state.step_i], self.action)
        return state


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
    return [CARD_ID[i] for i, u in enumerate(board.uids)
            if u != this and not (chosen and u in chosen)]


def words_for(lang: str, vocabulary: str = "code") -> dict[str, str]:
    """Every primitive's words in a language, with the game's own vocabulary over them."""
    merged: dict[str, str] = {}
    for prim in PRIMITIVES.values():
        merged.update(prim.words.get(lang, {}))
    for prim in PRIMITIVES.values():
        merged.update(prim.words.get(f"{vocabulary}/{lang}", {}))
    return merged


def self_life(effect: Iterable[Step], values: tuple[int, ...], life: int,
              cap: int | None) -> int:
    """The actor's life after an effect's ``damage_self`` / ``heal_self`` steps alone, from
    ``life``, with these parameter values (C4 asks whether they change anything)."""
    for step in effect:
        sign, amount = step.prim.own_life, step.amount
        if amount is None or not sign:
            continue
        v = values[amount]
        if sign < 0:
            life -= v
        else:
            life = life + v if cap is None else max(life, min(life + v, cap))
    return life


class _Step:
    """What every step has: a primitive, and maybe an amount read from a parameter."""

    amount: int | None
    prim: Primitive

    def amount_of(self, values: tuple[int, ...]) -> int:
        """The step's amount with these parameter values (0 for a step without one)."""
        return 0 if self.amount is None else values[self.amount]

    def _check_amount(self) -> None:
        """An amount where the primitive reads one, and none where it does not."""
        if (self.amount is None) == self.prim.needs_amount:
            raise ValueError(f"{self.prim.name} {'needs' if self.amount is None else 'takes no'} "
                             "amount")


@dataclass(frozen=True)
class Choose(_Step):
    """Choose up to ``count`` distinct targets, one at a time, applying ``action`` to each.

    ``count`` and ``amount`` are parameter indexes (``None``: exactly one / no amount).
    ``other``: only targets other than this card (for flags: not on this card).
    ``head``: ``add_flag`` puts the flag at the head instead of the tail (FastPass).
    ``same_card``: ``remove_flag`` takes every flag from the card of the first one (Pasta
    Logic's RemoveFlag: "one card, up to n of its flags").
    ``adjacent``: ``remove_card`` only the card just before or just after this one (KILL_CARD).
    ``later``: ``add_flag``'s flag arrives when the cursor next moves (WORM).
    ``per_card``: ``raise`` / ``lower`` change one number of each chosen card: the distinct
    targets are cards, not numbers (the Nightmare notes' "任意の1枚のカード", SPEC 6).
    The primitive (:mod:`spaghetti.core.primitives`) says which of these it takes.
    """

    action: str
    count: int | None = None
    amount: int | None = None
    other: bool = False
    head: bool = False
    same_card: bool = False
    adjacent: bool = False
    later: bool = False
    per_card: bool = False
    prim: Primitive = field(init=False, compare=False, repr=False)
    # The primitive's facts that every run of the step reads, kept here: compiled code reads a
    # primitive's class attributes by name, a step's fields directly.
    automatic: bool = field(init=False, compare=False, repr=False)
    fresh: Any = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        prim = PRIMITIVES.get(self.action)
        if prim is None or prim.chooses is None:
            raise ValueError(f"unknown choice primitive {self.action!r}")
        object.__setattr__(self, "prim", prim)
        object.__setattr__(self, "automatic", prim.automatic)
        object.__setattr__(self, "fresh", prim.fresh)
        for key in ("head", "same_card", "adjacent", "later", "per_card"):
            if getattr(self, key) and key not in prim.keys:
                owners = [p.name for p in PRIMITIVES.values() if key in p.keys]
                raise ValueError(f"only {' and '.join(owners)} take {key!r}")
        if self.other and not prim.takes_other:
            raise ValueError(f"{self.action} takes no 'other'")
        if self.count is not None and not prim.takes_count:
            raise ValueError(f"{self.action} takes no count (it chooses one target)")
        self._check_amount()

    @property
    def target(self) -> str:
        """What the step chooses first: card, flag, player, param or at."""
        return self.prim.chooses or ""

    def __reduce__(self) -> tuple[Any, ...]:
        # (Rebuilt through the constructor: compiled code would restore the fields one by one,
        # by assignment, which a frozen class refuses.)
        return Choose, (self.action, self.count, self.amount, self.other, self.head,
                        self.same_card, self.adjacent, self.later, self.per_card)

@dataclass(frozen=True)
class Do(_Step):
    """A step that happens by itself.

    ``amount`` is a parameter index, for the primitives that read one (``damage_self``,
    ``heal_self``, ...). Do steps take none of the choice keys (they read as False).
    """

    action: str
    amount: int | None = None
    prim: Primitive = field(init=False, compare=False, repr=False)
    count = None  # (Do steps take none of the choice keys)
    other = False
    head = False
    same_card = False
    adjacent = False
    later = False
    per_card = False

    def __post_init__(self) -> None:
        prim = PRIMITIVES.get(self.action)
        if prim is None or prim.chooses is not None:
            raise ValueError(f"unknown primitive {self.action!r}")
        object.__setattr__(self, "prim", prim)
        self._check_amount()

    def __reduce__(self) -> tuple[Any, ...]:
        return Do, (self.action, self.amount)  # (as Choose.__reduce__)

#: A step of an effect.
Step = Choose | Do


@dataclass(frozen=True, eq=False)
class CardType:
    """One kind of command card.

    ``name`` is the card's name in English as the rulebook prints it (``AddFlag``); records use it.
    ``params`` are the printed values of the braced numbers, in text order.
    """

    name: str
    name_ja: str
    text: str
    text_ja: str
    level: int
    params: tuple[int, ...] = ()
    effect: tuple[Step, ...] = ()
    # True when the effect refers to "the flag that ran this": then that flag's identity is part
    # of the position while it has the turn (C9).
    uses_running_flag: bool = field(init=False)
    # True for Memory: its command is the commands the cursor visited just before (C11).
    recalls: bool = field(init=False)
    # True when the command's effects may cancel out, so that only running it shows whether it
    # changes the position (C4): Memory and copies run other commands, and two steps that
    # reverse or rotate the same things may undo each other.
    composite: bool = field(init=False)
    # True when a step damages a chosen player (Bug, ForkBomb): a turn on this card is a hit.
    hurts: bool = field(init=False)

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """A built-in card pickles as a reference and reads back as the very same object: a
        state compares cards by identity. A player's card pickles by value."""
        ref = _BUILTIN_REFS.get(id(self))
        if ref is not None:
            return _builtin_card, ref
        # (Rebuilt through the constructor, as a step is.)
        return CardType, (self.name, self.name_ja, self.text, self.text_ja, self.level,
                          self.params, self.effect)

    def __post_init__(self) -> None:
        register_card_name(self.name)
        prims = [s.prim for s in self.effect]
        object.__setattr__(self, "uses_running_flag", any(p.uses_running_flag for p in prims))
        object.__setattr__(self, "recalls", any(p.recalls for p in prims))
        undoable = [p for p in prims if p.undoable]
        object.__setattr__(self, "composite", any(p.runs_others for p in prims)
                           or len(undoable) > len(set(undoable)))
        object.__setattr__(self, "hurts", any(p.hurts_chosen for p in prims))

    @property
    def heals(self) -> bool:
        """Can this card raise a life (``heal``, ``heal_self``)?"""
        return any(step.prim.heals for step in self.effect)

    def self_life(self, values: tuple[int, ...], life: int, cap: int | None) -> int:
        """The actor's life after this card's ``damage_self`` / ``heal_self`` steps alone,
        from ``life``, with these parameter values (C4 asks whether they change anything)."""
        return self_life(self.effect, values, life, cap)

    def text_for(self, values: tuple[int, ...] | None = None, lang: str = "en") -> str:
        """The card's text with its current parameter values in braces."""
        values = self.params if values is None else values
        template = self.text_ja if lang == "ja" else self.text
        return template.format(*(f"{{{v}}}" for v in values))

    def display_name(self, lang: str = "en") -> str:
        return self.name_ja if lang == "ja" else self.name

    def __repr__(self) -> str:
        return f"CardType({self.name})"

    def __copy__(self) -> CardType:
        return self  # immutable, and known by identity

    def __deepcopy__(self, memo: dict[int, Any]) -> CardType:
        return self


#: The built-in cards, by (the module that declares them, name); see CardType.__reduce_ex__.
_BUILTIN: dict[tuple[str, str], CardType] = {}
_BUILTIN_REFS: dict[int, tuple[str, str]] = {}


def built_in(module: str, cards: Iterable[CardType]) -> None:
    """Declare a game's own cards built in (they live as long as the process)."""
    for card in cards:
        _BUILTIN[module, card.name] = card
        _BUILTIN_REFS[id(card)] = (module, card.name)


def _builtin_card(module: str, name: str) -> CardType:
    importlib.import_module(module)  # (a process that reads a pickle may not have loaded it)
    return _BUILTIN[module, name]
