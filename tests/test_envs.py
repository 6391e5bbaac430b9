"""The research environments (spaghetti.envs): PettingZoo's and Gymnasium's own conformance
checks on every game of the family, hidden information never in another seat's observation,
the compact action ids, rewards, truncation, chance, rendering. No test trains a model."""

from __future__ import annotations

import pathlib
import pickle
import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from spaghetti.core import engines  # noqa: E402
from spaghetti.core import notation as N  # noqa: E402
from spaghetti.envs import encoding  # noqa: E402
from spaghetti.envs.encoding import NUM_ACTIONS, ActionCodec, Encoder  # noqa: E402
from spaghetti.envs.gymnasium import SpaghettiEnv  # noqa: E402
from spaghetti.envs.pettingzoo import env, make_game, program_length, raw_env  # noqa: E402
from spaghetti.errors import IllegalOptionError, SetupError  # noqa: E402
from test_properties import games, new, pick  # noqa: E402

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "envs.md"

# Every game of the family, each number of players it has, and the options that change what a
# seat sees or who decides (expansions, chance).
GAMES = [
    dict(variant="spaghetti-code", level=1, players=2),
    dict(variant="spaghetti-code", level=2, players=3),
    dict(variant="spaghetti-code", level=3, players=4),
    dict(variant="spaghetti-code", level=3, players=5),
    dict(variant="spaghetti-monsters", level=1, players=2),
    dict(variant="spaghetti-monsters", level=3, players=3),
    dict(variant="pasta-logic", level=1, players=2),
    dict(variant="pasta-logic", level=1, players=2, options={"setup": "novice"}),
    dict(variant="nightmare", level=1, players=2),
    dict(variant="nightmare", level=1, players=5, options={"coin_flip": True}),
    dict(variant="spaghetti-code", level=3, players=2,
         options={"instant_cards": True, "fair_first": True, "sequential_open": True}),
    dict(variant="spaghetti-code", level=3, players=4,
         options={"interrupt": True, "memory": True, "reverse_priority": True,
                  "stalemate": "manual"}),
    dict(variant="spaghetti-monsters", level=2, players=2, options={"instant_cards": True}),
    dict(variant="pasta-logic", level=1, players=2,
         options={"sequential_open": True, "fair_first": True}),
]
IDS = [f"{g['variant']}-L{g['level']}-P{g['players']}"
       + ("-" + "+".join(sorted(g.get("options", {}))) if g.get("options") else "")
       for g in GAMES]
HIDDEN = [g for g in GAMES if {"instant_cards", "sequential_open"} & set(g.get("options", {}))]


def _random_game(e, rng: random.Random, limit: int = 10_000):
    """Play the AEC environment to its end with random legal actions; yield the agent after
    each of its decisions (not after the dead steps at the end)."""
    e.reset()
    for agent in e.agent_iter(limit):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        yield agent


# ----------------------------------------------------------------- PettingZoo's checks

@pytest.mark.parametrize("kwargs", GAMES, ids=IDS)
def test_pettingzoo_api_test_passes(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its advice on observation dicts: a masked game)
        api_test(env(**kwargs, seed=1), num_cycles=1000)


@pytest.mark.parametrize("kwargs", GAMES, ids=IDS)
def test_pettingzoo_seed_test_passes(kwargs):
    seed_test(lambda: env(**kwargs), num_cycles=200)


def test_max_cycles_test_does_not_apply_and_max_moves_truncates():
    """PettingZoo's max_cycles_test drives a parallel environment; a game whose seats take
    turns in no fixed order has none (``is_parallelizable`` False). Its AEC half, counted in
    decisions: after ``max_moves`` decisions every agent is truncated, with no reward, and
    steps once more (the dead step)."""
    e = raw_env(variant="spaghetti-code", level=3, players=3, max_moves=7, seed=2)
    assert e.metadata["is_parallelizable"] is False
    rng = random.Random(0)
    assert sum(1 for _ in _random_game(e, rng)) == 7  # decisions (the dead steps not counted)
    assert e.agents == []
    assert e.state is not None and not e.state.is_over and len(e.state.history) == 7
    e.reset(seed=5)
    for _ in range(6):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert not any(e.truncations.values())
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert set(e._cumulative_rewards.values()) == {0.0}
    assert {i["result"] for i in e.infos.values()} == {"max_moves"}


def test_adjudicated_cap_ends_with_the_tiebreak_winner():
    e = raw_env(variant="spaghetti-code", level=1, players=2, max_moves=20, adjudicate=True)
    e.reset(seed=3)
    rng = random.Random(1)
    while not any(e.terminations.values()):
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    winner = e.infos["player_0"]["winner"]
    assert winner in (0, 1)
    assert e._cumulative_rewards == {f"player_{s}": 1.0 if s == winner else -1.0
                                     for s in range(2)}


# ----------------------------------------------------------------- hidden information

@pytest.mark.parametrize("kwargs", HIDDEN, ids=[IDS[GAMES.index(g)] for g in HIDDEN])
def test_observation_is_a_function_of_what_the_seat_knows(kwargs):
    """Redealing everything a seat may not know (``State.determinize``: the other seat's
    instant card, face-down cards) never changes that seat's observation; redealing what the
    other seat may not know does change it somewhere (its own hidden cards are in it)."""
    game = make_game(kwargs["variant"], kwargs["level"], kwargs["players"], kwargs["options"])
    enc = Encoder(game, program_length(game, None))
    rng = random.Random(7)
    own_seen = 0
    for deal in range(12):
        state = game.new_state(seed=deal)
        while not state.is_over:
            for seat in range(2):
                mine = enc.encode(state, seat)
                for k in range(2):
                    world = state.determinize(seat, random.Random(k))
                    assert np.array_equal(enc.encode(world, seat), mine), (
                        f"seat {seat} sees hidden information at {state.deciding} "
                        f"(move {len(state.history)})")
                    other = state.determinize(1 - seat, random.Random(k))
                    own_seen += not np.array_equal(enc.encode(other, seat), mine)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert own_seen > 0


@pytest.mark.parametrize("kwargs", GAMES, ids=IDS)
def test_each_seats_observation_is_seat_0s_with_the_seats_renumbered(kwargs):
    """Seats are numbered from the observer and nothing else differs between seats that know
    the same things, so seat 0's observation, its features moved by ``seat_rotation``, is each
    seat's (a search judges every seat from one: ai/value.py); a game whose seats know
    different things has none."""
    game = make_game(**kwargs)
    enc = Encoder(game, program_length(game, None))
    rotations = [enc.seat_rotation(seat) for seat in range(game.players)]
    if kwargs in HIDDEN:
        assert rotations == [None] * game.players
        return
    assert all(np.array_equal(np.sort(r), np.arange(enc.size)) for r in rotations)
    rng = random.Random(3)
    moved = 0
    for deal in range(3):
        state = game.new_state(seed=deal)
        while not state.is_over and len(state.history) < 300:
            if state.is_chance:
                state.apply(state.sample_chance(rng))
                continue
            first = enc.encode(state, 0)
            for seat, rotation in enumerate(rotations):
                mine = enc.encode(state, seat)
                assert np.array_equal(mine[rotation], first), (seat, len(state.history))
                moved += seat > 0 and not np.array_equal(mine, first)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert moved > 0  # (the seats' observations differ: the rotation is not the identity)


def test_another_seats_instant_card_is_not_in_the_observation():
    e = raw_env(variant="spaghetti-code", level=3, players=2,
                options={"instant_cards": True}, seed=4)
    e.reset()
    state = e.state
    assert state is not None
    rng = random.Random(3)
    while state.phase == "setup":  # the instant card draft
        obs = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    held = [state.instant[s][0].name for s in range(2)]
    enc = e.unwrapped.encoder if hasattr(e, "unwrapped") else e.encoder
    start, length = next((s, n) for name, s, n in enc.layout() if name == "instant_card")
    per_seat = length // 2
    for seat in range(2):
        block = e.observe(f"player_{seat}")["observation"][start:start + length]
        mine, theirs = block[:per_seat], block[per_seat:]  # seats counted from the observer
        assert mine[enc.instants.index(held[seat])] == 1 and mine.sum() == 1
        assert theirs.sum() == 0


@settings(max_examples=40, deadline=None)
@given(g=games)
def test_the_compiled_observation_is_its_python_sources(g):
    # The vector is written by compiled code where the core is compiled (envs/observation.py);
    # its source run as Python writes the same numbers, for every seat at every decision.
    state = new(g)
    cards = min(encoding.MAX_CARDS, len(state.kinds) + 4)
    fast, slow = Encoder(state.game, cards), Encoder(state.game, cards, python=True)
    assert (type(fast.writer) is type(slow.writer)) == (not engines.COMPILED)
    rng = random.Random(g["seed"])
    while True:
        for seat in range(state.game.players):
            assert np.array_equal(fast.encode(state, seat), slow.encode(state, seat))
        if state.is_over:
            break
        state.apply_action(pick(state, rng))


@settings(max_examples=30, deadline=None)
@given(g=games)
def test_an_observation_written_over_the_last_is_the_one_written_afresh(g):
    # The writer keeps each seat's last observation and writes over it only the cards whose
    # parts are other objects than at its last write, and the marks of the moment (a search's
    # positions mostly share their cards); across jumps between branches, cards removed and
    # added, and cards turned face up, every vector is the one written afresh, on both paths.
    state = new(g)
    cards = min(encoding.MAX_CARDS, len(state.kinds) + 4)
    rng = random.Random(g["seed"])
    for python in (False, True):
        encoder = Encoder(state.game, cards, python=python)
        blocks = [encoder.card_blocks() for _ in range(state.game.players)]
        line, seen = state.copy(), []
        while True:
            for seat in range(line.game.players):
                assert encoder.raw(line, seat, blocks[seat]) == encoder.raw(line, seat)
            if line.is_over:
                break
            seen.append(line.copy())
            line.apply_action(pick(line, rng))
            if rng.random() < 0.2:  # back to a recent position, as a search goes
                line = seen[-rng.randint(1, min(3, len(seen)))].copy()


# ----------------------------------------------------------------- actions and rewards

def test_compact_ids_round_trip_and_masks_match_the_legal_options():
    rng = random.Random(11)
    kinds = set()
    for kwargs in GAMES:
        game = make_game(kwargs["variant"], kwargs["level"], kwargs["players"],
                         kwargs.get("options"))
        codec = ActionCodec(game)
        for deal in range(3):
            state = game.new_state(seed=deal)
            while not state.is_over:
                legal = state.legal_actions()
                ids = [codec.encode(a) for a in legal]
                assert all(0 <= i < NUM_ACTIONS for i in ids)
                assert [codec.decode(i) for i in ids] == list(legal)
                assert set(np.flatnonzero(codec.mask(legal))) == set(ids)
                assert list(np.frombuffer(codec.mask_writer.ids(legal, 0), "<i4")) == ids
                kinds.update(N.kind(a) for a in legal)
                state.apply_action(legal[rng.randrange(len(legal))])
    assert {N.PLACE, N.FLAG, N.PARAM, N.TAKE, N.SEAT, N.ARRANGE, N.COIN} <= kinds


def test_compact_ids_are_the_openspiel_adapters_where_both_have_them():
    openspiel = pytest.importorskip("spaghetti.interop.openspiel")
    assert encoding.OPENSPIEL_ACTIONS == openspiel.NUM_ACTIONS
    codec = ActionCodec(make_game())
    for compact in range(encoding.OPENSPIEL_ACTIONS):
        assert codec.decode(compact) == openspiel.decode(compact)


def test_rewards_are_plus_one_for_the_winner_minus_one_for_the_others():
    rng = random.Random(5)
    for kwargs in (GAMES[0], GAMES[3], GAMES[6], GAMES[9]):
        e = raw_env(**kwargs, max_moves=None, seed=8)
        totals = {a: 0.0 for a in e.possible_agents}
        e.reset()
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        winner = info["winner"]
        expected = {f"player_{s}": 0.0 if winner is None else 1.0 if s == winner else -1.0
                    for s in range(kwargs["players"])}
        assert totals == expected


def test_the_coin_flip_is_drawn_inside_with_the_seeded_generator():
    runs = []
    for _ in range(2):
        e = raw_env(variant="nightmare", players=3, options={"coin_flip": True})
        e.reset(seed=21)
        rng = random.Random(0)
        for _ in _random_game(e, rng, limit=400):
            assert e.state is not None
            assert not e.state.is_chance
            if e.agents and not e.terminations[e.agent_selection]:
                mask = e.observe(e.agent_selection)["action_mask"]
                assert not any(N.kind(e.codec.decode(i)) == N.COIN for i in np.flatnonzero(mask))
        runs.append(list(e.state.history))
    assert runs[0] == runs[1]
    assert any(N.kind(a) == N.COIN for a in runs[0])


def test_an_illegal_action_raises_and_changes_nothing():
    e = raw_env(seed=1)
    e.reset()
    assert e.state is not None
    before = e.state.position_key()
    with pytest.raises(IllegalOptionError):
        e.step(e.string_to_action("pass"))  # placement: pass is not an option
    with pytest.raises(IllegalOptionError):
        e.step(NUM_ACTIONS + 5)
    assert e.state.position_key() == before
    assert e.action_to_string(e.string_to_action("place 3")) == "place 3"


def test_rule_options_are_constructor_arguments_checked_as_the_engine_checks_them():
    e = raw_env(variant="nightmare", players=2, options={"start_hp": 5, "bits": 3}, seed=0)
    e.reset()
    assert e.state is not None and e.state.lives == [5, 5] and e.state.hand == [3, 3]
    e = raw_env(program=["Bug", "Bug", "AddFlag", "ForkBomb"], seed=0)
    e.reset()
    assert e.state is not None and list(e.state.program) == ["Bug", "Bug", "AddFlag", "ForkBomb"]
    with pytest.raises(SetupError):
        raw_env(options={"no_such_rule": True})
    with pytest.raises(SetupError):
        raw_env(variant="pasta-logic", players=3)
    with pytest.raises(SetupError):
        raw_env(render_mode="human")


# ----------------------------------------------------------------- pictures

@pytest.mark.parametrize("kwargs", [GAMES[0], GAMES[3], GAMES[9], GAMES[10]],
                         ids=[IDS[0], IDS[3], IDS[9], IDS[10]])
def test_render_modes(kwargs):
    text_env = raw_env(**kwargs, render_mode="ansi", seed=3)
    image_env = raw_env(**kwargs, render_mode="rgb_array", seed=3)
    rng_a, rng_b = random.Random(1), random.Random(1)
    shape = None
    for e, rng in ((text_env, rng_a), (image_env, rng_b)):
        for n, _ in enumerate(_random_game(e, rng, limit=60)):
            if e.agents and n % 10 == 0:
                shown = e.render()
                if e.render_mode == "ansi":
                    assert isinstance(shown, str) and "level" in shown
                else:
                    assert shown.dtype == np.uint8 and shown.ndim == 3 and shown.shape[2] == 3
                    shape = shape or shown.shape
                    assert shown.shape == shape  # one size for the whole game
    with pytest.warns(UserWarning, match="render_mode"):
        assert raw_env().render() is None  # no render mode: a warning, nothing drawn


def test_ansi_render_hides_face_down_cards_from_a_seat():
    e = raw_env(variant="pasta-logic", options={"sequential_open": True}, render_mode="ansi",
                render_viewer=1, seed=2)
    e.reset()
    assert e.state is not None
    assert e.state.opened < len(e.state.kinds)
    shown = e.render()
    hidden = e.state.kinds[-1].name
    assert "face down" in shown
    referee = raw_env(variant="pasta-logic", options={"sequential_open": True},
                      render_mode="ansi", seed=2)
    referee.reset()
    assert hidden in referee.render()


# ----------------------------------------------------------------- Gymnasium

@pytest.mark.parametrize("kwargs", GAMES, ids=IDS)
def test_gymnasium_check_env_passes(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (no spec: alternative render modes are not tried)
        check_env(SpaghettiEnv(**kwargs, seat=kwargs["players"] - 1), skip_render_check=False)


def test_gymnasium_masks_for_maskable_ppo():
    e = SpaghettiEnv(variant="spaghetti-code", level=1, opponents="easy", seat=None)
    rng = np.random.default_rng(0)
    for episode in range(3):
        obs, info = e.reset(seed=episode)
        done = False
        while not done:
            masks = e.action_masks()
            assert masks.dtype == bool and masks.shape == (NUM_ACTIONS,) and masks.any()
            assert np.array_equal(masks, info["action_mask"].astype(bool))
            assert e.state is not None and e.state.to_move == e.seat
            assert obs in e.observation_space
            obs, reward, terminated, truncated, info = e.step(
                int(rng.choice(np.flatnonzero(masks))))
            done = terminated or truncated
        assert reward == (0.0 if truncated else 1.0 if info["winner"] == e.seat else -1.0)


def test_gymnasium_illegal_action_loses_or_raises():
    e = SpaghettiEnv(level=1)
    e.reset(seed=0)
    _, reward, terminated, _, info = e.step(0)  # pass, at a placement
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    strict = SpaghettiEnv(level=1, illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalOptionError):
        strict.step(0)


def test_gymnasium_opponents_by_difficulty_per_seat():
    e = SpaghettiEnv(variant="spaghetti-code", level=2, players=3, seat=1,
                     opponents=["random", "easy"])
    e.reset(seed=4)
    assert type(e._players[0]).__name__ == "RandomPlayer"
    assert type(e._players[2]).__name__ == "GreedyPlayer"
    with pytest.raises(SetupError):
        SpaghettiEnv(players=3, opponents=["easy"])
    with pytest.raises(SetupError):
        SpaghettiEnv(opponents="grandmaster")


def test_gymnasium_make_by_id():
    import gymnasium

    e = gymnasium.make("spaghetti/Spaghetti-v0", variant="pasta-logic")
    obs, info = e.reset(seed=0)
    assert obs.shape == e.observation_space.shape and "action_mask" in info
    assert e.get_wrapper_attr("action_masks")().any()


# ----------------------------------------------------------------- the documentation

def test_docs_describe_every_block_of_the_observation():
    doc = DOCS.read_text(encoding="utf-8")
    enc = Encoder(make_game("spaghetti-code", 3, 2, {"instant_cards": True,
                                                     "fair_first": True}), 10)
    for name, _, _ in enc.layout():
        assert f"`{name}`" in doc, name
    for name, _ in enc.card_layout():
        assert f"`{name}`" in doc, name
    assert f"{NUM_ACTIONS}" in doc
    assert sum(n for _, _, n in enc.layout()) == enc.size


@pytest.mark.parametrize("variant,level,players,options,size", [
    ("spaghetti-code", 1, 2, {}, 757), ("spaghetti-code", 3, 2, {}, 1502),
    ("spaghetti-code", 3, 5, {}, 3242), ("spaghetti-code", 1, 2, {"instant_cards": True}, 778),
    ("spaghetti-monsters", 1, 2, {}, 747), ("pasta-logic", 1, 2, {}, 1262),
    ("nightmare", 1, 2, {}, 2798), ("nightmare", 1, 5, {}, 5906),
])
def test_observation_sizes_are_those_docs_envs_gives(variant, level, players, options, size):
    game = make_game(variant=variant, level=level, players=players, options=options)
    assert Encoder(game, program_length(game, None)).size == size
    text = " ".join((pathlib.Path(__file__).parents[1] / "docs" / "envs.md").read_text().split())
    assert f"{size:,}" in text


def test_the_vector_env_steps_many_games_as_one_batch_and_each_as_alone():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    n = 4
    envs = SpaghettiVectorEnv(n, level=3, players=2, opponents="random")
    alone = [SpaghettiEnv(level=3, players=2, opponents="random") for _ in range(n)]
    obs, _ = envs.reset(seed=10)
    for i, single in enumerate(alone):
        first, _ = single.reset(seed=10 + i)
        assert np.array_equal(obs[i], first)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        masks = envs.action_masks()
        assert masks.shape == (n, NUM_ACTIONS) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i, single in enumerate(alone):
            seen, reward, done, cut, _ = single.step(int(actions[i]))
            assert reward == rewards[i] and done == terminated[i] and cut == truncated[i]
            if done or cut:  # the next game: dealt on from where the last left the generator
                seen, _ = single.reset()
            assert np.array_equal(seen, obs[i])
            # (the masks' arrays are written again: an id set before is cleared)
            assert np.array_equal(single.action_masks(), envs.action_masks()[i])
        ended += int(np.sum(terminated | truncated))
        for i in np.flatnonzero(terminated | truncated):
            assert infos["final_obs"][i] is not None
    assert ended >= n  # every game ended at least once, and began again in the same step


def test_an_environment_pickled_mid_game_plays_on_as_the_original():
    # The compiled batch, writer and mask writer are rebuilt by calling them (__reduce__).
    from spaghetti.envs.vector import SpaghettiVectorEnv

    env = SpaghettiEnv(level=3, players=3, opponents="random", seat=None)
    env.reset(seed=2)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    twin = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(1)
    for _ in range(200):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, *rest = env.step(action)
        twin_obs, *twin_rest = twin.step(action)
        assert np.array_equal(obs, twin_obs) and rest[:3] == twin_rest[:3]
        assert np.array_equal(env.action_masks(), twin.action_masks())
        if rest[1] or rest[2]:
            assert np.array_equal(env.reset()[0], twin.reset()[0])
    envs = SpaghettiVectorEnv(3, level=1, players=2)
    envs.reset(seed=4)
    copy = pickle.loads(pickle.dumps(envs))
    for _ in range(60):
        actions = np.array([int(np.flatnonzero(m)[-1]) for m in envs.action_masks()])
        ours, theirs = envs.step(actions), copy.step(actions)
        for a, b in zip(ours[:4], theirs[:4]):
            assert np.array_equal(a, b)


def test_the_vector_env_never_writes_over_an_observation_or_a_mask_still_held():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    envs = SpaghettiVectorEnv(3, level=1, players=2)
    obs, infos = envs.reset(seed=5)
    held = [(obs, obs.copy()), (infos["action_mask"], infos["action_mask"].copy())]
    for step in range(12):
        masks = envs.action_masks()
        if step % 3 == 0:  # (the others let go: their arrays are written again)
            held.append((masks, masks.copy()))
        obs, *_, infos = envs.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))
        held.append((obs, obs.copy()))
        if step % 3 == 1:
            held.append((infos["action_mask"], infos["action_mask"].copy()))
        del masks, infos
    assert all(np.array_equal(seen, kept) for seen, kept in held)


def test_the_vector_env_masks_stay_true_while_some_are_held_past_its_pool():
    # Masks handed out are written again once let go, clearing only the ids they had set; a
    # run that holds more of them than the pool keeps must still get every mask right.
    from spaghetti.envs.vector import SpaghettiVectorEnv

    envs = SpaghettiVectorEnv(3, level=3, players=2, opponents="random")
    envs.reset(seed=8)
    rng = np.random.default_rng(3)
    held: list[np.ndarray] = []
    for step in range(120):
        masks = envs.action_masks()
        for i, game in enumerate(envs.envs):
            assert game.state is not None
            truth = game.codec.mask(game.state.legal_actions())
            assert np.array_equal(masks[i], truth.view(np.bool_)), (step, i)
        if step % 20 < 7:
            held.append(masks)  # more than the pool keeps ...
        elif step % 20 == 10:
            held.clear()  # ... then all let go
        envs.step(np.array([int(rng.choice(np.flatnonzero(m))) for m in masks]))
        del masks


def test_the_vector_env_plays_other_opponents_as_the_lone_env_does():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    envs = SpaghettiVectorEnv(2, level=1, players=3, opponents=["easy", "random"], seat=None)
    alone = [SpaghettiEnv(level=1, players=3, opponents=["easy", "random"], seat=None)
             for _ in range(2)]
    obs, infos = envs.reset(seed=3)
    for i, single in enumerate(alone):
        first, info = single.reset(seed=3 + i)
        assert np.array_equal(obs[i], first) and infos["seat"][i] == info["seat"]
    for _ in range(40):
        actions = np.array([int(np.flatnonzero(m)[0]) for m in envs.action_masks()])
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        for i, single in enumerate(alone):
            if single.state is None or single.state.is_over:
                continue
            seen, reward, done, _, _ = single.step(int(actions[i]))
            assert reward == rewards[i] and done == terminated[i]
            if not done:
                assert np.array_equal(seen, obs[i])


def test_the_vector_env_ends_an_illegal_action_as_a_loss_or_raises_changing_nothing():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    envs = SpaghettiVectorEnv(2, level=1)
    envs.reset(seed=0)
    legal = int(np.flatnonzero(envs.action_masks()[0])[0])
    illegal = int(np.flatnonzero(~envs.action_masks()[1])[0])
    _, rewards, terminated, _, infos = envs.step(np.array([legal, illegal]))
    assert terminated.tolist() == [False, True] and rewards[1] == -1.0
    assert infos["final_info"][1]["illegal_action"] and infos["final_obs"][1] is not None
    strict = SpaghettiVectorEnv(2, level=1, illegal="raise")
    strict.reset(seed=0)
    before = [len(env.state.history) for env in strict.envs]
    with pytest.raises(IllegalOptionError, match="game 1"):
        strict.step(np.array([legal, illegal]))
    assert [len(env.state.history) for env in strict.envs] == before
    with pytest.raises(SetupError, match="one action for each"):
        strict.step(np.array([legal]))


def test_int8_observations_are_the_float32_ones_in_every_environment():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    wide = SpaghettiVectorEnv(3, level=3, players=2)
    narrow = SpaghettiVectorEnv(3, level=3, players=2, observation_dtype="int8")
    assert narrow.single_observation_space.dtype == np.int8
    obs, _ = wide.reset(seed=3)
    small, _ = narrow.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(120):
        assert small.dtype == np.int8 and small.flags.writeable
        assert np.array_equal(obs, small) and narrow.single_observation_space.contains(small[0])
        masks = wide.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, *_, infos = wide.step(actions)
        small, *_, small_infos = narrow.step(actions)
        for i in np.flatnonzero(infos.get("_final_obs", np.zeros(3, bool))):
            assert small_infos["final_obs"][i].dtype == np.int8
            assert np.array_equal(small_infos["final_obs"][i], infos["final_obs"][i])
    lone = SpaghettiEnv(level=1, observation_dtype="int8")
    check_env(lone, skip_render_check=True)
    assert lone.reset(seed=1)[0].dtype == np.int8
    aec = raw_env(level=1, observation_dtype="int8", seed=1)
    aec.reset()
    seen = aec.observe(aec.agent_selection)["observation"]
    assert seen.dtype == np.int8 and aec.observation_space(aec.agent_selection).contains(
        {"observation": seen, "action_mask": aec.observe(aec.agent_selection)["action_mask"]})
    twin = raw_env(level=1, seed=1)
    twin.reset()
    assert np.array_equal(seen, twin.observe(twin.agent_selection)["observation"])
    for bad in ("float64", np.int8, None):
        with pytest.raises(SetupError, match="observation_dtype is one of float32, int8"):
            SpaghettiEnv(observation_dtype=bad)
        with pytest.raises(SetupError, match="observation_dtype"):
            raw_env(observation_dtype=bad)


def test_the_vector_env_refuses_a_bad_count_or_bad_arguments_clearly():
    from spaghetti.envs.vector import SpaghettiVectorEnv

    for bad in (0, -1, 2.5, "4"):
        with pytest.raises(SetupError, match="num_envs"):
            SpaghettiVectorEnv(bad)
    with pytest.raises(SetupError, match="difficulty"):
        SpaghettiVectorEnv(2, opponents="grandmaster")
    envs = SpaghettiVectorEnv(2)
    with pytest.raises(SetupError, match="before reset"):
        envs.step(np.array([0, 0]))
    with pytest.raises(SetupError, match="one seed for each of the 2 games"):
        envs.reset(seed=[1, 2, 3])
    obs, _ = envs.reset(seed=[7, 6])
    assert np.array_equal(obs, SpaghettiVectorEnv(2).reset(seed=6)[0][::-1])


def test_the_batch_plays_the_same_compiled_and_as_python_source():
    # Installs without a C compiler run envs/batch.py as Python: the same steps, the same rows.
    from spaghetti.ai.random_player import RandomPlayer
    from spaghetti.core.engines import python_game, python_module

    game = make_game("spaghetti-code", 3, 3)
    cards = program_length(game, None)
    compiled = SpaghettiEnv(level=3, players=3).batch(2)
    encoder = Encoder(game, cards, python=True)
    codec = ActionCodec(game)
    source = python_module("envs.batch").Batch(2, encoder.writer, codec.mask_writer,
                                               codec.decode, 400, False)
    for batch, deal in ((compiled, game.new_state), (source, python_game(game).new_state)):
        for i in range(2):
            batch.load(i, deal(None, 20 + i), i, [None if s == i else RandomPlayer(7 * s + i)
                                                 for s in range(3)], random.Random(i))
    rng = random.Random(0)
    steps = 0
    while steps < 150:
        assert compiled.observations() == source.observations()
        assert compiled.legal_ids() == source.legal_ids()
        ids = np.frombuffer(compiled.legal_ids(), dtype="<i4")
        rows = [np.sort(ids[ids // NUM_ACTIONS == i] % NUM_ACTIONS) for i in range(2)]
        actions = [int(rng.choice(row)) if len(row) else 0 for row in rows]
        if not all(len(row) for row in rows):
            break
        compiled.step(actions)
        source.step(actions)
        steps += 1
        assert compiled.rewards == source.rewards and compiled.ended == source.ended
        if any(compiled.ended):
            break
    assert steps >= 10
