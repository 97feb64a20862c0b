"""Which research agent answers an engine's conversations."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

import pandas as pd

from regnb.errors import InternalError
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.agent._source import Source
    from regnb.agent.types import Agent

__all__ = [
    "AgentFactory",
    "AgentSource",
    "Agents",
    "Repeats",
    "WatchSummary",
    "default_agent_factory",
]

AgentSource: TypeAlias = "Source"
"""What the agent calls of an engine (`regnb.agent`'s `Source` protocol; a local engine is one)."""


AgentFactory = Callable[[], "Agent"]
"""What makes the agent of each run (the service calls it when a run starts)."""
WatchSummary = Callable[[str], tuple[list[str], pd.DataFrame]]
"""A saved watchlist's new documents by name, as lines and a frame (`regnb.watch.summary`)."""
Repeats = Callable[[str], pd.DataFrame]
"""The repeat findings of the firm a name or identifier names outright (its timeline's)."""


def default_agent_factory(
    source: AgentSource,
    settings: Settings | None = None,
    *,
    watched: WatchSummary | None = None,
    repeats: Repeats | None = None,
) -> AgentFactory:
    """The extractive research agent over `source`: imported when the first run starts, then
    the same agent for every run (its caches, such as block embeddings, are kept). `settings`
    bound the part of a message it reads (default: the environment's); `watched` and
    `repeats` answer "what's new for my watchlists?" and "were any observations repeats?"
    where the engine keeps watchlists and firms."""
    made: list[Agent] = []
    lock = threading.Lock()

    def make() -> Agent:
        with lock:
            if not made:
                try:
                    from regnb.agent.agent import ExtractiveAgent
                except ImportError as exc:
                    raise InternalError(
                        "the research agent is not part of this build (regnb.agent.agent is missing)"
                    ) from exc
                chars = (settings or Settings.from_env()).agent_message_chars
                made.append(
                    ExtractiveAgent(source, message_chars=chars, watched=watched, repeats=repeats)
                )
            return made[0]

    return make


class Agents:
    """An agent for each run: from `factory` when one is set (tests set a fake one), else the
    extractive agent over `source`, made at the first run and kept."""

    def __init__(
        self,
        source: AgentSource,
        settings: Settings,
        *,
        watched: WatchSummary | None = None,
        repeats: Repeats | None = None,
    ) -> None:
        self.factory: AgentFactory | None = None
        self._default = default_agent_factory(source, settings, watched=watched, repeats=repeats)

    def __call__(self) -> Agent:
        return (self.factory or self._default)()
