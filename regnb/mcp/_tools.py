"""The tools: each takes a caller (`Access`) and the call's arguments, calls the engine interface
through the same argument readers as the HTTP routes, and returns a JSON object small enough for
an assistant's context (windows with a `total`). Bad input raises the core's errors, whose
`field` names the argument (`regnb.mcp._server` makes them tool errors)."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator, Sequence
from typing import Any, cast

import pandas as pd

from regnb.documents.passages import best_passage
from regnb.errors import InvalidRequest, RegnbError
from regnb.firms.timeline import firm_records, timeline_records
from regnb.mcp._access import Access
from regnb.mcp._call import Call, Tool
from regnb.mcp._schemas import (
    MATCHES_LIMIT_DEFAULT,
    MATCHES_LIMIT_MAX,
    PASSAGE_CHARS,
    READ_PAGES_MAX,
    TIMELINE_LIMIT_DEFAULT,
    TIMELINE_LIMIT_MAX,
)
from regnb.query import QuerySyntaxWarning
from regnb.request import SearchRequest
from regnb.results import match_records
from regnb.server._body import MAX_INT, check_fields
from regnb.server._firms import LIMIT_DEFAULT as FIRMS_LIMIT_DEFAULT
from regnb.server._v3 import (
    MATCH_FIELDS,
    MATCH_SEARCH_FIELDS,
    SEARCH_FIELDS,
    MatchesAPI,
    matches_window,
    search_arguments,
)
from regnb.validate import FACET_SIZE_MAX, check_int

__all__ = ["FACET_FIELDS", "TOOLS", "checked_search", "renamed"]

FACET_FIELDS = ("query", "datasets", "filters", "date_from", "date_to", "syntax")


@contextlib.contextmanager
def renamed(fields: dict[str, str]) -> Iterator[None]:
    """An error naming an engine parameter (`name_or_id`, `facets[0]`) re-raised naming the
    tool's argument (`q`, `by[0]`): the longest matching prefix of its field is replaced."""
    try:
        yield
    except RegnbError as error:
        field = error.field or ""
        for old in sorted(fields, key=len, reverse=True):
            if field == old or field.startswith((old + ".", old + "[")):
                error.field = fields[old] + field[len(old) :]
                break
        raise


def checked_search(access: Access, args: dict[str, Any]) -> SearchRequest:
    """A search checked once for the caller's plan (plain items unless `syntax` says query)."""
    keywords = args["keywords"]
    options = {k: v for k, v in args.items() if k != "keywords"}
    with warnings.catch_warnings():  # plain items are the interface's reading, as over HTTP
        warnings.simplefilter("ignore", QuerySyntaxWarning)
        return access.engine.check_search(keywords, plan=access.plan, **options)


def _passages(result: dict[str, Any], keywords: Sequence[str], query: str | None) -> None:
    """Each result page's text cut to its best passage."""
    for doc in result["results"]:
        for page in doc["pages"]:
            page["text"] = best_passage(page["text"], keywords, query, max_chars=PASSAGE_CHARS).text


async def search(call: Call) -> dict[str, Any]:
    check_fields(call.args, ("keywords", *SEARCH_FIELDS))
    req = checked_search(call.access, search_arguments(call.args))
    engine = call.access.engine
    result = (await call.access.search(lambda: engine.search(req))).to_dict()
    keywords = [k for k in call.args["keywords"] if isinstance(k, str)]
    _passages(result, keywords, call.args.get("query"))
    return result


async def read(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("document_id", "page_from", "page_to"))
    if args.get("document_id") is None:
        raise InvalidRequest("document_id is required", field="document_id")
    page_from = args["page_from"] if args.get("page_from") is not None else 1
    access = call.access

    def run() -> dict[str, Any]:
        doc = access.engine.read(
            args["document_id"], page_from, args.get("page_to"), plan=access.plan
        )
        out = doc.to_dict()
        if len(out["pages"]) > READ_PAGES_MAX:
            out["pages"] = out["pages"][:READ_PAGES_MAX]
            out["next_page_from"] = out["pages"][-1]["page_num"] + 1
        return out

    return await access.blocking(run, "document read")


async def datasets(call: Call) -> dict[str, Any]:
    check_fields(call.args, ())
    engine = call.access.engine
    return cast(
        dict[str, Any],
        await call.access.blocking(lambda: engine.datasets().to_dict(), "dataset list"),
    )


def _facet_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [
        {"value": None if pd.isna(v) else str(v), "documents": int(d), "pages": int(p)}
        for v, d, p in frame[["value", "documents", "pages"]].itertuples(index=False, name=None)
    ]


async def facets(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("keywords", *FACET_FIELDS, "by", "size"))
    by = args["by"] if args.get("by") is not None else ["dataset", "year"]
    if not isinstance(by, list) or not by:
        raise InvalidRequest("by must be a non-empty list of facet names", field="by")
    for i, name in enumerate(by):
        if not isinstance(name, str):
            raise InvalidRequest(f"by[{i}] must be a facet name, got {name!r}", field=f"by[{i}]")
    size = check_int(
        args["size"] if args.get("size") is not None else 20, "size", 1, FACET_SIZE_MAX
    )
    search = search_arguments({k: v for k, v in args.items() if k != "by" and k != "size"})
    keywords, options = search.pop("keywords"), search
    access = call.access

    def run() -> dict[str, pd.DataFrame]:
        with renamed({"facets": "by"}), warnings.catch_warnings():
            warnings.simplefilter("ignore", QuerySyntaxWarning)
            return access.engine.facets(keywords, by=by, size=size, plan=access.plan, **options)

    counts = await access.search(run)
    return {"facets": {name: _facet_rows(frame) for name, frame in counts.items()}}


async def matches(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("keywords", *MATCH_SEARCH_FIELDS, *MATCH_FIELDS))
    limit = args.get("limit")
    window = {**args, "limit": MATCHES_LIMIT_DEFAULT if limit is None else limit}
    order, limit, offset = matches_window(window)
    check_int(limit, "limit", 1, MATCHES_LIMIT_MAX)
    search = {k: v for k, v in args.items() if k not in MATCH_FIELDS}
    req = checked_search(call.access, search_arguments(search))
    engine = cast(MatchesAPI, call.access.engine)

    def run() -> dict[str, Any]:
        frame = engine.matches(req, order=order, limit=limit, offset=offset)
        total = int(frame.attrs.get("total", 0))
        end = offset + len(frame)
        return {
            "matches": match_records(frame),
            "total": total,
            "next_offset": end if len(frame) and end < total else None,
        }

    return await call.access.search(run)


async def firm(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("q", "datasets", "limit"))
    q = args.get("q")
    if q is None:
        raise InvalidRequest("q is required: a firm's name, an identifier or a firm id", field="q")
    access = call.access
    limit = args["limit"] if args.get("limit") is not None else FIRMS_LIMIT_DEFAULT

    def run() -> dict[str, Any]:
        with renamed({"name_or_id": "q"}):
            found = access.engine.firm(
                q, datasets=args.get("datasets"), limit=limit, plan=access.plan
            )
        return {"firms": firm_records(found)}

    return await access.blocking(run, "firm lookup")


async def timeline(call: Call) -> dict[str, Any]:
    args = call.args
    check_fields(args, ("firm_id", "limit", "offset"))
    if args.get("firm_id") is None:
        raise InvalidRequest("firm_id is required", field="firm_id")
    limit = args["limit"] if args.get("limit") is not None else TIMELINE_LIMIT_DEFAULT
    limit = check_int(limit, "limit", 1, TIMELINE_LIMIT_MAX)
    offset = check_int(
        args["offset"] if args.get("offset") is not None else 0, "offset", 0, MAX_INT
    )
    access = call.access

    def run() -> dict[str, Any]:
        with renamed({"entity": "firm_id"}):
            found = access.engine.timeline(args["firm_id"], plan=access.plan)
        events = timeline_records(found)
        end = min(offset + limit, len(events))
        return {
            "firm": found.firm,
            "events": events[offset:end],
            "total": len(events),
            "next_offset": end if end < len(events) else None,
        }

    return await access.search(run)


TOOLS: dict[str, Tool] = {
    "search": search,
    "read": read,
    "datasets": datasets,
    "facets": facets,
    "matches": matches,
    "firm": firm,
    "timeline": timeline,
}
"""The engine's tools, by the name `tools/list` gives them (`regnb.mcp._schemas.tool_specs`)."""
