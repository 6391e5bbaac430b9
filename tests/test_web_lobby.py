"""The lobby over the wire (Starlette's TestClient): names, play now, joining a waiting game,
rematches, ratings after rated games (fixed for the computer), finished games, and the clear
refusal of every bad request."""

from __future__ import annotations

import random
import sqlite3
import time

import pytest
from starlette.testclient import TestClient

from spaghetti.web import create_app
from spaghetti.web.ratings import COMPUTER, SCALE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def player(client, name: str) -> dict:
    res = client.post("/api/players", json={"name": name})
    assert res.status_code == 201, res.text
    return res.json()


def play_now(client, who: dict, **seek) -> dict:
    res = client.post("/api/lobby/play", json={"player": who["token"], **seek})
    assert res.status_code == 200, res.text
    return res.json()


def profile(client, who: dict) -> dict:
    res = client.get(f"/api/players/{who['id']}")
    assert res.status_code == 200, res.text
    return res.json()


def state(client, game_id: str, token: str | None = None) -> dict:
    """The state message a seat (or a spectator) gets on connecting."""
    with client.websocket_connect(f"/ws/{game_id}" + (f"?token={token}" if token else "")) as ws:
        return ws.receive_json()


def play_to_the_end(client, game_id: str, tokens: dict[int, str], seed: int = 0) -> dict:
    """Random legal moves for the seats of ``tokens`` until the game is over; the last state.
    Each move on a fresh connection of the seat to move (the others' moves, the computer's and
    the forced ones go on meanwhile on the server)."""
    rng = random.Random(seed)
    seat = next(iter(tokens))
    for _ in range(5000):
        with client.websocket_connect(f"/ws/{game_id}?token={tokens[seat]}") as ws:
            msg = ws.receive_json()
            v = msg["view"]
            if v["phase"] == "over":
                return msg
            if v["to_move"] == seat and v["legal"]:
                ws.send_json({"type": "play", "option": rng.choice(v["legal"]),
                              "moves": v["moves"]})
                ws.receive_json()  # the new state, or "stale" if a forced move came first
            elif v["to_move"] in tokens:
                seat = v["to_move"]
            else:
                time.sleep(0.005)  # the computer's move, or the coin's
    pytest.fail("the game did not end")


# ---------------------------------------------------------------------- names

def test_a_player_picks_a_name_kept_trimmed_and_can_rename(client):
    ada = player(client, "  Ada  ")
    assert ada["name"] == "Ada" and ada["rating"] == 1500 and ada["provisional"]
    assert ada["token"] and ada["finished"] == []
    seen = profile(client, ada)
    assert seen["name"] == "Ada" and "token" not in seen
    res = client.post("/api/players/me", json={"token": ada["token"], "name": "エイダ"})
    assert res.status_code == 200 and res.json()["name"] == "エイダ"
    assert profile(client, ada)["name"] == "エイダ"
    wrong = client.post("/api/players/me", json={"token": "not-a-token"})
    assert wrong.status_code == 403 and wrong.json()["code"] == "bad_player"
    assert client.get("/api/players/nobody").status_code == 404


@pytest.mark.parametrize("body", [
    {"name": ""}, {"name": "   "}, {"name": "a\x00b"}, {"name": "tab\there"},
    {"name": "bidi\u202eevil"}, {"name": "x" * 25}, {"name": "y" * 5000}, {"name": 7},
    {"name": None}, {}])
def test_bad_names_are_refused_with_one_sentence(client, body):
    res = client.post("/api/players", json=body)
    assert res.status_code == 400, res.text
    assert "name is 1 to 24 characters" in res.json()["error"]
    assert "y" * 200 not in res.json()["error"]


def test_bad_lobby_requests_get_a_clear_error_never_a_crash(client):
    ada = player(client, "Ada")
    cases = [
        ("/api/players", {"name": "Bo", "rating": 3000}, 400, "unknown field 'rating'"),
        ("/api/players/me", {"name": "Bo"}, 400, "token is missing"),
        ("/api/lobby/play", {"player": ada["token"], "level": 9}, 400, "level must be one of"),
        ("/api/lobby/play", {"player": ada["token"], "players": "2"}, 400, "players must be"),
        ("/api/lobby/play", {"player": "guess"}, 403, "not known"),
        ("/api/lobby/play", {"player": ada["token"], "variant": "chess"}, 400, "unknown variant"),
        ("/api/lobby/play", [1, 2], 400, "must be a JSON object"),
        ("/api/games/nope/join", {"player": ada["token"]}, 404, "no such game"),
        ("/api/games/nope/join", {}, 400, "player is missing"),
        ("/api/games/nope/rematch", {"token": "x"}, 404, "no such game"),
        ("/api/games", {"rated": True, "seed": 3, "player": ada["token"]}, 400,
         "dealt at random"),
        ("/api/games", {"rated": True}, 403, "player token"),
        ("/api/games", {"lobby": "yes"}, 400, "lobby must be true or false"),
    ]
    for path, body, status, words in cases:
        res = client.post(path, json=body)
        assert res.status_code == status, (path, body, res.text)
        assert words in res.json()["error"], (path, body, res.text)
    res = client.post("/api/lobby/play", content=b"{oops")
    assert res.status_code == 400 and res.json()["code"] == "malformed"


def test_the_database_keeps_only_a_digest_of_the_player_token(client, tmp_path):
    ada = player(client, "Ada")
    with open(tmp_path / "games.db", "rb") as db:
        data = db.read()
    wal = tmp_path / "games.db-wal"
    if wal.exists():
        data += wal.read_bytes()
    assert b"Ada" in data and ada["token"].encode() not in data


# ---------------------------------------------------------------------- the lobby

def test_play_now_pairs_two_players_into_one_game(client):
    ada, bob = player(client, "Ada"), player(client, "Bob")
    first = play_now(client, ada)
    assert first["paired"] is False and first["seat"] == 0
    again = play_now(client, ada)  # never paired with itself: back to its own waiting game
    assert again == {"id": first["id"], "seat": 0, "token": None, "paired": False}
    listed = client.get("/api/lobby").json()["open"]
    assert [g["id"] for g in listed] == [first["id"]]
    assert listed[0]["seats"][0]["name"] == "Ada" and listed[0]["seats"][0]["rating"] == 1500
    assert listed[0]["seats"][1]["free"] and listed[0]["rated"]
    other = play_now(client, bob, players=3)  # another kind of game: no partner yet
    assert other["paired"] is False
    second = play_now(client, bob)
    assert second == {"id": first["id"], "seat": 1, "token": second["token"], "paired": True}
    listed = [g["id"] for g in client.get("/api/lobby").json()["open"]]
    assert first["id"] not in listed and other["id"] in listed
    msg = state(client, first["id"], second["token"])
    assert msg["you"] == 1 and msg["rated"]
    assert [(s["name"], s["rating"]) for s in msg["seats"]] == [("Ada", 1500), ("Bob", 1500)]


def test_a_waiting_game_gives_its_free_seats_to_whoever_joins(client):
    ada, bob, cy, dee = (player(client, n) for n in ("Ada", "Bob", "Cy", "Dee"))
    game = client.post("/api/games", json={
        "players": 3, "seats": [{"kind": "human"}] * 3, "player": ada["token"], "lobby": True})
    assert game.status_code == 201, game.text
    gid = game.json()["id"]
    join = lambda who: client.post(f"/api/games/{gid}/join", json={"player": who["token"]})
    assert join(ada).json()["code"] == "seated"
    assert join(bob).json()["seat"] == 1
    assert [s["free"] for s in client.get("/api/lobby").json()["open"][0]["seats"]] == [
        False, False, True]
    assert join(cy).json()["seat"] == 2
    assert client.get("/api/lobby").json()["open"] == []
    late = join(dee)
    assert late.status_code == 409 and late.json()["code"] == "not_listed"
    private = client.post("/api/games", json={"seats": [{"kind": "human"}] * 2}).json()
    res = client.post(f"/api/games/{private['id']}/join", json={"player": dee["token"]})
    assert res.status_code == 409  # only games of the lobby are open to anyone
    needs = client.post("/api/games", json={"player": ada["token"], "lobby": True})
    assert needs.status_code == 400 and "leave a seat to a person" in needs.json()["error"]


def test_a_seat_taken_by_invite_is_named_by_its_player_once(client):
    ada, bob, cy = player(client, "Ada"), player(client, "Bob"), player(client, "Cy")
    game = client.post("/api/games", json={"seats": [{"kind": "human"}] * 2,
                                           "player": ada["token"]}).json()
    seat = client.post(f"/api/games/{game['id']}/claim",
                       json={"invite": game["invites"]["1"]}).json()
    sit = lambda who, token: client.post(f"/api/games/{game['id']}/player",
                                         json={"token": token, "player": who["token"]})
    assert sit(ada, seat["token"]).json()["code"] == "seated"  # Ada sits at seat 0 already
    assert sit(bob, seat["token"]).status_code == 200
    assert sit(bob, seat["token"]).status_code == 200  # the same again: no harm
    assert sit(cy, seat["token"]).json()["code"] == "taken"
    assert sit(cy, "forged").status_code == 403
    assert [s["name"] for s in state(client, game["id"])["seats"]] == ["Ada", "Bob"]


# ---------------------------------------------------------------------- ratings and results

def test_a_rated_game_between_people_moves_both_ratings(client):
    ada, bob = player(client, "Ada"), player(client, "Bob")
    a, b = play_now(client, ada), play_now(client, bob)
    last = play_to_the_end(client, a["id"], {0: a["token"], 1: b["token"]}, seed=1)
    winner = last["view"]["winner"]
    after = [profile(client, ada), profile(client, bob)]
    best = client.get("/api/lobby").json()["best"]
    assert [p["rating"] for p in best] == sorted((p["rating"] for p in after), reverse=True)
    for seat, who in enumerate(after):
        assert who["games"] == 1
        done = who["finished"][0]
        assert done["game"] == a["id"] and done["rated"] and done["before"] == 1500
        assert done["after"] == who["rating"]
        assert [(o["seat"], o["name"]) for o in done["others"]] == [
            (1 - seat, ["Ada", "Bob"][1 - seat])]
        if winner is None:
            assert done["outcome"] == "draw"
        else:
            assert done["outcome"] == ("win" if seat == winner else "loss")
            assert (who["rating"] > 1500) == (seat == winner)
    # The table shows the new ratings beside the names.
    assert [s["rating"] for s in state(client, a["id"])["seats"]] == [
        p["rating"] for p in after]


def test_a_rated_game_against_the_computer_leaves_the_computer_rating_fixed(client):
    ada = player(client, "Ada")
    shown = round(COMPUTER["easy"] * SCALE)
    ratings = []
    for n in range(2):
        game = client.post("/api/games", json={
            "seats": [{"kind": "human"}, {"kind": "computer", "difficulty": "easy"}],
            "player": ada["token"], "rated": True}).json()
        before = state(client, game["id"], game["token"])
        assert before["seats"][1]["rating"] == shown and not before["seats"][1]["provisional"]
        last = play_to_the_end(client, game["id"], {0: game["token"]}, seed=n)
        assert last["seats"][1]["rating"] == shown  # fixed, whoever won
        ratings.append(profile(client, ada))
    assert [r["games"] for r in ratings] == [1, 2]
    best = client.get("/api/lobby").json()["best"]
    assert [(p["name"], p["rating"]) for p in best] == [("Ada", ratings[1]["rating"])]
    assert all(r["finished"][0]["before"] != r["finished"][0]["after"] for r in ratings)
    assert ratings[1]["finished"][0]["before"] == ratings[0]["rating"]


def test_an_unrated_game_is_listed_among_the_finished_games_and_moves_no_rating(client):
    ada = player(client, "Ada")
    game = client.post("/api/games", json={
        "seats": [{"kind": "human"}, {"kind": "computer", "difficulty": "random"}],
        "player": ada["token"], "seed": 4}).json()
    play_to_the_end(client, game["id"], {0: game["token"]})
    seen = profile(client, ada)
    assert seen["rating"] == 1500 and seen["games"] == 0
    assert client.get("/api/lobby").json()["best"] == []  # no rated game: not on the list
    assert [(g["game"], g["rated"], g["before"], g["others"]) for g in seen["finished"]] == [
        (game["id"], False, None, [{"seat": 1, "kind": "computer", "difficulty": "random",
                                    "name": None}])]


def test_a_game_with_an_unnamed_person_is_not_rated(client):
    ada = player(client, "Ada")
    game = client.post("/api/games", json={"seats": [{"kind": "human"}] * 2, "rated": True,
                                           "player": ada["token"]}).json()
    other = client.post(f"/api/games/{game['id']}/claim",
                        json={"invite": game["invites"]["1"]}).json()
    play_to_the_end(client, game["id"], {0: game["token"], 1: other["token"]})
    seen = profile(client, ada)
    assert seen["rating"] == 1500 and seen["finished"][0]["rated"] is False


# ---------------------------------------------------------------------- rematch

def test_rematch_offers_the_same_seats_in_a_new_game(client):
    ada, bob = player(client, "Ada"), player(client, "Bob")
    a, b = play_now(client, ada), play_now(client, bob)
    early = client.post(f"/api/games/{a['id']}/rematch", json={"token": a["token"]})
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    play_to_the_end(client, a["id"], {0: a["token"], 1: b["token"]}, seed=2)
    with client.websocket_connect(f"/ws/{a['id']}?token={b['token']}") as bob_ws:
        assert bob_ws.receive_json()["rematch"] is None
        first = client.post(f"/api/games/{a['id']}/rematch", json={"token": a["token"]}).json()
        offer = bob_ws.receive_json()  # Bob hears of it over the game's WebSocket
        assert offer["rematch"] == first["id"] != a["id"] and first["seat"] == 0
    second = client.post(f"/api/games/{a['id']}/rematch", json={"token": b["token"]}).json()
    assert second["id"] == first["id"] and second["seat"] == 1
    twice = client.post(f"/api/games/{a['id']}/rematch", json={"token": b["token"]})
    assert twice.status_code == 409 and twice.json()["code"] == "taken"
    forged = client.post(f"/api/games/{a['id']}/rematch", json={"token": "forged"})
    assert forged.status_code == 403
    msg = state(client, first["id"], second["token"])
    assert msg["you"] == 1 and msg["rated"] and msg["view"]["moves"] == 0
    assert [s["name"] for s in msg["seats"]] == ["Ada", "Bob"]
    assert all(s["claimed"] for s in msg["seats"])


# ---------------------------------------------------------------------- restarts

def test_after_a_restart_the_names_ratings_and_waiting_games_are_still_there(tmp_path):
    path = str(tmp_path / "games.db")
    with TestClient(create_app(path, autoplay_delay=0)) as c:
        ada = player(c, "Ada")
        game = play_now(c, ada)
    with TestClient(create_app(path, autoplay_delay=0)) as c:
        assert profile(c, ada)["name"] == "Ada"
        assert [g["id"] for g in c.get("/api/lobby").json()["open"]] == [game["id"]]
        msg = state(c, game["id"], game["token"])
        assert msg["seats"][0]["name"] == "Ada" and msg["rated"]
        bob = player(c, "Bob")
        assert play_now(c, bob)["id"] == game["id"]



def test_a_database_from_before_the_lobby_opens_and_its_games_play_on(tmp_path):
    path = tmp_path / "old.db"
    with TestClient(create_app(str(path), autoplay_delay=0)) as c:
        game = c.post("/api/games", json={"seed": 3}).json()
    db = sqlite3.connect(path)  # back to the tables as they were before players
    db.executescript("DROP TABLE players; DROP TABLE lobby; DROP TABLE results; "
                     "ALTER TABLE seats DROP COLUMN player;")
    db.close()
    with TestClient(create_app(str(path), autoplay_delay=0)) as c:
        msg = state(c, game["id"], game["token"])
        assert msg["you"] == 0 and msg["seats"][0]["name"] is None
        assert player(c, "Ada")["rating"] == 1500
    columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(seats)")]
    assert "player" in columns


def test_computer_ratings_give_the_ladders_odds_between_levels():
    # The model's update between two computer levels expects the winner with the odds their
    # ladder Elo gives (docs/performance.md), whatever the scale of mu.
    from spaghetti.web.ratings import LADDER_ELO, rate
    levels = ["random", "easy", "normal", "hard", "perfect"]
    assert [COMPUTER[x] for x in levels] == sorted(COMPUTER[x] for x in levels)

    def win_gain(mu_a, mu_b):  # two people of the same small sigma, a beating b
        return rate([(mu_a, 1.0), (mu_b, 1.0)], [1, 2])[0][0] - mu_a

    even = win_gain(25.0, 25.0)  # expected 1/2
    for low, high in zip(levels, levels[1:]):
        expected = 1 - win_gain(COMPUTER[high], COMPUTER[low]) / (2 * even)
        elo = 1 / (1 + 10 ** (-(LADDER_ELO[high] - LADDER_ELO[low]) / 400))
        assert expected == pytest.approx(elo, abs=1e-3), (low, high)
