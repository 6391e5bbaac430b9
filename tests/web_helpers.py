"""Helpers for the web tests: a real server (uvicorn) in a thread on a free loopback port."""

from __future__ import annotations

import base64
import os
import socket
import threading
import time

import uvicorn

from spaghetti.web import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerThread:
    """``with ServerThread(db) as url:`` serves the app on loopback until the block ends."""

    def __init__(self, db: str, autoplay_delay: float = 0.0):
        self.port = free_port()
        self.app = create_app(db, autoplay_delay=autoplay_delay)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def stalled_client(port: int, game_id: str, requests: int) -> socket.socket:
    """A WebSocket client that never reads: a raw TCP connection with a 4 KB receive buffer
    that does the handshake, sends ``requests`` state requests at once and reads nothing more.
    The caller closes the socket."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: the window
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # the handshake's answer, and nothing more
        byte = sock.recv(1)
        if not byte:
            raise ConnectionError("the server closed the connection during the handshake")
        head += byte
    assert head.startswith(b"HTTP/1.1 101"), head
    payload = b'{"type": "state"}'
    mask = os.urandom(4)
    frame = bytes([0x81, 0x80 | len(payload)]) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))
    sock.setblocking(False)
    data = frame * requests
    while data:  # as much as the server takes (it stops reading once it drops us)
        try:
            data = data[sock.send(data):]
        except BlockingIOError:
            break
    return sock
