"""The HTTP layer: an ASGI app that serves the spec's interface over the public Python API.

from regnb.server import create_app
app = create_app(regnb.open("corpus/"))      # uvicorn module:app, or `regnb serve`

The app is imported when first asked for, so that `regnb.server.errors` (the status of each error,
which the remote client reads too) loads without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regnb.server._app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from regnb.server._app import create_app

        return create_app
    raise AttributeError(f"module 'regnb.server' has no attribute {name!r}")
