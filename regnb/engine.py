"""The engine: one corpus, its catalog and index; every public operation goes through here.

`Engine` is a composition: it holds its parts (`regnb.parts`) and hands each public method to
one of them in a line. The conversations are made on first use, so that opening an engine (and
`import regnb`) opens no conversation database and starts no worker thread.
"""

from __future__ import annotations

import datetime as dt
import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, Unpack

import numpy as np
import pandas as pd

from regnb import paging
from regnb.catalog import Catalog
from regnb.conversations import conversation
from regnb.conversations.agents import AgentFactory, Agents
from regnb.conversations.conversation import Conversation
from regnb.corpus.demo import demo_corpus_path
from regnb.corpus.location import Location, location
from regnb.encoder import Embedder, Encoder
from regnb.firms.lookup import Firms
from regnb.firms.timeline import firm_repeats
from regnb.index.current import CorpusIndex
from regnb.index.statistics import COMMON_FILE as COMMON_FILE
from regnb.index.statistics import CorpusStatistics
from regnb.index.store import IndexStore
from regnb.models import (
    ConversationAccepted,
    ConversationList,
    ConversationRead,
    ConversationStopped,
    ProducedDocument,
)
from regnb.request import SearchArgs, SearchRequest
from regnb.results import ContentsResult, DocumentRead, LegacySearchResult, SearchResult
from regnb.search.reader import Reader
from regnb.search.searches import Searches
from regnb.settings import Settings
from regnb.text import Normaliser
from regnb.validate import LIMIT_MAX, check_plan, search_args, spec_arguments
from regnb.watch import Watchlist
from regnb.watch import summary as watch_summary
from regnb.watch.watches import Watches

if TYPE_CHECKING:
    from regnb.conversations import LocalConversations
    from regnb.conversations.service import ConversationService
    from regnb.firms.timeline import Timeline

__all__ = ["Engine", "Lazy", "demo_corpus_path"]


class Closeable(Protocol):
    def close(self) -> None: ...


T = TypeVar("T", bound=Closeable)


class Lazy(Generic[T]):
    """`make()` on the first `get()`; `close()` closes what was made and forgets it, so that the
    next `get()` makes a new one."""

    def __init__(self, make: Callable[[], T]) -> None:
        self._make = make
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        value = self._value
        if value is None:
            with self._lock:
                value = self._value
                if value is None:
                    value = self._value = self._make()
        return value

    def close(self) -> None:
        with self._lock:
            value, self._value = self._value, None
        if value is not None:
            value.close()


class Engine:
    """Search, read and list one corpus, and hold research conversations over it.
    Open it with `regnb.open()`; it implements `regnb.interface.EngineAPI`."""

    settings: Settings
    path: Path | Location  # a folder, or a corpus on an object store
    plan: str
    index: CorpusIndex
    catalog: Catalog
    normaliser: Normaliser
    embedder: Embedder
    statistics: CorpusStatistics
    searches: Searches
    reader: Reader
    firms: Firms
    agents: Agents
    watches: Watches

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        plan: str = "enterprise",
        encoder: Encoder | None = None,
        settings: Settings | None = None,
        progress: bool = True,
    ) -> None:
        self.settings = settings or Settings.from_env()
        loc = location(path if path is not None else demo_corpus_path())
        self.path = loc.local if loc.local is not None else loc
        self.plan = check_plan(plan)
        self.index = CorpusIndex.open(loc, self.settings, progress=progress)
        self.catalog = self.index.catalog
        store = self.index.store
        self.embedder = Embedder(
            store.encoder_name,
            store.dim,
            where=self.path,
            encoder=encoder,
            cache_size=self.settings.query_cache_size,
        )
        self.normaliser = Normaliser()
        self.statistics = CorpusStatistics(self.index.current, self.normaliser)
        self.searches = Searches(
            self.index.current, self.catalog, self.normaliser, self.embedder.query, self.settings
        )
        self.reader = Reader(
            self.index.current,
            self.catalog,
            max_pages=self.settings.read_max_pages,
            max_bytes=self.settings.read_max_bytes,
        )
        self.firms = Firms(self.index.current, self.catalog)
        self.agents = Agents(
            self,
            self.settings,
            watched=functools.partial(watch_summary, self),
            repeats=functools.partial(firm_repeats, self),
        )
        self.watches = Watches(self)
        self._conversations: Lazy[LocalConversations] = Lazy(self._open_conversations)

    def _open_conversations(self) -> LocalConversations:
        from regnb.conversations import LocalConversations

        return LocalConversations.open(self.settings, self.agents, self.read)

    def close(self) -> None:
        self.close_conversations()
        self.searches.close()
        self.index.close()

    @property
    def store(self) -> IndexStore:
        """The index's current snapshot: documents written to the corpus since the last call
        are indexed first, and a newer index (another process's update, a merge) is opened."""
        return self.index.store

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<regnb.Engine {self.path} plan={self.plan}>"

    # --- corpus: catalog, counts, index -------------------------------------------------------

    def datasets(self, refresh: bool = False) -> Catalog:
        """The catalog: `.to_frame()` for a DataFrame, `.to_dict()` for the spec's response.
        `refresh` is the interface's (a client's copy is fetched again): a local engine's catalog
        is always its own current one."""
        return self.catalog

    def counts(self) -> pd.DataFrame:
        """Documents and pages per dataset of the corpus, in catalog order."""
        return self.index.counts()

    def document_count(
        self, dataset: str, date_from: str | None = None, date_to: str | None = None
    ) -> int:
        """The documents of a dataset dated within the bounds (ISO dates, inclusive): what a
        share of matches is a share of ("12 of the 30 complete response letters of 2019")."""
        return self.store.rows.dated_count(dataset, date_from, date_to)

    @property
    def index_path(self) -> Path:
        """The folder of this corpus version's index (under REGNB_HOME/index/)."""
        return self.index.folder

    # --- embeddings and statistics (what the research agent asks besides search and read) ----

    @property
    def encoder(self) -> Encoder:
        """The query encoder (the corpus's model unless one was given), loaded on first use."""
        return self.embedder.encoder

    def embed_query(self, text: str) -> np.ndarray:
        """The query's embedding, from a bounded in-memory cache."""
        return self.embedder.query(text)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` with the corpus's encoder (rows L2-normalised, float32); bulk
        work runs on a session of its own, apart from the queries'."""
        return self.embedder.texts(texts)

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]:
        """For each word, the share of the corpus's pages that hold it (after the index's
        normalisation); stop words and words the corpus lacks give 0.0."""
        return self.statistics.document_frequency(words)

    def common_sentences(self, dataset: str) -> frozenset[str]:
        """Keys (`furniture.sentence_key`) of the sentences whose near-copies are in a large
        share of a dataset's documents: furniture whatever their words. Found once per index
        from a fixed sample of the dataset, kept in memory and in the index folder."""
        return self.statistics.common_sentences(dataset)

    # --- search -------------------------------------------------------------------------------

    @spec_arguments
    def check_search(
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
        syntax: str = "query",
        sort: str = "relevance",
        facets: Sequence[str | dict[str, Any]] | None = None,
        places: bool = False,
    ) -> SearchRequest:
        """A search checked once against the catalog; raises the spec's 400 errors."""
        return self.searches.check(
            keywords,
            query,
            SearchArgs(
                datasets=datasets,
                filters=filters,
                date_from=date_from,
                date_to=date_to,
                plan=plan,
                syntax=syntax,
            ),
            default_plan=self.plan,
            limit=limit,
            offset=offset,
            sort=sort,
            facets=facets,
            places=places,
        )

    @spec_arguments
    def search(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        datasets: Sequence[str] | None = None,
        filters: dict[str, dict[str, Any]] | None = None,
        date_from: str | None = None,
        date_to: str | None = None,
        limit: int = 20,
        offset: int = 0,
        plan: str | None = None,
        syntax: str = "query",
        sort: str = "relevance",
        facets: Sequence[str | dict[str, Any]] | None = None,
        places: bool = False,
    ) -> SearchResult:
        """v3 search: documents best first, each with up to 3 of its best matching pages.

        `keywords` are alternatives; every word of one item must match a page. A request
        checked before (`check_search`) runs as it is, with `sort`, `facets` and `places` where
        given. `sort="date"` (newest first) or `"date_asc"` orders every full match's documents
        by date; `facets` (names, or `{"name", "size"}`) adds counts over every full match
        (`res.facets`); `places=True` adds each firm's place to the fields of the firm-facing
        datasets' results (`country`, `state`, `city`: columns of `res.documents_of(...)`)."""
        return self.searches.run(
            self._request(
                keywords,
                query,
                SearchArgs(
                    datasets=datasets,
                    filters=filters,
                    date_from=date_from,
                    date_to=date_to,
                    plan=plan,
                    syntax=syntax,
                ),
                limit,
                offset,
            ),
            sort=None if sort == "relevance" else sort,  # a checked request keeps its own
            facets=facets,
            places=places or None,
        )

    @spec_arguments
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
    ) -> dict[str, pd.DataFrame]:
        """Counts of matching documents and pages over every full match of the search, one
        DataFrame (`value`, `documents`, `pages`) per facet of `by`: `dataset`, `year`,
        `month`, `cfr` (sections cited) or a catalog field (its `size` most frequent values,
        then `(other)`)."""
        return self.searches.facets(
            self._request(
                keywords,
                query,
                SearchArgs(
                    datasets=datasets,
                    filters=filters,
                    date_from=date_from,
                    date_to=date_to,
                    plan=plan,
                    syntax=syntax,
                ),
            ),
            by,
            size,
        )

    @spec_arguments
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
    ) -> pd.DataFrame | Iterator[pd.DataFrame]:
        """Every matching document of the search (all full matches, uncapped) in `order`
        (`date`: newest first, undated last; `date_asc`; `bm25`: best page first): columns
        `document_id`, `dataset`, `title`, `date`, `url`, `cfr`, `bm25`, `pages`, then one per
        catalog field. With `batch_size`, an iterator of DataFrames of that many rows (memory
        bounded by the batch). `offset` and `limit` take a window of the order;
        `attrs["total"]` counts every matching document."""
        return self.searches.matches(
            self._request(
                keywords,
                query,
                SearchArgs(
                    datasets=datasets,
                    filters=filters,
                    date_from=date_from,
                    date_to=date_to,
                    plan=plan,
                    syntax=syntax,
                ),
            ),
            order,
            batch_size=batch_size,
            offset=offset,
            limit=limit,
        )

    def best_pages(
        self, request: SearchRequest, document_ids: Sequence[str]
    ) -> dict[str, tuple[int, str]]:
        """Which of `document_ids` the checked search (`check_search`) fully matches, each with
        the number and text of its best page: the page `matches` scores it by (highest BM25)."""
        return self.searches.best_pages(request, document_ids)

    def _request(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None,
        args: SearchArgs,
        limit: int = 20,
        offset: int = 0,
    ) -> SearchRequest:
        """The search checked (a `SearchRequest` as it is)."""
        if isinstance(keywords, SearchRequest):
            return keywords
        return self.searches.check(
            keywords, query, args, default_plan=self.plan, limit=limit, offset=offset
        )

    @spec_arguments
    def search_all(
        self,
        keywords: Sequence[str] | str | SearchRequest,
        query: str | None = None,
        *,
        limit: int = LIMIT_MAX,
        **args: Unpack[SearchArgs],
    ) -> SearchResult:
        """Every document of the search (`limit` per call), duplicates dropped; the statuses
        are the first call's. `args` as `search` takes them. A `SearchRequest` is read from
        offset 0 with its own limit."""
        return paging.search_all(self, keywords, query, limit=limit, **search_args(args))

    def legacy_search(
        self,
        query_text: str,
        top_k: int = 20,
        offset: int = 0,
        *,
        dataset_to_search: Sequence[str] | None = None,
        year_from: int | None = None,
        year_to: int | None = None,
        plan: str | None = None,
    ) -> LegacySearchResult:
        """Page-level BM25 over every page; 0-based `page_num`, `<b>` highlights."""
        return self.searches.legacy(
            query_text,
            top_k,
            offset,
            dataset_to_search=dataset_to_search,
            year_from=year_from,
            year_to=year_to,
            plan=plan,
            default_plan=self.plan,
        )

    # --- watchlists (local to this user: saved under REGNB_HOME/watchlists) ------------------

    @spec_arguments
    def watch(
        self,
        name: str,
        keywords: Sequence[str] | str | None = None,
        query: str | None = None,
        *,
        firms: Sequence[str] | str | None = None,
        since: str | dt.date | None = None,
        **args: Unpack[SearchArgs],
    ) -> Watchlist:
        """Save a watchlist: a search (`keywords`, `query`, `datasets`, `filters`, `date_from`,
        `date_to`, as `search` takes them) and/or `firms` (names or identifiers); with both, a
        document must match the search and be about a firm. A new watchlist starts from now:
        what the corpus holds is seen; `since` (a date or time, UTC) reports what entered from
        then instead. Saving an existing name replaces its definition and keeps what it has
        seen, unless `since` is given."""
        return self.watches.watch(name, keywords, query, args, firms=firms, since=since)

    def watchlist(self, name: str) -> Watchlist:
        """A saved watchlist over this corpus (`.new()`, `.mark_seen()`); NotFound lists the
        saved names."""
        return self.watches.open(name)

    def watchlists(self) -> pd.DataFrame:
        """The saved watchlists: `name`, `definition`, `created`, `last_seen` (when this corpus
        was last marked seen for it, UTC)."""
        return self.watches.frame()

    # --- read ---------------------------------------------------------------------------------

    @spec_arguments
    def read(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages `page_from`..`page_to` of a document (at most 100 pages or 2 MB a response)."""
        return self.reader.read(document_id, page_from, page_to, plan=plan, default_plan=self.plan)

    def read_all(
        self,
        document_id: str,
        page_from: int = 1,
        page_to: int | None = None,
        *,
        plan: str | None = None,
    ) -> DocumentRead:
        """Pages `page_from` to `page_to` (default: the end) in one `DocumentRead`."""
        return paging.read_all(self, document_id, page_from, page_to, plan=plan)

    def legacy_contents(
        self, doc_id: str, top_k: int = 10, offset: int = 0, *, plan: str | None = None
    ) -> ContentsResult:
        """Pages of a document by `doc_id` (relative path or URL form), 0-based page numbers."""
        return self.reader.legacy_contents(doc_id, top_k, offset, plan=plan, default_plan=self.plan)

    # --- firms across datasets (`regnb.firms.timeline`) ------------------------------------------------

    @spec_arguments
    def firm(
        self,
        name_or_id: str,
        *,
        datasets: Sequence[str] | None = None,
        limit: int = 20,
        plan: str | None = None,
    ) -> pd.DataFrame:
        """The firms a name, FEI, application number or firm id may mean, best match first:
        `id`, `name`, `variants`, `identifiers`, `documents`, `datasets` (documents per
        dataset), `match` (id, identifier, name, prefix or words). Several rows when the name is
        ambiguous; none when nothing matches."""
        return self.firms.firm(
            name_or_id, datasets=datasets, limit=limit, plan=self.plan if plan is None else plan
        )

    @spec_arguments
    def timeline(self, entity: str | pd.Series, *, plan: str | None = None) -> Timeline:
        """Every document about a firm (its id, or a row of `firm`'s frame) across datasets, in
        date order, with its key findings, CFR sections and a citation (`regnb.firms.timeline`);
        `.plot()` draws it."""
        return self.firms.timeline(entity, plan=self.plan if plan is None else plan)

    # --- research conversations (account `local`, the engine's plan) ------------------------

    @property
    def agent_factory(self) -> AgentFactory | None:
        """Makes the agent that answers each run (None: the extractive agent over this engine)."""
        return self.agents.factory

    @agent_factory.setter
    def agent_factory(self, factory: AgentFactory | None) -> None:
        self.agents.factory = factory

    def conversation_service(self) -> ConversationService:
        """This engine's conversation service, created on first use."""
        return self._conversations.get().service

    def close_conversations(self) -> None:
        """Stop this engine's runs (they read `error` when reopened) and close the store."""
        self._conversations.close()

    @spec_arguments
    def ask(self, message: str, *, idempotency_key: str | None = None) -> Conversation:
        """Start a research conversation; it runs in the background (`.wait()` for the answer)."""
        return conversation.ask(self, message, idempotency_key=idempotency_key)

    def conversation(self, conversation_id: str) -> Conversation:
        """An existing conversation of this account."""
        return Conversation(self, conversation_id)

    def conversations(self, status: str = "all", limit: int = 20, offset: int = 0) -> pd.DataFrame:
        """Conversation summaries, most recent activity first; `attrs["total"]` counts all that
        match `status` (`all` or `running`)."""
        return conversation.summaries(self, status, limit, offset)

    def start_conversation(
        self, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """Start a conversation; returns at once with its first turn running."""
        return self._conversations.get().start(self.plan, message, idempotency_key)

    def send_message(
        self, conversation_id: str, message: str, *, idempotency_key: str | None = None
    ) -> ConversationAccepted:
        """A follow-up (or the reply to a clarifying question); returns at once."""
        return self._conversations.get().send(self.plan, conversation_id, message, idempotency_key)

    def list_conversations(
        self, status: str = "all", limit: int = 20, offset: int = 0
    ) -> ConversationList:
        """Conversation summaries, most recent activity first."""
        return self._conversations.get().summaries(status, limit, offset)

    def read_conversation(self, conversation_id: str, wait: float = 0) -> ConversationRead:
        """The conversation; waits up to `wait` seconds while it runs."""
        return self._conversations.get().read(conversation_id, wait)

    def stop_conversation(self, conversation_id: str) -> ConversationStopped:
        """Stop the running message: it and what it produced are removed."""
        return self._conversations.get().stop(conversation_id)

    def produced_document(self, conversation_id: str, document_id: str) -> ProducedDocument:
        """A produced document: text inline, a file or image as a signed URL."""
        return self._conversations.get().document(self.plan, conversation_id, document_id)

    def download_document(self, conversation_id: str, document_id: str) -> tuple[str, bytes]:
        """A produced document's file name and bytes, read from the store."""
        return self._conversations.get().download(self.plan, conversation_id, document_id)

    def citation_documents(self, conversation_id: str) -> dict[int, str]:
        """The document each citation names (what the spec's citation object leaves out)."""
        return self._conversations.get().citation_documents(conversation_id)

    def citation_passages(self, conversation_id: str) -> dict[int, str | None]:
        """The cited text of each passage citation: as stored, else cut from the page by its
        block id (None where that cannot be done)."""
        return self._conversations.get().citation_passages(conversation_id)
