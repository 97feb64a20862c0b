"""The only place SQL runs against the index: page matching, filters, reading, legacy BM25.

SQL is built by pure functions (`match_sql`, `allowed_sql`) and always binds values as parameters.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import duckdb
import numpy as np

from regnb import text
from regnb.index import IndexFiles

__all__ = ["Candidates", "DocFilter", "IndexStore", "allowed_sql", "match_sql"]


@dataclass(frozen=True)
class DocFilter:
    """One condition on a dataset's documents."""

    kind: str  # "keyword", "exact", "enum", "boolean", "number", "date_from", "date_to"
    field: str
    value: Any


@dataclass
class Candidates:
    """A dataset's matching pages: how many (capped) and the best ones by BM25, best first."""

    matches: int
    page_ids: list[int]
    scores: list[float]


def allowed_sql(filters: Sequence[DocFilter]) -> tuple[str, dict[str, Any]]:
    """SQL selecting the `doc_row` of dataset `$ds`'s documents that pass every filter."""
    where = ["d.ds = $ds"]
    params: dict[str, Any] = {}
    for i, f in enumerate(filters):
        name = f"f{i}"
        value = f.value
        if f.kind == "date_from":
            where.append(f"d.date >= ${name}::DATE")
        elif f.kind == "date_to":
            where.append(f"d.date <= ${name}::DATE")
        else:
            params[f"{name}_field"] = f.field
            if f.kind == "keyword":
                test = f"list_has_all(terms, regnb_terms(${name}))"
            elif f.kind == "exact":
                test = f"norm = regexp_replace(upper(strip_accents(${name})), '[^A-Z0-9]', '', 'g')"
            else:  # enum, boolean, number: the stored value as text
                test = f"value = ${name}"
                value = ("true" if value else "false") if isinstance(value, bool) else str(value)
            where.append(
                "d.doc_row IN (SELECT doc_row FROM field_values "
                f"WHERE ds = d.ds AND field = ${name}_field AND {test})"
            )
        params[name] = value
    return "SELECT d.doc_row FROM docs d WHERE " + " AND ".join(where), params


def match_sql(
    items: Sequence[Sequence[int]],
    needs: Sequence[int],
    allowed: str | None,
    limit: int,
    cap: int,
) -> str:
    """SQL for one dataset's (`$ds`) matching pages and their BM25 scores, best first.

    `items` are the term ids of each keyword item and `needs` how many of them a page must hold;
    `allowed`, when given, is SQL selecting the documents that pass the filters.
    """
    rows = ", ".join(
        f"({i}, {t}, {int(need)})"
        for i, (terms, need) in enumerate(zip(items, needs, strict=True))
        for t in sorted(set(terms))
    )
    term_list = ", ".join(str(t) for t in sorted({t for terms in items for t in terms}))
    allowed_cte = f"allowed AS ({allowed}),\n" if allowed else ""
    allowed_test = " AND h.doc_row IN (SELECT doc_row FROM allowed)" if allowed else ""
    return f"""WITH {allowed_cte}q(item, term_id, need) AS (VALUES {rows}),
h AS (
  SELECT h.page_id, h.term_id, h.weight FROM postings h
  WHERE h.ds = $ds AND h.term_id IN ({term_list}){allowed_test}
),
m AS (
  SELECT DISTINCT page_id FROM (
    SELECT h.page_id FROM h JOIN q USING (term_id)
    GROUP BY h.page_id, q.item, q.need HAVING count(*) >= q.need
  )
),
s AS (
  SELECT h.page_id, sum(h.weight) AS score FROM h SEMI JOIN m USING (page_id) GROUP BY h.page_id
)
SELECT (SELECT least(count(*), {int(cap)}) FROM m) AS matches, page_id, score
FROM s ORDER BY score DESC, page_id LIMIT {int(limit)}"""


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

    def cursor(self) -> duckdb.DuckDBPyConnection:
        """A cursor of its own for one thread (it sees the macros of the connection)."""
        with self._lock:
            return self._con.cursor()

    def close(self) -> None:
        self._con.close()

    def term_ids(self, terms: Sequence[str]) -> dict[str, int]:
        """Known terms and their ids (unknown terms are left out)."""
        if not terms:
            return {}
        rows = (
            self.cursor()
            .execute(
                "SELECT term, term_id FROM terms WHERE term IN (SELECT unnest(?))", [list(terms)]
            )
            .fetchall()
        )
        return dict(rows)

    def match(
        self,
        cur: duckdb.DuckDBPyConnection,
        dataset: str,
        items: Sequence[Sequence[int]],
        needs: Sequence[int],
        filters: Sequence[DocFilter],
        *,
        limit: int,
        cap: int,
    ) -> Candidates:
        """One dataset's pages that meet `needs` for some item, best BM25 first."""
        ds = self.dataset_codes.get(dataset)
        if ds is None or not any(items):
            return Candidates(0, [], [])
        allowed, params = allowed_sql(filters) if filters else (None, {})
        sql = match_sql(items, needs, allowed, limit, cap)
        params["ds"] = ds
        rows = cur.execute(sql, params).fetchall()
        if not rows:
            return Candidates(0, [], [])
        return Candidates(int(rows[0][0]), [r[1] for r in rows], [float(r[2]) for r in rows])

    def pages(self, page_ids: Sequence[int]) -> list[dict[str, Any]]:
        """Page rows (with their document's columns) for the given page ids, in any order."""
        if not page_ids:
            return []
        cur = self.cursor()
        cur.execute(
            "SELECT p.page_id, p.page_num, p.text, d.doc_row, d.document_id, d.dataset, d.title, "
            "d.date, d.url, d.fields, d.page_count FROM pages p JOIN docs d USING (doc_row) "
            "WHERE p.page_id IN (SELECT unnest($ids))",
            {"ids": [int(i) for i in page_ids]},
        )
        return _records(cur)

    def document(self, document_id: str) -> dict[str, Any] | None:
        """A document's row by its id, or None."""
        cur = self.cursor()
        cur.execute(
            "SELECT doc_row, document_id, dataset, title, date, url, fields, page_count, "
            "first_page_id FROM docs WHERE document_id = ?",
            [document_id],
        )
        rows = _records(cur)
        return rows[0] if rows else None

    def document_by_url(self, url: str) -> dict[str, Any] | None:
        """A document's row by its source URL, or None."""
        cur = self.cursor()
        cur.execute("SELECT document_id FROM docs WHERE url = ? ORDER BY doc_row LIMIT 1", [url])
        row = cur.fetchone()
        return self.document(row[0]) if row else None

    def page_range(self, doc_row: int, first: int, last: int) -> list[tuple[int, str]]:
        """(page_num, text) of pages `first`..`last` of a document."""
        return (
            self.cursor()
            .execute(
                "SELECT page_num, text FROM pages WHERE doc_row = ? AND page_num BETWEEN ? AND ? "
                "ORDER BY page_num",
                [doc_row, first, last],
            )
            .fetchall()
        )

    def page_sizes(self, doc_row: int, first: int, last: int) -> list[tuple[int, int]]:
        """(page_num, UTF-8 bytes of text) of pages `first`..`last`, to plan a read."""
        return (
            self.cursor()
            .execute(
                "SELECT page_num, octet_length(encode(text)) FROM pages "
                "WHERE doc_row = ? AND page_num BETWEEN ? AND ? ORDER BY page_num",
                [doc_row, first, last],
            )
            .fetchall()
        )

    def bm25_pages(
        self,
        term_ids: Sequence[int],
        datasets: Sequence[str],
        year_from: int | None,
        year_to: int | None,
        limit: int,
        offset: int,
    ) -> tuple[int, list[dict[str, Any]]]:
        """Legacy search: pages with any term, by BM25 summed over the terms; (total, page rows)."""
        codes = [self.dataset_codes[d] for d in datasets if d in self.dataset_codes]
        if not term_ids or not codes:
            return 0, []
        cur = self.cursor()
        cur.execute(
            """WITH s AS (
  SELECT h.page_id, sum(h.weight) AS score FROM postings h JOIN docs d USING (doc_row)
  WHERE h.ds IN (SELECT unnest($codes)) AND h.term_id IN (SELECT unnest($terms))
    AND ($yf IS NULL OR year(d.date) >= $yf) AND ($yt IS NULL OR year(d.date) <= $yt)
  GROUP BY h.page_id
)
SELECT count(*) OVER () AS total, s.page_id, s.score, p.page_num, p.text, d.document_id,
       d.dataset, d.title, d.date, d.url, d.fields
FROM s JOIN pages p USING (page_id) JOIN docs d USING (doc_row)
ORDER BY s.score DESC, s.page_id LIMIT $limit OFFSET $offset""",
            {
                "codes": codes,
                "terms": [int(t) for t in term_ids],
                "yf": year_from,
                "yt": year_to,
                "limit": limit,
                "offset": offset,
            },
        )
        rows = _records(cur)
        if rows:
            return int(rows[0]["total"]), rows
        if offset == 0:
            return 0, []
        total = self.bm25_pages(term_ids, datasets, year_from, year_to, 1, 0)[0]
        return total, []

    def doc_rows(self, page_ids: Sequence[int]) -> dict[int, int]:
        """page_id -> doc_row."""
        if not page_ids:
            return {}
        rows = (
            self.cursor()
            .execute(
                "SELECT page_id, doc_row FROM pages WHERE page_id IN (SELECT unnest($ids))",
                {"ids": [int(i) for i in page_ids]},
            )
            .fetchall()
        )
        return dict(rows)

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


def finite(value: float) -> float:
    """A JSON-safe float."""
    return value if math.isfinite(value) else 0.0
