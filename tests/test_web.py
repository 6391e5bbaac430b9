"""The web server over the wire (Starlette's TestClient): creating and joining games, playing a
whole game, refusals that change nothing, per-seat views (a leak test), replays, reconnecting."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from starlette.testclient import TestClient

import spaghetti
from spaghetti import records
from spaghetti.core import notation as N
from spaghetti.core.game import Game
from spaghetti.core.view import view
from spaghetti.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def create(client, **body) -> dict:
    res = client.post("/api/games", json=body)
    assert res.status_code == 201, res.text
    return res.json()


def humans(n: int) -> list[dict]:
    return [{"kind": "human"}] * n


def next_state(ws) -> dict:
    """The next state message (errors are returned too, to be checked by the caller)."""
    return ws.receive_json()


def join(client, game: dict, seat: int) -> str:
    """Claim a seat by its invite code: the seat token."""
    res = client.post(f"/api/games/{game['id']}/claim", json={"invite": game["invites"][str(seat)]})
    assert res.status_code == 200, res.text
    assert res.json()["seat"] == seat
    return res.json()["token"]


# ---------------------------------------------------------------------- creating and joining

def test_create_refuses_bad_setups_with_one_clear_message(client):
    cases = [({"level": 4}, "level must be one of 1, 2, 3"),
             ({"players": 7}, "players must be 2 to 5"),
             ({"options": {"stalemate": "never"}}, "option 'stalemate' cannot be 'never'"),
             ({"seats": [{"kind": "robot"}, {"kind": "human"}]}, "kind is 'human' or 'computer'"),
             ({"seats": [{"kind": "human"}, {"kind": "computer", "difficulty": "godlike"}]},
              "difficulty is one of random, easy, normal, hard"),
             ({"clock": -5}, "clock is seconds per player"),
             ({"colour": "red"}, "unknown field 'colour'"),
             ({"variant": "chess"}, "unknown variant 'chess'")]
    for body, message in cases:
        res = client.post("/api/games", json=body)
        assert res.status_code == 400
        assert message in res.json()["error"]
    res = client.post("/api/games", content=b"{not json")
    assert res.status_code == 400 and res.json()["error"].startswith("not JSON")


def test_each_invite_claims_its_seat_once(client):
    game = create(client, players=3, seats=humans(3), seed=1)
    assert game["you"] == 0 and game["token"] and set(game["invites"]) == {"1", "2"}
    token = join(client, game, 2)
    again = client.post(f"/api/games/{game['id']}/claim", json={"invite": game["invites"]["2"]})
    assert again.status_code == 409 and "already been taken" in again.json()["error"]
    wrong = client.post(f"/api/games/{game['id']}/claim", json={"invite": "guess"})
    assert wrong.status_code == 403
    with client.websocket_connect(f"/ws/{game['id']}?token={token}") as ws:
        assert next_state(ws)["you"] == 2
    assert client.get("/api/games/nope").status_code == 404


# ---------------------------------------------------------------------- a whole game

def stored_actions(db: str, game_id: str) -> int:
    """How many actions the database holds for a game (read by a separate connection)."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(db)) as conn:
        (text,) = conn.execute("SELECT record FROM games WHERE id = ?", (game_id,)).fetchone()
    return len(json.loads(text)["actions"])


def test_a_whole_game_between_two_people_over_the_wire(client, tmp_path):
    game = create(client, level=2, players=2, seats=humans(2), seed=5, autoplay=False)
    db = str(tmp_path / "games.db")
    tokens = [game["token"], join(client, game, 1)]
    gid = game["id"]
    mirror = Game(level=2, players=2).new_state(None, 5)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/{gid}?token={tokens[0]}") as red, \
            client.websocket_connect(f"/ws/{gid}?token={tokens[1]}") as blue:
        conns = [red, blue]
        next_state(red), next_state(red), next_state(blue)  # joins
        while not mirror.is_over:
            option = rng.choice(mirror.legal())
            mover = conns[mirror.to_move]
            mover.send_json({"type": "play", "option": option, "moves": len(mirror.history)})
            mirror.apply(option)
            for seat, ws in enumerate(conns):
                msg = next_state(ws)
                assert msg["type"] == "state", msg
                assert msg["view"] == view(mirror, seat)
            # Committed before anyone heard of it.
            assert stored_actions(db, gid) == len(mirror.history)
        assert "wins" in msg["status"] or "draw" in msg["status"]
    record = client.get(f"/api/games/{gid}/record")
    assert record.status_code == 200
    final = records.loads(record.text)
    assert final.history == mirror.history and final.winner == mirror.winner
    frames = client.get(f"/api/games/{gid}/replay?lang=ja").json()["frames"]
    assert len(frames) == len(mirror.history) + 1
    assert frames[-1]["view"] == view(mirror)
    assert "フラグを置いた" in frames[1]["text"]


def test_against_the_computer_the_game_plays_to_the_end(client):
    game = create(client, level=1, seats=[{"kind": "human"}, {"kind": "computer",
                                                                "difficulty": "easy"}], seed=2)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}&lang=ja") as ws:
        for _ in range(2000):
            msg = next_state(ws)
            v = msg["view"]
            if v["phase"] == "over":
                break
            if v["to_move"] == 0 and v["legal"]:
                assert set(msg["labels"]) == set(v["legal"])
                ws.send_json({"type": "play", "option": v["legal"][0], "moves": v["moves"]})
        else:
            pytest.fail("the game did not end")
    assert "勝ち" in msg["status"] or "引き分け" in msg["status"]
    final = records.loads(client.get(f"/api/games/{game['id']}/record").text)
    assert final.is_over and len(final.history) == v["moves"]


@pytest.mark.parametrize("variant,options", [
    ("pasta-logic", {"setup": "catastrophe"}), ("spaghetti-monsters", {}),
    ("nightmare", {"coin_flip": True})])
def test_every_game_of_the_family_plays_over_the_wire(client, variant, options):
    """A person against the computer in each game; the server draws the coin flips itself.
    (The computer seat's moves are drawn afresh each game, from the server's seeded draws, and
    about one game in twenty ends before any visit of two flags flips a coin: up to three games
    are played to see one.)"""
    for _ in range(3):
        final = _play_over_the_wire(client, variant, options)
        if not options.get("coin_flip") or any(N.kind(a) == N.COIN for a in final.history):
            break
    if options.get("coin_flip"):
        assert any(N.kind(a) == N.COIN for a in final.history)


def test_a_seeded_server_plays_the_same_game_again(tmp_path):
    from spaghetti.web import create_app
    games = []
    for run in range(2):
        with TestClient(create_app(str(tmp_path / f"{run}.db"), autoplay_delay=0,
                                   seed=11)) as c:
            games.append(_play_over_the_wire(c, "nightmare", {"coin_flip": True}).history)
    assert games[0] == games[1] and any(N.kind(a) == N.COIN for a in games[0])


def _play_over_the_wire(client, variant: str, options: dict):
    game = create(client, variant=variant, level=1, options=options, seed=5,
                  seats=[{"kind": "human"}, {"kind": "computer", "difficulty": "random"}])
    # Our options drawn at random too: always taking the last one can hold a Nightmare game in
    # a loop that never repeats a position (DEC lowering MIMIC's number round after round; the
    # numbers have no bound), which no stalemate ends.
    rng = random.Random(0)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        for _ in range(4000):
            msg = next_state(ws)
            if msg["type"] == "error":  # a forced move of ours the server played first
                assert msg["code"] == "stale", msg
                continue
            v = msg["view"]
            if v["phase"] == "over":
                break
            assert v["variant"] == variant
            if v["to_move"] == 0 and v["legal"]:
                option = v["legal"][rng.randrange(len(v["legal"]))]
                ws.send_json({"type": "play", "option": option, "moves": v["moves"]})
        else:
            pytest.fail("the game did not end")
    final = records.loads(client.get(f"/api/games/{game['id']}/record").text)
    assert final.is_over and final.game.variant == variant
    return final


# ---------------------------------------------------------------------- refusals

def test_illegal_and_malformed_messages_get_an_error_and_change_nothing(client):
    game = create(client, seats=humans(2), seed=1, autoplay=False)
    blue = join(client, game, 1)
    gid = game["id"]
    with client.websocket_connect(f"/ws/{gid}?token={game['token']}") as ws:
        first = next_state(ws)
        bad = [("{not json", "malformed"),
               (json.dumps([1, 2]), "malformed"),
               (json.dumps({"type": "dance"}), "malformed"),
               (json.dumps({"type": "play", "option": 7}), "malformed"),
               (json.dumps({"type": "play", "option": "place 99", "moves": 0}), "illegal"),
               (json.dumps({"type": "play", "option": "fly away", "moves": 0}), "illegal"),
               (json.dumps({"type": "play", "option": "run", "moves": 0}), "illegal"),
               (json.dumps({"type": "play", "option": "place 0"}), "malformed"),
               (json.dumps({"type": "play", "option": "place 0", "moves": 3}), "stale"),
               (json.dumps({"type": "play", "option": "place 0", "moves": "0"}), "malformed")]
        for text, code in bad:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == code, (text, msg)
            assert msg["message"]
        ws.send_json({"type": "state"})
        assert next_state(ws)["view"] == first["view"]
        # Blue may not act while Red is to move, nor a spectator ever.
        with client.websocket_connect(f"/ws/{gid}?token={blue}") as ws_blue:
            next_state(ws_blue)
            ws_blue.send_json({"type": "play", "option": "place 0", "moves": 0})
            msg = ws_blue.receive_json()
            assert msg["code"] == "not_your_turn" and "Red's turn" in msg["message"]
        with client.websocket_connect(f"/ws/{gid}") as spectator:
            assert next_state(spectator)["you"] is None
            spectator.send_json({"type": "play", "option": "place 0", "moves": 0})
            assert spectator.receive_json()["code"] == "spectator"
            spectator.send_json({"type": "hint"})
            assert spectator.receive_json()["code"] == "not_your_turn"
    with client.websocket_connect(f"/ws/{gid}?token=forged") as ws:
        assert ws.receive_json()["code"] == "bad_token"
    assert client.get(f"/api/games/{gid}").json()["moves"] == 0
    assert client.get(f"/api/games/{gid}/record").status_code == 409  # not over yet


def test_any_seat_may_declare_a_stalemate_at_a_repeat_even_not_to_move(client, tmp_path):
    """C9 manual: at a repeated position a seat that is not to move declares with its own
    token; the game ends by the stalemate tie-break, stored before it is broadcast. Before the
    repeat the same declaration is refused with a clear error and changes nothing."""
    from helpers import placements

    program = ["AddFlag", "MoveFlag", "RemoveFlag", "Bug", "ForkBomb"]
    game = create(client, level=1, players=2, seats=humans(2), program=program,
                  options={"stalemate": "manual"}, autoplay=False)
    db = str(tmp_path / "games.db")
    tokens = [game["token"], join(client, game, 1)]
    gid = game["id"]
    mirror = spaghetti.new_game(1, 2, program=program, options={"stalemate": "manual"})
    actions = placements(1, 2, [[0, 1, 2, 3], [1, 2, 3, 4]]) + ["pass"] * 8
    with client.websocket_connect(f"/ws/{gid}?token={tokens[0]}") as red, \
            client.websocket_connect(f"/ws/{gid}?token={tokens[1]}") as blue, \
            client.websocket_connect(f"/ws/{gid}") as spectator:
        conns = [red, blue]
        next_state(red), next_state(red), next_state(red), next_state(blue), next_state(blue)
        next_state(spectator)
        for i, option in enumerate(actions):
            if i == len(actions) - 8:  # the first turn: no repeat yet
                assert mirror.to_move == 0 and not mirror.repeated
                blue.send_json({"type": "play", "option": "declare", "moves": i})
                msg = blue.receive_json()
                assert msg["type"] == "error" and msg["code"] == "illegal", msg
                assert "not a repeat" in msg["message"]
                assert stored_actions(db, gid) == i
                blue.send_json({"type": "state"})
                again = next_state(blue)
                assert again["view"] == view(mirror, 1) and not again["may_declare"]
            conns[mirror.to_move].send_json({"type": "play", "option": option,
                                             "moves": len(mirror.history)})
            mirror.apply(option)
            for seat, ws in enumerate(conns):
                msg = next_state(ws)
                assert msg["view"] == view(mirror, seat)
                assert msg["may_declare"] == mirror.repeated
            assert next_state(spectator)["may_declare"] is False
        assert mirror.repeated and mirror.to_move == 0
        # Blue, not to move, is told it may declare, with what a declaration would mean.
        assert "declare" in msg["labels"] and "would win" in msg["labels"]["declare"]
        assert msg["view"]["legal"] == []
        spectator.send_json({"type": "play", "option": "declare",
                             "moves": len(mirror.history)})
        assert spectator.receive_json()["code"] == "spectator"
        blue.send_json({"type": "play", "option": "declare", "moves": len(mirror.history)})
        expected = mirror.copy()
        expected.declare(1)
        for ws in (red, blue, spectator):
            msg = next_state(ws)
            assert msg["view"]["phase"] == "over" and msg["view"]["result"] == "stalemate"
            assert msg["may_declare"] is False
        assert msg["log"][-1]["text"].startswith("Blue declared a stalemate.")
        assert stored_actions(db, gid) == len(expected.history)
    final = records.loads(client.get(f"/api/games/{gid}/record").text)
    assert final.is_over and final.reason == "stalemate"
    assert final.history == expected.history and final.winner == expected.winner


def test_a_connection_switches_language(client):
    game = create(client, seats=humans(2), seed=4, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        assert next_state(ws)["status"].startswith("Red: place a flag")
        ws.send_json({"type": "lang", "lang": "ja"})
        msg = next_state(ws)
        assert msg["status"].startswith("赤:") and "置く" in next(iter(msg["labels"].values()))
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_dropped_connection_finds_the_game_as_it_was(client):
    game = create(client, seats=humans(2), seed=4, autoplay=False)
    url = f"/ws/{game['id']}?token={game['token']}"
    with client.websocket_connect(url) as ws:
        next_state(ws)
        ws.send_json({"type": "play", "option": "place 1", "moves": 0})
        before = next_state(ws)
    with client.websocket_connect(url) as ws:
        after = next_state(ws)
    assert after["view"] == before["view"] and after["view"]["moves"] == 1
    assert after["log"][-1]["text"].startswith("Red placed a flag on")


# ---------------------------------------------------------------------- no leaks

SETUPS = [(1, 2, {}), (2, 3, {}), (3, 2, {}), (2, 4, {"reverse_priority": True}),
          (3, 3, {"memory": True, "stalemate": "manual"}), (1, 5, {"placement_order": "snake"}),
          # hidden information: instant cards, face-down cards (also laid out by A)
          (3, 2, {"instant_cards": True, "sequential_open": True}),
          (2, 2, {"fair_first": True, "sequential_open": True, "instant_cards": True}),
          (1, 3, {"interrupt": True})]


@pytest.mark.slow
def test_every_seat_hears_only_its_own_view_over_many_random_games(client):
    """Every message to a seat holds that seat's view and, only when it is to move, the words
    for its options; spectators get the observer's view and no options."""
    rng = random.Random(2024)
    checked = 0
    for g in range(27):
        level, players, options = SETUPS[g % len(SETUPS)]
        seed = rng.randrange(10_000)
        game = create(client, level=level, players=players, options=options,
                      seats=humans(players), seed=seed, autoplay=False)
        tokens = [game["token"]] + [join(client, game, s) for s in range(1, players)]
        mirror = Game(level=level, players=players, options=options).new_state(None, seed)
        viewers = list(range(players)) + ["observer"]
        with _connect_all(client, game["id"], tokens) as conns:
            for j, ws in enumerate(conns):  # one broadcast per later join
                for _ in range(len(conns) - j):
                    _check(next_state(ws), mirror, viewers[j])
            for _ in range(150):
                if mirror.is_over:
                    break
                option = rng.choice(mirror.legal())
                conns[mirror.to_move].send_json({"type": "play", "option": option,
                                                 "moves": len(mirror.history)})
                mirror.apply(option)
                for viewer, ws in zip(viewers, conns):
                    _check(next_state(ws), mirror, viewer)
                    checked += 1
    assert checked > 1000


def _check(msg: dict, state, viewer) -> None:
    assert msg["type"] == "state"
    assert msg["view"] == view(state, viewer)
    if viewer == "observer" or viewer != state.to_move:
        # C9 manual: a seat not to move may still declare at a repeat (public words only).
        may = viewer != "observer" and state.may_declare(viewer)
        assert msg["may_declare"] == may
        assert set(msg["labels"]) == ({"declare"} if may else set())
        assert msg["view"]["legal"] == []
    else:
        assert set(msg["labels"]) == set(state.legal())
    assert msg["you"] == (None if viewer == "observer" else viewer)


class _connect_all:
    """Open one connection per seat token and one spectator, in that order."""

    def __init__(self, client, gid, tokens):
        self.cms = [client.websocket_connect(f"/ws/{gid}?token={t}") for t in tokens]
        self.cms.append(client.websocket_connect(f"/ws/{gid}"))

    def __enter__(self):
        return [cm.__enter__() for cm in self.cms]

    def __exit__(self, *exc):
        for cm in reversed(self.cms):
            cm.__exit__(None, None, None)


# ---------------------------------------------------------------------- replay any record

def test_replay_of_a_record_file_and_its_clear_errors(client):
    state = Game().new_state(None, 3)
    for option in ["place 0", "place 1", "place 2"]:
        state.apply(option)
    good = client.post("/api/replay", content=records.dumps(state))
    assert good.status_code == 200
    assert [f["view"]["moves"] for f in good.json()["frames"]] == [0, 1, 2, 3]
    bad = json.loads(records.dumps(state))
    bad["actions"][2] = "place 9"
    res = client.post("/api/replay", json=bad)
    assert res.status_code == 400 and res.json()["error"].startswith("actions[2] 'place 9'")
    res = client.post("/api/replay", json={"format": "chess"})
    assert res.status_code == 400 and "format" in res.json()["error"]


def test_meta_lists_cards_in_both_languages_and_every_option(client):
    meta = client.get("/api/meta").json()
    assert meta["cards"]["Bug"]["name"] == {"en": "Bug", "ja": "バグ"}
    assert set(meta["options"]) >= {"placement_order", "stalemate", "memory"}
    assert "easy" in meta["difficulties"]
    words = meta["difficulty_words"]
    assert set(words) == set(meta["difficulties"])
    assert "1 s" in words["normal"]["en"] and "1手1秒" in words["normal"]["ja"]
    page = client.get("/g/whatever")
    assert page.status_code == 200 and "common.js" in page.text
    assert client.get("/static/common.js").status_code == 200


# ---------------------------------------------------------------------- clock, hints, workers

def test_when_a_clock_runs_out_the_computer_takes_the_seat_over(client):
    game = create(client, seats=humans(2), seed=3, clock=1, autoplay=False)
    blue = join(client, game, 1)
    with client.websocket_connect(f"/ws/{game['id']}?token={blue}") as ws:
        msg = next_state(ws)
        assert msg["clock"][0] <= 1 and msg["clock"][1] == 1
        for _ in range(20):
            msg = next_state(ws)
            if msg["view"]["moves"] >= 1:
                break
        seats = msg["seats"]
        assert seats[0]["flag_fell"] and seats[0]["kind"] == "computer"
        assert msg["clock"][0] == 0
        assert msg["view"]["moves"] >= 1  # Red's placement was played for it
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["seats"][0]["flag_fell"] and not summary["seats"][1]["flag_fell"]


def test_a_hint_goes_to_the_seat_to_move(client):
    game = create(client, seats=humans(2), seed=3, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        legal = next_state(ws)["view"]["legal"]
        ws.send_json({"type": "hint"})
        hint = ws.receive_json()
        assert hint["type"] == "hint" and hint["moves"] == 0
        assert {row["option"] for row in hint["options"]} == set(legal)
        assert all(0 <= row["chance"] <= 1 and row["label"] for row in hint["options"])


def test_the_server_answers_while_a_computer_thinks(client):
    import time

    game = create(client, seats=[{"kind": "computer", "difficulty": "normal"}, {"kind": "human"}],
                  seed=3)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        msg = next_state(ws)
        assert msg["you"] == 1
        started = time.perf_counter()
        assert client.get("/api/meta").status_code == 200
        assert client.get(f"/api/games/{game['id']}").json()["moves"] == 0  # still thinking
        assert time.perf_counter() - started < 0.3
        while msg["view"]["moves"] == 0:
            msg = next_state(ws)
        assert msg["view"]["moves"] == 1


# ---------------------------------------------------------------------- the command

def test_serve_reports_a_bad_database_or_a_taken_port_in_one_line(tmp_path):
    import socket

    from click.testing import CliRunner

    from spaghetti.cli.main import cli

    bad = tmp_path / "not-a-db.db"
    bad.write_text("hello")
    res = CliRunner().invoke(cli, ["serve", "--db", str(bad)])
    assert res.exit_code == 2
    assert "cannot use this file as the games database" in res.output
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        res = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "g.db"),
                                       "--port", str(port)])
    assert res.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in res.output
    assert "Traceback" not in res.output
    help_text = CliRunner().invoke(cli, ["serve", "--help"]).output
    assert "--db" in help_text and "--open" in help_text and "--host" in help_text


def test_after_a_restart_a_computer_to_move_plays_on(tmp_path):
    db = str(tmp_path / "games.db")
    seats = [{"kind": "human"}, {"kind": "computer", "difficulty": "random"}]
    with TestClient(create_app(db, autoplay_delay=60)) as first:  # the computer never moves
        game = create(first, seats=seats, seed=8)
        with first.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
            legal = next_state(ws)["view"]["legal"]
            ws.send_json({"type": "play", "option": legal[0], "moves": 0})
            assert next_state(ws)["view"]["to_move"] == 1
    with TestClient(create_app(db, autoplay_delay=0)) as second:
        with second.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
            msg = next_state(ws)
            assert msg["view"]["moves"] == 1 and msg["log"][0]["text"].startswith("Red placed")
            while msg["view"]["moves"] < 2:
                msg = next_state(ws)
            assert msg["view"]["to_move"] == 0 and msg["view"]["legal"]


def test_without_worker_processes_the_computer_still_plays(tmp_path):
    class NoProcesses:
        def submit(self, *args, **kwargs):
            raise RuntimeError("processes cannot be started here")

        def shutdown(self, *args, **kwargs):
            pass

    app = create_app(str(tmp_path / "games.db"), autoplay_delay=0)
    with TestClient(app) as client:
        app.state.hall.executor = NoProcesses()
        game = create(client, seats=[{"kind": "computer", "difficulty": "easy"},
                                     {"kind": "human"}], seed=3)
        with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
            msg = next_state(ws)
            while msg["view"]["moves"] == 0:
                msg = next_state(ws)
        assert msg["view"]["moves"] >= 1 and app.state.hall.executor is None


def test_analysis_of_any_position_of_a_record(client):
    state = Game().new_state(None, 6)
    for option in ["place 0", "place 1", "place 2"]:
        state.apply(option)
    data = json.loads(records.dumps(state))
    res = client.post("/api/analyse?lang=ja", json={"record": data, "upto": 2})
    assert res.status_code == 200, res.text
    answer = res.json()
    assert answer["to_move"] == 0 and answer["moves"] == 2
    assert {row["option"] for row in answer["options"]} == set(
        records.replay(data, 2).legal())
    assert "置く" in answer["options"][0]["label"]
    for body, message in [({"record": data, "upto": -1}, "upto must be"),
                          ({"upto": 1}, "send {"),
                          ({"record": {"format": "x"}}, "format")]:
        res = client.post("/api/analyse", json=body)
        assert res.status_code == 400 and message in res.json()["error"]


def test_a_move_the_database_refuses_is_not_played(tmp_path):
    import sqlite3

    app = create_app(str(tmp_path / "games.db"), autoplay_delay=0)
    with TestClient(app) as client:
        game = create(client, seats=humans(2), seed=2, autoplay=False)
        store = app.state.hall.store
        real_save = store.save

        def failing_save(*args):
            raise sqlite3.OperationalError("disk I/O error")

        with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
            first = next_state(ws)["view"]
            store.save = failing_save
            ws.send_json({"type": "play", "option": first["legal"][0], "moves": 0})
            msg = ws.receive_json()
            assert msg["code"] == "storage" and "not played" in msg["message"]
            store.save = real_save
            ws.send_json({"type": "state"})
            assert next_state(ws)["view"] == first
            ws.send_json({"type": "play", "option": first["legal"][0], "moves": 0})
            assert next_state(ws)["view"]["moves"] == 1


# ---------------------------------------------------------------------- no client stalls the rest

def test_a_client_that_never_reads_is_dropped_and_the_others_hear_every_move(tmp_path):
    """A spectator asks for the state 800 times (about 8 MB of answers if all were answered:
    more than the sockets' buffers hold) and never reads. The two players meanwhile get every
    move within a second. (The server answers the first ten in full and the rest with a short
    error: state requests are limited per connection; what is queued for the stalled client
    waits in its own queue.)"""
    import time

    import httpx
    from websockets.sync.client import connect

    from web_helpers import ServerThread, stalled_client

    server = ServerThread(str(tmp_path / "games.db"))
    with server as url:
        game = httpx.post(url + "/api/games", json={
            "level": 3, "players": 2, "seats": humans(2), "seed": 4, "autoplay": False}).json()
        blue = httpx.post(f"{url}/api/games/{game['id']}/claim",
                          json={"invite": game["invites"]["1"]}).json()["token"]
        table = server.app.state.hall.tables[game["id"]]
        ws_base = url.replace("http://", "ws://") + f"/ws/{game['id']}?token="
        with connect(ws_base + game["token"]) as red_ws, connect(ws_base + blue) as blue_ws:
            conns = [red_ws, blue_ws]
            stalled = stalled_client(server.port, game["id"], 800)
            time.sleep(0.3)  # its answers fill the sockets' buffers
            try:
                mirror = Game(level=3, players=2).new_state(None, 4)
                rng = random.Random(9)
                for _ in range(40):
                    if mirror.is_over:
                        break
                    option = rng.choice(mirror.legal())
                    sent = time.monotonic()
                    conns[mirror.to_move].send(json.dumps({
                        "type": "play", "option": option, "moves": len(mirror.history)}))
                    mirror.apply(option)
                    for seat, ws in enumerate(conns):
                        while True:  # skip the joins and leaves before this move
                            msg = json.loads(ws.recv(timeout=1.0))
                            assert msg["type"] == "state", msg
                            if msg["view"]["moves"] == len(mirror.history):
                                break
                        assert msg["view"] == view(mirror, seat)
                        assert time.monotonic() - sent < 1.0
                assert [c.seat for c in table.conns][:2] == [0, 1]
                assert all(not c.dropped.is_set() for c in table.conns[:2])
            finally:
                stalled.close()


def test_a_connection_too_far_behind_is_dropped_and_sending_never_waits():
    """The queue of one connection: its sender is stuck (the client reads nothing); queueing
    never waits, and once QUEUE_SIZE messages wait the connection is dropped."""
    import asyncio

    from spaghetti.web.tables import QUEUE_SIZE, Connection

    async def scenario() -> None:
        stuck = asyncio.Event()
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)
            await stuck.wait()  # the socket's buffers are full: never returns

        conn = Connection(send, "observer")
        conn.start()
        assert conn.send("first")
        await asyncio.sleep(0.01)  # the sender took it and is stuck in the socket
        assert sent == ["first"]
        for i in range(QUEUE_SIZE):
            assert conn.send(f"m{i}") and not conn.dropped.is_set()
        assert not conn.send("one too many")
        assert conn.dropped.is_set()
        await asyncio.sleep(0.01)
        assert conn.task is not None and conn.task.done()
        assert not conn.send("after")

    asyncio.run(scenario())


def test_state_requests_are_limited_per_connection(client):
    game = create(client, seats=humans(2), seed=1, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        next_state(ws)
        for _ in range(10):
            ws.send_json({"type": "state"})
            assert next_state(ws)["type"] == "state"
        ws.send_json({"type": "state"})
        msg = ws.receive_json()
        assert msg["code"] == "rate_limited" and "too many state requests" in msg["message"]
        ws.send_json({"type": "state"})  # told once: the rest get nothing
        ws.send_json({"type": "play", "option": "place 0", "moves": 0})  # moves still count
        assert next_state(ws)["view"]["moves"] == 1


def test_a_binary_frame_gets_a_clear_error_and_the_connection_stays(client):
    game = create(client, seats=humans(2), seed=1, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        next_state(ws)
        ws.send_bytes(b"\x00\x01binary")
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "malformed"
        assert "binary frames are not understood" in msg["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("[" * 3000)  # nested deeper than any record: the same
        assert ws.receive_json()["code"] == "malformed"
        ws.send_json({"type": "play", "option": "place 0", "moves": 0})
        assert next_state(ws)["view"]["moves"] == 1


# ---------------------------------------------------------------------- one way in for a move

def _game_ending_in_a_forced_move() -> tuple[int, list[str]]:
    """A seed and the moves of a level-2 game whose last move was the only legal option."""
    for seed in range(500):
        state = Game(level=2, players=2).new_state(None, seed)
        rng = random.Random(seed)
        moves, forced = [], False
        while not state.is_over:
            legal = state.legal()
            forced = len(legal) == 1
            option = rng.choice(legal)
            moves.append(option)
            state.apply(option)
        if forced:
            return seed, moves
    raise AssertionError("no such game in 500 seeds")


def test_the_computer_is_never_asked_to_move_in_a_finished_game(tmp_path, caplog):
    """The race of the issue: with forced moves played by themselves after a delay, the player
    sends the game's last (forced) move himself inside the delay. The automatic move then finds
    the game over and asks nobody; no computer is asked to choose in a finished position."""
    import time

    seed, moves = _game_ending_in_a_forced_move()
    app = create_app(str(tmp_path / "games.db"), autoplay_delay=1.0)
    asked: list[bool] = []

    async def spy(fn, record, *args):  # instead of a worker process: note the position
        asked.append(records.loads(record).is_over)
        return records.loads(record).legal()[0]

    with TestClient(app) as client:
        hall = app.state.hall
        hall._in_worker = spy
        game = create(client, level=2, seats=humans(2), seed=seed, autoplay=True)
        tokens = [game["token"], join(client, game, 1)]
        mirror = Game(level=2, players=2).new_state(None, seed)
        with client.websocket_connect(f"/ws/{game['id']}?token={tokens[0]}") as red, \
                client.websocket_connect(f"/ws/{game['id']}?token={tokens[1]}") as blue:
            conns = [red, blue]
            for option in moves:
                ws = conns[mirror.to_move]
                ws.send_json({"type": "play", "option": option, "moves": len(mirror.history)})
                mirror.apply(option)
                while True:
                    msg = next_state(ws)
                    assert msg["type"] == "state", msg
                    if msg["view"]["moves"] == len(mirror.history):
                        break
            assert msg["view"]["phase"] == "over"
            time.sleep(1.5)  # past the delay of the automatic move that lost the race
            assert not hall.tasks
        final = records.loads(client.get(f"/api/games/{game['id']}/record").text)
    assert final.history == mirror.history
    assert True not in asked  # never asked in a finished game
    assert "failed" not in caplog.text


def test_the_same_move_from_two_tabs_of_one_seat_is_played_once(client, tmp_path):
    """Both tabs send the same move for move 0: it is played once, and the second tab just
    gets the state. Another option for the same move number is refused as stale."""
    game = create(client, seats=humans(2), seed=6, autoplay=False)
    url = f"/ws/{game['id']}?token={game['token']}"
    with client.websocket_connect(url) as tab1, client.websocket_connect(url) as tab2:
        first = next_state(tab1)
        next_state(tab1), next_state(tab2)  # tab2 joined
        option, other = first["view"]["legal"][:2]
        tab1.send_json({"type": "play", "option": option, "moves": 0})
        tab2.send_json({"type": "play", "option": option, "moves": 0})
        assert next_state(tab1)["view"]["moves"] == 1
        for _ in range(2):  # the broadcast and the answer to its own (repeated) move
            msg = next_state(tab2)
            assert msg["type"] == "state" and msg["view"]["moves"] == 1, msg
        tab2.send_json({"type": "play", "option": other, "moves": 0})
        msg = tab2.receive_json()
        assert msg["type"] == "error" and msg["code"] == "stale"
    assert stored_actions(str(tmp_path / "games.db"), game["id"]) == 1
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 1


# ---------------------------------------------------------------------- schemas, echoes, limits

def test_requests_outside_the_documented_ranges_are_refused_with_one_sentence(client):
    cases = [({"you": True}, "you is the creator's seat"),
             ({"you": 1}, "you must be a human seat: one of [0]"),
             ({"clock": 0.001}, "clock is seconds per player, 1 to 86400, or null"),
             ({"clock": "600"}, "clock is seconds per player"),
             ({"options": []}, "options is an object"),
             ({"level": "2"}, "level must be one of 1, 2, 3"),
             ({"seats": "all"}, "seats must list one seat per player"),
             ({"autoplay": "yes"}, "autoplay must be true or false"),
             ([1, 2], "the request must be a JSON object")]
    for body, message in cases:
        res = client.post("/api/games", json=body)
        assert res.status_code == 400, (body, res.text)
        assert message in res.json()["error"], (body, res.json())
    res = client.post("/api/games/whatever/claim", json={"invite": 7})
    assert res.status_code == 400 and "invite" in res.json()["error"]


def test_a_huge_illegal_value_is_not_echoed_back_whole(client):
    huge = "x" * 5_000_000
    res = client.post("/api/games", content=json.dumps({"options": {"stalemate": huge}})[:999_000]
                      + '"}}')
    assert res.status_code == 400 and len(res.text) < 300, res.text[:300]
    res = client.post("/api/games", json={"options": {"stalemate": "y" * 100_000}})
    assert res.status_code == 400 and len(res.text) < 300
    res = client.post("/api/games", json={"options": {"z" * 100_000: True}})
    assert res.status_code == 400 and len(res.text) < 300
    game = create(client, seats=humans(2), seed=1, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        next_state(ws)
        ws.send_json({"type": "play", "option": "fly " + "a" * 90, "moves": 0})
        msg = ws.receive_json()  # an illegal option: quoted, it is short
        assert msg["code"] == "illegal" and len(msg["message"]) < 450  # with the forms
        ws.send_json({"type": "play", "option": "a" * 3000, "moves": 0})
        msg = ws.receive_json()
        assert msg["code"] == "malformed" and "at most 100 characters" in msg["message"]
        assert len(msg["message"]) < 200
        ws.send_text(json.dumps({"type": "play", "option": "a" * 5_000_000, "moves": 0}))
        msg = ws.receive_json()
        assert msg["code"] == "too_large" and len(msg["message"]) < 200
        ws.send_json({"type": "lang", "lang": "fr"})
        assert "lang is 'en' or 'ja'" in ws.receive_json()["message"]
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_hints_and_analyses_are_rate_limited_per_client(client):
    """Four at once, then one every two seconds; the fifth gets 429 and a clear message, over
    HTTP and over the WebSocket alike (one bucket per client)."""
    for _ in range(4):  # each request counts, a refused one too (here: no record: cheap)
        assert client.post("/api/analyse", json={"upto": 1}).status_code == 400
    res = client.post("/api/analyse", json={"upto": 1})
    assert res.status_code == 429
    assert res.json()["code"] == "rate_limited" and "too many hints and analyses" in \
        res.json()["error"]
    assert int(res.headers["Retry-After"]) >= 1
    game = create(client, seats=humans(2), seed=3, autoplay=False)
    with client.websocket_connect(f"/ws/{game['id']}?token={game['token']}") as ws:
        next_state(ws)
        ws.send_json({"type": "hint"})
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "rate_limited"
        ws.send_json({"type": "ping"})  # the connection stays
        assert ws.receive_json() == {"type": "pong"}
    hall = client.app.state.hall
    hall.buckets.left.clear()  # the time has passed
    assert client.post("/api/analyse", json={"upto": 1}).status_code == 400


def test_puzzle_api_serves_a_proven_puzzle_and_checks_answers_with_clear_errors(client):
    p = client.get("/api/puzzle?n=2&lang=ja").json()
    assert p["n"] == 2 and p["legal"] and set(p["labels"]) == set(p["legal"])
    assert p["view"]["phase"] == "execution" and p["turns"] >= 1
    day = client.get("/api/puzzle").json()
    assert 1 <= day["n"] <= day["total"]
    answers = [client.post("/api/puzzle/answer", json={"n": 2, "option": o}).json()
               for o in p["legal"]]
    assert sum(a["right"] for a in answers) == 1  # exactly one option wins (the proof)
    assert all(a["line"] and a["said"] for a in answers if a["right"])
    for bad, word in (("/api/puzzle?n=0", "puzzle number"), ("/api/puzzle?n=x", "puzzle number")):
        res = client.get(bad)
        assert res.status_code == 400 and word in res.json()["error"]
    res = client.post("/api/puzzle/answer", json={"n": 2, "option": "x" * 5000})
    assert res.status_code == 400 and len(res.json()["error"]) < 400


# ---------------------------------------------------------------------- numbers JSON has not

#: Numbers a body or message may hold that Python's decoder takes but no field can use: past
#: its limit on digits, infinite once read, or not JSON at all.
BAD_NUMBERS = ["9" * 5000, "-" + "9" * 5000, "Infinity", "-Infinity", "1e400", "NaN"]


def _post_routes(app) -> list[str]:
    from starlette.routing import Route

    return [r.path for r in app.routes if isinstance(r, Route) and "POST" in (r.methods or ())]


@pytest.mark.parametrize("number", BAD_NUMBERS)
def test_every_post_route_answers_a_number_json_cannot_hold_with_400_and_a_message(client,
                                                                                      number):
    game = create(client, seats=humans(2), seed=1, autoplay=False)
    routes = _post_routes(client.app)
    assert len(routes) >= 11 and "/api/puzzle/answer" in routes
    for path in routes:
        res = client.post(path.replace("{id}", game["id"]), content=f'{{"n": {number}}}',
                          headers={"Content-Type": "application/json"})
        assert res.status_code == 400, (path, res.status_code, res.text[:200])
        body = res.json()
        assert body["code"] == "malformed" and "finite number" in body["error"], path
        assert len(body["error"]) < 200  # the digits are not echoed back whole


def test_a_puzzle_number_must_be_a_whole_number(client):
    for n in ("Infinity", "1e400", "2.5", "true", '"2"', "1" + "0" * 900):
        res = client.post("/api/puzzle/answer", content=f'{{"n": {n}, "option": "run"}}')
        assert res.status_code == 400 and res.json()["error"], (n, res.text[:200])
        assert len(res.json()["error"]) < 200
    res = client.get("/api/puzzle?n=" + "9" * 5000)
    assert res.status_code == 400 and "puzzle number" in res.json()["error"]


def test_a_message_with_a_number_json_cannot_hold_gets_an_error_and_the_connection_stays(
        tmp_path):
    """Over a real server, so that a dropped connection fails the test rather than hanging it."""
    import httpx
    from websockets.sync.client import connect

    from web_helpers import ServerThread

    with ServerThread(str(tmp_path / "games.db")) as url:
        game = httpx.post(url + "/api/games", json={"seats": humans(2), "seed": 1,
                                                    "autoplay": False}).json()
        ws_url = url.replace("http://", "ws://") + f"/ws/{game['id']}?token={game['token']}"
        with connect(ws_url) as ws:
            json.loads(ws.recv(timeout=10))
            for number in BAD_NUMBERS:
                ws.send(f'{{"type": "play", "option": "place 0", "moves": {number}}}')
                msg = json.loads(ws.recv(timeout=10))
                assert msg["type"] == "error" and msg["code"] == "malformed", number
                assert "finite number" in msg["message"] and len(msg["message"]) < 200
            ws.send(json.dumps({"type": "play", "option": "place 0", "moves": 0}))
            assert json.loads(ws.recv(timeout=10))["view"]["moves"] == 1
