"""Hidden information (SPEC section 3, C12): no seat's view, and no observer's view before the
end, ever contains what it may not know.

The test is by indistinguishability: for a seat, make a second game that differs only in what the
seat may not know (the other face-down instant cards swapped; two unopened cards swapped), play
the same options in both, and require the seat's views to be equal until the hidden thing is
revealed by the rules (an instant card used, a card opened, the game over)."""

import json
import random

import pytest

from spaghetti import Game, IllegalOptionError, records
from spaghetti.core.view import OBSERVER, view

SEEDS = range(60)


def game_options(seed):
    rng = random.Random(seed)
    return {"instant_cards": True, "sequential_open": rng.random() < 0.5,
            "fair_first": rng.random() < 0.3, "memory": rng.random() < 0.2}


def play_random(seed):
    """A random 2-player level-3 game with instant cards; its options, program, deal, actions."""
    options = game_options(seed)
    game = Game(3, 2, options=options)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over and len(state.history) < 3000:
        state.apply(rng.choice(state.legal()))
    record = records.record_of(state)
    return game, record["program"], record["instant_deal"], record["actions"]


def revealed(state, hidden_seats):
    return state.is_over or any(state.instant_gone[s] and state.instant_gone[s][0] == "used"
                                for s in hidden_seats)


def compare(game, world_a, world_b, actions, viewer, hidden_seats, still_hidden=None):
    """Play ``actions`` in both worlds; the viewer's views must agree while nothing is revealed.
    Returns how many positions were compared."""
    compared = 0
    for option in actions:
        if revealed(world_a, hidden_seats) or (still_hidden and not still_hidden(world_a)):
            break
        a, b = view(world_a, viewer), view(world_b, viewer)
        assert a == b, f"{viewer} can tell the worlds apart at move {len(world_a.history)}"
        compared += 1
        world_a.apply(option)
        try:
            world_b.apply(option)
        except IllegalOptionError:
            break  # another seat did something only its hidden card allows: it reveals it
    return compared


@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_can_know_another_s_instant_card(seed):
    game, program, deal, actions = play_random(seed)
    # Which face-down index each seat drew: replay the draft.
    probe = game.new_state(program, deal=deal)
    for option in actions:
        if probe.phase == "placement":
            break
        probe.apply(option)
    order = [1 - probe.first, probe.first]
    drawn = dict(zip(order, probe.drawn))
    third = ({0, 1, 2} - set(probe.drawn)).pop()
    for seat in (0, 1):
        other = 1 - seat
        swapped = list(deal)
        swapped[drawn[other]], swapped[third] = swapped[third], swapped[drawn[other]]
        a = game.new_state(program, deal=deal)
        b = game.new_state(program, deal=swapped)
        assert compare(game, a, b, actions, seat, [other]) > 0
    # An observer knows neither seat's card.
    swapped = list(deal)
    swapped[drawn[0]], swapped[drawn[1]] = swapped[drawn[1]], swapped[drawn[0]]
    a, b = game.new_state(program, deal=deal), game.new_state(program, deal=swapped)
    compare(game, a, b, actions, OBSERVER, [0, 1])


@pytest.mark.parametrize("seed", SEEDS)
def test_no_seat_can_know_an_unopened_card(seed):
    game, program, deal, actions = play_random(seed)
    if not game.options["sequential_open"] or game.options["fair_first"]:
        return
    n = len(program)
    swapped = list(program)
    swapped[n - 1], swapped[n - 2] = swapped[n - 2], swapped[n - 1]
    for viewer in (0, 1, OBSERVER):
        a = game.new_state(program, deal=deal)
        b = game.new_state(swapped, deal=deal)
        assert compare(game, a, b, actions, viewer, [],
                       still_hidden=lambda s: s.phase != "execution" and s.opened < n - 1) > 0


@pytest.mark.parametrize("seed", SEEDS[:20])
def test_b_cannot_know_a_s_face_down_arrangement(seed):
    game = Game(3, 2, options={"fair_first": True, "sequential_open": True})
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    names = [c.name for c in state.to_arrange]
    other = game.new_state(seed=seed)
    order = names[:]
    rng.shuffle(order)
    for name in order:
        state.apply(f"arrange {name}")
    for name in order[:1] + order[1:][::-1]:  # the same first card, the rest in reverse
        other.apply(f"arrange {name}")
    assert view(state, 1) == view(other, 1)
    assert view(state, 0) != view(other, 0)  # A arranged them and knows


def test_observer_sees_everything_once_the_game_is_over():
    game, program, deal, actions = play_random(3)
    state = records.replay({**records.record_of(game.new_state(program, deal=deal)),
                            "actions": actions})
    assert state.is_over
    assert view(state, OBSERVER)["program"] == view(state)["program"]
    assert view(state, OBSERVER)["instant"] == view(state)["instant"]
    assert view(state, OBSERVER)["third_instant"] == view(state)["third_instant"] is not None


def test_masked_export_hides_what_the_seat_may_not_know_and_cannot_be_replayed():
    game = Game(3, 2, options={"instant_cards": True, "sequential_open": True})
    state = game.new_state(seed=11, deal=["Bug", "MoveFlag", "MoveCommand"])
    state.apply("take 2")  # seat 1: MoveCommand
    state.apply("take 0")  # seat 0: Bug
    for_red = records.masked_record_of(state, 0)
    assert for_red["instant_deal"] == ["Bug", None, None]
    assert for_red["program"][0] is not None and for_red["program"][1:] == [None] * 9
    assert for_red["masked_for"] == 0
    text = records.dumps(state, seat=1)
    assert json.loads(text)["instant_deal"] == [None, None, "MoveCommand"]
    with pytest.raises(Exception, match="masked for seat 1"):
        records.loads(text)
    assert records.masked_record_of(state, "referee") == records.record_of(state)


# ---------------------------------------------------------------------------- the AI never peeks


def two_worlds(seed, moves=40):
    """Two games seat 0 cannot tell apart (seat 1's instant card swapped with the third card),
    after the same random moves, with seat 0 to move and the card still hidden; or None."""
    game = Game(3, 2, options={"instant_cards": True, "sequential_open": seed % 2 == 0})
    deal = game.shuffled_deal(seed)
    a = game.new_state(seed=seed, deal=deal)
    a.apply("take 0")  # seat 1 draws card 0
    a.apply("take 1")  # seat 0 draws card 1; card 2 stays face down
    b = game.new_state(seed=seed, deal=[deal[2], deal[1], deal[0]])
    b.apply("take 0")
    b.apply("take 1")
    rng = random.Random(seed)
    for _ in range(moves):
        if a.is_over:
            return None
        # seat 1 keeps its card hidden: it neither uses it nor raises its own card's parameters
        legal = [o for o in a.legal() if a.to_move == 0 or not ("instant" in o or " i1." in o)]
        option = rng.choice(legal)
        a.apply(option)
        b.apply(option)
    while not a.is_over and a.to_move != 0:
        option = a.legal()[0]
        a.apply(option)
        b.apply(option)
    return None if a.is_over or a.instant_gone[1] else (a, b)


def test_two_worlds_are_found():
    assert sum(two_worlds(seed) is not None for seed in range(12)) >= 6


@pytest.mark.parametrize("seed", range(12))
def test_determinize_depends_only_on_what_the_seat_knows(seed):
    worlds = two_worlds(seed)
    if worlds is None:
        return
    a, b = worlds
    assert view(a, 0) == view(b, 0) and a.position_key() != b.position_key()
    da, db = a.determinize(0, random.Random(7)), b.determinize(0, random.Random(7))
    assert da.position_key() == db.position_key()
    assert view(da, 0) == view(a, 0)  # the seat's own view is kept


@pytest.mark.parametrize("seed", range(6))
def test_the_computer_decides_the_same_in_worlds_it_cannot_tell_apart(seed):
    from spaghetti.ai import GreedyPlayer, MCTSPlayer

    worlds = two_worlds(seed, moves=30)
    if worlds is None:
        return
    a, b = worlds
    assert MCTSPlayer(iterations=150, seed=3).choose(a) == MCTSPlayer(iterations=150,
                                                                      seed=3).choose(b)
    assert GreedyPlayer(seed=3).choose(a) == GreedyPlayer(seed=3).choose(b)
