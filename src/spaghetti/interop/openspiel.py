"""The games for OpenSpiel: ``pyspiel.load_game("python_spaghetti_code")`` and its two kin.

Importing this module registers three games (it needs the ``open_spiel`` package:
``pip install -e '.[openspiel]'``):

- ``python_spaghetti_code``: perfect information, deterministic, as OpenSpiel's alpha-beta
  search requires;
- ``python_spaghetti_code_chance``: the same with the Nightmare notes' coin flip as explicit
  chance nodes;
- ``python_spaghetti_code_imperfect``: the games with hidden information, instant cards and
  sequential open (any other game of two players too), as an imperfect-information game for
  CFR and its family. Chance deals what is hidden: the face-down order of the instant cards and,
  with sequential open, the program's order, one card at a time, so the state before the deal
  is the root. Each player's information state is what that seat has seen: its own cards and
  the cards opened, and the actions as that seat saw them; the observation is the seat's view
  of the position now (:mod:`spaghetti.core.view`). Tensors are
  :class:`~spaghetti.envs.encoding.Encoder`'s, the environments' own; docs/envs.md lays them
  out slot by slot.

>>> game = pyspiel.load_game(IMPERFECT_NAME, {"options": "instant_cards:true"})
>>> state = game.new_initial_state()
>>> state.current_player() == pyspiel.PlayerId.CHANCE, state.information_state_string(0)
(True, 'seat 0 | the deal')
>>> state.apply_action(2)   # Bug face down first,
>>> state.apply_action(1)   # then MoveFlag; MoveCommand is left: dealt at once
>>> state.apply_action(state.legal_actions()[0])   # seat 1, the second player, takes card 0
>>> state.information_state_string(1), state.information_state_string(0)
('seat 1 | instant -,Bug | take 0', 'seat 0 | instant -,? | take 0')

Game parameters, all three:

- ``variant`` (``spaghetti-code``, ``spaghetti-monsters``, ``pasta-logic``, ``nightmare``),
  ``level`` (1-3), ``seed`` (what is dealt in the open: the program, when it is face up, and
  Pasta Logic's drawn cards), ``program`` (card names separated by ``;`` or ``,``; empty: shuffled
  with the seed; under sequential open, the cards chance lays face down), ``options``
  (``name:value`` or ``name=value`` pairs separated by ``;``);
- ``max_moves``: OpenSpiel needs a finite game, so a game still going after this many decisions
  ends there and is adjudicated by the stalemate tie-break (C9), as a declared stalemate would be;
- the imperfect-information game only: ``opening``, decisions in notation separated by ``;``,
  played as soon as the deal is made: setup and placement only (their legality does not depend on
  the deal), to start from a position whose tree is small enough for tabular CFR.

A game's own string writes ``program`` with ``;`` and ``options`` with ``:``, so that it reads
back (``pyspiel.load_game(str(game))``, ``pyspiel.serialize_game_and_state``).

Two players, zero-sum (+1 the winner, -1 the loser, 0 and 0 a draw). Actions are compact integers
(OpenSpiel wants them below ``num_distinct_actions``): the research environments' ids
(:class:`~spaghetti.envs.encoding.ActionCodec`), of which the perfect-information games use the
first :data:`NUM_ACTIONS` (:func:`encode`, :func:`decode`); ``action_to_string`` gives the
notation.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pyspiel

from ..core import notation as N
from ..core.game import Game
from ..core.state import State
from ..core.view import knows_card, knows_instant, view
from ..envs.encoding import (BANDS, MAX_CARDS, MAX_FLAGS, OPENSPIEL_ACTIONS, ActionCodec,
                             Encoder)
from ..envs.encoding import NUM_ACTIONS as ALL_ACTIONS
from ..errors import IllegalOptionError, SetupError

SHORT_NAME = "python_spaghetti_code"
CHANCE_NAME = "python_spaghetti_code_chance"
IMPERFECT_NAME = "python_spaghetti_code_imperfect"
MAX_MOVES = 1000
#: The perfect-information games' actions: the environments' ids up to the expansions' setup
#: and instant-card options, which those games never offer.
NUM_ACTIONS = OPENSPIEL_ACTIONS
_BASE_CODEC = ActionCodec(Game())  # (the ids below NUM_ACTIONS need no deck)


def encode(action: int) -> int:
    """The compact id of an engine action id (perfect-information games)."""
    compact = _BASE_CODEC.encode(action)
    if compact >= NUM_ACTIONS:
        raise ValueError(f"{N.to_string(action)!r} is beyond what the adapter encodes")
    return compact


def decode(compact: int) -> int:
    """The engine action id of a compact id (perfect-information games)."""
    if not 0 <= compact < NUM_ACTIONS:
        raise ValueError(f"no action has the id {compact}")
    return _BASE_CODEC.decode(compact)


_PARAMETERS = {"variant": "spaghetti-code", "level": 1, "seed": 0, "program": "", "options": "",
               "max_moves": MAX_MOVES}


def _game_type(name: str, chance: bool, imperfect: bool = False) -> pyspiel.GameType:
    parameters = {**_PARAMETERS, "opening": ""} if imperfect else _PARAMETERS
    mode = pyspiel.GameType.ChanceMode
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=name,
        long_name="Spaghetti Code (and its family)" + (
            ", hidden information" if imperfect else ", with chance" if chance else ""),
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if chance else mode.DETERMINISTIC,
        information=info.IMPERFECT_INFORMATION if imperfect else info.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=imperfect,
        provides_information_state_tensor=imperfect,
        provides_observation_string=imperfect,
        provides_observation_tensor=imperfect,
        parameter_specification=parameters)


_GAME_TYPE = _game_type(SHORT_NAME, chance=False)
_CHANCE_TYPE = _game_type(CHANCE_NAME, chance=True)
_IMPERFECT_TYPE = _game_type(IMPERFECT_NAME, chance=True, imperfect=True)


def _options(text: str) -> dict:
    options = {}
    for pair in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = pair.replace(":", "=", 1).partition("=")
        if not sep:
            raise SetupError(f"options: expected name:value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def _setup(params: dict) -> tuple[dict, Game, list[str]]:
    """The parameters with their defaults, in the form that reads back from the game's string;
    the rules; the program's card names as given (empty: none given)."""
    params = {**_PARAMETERS, **(params or {})}
    options = _options(params["options"])
    rules = Game(level=int(params["level"]), players=2, variant=params["variant"],
                 options=options)
    program = [n.strip() for n in params["program"].replace(";", ",").split(",") if n.strip()]
    params["program"] = ";".join(program)
    params["options"] = ";".join(f"{name}:{value}" for name, value in options.items())
    return params, rules, program


class _Copied:
    """Holds an engine state for a pyspiel state. OpenSpiel clones a Python state by
    deep-copying its attributes; the engine's own ``copy()`` does it about five times faster."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo) -> _Copied:
        return _Copied(self.state.copy())


class SpaghettiGame(pyspiel.Game):
    """The engine's game, as an OpenSpiel game of perfect information (no coin flip)."""

    game_type = _GAME_TYPE

    def __init__(self, params=None):
        params, rules, program = _setup(params)
        if rules.hidden_information:
            raise SetupError("the perfect-information games have no instant cards and no "
                             f"sequential open: load {IMPERFECT_NAME!r}")
        if rules.option("fair_first"):
            raise SetupError(f"the fair first player's setup is played in {IMPERFECT_NAME!r}")
        chance = self.game_type is _CHANCE_TYPE
        if rules.option("coin_flip") and not chance:
            raise SetupError(f"the coin flip makes a game of chance: load {CHANCE_NAME!r}")
        info = pyspiel.GameInfo(num_distinct_actions=NUM_ACTIONS,
                                max_chance_outcomes=2 if chance else 0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=int(params["max_moves"]))
        super().__init__(self.game_type, info, params)  # (attributes set before are lost)
        self.rules = rules
        self.program = program or None
        self.seed = int(params["seed"])
        self.max_moves = int(params["max_moves"])

    def new_initial_state(self):
        return SpaghettiState(self, self.rules.new_state(self.program, self.seed))


class SpaghettiState(pyspiel.State):
    """A position, as an OpenSpiel state: the engine's state and the decision cap."""

    def __init__(self, game, state: State | None):
        super().__init__(game)
        # Only plain values here besides the engine's state (see _Copied): cards and games are
        # immutable and copy as themselves.
        self.engine = _Copied(state) if state is not None else None
        self.max_moves = game.max_moves
        self.capped = False  # ended by the decision cap, adjudicated by C9's tie-break

    @property
    def state(self) -> State:
        """The engine's state."""
        assert self.engine is not None
        return self.engine.state

    def current_player(self):
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        state = self.state
        return pyspiel.PlayerId.CHANCE if state.is_chance else state.to_move

    # At a chance node OpenSpiel numbers the outcomes from 0 (coin head 0, coin tail 1).

    def _legal_actions(self, player):
        if self.state.is_chance:
            return [N.argument(a) for a in self.state.legal_actions()]
        return sorted(encode(a) for a in self.state.legal_actions())

    def chance_outcomes(self):
        return [(N.argument(N.parse(option)), p) for option, p in self.state.chance_outcomes()]

    def _apply_action(self, action):
        self._play(N.COIN | action if self.state.is_chance else decode(action))

    def _play(self, action: int) -> None:
        state = self.state
        state.apply_action(action)
        if not state.is_over and len(state.history) >= self.max_moves:
            self.capped = True

    def _action_to_string(self, player, action):
        return N.to_string(N.COIN | action if player == pyspiel.PlayerId.CHANCE
                           else decode(action))

    def is_terminal(self):
        engine = self.engine
        return engine is not None and (engine.state.is_over or self.capped)

    def returns(self):
        if self.engine is None:
            return [0.0, 0.0]
        if self.state.is_over:
            return self.state.returns()
        if self.capped:
            return self.state.stalemate_returns()
        return [0.0, 0.0]

    def __str__(self):
        return repr(self.state.position_key()) + (" capped" if self.capped else "")


class SpaghettiChanceGame(SpaghettiGame):
    """The same, with the coin flip's chance nodes allowed."""

    game_type = _CHANCE_TYPE


# --------------------------------------------------------------------------- hidden information

#: One row of the information state's history: the actor (seat 0, seat 1, chance), whether the
#: action was hidden from the observer, the action's band one-hot (the bare options, then
#: :data:`~spaghetti.envs.encoding.BANDS`), its first and its second argument one-hot.
_BANDS = 5 + len(BANDS)
_ARGS = max(MAX_CARDS, MAX_FLAGS)
ROW = 3 + 1 + _BANDS + 2 * _ARGS


class SpaghettiImperfectGame(pyspiel.Game):
    """The engine's game with what is hidden dealt by chance (instant cards, sequential open)."""

    def __init__(self, params=None):
        params, rules, program = _setup({"opening": "", **(params or {})})
        seed, max_moves = int(params["seed"]), int(params["max_moves"])
        cards = program or rules.shuffled_program(seed)
        codec = ActionCodec(rules)
        instants = [c.name for c in rules.rules.instant] if rules.option("instant_cards") else []
        shuffled = bool(rules.option("sequential_open")) and not rules.option("fair_first")
        opening = [N.parse(o) for o in params["opening"].split(";") if o.strip()]
        _check_opening(rules.new_state(cards, deal=instants or None), opening, max_moves)
        params["opening"] = ";".join(map(N.to_string, opening))
        dealt = (len(cards) - 1 if shuffled else 0) + max(len(instants) - 1, 0)
        info = pyspiel.GameInfo(
            num_distinct_actions=ALL_ACTIONS,
            max_chance_outcomes=max(len(codec.names), len(instants), 2), num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=max_moves - len(opening) + dealt)
        super().__init__(_IMPERFECT_TYPE, info, params)  # (attributes set before are lost)
        self.rules = rules
        self.max_moves = max_moves
        self.opening = opening
        self.codec = codec
        self.encoder = Encoder(rules, len(cards))
        self.instants = instants
        # The program: in its order when face up; else the cards chance lays face down, counted
        # by their place in the deck (the ids of the chance outcomes).
        names = [rules.card(name).name for name in cards]
        self.program = None if shuffled else names
        self.deck = Counter(codec.names.index(name) for name in names) if shuffled else Counter()
        self.masks_arrangement = bool(rules.option("fair_first")) and \
            bool(rules.option("sequential_open"))

    def new_initial_state(self):
        return SpaghettiImperfectState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return SpaghettiObserver(self, iig_obs_type, params)


def _check_opening(state: State, opening: list[int], max_moves: int) -> None:
    """The opening must be setup and placement decisions: their legality does not depend on
    what chance deals, so one deal tells whether they are legal in every deal."""
    if len(opening) >= max_moves:
        raise SetupError(f"the opening has {len(opening)} decisions; max_moves must be more")
    for action in opening:
        if state.phase not in ("setup", "placement"):
            raise SetupError("the opening holds setup and placement decisions only, not "
                             f"{N.to_string(action)!r}")
        try:
            state.apply_action(action)
        except IllegalOptionError as exc:
            raise SetupError(f"the opening: {exc}") from None


class SpaghettiImperfectState(SpaghettiState):
    """A position of the game with hidden information: first the deal (chance), then the
    engine's game. Chance nodes with a single outcome are dealt at once, not offered."""

    def __init__(self, game: SpaghettiImperfectGame):
        super().__init__(game, None)
        self.deck = +game.deck  # cards still to deal face down (by their place in the deck)
        self.dealt: list[int] = []  # program cards dealt so far
        self.instants: list[int] = []  # instant cards dealt so far, face-down order
        self.told = ["", ""]  # the engine's decisions as each seat saw them
        self.marks: list[tuple[int, int, int, int, bool]] = []  # and as rows (SpaghettiObserver)
        self._deal_forced(game)

    def _dealing(self) -> list[int] | None:
        """What the deal's next chance node chooses from (program cards first, then instant
        cards), or None once the engine's game has begun."""
        if self.engine is not None:
            return None
        if self.deck:
            return sorted(self.deck)
        game = self.get_game()
        return [i for i in range(len(game.instants)) if i not in self.instants]

    def _deal_forced(self, game: SpaghettiImperfectGame) -> None:
        """Deal what chance has no choice about; start the engine's game once all is dealt."""
        while True:
            options = self._dealing()
            if options is None or len(options) > 1:
                return
            if options:
                self._deal(options[0])
                continue
            names = game.codec.names
            program = game.program or [names[i] for i in self.dealt]
            deal = [game.instants[i] for i in self.instants] if game.instants else None
            self.engine = _Copied(game.rules.new_state(program, deal=deal))
            for action in game.opening:
                self._decide(action)

    def _deal(self, outcome: int) -> None:
        if self.deck:
            self.deck[outcome] -= 1
            self.deck = +self.deck  # (drops the kinds all dealt)
            self.dealt.append(outcome)
        else:
            self.instants.append(outcome)

    def current_player(self):
        if self.engine is None:
            return pyspiel.PlayerId.CHANCE
        return super().current_player()

    def _legal_actions(self, player):
        if self.engine is None:
            return [outcome for outcome, _ in self.chance_outcomes()]
        if self.state.is_chance:
            return super()._legal_actions(player)
        return sorted(self.get_game().codec.encode(a) for a in self.state.legal_actions())

    def chance_outcomes(self):
        options = self._dealing()
        if options is None:
            return super().chance_outcomes()
        if self.deck:
            total = sum(self.deck.values())
            return [(i, self.deck[i] / total) for i in options]
        return [(i, 1 / len(options)) for i in options]

    def _apply_action(self, action):
        game = self.get_game()
        if self.engine is None:
            self._deal(action)
            self._deal_forced(game)
            return
        self._decide(N.COIN | action if self.state.is_chance else game.codec.decode(action))

    def _decide(self, action: int) -> None:
        """Play an engine decision, noting what each seat saw of it, in words and as the
        columns of its row in the information state tensor."""
        state, game = self.state, self.get_game()
        text = N.to_string(action)
        hidden = game.masks_arrangement and N.kind(action) == N.ARRANGE
        self.told = [t + (", " if t else "") + ("arrange ?" if hidden and seat == 1 else text)
                     for seat, t in enumerate(self.told)]
        mover = state.to_move
        band, first, second = game.codec.arguments(game.codec.encode(action))
        self.marks.append((2 if state.is_chance or mover is None else mover, 4 + band,
                           4 + _BANDS + first, 4 + _BANDS + _ARGS + second, hidden))
        self._play(action)

    def _action_to_string(self, player, action):
        options = self._dealing()
        if options is not None and player == pyspiel.PlayerId.CHANCE:
            game = self.get_game()
            if self.deck:
                return f"deal {game.codec.names[action]}"
            return f"deal instant {game.instants[action]}"
        if player == pyspiel.PlayerId.CHANCE:
            return super()._action_to_string(player, action)
        return N.to_string(self.get_game().codec.decode(action))

    def __str__(self):
        """The referee's whole truth: the deal and every decision (one string per history)."""
        if self.engine is None:
            game = self.get_game()
            return (f"dealing: program {','.join(game.codec.names[i] for i in self.dealt)} | "
                    f"instant cards {','.join(game.instants[i] for i in self.instants)}")
        state = self.state
        deal = f" | instant cards {','.join(c.name for c in state.deal)}" if state.deal else ""
        return (f"program {','.join(state.program)}{deal} | "
                + ", ".join(N.to_string(a) for a in state.history)
                + (" | capped" if self.capped else ""))


class SpaghettiObserver:
    """One seat's information state (``perfect_recall``) or observation, for OpenSpiel.

    Strings: the information state is the seat's knowledge of what is hidden (the program's
    cards, ``?`` where face down to it, and each seat's instant card, ``?`` where unknown to
    it, ``-`` before the draft) and the engine's decisions as it saw them (``arrange ?`` where
    the arrangement is face down to it). The observation is the seat's view of the position.
    Tensors: the seat (information state only), the environments' observation vector
    (:class:`~spaghetti.envs.encoding.Encoder`, seats numbered from the observer), and, for the
    information state, one row of :data:`ROW` per decision up to ``max_moves``. Only a single
    seat's private information is offered (``IIGObservationType.private_info``
    ``SINGLE_PLAYER``).
    """

    def __init__(self, game: SpaghettiImperfectGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is not None and \
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only one seat's own observation is offered (private_info "
                             "SINGLE_PLAYER)")
        self.game = game
        self.recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        encoder = game.encoder
        pieces: list[tuple[str, tuple[int, ...]]] = [("seat", (2,))] if self.recall else []
        for name, _, length in encoder.layout():
            if length:
                shape: tuple[int, ...] = (encoder.cards, encoder.card_features) \
                    if name == "cards" else (length,)
                pieces.append((name, shape))
        if self.recall:
            pieces.append(("history", (game.max_moves, ROW)))
        self.tensor = np.zeros(sum(int(np.prod(shape)) for _, shape in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, shape in pieces:
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size
        self._at = 2 if self.recall else 0  # where the observation vector starts
        self._chance = {name: start for name, start, _ in encoder.layout()}["chance"]

    def set_from(self, state: SpaghettiImperfectState, player: int) -> None:
        tensor = self.tensor
        tensor.fill(0.0)
        at = self._at
        if self.recall:
            tensor[player] = 1.0
        encoder = self.game.encoder
        if state.engine is None:  # the deal: nothing seen yet, chance to act
            tensor[at + self._chance] = 1.0
            return
        engine = state.state
        tensor[at:at + encoder.size] = encoder.encode(engine, player)
        if not self.recall:
            return
        marks = np.array(state.marks, dtype=np.int64).reshape(-1, 5)
        rows, index = self.dict["history"], np.arange(len(marks))
        rows[index, marks[:, 0]] = 1.0
        rows[index, marks[:, 1]] = 1.0
        hidden = marks[:, 4].astype(bool) & (player == 1)
        rows[index[hidden], 3] = 1.0
        shown = index[~hidden]
        rows[shown, marks[shown, 2]] = 1.0
        rows[shown, marks[shown, 3]] = 1.0

    def string_from(self, state: SpaghettiImperfectState, player: int) -> str:
        if state.engine is None:
            return f"seat {player} | the deal"
        engine = state.state
        if not self.recall:
            return f"seat {player} | " + describe(view(engine, player))
        parts = [f"seat {player}"]
        if engine.seq_open:
            parts.append("program " + ",".join(
                card.name if knows_card(engine, player, i) else "?"
                for i, card in enumerate(engine.kinds)))
        if engine.inst_on:
            taken = {s: i for i, s in engine.drawn_by().items()}
            parts.append("instant " + ",".join(
                "-" if s not in taken else engine.deal[taken[s]].name
                if knows_instant(engine, player, s) else "?" for s in range(2)))
        parts.append(state.told[player])
        return " | ".join(parts)


def describe(v: dict) -> str:
    """A per-seat view (:func:`spaghetti.core.view.view`) on one line: the phase and who
    decides what, the program (``?`` for a card face down to the viewer; each queue head first,
    ``*`` a flag still to get its turn), cursor and direction, lives, supplies, hands, chips, the
    instant cards as the viewer may know them, and the result once over."""
    words = [f"{v['phase']}: seat {v['to_move']} to {v['deciding']}" if v["to_move"] is not None
             else v["phase"]]
    cards = []
    for i, card in enumerate(v["program"]):
        name = card["card"] or "?"
        values = ",".join(map(str, card["params"] or ()))
        queue = " ".join(f"{s}{'*' if p else ''}" for s, p in zip(card["flags"], card["pending"]))
        cards.append(f"{i} {name}{' ' + values if values else ''} [{queue}]")
    words.append("; ".join(cards))
    if v["phase"] == "execution":
        words.append(f"cursor {v['cursor']} {'forward' if v['direction'] > 0 else 'backward'}")
    words.append("lives " + ",".join(map(str, v["lives"])) + " supply "
                 + ",".join(map(str, v["supply"])) + " hand " + ",".join(map(str, v["hand"])))
    if v["chips"]["increment"] or v["chips"]["decrement"]:
        words.append(f"chips {v['chips']['increment']},{v['chips']['decrement']}")
    if v["instant"] is not None:
        words.append("instant " + ",".join(f"{e['card'] or '?'} {e['status']}"
                                           for e in v["instant"]))
    if v["repeated"]:
        words.append("repeated")
    if v["winner"] is not None or v["draw"]:
        words.append(f"{v['result']}: " + ("draw" if v["draw"] else f"seat {v['winner']} wins"))
    return " | ".join(words)


pyspiel.register_game(_GAME_TYPE, SpaghettiGame)
pyspiel.register_game(_CHANCE_TYPE, SpaghettiChanceGame)
pyspiel.register_game(_IMPERFECT_TYPE, SpaghettiImperfectGame)
