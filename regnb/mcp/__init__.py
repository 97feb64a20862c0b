"""The MCP server: regnb's search, reading and research as tools for AI assistants, on the
official `mcp` SDK.

    regnb mcp --corpus DIR           stdio, for a desktop assistant (the local user's plan)
    regnb serve                      the same tools at /mcp over streamable HTTP, behind the
                                     HTTP interface's keys, plans and limits (regnb.server._mcp)

    _schemas.py    each tool's description and input schema, from the served OpenAPI document
    _tools.py      search, read, datasets, facets, matches, firm, timeline
    _research.py   research: a conversation turn, its steps as progress, its checked citations
    _access.py     whose call it is (`Access`): the local user, or an API key's owner
    _server.py     the tools on the SDK's low-level server; errors as tool errors
    _stdio.py      `local_server(engine)`, `serve_stdio`; _cli.py: `regnb mcp`
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.mcp._access import Access, LocalAccess
    from regnb.mcp._server import mcp_server
    from regnb.mcp._stdio import local_server, serve_stdio

__all__ = ["Access", "LocalAccess", "local_server", "mcp_server", "serve_stdio"]

__getattr__ = exports(
    __name__,
    {
        "Access": "_access",
        "LocalAccess": "_access",
        "local_server": "_stdio",
        "mcp_server": "_server",
        "serve_stdio": "_stdio",
    },
)
