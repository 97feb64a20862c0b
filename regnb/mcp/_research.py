"""The research tool: a turn of a conversation, started (or continued) through the conversation
service as the HTTP routes start it, its steps reported as progress while it runs, and its
answer returned with every citation checked on its page (`regnb.conversations.citations`); a
clarifying question comes back as one."""

from __future__ import annotations

from functools import partial
from typing import Any

import anyio.to_thread

from regnb.conversations.citations import checked_citations
from regnb.errors import InternalError, RegnbError
from regnb.mcp._access import Access
from regnb.mcp._call import Call
from regnb.models import Step, Turn
from regnb.server._body import check_fields

__all__ = ["POLL_S", "research"]

POLL_S = 0.25  # how often a running turn's steps are looked at


def _step_text(step: Step) -> str:
    return f"{step.message} ({step.count})" if step.count else step.message


def _page_reader(access: Access) -> Any:
    def read_page(document_id: str, page: int) -> str | None:
        try:
            doc = access.engine.read(document_id, page, page, plan=access.plan)
        except RegnbError:
            return None
        return next((p["text"] for p in doc.page_list if p["page_num"] == page), None)

    return read_page


async def _finished(call: Call, conversation_id: str, turn_index: int) -> Turn:
    """The turn once it stops running; each step it reports on the way is progress."""
    access = call.access
    service = access.conversations
    seen = 0
    while True:
        read = await service.read_async(access.account, conversation_id, POLL_S)
        turn = next(t for t in read.turns if t.turn_index == turn_index)
        for step in (turn.steps or ())[seen:]:
            seen += 1
            await call.progress(seen, _step_text(step))
        if turn.status != "running":
            return turn


async def research(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("message", "conversation_id"))
    access = call.access
    service = access.conversations
    cid = args.get("conversation_id")
    if cid is None:
        run = partial(service.start, access.account, access.plan, args.get("message"))
    else:
        run = partial(service.send, access.account, access.plan, cid, args.get("message"))
    accepted = (await anyio.to_thread.run_sync(run)).body
    cid, index = accepted.conversation_id, accepted.turn_index
    turn = await _finished(call, cid, index)
    out: dict[str, Any] = {
        "conversation_id": cid,
        "turn_index": index,
        "status": turn.status,
        "url": accepted.url,
    }
    if turn.status == "needs_input" and turn.question is not None:
        return {**out, "clarifying_question": turn.question.to_dict(), "answer": None}
    if turn.status != "completed":
        raise InternalError(f"the research turn ended {turn.status}: {turn.answer or ''}".strip())

    def cited() -> list[dict[str, Any]]:
        rows = [r for r in service.citation_rows(access.account, cid) if r["turn_index"] == index]
        return [c.to_dict() for c in checked_citations(rows, _page_reader(access))]

    citations = await anyio.to_thread.run_sync(cited)
    return {**out, "clarifying_question": None, "answer": turn.answer, "citations": citations}
