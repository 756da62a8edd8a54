"""Play in the browser, together: ``unoarena serve`` runs :func:`create_app` under uvicorn.

The server owns every game (the engine checks every action), keeps every room and action in a
database so that a restart resumes play exactly, and pushes each person their own view over a
WebSocket. The page under ``static/`` is plain HTML, CSS and JavaScript modules.

Nothing is imported here eagerly: the command line imports :mod:`.cli_serve` whether or not
the optional ``web`` extra (starlette, uvicorn, SQLAlchemy...) is installed.
"""

from __future__ import annotations

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from .app import create_app

        return create_app
    if name == "ServerConfig":
        from .rooms import ServerConfig

        return ServerConfig
    raise AttributeError(name)
