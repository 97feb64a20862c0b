"""What the agent needs from an engine: the public search, counts over every match (facets),
every matching document (matches), read, catalog, embedding, document frequency and
common-sentence calls of a local `regnb.Engine` (never its store or normaliser)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np
import pandas as pd

from regnb.catalog import Catalog
from regnb.results import DocumentRead, SearchResult

__all__ = ["Source"]


class Source(Protocol):
    """The engine calls the research agent makes."""

    plan: str

    def search(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
    ) -> SearchResult: ...

    def facets(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        by: Sequence[str] | str = ("dataset", "year"),
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        plan: str | None = None,
        syntax: str = "query",
        size: int = 20,
    ) -> dict[str, pd.DataFrame]: ...

    def matches(
        self,
        keywords: Sequence[str] | str,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        plan: str | None = None,
        syntax: str = "query",
        order: str = "date",
        batch_size: int | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> pd.DataFrame | Iterator[pd.DataFrame]: ...

    def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead: ...

    def datasets(self) -> Catalog: ...

    def counts(self) -> pd.DataFrame: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]: ...

    def common_sentences(self, dataset: str) -> frozenset[str]: ...
