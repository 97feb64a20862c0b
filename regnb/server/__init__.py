"""The HTTP layer: an ASGI app that serves the spec's interface over the public Python API.

from regnb.server import create_app
app = create_app(regnb.open("corpus/"))      # uvicorn module:app, or `regnb serve`
"""

from __future__ import annotations

from regnb.server.app import create_app

__all__ = ["create_app"]
