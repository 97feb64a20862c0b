"""One snapshot of the index: the segments of the index manifest as it was when opened, and
what reads them.

Page ids and document rows are global: a segment's local ids plus its base. Small per-page and
per-document arrays (document, date, dataset, length, live) are held in memory so that matching
runs in numpy. The snapshot looks terms up and holds one DuckDB connection over the segments'
metadata databases; its readers do the reading:

    postings  `PostingReader`: a query's postings as candidate pages (`regnb.index.postings`)
    rows      `RowReader`: page texts, page and document rows, embeddings (`regnb.index.rows`)
    fields    `FieldReader`: filters, catalog fields, identifiers (`regnb.index.fields`)
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast

import duckdb
import numpy as np
import pyarrow as pa

from regnb import text
from regnb.errors import CorpusError, IndexDamaged, RegnbError, SearchTimeout
from regnb.index.arrays import concat
from regnb.index.bm25 import bm25_norms
from regnb.index.build import IndexFiles, IndexState, SegmentEntry
from regnb.index.checksums import Damage, damage_of, found_damage
from regnb.index.fields import FieldReader
from regnb.index.postings import PostingReader
from regnb.index.rows import RowReader
from regnb.index.segments import Segment

__all__ = ["IndexStore", "manifest_stamp"]

T = TypeVar("T")
log = logging.getLogger("regnb.index")


def union_sql(table: str, columns: str, bases: Sequence[int], empty: str) -> str:
    """A view over one table of every attached segment (`s0`, `s1`, ...), doc rows made global."""
    if not bases:
        return f"CREATE VIEW {table} AS SELECT {empty} WHERE false"
    parts = [
        f"SELECT doc_row + {int(base)} AS doc_row, {columns} FROM s{i}.{table}"
        for i, base in enumerate(bases)
    ]
    return f"CREATE VIEW {table} AS " + " UNION ALL ".join(parts)


def manifest_stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one version of a manifest from the next (each is written to a new file and
    renamed over the old): inode, modification time, size; None where there is none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


class IndexStore:
    """A read-only snapshot of a built index, safe across threads (one cursor per call): the
    manifest stamp, segments, term look-ups and per-page arrays, read by `postings`, `rows` and
    `fields`."""

    def __init__(self, files: IndexFiles, threads: int = 0) -> None:
        self.files = files
        self.stamp = manifest_stamp(files.manifest)  # taken first: a later change is seen
        state = IndexState.load(files.folder)
        if state is None:
            raise CorpusError(f"{files.manifest}: no index of this version there")
        self.state = state
        self.encoder_name, self.dim = state.encoder, state.dim
        self.damage: dict[str, Damage] = {}  # by segment id: left out at open, or found later
        self._verified: set[str] = set()  # segments hashed whole in this snapshot
        self._health_lock = threading.Lock()
        self.entries, self.segments = self._open_segments()
        self._open_terms()
        self._open_arrays()
        self._con = text.connect(persistent=True)
        if threads:
            self._con.execute(f"SET threads = {int(threads)}")
        for i, seg in enumerate(self.segments):
            self._con.execute(f"ATTACH '{seg.folder / 'meta.duckdb'}' AS s{i} (READ_ONLY)")
        self._con.execute(
            union_sql(
                "docs",
                "document_id, dataset, url",
                self.doc_base[:-1].tolist(),
                "NULL::INTEGER AS doc_row, NULL::VARCHAR AS document_id, "
                "NULL::VARCHAR AS dataset, NULL::VARCHAR AS url",
            )
        )
        self._con.execute(
            union_sql(
                "field_values",
                "dataset, field, value, norm, terms",
                self.doc_base[:-1].tolist(),
                "NULL::INTEGER AS doc_row, NULL::VARCHAR AS dataset, NULL::VARCHAR AS field, "
                "NULL::VARCHAR AS value, NULL::VARCHAR AS norm, NULL::VARCHAR[] AS terms",
            )
        )
        self._con.execute(
            union_sql(
                "identifiers",
                "kind, value, page_num",
                self.doc_base[:-1].tolist(),
                "NULL::INTEGER AS doc_row, NULL::VARCHAR AS kind, NULL::VARCHAR AS value, "
                "NULL::INTEGER AS page_num",
            )
        )
        self._lock = threading.Lock()
        self._rank: dict[int, int] = {}  # a looked-up term's position in the dictionary
        self._cache: dict[str, Any] = {}
        self._cache_lock = threading.Lock()
        self.postings = PostingReader(self)
        self.rows = RowReader(self)
        self.fields = FieldReader(self)

    def _open_segments(self) -> tuple[list[SegmentEntry], list[Segment]]:
        """The manifest's segments that open, each checked cheaply first (its files there, of
        their sizes); a damaged one is left out, logged and kept in `damage`."""
        entries, segs = [], []
        for entry in self.state.segments:
            folder = self.files.folder / entry.id
            found = damage_of(folder)
            if found is None:
                try:
                    segs.append(Segment(folder))
                except Exception as exc:
                    found = damage_of(folder, full=True) or found_damage(
                        folder, [f"cannot be opened ({exc})"]
                    )
                else:
                    entries.append(entry)
                    continue
            self.damage[entry.id] = found
            log.warning(
                "%s: %s; its datasets (%s) answer searches with status error until then",
                self.files.folder,
                found.reason,
                ", ".join(found.datasets) if found.datasets is not None else "all",
            )
        return entries, segs

    def damage_to(self, dataset: str) -> Damage | None:
        """The damage that leaves a dataset's documents incomplete in this snapshot, if any."""
        return next((d for d in self.damage.values() if d.holds(dataset)), None)

    def diagnose(self, datasets: Iterable[str] | None, exc: BaseException) -> bool:
        """After a read failed with `exc`: the segments holding `datasets` (None: all) are
        hashed whole, each once per snapshot, and those found damaged marked (a segment whose
        read found its bytes not as written is marked in any case). Whether one of `datasets`
        is now damaged. Errors of the request (a timeout, a bad field) are not reads failing."""
        if isinstance(exc, RegnbError) and not isinstance(exc, CorpusError):
            return False
        wanted = None if datasets is None else set(datasets)
        with self._health_lock:
            for seg, entry in zip(self.segments, self.entries, strict=True):
                if entry.id in self.damage or entry.id in self._verified:
                    continue
                if wanted is not None and wanted.isdisjoint(seg.datasets):
                    continue
                found = damage_of(seg.folder, full=True)
                self._verified.add(entry.id)
                if found is None and isinstance(exc, IndexDamaged) and exc.segment == entry.id:
                    found = found_damage(seg.folder, [exc.problem])
                if found is not None:
                    log.error("%s: %s (found as it was read)", self.files.folder, found.reason)
                    self.damage = {**self.damage, entry.id: found}  # readers see one or other
        if wanted is None:
            return bool(self.damage)
        return any(self.damage_to(ds) is not None for ds in wanted)

    def damage_holding(self, document_id: str) -> Damage | None:
        """The damage of a segment left out of this snapshot that holds the document, or may
        (its metadata cannot be read)."""
        opened = {e.id for e in self.entries}
        for damage in self.damage.values():
            if damage.segment in opened:
                continue
            try:
                con = text.connect(
                    str(self.files.folder / damage.segment / "meta.duckdb"), read_only=True
                )
            except Exception:
                return damage
            try:
                sql = "SELECT 1 FROM docs WHERE document_id = ? LIMIT 1"
                if con.execute(sql, [document_id]).fetchone() is not None:
                    return damage
            except Exception:
                return damage
            finally:
                con.close()
        return None

    def _open_terms(self) -> None:
        folder, state = self.files.folder, self.state
        if state.terms and state.df:
            table = pa.ipc.open_file(pa.memory_map(str(folder / state.terms))).read_all()
            self._terms = table.column("term").combine_chunks()
            self._term_ids = table.column("term_id").to_numpy()
            self.df = np.load(folder / state.df)
        else:
            self._terms = pa.array([], pa.string())
            self._term_ids = np.zeros(0, np.int32)
            self.df = np.zeros(1, np.int32)

    def _open_arrays(self) -> None:
        """Global per-page and per-document arrays, from every segment."""
        segs, entries = self.segments, self.entries
        names = sorted({d for s in segs for d in s.datasets})
        self.dataset_codes = {d: i for i, d in enumerate(names)}
        self.page_base = np.cumsum([0] + [s.n_pages for s in segs]).astype(np.int64)
        self.doc_base = np.cumsum([0] + [s.n_docs for s in segs]).astype(np.int64)
        doc_live, doc_ds = [], []
        for seg, entry in zip(segs, entries, strict=True):
            live = np.ones(seg.n_docs, bool)
            if entry.deleted:
                live[np.load(self.files.folder / entry.deleted)] = False
            doc_live.append(live)
            remap = np.array([self.dataset_codes[d] for d in seg.datasets] or [0], np.int16)
            doc_ds.append(remap[seg.doc_ds])
        self.doc_live = concat(doc_live, bool)
        self.doc_ds = concat(doc_ds, np.int16)
        self.doc_first = concat(
            [s.doc_first + b for s, b in zip(segs, self.page_base, strict=False)], np.int64
        )
        self.doc_count = concat([s.doc_count for s in segs], np.int32)
        self.page_doc = concat(
            [s.page_doc + b for s, b in zip(segs, self.doc_base, strict=False)], np.int32
        )
        self.page_dl = concat([s.page_dl for s in segs], np.int32)
        self.page_ds = self.doc_ds[self.page_doc]
        starts = np.flatnonzero(np.diff(self.page_ds, prepend=-1))  # runs of one dataset's pages
        self.ds_runs = (starts, self.page_ds[starts])
        self.page_live = self.doc_live[self.page_doc]
        self.page_day = concat([s.doc_day for s in segs], np.int32)[self.page_doc]
        self.page_space = int(self.page_base[-1])
        self.n_pages = int(self.state.n_pages)
        self.page_norm = bm25_norms(self.page_dl, self.state.avgdl).astype(np.float32)  # once
        self.segment_whole = [bool(live.all()) for live in doc_live]  # no deleted document
        self.segment_codes = [[self.dataset_codes[d] for d in seg.datasets] for seg in segs]

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of its own for one thread."""
        with self._lock:
            return self._con.cursor()

    @contextlib.contextmanager
    def cursor_until(self, deadline: float | None) -> Iterator[duckdb.DuckDBPyConnection]:
        """A cursor whose query is interrupted at `deadline` (perf_counter seconds); raises
        SearchTimeout when it was."""
        cur = self.cursor()
        if deadline is None:
            yield cur
            return
        left = deadline - time.perf_counter()
        if left <= 0:
            raise SearchTimeout("the search ran out of time")
        watchdog = threading.Timer(left, cur.interrupt)
        watchdog.start()
        try:
            yield cur
        except duckdb.InterruptException as exc:
            raise SearchTimeout("the search ran out of time") from exc
        finally:
            watchdog.cancel()

    def close(self) -> None:
        self._con.close()
        self.postings.close()

    # --- terms ---

    def _find(self, term: str) -> int | None:
        """The position of a term in the sorted dictionary (bisection), or None."""
        terms = self._terms
        lo, hi = 0, len(terms)
        while lo < hi:
            mid = (lo + hi) // 2
            if terms[mid].as_py() < term:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(terms) and terms[lo].as_py() == term else None

    def term_ids(self, terms: Sequence[str]) -> dict[str, int]:
        """Terms that some live page holds, and their ids."""
        out = {}
        for term in terms:
            pos = self._find(term)
            if pos is None:
                continue
            term_id = int(self._term_ids[pos])
            if term_id < self.df.size and self.df[term_id] > 0:
                out[term] = term_id
                self._rank[term_id] = pos
        return out

    def prefix_terms(self, prefix: str, limit: int) -> tuple[dict[str, int], bool]:
        """Up to `limit` terms starting with `prefix` that some live page holds, in term order,
        with their ids; and whether more were left out."""
        terms, lo, hi = self._terms, 0, len(self._terms)
        while lo < hi:  # the first term not below the prefix
            mid = (lo + hi) // 2
            if terms[mid].as_py() < prefix:
                lo = mid + 1
            else:
                hi = mid
        out: dict[str, int] = {}
        for pos in range(lo, len(terms)):
            term = terms[pos].as_py()
            if not term.startswith(prefix):
                return out, False
            term_id = int(self._term_ids[pos])
            if term_id < self.df.size and self.df[term_id] > 0:
                if len(out) == limit:
                    return out, True
                out[term] = term_id
                self._rank[term_id] = pos
        return out, False

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        """Live pages holding each known term (unknown terms are left out)."""
        return {t: int(self.df[i]) for t, i in self.term_ids(terms).items()}

    def term_order(self, term_ids: Iterable[int]) -> list[int]:
        """The distinct terms in dictionary order (as `term_ids` and `prefix_terms` found them;
        any other first, by id): the order a query's postings are read and scored in."""
        return sorted(set(term_ids), key=lambda t: (self._rank.get(t, -1), t))

    # --- arrays made on first use, kept with the snapshot ---

    def cached(self, key: str, make: Callable[[], T]) -> T:
        """`make()`, made once per snapshot under `key` (the readers' arrays for counting)."""
        with self._cache_lock:
            if key not in self._cache:
                self._cache[key] = make()
            return cast(T, self._cache[key])

    @property
    def doc_day(self) -> np.ndarray:
        """Each document's date as days since 1970-01-01 (`NO_DATE` where it has none)."""
        return self.cached("doc_day", lambda: concat([s.doc_day for s in self.segments], np.int32))
