"""A snapshot's rows read by position: page texts and rows, document rows, embeddings, and
phrases verified on the terms' positions (or, in a segment without them, on the pages' words).

Page ids and document rows are global: a segment's local ids plus its base. Texts and document
rows are read by position from each segment's blocks; lookups by document id or URL run SQL over
the segments' metadata databases.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from regnb import text
from regnb.index.arrays import day_number, int64s
from regnb.index.segments import NO_DATE

if TYPE_CHECKING:
    from regnb.index.store import IndexStore

__all__ = ["RowReader", "phrase_rows"]

PHRASE_BATCH = 2000  # pages whose text is read and checked at once
# A phrase is verified on each page's words (tokenised as the index does), each distinct word of
# a batch kept or dropped and stemmed once: a batch has some 400,000 words but 4,000 distinct.
# Rows come back in any order, each with its position `i`.
PHRASE_WORDS_SQL = "SELECT i, regnb_words(s) AS w FROM phrase_in"
PHRASE_TERMS_SQL = (
    "SELECT i, CASE WHEN regnb_keep(w) THEN stem(w, 'english') END AS term FROM phrase_words"
)


def phrase_rows(
    codes: np.ndarray, rows: np.ndarray, n_rows: int, phrase: Sequence[int], slop: int
) -> np.ndarray:
    """Whether each of `n_rows` token streams holds `phrase` in order with at most `slop` other
    tokens between consecutive ones (what the search's `phrase_pattern` matches). The
    streams are given as one: each token's code (`codes`) and stream (`rows`, ascending)."""
    out = np.zeros(n_rows, bool)
    if not phrase or not codes.size:
        return out
    # Each token's position, with `slop + 1` empty places before every stream so that a window
    # of the `slop + 1` places before a token never reaches into the stream before it.
    width = slop + 1
    place = np.arange(codes.size, dtype=np.int64) + (rows.astype(np.int64) + 1) * width
    reach = codes == phrase[0]
    for code in phrase[1:]:
        at = np.flatnonzero(codes == code)
        marks = np.zeros(int(place[-1]) + 1, np.int64)
        marks[place[reach]] = 1
        before = np.concatenate([[0], np.cumsum(marks)])  # before[q]: marks at places < q
        reach = np.zeros(codes.size, bool)
        reach[at] = before[place[at]] > before[place[at] - width]
    out[rows[reach]] = True
    return out


def segment_of(ids: np.ndarray, bases: np.ndarray) -> np.ndarray:
    """The segment of each global id (`bases`: each segment's first id, and one past the end)."""
    return np.searchsorted(bases, ids, side="right") - 1


class RowReader:
    """A snapshot's pages and documents (`IndexStore.rows`)."""

    def __init__(self, store: IndexStore) -> None:
        self.store = store

    def phrase_pages(
        self,
        page_ids: np.ndarray,
        terms: Sequence[str],
        slop: int = 0,
        *,
        words: Sequence[str] | None = None,
        deadline: float | None = None,
    ) -> np.ndarray:
        """Whether each page's terms (title and text, tokenised as the index does) hold `terms`
        in order with at most `slop` other terms between consecutive ones (what
        `phrase_pattern` matches): from the terms' positions where the page's segment has them
        (`regnb.index.positions`), else read and checked a batch at a time. With `words` (the
        terms' words as written), only where the words themselves stand so (a quoted phrase:
        "integrity" is not "integration"): from the positions' forms where the segment stores
        them, else by reading again the pages that hold the terms."""
        if words is not None and len(words) != len(terms):
            raise ValueError("a phrase's words do not match its terms")  # a caller's bug
        ids = np.asarray(page_ids, np.int64)
        out, as_written = self._indexed_phrase_pages(ids, terms, slop, words, deadline)
        if words is not None:
            at = np.flatnonzero(out & ~as_written)
            if at.size:
                out[at] = self.surface_pages(ids[at], words, slop)
        return out

    def surface_pages(self, page_ids: np.ndarray, words: Sequence[str], slop: int) -> np.ndarray:
        """Whether each page (title and text) holds `words` as written, in order
        (`regnb.text.surface_pattern`): read a batch at a time."""
        pattern = text.surface_pattern(tuple(words), slop)
        ids = np.asarray(page_ids, np.int64)
        out = np.zeros(ids.size, bool)
        for start in range(0, ids.size, PHRASE_BATCH):
            batch = ids[start : start + PHRASE_BATCH]
            pages = zip(self._titles(batch), self.texts(batch), strict=True)
            out[start : start + batch.size] = [
                pattern.search(text.surface_text(f"{t or ''} {p}")) is not None for t, p in pages
            ]
        return out

    def _indexed_phrase_pages(
        self,
        ids: np.ndarray,
        terms: Sequence[str],
        slop: int,
        words: Sequence[str] | None,
        deadline: float | None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """`phrase_pages` by the terms, and which pages' answers hold for the `words` too."""
        store = self.store
        out = np.zeros(ids.size, bool)
        as_written = np.zeros(ids.size, bool)
        known = store.term_ids(terms)
        if len(known) < len(set(terms)):
            return out, ~as_written  # no live page holds every term
        term_ids = [known[t] for t in terms]
        read = np.zeros(ids.size, bool)
        segs = segment_of(ids, store.page_base)
        for s in np.unique(segs).tolist():
            where = np.flatnonzero(segs == s)
            if len(terms) == 1 and words is None:  # a page holding the term holds the phrase
                out[where] = True
                continue
            local = ids[where] - store.page_base[s]
            found = store.segments[s].phrase_pages(local, term_ids, slop, words)
            if found is None:
                read[where] = True
            else:
                out[where], as_written[where] = found
        if read.any():
            if len(terms) == 1:
                out[read] = True
            else:
                out[read] = self.read_phrase_pages(ids[read], terms, slop, deadline=deadline)
        return out, as_written

    def read_phrase_pages(
        self,
        page_ids: np.ndarray,
        terms: Sequence[str],
        slop: int = 0,
        *,
        deadline: float | None = None,
    ) -> np.ndarray:
        """`phrase_pages` checked by reading the pages, a batch at a time (what a segment without
        positions needs)."""
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
        with self.store.cursor_until(deadline) as cur:
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
        word_code[int64s(stems.column("i"))] = [
            -1 if t is None else codes.get(t, other) for t in stems.column("term").to_pylist()
        ]
        streams = np.repeat(np.arange(len(lists)), int64s(pc.list_value_length(lists)))
        return int64s(read.column("i")), word_code[int64s(words.indices)], streams

    def _titles(self, page_ids: np.ndarray) -> list[str | None]:
        """The title of each page's document, read as one column."""
        store = self.store
        rows = store.page_doc[page_ids].astype(np.int64)
        out: list[str | None] = [None] * rows.size
        segs = segment_of(rows, store.doc_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            titles = store.segments[s].doc_values("title", rows[where] - store.doc_base[s])
            for i, t in zip(where.tolist(), titles, strict=True):
                out[i] = t
        return out

    def texts(self, page_ids: Sequence[int] | np.ndarray) -> list[str]:
        """Page texts by global page id, in the order given."""
        store = self.store
        ids = np.asarray(page_ids, dtype=np.int64)
        out: list[str] = [""] * ids.size
        segs = segment_of(ids, store.page_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            texts = store.segments[s].texts((ids[where] - store.page_base[s]).tolist())
            for i, t in zip(where.tolist(), texts, strict=True):
                out[i] = t
        return out

    def pages(self, page_ids: Sequence[int]) -> list[dict[str, Any]]:
        """Page rows (with their document's columns) for the given page ids, in the order given."""
        if not len(page_ids):
            return []
        store = self.store
        ids = np.asarray(page_ids, dtype=np.int64)
        rows = store.page_doc[ids].tolist()
        docs = {d["doc_row"]: d for d in self.documents(set(rows))}
        nums = cast(list[int], (ids - store.doc_first[store.page_doc[ids]] + 1).tolist())
        return [
            {**docs[r], "page_id": int(p), "page_num": n, "text": t}
            for p, r, n, t in zip(ids.tolist(), rows, nums, self.texts(ids), strict=True)
        ]

    def documents(self, doc_rows: Iterable[int]) -> list[dict[str, Any]]:
        """Document rows by `doc_row`."""
        store = self.store
        rows = np.asarray(sorted(doc_rows), dtype=np.int64)
        out: list[dict[str, Any]] = []
        segs = segment_of(rows, store.doc_base)
        for s in np.unique(segs):
            mine = rows[segs == s]
            for row, rec in zip(
                mine.tolist(),
                store.segments[s].doc_rows((mine - store.doc_base[s]).tolist()),
                strict=True,
            ):
                rec["doc_row"] = row
                rec["first_page_id"] = int(store.doc_first[row])
                rec["fields"] = json.loads(rec["fields"])
                del rec["content_hash"], rec["shard_id"]
                out.append(rec)
        return out

    def document_rows(self, document_ids: Sequence[str]) -> dict[str, int]:
        """The live documents' rows by id (ids the index lacks are left out)."""
        if not document_ids:
            return {}
        found = self.store.cursor().execute(
            "SELECT document_id, doc_row FROM docs WHERE document_id IN (SELECT unnest($ids))",
            {"ids": list(document_ids)},
        )
        return {str(d): int(r) for d, r in found.fetchall() if self.store.doc_live[int(r)]}

    def document_keys(self, doc_rows: Sequence[int]) -> list[str]:
        """A key per document row that names the same document as long as its segment lives
        (segments never change): `<segment>:<row in it>`, for caches of what a document says."""
        store = self.store
        rows = np.asarray(doc_rows, np.int64)
        segs = segment_of(rows, store.doc_base)
        return [
            f"{store.segments[s].folder.name}:{r - int(store.doc_base[s])}"
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

    def _live_rows(self, sql: str, value: str) -> list[int]:
        rows = self.store.cursor().execute(sql, [value]).fetchall()
        return sorted(int(r[0]) for r in rows if self.store.doc_live[int(r[0])])

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
        store = self.store
        codes = [store.dataset_codes[d] for d in datasets if d in store.dataset_codes]
        keep: np.ndarray = np.isin(store.page_ds, np.asarray(codes, np.int16)) & store.page_live
        if day_from is not None:
            keep &= (store.page_day != NO_DATE) & (store.page_day >= day_number(day_from))
        if day_to is not None:
            keep &= (store.page_day != NO_DATE) & (store.page_day <= day_number(day_to))
        return keep

    def vectors(self, page_ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """The stored embeddings of the pages, float32, in the order given."""
        store = self.store
        ids = np.asarray(page_ids, dtype=np.int64)
        matrix = np.empty((len(ids), store.dim), dtype=np.float32)
        segs = segment_of(ids, store.page_base)
        for s in np.unique(segs):
            where = np.flatnonzero(segs == s)
            local = ids[where] - store.page_base[s]
            order = np.argsort(local)
            matrix[where[order]] = store.segments[s].embeddings[local[order]]
        return matrix

    def doc_rows(self, page_ids: Sequence[int]) -> dict[int, int]:
        """page_id -> doc_row."""
        ids = np.asarray(page_ids, dtype=np.int64)
        return dict(zip(ids.tolist(), self.store.page_doc[ids].tolist(), strict=True))

    def sample_documents(
        self, dataset: str, limit: int, *, pages: int = 20, batch: int = 100
    ) -> Iterator[list[str]]:
        """The texts of the first `pages` pages of up to `limit` of a dataset's documents, evenly
        spaced in index order (the same sample every time), read `batch` documents at a time."""
        store = self.store
        code = store.dataset_codes.get(dataset)
        docs: np.ndarray | list[int] = (
            np.flatnonzero((store.doc_ds == code) & store.doc_live) if code is not None else []
        )
        step = max(1.0, len(docs) / max(limit, 1))
        chosen = [int(docs[int(i * step)]) for i in range(min(limit, len(docs)))]
        for i in range(0, len(chosen), batch):
            for row in chosen[i : i + batch]:
                first = int(store.doc_first[row])
                yield self.texts(range(first, first + min(int(store.doc_count[row]), pages)))

    def dated_count(self, dataset: str, date_from: str | None, date_to: str | None) -> int:
        """Live documents of a dataset dated within the bounds (ISO dates, inclusive; None: open);
        with a bound, undated documents are not counted."""
        store = self.store
        code = store.dataset_codes.get(dataset)
        if code is None:
            return 0
        mine = store.doc_live & (store.doc_ds == code)
        if date_from is None and date_to is None:
            return int(mine.sum())
        days = store.doc_day
        mine &= days != NO_DATE
        if date_from is not None:
            mine &= days >= day_number(date_from)
        if date_to is not None:
            mine &= days <= day_number(date_to)
        return int(mine.sum())

    def counts(self) -> dict[str, tuple[int, int]]:
        """Live documents and pages per dataset."""
        store = self.store
        n = len(store.dataset_codes)
        docs = np.bincount(store.doc_ds[store.doc_live], minlength=n)
        pages = np.bincount(store.page_ds[store.page_live], minlength=n)
        return {d: (int(docs[c]), int(pages[c])) for d, c in store.dataset_codes.items() if docs[c]}
