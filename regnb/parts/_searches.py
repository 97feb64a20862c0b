"""Searches over one index: v3 requests checked once against the catalog and run by the
`Searcher`; legacy page-level BM25."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from regnb import legacy
from regnb._store import IndexStore
from regnb.catalog import Catalog
from regnb.present.names import DatasetNames
from regnb.query import warn_plain
from regnb.request import SearchRequest
from regnb.results import LegacySearchResult, SearchResult
from regnb.search import Searcher
from regnb.settings import Settings
from regnb.text import Normaliser
from regnb.validate import check_plan, search_request

__all__ = ["Searches"]


class Searches:
    """The engine's searches, each over the index snapshot `stores()` gives when it starts;
    `default_plan` is the engine's, for a call that names none."""

    def __init__(
        self,
        stores: Callable[[], IndexStore],
        catalog: Catalog,
        normaliser: Normaliser,
        embed_query: Callable[[str], np.ndarray],
        settings: Settings,
    ) -> None:
        self.stores, self.catalog, self.normaliser = stores, catalog, normaliser
        self.names = DatasetNames.of(catalog)  # what results show: this catalog's names
        self.searcher = Searcher(
            stores,
            catalog,
            embed_query,
            budget=settings.page_budget,
            cap=settings.match_count_cap,
            timeout_s=settings.search_timeout_s,
            similarity_weight=settings.similarity_weight,
            prefix_limit=settings.prefix_terms,
        )

    def check(
        self,
        keywords: Sequence[str] | str,
        query: str | None,
        *,
        datasets: Sequence[str] | None,
        filters: dict[str, dict[str, Any]] | None,
        date_from: str | None,
        date_to: str | None,
        limit: int,
        offset: int,
        plan: str | None,
        default_plan: str,
        syntax: str = "query",
        warn: bool = True,
    ) -> SearchRequest:
        """A search checked once against the catalog; raises the spec's 400 errors. `warn`:
        once per process, when plain reading meets quotes or operators."""
        if isinstance(keywords, str):
            keywords = [keywords]
        if warn and syntax == "plain" and isinstance(keywords, list | tuple):
            warn_plain(keywords, self.normaliser.terms, stacklevel=5)
        return search_request(
            self.catalog,
            self.normaliser.terms,
            {
                "keywords": keywords,
                "query": query,
                "datasets": datasets,
                "filters": filters,
                "date_from": date_from,
                "date_to": date_to,
                "limit": limit,
                "offset": offset,
                "plan": default_plan if plan is None else plan,
                "syntax": syntax,
            },
        )

    def run(self, request: SearchRequest) -> SearchResult:
        """A checked search: documents best first, each with up to 3 of its best pages."""
        return replace(self.searcher.run(request), names=self.names)

    def legacy(
        self,
        query_text: str,
        top_k: int,
        offset: int,
        *,
        dataset_to_search: Sequence[str] | None,
        year_from: int | None,
        year_to: int | None,
        plan: str | None,
        default_plan: str,
    ) -> LegacySearchResult:
        """Page-level BM25 over every page; 0-based `page_num`, `<b>` highlights."""
        legacy.check_query_text(query_text)
        datasets = legacy.check_datasets(
            self.catalog, dataset_to_search, check_plan(plan or default_plan)
        )
        found = legacy.search(
            self.stores(), self.normaliser, query_text, top_k, offset, datasets, year_from, year_to
        )
        return replace(found, names=self.names)

    def close(self) -> None:
        self.searcher.close()
