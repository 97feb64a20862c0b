"""What every tool takes: one call, with its caller, arguments and progress reporter."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from regnb.mcp._access import Access

__all__ = ["Call", "Progress", "Tool"]

Progress = Callable[[float, str], Awaitable[None]]
"""Reports a step of a long call: (steps so far, what the step does)."""


@dataclass(frozen=True)
class Call:
    """One tool call: who makes it, its arguments, and where its progress goes."""

    access: Access
    args: dict[str, Any]
    progress: Progress


Tool = Callable[[Call], Awaitable[dict[str, Any]]]
"""A tool: the call in, a JSON object out (or a `RegnbError` naming the argument at fault)."""
