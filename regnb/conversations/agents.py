"""Which research agent answers an engine's conversations."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pandas as pd

from regnb.errors import InternalError
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.agent.types import Agent

__all__ = ["Agents", "default_agent_factory"]


def default_agent_factory(engine: Any, settings: Settings | None = None) -> Callable[[], Agent]:
    """The extractive research agent over `engine`: imported when the first run starts, then
    the same agent for every run (its caches, such as block embeddings, are kept). `settings`
    bound the part of a message it reads (default: the environment's)."""
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
                    ExtractiveAgent(
                        engine,
                        message_chars=chars,
                        watched=_watched(engine),
                        repeats=_repeats(engine),
                    )
                )
            return made[0]

    return make


def _watched(engine: Any) -> Callable[[str], tuple[list[str], pd.DataFrame]] | None:
    """A local engine's watchlists by name, as the agent reads them (nothing marked seen)."""
    if not hasattr(engine, "watchlists"):
        return None
    from regnb.watch import summary

    return lambda name: summary(engine, name)


def _repeats(engine: Any) -> Callable[[str], pd.DataFrame] | None:
    """A local engine's firms: the repeat findings of the firm a name or identifier names
    outright (by id, identifier or name key), from its timeline; empty when it names none."""
    if not hasattr(engine, "timeline"):
        return None
    from regnb.firms import timeline as firms

    def repeats(name: str) -> pd.DataFrame:
        found = engine.firm(name, limit=5)
        named = found[found["match"].isin(["id", "identifier", "name"])]
        if named.empty:
            return pd.DataFrame(columns=list(firms.REPEAT_COLUMNS))
        return firms.repeat_findings(engine.timeline(named.iloc[0]))

    return repeats


class Agents:
    """An agent for each run: from `factory` when one is set (tests set a fake one), else the
    extractive agent over `engine`, made at the first run and kept."""

    def __init__(self, engine: Any, settings: Settings) -> None:
        self.factory: Callable[[], Agent] | None = None
        self._default = default_agent_factory(engine, settings)

    def __call__(self) -> Agent:
        return (self.factory or self._default)()
