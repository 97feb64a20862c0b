"""What the public functions return: small objects with DataFrames and the spec's JSON shapes."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

__all__ = ["ContentsResult", "DocumentRead", "LegacySearchResult", "SearchResult"]

DOCUMENT_COLUMNS = [
    "document_id",
    "dataset",
    "title",
    "date",
    "url",
    "score",
    "matched_pages",
    "fields",
]
PAGE_COLUMNS = ["document_id", "page_num", "score", "text"]
STATUS_COLUMNS = ["dataset", "status", "matches", "pages", "loosened", "reason"]


def _html_table(frame: pd.DataFrame, caption: str) -> str:
    return f"<p><b>{caption}</b></p>" + frame.to_html(index=False, max_rows=20, escape=True)


@dataclass
class SearchResult:
    """A v3 search: `documents`, `pages` and `statuses` as DataFrames; `to_dict()` is the envelope."""

    results: list[dict[str, Any]]
    dataset_statuses: dict[str, dict[str, Any]]
    total: int
    next_offset: int | None
    ranking: str
    timings: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The spec's search response envelope, JSON-ready."""
        return {
            "results": copy.deepcopy(self.results),
            "datasets": copy.deepcopy(self.dataset_statuses),
            "total": self.total,
            "next_offset": self.next_offset,
            "ranking": self.ranking,
        }

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> SearchResult:
        """The result a search response envelope describes."""
        return cls(
            results=copy.deepcopy(body["results"]),
            dataset_statuses=copy.deepcopy(body["datasets"]),
            total=int(body["total"]),
            next_offset=body.get("next_offset"),
            ranking=body["ranking"],
        )

    @property
    def documents(self) -> pd.DataFrame:
        """One row per document, best first; `score` is its best page's."""
        rows = [
            {**{k: r[k] for k in DOCUMENT_COLUMNS if k in r}, "score": r["pages"][0]["score"]}
            for r in self.results
        ]
        return pd.DataFrame(rows, columns=DOCUMENT_COLUMNS)

    @property
    def pages(self) -> pd.DataFrame:
        """One row per returned page."""
        rows = [{"document_id": r["document_id"], **p} for r in self.results for p in r["pages"]]
        return pd.DataFrame(rows, columns=PAGE_COLUMNS)

    @property
    def statuses(self) -> pd.DataFrame:
        """One row per dataset: status, matches, pages, loosened, reason."""
        rows = [{"dataset": ds, **s} for ds, s in self.dataset_statuses.items()]
        frame = pd.DataFrame(rows, columns=STATUS_COLUMNS)
        frame["loosened"] = frame["loosened"].astype("boolean").fillna(False)
        return frame

    def __len__(self) -> int:
        return len(self.results)

    def _repr_html_(self) -> str:
        head = f"{self.total} documents ({self.ranking} ranking)"
        return _html_table(self.documents.drop(columns=["fields"]), head)


@dataclass
class DocumentRead:
    """A v3 document read: `pages` as a DataFrame; `to_dict()` is the spec's response."""

    document_id: str
    dataset: str
    title: str
    url: str | None
    total_pages: int
    page_list: list[dict[str, Any]]
    next_page_from: int | None

    @property
    def pages(self) -> pd.DataFrame:
        return pd.DataFrame(self.page_list, columns=["page_num", "text"])

    @property
    def text(self) -> str:
        """The pages returned, joined by blank lines."""
        return "\n\n".join(p["text"] for p in self.page_list)

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> DocumentRead:
        """The read a document read response describes."""
        return cls(
            document_id=body["document_id"],
            dataset=body["dataset"],
            title=body["title"],
            url=body.get("url"),
            total_pages=int(body["total_pages"]),
            page_list=copy.deepcopy(body["pages"]),
            next_page_from=body.get("next_page_from"),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "document_id": self.document_id,
            "dataset": self.dataset,
            "title": self.title,
            "url": self.url,
            "total_pages": self.total_pages,
            "pages": copy.deepcopy(self.page_list),
            "next_page_from": self.next_page_from,
        }

    def _repr_html_(self) -> str:
        return _html_table(self.pages, f"{self.title} ({self.total_pages} pages)")


@dataclass
class LegacySearchResult:
    """The legacy page-level search: `results` (DataFrame) and `total`."""

    rows: list[dict[str, Any]]
    total: int

    @property
    def results(self) -> pd.DataFrame:
        return pd.DataFrame(self.rows)

    def to_dict(self) -> dict[str, Any]:
        return {"results": copy.deepcopy(self.rows), "total": self.total}

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> LegacySearchResult:
        return cls(copy.deepcopy(body["results"]), int(body["total"]))


@dataclass
class ContentsResult:
    """The legacy contents response: `pages` (0-based) and `total_pages`."""

    body: dict[str, Any]

    @property
    def pages(self) -> pd.DataFrame:
        return pd.DataFrame(self.body["pages"], columns=["page_num", "text"])

    def to_dict(self) -> dict[str, Any]:
        return copy.deepcopy(self.body)

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> ContentsResult:
        return cls(copy.deepcopy(body))
