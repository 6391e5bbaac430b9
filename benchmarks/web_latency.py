"""Move round-trip latency of ``spaghetti serve`` with many games open (a benchmark, not a test).

Starts a real server process on loopback with a fresh database, opens ``--games`` games of two
people (every seat a scripted WebSocket client, plus one spectator per game with ``--watchers``),
and lets each game's players play random legal options, each after a random think time (uniform
in 0 to twice ``--think`` seconds). The latency of a move is the time from sending ``play`` to
receiving the state message that shows it, at the player who made it. A finished game is replaced
by a new one, so ``--games`` games stay open all the time.

    python benchmarks/web_latency.py --games 200 --seconds 30 --think 1.0
With ``--stalled``, each game also has one stalled client: a spectator that asks for the state
(``{"type": "state"}``) 500 times at once and once a second after that, and never reads its
socket, so that the server's messages to it pile up (more than the kernel's buffers hold). The
players' round trips must not suffer from it. Only moves sent after the ramp are timed; give the
stalled clients' bursts a longer ramp:

    python benchmarks/web_latency.py --games 200 --seconds 30 --ramp 30 --stalled

Prints the number of games and connections held, moves played, moves per second, and the latency
percentiles (ms).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from websockets.asyncio.client import connect


STALL_BURST = 500  # state requests a stalled client sends at once


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as res:
        return json.loads(res.read())


class Bench:
    def __init__(self, base: str, think: float, watchers: bool, deadline: float, seed: int,
                 stalled: bool = False):
        self.base = base
        self.stalled = stalled
        self.measure_from = deadline  # set by run(): moves sent before it are not timed
        self.unanswered = 0  # games still waiting for a state message at the end
        self.ws_base = base.replace("http", "ws", 1)
        self.think = think
        self.watchers = watchers
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.games_done = 0
        self.errors = 0
        self.open_games = 0
        self.max_open = 0

    async def new_game(self, computer: str | None) -> tuple[str, list[str]]:
        loop = asyncio.get_running_loop()
        second = {"kind": "computer", "difficulty": computer} if computer else {"kind": "human"}
        body = {"level": self.rng.choice([1, 2, 3]), "players": 2, "autoplay": False,
                "seats": [{"kind": "human"}, second]}
        game = await loop.run_in_executor(None, post, f"{self.base}/api/games", body)
        if computer:
            return game["id"], [game["token"]]
        claim = await loop.run_in_executor(None, post, f"{self.base}/api/games/{game['id']}/claim",
                                           {"invite": game["invites"]["1"]})
        return game["id"], [game["token"], claim["token"]]

    async def table(self, start_delay: float, computer: str | None = None) -> None:
        """Keep one game open until the deadline, playing it and then the next one. With
        ``computer``, seat 1 is a computer player of that level (its moves are not timed)."""
        await asyncio.sleep(start_delay)
        while time.monotonic() < self.deadline:
            gid, tokens = await self.new_game(computer)
            urls = [f"{self.ws_base}/ws/{gid}?token={t}" for t in tokens]
            if self.watchers:
                urls.append(f"{self.ws_base}/ws/{gid}")
            conns = [await connect(u, max_queue=None) for u in urls]
            self.open_games += 1
            self.max_open = max(self.max_open, self.open_games)
            views: list = [None] * len(conns)
            event = asyncio.Event()
            readers = [asyncio.create_task(self.read(c, i, views, event))
                       for i, c in enumerate(conns)]
            if self.stalled:
                readers.append(asyncio.create_task(self.stall(gid)))
            try:
                await self.play(conns, views, event)
            finally:
                self.open_games -= 1
                for r in readers:
                    r.cancel()
                for c in conns:
                    await c.close()

    async def stall(self, gid: str) -> None:
        """A client that never reads its socket: a raw TCP connection with a 4 KB receive
        buffer that does the WebSocket handshake, asks for the state ``STALL_BURST`` times at
        once (more than the kernel's buffers hold: about 5 MB of answers), then once a second,
        and reads nothing more. The server's messages to it pile up."""
        loop = asyncio.get_running_loop()
        host, port = self.base.split("//", 1)[1].rsplit(":", 1)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, (host, int(port)))
            key = base64.b64encode(os.urandom(16)).decode()
            await loop.sock_sendall(sock, (
                f"GET /ws/{gid} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n").encode())
            head = b""
            while not head.endswith(b"\r\n\r\n"):  # the handshake's answer, byte by byte
                byte = await loop.sock_recv(sock, 1)
                if not byte:
                    return
                head += byte
            payload = b'{"type": "state"}'
            mask = os.urandom(4)
            frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(
                b ^ mask[i % 4] for i, b in enumerate(payload))
            await loop.sock_sendall(sock, frame * STALL_BURST)
            while True:
                await asyncio.sleep(1.0)
                await loop.sock_sendall(sock, frame)
        except OSError:
            pass  # the server closed it
        finally:
            sock.close()

    async def read(self, conn, i: int, views: list, event: asyncio.Event) -> None:
        """Keep the latest view each connection has received."""
        async for text in conn:
            msg = json.loads(text)
            if msg["type"] == "state":
                views[i] = msg["view"]
            elif msg["type"] == "error":
                self.errors += 1
            event.set()

    async def play(self, conns, views: list, event: asyncio.Event) -> None:
        async def until(ready) -> None:
            """Wait for the condition; give up 10 s after the deadline (an answer that never
            came: counted in ``unanswered``)."""
            while not ready():
                event.clear()
                left = self.deadline + 10 - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                try:
                    await asyncio.wait_for(event.wait(), left)
                except TimeoutError:
                    raise TimeoutError from None

        try:
            await self._play(conns, views, until)
        except TimeoutError:
            self.unanswered += 1

    async def _play(self, conns, views: list, until) -> None:
        await until(lambda: all(v is not None for v in views))
        while time.monotonic() < self.deadline:
            state = views[0]
            if state["phase"] == "over":
                self.games_done += 1
                return
            seat, moves = state["to_move"], state["moves"]
            if seat >= len(conns) or (self.watchers and seat == len(conns) - 1):
                await until(lambda moves=moves: views[0]["moves"] > moves)  # the computer's move
                continue
            # its own view, with its options
            await until(lambda seat=seat, moves=moves: views[seat]["moves"] == moves)
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            option = self.rng.choice(views[seat]["legal"])
            timed = time.monotonic() >= self.measure_from
            sent = time.perf_counter()
            await conns[seat].send(json.dumps({"type": "play", "option": option, "moves": moves}))
            await until(lambda seat=seat, moves=moves: views[seat]["moves"] > moves)
            if timed:
                self.latencies.append(time.perf_counter() - sent)
            await until(lambda moves=moves: views[0]["moves"] > moves)


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def run(args, base: str) -> None:
    deadline = time.monotonic() + args.ramp + args.seconds
    bench = Bench(base, args.think, args.watchers, deadline, args.seed, args.stalled)
    tasks = [bench.table(args.ramp * i / args.games) for i in range(args.games)]
    tasks += [bench.table(args.ramp * i / max(1, args.computers), args.level)
              for i in range(args.computers)]
    bench.measure_from = time.monotonic() + args.ramp
    await asyncio.gather(*tasks)
    ms = [x * 1000 for x in bench.latencies]
    per_game = 2 + (1 if args.watchers else 0)
    print(f"games held at once: {bench.max_open} (about {bench.max_open * per_game} WebSockets; "
          f"{args.computers} of them against the computer)")
    print(f"moves timed: {len(ms)} in {args.seconds:.0f} s after the {args.ramp:.0f} s ramp "
          f"({len(ms) / args.seconds:.0f}/s); games finished: {bench.games_done}; "
          f"errors: {bench.errors}")
    if args.stalled:
        print("stalled clients: one per game")
    print(f"games left waiting for an answer at the end (10 s after): {bench.unanswered}")
    if ms:
        print(f"move round trip (ms): p50 {statistics.median(ms):.1f}  p90 {percentile(ms, 90):.1f}"
              f"  p99 {percentile(ms, 99):.1f}  max {max(ms):.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games kept open (default 200)")
    parser.add_argument("--seconds", type=float, default=30, help="measured time after the ramp")
    parser.add_argument("--ramp", type=float, default=5, help="seconds over which games open")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time per move in seconds (default 1.0)")
    parser.add_argument("--watchers", action="store_true", help="one spectator per game too")
    parser.add_argument("--stalled", action="store_true",
                        help="one stalled client per game too (asks, never reads)")
    parser.add_argument("--computers", type=int, default=0,
                        help="also keep N games against a computer player open (not timed)")
    parser.add_argument("--level", default="normal", help="difficulty of those computer players")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=None, help="use a running server instead of starting one")
    args = parser.parse_args()
    if args.url:
        asyncio.run(run(args, args.url.rstrip("/")))
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "spaghetti", "serve", "--port",
                                   str(port), "--db", os.path.join(tmp, "bench.db")],
                                  stderr=subprocess.DEVNULL)
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"{base}/api/meta")
                    break
                except OSError:
                    time.sleep(0.1)
            asyncio.run(run(args, base))
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
