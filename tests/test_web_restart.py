"""Restart: a real ``spaghetti serve`` process is killed (SIGKILL, no clean shutdown) in the middle
of a game and started again on the same database; the game goes on exactly where it was."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

from spaghetti import records
from spaghetti.core.game import Game
from spaghetti.core.view import view
from web_helpers import free_port


def start(db: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "spaghetti", "serve", "--port", str(port),
                             "--db", db], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
            return proc
        except httpx.HTTPError as err:
            if proc.poll() is not None:
                raise RuntimeError(proc.stderr.read().decode()) from err
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


def receive_state(ws) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=10))
        if msg["type"] == "state":
            return msg
        raise AssertionError(msg)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL")
def test_a_killed_server_restarts_with_every_game_as_it_was(tmp_path):
    db, port = str(tmp_path / "games.db"), free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    proc = start(db, port)
    try:
        res = httpx.post(f"{base}/api/games", json={
            "level": 2, "players": 2, "seed": 11, "autoplay": False,
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        game = res.json()
        blue = httpx.post(f"{base}/api/games/{game['id']}/claim",
                          json={"invite": game["invites"]["1"]}).json()["token"]
        tokens = [game["token"], blue]
        mirror = Game(level=2, players=2).new_state(None, 11)
        rng = random.Random(7)

        def play(moves: int) -> None:
            for _ in range(moves):
                if mirror.is_over:
                    return
                seat = mirror.to_move
                with connect(f"{ws_base}/ws/{game['id']}?token={tokens[seat]}") as ws:
                    assert receive_state(ws)["view"] == view(mirror, seat)
                    option = rng.choice(mirror.legal())
                    ws.send(json.dumps({"type": "play", "option": option,
                                        "moves": len(mirror.history)}))
                    mirror.apply(option)
                    assert receive_state(ws)["view"] == view(mirror, seat)

        play(14)
        proc.kill()  # SIGKILL: no chance to flush anything
        proc.wait(timeout=10)
        proc = start(db, port)
        with connect(f"{ws_base}/ws/{game['id']}?token={tokens[0]}") as ws:
            assert receive_state(ws)["view"] == view(mirror, 0)
        with connect(f"{ws_base}/ws/{game['id']}") as ws:
            assert receive_state(ws)["view"] == view(mirror, "observer")
        play(400)
        assert mirror.is_over
        record = httpx.get(f"{base}/api/games/{game['id']}/record")
        assert record.status_code == 200
        assert json.loads(record.text)["actions"] == records.record_of(mirror)["actions"]
    finally:
        proc.kill()
        proc.wait(timeout=10)
