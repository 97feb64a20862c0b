"""The only place SQL runs against the index: posting lists, filters, pages, documents.

SQL is built by pure functions (`allowed_sql`) and always binds values as parameters. Small per-page
arrays (document, date, dataset ranges) are held in memory so that matching runs in numpy.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import duckdb
import numpy as np

from regnb import text
from regnb.errors import SearchTimeout
from regnb.index import IndexFiles
from regnb.matching import Candidates, QueryPostings, match_range
from regnb.request import DocFilter

__all__ = ["Candidates", "IndexStore", "allowed_sql"]

NO_DATE = -(2**31)
DOC_COLUMNS = "doc_row, document_id, dataset, title, date, url, fields, page_count, first_page_id"


def allowed_sql(filters: Sequence[DocFilter]) -> tuple[str, dict[str, Any]]:
    """SQL selecting the `doc_row` of dataset `$ds`'s documents that pass every field filter."""
    where = ["d.ds = $ds"]
    params: dict[str, Any] = {}
    for i, f in enumerate(filters):
        name = f"f{i}"
        value = f.value
        params[f"{name}_field"] = f.field
        if f.kind == "keyword":
            test = f"list_has_all(terms, regnb_terms(${name}))"
            value = text.fold(value)
        elif f.kind == "exact":
            test = f"norm = regexp_replace(upper(strip_accents(${name})), '[^A-Z0-9]', '', 'g')"
            value = text.fold(value)
        else:  # enum, boolean, number: the stored value as text
            test = f"value = ${name}"
            value = ("true" if value else "false") if isinstance(value, bool) else str(value)
        where.append(
            "d.doc_row IN (SELECT doc_row FROM field_values "
            f"WHERE ds = d.ds AND field = ${name}_field AND {test})"
        )
        params[name] = value
    return "SELECT d.doc_row FROM docs d WHERE " + " AND ".join(where), params


def _days(value: str) -> int:
    return (np.datetime64(value, "D") - np.datetime64("1970-01-01", "D")).astype(int).item()


class IndexStore:
    """A read-only handle on a built index; one cursor per call, safe across threads."""

    def __init__(self, files: IndexFiles, threads: int = 0) -> None:
        self.files = files
        self._con = text.connect(str(files.database), read_only=True)
        if threads:
            self._con.execute(f"SET threads = {int(threads)}")
        self.embeddings = np.load(files.embeddings, mmap_mode="r")
        self._lock = threading.Lock()
        info = self._con.execute("SELECT encoder, dim FROM info").fetchone()
        self.encoder_name, self.dim = str(info[0]), int(info[1])
        self.dataset_codes = dict(
            self._con.execute("SELECT DISTINCT dataset, ds FROM docs").fetchall()
        )
        arrays = self._con.execute(
            "SELECT p.doc_row, coalesce(datediff('day', DATE '1970-01-01', d.date), $none) AS day "
            "FROM pages p JOIN docs d USING (doc_row) ORDER BY p.page_id",
            {"none": NO_DATE},
        ).fetchnumpy()
        self.page_doc = np.asarray(arrays["doc_row"], dtype=np.int32)
        self.page_day = np.asarray(arrays["day"], dtype=np.int32)
        self.n_pages = int(self.page_doc.size)
        self.ranges: dict[str, tuple[int, int]] = {
            ds: (int(lo), int(hi))
            for ds, lo, hi in self._con.execute(
                "SELECT d.dataset, min(p.page_id), max(p.page_id) + 1 "
                "FROM pages p JOIN docs d USING (doc_row) GROUP BY d.dataset"
            ).fetchall()
        }

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of its own for one thread (it sees the macros of the connection)."""
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

    def term_ids(self, terms: Sequence[str]) -> dict[str, int]:
        """Known terms and their ids (unknown terms are left out)."""
        return self._term_column("term_id", terms)

    def term_df(self, terms: Sequence[str]) -> dict[str, int]:
        """Pages holding each known term (unknown terms are left out)."""
        return self._term_column("df", terms)

    def _term_column(self, column: str, terms: Sequence[str]) -> dict[str, int]:
        if not terms:
            return {}
        rows = (
            self.cursor()
            .execute(
                f"SELECT term, {column} FROM terms WHERE term IN ({', '.join('?' * len(terms))})",
                list(terms),
            )
            .fetchall()
        )
        return {str(t): int(v) for t, v in rows}

    def postings(self, term_ids: Sequence[int], *, deadline: float | None = None) -> QueryPostings:
        """The posting lists of the given terms, in one read (SearchTimeout past `deadline`)."""
        listed = ", ".join(str(int(t)) for t in sorted(set(term_ids)))
        if not listed:
            empty = np.empty(0, np.int32)
            return QueryPostings(empty, empty, np.empty(0, np.float32), self.n_pages)
        with self.cursor_until(deadline) as cur:
            rows = cur.execute(
                f"SELECT term_id, page_id, weight FROM postings WHERE term_id IN ({listed})"
            ).fetchnumpy()
        return QueryPostings(
            np.asarray(rows["term_id"], np.int32),
            np.asarray(rows["page_id"], np.int32),
            np.asarray(rows["weight"], np.float32),
            self.n_pages,
        )

    def allowed(
        self, dataset: str, filters: Sequence[DocFilter], *, deadline: float | None = None
    ) -> np.ndarray | None:
        """Which pages of the dataset's range pass the filters (None: no filter). Date bounds
        are checked in memory; field filters run SQL, interrupted at `deadline`."""
        if not filters or dataset not in self.ranges:
            return None
        lo, hi = self.ranges[dataset]
        mask = np.ones(hi - lo, dtype=bool)
        days = self.page_day[lo:hi]
        for f in filters:
            if f.kind == "date_from":
                mask &= (days != NO_DATE) & (days >= _days(f.value))
            elif f.kind == "date_to":
                mask &= (days != NO_DATE) & (days <= _days(f.value))
        fielded = [f for f in filters if f.on_fields]
        if fielded:
            sql, params = allowed_sql(fielded)
            params["ds"] = self.dataset_codes[dataset]
            with self.cursor_until(deadline) as cur:
                docs = cur.execute(sql, params).fetchnumpy()["doc_row"]
            mask &= np.isin(self.page_doc[lo:hi], np.asarray(docs, dtype=np.int32))
        return mask

    def match(
        self,
        dataset: str,
        post: QueryPostings,
        items: Sequence[Sequence[int]],
        needs: Sequence[int],
        allowed: np.ndarray | None,
        *,
        limit: int,
        cap: int,
    ) -> Candidates:
        """One dataset's pages that meet `needs` for some item, best BM25 first."""
        if dataset not in self.ranges or not any(items):
            return Candidates(0, [], [])
        lo, hi = self.ranges[dataset]
        return match_range(post, lo, hi, items, needs, allowed, limit=limit, cap=cap)

    def pages(self, page_ids: Sequence[int]) -> list[dict[str, Any]]:
        """Page rows (with their document's columns) for the given page ids, in any order."""
        if not page_ids:
            return []
        cur = self.cursor()
        cur.execute(
            "SELECT page_id, page_num, text, doc_row FROM pages WHERE page_id IN "
            f"({', '.join(str(int(i)) for i in page_ids)})"
        )
        pages = _records(cur)
        docs = {d["doc_row"]: d for d in self.documents({p["doc_row"] for p in pages})}
        return [{**docs[p["doc_row"]], **p} for p in pages]

    def documents(self, doc_rows: Iterable[int]) -> list[dict[str, Any]]:
        """Document rows by `doc_row`."""
        listed = ", ".join(str(int(d)) for d in doc_rows)
        if not listed:
            return []
        cur = self.cursor()
        cur.execute(f"SELECT {DOC_COLUMNS} FROM docs WHERE doc_row IN ({listed})")
        return _records(cur)

    def document(self, document_id: str) -> dict[str, Any] | None:
        """A document's row by its id, or None."""
        cur = self.cursor()
        cur.execute(f"SELECT {DOC_COLUMNS} FROM docs WHERE document_id = ?", [document_id])
        rows = _records(cur)
        return rows[0] if rows else None

    def document_by_url(self, url: str) -> dict[str, Any] | None:
        """A document's row by its source URL, or None."""
        cur = self.cursor()
        cur.execute("SELECT document_id FROM docs WHERE url = ? ORDER BY doc_row LIMIT 1", [url])
        row = cur.fetchone()
        return self.document(row[0]) if row else None

    def page_range(self, doc: dict[str, Any], first: int, last: int) -> list[tuple[int, str]]:
        """(page_num, text) of pages `first`..`last` of a document."""
        base = int(doc["first_page_id"]) - 1
        return (
            self.cursor()
            .execute(
                "SELECT page_num, text FROM pages WHERE page_id BETWEEN ? AND ? ORDER BY page_id",
                [base + first, base + last],
            )
            .fetchall()
        )

    def pages_in(
        self, datasets: Sequence[str], day_from: str | None, day_to: str | None
    ) -> np.ndarray:
        """A mask over every page: in one of `datasets` and dated within the inclusive bounds."""
        keep = np.zeros(self.n_pages, dtype=bool)
        for ds in datasets:
            if ds in self.ranges:
                lo, hi = self.ranges[ds]
                keep[lo:hi] = True
        if day_from is not None:
            keep &= (self.page_day != NO_DATE) & (self.page_day >= _days(day_from))
        if day_to is not None:
            keep &= (self.page_day != NO_DATE) & (self.page_day <= _days(day_to))
        return keep

    def vectors(self, page_ids: Sequence[int]) -> np.ndarray:
        """The stored embeddings of the pages, float32, in the order given."""
        ids = np.asarray(page_ids, dtype=np.int64)
        order = np.argsort(ids)
        matrix = np.empty((len(ids), self.dim), dtype=np.float32)
        matrix[order] = self.embeddings[ids[order]]
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
        cur = self.cursor()
        docs = cur.execute(
            "SELECT first_page_id, page_count FROM docs WHERE dataset = ? ORDER BY doc_row",
            [dataset],
        ).fetchall()
        step = max(1.0, len(docs) / max(limit, 1))
        chosen = [docs[int(i * step)] for i in range(min(limit, len(docs)))]
        for i in range(0, len(chosen), batch):
            ranges = [
                (int(first), int(first) + min(int(count), pages) - 1)
                for first, count in chosen[i : i + batch]
            ]
            where = " OR ".join(f"page_id BETWEEN {lo} AND {hi}" for lo, hi in ranges)
            texts = dict(cur.execute(f"SELECT page_id, text FROM pages WHERE {where}").fetchall())
            for lo, hi in ranges:
                yield [str(texts[p]) for p in range(lo, hi + 1) if p in texts]

    def counts(self) -> dict[str, tuple[int, int]]:
        """Documents and pages per dataset."""
        rows = (
            self.cursor()
            .execute("SELECT dataset, count(*), sum(page_count) FROM docs GROUP BY dataset")
            .fetchall()
        )
        return {r[0]: (int(r[1]), int(r[2])) for r in rows}


def _records(cur: duckdb.DuckDBPyConnection) -> list[dict[str, Any]]:
    names = [c[0] for c in cur.description]
    out = []
    for row in cur.fetchall():
        record = dict(zip(names, row, strict=True))
        if "fields" in record and isinstance(record["fields"], str):
            record["fields"] = json.loads(record["fields"])
        out.append(record)
    return out
