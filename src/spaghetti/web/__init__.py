"""Play in the browser: ``spaghetti serve`` (Starlette + uvicorn, WebSockets, SQLite).

- :mod:`.store`: the games and the players in one SQLite file;
- :mod:`.ratings`: the players' ratings; :mod:`.tips`: the rulebooks' advice on each card;
- :mod:`.schemas`: what a client may send;
- :mod:`.tables`: the games in play, who may see and do what, computer players;
- :mod:`.lobby`: players, the games waiting for people, play now, rematches, results;
- :mod:`.puzzles`: the puzzle page; :mod:`.openapi`: the description of the HTTP routes;
- :mod:`.app`: the HTTP routes and the WebSocket protocol (docs/web.md);
- ``static/``: the page (plain HTML, CSS and JavaScript; docs/architecture.md lists its files).
"""

from .app import create_app

__all__ = ["create_app", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, db: str = "spaghetti.db",
          open_browser: bool = False) -> None:
    """Run the server until interrupted. Raises :class:`~spaghetti.SetupError` (one clear
    message) if the database cannot be opened or the address is taken."""
    import socket
    import sys
    import threading
    import webbrowser

    import uvicorn

    from ..errors import SetupError

    app = create_app(db)
    try:  # say it now, in one line, rather than after uvicorn has started
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        raise SetupError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    print(f"spaghetti: serving on http://{host}:{port}/ (games in {db}); Ctrl+C to stop",
          file=sys.stderr, flush=True)
    if open_browser:
        shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        threading.Timer(1.0, webbrowser.open, [f"http://{shown}:{port}/"]).start()
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio"
                if _has_sansio() else "auto")


def _has_sansio() -> bool:
    try:
        import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401
        return True
    except ImportError:
        return False
