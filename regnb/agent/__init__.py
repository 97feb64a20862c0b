"""The research agent: plans searches, reads pages, writes an extractive answer whose every
citation is checked against the page it names.

    ExtractiveAgent     answers one message (`run`), as the `Agent` protocol says
    AgentConfig         its tunables, one line each
    Writer              what writes an answer from the evidence: `ExtractiveWriter` (quotes,
                        no model) or `ModelWriter` (a `ChatModel` such as `OpenAIChat`, its
                        prose kept only where the cited passages back it)
    TurnRequest, TurnResult, Answer   what passes between the conversation service and the agent

The names load on first use: `import regnb.agent.types` (the service's boundary) loads no more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.agent._config import AgentConfig
    from regnb.agent._writer import ExtractiveWriter, Writer
    from regnb.agent.agent import ExtractiveAgent
    from regnb.agent.llm import ChatModel, ModelWriter, OpenAIChat
    from regnb.agent.types import Agent, Answer, TurnRequest, TurnResult

__all__ = [
    "Agent",
    "AgentConfig",
    "Answer",
    "ChatModel",
    "ExtractiveAgent",
    "ExtractiveWriter",
    "ModelWriter",
    "OpenAIChat",
    "TurnRequest",
    "TurnResult",
    "Writer",
]

__getattr__ = exports(
    __name__,
    {
        "Agent": "types",
        "AgentConfig": "_config",
        "Answer": "types",
        "ChatModel": "llm",
        "ExtractiveAgent": "agent",
        "ExtractiveWriter": "_writer",
        "ModelWriter": "llm",
        "OpenAIChat": "llm",
        "TurnRequest": "types",
        "TurnResult": "types",
        "Writer": "_writer",
    },
)
