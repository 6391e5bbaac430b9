"""Helpers for the web tests: a real server (uvicorn) in a thread on a free loopback port."""

from __future__ import annotations

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
        config = uvicorn.Config(create_app(db, autoplay_delay=autoplay_delay), host="127.0.0.1",
                                port=self.port, log_level="warning", lifespan="on")
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
