"""Searches over one index: v3 requests checked once against the catalog and run by the
`Searcher`; legacy page-level BM25."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from regnb.catalog import Catalog
from regnb.index.store import IndexStore
from regnb.present.names import DatasetNames
from regnb.query import warn_plain
from regnb.request import SearchArgs, SearchRequest
from regnb.results import (
    LegacySearchResult,
    SearchResult,
    facet_frames,
    field_dtype,
    matches_frame,
)
from regnb.search import legacy
from regnb.search.facets import count_facets
from regnb.search.match_rows import best_pages, match_rows
from regnb.search.procedure import Searcher
from regnb.settings import Settings
from regnb.text import Normaliser
from regnb.validate import (
    check_facets,
    check_int,
    check_order,
    check_places,
    check_plan,
    check_sort,
    search_request,
)

__all__ = ["MATCH_BATCH", "MatchBatches", "Searches"]

MATCH_BATCH = 10_000  # rows read from the index at a time by `matches` without a batch size


class MatchBatches:
    """Match rows as DataFrames, a batch at a time: `total` matching documents in all (each
    frame's `attrs["total"]`), `statuses` the datasets' (`attrs["datasets"]`), `fields` the
    catalog fields every frame has a column for."""

    def __init__(
        self,
        rows: Iterator[list[dict[str, Any]]],
        fields: list[str],
        total: int,
        statuses: dict[str, dict[str, Any]],
    ) -> None:
        self.rows, self.fields, self.total, self.statuses = rows, fields, total, statuses

    def frame(self, rows: Sequence[dict[str, Any]]) -> pd.DataFrame:
        frame = matches_frame(rows, self.fields)
        frame.attrs.update(total=self.total, datasets=self.statuses)
        return frame

    def __iter__(self) -> Iterator[pd.DataFrame]:
        for rows in self.rows:
            yield self.frame(rows)

    def whole(self) -> pd.DataFrame:
        """Every batch in one DataFrame (a field typed again over all rows where batches
        differ)."""
        frames = list(self)
        if len(frames) < 2:
            return frames[0] if frames else self.frame([])
        whole = pd.concat(frames, ignore_index=True)
        for name in self.fields:
            if name in whole and whole[name].dtype == object:
                cells = whole[name].astype(object).where(whole[name].notna(), None)
                whole[name] = field_dtype(cells)
        whole.attrs.update(total=self.total, datasets=self.statuses)
        return whole


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
        args: SearchArgs,
        *,
        default_plan: str,
        limit: int = 20,
        offset: int = 0,
        sort: str = "relevance",
        facets: Sequence[Any] | None = None,
        places: bool = False,
        warn: bool = True,
    ) -> SearchRequest:
        """A search checked once against the catalog; raises the spec's 400 errors. `warn`:
        once per process, when plain reading meets quotes or operators."""
        if isinstance(keywords, str):
            keywords = [keywords]
        syntax = args.get("syntax", "query")
        if warn and syntax == "plain" and isinstance(keywords, list | tuple):
            warn_plain(keywords, self.normaliser.terms, stacklevel=5)
        plan = args.get("plan")
        return search_request(
            self.catalog,
            self.normaliser.terms,
            {
                "keywords": keywords,
                "query": query,
                "datasets": args.get("datasets"),
                "filters": args.get("filters"),
                "date_from": args.get("date_from"),
                "date_to": args.get("date_to"),
                "limit": limit,
                "offset": offset,
                "plan": default_plan if plan is None else plan,
                "sort": sort,
                "facets": facets,
                "syntax": syntax,
                "places": places,
            },
        )

    def with_options(
        self, request: SearchRequest, sort: str | None, facets: Sequence[Any] | None
    ) -> SearchRequest:
        """A checked search with another sort or facets (each checked) where given."""
        if sort is not None:
            request = replace(request, sort=check_sort(sort))
        if facets is not None:
            request = replace(request, facets=check_facets(self.catalog, facets, request.datasets))
        return request

    def run(
        self,
        request: SearchRequest,
        *,
        sort: str | None = None,
        facets: Sequence[Any] | None = None,
        places: bool | None = None,
    ) -> SearchResult:
        """A checked search (with another `sort`, `facets` or `places` where given): documents
        in order, each with up to 3 of its best pages."""
        request = self.with_options(request, sort, facets)
        if places is not None:
            request = replace(request, places=check_places(places))
        return replace(self.searcher.run(request), names=self.names)

    def facets(
        self, request: SearchRequest, by: Sequence[Any] | str, size: int
    ) -> dict[str, pd.DataFrame]:
        """Facets `by` (names, each listing `size` values, or `{"name", "size"}` objects) over
        every full match of the request, one DataFrame each."""
        names = [by] if isinstance(by, str) else list(by)
        asked = [{"name": f, "size": size} if isinstance(f, str) else f for f in names]
        request = self.with_options(request, None, asked)
        store, matches = self.searcher.full_matches(request)
        return facet_frames(count_facets(store, matches, request.facets))

    def matches(
        self,
        request: SearchRequest,
        order: str,
        *,
        batch_size: int | None,
        offset: int = 0,
        limit: int | None = None,
    ) -> pd.DataFrame | Iterator[pd.DataFrame]:
        """Every matching document in `order`: one DataFrame, or with `batch_size` an iterator
        of them (the request is checked and matched now; rows are read as batches are)."""
        order = check_order(order)
        if batch_size is not None:
            check_int(batch_size, "batch_size", 1)
        check_int(offset, "offset", 0)
        if limit is not None:
            check_int(limit, "limit", 1)
        store, matches = self.searcher.full_matches(request)
        total = int(np.unique(store.page_doc[matches.pages]).size)
        rows = match_rows(
            store,
            self.catalog,
            matches,
            order,
            batch_size=MATCH_BATCH if batch_size is None else batch_size,
            offset=offset,
            limit=limit,
        )
        batches = MatchBatches(rows, self.fields(request), total, matches.statuses)
        return iter(batches) if batch_size is not None else batches.whole()

    def best_pages(
        self, request: SearchRequest, document_ids: Sequence[str]
    ) -> dict[str, tuple[int, str]]:
        """Of `document_ids`, those among the request's full matches, each with its best
        page's number and text (the page `matches` scores it by)."""
        store, matches = self.searcher.full_matches(request)
        rows = {}
        for document_id in dict.fromkeys(document_ids):
            row = store.rows.document(document_id)
            if row is not None:
                rows[int(row["doc_row"])] = document_id
        best = best_pages(store, matches, np.array(sorted(rows), np.int64))
        return {
            rows[page["doc_row"]]: (int(page["page_num"]), page["text"])
            for page in store.rows.pages(list(best.values()))
        }

    def fields(self, request: SearchRequest) -> list[str]:
        """The catalog fields of the searched datasets, in order, each once, then the place
        fields of the firm-facing ones."""
        datasets = [self.catalog[ds] for ds in request.datasets]
        own = [f for ds in datasets for f in ds.fields]
        return list(dict.fromkeys([*own, *(f for ds in datasets for f in ds.place_fields)]))

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
