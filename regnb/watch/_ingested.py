"""When each document entered the corpus: the commit of its shard (`regnb.corpus.shards`), and the
documents that entered after a mark.

A mark is a commit number, not a time: commits are numbered under the corpus's write lock, so
"after commit 7" holds whatever the writers' and readers' clocks say. A corpus never marked is
read by time instead (the shards committed at or after a watchlist's `since`); a shard of a
manifest written before commits were recorded has no time, and counts as already seen.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from regnb.catalog import Catalog
from regnb.corpus import shards
from regnb.corpus.shards import Corpus
from regnb.errors import CorpusError
from regnb.search.procedure import document_entry

__all__ = ["CorpusState", "documents_by_id", "entered_after", "entry_documents", "parse_time"]


def parse_time(text: str) -> dt.datetime:
    """An ISO 8601 time; one without a zone is UTC."""
    when = dt.datetime.fromisoformat(text)
    return when if when.tzinfo else when.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class CorpusState:
    """A corpus's committed shards as one read of its manifest saw them."""

    salt: str
    commits: int
    shards: tuple[shards.ShardEntry, ...]

    @classmethod
    def read(cls, corpus: Corpus) -> CorpusState:
        manifest = shards.Manifest.load(corpus)
        if manifest is None:
            raise CorpusError(f"{corpus}: no corpus here (no {shards.MANIFEST})")
        return cls(manifest.salt, manifest.commits, tuple(manifest.shards))


def entered_after(
    entries: Iterable[shards.ShardEntry], mark: int | None, since: dt.datetime
) -> list[shards.ShardEntry]:
    """The shards whose documents entered after commit `mark`; with no mark, those committed at
    or after `since` (a shard of unknown time never)."""
    if mark is not None:
        return [e for e in entries if e.commit > mark]
    return [e for e in entries if e.committed is not None and parse_time(e.committed) >= since]


def entry_documents(
    corpus: Corpus, catalog: Catalog, entries: Sequence[shards.ShardEntry]
) -> list[dict[str, Any]]:
    """The documents of `entries` as search shows them (`document_id`, `dataset`, `title`,
    `date`, `url`, `fields`) with `ingested`: their shard's commit time (None where unknown)."""
    out = []
    for entry in entries:
        if entry.dataset not in catalog:
            continue  # a dataset the corpus's catalog no longer lists: nothing can search it
        table = shards.read_documents(corpus, entry)
        for row in table.select(["document_id", "title", "url", "fields"]).to_pylist():
            row["dataset"], row["fields"] = entry.dataset, json.loads(row["fields"])
            out.append({**document_entry(catalog, row), "ingested": entry.committed})
    return out


def documents_by_id(
    corpus: Corpus, catalog: Catalog, document_ids: Sequence[str]
) -> list[dict[str, Any]]:
    """The documents of `document_ids` found in the corpus (`entry_documents`' rows)."""
    wanted = set(document_ids)
    if not wanted:
        return []
    state = CorpusState.read(corpus)
    holding = [e for e in state.shards if wanted & set(shards.read_document_ids(corpus, e))]
    return [d for d in entry_documents(corpus, catalog, holding) if d["document_id"] in wanted]
