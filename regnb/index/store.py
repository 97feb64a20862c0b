"""The only place the index is read: posting lists, filters, pages, documents.

A store opens one consistent set of segments (the index manifest as it was when opened). Page
ids and document rows are global: a segment's local ids plus its base. Small per-page arrays
(document, date, dataset, length, live) are held in memory so that matching runs in numpy; texts
and document rows are read by position from each segment's blocks. SQL (field filters, lookups
by document id or URL) runs over the segments' metadata databases, attached to one connection,
and is built by pure functions (`allowed_sql`) that bind values as parameters.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar, cast

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb import text
from regnb.errors import CorpusError, SearchTimeout
from regnb.index.bm25 import bm25_from_norms, bm25_norms, bm25_scale, bound_scale
from regnb.index.build import IndexFiles, IndexState
from regnb.index.segments import NO_DATE, Segment
from regnb.request import DocFilter
from regnb.search.matching import (
    Candidates,
    Lexicon,
    MatchItem,
    PageChecks,
    PageTest,
    Pruning,
    QueryPostings,
    match_mask,
    phrase_rows,
)

__all__ = ["Candidates", "IndexStore", "allowed_sql", "manifest_stamp"]

T = TypeVar("T")
READERS = min(4, os.cpu_count() or 1)  # threads reading one search's segments
Ranges = tuple[np.ndarray, np.ndarray, np.ndarray]  # `Segment.term_ranges`: positions, starts, ends


def allowed_sql(filters: Sequence[DocFilter]) -> tuple[str, dict[str, Any]]:
    """SQL selecting the `doc_row` of dataset `$ds`'s documents that pass every field filter."""
    where = ["d.dataset = $ds"]
    params: dict[str, Any] = {}
    for i, f in enumerate(filters):
        name = f"f{i}"
        value = f.value
        params[f"{name}_field"] = f.field
        if f.kind == "keyword":
            test = f"list_has_all(terms, regnb_terms(${name}))"
            value = text.fold(value)
        elif f.kind == "phrase":  # value: a `phrase_pattern` over the field's terms
            test = f"regexp_matches(array_to_string(regnb_terms(value), ' '), ${name})"
        elif f.kind == "exact":
            test = f"norm = regexp_replace(upper(strip_accents(${name})), '[^A-Z0-9]', '', 'g')"
            value = text.fold(value)
        else:  # enum, boolean, number: the stored value as text
            test = f"value = ${name}"
            value = ("true" if value else "false") if isinstance(value, bool) else str(value)
        where.append(
            "d.doc_row IN (SELECT doc_row FROM field_values "
            f"WHERE dataset = d.dataset AND field = ${name}_field AND {test})"
        )
        params[name] = value
    return "SELECT d.doc_row FROM docs d WHERE " + " AND ".join(where), params


PHRASE_BATCH = 2000  # pages whose text is read and checked at once
# A phrase is verified on each page's words (tokenised as the index does), each distinct word of
# a batch kept or dropped and stemmed once: a batch has some 400,000 words but 4,000 distinct.
# Rows come back in any order, each with its position `i`.
PHRASE_WORDS_SQL = "SELECT i, regnb_words(s) AS w FROM phrase_in"
PHRASE_TERMS_SQL = (
    "SELECT i, CASE WHEN regnb_keep(w) THEN stem(w, 'english') END AS term FROM phrase_words"
)


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


def _cat(parts: Sequence[np.ndarray], dtype: Any) -> np.ndarray:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def _numbers(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """An integer column as int64 (the positions read back from SQL, list lengths, codes)."""
    return np.asarray(values.to_numpy(zero_copy_only=False), np.int64)


def _days(value: str) -> int:
    return cast(
        int, (np.datetime64(value, "D") - np.datetime64("1970-01-01", "D")).astype(int).item()
    )


class IndexStore:
    """A read-only handle on a built index; one cursor per call, safe across threads."""

    def __init__(self, files: IndexFiles, threads: int = 0) -> None:
        self.files = files
        self.stamp = manifest_stamp(files.manifest)  # taken first: a later change is seen
        state = IndexState.load(files.folder)
        if state is None:
            raise CorpusError(f"{files.manifest}: no index of this version there")
        self.state = state
        self.encoder_name, self.dim = state.encoder, state.dim
        self.segments = [Segment(files.folder / e.id) for e in state.segments]
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
        self._rank: dict[int, int] = {}
        self._cache: dict[str, Any] = {}
        self._cache_lock = threading.Lock()
        self._local = threading.local()
        self._readers: ThreadPoolExecutor | None = None

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
        segs, entries = self.segments, self.state.segments
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
        self.doc_live = _cat(doc_live, bool)
        self.doc_ds = _cat(doc_ds, np.int16)
        self.doc_first = _cat(
            [s.doc_first + b for s, b in zip(segs, self.page_base, strict=False)], np.int64
        )
        self.doc_count = _cat([s.doc_count for s in segs], np.int32)
        self.page_doc = _cat(
            [s.page_doc + b for s, b in zip(segs, self.doc_base, strict=False)], np.int32
        )
        self.page_dl = _cat([s.page_dl for s in segs], np.int32)
        self.page_ds = self.doc_ds[self.page_doc]
        starts = np.flatnonzero(np.diff(self.page_ds, prepend=-1))  # runs of one dataset's pages
        self.ds_runs = (starts, self.page_ds[starts])
        self.page_live = self.doc_live[self.page_doc]
        self.page_day = _cat([s.doc_day for s in segs], np.int32)[self.page_doc]
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
        if self._readers is not None:
            self._readers.shutdown(wait=False, cancel_futures=True)

    # --- terms and postings ---

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

    def weights(self, term_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(global page ids, BM25 weights) of one term's live postings, segment by segment."""
        n, df = self.state.n_pages, float(self.df[term_id])
        pages, weights = [], []
        for seg, base, whole in zip(
            self.segments, self.page_base, self.segment_whole, strict=False
        ):
            local, tf = seg.postings(term_id)
            if local.size == 0:
                continue
            glob = local + base if base else local
            if not whole:
                live = self.page_live[glob]
                glob, tf = glob[live], tf[live]
            pages.append(glob)
            weights.append(bm25_from_norms(tf, df, n, self.page_norm[glob]))
        if not pages:
            return np.empty(0, np.int64), np.empty(0, np.float32)
        return np.concatenate(pages), np.concatenate(weights)

    def postings(
        self,
        term_ids: Sequence[int],
        *,
        scored: Iterable[int] | None = None,
        deadline: float | None = None,
        datasets: Iterable[int] | None = None,
        pruning: Pruning | None = None,
    ) -> QueryPostings:
        """The live postings of the given terms as candidate pages, scored with the corpus-wide
        statistics over the `scored` terms (default: all); SearchTimeout past `deadline`. Read a
        segment at a time, each in one compiled pass (`regnb.index.kernels`), then joined in page-id
        order. Segments holding none of `datasets` (codes; default: all) are not read, and with
        `pruning` a segment is read only for the pages that may be among the best of its
        datasets (every term must then be scored)."""
        from regnb.index import (
            kernels as _kernels,  # numba: loaded by the first search, not by `import regnb`
        )

        order = sorted(set(term_ids), key=lambda t: (self._rank.get(t, -1), t))
        weighed = set(order if scored is None else scored)
        n = self.state.n_pages
        scales = np.array([bm25_scale(float(self.df[t]), n) for t in order] or [0.0], np.float32)[
            : len(order)
        ]
        flags = np.array([t in weighed for t in order], np.bool_)
        columns = {t: j for j, t in enumerate(order)}
        wanted = None if datasets is None else set(datasets)
        if not flags.all():  # a floor bounds the whole score: every term must count
            pruning = None

        def read(s: int, ranges: Ranges, gate: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            if deadline is not None and time.perf_counter() > deadline:
                raise SearchTimeout("the search ran out of time")
            seg, base = self.segments[s], int(self.page_base[s])
            window = slice(base, base + seg.n_pages)
            pages, score, bits = _kernels.segment_postings(
                self._workspace(),  # this thread's
                seg.n_pages,
                self._lists(s, ranges),
                scales,
                flags,
                self.page_norm[window],
                None if self.segment_whole[s] else self.page_live[window],
                gate,
            )
            return pages.astype(np.int64) + base, score, bits

        parts: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        gated: dict[int, Ranges] = {}
        lock = threading.Lock()  # around the pruning's state, shared by the readers

        def read_one(s: int, ranges: Ranges) -> None:
            """Segment `s`, through a gate where the pruning allows one, its matches recorded."""
            if pruning is None:
                parts[s] = read(s, ranges, None)
                return
            with lock:
                gate = self._gate(s, ranges, scales, pruning, columns)
            if gate is None:
                parts[s] = read(s, ranges, None)
                return
            gated[s] = ranges
            parts.pop(s, None)
            if gate.items:  # else no page of it can match
                parts[s] = read(s, ranges, gate)
                pages, score, bits = parts[s]
                of = functools.partial(self.page_ds.__getitem__, pages)
                with lock:
                    pruning.record(self.segment_codes[s], pages, of, score, bits, columns)

        todo = []
        for s, codes in enumerate(self.segment_codes):
            if wanted is not None and wanted.isdisjoint(codes):
                continue
            ranges = self.segments[s].term_ranges(order)
            if (ranges[2] > ranges[1]).any():  # else it holds none of the terms
                todo.append((s, ranges))
        if pruning is not None:  # each dataset's first segment first: it sets the floors
            firsts, seen = [], set[int]()
            for s, ranges in todo:
                if not seen.issuperset(self.segment_codes[s]):
                    seen.update(self.segment_codes[s])
                    firsts.append((s, ranges))
            self._read_all(read_one, firsts)
            todo = [(s, r) for s, r in todo if s not in parts and s not in gated]
        self._read_all(read_one, todo)
        while pruning is not None and pruning.level < 2:
            # a dataset without a match at this level is loosened: its segments read again
            unmatched = {
                c
                for s in gated
                for c in self.segment_codes[s]
                if not pruning.matched.get(c) and c not in pruning.earlier
            }
            if not unmatched:
                break
            pruning.loosen(unmatched)
            if not pruning.needs():
                continue  # no item can match at this level: on to the next
            again = [
                (s, r) for s, r in gated.items() if not unmatched.isdisjoint(self.segment_codes[s])
            ]
            self._read_all(read_one, again)
        joined = [parts[s] for s in sorted(parts)]
        words = max(1, -(-len(order) // _kernels.WORD))
        return QueryPostings(
            _cat([p for p, _, _ in joined], np.int64),
            _cat([sc for _, sc, _ in joined], np.float64),
            np.concatenate([b for _, _, b in joined])
            if joined
            else np.zeros((0, words), np.uint64),
            columns,
            self.page_space,
            self.page_ds,
            self.ds_runs,
        )

    def _gate(
        self, s: int, ranges: Ranges, scales: np.ndarray, pruning: Pruning, columns: dict[int, int]
    ) -> Any:
        """Which pages of segment `s` a pruned search reads (`regnb.index.kernels.Gate`), or None:
        all of them. `ranges`: the query's terms in the segment (`Segment.term_ranges`);
        `columns`: each term's position among them."""
        from regnb.index import kernels as _kernels

        floor = pruning.floor(self.segment_codes[s])
        if floor is None:
            return None
        at, lo, hi = ranges
        sizes = (hi - lo).tolist()
        items, needs = [], []
        for item, need in pruning.needs():
            held = sorted((columns[t] for t in item), key=lambda j: (sizes[j], j))
            if sum(1 for j in held if sizes[j]) >= need:  # else no page of it holds enough
                items.append(held)
                needs.append(need)
        if floor == -math.inf or not items:
            return _kernels.Gate(items, needs)
        blocks = self.segments[s].blocks()
        part = np.where(hi > lo, blocks.bound[at] if blocks.bound.size else 0.0, 0.0)
        scale = bound_scale(blocks.avgdl, self.state.avgdl)
        bounds = part * scales.astype(np.float64) * scale
        # a hair under the floor: a page scoring exactly the floor (a tie) is still read, though
        # a sum in another order may round below it
        return _kernels.Gate(items, needs, floor - 1e-9 * abs(floor), bounds, scale)

    def _lists(self, s: int, ranges: Ranges) -> Any:
        """The query's terms in segment `s` for `regnb.index.kernels` (`Lists`)."""
        from regnb.index import kernels as _kernels

        seg, (at, lo, hi) = self.segments[s], ranges
        blocks = seg.blocks()
        held = hi > lo
        starts = blocks.skip_start
        return _kernels.Lists(
            seg.post_gaps.parts(),
            seg.post_tf.parts(),
            lo,
            hi,
            np.where(held, starts[at], 0) if starts.size > 1 else np.zeros_like(lo),
            np.where(held, starts[np.minimum(at + 1, starts.size - 1)], 0)
            if starts.size > 1
            else np.zeros_like(lo),
            blocks.skip_page,
            blocks.skip_bound,
        )

    def _read_all(
        self, read_one: Callable[[int, Ranges], None], todo: list[tuple[int, Ranges]]
    ) -> None:
        """`read_one` of each segment, in order, by `READERS` threads (the reads run compiled
        code without the GIL); the first failure is raised, and the reads not yet started are
        dropped."""
        if len(todo) < 2 or READERS < 2:
            for s, ranges in todo:
                read_one(s, ranges)
            return
        with self._lock:
            if self._readers is None:
                self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="regnb-postings")
        futures = [self._readers.submit(read_one, s, r) for s, r in todo]
        try:
            for future in futures:
                future.result()
        finally:  # after a failure (a timeout), the reads not started are not started
            for future in futures:
                future.cancel()

    def _workspace(self) -> Any:
        """This thread's work arrays for reading postings (`regnb.index.kernels.Workspace`)."""
        from regnb.index import kernels as _kernels

        space = getattr(self._local, "space", None)
        if space is None:
            space = self._local.space = _kernels.Workspace()
        return space

    # --- matching ---

    def allowed(
        self, dataset: str, filters: Sequence[DocFilter], *, deadline: float | None = None
    ) -> PageTest | None:
        """Which pages of the dataset pass the filters (None: no filter). Date bounds are
        checked in memory; field filters run SQL once, interrupted at `deadline`."""
        if not filters or dataset not in self.dataset_codes:
            return None
        lo = max((_days(f.value) for f in filters if f.kind == "date_from"), default=None)
        hi = min((_days(f.value) for f in filters if f.kind == "date_to"), default=None)
        docs: np.ndarray | None = None
        fielded = [f for f in filters if f.on_fields]
        if fielded:
            sql, params = allowed_sql(fielded)
            params["ds"] = dataset
            with self.cursor_until(deadline) as cur:
                docs = np.sort(
                    np.asarray(cur.execute(sql, params).fetchnumpy()["doc_row"], np.int64)
                )

        def test(page_ids: np.ndarray) -> np.ndarray:
            days = self.page_day[page_ids]
            mask = np.ones(page_ids.size, dtype=bool)
            if lo is not None:
                mask &= (days != NO_DATE) & (days >= lo)
            if hi is not None:
                mask &= (days != NO_DATE) & (days <= hi)
            if docs is not None:
                mask &= np.isin(self.page_doc[page_ids], docs)
            return mask

        return test

    def matching(
        self,
        dataset: str,
        post: QueryPostings,
        items: Sequence[MatchItem],
        needs: Sequence[int],
        allowed: PageTest | None,
        lexicon: Lexicon,
        checks: PageChecks | None = None,
    ) -> np.ndarray:
        """Positions in `post.candidates` of the dataset's pages that meet `needs` and the
        conditions of some item and pass the filters, ascending: every match, uncapped."""
        if dataset not in self.dataset_codes:
            return np.empty(0, np.int64)
        code = self.dataset_codes[dataset]
        idx, matched = match_mask(post, code, items, needs, allowed, lexicon, checks)
        chosen: np.ndarray = idx[matched]
        return chosen

    # --- per-index arrays for counting (made on first use, kept with the snapshot) ---

    def _cached(self, key: str, make: Callable[[], T]) -> T:
        with self._cache_lock:
            if key not in self._cache:
                self._cache[key] = make()
            return cast(T, self._cache[key])

    @property
    def doc_day(self) -> np.ndarray:
        """Each document's date as days since 1970-01-01 (`NO_DATE` where it has none)."""
        return self._cached("doc_day", lambda: _cat([s.doc_day for s in self.segments], np.int32))

    def field_codes(self, field: str) -> tuple[np.ndarray, list[str]]:
        """A catalog field's values as codes: per document row the index of its value as stored
        (-1 where it has none), and the distinct values."""

        def make() -> tuple[np.ndarray, list[str]]:
            table = (
                self.cursor()
                .execute("SELECT doc_row, value FROM field_values WHERE field = ?", [field])
                .arrow()
                .read_all()
            )
            codes = np.full(int(self.doc_base[-1]), -1, np.int32)
            if not table.num_rows:
                return codes, []
            encoded = table.column("value").combine_chunks().dictionary_encode()
            rows = np.asarray(table.column("doc_row").to_numpy(), np.int64)
            codes[rows] = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), np.int32)
            return codes, encoded.dictionary.to_pylist()

        return self._cached(f"field:{field}", make)

    def term_pages(self, terms: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """The live pages holding each of the given terms: (page ids, the term's position in
        `terms`) with one row per (page, term)."""
        pages, codes = [], []
        for code, term_id in enumerate(terms.values()):
            p, _ = self.weights(term_id)
            pages.append(p.astype(np.int64))
            codes.append(np.full(p.size, code, np.int32))
        return _cat(pages, np.int64), _cat(codes, np.int32)

    def cached_term_pages(
        self, key: str, terms: Callable[[], dict[str, int]]
    ) -> tuple[list[str], np.ndarray, np.ndarray]:
        """`term_pages` of a set of terms chosen once per index (the CFR sections cited),
        kept: (the terms, page ids, term codes)."""

        def make() -> tuple[list[str], np.ndarray, np.ndarray]:
            chosen = terms()
            return (list(chosen), *self.term_pages(chosen))

        return self._cached(f"terms:{key}", make)

    def phrase_pages(
        self,
        page_ids: np.ndarray,
        terms: Sequence[str],
        slop: int = 0,
        *,
        deadline: float | None = None,
    ) -> np.ndarray:
        """Whether each page's terms (title and text, tokenised as the index does) hold `terms`
        in order with at most `slop` other terms between consecutive ones (what
        `phrase_pattern` matches); read and checked a batch at a time."""
        ids = np.asarray(page_ids, np.int64)
        out = np.zeros(ids.size, bool)
        codes = {t: k for k, t in enumerate(dict.fromkeys(terms))}
        phrase = [codes[t] for t in terms]
        for start in range(0, ids.size, PHRASE_BATCH):
            batch = ids[start : start + PHRASE_BATCH]
            pages = [
                text.fold(f"{t} {p}")
                for t, p in zip(self._titles(batch), self.texts(batch), strict=True)
            ]
            found, words, streams = self._page_words(pages, codes, deadline)
            kept = words >= 0
            hits = phrase_rows(words[kept], streams[kept], found.size, phrase, slop)
            out[start + found] = hits
        return out

    def _page_words(
        self, pages: list[str], codes: dict[str, int], deadline: float | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pages' words, tokenised as the index does, as one stream of codes (a word's
        term's code in `codes`, `len(codes)` for any other term, -1 for a word the index drops)
        page after page: (the positions in `pages` in the order read, each word's code, each
        word's page in that order)."""
        table = pa.table({"i": np.arange(len(pages), dtype=np.int64), "s": pa.array(pages)})
        with self.cursor_until(deadline) as cur:
            cur.register("phrase_in", table)
            read = cur.execute(PHRASE_WORDS_SQL).arrow().read_all()
            cur.unregister("phrase_in")
            lists = read.column("w").combine_chunks()
            words = pc.dictionary_encode(lists.flatten())
            distinct = pa.table(
                {"i": np.arange(len(words.dictionary), dtype=np.int64), "w": words.dictionary}
            )
            cur.register("phrase_words", distinct)
            stems = cur.execute(PHRASE_TERMS_SQL).arrow().read_all()
            cur.unregister("phrase_words")
        other = len(codes)
        word_code = np.empty(len(distinct), np.int32)
        word_code[_numbers(stems.column("i"))] = [
            -1 if t is None else codes.get(t, other) for t in stems.column("term").to_pylist()
        ]
        streams = np.repeat(np.arange(len(lists)), _numbers(pc.list_value_length(lists)))
        return _numbers(read.column("i")), word_code[_numbers(words.indices)], streams

    def _titles(self, page_ids: np.ndarray) -> list[str | None]:
        """The title of each page's document, read as one column."""
        rows = self.page_doc[page_ids].astype(np.int64)
        out: list[str | None] = [None] * rows.size
        segs = self._segment_of(rows, self.doc_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            titles = self.segments[s].doc_values("title", rows[where] - self.doc_base[s])
            for i, t in zip(where.tolist(), titles, strict=True):
                out[i] = t
        return out

    # --- rows by position ---

    def _segment_of(self, ids: np.ndarray, bases: np.ndarray) -> np.ndarray:
        return np.searchsorted(bases, ids, side="right") - 1

    def texts(self, page_ids: Sequence[int] | np.ndarray) -> list[str]:
        """Page texts by global page id, in the order given."""
        ids = np.asarray(page_ids, dtype=np.int64)
        out: list[str] = [""] * ids.size
        segs = self._segment_of(ids, self.page_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            texts = self.segments[s].texts((ids[where] - self.page_base[s]).tolist())
            for i, t in zip(where.tolist(), texts, strict=True):
                out[i] = t
        return out

    def pages(self, page_ids: Sequence[int]) -> list[dict[str, Any]]:
        """Page rows (with their document's columns) for the given page ids, in the order given."""
        if not len(page_ids):
            return []
        ids = np.asarray(page_ids, dtype=np.int64)
        rows = self.page_doc[ids].tolist()
        docs = {d["doc_row"]: d for d in self.documents(set(rows))}
        nums = self._page_nums(ids)
        return [
            {**docs[r], "page_id": int(p), "page_num": n, "text": t}
            for p, r, n, t in zip(ids.tolist(), rows, nums, self.texts(ids), strict=True)
        ]

    def _page_nums(self, ids: np.ndarray) -> list[int]:
        return cast(list[int], (ids - self.doc_first[self.page_doc[ids]] + 1).tolist())

    def documents(self, doc_rows: Iterable[int]) -> list[dict[str, Any]]:
        """Document rows by `doc_row`."""
        rows = np.asarray(sorted(doc_rows), dtype=np.int64)
        out: list[dict[str, Any]] = []
        segs = self._segment_of(rows, self.doc_base)
        for s in np.unique(segs):
            mine = rows[segs == s]
            for row, rec in zip(
                mine.tolist(),
                self.segments[s].doc_rows((mine - self.doc_base[s]).tolist()),
                strict=True,
            ):
                rec["doc_row"] = row
                rec["first_page_id"] = int(self.doc_first[row])
                rec["fields"] = json.loads(rec["fields"])
                del rec["content_hash"], rec["shard_id"]
                out.append(rec)
        return out

    def _live_rows(self, sql: str, value: str) -> list[int]:
        rows = self.cursor().execute(sql, [value]).fetchall()
        return sorted(int(r[0]) for r in rows if self.doc_live[int(r[0])])

    def live_field_values(self, fields: Sequence[str]) -> pa.Table:
        """`doc_row`, `field`, `value` of the named catalog fields of every live document."""
        table = (
            self.cursor()
            .execute(
                "SELECT doc_row, field, value FROM field_values "
                "WHERE field IN (SELECT unnest($fields)) ORDER BY doc_row",
                {"fields": list(fields)},
            )
            .arrow()
            .read_all()
        )
        return self._live(table)

    def live_identifiers(self, max_page: int) -> pa.Table:
        """`doc_row`, `kind`, `value`, `page_num` of every live document's identifiers read from
        its catalog fields (page 0) or its pages up to `max_page` (`regnb.index.identifiers`)."""
        table = (
            self.cursor()
            .execute(
                "SELECT doc_row, kind, value, page_num FROM identifiers "
                "WHERE page_num <= $max ORDER BY doc_row",
                {"max": int(max_page)},
            )
            .arrow()
            .read_all()
        )
        return self._live(table)

    def _live(self, table: pa.Table) -> pa.Table:
        rows = _numbers(table.column("doc_row")) if table.num_rows else np.zeros(0, np.int64)
        return table.filter(pa.array(self.doc_live[rows]))

    def document_rows(self, document_ids: Sequence[str]) -> dict[str, int]:
        """The live documents' rows by id (ids the index lacks are left out)."""
        if not document_ids:
            return {}
        found = self.cursor().execute(
            "SELECT document_id, doc_row FROM docs WHERE document_id IN (SELECT unnest($ids))",
            {"ids": list(document_ids)},
        )
        return {str(d): int(r) for d, r in found.fetchall() if self.doc_live[int(r)]}

    def document_keys(self, doc_rows: Sequence[int]) -> list[str]:
        """A key per document row that names the same document as long as its segment lives
        (segments never change): `<segment>:<row in it>`, for caches of what a document says."""
        rows = np.asarray(doc_rows, np.int64)
        segs = self._segment_of(rows, self.doc_base)
        return [
            f"{self.segments[s].folder.name}:{r - int(self.doc_base[s])}"
            for s, r in zip(segs.tolist(), rows.tolist(), strict=True)
        ]

    def document(self, document_id: str) -> dict[str, Any] | None:
        """A document's row by its id, or None."""
        rows = self._live_rows("SELECT doc_row FROM docs WHERE document_id = ?", document_id)
        return self.documents(rows[:1])[0] if rows else None

    def document_by_url(self, url: str) -> dict[str, Any] | None:
        """A document's row by its source URL, or None."""
        rows = self._live_rows("SELECT doc_row FROM docs WHERE url = ?", url)
        return self.documents(rows[:1])[0] if rows else None

    def page_range(self, doc: dict[str, Any], first: int, last: int) -> list[tuple[int, str]]:
        """(page_num, text) of pages `first`..`last` of a document."""
        base = int(doc["first_page_id"]) - 1
        last = min(last, int(doc["page_count"]))
        if last < first:
            return []
        return list(
            zip(
                range(first, last + 1),
                self.texts(range(base + first, base + last + 1)),
                strict=True,
            )
        )

    def pages_in(
        self, datasets: Sequence[str], day_from: str | None, day_to: str | None
    ) -> np.ndarray:
        """A mask over every page id: live, in one of `datasets`, dated within the bounds."""
        codes = [self.dataset_codes[d] for d in datasets if d in self.dataset_codes]
        keep: np.ndarray = np.isin(self.page_ds, np.asarray(codes, np.int16)) & self.page_live
        if day_from is not None:
            keep &= (self.page_day != NO_DATE) & (self.page_day >= _days(day_from))
        if day_to is not None:
            keep &= (self.page_day != NO_DATE) & (self.page_day <= _days(day_to))
        return keep

    def vectors(self, page_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The stored embeddings of the pages, float32, in the order given."""
        ids = np.asarray(page_ids, dtype=np.int64)
        matrix = np.empty((len(ids), self.dim), dtype=np.float32)
        segs = self._segment_of(ids, self.page_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            local = ids[where] - self.page_base[s]
            order = np.argsort(local)
            matrix[where[order]] = self.segments[s].embeddings[local[order]]
        return matrix

    def doc_rows(self, page_ids: Sequence[int]) -> dict[int, int]:
        """page_id -> doc_row."""
        ids = np.asarray(page_ids, dtype=np.int64)
        return dict(zip(ids.tolist(), self.page_doc[ids].tolist(), strict=True))

    def sample_documents(
        self, dataset: str, limit: int, *, pages: int = 20, batch: int = 100
    ) -> Iterator[list[str]]:
        """The texts of the first `pages` pages of up to `limit` of a dataset's documents, evenly
        spaced in index order (the same sample every time), read `batch` documents at a time."""
        code = self.dataset_codes.get(dataset)
        docs: np.ndarray | list[int] = (
            np.flatnonzero((self.doc_ds == code) & self.doc_live) if code is not None else []
        )
        step = max(1.0, len(docs) / max(limit, 1))
        chosen = [int(docs[int(i * step)]) for i in range(min(limit, len(docs)))]
        for i in range(0, len(chosen), batch):
            for row in chosen[i : i + batch]:
                first = int(self.doc_first[row])
                yield self.texts(range(first, first + min(int(self.doc_count[row]), pages)))

    def counts(self) -> dict[str, tuple[int, int]]:
        """Live documents and pages per dataset."""
        n = len(self.dataset_codes)
        docs = np.bincount(self.doc_ds[self.doc_live], minlength=n)
        pages = np.bincount(self.page_ds[self.page_live], minlength=n)
        return {d: (int(docs[c]), int(pages[c])) for d, c in self.dataset_codes.items() if docs[c]}
