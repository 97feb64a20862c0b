"""The HTTP layer: an ASGI app that serves the spec's interface over the public Python API.

from regnb.server import create_app
app = create_app(regnb.open("corpus/"))      # uvicorn module:app, or `regnb serve`

`create_app(engine, conversations=...)` takes a function that makes the conversation service;
the default is `serving_conversations`. The public modules are `regnb.server.errors` (the status
of each error, which the remote client reads too), `regnb.server.openapi` (the OpenAPI document
the app serves, `openapi_document`) and `regnb.server.testing`; the modules named with a `_` are
the implementation.

The app is imported when first asked for, so that `regnb.server.errors` loads without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from regnb.server._app import create_app, serving_conversations

__all__ = ["create_app", "serving_conversations"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from regnb.server import _app

        return getattr(_app, name)
    raise AttributeError(f"module 'regnb.server' has no attribute {name!r}")
