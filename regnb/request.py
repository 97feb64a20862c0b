"""A v3 search, checked once at the edge and carried to the engine as one object."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from regnb.query import KeywordItem

__all__ = [
    "DATE_KINDS",
    "ORDERS",
    "SORTS",
    "DocFilter",
    "Facet",
    "KeywordItem",
    "SearchArgs",
    "SearchRequest",
]

ORDERS = ("date", "date_asc", "bm25")  # how every match may be listed (`matches`)

DATE_KINDS = ("date_from", "date_to")
SORTS = ("relevance", "date", "date_asc")


class SearchArgs(TypedDict, total=False):
    """The search block, said once: what narrows a search besides its keywords and query, as
    the public signatures (`Engine.search`, `Client.search`...) spell it out. Inside the
    package a search travels as these arguments until it is checked, then as a
    `SearchRequest`."""

    datasets: Sequence[str] | None
    filters: dict[str, dict[str, Any]] | None
    date_from: str | None
    date_to: str | None
    plan: str | None
    syntax: str


@dataclass(frozen=True)
class DocFilter:
    """One condition on a dataset's documents: `name` as the request gave it, `field` the
    document field it reads, `kind` how it matches."""

    kind: str  # "keyword", "exact", "enum", "boolean", "number", "date_from", "date_to"
    field: str
    value: Any
    name: str = ""

    @property
    def on_fields(self) -> bool:
        """Whether the filter reads field values (date bounds are checked in memory)."""
        return self.kind not in DATE_KINDS


@dataclass(frozen=True)
class Facet:
    """A facet asked for: its name (`dataset`, `year`, `month`, `cfr` or a catalog field) and
    how many values to list (the rest are summed in one `(other)` row)."""

    name: str
    size: int = 20

    def to_body(self) -> str | dict[str, Any]:
        return self.name if self.size == Facet.size else {"name": self.name, "size": self.size}


@dataclass(frozen=True)
class SearchRequest:
    """A checked v3 search. Build it with `Engine.check_search` (or `validate.search_request`)."""

    items: tuple[KeywordItem, ...]
    query: str | None
    datasets: tuple[str, ...]
    named_datasets: bool
    filters: Mapping[str, tuple[DocFilter, ...]] = field(default_factory=dict)
    date_from: str | None = None
    date_to: str | None = None
    limit: int = 20
    offset: int = 0
    plan: str = "enterprise"
    sort: str = "relevance"
    facets: tuple[Facet, ...] = ()
    syntax: str = "plain"
    """How keyword items read: `plain` words (the spec's) or the `query` syntax (regnb.query)."""
    places: bool = False
    """Whether each result's `fields` carry its firm's place (`country`, `state`, `city`, for
    the firm-facing datasets): an extension."""

    @property
    def keywords(self) -> list[str]:
        return [item.text for item in self.items]

    @property
    def dated(self) -> bool:
        return self.date_from is not None or self.date_to is not None

    @property
    def ranking(self) -> str:
        """`bm25` for one dataset without a query, else `similarity`."""
        return "bm25" if len(self.datasets) == 1 and self.query is None else "similarity"

    @property
    def ranking_text(self) -> str:
        """What the pages are ranked against: the query, else the keyword items joined."""
        return self.query or ", ".join(self.keywords)

    def dataset_filters(self, dataset: str, date_field: str | None) -> list[DocFilter]:
        """The dataset's own filters plus the top-level date bounds on its date field."""
        out = list(self.filters.get(dataset, ()))
        for kind in DATE_KINDS:
            value = getattr(self, kind)
            if value is not None:
                out.append(DocFilter(kind, date_field or "date", value, kind))
        return out

    def to_body(self) -> dict[str, Any]:
        """The v3 request body this search stands for (what a remote client sends)."""
        body: dict[str, Any] = {"keywords": self.keywords}
        if self.query is not None:
            body["query"] = self.query
        if self.named_datasets:
            body["datasets"] = list(self.datasets)
        if self.filters:
            body["filters"] = {
                ds: {f.name: f.value for f in given} for ds, given in self.filters.items()
            }
        for name in DATE_KINDS:
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        body["limit"], body["offset"] = self.limit, self.offset
        if self.sort != "relevance":
            body["sort"] = self.sort
        if self.facets:
            body["facets"] = [f.to_body() for f in self.facets]
        if self.syntax == "query":
            body["syntax"] = "query"
        if self.places:
            body["places"] = True
        return body
