"""`mcp_server`: the tools on the MCP SDK's low-level server. `tools/list` gives each tool's
description and input schema (`regnb.mcp._schemas`); `tools/call` runs it for the caller that
`access_of` finds for the request, and answers a `RegnbError` as a tool error whose text and
structured content name the code and the argument at fault."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext

from regnb._version import __version__
from regnb.catalog import Catalog
from regnb.errors import InternalError, InvalidRequest, RegnbError
from regnb.mcp._access import Access
from regnb.mcp._call import Call, Tool
from regnb.mcp._research import research
from regnb.mcp._schemas import tool_specs
from regnb.mcp._tools import TOOLS

__all__ = ["ALL_TOOLS", "error_result", "mcp_server"]

log = logging.getLogger("regnb.mcp")

ALL_TOOLS: dict[str, Tool] = {**TOOLS, "research": research}

INSTRUCTIONS = (
    "Search and research regulatory documents (FDA, EMA and other regulators). `datasets` lists "
    "what can be searched and its filters; `search` finds documents (ids, URLs, best passages); "
    "`read` gives a document's pages; `facets` and `matches` count and list every match; `firm` "
    "and `timeline` follow a firm across datasets; `research` answers a question with citations "
    "verified on their pages."
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def error_result(error: RegnbError) -> types.CallToolResult:
    """A tool error: `code (argument): message` as text, the spec's error object as structure."""
    where = f" ({error.field})" if error.field else ""
    text = f"{error.code}{where}: {error.message}"
    return types.CallToolResult(
        content=[types.TextContent(text=text)],
        structured_content={"error": error.to_dict()},
        is_error=True,
    )


def ok_result(value: dict[str, Any]) -> types.CallToolResult:
    """A tool's answer: its JSON object as structured content, and as text for older clients."""
    return types.CallToolResult(
        content=[types.TextContent(text=_json(value))], structured_content=value
    )


def mcp_server(
    catalog: Catalog | None,
    access_of: Callable[[ServerRequestContext[Any, Any]], Access],
) -> Server[Any]:
    """The MCP server of the tools over `catalog`'s datasets (None: the package's);
    `access_of(ctx)` is the caller of a request (it may raise a `RegnbError`, answered as a
    tool error)."""
    specs = tool_specs(catalog)
    listed = [
        types.Tool(name=s.name, description=s.description, input_schema=s.input_schema)
        for s in specs.values()
    ]

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        tool = ALL_TOOLS.get(params.name)
        if tool is None:
            known = ", ".join(ALL_TOOLS)
            return error_result(
                InvalidRequest(f"no tool {params.name!r}; tools: {known}", field="name")
            )

        async def progress(done: float, message: str) -> None:
            await ctx.session.report_progress(done, None, message)

        try:
            access = access_of(ctx)
            with access.links():
                return ok_result(await tool(Call(access, dict(params.arguments or {}), progress)))
        except RegnbError as error:
            return error_result(error)
        except Exception:
            log.exception("the MCP tool %s failed", params.name)
            return error_result(InternalError("internal error; see the server log"))

    return Server(
        "regnb",
        version=__version__,
        instructions=INSTRUCTIONS,
        get_tool_input_schema=lambda name: specs[name].input_schema if name in specs else None,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
