"""regnb serve's extensions of the spec as the remote client sees them: which a search body
needs, which a server offers (read once from its `/api/v3/openapi.json`), the clear error when
one is missing, and every match's rows as a DataFrame.

    syntax    "syntax": "query" in a search body    phrases, -word, OR, field:value, prefix*
    sort      "sort" in a search body                 "date" (newest first) or "date_asc"
    facets    "facets" in a search body               counts over every match
    places    "places": true in a search body         each firm's country, state and city
    matches   POST /api/v3/matches                    every matching document, paged
    firms     GET /api/v3/firms, /firms/{id}/timeline   firms across datasets (regnb.firms.timeline)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from regnb import results
from regnb.errors import FeatureNotOffered, InvalidRequest, UpstreamError
from regnb.validate import check_int

__all__ = [
    "BODY_EXTENSIONS",
    "DEFAULT_FACET_SIZE",
    "EXTENSIONS",
    "MATCHES_LIMIT_MAX",
    "MATCH_COLUMNS",
    "MatchesPage",
    "batch_frames",
    "batch_size_of",
    "facet_specs",
    "matches_frame",
    "matches_window",
    "needed",
    "next_offset_after",
    "not_offered",
    "offered",
    "page_limit",
    "uses_syntax",
]

BODY_EXTENSIONS = ("syntax", "sort", "facets", "places")
EXTENSIONS = (*BODY_EXTENSIONS, "matches", "firms")
SEARCH_PATH, MATCHES_PATH, FIRMS_PATH = "/api/v3/search", "/api/v3/matches", "/api/v3/firms"
MATCHES_LIMIT_MAX = 1000
DEFAULT_FACET_SIZE = 20
MATCH_COLUMNS = results.MATCH_COLUMNS

SYNTAX = re.compile(
    r'"'  # a phrase
    r"|(?:^|\s)-(?=[\w\"])"  # -word, -"a phrase" (a hyphen inside a word is not an operator)
    r"|\b(?:OR|NOT|AND)\b"  # operators, upper case only
    r"|\w\*"  # a prefix
    r"|\b[a-z_][a-z0-9_]*:\S"  # title:word, company:hospira, cfr:211.113
)

ADVICE = {
    "syntax": 'pass syntax="plain" to search the words of each item as plain words',
    "sort": "sort res.documents by date in pandas instead",
    "facets": "count over eng.search_all(...).documents in pandas instead",
    "places": "leave places= out: the results come without their firms' places",
    "matches": "page through the ranked documents with eng.search_all(...) instead",
    "firms": 'search the firm field instead, e.g. eng.search(["company:hospira"])',
}
WHAT = {
    "syntax": "the query syntax (phrases, -word, OR, field:value, prefix*)",
    "sort": "sorting by date",
    "facets": "facets (counts over every match)",
    "places": "the places of firms (country, state, city)",
    "matches": "every match (POST /api/v3/matches)",
    "firms": "firms and their timelines (GET /api/v3/firms)",
}


def uses_syntax(items: Iterable[str]) -> bool:
    """Whether any keyword item holds an operator of the query syntax. Items of plain words
    read the same either way, so the client sends `syntax` only for those that do (a server
    without the extension still answers them)."""
    return any(SYNTAX.search(item) for item in items)


def needed(body: Mapping[str, Any]) -> list[str]:
    """The extensions a search body asks for, in `BODY_EXTENSIONS` order."""
    return [name for name in BODY_EXTENSIONS if name in body]


def offered(document: Mapping[str, Any]) -> frozenset[str]:
    """The extensions a server's OpenAPI document lists: fields of its search request schema,
    and the matches and firms paths."""
    paths = document.get("paths") or {}
    names = set(_search_properties(document, paths.get(SEARCH_PATH) or {}))
    found = {name for name in BODY_EXTENSIONS if name in names}
    if MATCHES_PATH in paths:
        found.add("matches")
    if FIRMS_PATH in paths:
        found.add("firms")
    return frozenset(found)


def _search_properties(document: Mapping[str, Any], path: Mapping[str, Any]) -> dict[str, Any]:
    """The properties of the search body's schema, following one `$ref` into components."""
    content = ((path.get("post") or {}).get("requestBody") or {}).get("content") or {}
    schema = (content.get("application/json") or {}).get("schema") or {}
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
        schemas = (document.get("components") or {}).get("schemas") or {}
        schema = schemas.get(ref.rsplit("/", 1)[1]) or {}
    properties = schema.get("properties")
    return properties if isinstance(properties, dict) else {}


def not_offered(name: str, base_url: str) -> FeatureNotOffered:
    """The error for a call that needs extension `name` of a server that does not list it."""
    return FeatureNotOffered(
        f"this server ({base_url}) does not offer {WHAT[name]}, an extension of regnb serve "
        f"that its /api/v3/openapi.json does not list; {ADVICE[name]}",
        field=name,
    )


def facet_specs(by: Sequence[str] | str, size: int) -> list[str | dict[str, Any]]:
    """The `facets` field for facets `by` of `size` values each (names at the default size)."""
    names = [by] if isinstance(by, str) else list(by)
    if size == DEFAULT_FACET_SIZE:
        return list(names)
    return [{"name": name, "size": size} for name in names]


@dataclass(frozen=True)
class MatchesPage:
    """One answer of `POST /api/v3/matches`."""

    rows: list[dict[str, Any]]
    total: int
    next_offset: int | None

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> MatchesPage:
        rows = body["matches"]
        if not isinstance(rows, list):
            raise TypeError("matches must be a list")
        after = body.get("next_offset")
        return cls(rows, int(body["total"]), None if after is None else int(after))


def matches_frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """Matches as the engine's `matches` DataFrame (`regnb.results.matches_frame`)."""
    return results.matches_frame([dict(r) for r in rows])


def batch_size_of(batch_size: object) -> int | None:
    """`batch_size` checked: None, or a whole number of at least 1."""
    ok = isinstance(batch_size, int) and not isinstance(batch_size, bool) and batch_size >= 1
    if batch_size is not None and not ok:
        raise InvalidRequest(
            f"batch_size must be a whole number of at least 1, got {batch_size!r}",
            field="batch_size",
        )
    return batch_size  # type: ignore[return-value]  # checked above


def matches_window(limit: object, offset: object) -> tuple[int, int | None]:
    """`offset` (at least 0) and `limit` (None: every match, else at least 1) of a window of the
    matches, checked as the engine checks them."""
    return check_int(offset, "offset", 0), None if limit is None else check_int(limit, "limit", 1)


def page_limit(batch_size: int | None) -> int:
    """Matches asked for per request: the batch, at most `MATCHES_LIMIT_MAX`."""
    return min(batch_size or MATCHES_LIMIT_MAX, MATCHES_LIMIT_MAX)


def next_offset_after(page: MatchesPage, offset: int) -> int | None:
    """Where the next page starts; a server whose `next_offset` does not move on is at fault
    (following it would never end)."""
    after = page.next_offset
    if after is not None and after <= offset:
        raise UpstreamError(f"the matches at offset {offset} gave next_offset {after}")
    return after


def batch_frames(pages: Iterable[list[dict[str, Any]]], size: int) -> Iterator[pd.DataFrame]:
    """The rows of `pages`, in order, as DataFrames of `size` rows (the last one may be
    shorter); one page is held at a time."""
    held: list[dict[str, Any]] = []
    for rows in pages:
        held.extend(rows)
        while len(held) >= size:
            yield matches_frame(held[:size])
            held = held[size:]
    if held:
        yield matches_frame(held)
