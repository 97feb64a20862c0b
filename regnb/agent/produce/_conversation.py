"""A whole conversation, as the spec's conversation read gives it, exported to markdown or Word."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from regnb.agent.types import SourcedCitation

from ._docx_kit import document_bytes, new_document
from ._mdword import add_markdown
from ._report import sources_markdown
from ._title import short_title


def conversation_title(conversation: Mapping[str, Any]) -> str:
    """The conversation's title, else its first message, shortened."""
    turns = conversation.get("turns") or []
    title = conversation.get("title") or (turns[0].get("message") if turns else None)
    return short_title(str(title)) if title else "Research conversation"


def answer_to_markdown(conversation: Mapping[str, Any]) -> str:
    """Every turn: its message as a heading, its answer, then the sources its markers name."""
    title = conversation_title(conversation)
    return f"# {title}\n\n{_turns_markdown(conversation)}"


def answer_to_docx(conversation: Mapping[str, Any], *, now: dt.datetime | None = None) -> bytes:
    """The conversation as a Word document: headings, answers, tables and numbered sources."""
    when = now or dt.datetime.now(dt.UTC)
    title = conversation_title(conversation)
    document = new_document(title, when)
    document.add_heading(title, level=0)
    add_markdown(document, _turns_markdown(conversation))
    return document_bytes(document, when)


def _turns_markdown(conversation: Mapping[str, Any]) -> str:
    parts = [_turn_markdown(turn) for turn in conversation.get("turns") or []]
    return "\n\n".join(parts) + "\n" if parts else "*No messages.*\n"


def _turn_markdown(turn: Mapping[str, Any]) -> str:
    message = " ".join(str(turn.get("message") or "").split())
    parts = [f"## {message}"]
    question = turn.get("question") or {}
    if turn.get("answer"):
        parts.append(str(turn["answer"]).strip())
    elif question.get("question"):
        parts.append(f"*{question['question']}*")
    else:
        parts.append(f"*No answer: the turn is {turn.get('status', 'unanswered')}.*")
    if question.get("options"):
        parts.append("\n".join(f"- {option}" for option in question["options"]))
    citations = [citation_from_dict(c) for c in turn.get("citations") or []]
    if citations:
        parts.append(sources_markdown(citations))
    return "\n\n".join(parts)


def citation_from_dict(data: Mapping[str, Any]) -> SourcedCitation:
    """A citation from the spec's citation object (with `passage` where a front end adds it)."""
    return SourcedCitation(
        index=int(data["index"]),
        name=str(data.get("name") or ""),
        dataset=str(data.get("dataset") or ""),
        date=data.get("date"),
        page_num=data.get("page_num"),
        url=str(data.get("url") or ""),
        document_id=str(data.get("document_id") or ""),
        dataset_id=str(data.get("dataset_id") or ""),
        block_id=data.get("block_id"),
        parent_index=data.get("parent_index"),
        passage=data.get("passage"),
    )
