"""The facts of a game before it starts: variant, level, players, options, the deck.

A :class:`Game` is an immutable value. :meth:`Game.new_state` deals a program (given, or shuffled
with a seed it is handed) and returns the first :class:`~spaghetti.core.state.State`.

A game may hold custom cards (the rulebook's Blank card: a command the players write), declared
as data (:mod:`spaghetti.custom_cards` reads them from TOML). They join the deck as the extra
cards do, at any level.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..errors import SetupError
from .cards import CardType
from .codes import MAX_CARDS
from .draws import shuffle
from .state import State
from .options import OPTIONS
from .variants import VARIANTS, Variant

FLAGS_PER_COLOUR = 10

def _check_options(options: dict, rules: Variant, players: int) -> dict:
    """Every option of the game with its value: those given, checked against the game's own
    options, and the defaults. An option of another game of the family is refused unless it is
    given its default (its rule is not in this game either way)."""
    if not isinstance(options, dict):
        raise SetupError("options must be a mapping of option name to value")
    checked = {}
    for name, value in options.items():
        own = rules.options.get(name)
        if own is None:
            other = OPTIONS.get(name)
            if other is None:
                raise SetupError(f"unknown option {name!r}; the options of {rules.title} are: "
                                 f"{', '.join(rules.options)}")
            if other.parse(value) != other.default:
                raise SetupError(f"option {name!r} does not apply to {rules.title}; its "
                                 f"options are: {', '.join(rules.options)}")
            continue
        value = checked[name] = own.parse(value)
        if value != own.default and not own.for_players(players):
            counts = (f"{own.players[0]} players" if len(own.players) == 1 else
                      f"{own.players[0]} to {own.players[-1]} players")
            raise SetupError(f"option {name} is for {counts}, not {players}")
    return {name: checked.get(name, o.default) for name, o in rules.options.items()}


def _check_custom(cards: Any, rules: Variant) -> tuple[CardType, ...]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, (list, tuple)):
        raise SetupError("custom_cards must be a sequence of cards "
                         "(see spaghetti.custom_cards.loads)")
    # A player's card may take a built-in card's name (P29): it takes that card's place in the
    # game, so a file that played before a built-in card took its name plays the same after.
    seen: set[str] = set()
    for card in cards:
        if not isinstance(card, CardType):
            raise SetupError(f"custom_cards: {card!r} is not a card")
        if card.name.lower() in seen:
            raise SetupError(f"custom_cards: there is already a card named {card.name!r}")
        seen.add(card.name.lower())
    return tuple(cards)


@dataclass(frozen=True)
class Game:
    """The rules in force for one game.

    >>> game = Game(level=2, players=3)
    >>> game.flags_placed, game.supply, game.life
    (5, 5, 5)
    """

    level: int = 1
    players: int = 2
    options: dict[str, str] = field(default_factory=dict, hash=False, compare=True)
    variant: str = "spaghetti-code"
    #: Cards the players wrote (Blank cards), each a :class:`CardType`; they join the deck.
    custom_cards: tuple[CardType, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.variant, str) or self.variant not in VARIANTS:
            raise SetupError(f"unknown variant {self.variant!r}; variants are: "
                             f"{', '.join(VARIANTS)}")
        rules = VARIANTS[self.variant]
        if type(self.level) is not int or self.level not in rules.placed:
            if len(rules.levels) == 1:
                raise SetupError(f"{rules.title} has only level {rules.levels[0]}, not "
                                 f"{self.level!r}")
            levels = ", ".join(map(str, rules.levels))
            raise SetupError(f"level must be one of {levels} in {rules.title}, not {self.level!r}")
        if type(self.players) is not int or self.players not in rules.players:
            low, high = min(rules.players), max(rules.players)
            count = f"{low} to {high}" if high > low else f"{low}"
            raise SetupError(f"players must be {count} in {rules.title}, not {self.players!r}")
        object.__setattr__(self, "options",
                           _check_options(dict(self.options), rules, self.players))
        object.__setattr__(self, "custom_cards", _check_custom(self.custom_cards, rules))

    def option(self, name: str) -> Any:
        """The value of a rule option, or None where this game has no such option (its rule is
        not in the game)."""
        return self.options.get(name)

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # immutable: a copied state keeps its game (and its cards' identities)

    @cached_property
    def rules(self) -> Variant:
        """The game of the family this is (:mod:`spaghetti.core.variants`)."""
        return VARIANTS[self.variant]

    @cached_property
    def _by_name(self) -> dict[str, CardType]:
        """Every card this game may name, by name in lower case (custom cards first)."""
        cards: dict[str, CardType] = {}
        for card in self.custom_cards + self.rules.all_cards():
            cards.setdefault(card.name.lower(), card)
        return cards

    # Facts of the level (SPEC 2.1).
    @cached_property  # a fact of an immutable game, read at every evaluation
    def setup(self) -> Any:
        """The named setup in force (Pasta Logic's option ``setup``), or None."""
        return self.rules.setups.get(self.option("setup"))

    @property
    def option_names(self) -> tuple[str, ...]:
        """The rule options that apply to this game (records and views list these)."""
        return tuple(self.rules.options)

    @cached_property
    def flags_placed(self) -> int:
        setup = self.setup
        if setup and setup.flags:
            return setup.flags
        if self.rules.placed_by_players:  # Nightmare: by the number of players, or option
            bits = self.option("bits")
            return self.rules.placed_by_players[self.players] if bits == "auto" else int(bits)
        return self.rules.placed[self.level]

    @cached_property
    def supply(self) -> int:
        return FLAGS_PER_COLOUR - self.flags_placed

    @cached_property
    def life(self) -> int:
        setup = self.setup
        if setup and setup.life:
            return setup.life
        if self.option("start_hp") is not None:
            return int(self.option("start_hp"))
        return self.rules.life

    @property
    def win_life(self) -> int | None:
        """The life that wins the game at once (Nightmare: "HP 20: win"), or None."""
        value = self.option("win_hp")
        return None if value is None else int(value)

    @property
    def life_cap(self) -> int | None:
        """The highest a life can rise: Pasta Logic keeps life on a die (C15, option
        ``life_cap``, None: no limit); elsewhere the starting life."""
        if "life_cap" in self.options:
            cap = self.options["life_cap"]
            return None if cap is None else int(cap)
        return self.life if self.rules.heal_capped else None

    @property
    def chips(self) -> int:
        """Increment chips, and as many Decrement chips, in the shared supply at the start."""
        return self.rules.chips if self.level >= self.rules.chips_from_level else 0

    @cached_property
    def deck(self) -> tuple[CardType, ...]:
        """The cards of this level in rulebook order, then the extra cards the options bring,
        then the custom cards (which take the place of a built-in card of their name, P29)."""
        rules, taken = self.rules, {card.name.lower() for card in self.custom_cards}
        return tuple(c for c in rules.cards if c.level <= self.level and c.name.lower() not in taken
                     ) + tuple(card for option, card in rules.extra.items()
                               if self.option(option) and card.name.lower() not in taken
                               ) + self.custom_cards

    @property
    def hidden_information(self) -> bool:
        """Does this game hide anything from the players (instant cards, sequential open)?"""
        return bool(self.option("instant_cards") or self.option("sequential_open"))

    @cached_property
    def calls(self) -> bool:
        """Has a card of this game a Subroutine's call? Then visits can nest (C16)."""
        return any(step.prim.nests for card in self.deck for step in card.effect)

    @cached_property
    def delays(self) -> bool:
        """Has a card of this game flags that arrive later (WORM, SPAWN) or a JUMP whose
        destination stays fixed? Both are part of the position (C9)."""
        return any(step.prim.delays or step.later for card in self.deck for step in card.effect)

    @cached_property
    def runs_others(self) -> bool:
        """Has a card of this game a command that runs other cards' commands (Memory, copies)?
        Then a command may start other than by ``run`` on its own card."""
        return any(step.prim.runs_others for card in self.deck for step in card.effect)

    @cached_property
    def heals(self) -> bool:
        """Can a life rise in this game (a custom card that heals)? Then a lost life is not
        irreversible, and lives are part of the repetition key (C9)."""
        return any(card.heals for card in self.deck)

    @cached_property
    def placement_order(self) -> tuple[int, ...]:
        """The seat of each placement in turn (SPEC 2.2, option ``placement_order``)."""
        order = list(range(self.players))
        if self.option("placement_order") == "snake":
            order = order + order[::-1]
        rounds = -(-self.flags_placed * self.players // len(order))
        return tuple((order * rounds)[: self.flags_placed * self.players])

    @cached_property
    def _deck_by_name(self) -> dict[str, CardType]:
        """The cards of :attr:`deck` by name in lower case (every deal looks each card up)."""
        return {card.name.lower(): card for card in self.deck}

    def card(self, name: str) -> CardType:
        """The card of this level with this name (letter case ignored)."""
        if not isinstance(name, str):
            raise SetupError(f"a card name must be a string, not {name!r}")
        found = self._deck_by_name.get(name.strip().lower())
        if found is not None:
            return found
        # Not in this game's deck: say why.
        card = self._by_name.get(name.strip().lower())
        if card is None:
            names = ", ".join(c.name for c in self.deck)
            raise SetupError(f"unknown card {name!r}; the cards of this game are: {names}")
        option = next((o for o, c in self.rules.extra.items() if c is card), None)
        if option:
            raise SetupError(f"{card.name} is an extra card: it needs the option {option}")
        raise SetupError(f"{card.name} is a level-{card.level} card; "
                         f"this game is level {self.level}")

    def shuffled_program(self, seed: int) -> list[str]:
        """The program dealt by shuffling this level's cards with ``seed``."""
        return [card.name for card in self._shuffled_cards(seed)]

    def _shuffled_cards(self, seed: int, rng: random.Random | None = None) -> list[CardType]:
        if rng is None:
            if isinstance(seed, bool) or not isinstance(seed, int):
                raise SetupError(f"seed must be a whole number, not {seed!r}")
            rng = random.Random(seed)
        rules = self.rules
        setup = self.setup
        if setup and setup.cards:
            cards = [self.card(name) for name in setup.cards]
        elif rules.basic:  # Pasta Logic: the BASIC cards and some others drawn at random
            others = [c.name for c in rules.cards if c not in rules.basic]
            cards = [self.card(name) for name in
                     [c.name for c in rules.basic] + rng.sample(others, rules.drawn)]
        else:
            cards = list(self.deck)
        if not setup or setup.shuffled:
            shuffle(rng, cards)  # (rng.shuffle's very order, in compiled code)
        return cards

    def shuffled_deal(self, seed: int, rng: random.Random | None = None) -> list[str]:
        """The face-down order of the instant cards, shuffled with ``seed`` (option
        ``instant_cards``), or with ``rng`` where one is given."""
        return [card.name for card in self._shuffled_instants(seed, rng)]

    def _shuffled_instants(self, seed: int, rng: random.Random | None) -> list[CardType]:
        # (The cards themselves, shuffled as their names would be: a deal of our own needs no
        # look-up by name.)
        cards = list(self.rules.instant)
        shuffle(random.Random(f"instant {seed}") if rng is None else rng, cards)
        return cards

    def new_state(self, program: list[str] | None = None, seed: int | None = None,
                  deal: list[str] | None = None, python: bool = False,
                  rng: random.Random | None = None) -> Any:
        """The state at the start of the game (setup or placement).

        ``program`` lists card names in order (any of this level's cards, repeats allowed, at least
        as many as each player places); without it, the level's cards are shuffled with ``seed``
        (default 0). With option ``fair_first`` the program is the set of cards player A arranges.
        ``deal`` is the face-down order of the three instant cards (option ``instant_cards``);
        without it they are shuffled with ``seed``. ``rng``: a ``random.Random`` that shuffles
        both instead of one seeded with ``seed`` (a run of games dealt from one generator, as
        the environments deal them: seeding a generator costs half a deal). ``python``: a
        state of the readable Python core even where the compiled one is built
        (:mod:`spaghetti.core.engines`), for differential tests and benchmarks; both play
        identical games.
        """
        if python:
            from .engines import COMPILED, python_game  # (engines imports game's modules)
            if COMPILED:
                return python_game(self).new_state(program, seed, deal, rng=rng)
        if program is None:
            cards = self._shuffled_cards(0 if seed is None else seed, rng)
        elif not isinstance(program, (list, tuple)):
            raise SetupError("program must be a list of card names")
        else:
            cards = [self.card(name) for name in program]
        if len(cards) > MAX_CARDS:  # a card's index fills 8 bits of an option's id
            raise SetupError(f"the program has {len(cards)} cards; at most {MAX_CARDS}")
        if len(cards) < self.flags_placed:
            has = "1 card" if len(cards) == 1 else f"{len(cards)} cards"
            raise SetupError(f"the program has {has}; level {self.level} needs at least "
                             f"{self.flags_placed}, one for each flag a player places")
        instants: list[CardType] = []
        if self.option("instant_cards"):
            instants = (self._shuffled_instants(0 if seed is None else seed, rng)
                        if deal is None else self.instant_deal(deal))
        elif deal is not None:
            raise SetupError("an instant card deal needs the option instant_cards")
        state = self._start.copy()
        state.lay_out(cards, instants)
        return state

    @cached_property
    def _start(self) -> State:
        """A state of this game before its cards are dealt: new states are its copies, which
        do not read the game's facts again."""
        return State(self)

    def __getstate__(self) -> dict[str, Any]:
        # (Pickled without the start state: a game travels to worker processes, and the state
        # is made again where it is needed.)
        state = dict(self.__dict__)
        state.pop("_start", None)
        return state

    def instant_deal(self, deal: Any) -> list[CardType]:
        """The instant cards of a deal given by name: each of the three exactly once."""
        instant = self.rules.instant
        by_name = {c.name.lower(): c for c in instant}
        if not isinstance(deal, (list, tuple)) or not all(isinstance(n, str) for n in deal):
            raise SetupError("an instant card deal must be a list of card names")
        found = [by_name.get(name.strip().lower()) for name in deal]
        cards = [card for card in found if card is not None]
        if len(cards) != len(found) or len(set(cards)) != len(instant) or \
                len(cards) != len(instant):
            names = ", ".join(c.name for c in instant)
            raise SetupError(f"an instant card deal lists {names}, each once, in face-down "
                             f"order; not {list(deal)!r}")
        return cards
