"""Properties of random games at every level, player count, placement order and stalemate mode,
with every combination of the expansions (extra cards, the variant rule, instant cards,
interrupt, sequential open, fair first player: those for 2 players only in 2-player games, and
interrupt in 3-5 player games)."""

import json
import pathlib
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import spaghetti
import spaghetti.custom_cards
import spaghetti.records
from spaghetti.core.view import view
from spaghetti.i18n import describe

MAX_STEPS = 20000
DECLARE = spaghetti.core.notation.DECLARE

games = st.fixed_dictionaries({
    "level": st.integers(1, 3),
    "players": st.integers(2, 5),
    "seed": st.integers(0, 2**32 - 1),
    "placement_order": st.sampled_from(["round_robin", "snake"]),
    "stalemate": st.sampled_from(["auto", "manual"]),
    "reverse_priority": st.booleans(),
    "memory": st.booleans(),
    "reverse_flips_priority": st.booleans(),
    "instant_cards": st.booleans(),
    "interrupt": st.booleans(),
    "sequential_open": st.booleans(),
    "fair_first": st.booleans(),
    "variant": st.sampled_from(["spaghetti-code", "spaghetti-monsters", "pasta-logic",
                                "nightmare"]),
})
EXPANSIONS = ("reverse_priority", "memory", "reverse_flips_priority", "instant_cards",
              "interrupt", "sequential_open", "fair_first")
TWO_PLAYERS_ONLY = ("instant_cards", "fair_first")


def options_of(g):
    options = {"placement_order": g["placement_order"], "stalemate": g["stalemate"],
               **{name: g[name] for name in EXPANSIONS}}
    for name in TWO_PLAYERS_ONLY:
        options[name] = options[name] and g["players"] == 2
    options["interrupt"] = options["interrupt"] and g["players"] >= 3
    return options


def new(g):
    if g["variant"] == "pasta-logic":  # two players, no levels, its own options
        g.update(level=1, players=2)
        options = {name: value for name, value in options_of(g).items()
                   if name in ("placement_order", "stalemate", "sequential_open", "fair_first")}
        return spaghetti.new_game(1, 2, seed=g["seed"], options=options, variant=g["variant"])
    if g["variant"] == "nightmare":  # no levels; the coin flip when memory is drawn
        g.update(level=1)
        options = {"placement_order": g["placement_order"], "stalemate": g["stalemate"],
                   "coin_flip": g["memory"]}
        return spaghetti.new_game(1, g["players"], seed=g["seed"], options=options,
                                  variant=g["variant"])
    options = options_of(g)
    return spaghetti.new_game(g["level"], g["players"], seed=g["seed"], options=options,
                              variant=g["variant"])


def pick(state, rng):
    """A random legal option. At a repeated position of `stalemate: manual`, a declaration half
    the time: with nobody declaring, a manual game may go on for ever (C9: all may play on), and
    a random walk through a large program can take very long to come back to a position."""
    legal = state.legal_actions()
    if DECLARE in legal and rng.random() < 0.5:
        return DECLARE
    return legal[rng.randrange(len(legal))]


def play_out(state, rng, limit=MAX_STEPS):
    """Random options until the game ends, or ``limit`` of them (so a test game stays small)."""
    for _ in range(limit):
        if state.is_over:
            return
        state.apply_action(pick(state, rng))


def chips_in_play(state):
    """Increment and Decrement chips in the supply plus those on cards (instant cards too)."""
    mods = list(state.mods) + [held[1] for held in state.instant if held]
    inc = sum(m for ms in mods for m in ms if m > 0)
    dec = -sum(m for ms in mods for m in ms if m < 0)
    return state.chips[0] + inc, state.chips[1] + dec


def check_invariants(state, g):
    n = g["players"]
    placed = state.game.flags_placed
    counted = [0] * n
    for i in range(len(state.kinds)):
        for o in state.owners(i):
            counted[o] += 1
    assert counted == list(state.on_board)
    if state.seen_sig is not None:  # once asked for, kept exactly as positions are seen (C9)
        signature = 0
        for key in state.seen_positions:
            signature ^= hash(key)
        assert state.seen_sig == signature
    for p in range(n):
        on_way = sum(1 for s, _ in state.arrivals if s == p)  # WORM, SPAWN (Nightmare)
        assert counted[p] + state.supply[p] + state.hand[p] + state.removed[p] + on_way == 10
        assert state.supply[p] >= 0 and state.hand[p] >= 0
        assert state.tokens[p] <= state.supply[p]  # P15: a token is only worth a flag to add
    # chips are conserved (P8: those on a removed card go back to the supply)
    chips = state.game.chips
    free = state.game.rules.free_numbers  # Nightmare: numbers change freely, no chips
    if not free:
        assert chips_in_play(state) == (chips, chips)
    for i, kind in enumerate(state.kinds):
        assert len(state.vals[i]) == len(kind.params)
        for v, m, printed in zip(state.vals[i], state.mods[i], kind.params):
            assert v == printed + m and (v >= 0 or free)
    if state.phase == "setup":
        assert state.hand == [placed] * n
    elif state.phase == "placement":
        assert sum(state.hand) > 0
    else:
        assert state.hand == [0] * n
        assert state.removed != [0] * n or sum(state.on_board) >= placed * n


@settings(max_examples=300, deadline=None)
@given(g=games)
def test_random_games_keep_invariants_and_end(g):
    state = new(g)
    rng = random.Random(g["seed"])
    lives = list(state.lives)
    alive = list(state.alive)
    for step in range(MAX_STEPS):
        if state.is_over:
            break
        if step == g["seed"] % 50:
            _ = state.seen_signature  # kept from here on, and checked at every step below
        assert state.legal(), "no option before the game is over"
        if state.is_chance:  # the coin flip: nobody's decision
            assert state.to_move is None and len(state.chance_outcomes()) == 2
        else:
            assert state.to_move is not None
            # Only interrupt lets an eliminated player decide: an interrupt or their flags.
            assert state.alive[state.to_move] or state.game.options["interrupt"]
        state.apply_action(pick(state, rng))
        check_invariants(state, g)
        if not state.game.heals:
            assert all(a <= b for a, b in zip(state.lives, lives)), "a life rose"
        assert all(not (was_out and now) for was_out, now in
                   zip([not a for a in alive], state.alive)), "an eliminated player came back"
        lives, alive = list(state.lives), list(state.alive)
    assert state.is_over, "the game did not end"
    assert state.legal() == [] and state.phase == "over"
    assert state.reason in ("elimination", "stalemate", "height")
    if state.reason == "elimination":
        assert state.winner is not None or state.game.rules.draws  # C18
        assert sum(state.alive) <= 1
        if sum(state.alive) == 1:
            assert state.alive[state.winner]
    else:
        assert state.alive[state.winner]
        assert sum(state.alive) >= 2


@settings(max_examples=100, deadline=None)
@given(g=games)
def test_record_replay_gives_same_game(g):
    state = new(g)
    rng = random.Random(g["seed"] ^ 0x5A5A)
    play_out(state, rng)
    text = spaghetti.records.dumps(state)
    again = spaghetti.records.loads(text)
    assert again.position_key() == state.position_key()
    assert again.winner == state.winner and again.reason == state.reason
    assert again.history == state.history
    assert spaghetti.records.dumps(again) == text


@settings(max_examples=100, deadline=None)
@given(g=games, cut=st.floats(0, 1))
def test_copy_is_independent(g, cut):
    state = new(g)
    rng = random.Random(g["seed"])
    # play to some point of the game, then play the copy to the end
    full = new(g)
    play_out(full, rng)
    stop = int(len(full.history) * cut)
    for action in full.history[:stop]:
        state.apply_action(action)
    key, history, legal = state.position_key(), list(state.history), state.legal()
    lives, supply, queues = list(state.lives), list(state.supply), [
        state.owners(i) for i in range(len(state.kinds))]
    other = state.copy()
    assert other.position_key() == key
    play_out(other, random.Random(stop))
    assert state.position_key() == key and state.history == history and state.legal() == legal
    assert state.lives == lives and state.supply == supply
    assert [state.owners(i) for i in range(len(state.kinds))] == queues
    # and the original still plays exactly as before
    for action in full.history[stop:]:
        state.apply_action(action)
    assert state.position_key() == full.position_key() and state.winner == full.winner


@settings(max_examples=100, deadline=None)
@given(g=games, cuts=st.lists(st.floats(0, 1), min_size=1, max_size=4))
def test_a_pickled_state_plays_on_in_lockstep_with_the_original(g, cuts):
    """Pickled at random points (copies or Memory's commands pending among them), and pickled
    again later, a state read back offers the same options and reaches the same positions as
    the original."""
    state = new(g)
    full = new(g)
    play_out(full, random.Random(g["seed"]))
    moves = full.history
    stops = {int(len(moves) * cut) for cut in cuts}
    other = None
    for i, action in enumerate(moves + [None]):
        if i in stops:
            other = pickle.loads(pickle.dumps(other or state))
        if other is not None:
            assert other.position_key() == state.position_key()
            assert other.legal_actions() == state.legal_actions()
        if action is not None:
            state.apply_action(action)
            if other is not None:
                other.apply_action(action)
    assert other is not None and other.winner == full.winner and other.history == moves


@settings(max_examples=50, deadline=None)
@given(g=games)
def test_every_legal_option_applies(g):
    state = new(g)
    rng = random.Random(g["seed"])
    steps = 0
    while not state.is_over and steps < 400:
        for option in state.legal():
            trial = state.copy()
            trial.apply(option)  # never raises
            assert trial.history[-1] == spaghetti.core.notation.parse(option)
        state.apply_action(pick(state, rng))
        steps += 1


@settings(max_examples=50, deadline=None)
@given(g=games)
def test_view_is_json_and_consistent(g):
    state = new(g)
    rng = random.Random(g["seed"])
    steps = 0
    while True:
        v = view(state)
        again = json.loads(json.dumps(v))
        assert again == v
        assert v["phase"] == state.phase
        assert v["lives"] == state.lives and v["supply"] == state.supply
        assert v["hand"] == state.hand and v["removed"] == state.removed
        assert [c["card"] for c in v["program"]] == [k.name for k in state.kinds]
        assert [c["flags"] for c in v["program"]] == [state.owners(i)
                                                      for i in range(len(state.kinds))]
        assert [c["params"] for c in v["program"]] == [list(x) for x in state.vals]
        assert v["chips"] == {"increment": state.chips[0], "decrement": state.chips[1]}
        assert v["eliminated"] == [not a for a in state.alive]
        assert v["to_move"] == state.to_move and v["winner"] == state.winner
        assert v["legal"] == state.legal() and v["moves"] == len(state.history)
        assert v["deciding"] == state.deciding
        if v["program"]:
            assert v["cursor"] == state.cursor and v["direction"] == state.direction
        if state.is_over or steps > 300:
            break
        state.apply_action(pick(state, rng))
        steps += 1


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.integers(1, 3), cut=st.floats(0, 1))
def test_a_state_with_players_cards_pickles_and_plays_on(seed, level, cut):
    """Players' cards pickle by value (their steps too, rebuilt through their constructors):
    the lab's processes and Ray's workers receive them so. Found by a lab run of the Heal card
    over two processes, where the compiled steps refused to be read back."""
    cards = spaghetti.custom_cards.loads(
        (pathlib.Path(__file__).parents[1] / "examples" / "custom-cards.toml").read_text())
    state = spaghetti.new_game(level, 2, seed=seed, cards=cards)
    full = state.copy()
    play_out(full, random.Random(seed))
    stop = int(len(full.history) * cut)
    for action in full.history[:stop]:
        state.apply_action(action)
    other = pickle.loads(pickle.dumps(state))
    assert [card.name for card in other.kinds] == [card.name for card in state.kinds]
    for action in full.history[stop:]:
        assert other.legal_actions() == state.legal_actions()
        state.apply_action(action)
        other.apply_action(action)
    assert other.position_key() == state.position_key() and other.winner == full.winner


@settings(max_examples=60, deadline=None)
@given(g=games)
def test_every_option_of_a_random_game_is_put_into_words(g):
    """The words for an option (the web's and the terminal's log) read the state before it and
    the state play stops at next, however far automatic steps have changed the program."""
    state = new(g)
    rng = random.Random(g["seed"] ^ 0x3C3C)
    for _ in range(3000):
        if state.is_over:
            break
        option = spaghetti.core.notation.to_string(pick(state, rng))
        before = state.copy()
        state.apply(option)
        for lang in ("en", "ja"):
            assert describe(before, option, lang).strip()
