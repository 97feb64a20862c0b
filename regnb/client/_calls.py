"""Each endpoint as a `Call`: what to send and how to read the answer, without any I/O, so the
sync and the async client share every request and every result type.

Results are rebuilt with the result classes' `from_dict`, the conversation endpoints' answers
with the `regnb.models` types' `from_dict`.
"""

from __future__ import annotations

import json
import urllib.parse
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import httpx
import pandas as pd

from regnb.catalog import Catalog
from regnb.client._errors import Style
from regnb.client._extensions import MatchesPage, offered, uses_syntax
from regnb.errors import InvalidRequest, NotFound, RegnbError, UpstreamError
from regnb.firms.timeline import Timeline, firms_frame, timeline_frame
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.request import SearchArgs, SearchRequest
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.validate import date_text

__all__ = [
    "IDEMPOTENCY_HEADER",
    "WAIT_MARGIN_S",
    "Call",
    "datasets",
    "download",
    "firms",
    "legacy_contents",
    "legacy_search",
    "list_conversations",
    "matches",
    "openapi",
    "produced_document",
    "read",
    "read_conversation",
    "search",
    "search_body",
    "send_message",
    "start_conversation",
    "stop_conversation",
    "text_download",
    "timeline",
]

T = TypeVar("T")
IDEMPOTENCY_HEADER = "Idempotency-Key"
WAIT_MARGIN_S = 30.0  # a conversation read may take `wait` seconds; its answer this much more


@dataclass(frozen=True)
class Call(Generic[T]):
    """One request and the reading of its successful answer.

    `repeatable`: safe to send again after the connection broke mid-way (False only for a stop,
    whose repeat would report `stopped: false`). `min_read_timeout_s`: the answer may take this
    long by design (a conversation read with `wait`). `with_key`: send `x-api-key` (not to a
    download link on another host)."""

    method: str
    path: str
    decode: Callable[[httpx.Response], T]
    params: Mapping[str, Any] | None = None
    body: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    style: Style = Style.V3
    repeatable: bool = True
    min_read_timeout_s: float | None = None
    with_key: bool = True


def encode(body: Mapping[str, Any]) -> bytes:
    """The body as JSON, a date object as its `YYYY-MM-DD`; a value JSON cannot hold (NaN, a
    set) is an invalid request."""
    try:
        text = json.dumps(
            body, ensure_ascii=False, allow_nan=False, separators=(",", ":"), default=_date
        )
    except (TypeError, ValueError) as exc:
        raise InvalidRequest(f"the request cannot be sent as JSON: {exc}") from None
    return text.encode("utf-8", "surrogatepass")


def _date(value: object) -> object:
    text = date_text(value)
    if text is value:
        raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")
    return text


def _json(response: httpx.Response) -> dict[str, Any]:
    try:
        value = json.loads(response.content)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise UpstreamError(
            f"{response.request.url} answered {response.status_code} without a JSON object"
        )
    return value


def _built(make: Callable[[dict[str, Any]], T]) -> Callable[[httpx.Response], T]:
    """Decode with a result class's `from_dict`; a body of another shape is the server's fault."""

    def decode(response: httpx.Response) -> T:
        body = _json(response)
        try:
            return make(body)
        except (KeyError, TypeError, ValueError) as exc:
            raise UpstreamError(
                f"{response.request.url} answered a body the spec does not describe ({exc!r})"
            ) from None

    return decode


def _segment(value: object, name: str, error: type[RegnbError]) -> str:
    """A path segment: a non-empty string, percent-encoded whole."""
    if not isinstance(value, str) or not value:
        raise error(f"{name} must be a non-empty string", field=name)
    return urllib.parse.quote(value, safe="")


def _given(**values: Any) -> dict[str, Any]:
    """The values that are not None (an absent field means the spec's default)."""
    return {k: v for k, v in values.items() if v is not None}


def datasets() -> Call[Catalog]:
    return Call("GET", "/api/v3/datasets", _built(Catalog.from_dict))


def search_body(
    keywords: Sequence[str] | str | SearchRequest,
    query: str | None = None,
    args: SearchArgs | None = None,
    *,
    limit: int = 20,
    offset: int = 0,
    sort: str = "relevance",
    facets: Sequence[str | dict[str, Any]] | None = None,
    places: bool = False,
) -> dict[str, Any]:
    """The v3 search body: a checked request's own body, or the arguments as given (`plan` is
    the key's: not sent). The extensions are sent only where they change the answer
    (`_syntax_field`), so that a plain search reads exactly as the spec's."""
    if isinstance(keywords, SearchRequest):
        return _plain_where_same(keywords.to_body())
    if isinstance(keywords, str):
        keywords = [keywords]
    elif isinstance(keywords, tuple):
        keywords = list(keywords)
    args = args or SearchArgs()
    datasets = args.get("datasets")
    if isinstance(datasets, tuple):
        datasets = list(datasets)
    return {
        "keywords": keywords,
        **_given(query=query, datasets=datasets, filters=args.get("filters")),
        **_given(date_from=args.get("date_from"), date_to=args.get("date_to")),
        "limit": limit,
        "offset": offset,
        **_syntax_field(keywords, args.get("syntax", "query")),
        **({} if sort == "relevance" else {"sort": sort}),
        **({} if facets is None else {"facets": list(facets)}),
        **({"places": True} if places else {}),
    }


def _syntax_field(keywords: object, syntax: str) -> dict[str, Any]:
    """`{"syntax": "query"}` when an item holds an operator (absent means plain, the spec's
    reading, which is the same for plain words); a value other than query or plain is sent for
    the server to refuse."""
    if syntax == "plain":
        return {}
    items = keywords if isinstance(keywords, list) else []
    if syntax == "query" and not uses_syntax(i for i in items if isinstance(i, str)):
        return {}
    return {"syntax": syntax}


def _plain_where_same(body: dict[str, Any]) -> dict[str, Any]:
    """A checked request's body without `syntax` where its items read the same without it."""
    if "syntax" not in body:
        return body
    rest = {k: v for k, v in body.items() if k != "syntax"}
    return rest | _syntax_field(rest["keywords"], str(body["syntax"]))


def search(body: Mapping[str, Any]) -> Call[SearchResult]:
    def result(got: dict[str, Any]) -> SearchResult:
        return SearchResult.from_dict(
            got,
            keywords=body["keywords"],
            query=body.get("query"),
            syntax=body.get("syntax", "plain"),
        )

    return Call("POST", "/api/v3/search", _built(result), body=encode(body))


def openapi() -> Call[frozenset[str]]:
    """The server's OpenAPI document, read for the extensions it lists (`offered`)."""
    return Call("GET", "/api/v3/openapi.json", _built(offered))


def matches(body: Mapping[str, Any]) -> Call[MatchesPage]:
    """One page of every match (`POST /api/v3/matches`, an extension)."""
    return Call("POST", "/api/v3/matches", _built(MatchesPage.from_dict), body=encode(body))


def firms(name_or_id: str, datasets: Sequence[str] | None, limit: int) -> Call[pd.DataFrame]:
    """`GET /api/v3/firms` (an extension): the candidates as `Engine.firm`'s frame."""
    if not isinstance(name_or_id, str) or not name_or_id.strip():
        raise InvalidRequest(
            "name_or_id must be a firm's name, an identifier or a firm id", field="name_or_id"
        )
    params: dict[str, Any] = {"q": name_or_id, "limit": limit}
    if datasets is not None:
        if isinstance(datasets, str) or not all(isinstance(d, str) for d in datasets):
            raise InvalidRequest("datasets must be a list of dataset ids", field="datasets")
        params["datasets"] = ",".join(datasets)
    return Call(
        "GET", "/api/v3/firms", _built(lambda got: firms_frame(got["firms"])), params=params
    )


def timeline(firm_id: str) -> Call[Timeline]:
    """`GET /api/v3/firms/{id}/timeline` (an extension): `Engine.timeline`'s frame."""
    path = f"/api/v3/firms/{_segment(firm_id, 'entity', InvalidRequest)}/timeline"
    return Call("GET", path, _built(lambda got: timeline_frame(got["events"], firm=got["firm"])))


def read(document_id: str, page_from: int = 1, page_to: int | None = None) -> Call[DocumentRead]:
    path = "/api/v3/documents/" + _segment(document_id, "document_id", InvalidRequest)
    params = _given(page_from=page_from, page_to=page_to)
    return Call("GET", path, _built(DocumentRead.from_dict), params=params)


def legacy_search(
    query_text: str,
    top_k: int,
    offset: int,
    dataset_to_search: Sequence[str] | None,
    year_from: int | None,
    year_to: int | None,
) -> Call[LegacySearchResult]:
    if isinstance(dataset_to_search, tuple):
        dataset_to_search = list(dataset_to_search)
    body = {
        "query_text": query_text,
        "top_k": top_k,
        "offset": offset,
        **_given(dataset_to_search=dataset_to_search),
        **_given(year_from=year_from, year_to=year_to),
    }
    decode = _built(LegacySearchResult.from_dict)
    return Call("POST", "/api/search", decode, body=encode(body), style=Style.LEGACY)


def legacy_contents(doc_id: str, top_k: int, offset: int) -> Call[ContentsResult]:
    body = encode({"doc_id": doc_id, "top_k": top_k, "offset": offset})
    decode = _built(ContentsResult.from_dict)
    return Call("POST", "/api/contents", decode, body=body, style=Style.LEGACY)


def _conversation_path(conversation_id: str, *tail: str) -> str:
    """A conversation's path; `tail` segments are already encoded."""
    cid = _segment(conversation_id, "conversation_id", NotFound)
    return "/".join(["/api/v3/conversations", cid, *tail])


def _keyed(idempotency_key: str | None) -> dict[str, str]:
    """The `Idempotency-Key` header: the caller's key, else a new one for this message. Every
    try of the call sends the same one, so a retry never starts a second run."""
    return {IDEMPOTENCY_HEADER: idempotency_key or str(uuid.uuid4())}


def start_conversation(message: str, idempotency_key: str | None) -> Call[ConversationAccepted]:
    body = encode({"message": message})
    headers = _keyed(idempotency_key)
    decode = _built(ConversationAccepted.from_dict)
    return Call("POST", "/api/v3/conversations", decode, body=body, headers=headers)


def send_message(
    conversation_id: str, message: str, idempotency_key: str | None
) -> Call[ConversationAccepted]:
    path = _conversation_path(conversation_id, "messages")
    body = encode({"message": message})
    decode = _built(ConversationAccepted.from_dict)
    return Call("POST", path, decode, body=body, headers=_keyed(idempotency_key))


def list_conversations(status: str, limit: int, offset: int) -> Call[ConversationList]:
    params = {"status": status, "limit": limit, "offset": offset}
    decode = _built(ConversationList.from_dict)
    return Call("GET", "/api/v3/conversations", decode, params=params)


def read_conversation(conversation_id: str, wait: float) -> Call[ConversationRead]:
    waits = isinstance(wait, int | float) and not isinstance(wait, bool) and wait > 0
    longest = float(wait) + WAIT_MARGIN_S if waits else None
    params = {"wait": wait}
    path = _conversation_path(conversation_id)
    decode = _built(ConversationRead.from_dict)
    return Call("GET", path, decode, params=params, min_read_timeout_s=longest)


def stop_conversation(conversation_id: str) -> Call[ConversationStopped]:
    path = _conversation_path(conversation_id, "stop")
    return Call("POST", path, _built(ConversationStopped.from_dict), repeatable=False)


def produced_document(conversation_id: str, document_id: str) -> Call[ProducedDocument]:
    doc = _segment(document_id, "document_id", NotFound)
    path = _conversation_path(conversation_id, "documents", doc)
    return Call("GET", path, _built(ProducedDocument.from_dict))


def download(url: str, with_key: bool) -> Call[bytes]:
    """A produced file's signed link; the key goes with it only to the server's own address."""
    return Call("GET", url, lambda response: response.content, with_key=with_key)


def text_download(document: ProducedDocument) -> tuple[str, bytes]:
    """A text document saved as markdown, named as the local engine names it."""
    name = "".join(c if c.isalnum() or c in "-_ " else "-" for c in document.title).strip()
    return f"{name or document.id}.md", (document.content or "").encode("utf-8")


def same_origin(url: str, base_url: str) -> bool:
    """Whether `url` is on the server's own scheme, host and port."""
    a, b = httpx.URL(url), httpx.URL(base_url)
    return (a.scheme, a.host, a.port) == (b.scheme, b.host, b.port)
