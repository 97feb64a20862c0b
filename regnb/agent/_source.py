"""What the agent needs from an engine, typed: the public search protocol (`SearchAPI`: search,
counts over every match, every matching document, read, catalog) and the local engine's
embedding, document frequency, common-sentence and count calls (a dataset's documents in a
period, what a share is of), never its store or normaliser.

`CheckedSource` is the engine as a running turn calls it: the turn's stop check comes before
every call, so a stopped run makes no more engine calls."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import ParamSpec, Protocol, TypeVar

import numpy as np
import pandas as pd

from regnb.interface import SearchAPI

__all__ = ["CheckedSource", "Source"]

P = ParamSpec("P")
R = TypeVar("R")


class Source(SearchAPI, Protocol):
    """The engine calls the research agent makes: the search protocol and four local ones."""

    def counts(self) -> pd.DataFrame:
        """Documents and pages per dataset of the corpus."""
        ...

    def document_count(
        self, dataset: str, date_from: str | None = None, date_to: str | None = None
    ) -> int:
        """The documents of a dataset dated within the bounds."""
        ...

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` with the corpus's encoder (rows L2-normalised)."""
        ...

    def document_frequency(self, words: Sequence[str]) -> dict[str, float]:
        """For each word, the share of the corpus's pages that hold it."""
        ...

    def common_sentences(self, dataset: str) -> frozenset[str]:
        """Keys of the sentences in a large share of a dataset's documents (furniture)."""
        ...


class CheckedSource:
    """`source` with the running turn's stop check before every call (the `Source` protocol).
    The check is the calling thread's: one agent serves the runs of several worker threads.
    `inner` is the source itself, for what a turn asks of it beyond the protocol (its firms,
    its watchlists)."""

    def __init__(self, source: Source) -> None:
        self.inner = source
        self._local = threading.local()
        self.plan = source.plan
        self.datasets = source.datasets
        self.counts = source.counts
        self.document_count = self._checked(source.document_count)
        self.check_search = self._checked(source.check_search)
        self.search = self._checked(source.search)
        self.facets = self._checked(source.facets)
        self.matches = self._checked(source.matches)
        self.read = self._checked(source.read)
        self.legacy_search = self._checked(source.legacy_search)
        self.legacy_contents = self._checked(source.legacy_contents)
        self.embed = self._checked(source.embed)
        self.document_frequency = self._checked(source.document_frequency)
        self.common_sentences = self._checked(source.common_sentences)

    @contextmanager
    def checking(self, check: Callable[[], None]) -> Iterator[None]:
        """Calls on this thread run `check` first (it raises when the turn was stopped)."""
        before = getattr(self._local, "check", None)
        self._local.check = check
        try:
            yield
        finally:
            self._local.check = before

    def _checked(self, call: Callable[P, R]) -> Callable[P, R]:
        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            check = getattr(self._local, "check", None)
            if check is not None:
                check()
            return call(*args, **kwargs)

        return checked
