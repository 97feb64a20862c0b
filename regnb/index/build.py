"""The index: immutable segments (`regnb.index.segments`) named by a small manifest, derived from the
shards, brought up to date incrementally and reused.

    <REGNB_HOME>/index/<corpus salt>/v<INDEX_VERSION>/
        index.json          the manifest: live segments, deleted documents, corpus statistics
        terms-<gen>.arrow   every term (sorted) and its id; df-<gen>.npy: pages per term id
        deleted-<gen>-<segment>.npy   a segment's deleted document rows
        seg-<id>/           the segments

Scores are BM25 (k1 0.9, b 0.4, Lucene's idf) over the whole corpus: the manifest keeps the live
pages, their total length and each term's document frequency, so a page scores exactly what one
index over the whole corpus gives it, however many segments hold the corpus.

A change of the shards writes new segments for the added shards and marks the documents of the
removed shards deleted; the manifest is then replaced in one rename, so a reader sees the old set
of segments or the new one. Building streams `REGNB_INDEX_BATCH_PAGES` pages at a time, so memory
depends on the batch, not the corpus; `merge_index` rewrites small or partly deleted segments.
Files no manifest names (a killed build's) are removed by the next writer, under a lock.

A corpus on an object store (`regnb.corpus.location`) is indexed the same way into this local folder
(keyed by the corpus's salt and URL), its shards read one batch at a time. Where there is no
index to bring up to date and the corpus holds a published index of its current version
(`regnb.index.published`), that is downloaded instead of built.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import json
import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm.auto import tqdm

from regnb.catalog import Catalog
from regnb.corpus import shards
from regnb.corpus.location import Location, location
from regnb.corpus.write import check_runner
from regnb.errors import CorpusError, NotFound
from regnb.index import checksums, segments
from regnb.index.bm25 import bm25_from_norms, bm25_norms, bm25_weight, bm25_weights  # this module's
from regnb.settings import Settings, show_progress

__all__ = [
    "COMMON_FILE",
    "INDEX_VERSION",
    "IndexFiles",
    "IndexState",
    "add_blocks",
    "add_positions",
    "bm25_from_norms",
    "bm25_norms",
    "bm25_weight",
    "bm25_weights",
    "build_index",
    "ensure_index",
    "merge",
    "merge_index",
    "merge_runs",
    "needs_merge",
    "publish",
    "update",
    "update_index",
]

INDEX_VERSION = 11  # 8: CFR citations as postings (regnb.documents.cfr); 9: identifiers
# (regnb.ids); 10: the place of firm-facing documents among their fields (regnb.index.places);
# 11: label sections and first pages as terms (regnb.index.page_terms)
MANIFEST = "index.json"
LOCK = ".lock"
COMMON_FILE = "common_sentences.json"  # derived from a sample, kept across changes of the index
KEPT = frozenset({MANIFEST, LOCK, COMMON_FILE})  # files of the folder that no manifest names
BUILD_PREFIX = ".build-"
BUILD_LOCK = ".building"
ORPHAN_AGE_S = 3600.0
COMMIT_EVERY_S = 30.0
TERM_SCHEMA = pa.schema([("term", pa.string()), ("term_id", pa.int32())])


@dataclass(frozen=True)
class IndexFiles:
    """Where an index lives."""

    folder: Path

    @property
    def manifest(self) -> Path:
        return self.folder / MANIFEST


@dataclass
class SegmentEntry:
    """A live segment: its folder name, sizes, shards, and the file of its deleted documents."""

    id: str
    pages: int
    docs: int
    shards: list[str]
    deleted: str | None = None
    deleted_docs: int = 0


@dataclass
class IndexState:
    """The manifest: what the index holds and the statistics BM25 needs."""

    encoder: str
    dim: int
    fingerprint: str = ""
    generation: int = 0
    shards: dict[str, str] = field(default_factory=dict)  # shard id -> pages checksum
    segments: list[SegmentEntry] = field(default_factory=list)
    terms: str | None = None
    df: str | None = None
    next_term_id: int = 1
    n_pages: int = 0  # live pages
    n_nonempty: int = 0  # live pages holding a term (the average length's denominator)
    sum_dl: int = 0
    previous: list[str] = field(default_factory=list)  # files the last generation named
    version: int = INDEX_VERSION

    @property
    def avgdl(self) -> float:
        return self.sum_dl / self.n_nonempty if self.n_nonempty else 1.0

    def files(self) -> list[str]:
        named = [s.id for s in self.segments] + [s.deleted for s in self.segments if s.deleted]
        return named + [f for f in (self.terms, self.df) if f]

    @classmethod
    def load(cls, folder: Path) -> IndexState | None:
        try:
            raw = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise CorpusError(
                f"{folder / MANIFEST}: cannot read the index manifest: {exc}"
            ) from exc
        if raw.get("version") != INDEX_VERSION:
            return None
        raw["segments"] = [SegmentEntry(**s) for s in raw["segments"]]
        return cls(**raw)

    def save(self, folder: Path) -> None:
        """Replace the manifest in one rename: the commit point of every change."""
        tmp = folder / f".{MANIFEST}.{secrets.token_hex(4)}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(asdict(self), f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, folder / MANIFEST)
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def index_root(home: Path, manifest: shards.Manifest, corpus: shards.Corpus | None = None) -> Path:
    """The folder of a corpus's indexes: by its salt; for a corpus on an object store by its
    salt and URL (the local cache of that corpus)."""
    loc = location(corpus) if corpus is not None else None
    if loc is None or loc.local is not None:
        return home / manifest.salt[:16]
    return home / f"{manifest.salt[:16]}-{hashlib.sha256(loc.url.encode()).hexdigest()[:8]}"


def index_folder(
    home: Path, manifest: shards.Manifest, corpus: shards.Corpus | None = None
) -> Path:
    """The folder of the corpus's index (one per corpus, updated in place)."""
    return index_root(home, manifest, corpus) / f"v{INDEX_VERSION}"


def ensure_index(
    corpus: shards.Corpus,
    catalog: Catalog,
    home: Path,
    *,
    progress: bool = True,
    threads: int = 0,
    batch_pages: int | None = None,
    runner: str = "local",
    ray_address: str | None = None,
) -> IndexFiles:
    """The index of the corpus's current version: reused, brought up to date, or built (an
    index of an earlier version is rebuilt once); `runner="ray"` builds on Ray. Where a build
    from nothing would be needed and the corpus holds its index published (`regnb.index.published`),
    that is downloaded."""
    from regnb.index.published import download_index

    corpus = location(corpus)
    manifest = shards.Manifest.load(corpus)
    if manifest is None:
        raise NotFound(f"no corpus at {corpus} (no manifest.json there)", field="corpus")
    folder = index_folder(home, manifest, corpus)
    state = IndexState.load(folder)
    if state is not None and state.fingerprint == manifest.fingerprint():
        add_blocks(folder, state, progress=progress)
        add_positions(folder, state, progress=progress)
        return IndexFiles(folder)
    if state is not None or not download_index(corpus, folder, manifest, progress=progress):
        update_index(
            corpus,
            catalog,
            folder,
            progress=progress,
            threads=threads,
            batch_pages=batch_pages,
            runner=runner,
            ray_address=ray_address,
        )
    for sibling in folder.parent.iterdir():  # earlier versions' indexes
        if sibling != folder and sibling.is_dir():
            shutil.rmtree(sibling, ignore_errors=True)
    state = IndexState.load(folder)
    if state is not None:
        add_blocks(folder, state, progress=progress)
        add_positions(folder, state, progress=progress)
    return IndexFiles(folder)


def add_blocks(folder: Path, state: IndexState, *, progress: bool = True) -> None:
    """Give each segment written before them its skip entries and bounds
    (`regnb.index.segments.Blocks`), once, with a progress bar: a search would otherwise derive them
    as it first reads the segment. Each is written as a temporary file renamed into place, so an
    interrupted run loses nothing and the next one goes on; a read-only index is left as it is
    (its searches derive them in memory), and so is a damaged segment."""
    missing = [e.id for e in state.segments if not (folder / e.id / segments.BLOCKS).exists()]
    if not missing:
        return
    for seg_id in tqdm(
        missing, desc="adding skip entries", unit="segment", disable=not show_progress(progress)
    ):
        if not os.access(folder / seg_id, os.W_OK):
            return
        if checksums.check_segment(folder / seg_id):
            continue  # damaged (its skip entries were written with it): `regnb index` repairs it
        segments.Segment(folder / seg_id).blocks()


def add_positions(folder: Path, state: IndexState, *, progress: bool = True) -> None:
    """Give each segment written before them its terms' positions and their words as written
    (`regnb.index.positions`), once, with a progress bar: its pages are tokenised again (about a third of what building it
    took), not rebuilt. Until then a phrase is checked on that segment's pages by reading them.
    Files are renamed into place, so an interrupted run loses nothing; a read-only index is left
    as it is, and so is a damaged segment or one whose pages do not give its postings."""
    missing = [e for e in state.segments if not segments.Segment.complete(folder / e.id)]
    if not missing or not state.terms:
        return
    if not all(os.access(folder / e.id, os.W_OK) for e in missing):
        return
    dictionary = _read_terms(folder / state.terms)
    with tqdm(
        total=sum(e.pages for e in missing),
        desc="adding term positions",
        unit="page",
        disable=not show_progress(progress),
    ) as bar:
        for entry in missing:
            seg_folder = folder / entry.id
            try:
                if not checksums.check_segment(seg_folder):
                    segments.add_segment_positions(segments.Segment(seg_folder), dictionary)
            except OSError:  # merged away meanwhile: its merge carries them, or the next run
                pass
            bar.update(entry.pages)


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """One writer at a time per index folder (readers never wait)."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def remove_unnamed(folder: Path, state: IndexState | None) -> list[Path]:
    """Remove what neither the manifest nor the generation before it names (a killed build's
    segments and files, a merge's replaced segments). Call under the lock."""
    keep = set(KEPT)
    if state is not None:
        keep |= set(state.files()) | set(state.previous)
    removed = []
    for path in folder.iterdir():
        if path.name in keep:
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def remove_stale_builds(parent: Path, *, orphan_age_s: float = ORPHAN_AGE_S) -> list[Path]:
    """Remove build folders that no live process is building in (kept for the benchmarks' and
    earlier versions' build folders: a folder whose lock can be taken is stale)."""
    removed = []
    for folder in parent.glob(f"{BUILD_PREFIX}*"):
        lock_path = folder / BUILD_LOCK
        try:
            if not lock_path.exists():
                if time.time() - folder.stat().st_mtime < orphan_age_s:
                    continue
            else:
                with open(lock_path) as lock:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            continue
        except OSError:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


class SegmentWriter:
    """One change to the index under the lock: the state being built, the term dictionary and
    document frequencies in memory, and commits."""

    def __init__(self, folder: Path, state: IndexState) -> None:
        self.folder, self.state = folder, state
        self.dictionary = (
            _read_terms(folder / state.terms) if state.terms else TERM_SCHEMA.empty_table()
        )
        self.df = np.load(folder / state.df).astype(np.int64) if state.df else np.zeros(1, np.int64)
        self.deleted: dict[str, np.ndarray] = {
            s.id: np.load(folder / s.deleted) for s in state.segments if s.deleted
        }
        self.dirty_terms = False
        self.named = set(state.files())

    def add_segment(
        self, data: segments.SegmentData, new_terms: pa.Table, shard_ids: list[str]
    ) -> None:
        seg_id = segments.new_segment_id()
        summary = segments.write_segment(self.folder / seg_id, data, shard_ids)
        self.record_segment(seg_id, summary, new_terms, *data.term_df(), data.page_dl)

    def record_segment(
        self,
        seg_id: str,
        summary: dict[str, Any],
        new_terms: pa.Table,
        ids: np.ndarray,
        counts: np.ndarray,
        page_dl: np.ndarray,
    ) -> None:
        """Take in a written segment: its new terms, the pages holding each of its terms
        (`ids`, `counts`) and its pages' lengths."""
        self.take_terms(new_terms)
        self.record_written(seg_id, summary, ids, counts, page_dl)

    def take_terms(self, new_terms: pa.Table) -> None:
        """Add a segment's new terms to the dictionary (before the next segment is tokenised)."""
        if new_terms.num_rows:
            self.dictionary = pa.concat_tables([self.dictionary, new_terms])
            self.state.next_term_id = int(pc.max(new_terms.column("term_id")).as_py()) + 1
            self.dirty_terms = True

    def record_written(
        self,
        seg_id: str,
        summary: dict[str, Any],
        ids: np.ndarray,
        counts: np.ndarray,
        page_dl: np.ndarray,
    ) -> None:
        """Take in a written segment whose terms the dictionary holds (`take_terms`)."""
        if self.df.size < self.state.next_term_id:
            self.df = np.concatenate(
                [self.df, np.zeros(self.state.next_term_id - self.df.size, np.int64)]
            )
        self.df[ids] += counts
        self.dirty_terms |= ids.size > 0
        self.state.segments.append(segments_entry(seg_id, summary))
        self._count(page_dl, +1)

    def delete(self, seg_index: int, doc_rows: np.ndarray) -> None:
        """Mark documents of a segment deleted and take their pages out of the statistics."""
        entry = self.state.segments[seg_index]
        seg = segments.Segment(self.folder / entry.id)
        old = self.deleted.get(entry.id, np.zeros(0, np.int32))
        fresh = np.setdiff1d(doc_rows, old)
        if fresh.size == 0:
            return
        dead_doc = np.zeros(seg.n_docs, bool)
        dead_doc[fresh] = True
        dead_page = dead_doc[seg.page_doc]
        terms, pages, _ = seg.postings_all()
        ids, counts = np.unique(terms[dead_page[pages]], return_counts=True)
        self.df[ids] -= counts
        self._count(seg.page_dl[dead_page], -1)
        self.deleted[entry.id] = np.union1d(old, fresh).astype(np.int32)
        entry.deleted_docs = int(self.deleted[entry.id].size)
        entry.deleted = f"deleted-{self.state.generation + 1}-{entry.id}.npy"
        np.save(self.folder / entry.deleted, self.deleted[entry.id])
        self.dirty_terms = True

    def replace(
        self, start: int, stop: int, data: segments.SegmentData, shard_ids: list[str]
    ) -> None:
        """Segments [start, stop) replaced by one merged from them (statistics unchanged)."""
        seg_id = segments.new_segment_id()
        summary = segments.write_segment(self.folder / seg_id, data, shard_ids)
        self.state.segments[start:stop] = [segments_entry(seg_id, summary)]

    def forget(self, ids: np.ndarray, counts: np.ndarray, page_dl: np.ndarray) -> None:
        """Take pages out of the statistics: the terms they hold (`ids`, pages per term) and
        their lengths."""
        self.df[ids] -= counts
        self._count(page_dl, -1)
        self.dirty_terms = True

    def recount(self) -> None:
        """The statistics counted again over the live pages of every segment."""
        self.df[:] = 0
        self.state.n_pages = self.state.n_nonempty = self.state.sum_dl = 0
        for entry in self.state.segments:
            seg = segments.Segment(self.folder / entry.id)
            live = np.ones(seg.n_docs, bool)
            live[self.deleted.get(entry.id, np.zeros(0, np.int32))] = False
            page_live = live[seg.page_doc]
            terms, pages, _ = seg.postings_all()
            ids, counts = np.unique(terms[page_live[pages]], return_counts=True)
            self.df[ids] += counts
            self._count(seg.page_dl[page_live], +1)
        self.dirty_terms = True

    def _count(self, dl: np.ndarray, sign: int) -> None:
        self.state.n_pages += sign * int(dl.size)
        self.state.n_nonempty += sign * int(np.count_nonzero(dl))
        self.state.sum_dl += sign * int(dl.sum())

    def commit(self, fingerprint: str | None = None) -> None:
        """Write the dictionary and frequencies if they changed, then the manifest."""
        state = self.state
        state.generation += 1
        if self.dirty_terms:
            state.terms = f"terms-{state.generation}.arrow"
            state.df = f"df-{state.generation}.npy"
            _write_terms(self.folder / state.terms, self.dictionary)
            np.save(self.folder / state.df, self.df.astype(np.int32))
            with open(self.folder / state.df, "rb") as f:
                os.fsync(f.fileno())
            self.dirty_terms = False
        if fingerprint is not None:
            state.fingerprint = fingerprint
        state.previous = sorted(self.named)
        state.save(self.folder)
        self.named = set(state.files())
        remove_unnamed(self.folder, state)


def segments_entry(seg_id: str, summary: dict[str, Any]) -> SegmentEntry:
    return SegmentEntry(seg_id, summary["pages"], summary["docs"], summary["shards"])


def _read_terms(path: Path) -> pa.Table:
    return pa.ipc.open_file(pa.memory_map(str(path))).read_all()


def _write_terms(path: Path, dictionary: pa.Table) -> None:
    """The dictionary sorted by term (looked up by bisection), uncompressed (memory-mapped)."""
    ordered = dictionary.take(pc.sort_indices(dictionary, [("term", "ascending")]))
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, TERM_SCHEMA) as w:
        w.write_table(ordered.combine_chunks().cast(TERM_SCHEMA))
    with open(path, "rb") as f:
        os.fsync(f.fileno())


def _shard_checksum(entry: shards.ShardEntry) -> str:
    return f"{entry.checksums['documents']}:{entry.checksums['pages']}"


def update_index(
    corpus: shards.Corpus,
    catalog: Catalog,
    folder: Path,
    *,
    progress: bool = True,
    threads: int = 0,
    batch_pages: int | None = None,
    runner: str = "local",
    ray_address: str | None = None,
) -> IndexState:
    """Bring the index in `folder` up to the corpus's shards: new segments for added shards, the
    documents of removed shards marked deleted. Built from scratch where no index (of this
    version) is there. `runner="ray"` builds the segments on Ray (the cluster at
    `ray_address`, else a local one); the index is the same."""
    check_runner(runner, ray_address)
    corpus = location(corpus)
    build = _build_here(threads) if runner == "local" else _build_on_ray(ray_address)
    manifest = shards.Manifest.load(corpus)
    if manifest is None:
        raise NotFound(f"no corpus at {corpus} (no manifest.json there)", field="corpus")
    batch_pages = batch_pages or Settings.from_env().index_batch_pages
    with locked(folder):
        state = IndexState.load(folder)
        if state is not None and (state.encoder, state.dim) != (
            manifest.encoder["name"],
            manifest.dim,
        ):
            state = None
        if state is None:
            state = IndexState(manifest.encoder["name"], manifest.dim)
        remove_unnamed(folder, state)
        if state.fingerprint == manifest.fingerprint():
            return state
        try:
            _update(corpus, catalog, folder, manifest, state, batch_pages, progress, build)
        except BaseException:
            remove_unnamed(folder, IndexState.load(folder))  # nothing of this change survives
            raise
        return state


def _update(
    corpus: Location,
    catalog: Catalog,
    folder: Path,
    manifest: shards.Manifest,
    state: IndexState,
    batch_pages: int,
    progress: bool,
    build: Build,
) -> None:
    writer = SegmentWriter(folder, state)
    current = {s.shard_id: _shard_checksum(s) for s in manifest.shards}
    removed = {sid for sid, c in state.shards.items() if current.get(sid) != c}
    added = [s for s in manifest.shards if state.shards.get(s.shard_id) != current[s.shard_id]]
    for i, entry in enumerate(state.segments):
        if removed & set(entry.shards):
            seg = segments.Segment(folder / entry.id)
            shard_of = seg.doc_column("shard_id").to_numpy(zero_copy_only=False)
            rows = np.flatnonzero(np.isin(shard_of, list(removed))).astype(np.int32)
            writer.delete(i, rows)
    for sid in removed:
        del state.shards[sid]
    _add_shards(corpus, manifest, catalog, writer, added, batch_pages, current, progress, build)
    writer.commit(manifest.fingerprint())


def _add_shards(
    corpus: Location,
    manifest: shards.Manifest,
    catalog: Catalog,
    writer: SegmentWriter,
    added: list[shards.ShardEntry],
    batch_pages: int,
    current: dict[str, str],
    progress: bool,
    build: Build,
) -> None:
    """Index the added shards, one batch of at most `batch_pages` pages per segment, in catalog
    order then shard id (the order one index over the whole corpus has)."""
    order = {ds: i for i, ds in enumerate(catalog.ids)}
    for entry in added:
        if entry.dataset not in catalog:
            raise CorpusError(
                f"{corpus.where(entry.documents)}: dataset {entry.dataset!r} is not in the catalog"
            )
    added = sorted(added, key=lambda s: (order.get(s.dataset, 1 << 15), s.shard_id))
    batches: list[list[shards.ShardEntry]] = []
    size = batch_pages
    for entry in added:
        if size + entry.pages_count > batch_pages and (not batches or batches[-1]):
            batches.append([])
            size = 0
        batches[-1].append(entry)
        size += entry.pages_count
    bar = tqdm(
        total=sum(s.pages_count for s in added),
        desc="building index",
        unit="page",
        disable=not show_progress(progress) or not added,
    )

    def done(batch: list[shards.ShardEntry]) -> None:
        for e in batch:
            writer.state.shards[e.shard_id] = current[e.shard_id]
        bar.update(sum(e.pages_count for e in batch))

    try:
        build(corpus, manifest.dim, writer, batches, done)
    finally:
        bar.close()


# How segments get built: (corpus, dim, writer, batches, done), `done(batch)` after each batch.
Build = Callable[
    [
        Location,
        int,
        SegmentWriter,
        list[list[shards.ShardEntry]],
        Callable[[list[shards.ShardEntry]], None],
    ],
    None,
]


def _build_here(threads: int) -> Build:
    """Segments built one after another in this process, committed every COMMIT_EVERY_S (a
    killed build resumes from there)."""

    def build(
        corpus: Location,
        dim: int,
        writer: SegmentWriter,
        batches: list[list[shards.ShardEntry]],
        done: Callable[[list[shards.ShardEntry]], None],
    ) -> None:
        last_commit = time.monotonic()
        # Segment k's files are written (compression, its metadata database, fsync: mostly
        # outside the GIL) in a thread while batch k+1 is read and tokenised; it is recorded,
        # in order, before segment k+1 is.
        writing: (
            tuple[Future[dict[str, Any]], str, segments.SegmentData, list[shards.ShardEntry]] | None
        ) = None

        def settle() -> None:
            nonlocal writing
            if writing is not None:
                future, seg_id, data, batch = writing
                writing = None
                writer.record_written(seg_id, future.result(), *data.term_df(), data.page_dl)
                done(batch)

        with ThreadPoolExecutor(1, thread_name_prefix="regnb-write") as pool:
            for batch in batches:
                parts = [segments.shard_tables(corpus, e, dim) for e in batch]
                docs, pages, vectors = segments.concat_shards(parts, dim)
                del parts
                data, new_terms = segments.from_tables(
                    docs,
                    pages,
                    vectors,
                    writer.dictionary,
                    writer.state.next_term_id,
                    threads=threads,
                    temp_dir=writer.folder,
                )
                del docs, pages, vectors
                settle()
                if time.monotonic() - last_commit > COMMIT_EVERY_S:  # no write in flight
                    writer.commit()
                    last_commit = time.monotonic()
                writer.take_terms(new_terms)
                seg_id = segments.new_segment_id()
                shard_ids = [e.shard_id for e in batch]
                future = pool.submit(
                    segments.write_segment, writer.folder / seg_id, data, shard_ids
                )
                writing = (future, seg_id, data, batch)
                del data
            settle()

    return build


def _build_on_ray(ray_address: str | None) -> Build:
    """Segments built by Ray tasks, the manifest committed once at the end (`regnb.corpus.ray`)."""
    from regnb.index import ray as _ray

    return functools.partial(_ray.build_segments, ray_address=ray_address)


def build_index(
    corpus: shards.Corpus,
    manifest: shards.Manifest,
    catalog: Catalog,
    files: IndexFiles,
    *,
    progress: bool = True,
    threads: int = 0,
    batch_pages: int | None = None,
) -> dict[str, float]:
    """Build the index of the corpus into `files.folder` from scratch; returns seconds."""
    start = time.perf_counter()
    if files.folder.exists() and IndexState.load(files.folder) is not None:
        (files.folder / MANIFEST).unlink()
    update_index(
        corpus, catalog, files.folder, progress=progress, threads=threads, batch_pages=batch_pages
    )
    return {"total": time.perf_counter() - start}


SMALL_SHARE = 10  # a segment under batch_pages / SMALL_SHARE live pages is small
AUTO_DELETED_SHARE = 0.2  # a background merge rewrites a lone segment past this share deleted


def merge_plan(
    state: IndexState, batch_pages: int, deleted_share: float = 0.0
) -> list[tuple[int, int]]:
    """Runs [start, stop) of adjacent segments to merge: together at most `batch_pages` live
    pages, and either several segments or one with more than `deleted_share` of its documents
    deleted."""
    runs: list[tuple[int, int]] = []
    start, size = 0, 0
    live = [s.pages - _deleted_pages_estimate(s) for s in state.segments]
    for i, pages in enumerate(live):
        if i > start and size + pages > batch_pages:
            runs.append((start, i))
            start, size = i, 0
        size += pages
    if state.segments:
        runs.append((start, len(state.segments)))
    return [
        (a, b)
        for a, b in runs
        if b - a > 1
        or state.segments[a].deleted_docs > deleted_share * max(state.segments[a].docs, 1)
    ]


def small_segments(state: IndexState, batch_pages: int) -> int:
    """Segments of fewer than a tenth of `batch_pages` live pages (what incremental adds leave)."""
    small = max(batch_pages // SMALL_SHARE, 1)
    return sum(1 for s in state.segments if s.pages - _deleted_pages_estimate(s) < small)


def needs_merge(folder: Path, batch_pages: int, max_small: int) -> bool:
    """Whether the index in `folder` holds more than `max_small` small segments (0: never)."""
    if max_small <= 0:
        return False
    state = IndexState.load(folder)
    return state is not None and small_segments(state, batch_pages) > max_small


def _deleted_pages_estimate(entry: SegmentEntry) -> int:
    return round(entry.pages * entry.deleted_docs / entry.docs) if entry.docs else 0


def merge_runs(
    folder: Path,
    batch_pages: int,
    *,
    deleted_share: float = 0.0,
    stop: threading.Event | None = None,
    progress: bool = False,
) -> int:
    """Merge the runs of `merge_plan`, one at a time, each under the lock and committed on its
    own (a writer waits for one run at most; readers never wait; memory is one run's). Stops
    between runs when `stop` is set. Returns the runs merged."""
    merged = 0
    bar = tqdm(desc="merging", unit="run", disable=not show_progress(progress))
    try:
        while stop is None or not stop.is_set():
            with locked(folder):
                state = IndexState.load(folder)
                runs = merge_plan(state, batch_pages, deleted_share) if state else []
                if state is None or not runs:
                    break
                start, end = runs[-1]  # from the end: the positions of the others stay
                writer = SegmentWriter(folder, state)
                entries = state.segments[start:end]
                parts = []
                for e in entries:
                    seg = segments.Segment(folder / e.id)
                    live = np.ones(seg.n_docs, bool)
                    if e.deleted:
                        live[writer.deleted.pop(e.id)] = False
                    parts.append((seg, live))
                data = segments.merge_data(parts)
                del parts
                try:
                    writer.replace(start, end, data, [s for e in entries for s in e.shards])
                    del data
                    writer.commit()
                except BaseException:
                    remove_unnamed(folder, IndexState.load(folder))
                    raise
            merged += 1
            bar.update(1)
    finally:
        bar.close()
    return merged


def merge_index(
    corpus: shards.Corpus,
    catalog: Catalog,
    home: Path,
    *,
    progress: bool = True,
    batch_pages: int | None = None,
) -> IndexFiles:
    """Bring the index up to date, then merge its small or partly deleted segments (adjacent
    ones, a batch of pages at a time); searches of open engines go on meanwhile."""
    files = ensure_index(corpus, catalog, home, progress=progress, batch_pages=batch_pages)
    batch_pages = batch_pages or Settings.from_env().index_batch_pages
    merge_runs(files.folder, batch_pages, progress=progress)
    return files


def merge(corpus: shards.Corpus | None = None, *, progress: bool = True) -> IndexFiles:
    """`merge_index` for a corpus (default: the demo corpus) under REGNB_HOME's settings:
    what `regnb index --merge` runs."""
    from regnb.catalog import load_catalog
    from regnb.corpus.demo import demo_corpus_path

    path = location(corpus if corpus is not None else demo_corpus_path())
    settings = Settings.from_env()
    return merge_index(
        path,
        load_catalog(path),
        settings.index_dir,
        progress=progress,
        batch_pages=settings.index_batch_pages,
    )


def publish(corpus: shards.Corpus | None = None, *, progress: bool = True) -> str:
    """Bring the corpus's index up to date under REGNB_HOME, then copy it into the corpus
    (`<corpus>/_index/v<INDEX_VERSION>/<fingerprint>/`), so that a replica or notebook that
    opens the corpus downloads it rather than builds it; returns where it went. What
    `regnb index --publish` runs."""
    from regnb.corpus.demo import demo_corpus_path
    from regnb.index.published import publish_index

    loc = location(corpus if corpus is not None else demo_corpus_path())
    return publish_index(loc, update(loc, progress=progress).folder, progress=progress)


def update(
    corpus: shards.Corpus | None = None,
    *,
    runner: str = "local",
    ray_address: str | None = None,
    progress: bool = True,
) -> IndexFiles:
    """`ensure_index` for a corpus (default: the demo corpus) under REGNB_HOME's settings,
    built here or on Ray (`runner="ray"`): what `regnb index [--ray]` runs."""
    from regnb.catalog import load_catalog
    from regnb.corpus.demo import demo_corpus_path

    loc = location(corpus if corpus is not None else demo_corpus_path())
    settings = Settings.from_env()
    return ensure_index(
        loc,
        load_catalog(loc),
        settings.index_dir,
        progress=progress,
        threads=settings.threads,
        batch_pages=settings.index_batch_pages,
        runner=runner,
        ray_address=ray_address,
    )
