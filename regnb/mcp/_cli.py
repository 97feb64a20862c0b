"""`regnb mcp`: the MCP server over stdio (registered by `regnb.cli`)."""

from __future__ import annotations

import argparse
from typing import Any

from regnb.corpus.location import corpus_options
from regnb.validate import PLANS

__all__ = ["register"]


def cmd_mcp(args: argparse.Namespace) -> int:
    import anyio

    import regnb
    from regnb.index.postings import kernels_ready
    from regnb.mcp._stdio import serve_stdio

    encoder = regnb.HashingEncoder() if args.fast_encoder else None
    with regnb.Engine(args.corpus, plan=args.plan, encoder=encoder, progress=False) as engine:
        kernels_ready()  # compiled before the first call, not inside it
        anyio.run(serve_stdio, engine)
    return 0


def register(subparsers: Any) -> None:
    """Add `mcp` to the `regnb` command."""
    p = subparsers.add_parser("mcp", help="serve the MCP tools over stdio (for desktop assistants)")
    corpus_options(p)
    p.add_argument(
        "--plan", choices=PLANS, default="enterprise", help="the plan the tools run under"
    )
    p.set_defaults(func=cmd_mcp)
