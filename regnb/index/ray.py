"""Index segments built on Ray (`runner="ray"`): one task per batch of shards tokenises it
against the index's dictionary; the driver gives the batch's new terms their ids in the order a
build here gives them (batch by batch, each batch's new terms in term order), and a second task
writes the segment with those ids. The index is then the one a local build writes, term ids and
document frequencies included; the driver commits its manifest once, at the end.

Workers read the corpus and write the index folder by path: on a cluster of several machines,
both live on storage every node mounts at the same path. The connection and the workers'
environment are `regnb.corpus.ray`'s.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from regnb.corpus import shards
from regnb.corpus.location import Location, location
from regnb.corpus.ray import connected, store_env, worker_path
from regnb.index import segments
from regnb.index.positions import regroup
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.index.build import SegmentWriter

__all__ = ["build_segments", "renumber_terms"]

SETTLE_S = 600.0  # at most, the wait for a failed build's tasks in flight


def renumber_terms(data: segments.SegmentData, base: int, ids: np.ndarray) -> segments.SegmentData:
    """A segment tokenised with new terms numbered from `base` (in term order), its postings
    given the index's ids for those terms (`ids[local - base]`) and sorted again (term, page)."""
    terms = data.post_term.astype(np.int64)
    fresh = terms >= base
    terms[fresh] = ids[terms[fresh] - base]
    order = np.argsort(terms, kind="stable")  # pages stay ascending within a term
    pos, npos, forms = data.post_pos, data.post_npos, data.post_forms
    if pos is not None and npos is not None:
        if forms is not None:
            forms = forms.renumbered(base, ids).regrouped(npos, order)
        pos, npos = regroup(pos, npos, order), npos[order]
    return replace(
        data,
        post_term=terms[order].astype(np.int32),
        post_page=data.post_page[order],
        post_tf=data.post_tf[order],
        post_pos=pos,
        post_npos=npos,
        post_forms=forms,
    )


def _tokenise(
    corpus: str, dim: int, batch: list[shards.ShardEntry], dictionary: pa.Table, base: int,
    threads: int, temp_dir: str,
) -> tuple[pa.Table, segments.SegmentData]:  # fmt: skip
    """A Ray task: one batch of shards as segment data, new terms numbered from `base`."""
    parts = [segments.shard_tables(location(corpus), e, dim) for e in batch]
    docs, pages, vectors = segments.concat_shards(parts, dim)
    data, new_terms = segments.from_tables(
        docs, pages, vectors, dictionary, base, threads=threads, temp_dir=Path(temp_dir)
    )
    return new_terms, data


def _write(
    folder: str, data: segments.SegmentData, base: int, ids: np.ndarray, shard_ids: list[str]
) -> tuple[str, dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """A Ray task: write the segment with the index's term ids; returns what the driver
    records (segment id, summary, term ids and their page counts, page lengths)."""
    data = renumber_terms(data, base, ids)
    seg_id = segments.new_segment_id()
    summary = segments.write_segment(Path(folder) / seg_id, data, shard_ids)
    term_ids, counts = data.term_df()
    return seg_id, summary, term_ids, counts, data.page_dl


class _Terms:
    """The ids a local build gives new terms: batch by batch, each batch's new terms in term
    order, from the index's next id on."""

    def __init__(self, next_id: int) -> None:
        self.next_id = next_id
        self.given: dict[str, int] = {}

    def number(self, new_terms: pa.Table) -> tuple[np.ndarray, pa.Table]:
        """Ids for a batch's new terms (sorted by term), and those that no earlier batch had."""
        ids = np.empty(new_terms.num_rows, np.int64)
        fresh: list[str] = []
        for i, term in enumerate(new_terms.column("term").to_pylist()):
            if term not in self.given:
                self.given[term] = self.next_id
                self.next_id += 1
                fresh.append(term)
            ids[i] = self.given[term]
        first = self.next_id - len(fresh)
        table = pa.table(
            {
                "term": pa.array(fresh, pa.string()),
                "term_id": pa.array(np.arange(first, self.next_id, dtype=np.int32)),
            }
        )
        return ids, table


def build_segments(
    corpus: Location,
    dim: int,
    writer: SegmentWriter,
    batches: list[list[shards.ShardEntry]],
    done: Callable[[list[shards.ShardEntry]], None],
    *,
    ray_address: str | None = None,
    settings: Settings | None = None,
) -> None:
    """Build a segment per batch of shards on Ray and record each in `writer`, in batch order
    (`done(batch)` after each); at most a few batches are in flight at once, so memory stays
    bounded. On failure, the tasks in flight finish before the error goes on."""
    with connected(ray_address) as ray:
        _build(ray, corpus, dim, writer, batches, done, settings or Settings.from_env())


def _build(
    ray: Any,
    corpus: Location,
    dim: int,
    writer: SegmentWriter,
    batches: list[list[shards.ShardEntry]],
    done: Callable[[list[shards.ShardEntry]], None],
    settings: Settings,
) -> None:
    cpus = max(settings.ray_cpus_per_worker, 1)
    window = max(int(ray.cluster_resources().get("CPU", 1)) // cpus, 1) + 1
    env = store_env()
    tokenise = ray.remote(num_cpus=cpus, num_returns=2, runtime_env=env)(_tokenise)
    write = ray.remote(num_cpus=cpus, runtime_env=env)(_write)
    dictionary = ray.put(writer.dictionary)
    base = writer.state.next_term_id
    terms = _Terms(base)
    folder = str(writer.folder.resolve())
    tokenising: deque[tuple[list[shards.ShardEntry], Any, Any]] = deque()
    writing: deque[tuple[list[shards.ShardEntry], pa.Table, Any]] = deque()

    def start_write() -> None:
        batch, new_ref, data_ref = tokenising.popleft()
        ids, fresh = terms.number(ray.get(new_ref))
        shard_ids = [e.shard_id for e in batch]
        writing.append((batch, fresh, write.remote(folder, data_ref, base, ids, shard_ids)))

    def record() -> None:
        batch, fresh, ref = writing.popleft()
        seg_id, summary, term_ids, counts, page_dl = ray.get(ref)
        writer.record_segment(seg_id, summary, fresh, term_ids, counts, page_dl)
        done(batch)

    try:
        for batch in batches:
            new_ref, data_ref = tokenise.remote(
                worker_path(corpus), dim, batch, dictionary, base, cpus, folder
            )
            tokenising.append((batch, new_ref, data_ref))
            if len(tokenising) >= window:
                start_write()
            if len(writing) >= window:
                record()
        while tokenising:
            start_write()
        while writing:
            record()
    except BaseException:
        _settle(ray, [r for _, a, b in tokenising for r in (a, b)] + [r for *_, r in writing])
        raise


def _settle(ray: Any, refs: list[Any]) -> None:
    """Wait until the tasks in flight are done, so that none still writes into the index folder
    when the failed build's files are removed. Not cancelled: cancelling a task whose inputs are
    still being resolved aborts the driver (a failed check in Ray 2.60's reference counter, seen
    in this project's CI), and at most a few batches are in flight."""
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=SETTLE_S)
