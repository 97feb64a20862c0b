"""The tools for the local user of one engine (its plan, the account `local`; no keys, no
limits): `local_server`, and `serve_stdio` for a desktop assistant."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcp.server import Server
from mcp.server.stdio import stdio_server

from regnb.mcp._access import LocalAccess
from regnb.mcp._server import mcp_server

if TYPE_CHECKING:
    from regnb.engine import Engine

__all__ = ["local_server", "serve_stdio"]


def local_server(engine: Engine) -> Server[Any]:
    """The MCP server of the tools over `engine`, every call the local user's: connect a
    transport to it, or `mcp.Client(local_server(engine))` in-process."""
    access = LocalAccess(engine)
    return mcp_server(engine.datasets(), lambda ctx: access)


async def serve_stdio(engine: Engine) -> None:
    """Serve the tools on this process's stdin and stdout until the client closes them."""
    server = local_server(engine)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
