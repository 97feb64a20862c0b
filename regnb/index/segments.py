"""Segments: the immutable parts of the index, each built from a bounded batch of shards or merged
from other segments. A segment holds its pages' postings (term frequencies under global term
ids), lengths, texts, embeddings and its documents' rows; BM25 weights are computed at query time
from the index's corpus-wide statistics, so a page scores the same in any segment.

    seg-<id>/
        segment.json        counts, the shards the segment was built from, and each other
                            file's size and sha256 (`regnb.index.checksums`)
        docs.arrow          document rows (Arrow IPC, memory-mapped, read by position)
        texts.bin           page texts, zstd blocks of 4 pages; text_*.npy: where each is,
                            and each block's CRC-32 (checked as it is read)
        text_dict.zstd      the zstd dictionary the blocks are compressed with (a segment of
                            1,000 pages or more; the blocks of one without it are plain zstd)
        pages.npz           per page: doc row, page number, length (words kept)
        embeddings.npy      float16 (pages, dim)
        post_*.npy          term ids (sorted), offsets; per term, page ids ascending as gaps
                            (uint16) and tf (uint8), the few larger values kept apart
        post_blocks.npz     per term, a bound on its BM25 weights in the segment, and every
                            128 postings a skip entry: the page there and the postings' bound
        pos_*.npy           each posting's positions among its page's kept words, bit-packed
                            gaps, and each term's words as written with each position's
                            (`regnb.index.positions`); read only by phrases
        meta.duckdb         document ids and URLs, field values (for lookups and filters),
                            each document's identifiers (`regnb.index.identifiers`)

Local ids count from 0 within a segment; the store adds each segment's base.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import threading
import zlib
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import zstandard as zstd

from regnb import text
from regnb.corpus import shards
from regnb.documents import cfr
from regnb.errors import IndexDamaged
from regnb.index import tokens
from regnb.index.arrays import utf8_bytes
from regnb.index.bm25 import tf_bound
from regnb.index.checksums import SUMMARY, TEXT_CRC, file_checksums, read_summary
from regnb.index.identifiers import IDENTIFIER_SCHEMA, identifier_tables
from regnb.index.page_terms import first_page_postings, section_postings
from regnb.index.places import placed_fields
from regnb.index.positions import FILES as POSITION_FILES
from regnb.index.positions import (
    FORM_FILES,
    Forms,
    Positions,
    WrittenForms,
    merged_forms,
    posting_counts,
    regroup,
    write_forms,
    write_positions,
    written_forms,
)

__all__ = [
    "Segment",
    "SegmentData",
    "add_segment_positions",
    "from_tables",
    "merge_data",
    "new_segment_id",
    "write_segment",
]

NO_DATE = -(2**31)
PAGE_BLOCK = 4  # pages per compressed block of page text (one block read per page fetched)
OLD_PAGE_BLOCK = 16  # what segments written before `page_block` was recorded hold
MANY_ROWS = 64  # document rows read in one `take` rather than value by value
DOC_BLOCK = 256  # documents per record batch of document rows (uncompressed, memory-mapped)
CODEC = "zstd"
BLOCKS = "post_blocks.npz"  # bounds on each term's weights, whole and per SKIP postings (Blocks)
SKIP = 128  # postings per skip entry
SKIP_MIN = 2 * SKIP  # postings of a term below which it has no skip entries (read whole)
_LOADING = threading.Lock()  # around `Segment.blocks`'s first load
TEXT_LEVEL = 4  # zstd level of page texts: as fast as 3 with a dictionary and 3% smaller
TEXT_DICT = "text_dict.zstd"  # the zstd dictionary of a segment's page texts (`_write_texts`)
TEXT_DICT_PAGES = 1_000  # pages from which a segment's texts get a dictionary
TEXT_DICT_SAMPLES = 16_000  # pages a dictionary is trained on
TEXT_DICT_BYTES = 1024 * 1024  # at most a sixteenth of the texts
TEXT_DICT_K, TEXT_DICT_D = 1024, 8  # the COVER parameters (fixed: no search over them)

DOC_SCHEMA = pa.schema(
    [
        pa.field("document_id", pa.string()),
        pa.field("dataset", pa.string()),
        pa.field("title", pa.string()),
        pa.field("date", pa.date32()),
        pa.field("url", pa.string()),
        pa.field("fields", pa.string()),
        pa.field("page_count", pa.int32()),
        pa.field("first_page_id", pa.int32()),
        pa.field("content_hash", pa.string()),
        pa.field("shard_id", pa.string()),
    ]
)
FIELD_SCHEMA = pa.schema(
    [
        pa.field("doc_row", pa.int32()),
        pa.field("dataset", pa.string()),
        pa.field("field", pa.string()),
        pa.field("value", pa.string()),
        pa.field("norm", pa.string()),
        pa.field("terms", pa.list_(pa.string())),
    ]
)


def new_segment_id() -> str:
    return f"seg-{secrets.token_hex(6)}"


@dataclass
class SegmentData:
    """A segment in memory, before it is written: documents, pages and postings in local ids."""

    docs: pa.Table  # DOC_SCHEMA, first_page_id local
    page_doc: np.ndarray  # int32 local doc row per page
    page_num: np.ndarray  # int32
    page_dl: np.ndarray  # int32: words kept (title and text), the BM25 length
    texts: pa.ChunkedArray  # string per page
    vectors: np.ndarray  # float16 (pages, dim)
    post_term: np.ndarray  # int32 global term id, sorted (then page)
    post_page: np.ndarray  # int32 local page id
    post_tf: np.ndarray  # int32
    fields: pa.Table  # FIELD_SCHEMA, doc_row local
    identifiers: pa.Table  # IDENTIFIER_SCHEMA, doc_row local
    # Each posting's positions (`regnb.index.positions`), posting after posting, and how many
    # each has (its tf; none for a citation's or identifier's); None: not known (a merge of a
    # segment written without them)
    post_pos: np.ndarray | None = None  # int32
    post_npos: np.ndarray | None = None  # int32
    # The words as written at those positions (`regnb.index.positions.WrittenForms`); None: not
    # known (a merge of a segment written without them)
    post_forms: WrittenForms | None = None

    @property
    def n_pages(self) -> int:
        return int(self.page_doc.size)

    def term_df(self) -> tuple[np.ndarray, np.ndarray]:
        """(term ids, pages holding each) in this segment."""
        ids, counts = np.unique(self.post_term, return_counts=True)
        return ids.astype(np.int64), counts.astype(np.int64)


# --- building from shards ---------------------------------------------------------------------

# The pages' words in SQL, page by page: how a segment written before positions is tokenised
# again to give it them (`add_segment_positions`, `word_positions`); a build reads them once,
# outside SQL (`regnb.index.tokens`), and gives the same words.
TOKENISE_SQL = [
    "CREATE TEMP TABLE pw AS SELECT p.page_id, "
    "regnb_words(coalesce(f.text, d.title || ' ' || p.text)) AS ws"
    " FROM pages_in p JOIN docs_in d USING (doc_row) LEFT JOIN folded_in f USING (page_id)",
    "CREATE TEMP TABLE tok AS SELECT page_id, w, count(*)::INTEGER AS tf FROM ("
    " SELECT page_id, unnest(ws) AS w FROM pw) WHERE regnb_keep(w) GROUP BY ALL",
    "CREATE TEMP TABLE vocab AS SELECT w, stem(w, 'english') AS term FROM (SELECT DISTINCT w FROM tok)",
]
# Each page's words in order (`pw`), and each kept word's term id: the kept words' positions
# (`regnb.index.positions`, `word_positions`).
PAGE_WORDS_SQL = "SELECT ws FROM pw ORDER BY page_id"
WORD_IDS_SQL = (
    "SELECT v.w, coalesce(d.term_id, n.term_id) AS term_id "
    "FROM vocab v LEFT JOIN dict_in d USING (term) LEFT JOIN new_terms n USING (term)"
)
# A build's terms: each distinct word of the batch (`words_in`, `regnb.index.tokens`) kept and
# stemmed once; the new terms (the words' and those of the CFR citations and identifiers,
# `cited_in`) numbered from `$next` in term order; each kept word's term id; and the
# citations' postings, which are not words of the page's BM25 length (no positions).
TERMS_SQL = [
    "CREATE TEMP TABLE vocab AS SELECT i, stem(w, 'english') AS term FROM words_in "
    "WHERE regnb_keep(w)",
    "CREATE TEMP TABLE new_terms AS SELECT term, "
    "($next + row_number() OVER (ORDER BY term) - 1)::INTEGER AS term_id "
    "FROM (SELECT term FROM vocab UNION SELECT term FROM cited_in) "
    "WHERE term NOT IN (SELECT term FROM dict_in)",
]
WORD_TERMS_SQL = (
    "SELECT v.i, coalesce(d.term_id, n.term_id) AS term_id "
    "FROM vocab v LEFT JOIN dict_in d USING (term) LEFT JOIN new_terms n USING (term)"
)
CITED_POSTINGS_SQL = (
    "SELECT coalesce(d.term_id, n.term_id) AS term_id, c.page_id, c.tf FROM cited_in c "
    "LEFT JOIN dict_in d USING (term) LEFT JOIN new_terms n USING (term) "
    "ORDER BY term_id, c.page_id"
)
CFR_SCHEMA = pa.schema([("page_id", pa.int32()), ("term", pa.string()), ("tf", pa.int32())])
FIELDS_SQL = (
    "SELECT f.doc_row, f.dataset, f.field, f.value, "
    "regexp_replace(upper(strip_accents(f.folded)), '[^A-Z0-9]', '', 'g') AS norm, "
    "list_distinct(regnb_terms(f.folded)) AS terms FROM fields_in f ORDER BY f.dataset, f.field, f.doc_row"
)


def from_tables(
    docs: pa.Table,
    pages: pa.Table,
    vectors: np.ndarray,
    dictionary: pa.Table,
    next_term_id: int,
    *,
    threads: int = 0,
    temp_dir: Path | None = None,
) -> tuple[SegmentData, pa.Table]:
    """A segment from documents (DOC_SCHEMA, in page order) and their pages (`doc_row`,
    `page_num`, `text`, local page id = row), tokenised as the index has always done: title and
    text, folded, stop words dropped, stemmed (`regnb.index.tokens`); plus the CFR citations of
    each page's text as terms `cfr:211.113` (`regnb.documents.cfr`) and its identifiers and its
    document's as terms `fei:3000975914` (`regnb.index.identifiers`), outside the page's BM25
    length; and the place of each firm-facing document's firm among its fields
    (`regnb.index.places`). `dictionary` (term, term_id) is the index's; terms it lacks get ids
    from `next_term_id` on, in term order. Returns the segment and its new terms."""
    # The citations, identifiers and places are read by Python's regular expressions: in two
    # threads, while the words are read by compiled code and DuckDB (which let the GIL go).
    pool = ThreadPoolExecutor(2, thread_name_prefix="regnb-cited")
    cited = pool.submit(_cited, docs, pages)
    placed = pool.submit(placed_fields, docs, pages.column("text"))
    con = text.connect()
    try:
        if threads:
            con.execute(f"SET threads = {int(threads)}")
        if temp_dir is not None:
            con.execute("SET temp_directory = ?", [str(temp_dir)])
        con.execute("SET preserve_insertion_order = false")
        words = tokens.page_words(con, _page_text(docs, pages))
        con.register(
            "words_in",
            pa.table({"i": pa.array(np.arange(len(words.words))), "w": words.words}),
        )
        con.register("dict_in", dictionary)
        cited_in, identifiers = cited.result()
        con.register("cited_in", cited_in)
        for sql in TERMS_SQL:
            con.execute(sql, {"next": next_term_id} if "$next" in sql else None)
        known = con.execute(WORD_TERMS_SQL).fetchnumpy()
        word_term = np.full(len(words.words), -1, np.int64)
        word_term[np.asarray(known["i"], np.int64)] = np.asarray(known["term_id"], np.int64)
        cited_post = con.execute(CITED_POSTINGS_SQL).fetchnumpy()
        new_terms = (
            con.execute("SELECT term, term_id FROM new_terms ORDER BY term").arrow().read_all()
        )
        docs = _with_fields(docs, placed.result())
        con.register("fields_in", _field_rows(docs))
        fields = con.execute(FIELDS_SQL).arrow().read_all()
    finally:
        con.close()
        pool.shutdown(wait=True)
    found = tokens.word_postings(words, word_term)
    forms = written_forms(np.repeat(found.term, found.tf), found.position_words, words.words)
    del words
    post_term, post_page, post_tf, counts = _with_cited(found, cited_post)
    data = SegmentData(
        docs=docs.cast(DOC_SCHEMA),
        page_doc=np.asarray(pages.column("doc_row").to_numpy(), np.int32),
        page_num=np.asarray(pages.column("page_num").to_numpy(), np.int32),
        page_dl=found.dl,
        texts=pages.column("text"),
        vectors=np.ascontiguousarray(vectors, dtype=np.float16),
        post_term=post_term,
        post_page=post_page,
        post_tf=post_tf,
        fields=_table(fields, FIELD_SCHEMA),
        identifiers=identifiers,
        post_pos=found.positions,
        post_npos=counts,
        post_forms=forms,
    )
    return data, _table(new_terms, pa.schema([("term", pa.string()), ("term_id", pa.int32())]))


def _page_text(docs: pa.Table, pages: pa.Table) -> tokens.PageText:
    """What the index tokenises of each page, `title + ' ' + text` (nothing where either is
    null), or that folded where folding changes it (`_folded_pages`), without joining them."""
    titles, title_at = utf8_bytes(docs.column("title"))
    texts, text_at = utf8_bytes(pages.column("text"))
    doc = np.asarray(pages.column("doc_row").to_numpy(), np.int64)
    first_at = np.stack([title_at[doc], title_at[doc + 1]], axis=1)
    second_at = np.stack([text_at[:-1], text_at[1:]], axis=1)
    title_null = np.asarray(docs.column("title").is_null().to_numpy(zero_copy_only=False), bool)
    text_null = np.asarray(pages.column("text").is_null().to_numpy(zero_copy_only=False), bool)
    empty = title_null[doc] | text_null
    first_at[empty] = second_at[empty] = 0
    folded = _folded_pages(docs, pages)
    if folded.num_rows:
        ids = np.asarray(folded.column("page_id").to_numpy(), np.int64)
        data, offsets = utf8_bytes(folded.column("text"))
        first_at[ids] = np.stack([offsets[:-1], offsets[1:]], axis=1) + titles.size
        second_at[ids] = 0
        titles = np.concatenate([titles, data])
    return tokens.PageText(titles, first_at, texts, second_at)


def _with_cited(
    words: tokens.WordPostings, cited: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The words' postings with the citations' and identifiers' put in their places (by term
    then page: their terms are never words'), and how many positions each has (its tf for a
    word's, none for the others)."""
    c_term = np.asarray(cited["term_id"], np.int32)
    c_page = np.asarray(cited["page_id"], np.int32)
    c_tf = np.asarray(cited["tf"], np.int32)
    if not c_term.size:
        return words.term, words.page, words.tf, words.tf.copy()
    span = np.int64(max(int(words.page.max(initial=0)), int(c_page.max())) + 1)
    at = np.searchsorted(
        words.term.astype(np.int64) * span + words.page, c_term.astype(np.int64) * span + c_page
    )
    return (
        np.insert(words.term, at, c_term),
        np.insert(words.page, at, c_page),
        np.insert(words.tf, at, c_tf),
        np.insert(words.tf, at, np.zeros(c_tf.size, np.int32)),
    )


def add_segment_positions(seg: Segment, dictionary: pa.Table) -> bool:
    """Give a segment written before positions (or before its words as written) its terms'
    positions and forms (`regnb.index.positions`), its pages tokenised again as they were when
    it was built (`dictionary`: the index's terms and ids); the files it has are kept. Each
    file is written under a temporary name and renamed into place, the one that says they are
    there last. False (nothing written) where what the pages give does not match the segment's
    postings."""
    titles = seg.doc_column("title")
    docs = pa.table(
        {
            "title": titles,
            "page_count": pa.array(seg.doc_count),
            "doc_row": pa.array(np.arange(seg.n_docs, dtype=np.int32)),
        }
    )
    pages = pa.table(
        {
            "page_id": pa.array(np.arange(seg.n_pages, dtype=np.int32)),
            "doc_row": pa.array(seg.page_doc.astype(np.int32)),
            "text": seg.all_texts(),
        }
    )
    con = text.connect()
    try:
        con.execute("SET preserve_insertion_order = false")
        con.register("docs_in", docs)
        con.register("pages_in", pages)
        con.register("folded_in", _folded_pages(docs, pages))
        con.register("dict_in", dictionary)
        for sql in TOKENISE_SQL[:3]:  # the pages' words, and their terms
            con.execute(sql)
        con.execute("CREATE TEMP TABLE new_terms (term VARCHAR, term_id INTEGER)")
        held_term, held_page, positions, forms = word_positions(con)
    finally:
        con.close()
    term, page, tf = seg.postings_all()
    try:
        counts = posting_counts(term, page, held_term, held_page)
        data = SegmentData(
            docs=DOC_SCHEMA.empty_table(),
            page_doc=seg.page_doc,
            page_num=seg.page_num,
            page_dl=seg.page_dl,
            texts=pa.chunked_array([], pa.string()),
            vectors=np.zeros((0, 0), np.float16),
            post_term=term,
            post_page=page,
            post_tf=tf,
            fields=FIELD_SCHEMA.empty_table(),
            identifiers=IDENTIFIER_SCHEMA.empty_table(),
            post_pos=positions,
            post_npos=counts.astype(np.int32),
            post_forms=forms,
        )
        tmp = seg.folder / f".positions-{secrets.token_hex(4)}"
        tmp.mkdir()
        try:
            _write_positions(tmp, data, seg.offsets)
            names = FORM_FILES if seg.has_positions else POSITION_FILES + FORM_FILES
            for name in names:  # the last of each tells a reader they are there
                os.replace(tmp / name, seg.folder / name)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    except (ValueError, TypeError):
        return False
    return True


def word_positions(con: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, WrittenForms]:
    """Every kept word's term id, page and position among its page's kept words, ordered by
    term, page and position (the order of the postings), int32, and each one's form as written
    (`regnb.index.positions.written_forms`): from the pages' words (`pw`)
    and their terms' ids (`vocab`, `dict_in`, `new_terms`) on the connection. The words are
    counted and sorted here rather than in SQL: a word's term is looked up once per distinct
    word, and a stable sort by term keeps each page's words in page and position order."""
    lists = con.execute(PAGE_WORDS_SQL).arrow().read_all().column("ws").combine_chunks()
    words = pc.dictionary_encode(lists.flatten())
    known = con.execute(WORD_IDS_SQL).arrow().read_all()
    at = pc.index_in(words.dictionary, value_set=known.column("w")).fill_null(-1)
    ids = np.asarray(known.column("term_id").to_numpy(zero_copy_only=False), np.int32)
    of_word = np.where(at.to_numpy() >= 0, ids[at.to_numpy()], -1)  # -1: a word dropped
    term = of_word[np.asarray(words.indices.to_numpy(zero_copy_only=False), np.int64)]
    lengths = np.asarray(pc.list_value_length(lists).to_numpy(zero_copy_only=False), np.int64)
    page = np.repeat(np.arange(lengths.size, dtype=np.int32), lengths)
    kept = term >= 0
    before = np.concatenate([[0], np.cumsum(kept)])  # kept words before each word
    pos = before[:-1] - np.repeat(before[np.cumsum(lengths) - lengths], lengths)
    term, page, pos = term[kept], page[kept], pos[kept]
    order = np.argsort(term, kind="stable")
    word = np.asarray(words.indices.to_numpy(zero_copy_only=False), np.int32)[kept][order]
    term = term[order]
    return (
        term,
        page[order],
        pos[order].astype(np.int32),
        written_forms(term, word, words.dictionary),
    )


def _cited(docs: pa.Table, pages: pa.Table) -> tuple[pa.Table, pa.Table]:
    """The postings of the pages' CFR citations, identifiers, label sections and first pages
    (`cited_in`: `regnb.index.page_terms`), and the documents' identifiers."""
    id_postings, identifiers = identifier_tables(docs, pages)
    return (
        pa.concat_tables(
            [
                cfr_postings(pages.column("text")),
                id_postings,
                section_postings(docs, pages),
                first_page_postings(docs),
            ]
        ),
        identifiers,
    )


def cfr_postings(texts: pa.ChunkedArray) -> pa.Table:
    """(page_id, term, tf) of the CFR citations in page texts (`regnb.documents.cfr.terms`), read only
    where a first vectorised pass finds a possible citation."""
    page_ids: list[int] = []
    terms: list[str] = []
    tfs: list[int] = []
    found = cfr.candidates(texts)
    for page_id, page in zip(found.tolist(), texts.take(pa.array(found)).to_pylist(), strict=True):
        for term, tf in cfr.terms(page).items():
            page_ids.append(page_id)
            terms.append(term)
            tfs.append(tf)
    return pa.table(
        {
            "page_id": pa.array(page_ids, pa.int32()),
            "term": pa.array(terms, pa.string()),
            "tf": pa.array(tfs, pa.int32()),
        },
        schema=CFR_SCHEMA,
    )


def _with_fields(docs: pa.Table, fields: pa.Array | None) -> pa.Table:
    """The documents with their `fields` replaced (None: as they are)."""
    if fields is None:
        return docs
    return docs.set_column(docs.schema.get_field_index("fields"), "fields", fields)


def _table(table: pa.Table, schema: pa.Schema) -> pa.Table:
    if table.num_rows == 0:
        return schema.empty_table()
    return table.cast(schema)


def _field_rows(docs: pa.Table) -> pa.Table:
    """One row per (document, field) with its value as text, for filters."""
    rows: dict[str, list[Any]] = {
        "doc_row": [],
        "dataset": [],
        "field": [],
        "value": [],
        "folded": [],
    }
    for doc_row, (dataset, raw) in enumerate(
        zip(docs.column("dataset").to_pylist(), docs.column("fields").to_pylist(), strict=True)
    ):
        for name, value in json.loads(raw).items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, list):
                value = "; ".join(str(v) for v in value)
            rows["doc_row"].append(doc_row)
            rows["dataset"].append(dataset)
            rows["field"].append(name)
            rows["value"].append(str(value))
            rows["folded"].append(text.fold(str(value)))
    return pa.table(
        {
            "doc_row": pa.array(rows["doc_row"], pa.int32()),
            "dataset": pa.array(rows["dataset"], pa.string()),
            "field": pa.array(rows["field"], pa.string()),
            "value": pa.array(rows["value"], pa.string()),
            "folded": pa.array(rows["folded"], pa.string()),
        }
    )


def _folded_pages(docs: pa.Table, pages: pa.Table) -> pa.Table:
    """`title + ' ' + text` folded (`text.fold`) for the pages where folding changes it; the
    index tokenises these, the rest as they are. Only pages with characters outside
    `text.fold_stable_class` (found vectorised) can change: three in four non-ASCII pages have
    none, and folding in Python is the build's slowest step after tokenising."""
    counts = docs.column("page_count").to_numpy()
    title_stable = np.repeat(text.unchanged_by_fold(docs.column("title")), counts)
    page_stable = text.unchanged_by_fold(pages.column("text"))
    candidates = np.flatnonzero(~(title_stable & page_stable))
    titles = np.repeat(np.arange(docs.num_rows), counts)[candidates]
    title_list = docs.column("title").to_pylist()
    texts = pages.column("text").take(pa.array(candidates, pa.int64())).to_pylist()
    ids, out = [], []
    for page_id, doc, page in zip(candidates.tolist(), titles.tolist(), texts, strict=True):
        whole = f"{title_list[doc]} {page}"
        folded = text.fold(whole)
        if folded != whole:
            ids.append(page_id)
            out.append(folded)
    return pa.table({"page_id": pa.array(ids, pa.int32()), "text": pa.array(out, pa.string())})


# --- writing ----------------------------------------------------------------------------------


def _write_ipc(path: Path, table: pa.Table, rows: int) -> None:
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as w:
        for batch in table.combine_chunks().to_batches(max_chunksize=rows):
            w.write_batch(batch)
        if table.num_rows == 0:
            w.write_batch(pa.RecordBatch.from_pylist([], schema=table.schema))


def _write_texts(folder: Path, texts: pa.ChunkedArray) -> None:
    """Page texts as zstd blocks of PAGE_BLOCK pages: `texts.bin`, the blocks' offsets in it,
    and each page's offset in the uncompressed stream. Small blocks: a search reads about 60
    pages from about as many blocks, and decompressing 4 pages costs a quarter of 16. A
    segment of `TEXT_DICT_PAGES` pages or more compresses them with a dictionary trained on
    its pages (`TEXT_DICT`): small blocks then compress better than large ones do without (on
    the benchmarks' pages 4.6 times smaller than raw rather than 2.2); a smaller segment's
    blocks are plain zstd frames, as before dictionaries. Each
    block's CRC-32 (`TEXT_CRC`) is checked as it is read."""
    data, page_offsets = utf8_bytes(texts)
    dictionary = _text_dictionary(data, page_offsets)
    if dictionary is not None:
        (folder / TEXT_DICT).write_bytes(dictionary.as_bytes())
    compressor = zstd.ZstdCompressor(
        level=TEXT_LEVEL,
        dict_data=dictionary,
        write_checksum=False,
        write_content_size=dictionary is None,  # a plain frame says its size (pyarrow reads it)
        write_dict_id=False,
    )
    n = page_offsets.size - 1
    cuts = page_offsets[np.append(np.arange(0, n, PAGE_BLOCK), n)] if n else np.zeros(1, np.int64)
    view = memoryview(data.data)
    block_offsets = np.zeros(cuts.size, np.int64)
    crcs = np.zeros(cuts.size - 1, np.uint32)
    with open(folder / "texts.bin", "wb") as f:
        for i in range(cuts.size - 1):
            block = compressor.compress(view[cuts[i] : cuts[i + 1]])
            f.write(block)
            block_offsets[i + 1] = block_offsets[i] + len(block)
            crcs[i] = zlib.crc32(block)
    small = page_offsets[-1] <= np.iinfo(np.uint32).max  # read as integers whatever their type
    np.save(folder / "text_pages.npy", page_offsets.astype(np.uint32) if small else page_offsets)
    np.save(folder / "text_blocks.npy", block_offsets)
    np.save(folder / TEXT_CRC, crcs)


def _text_dictionary(data: np.ndarray, page_offsets: np.ndarray) -> zstd.ZstdCompressionDict | None:
    """A zstd dictionary of the pages' texts (trained on up to TEXT_DICT_SAMPLES of them, evenly
    spread), or None for a segment of fewer than TEXT_DICT_PAGES pages."""
    n = page_offsets.size - 1
    if n < TEXT_DICT_PAGES:
        return None
    picked = np.unique(np.linspace(0, n - 1, min(n, TEXT_DICT_SAMPLES)).astype(np.int64))
    samples: list[bytes | bytearray | memoryview[int]] = [
        data[page_offsets[i] : page_offsets[i + 1]].tobytes()
        for i in picked
        if page_offsets[i + 1] > page_offsets[i]
    ]
    size = min(TEXT_DICT_BYTES, int(page_offsets[-1]) // 16)
    try:
        return zstd.train_dictionary(size, samples, k=TEXT_DICT_K, d=TEXT_DICT_D)
    except zstd.ZstdError:  # too little text to learn from
        return None


def _save_small(folder: Path, name: str, values: np.ndarray, dtype: type) -> None:
    """Integers in a small type, the few that do not fit kept apart (position, value)."""
    top = np.iinfo(dtype).max
    big = np.flatnonzero(values > top)
    np.save(folder / f"{name}.npy", np.where(values > top, 0, values).astype(dtype))
    np.save(folder / f"{name}_big.npy", np.stack([big, values[big].astype(np.int64)]))


def _round_up(values: np.ndarray) -> np.ndarray:
    """As float32, each at least its double value (a bound stays a bound)."""
    out = values.astype(np.float32)
    low = out < values
    out[low] = np.nextafter(out[low], np.float32(np.inf))
    return out


@dataclass(frozen=True)
class Blocks:
    """What lets a search skip postings (`BLOCKS`): each term's `regnb.index.bm25.tf_bound` in the
    segment (`bound`, aligned with the segment's terms) under the segment's average length
    (`avgdl`), and for each term of at least `SKIP_MIN` postings a skip entry per `SKIP`
    postings (`skip_start[i]:skip_start[i + 1]` for term i): the page of the entry's first
    posting (`skip_page`) and the `tf_bound` of its postings (`skip_bound`)."""

    bound: np.ndarray
    avgdl: float
    skip_start: np.ndarray
    skip_page: np.ndarray
    skip_bound: np.ndarray

    @classmethod
    def of(
        cls, tf: np.ndarray, pages: np.ndarray, offsets: np.ndarray, page_dl: np.ndarray
    ) -> Blocks:
        """From a segment's postings (tf and page of each, term by term) and its pages'
        lengths."""
        avgdl = float(page_dl.mean()) if page_dl.size else 1.0
        counts = np.diff(offsets)
        n_skips = np.where(counts >= SKIP_MIN, -(-counts // SKIP), 0)
        skip_start = np.concatenate([[0], np.cumsum(n_skips)]).astype(np.int64)
        entry_term = np.repeat(np.arange(counts.size), n_skips)
        at = offsets[:-1][entry_term] + (np.arange(entry_term.size) - skip_start[entry_term]) * SKIP
        if not tf.size:
            empty = np.zeros(0, np.float32)
            return cls(empty.astype(np.float64), avgdl, skip_start, empty.astype(np.int32), empty)
        # One reduction over the runs that start at a term's first posting or at a skip entry.
        cuts = np.union1d(offsets[:-1], at)
        best = tf_bound(tf, page_dl[pages], cuts, avgdl)
        return cls(
            np.maximum.reduceat(best, np.searchsorted(cuts, offsets[:-1])),  # its runs' largest
            avgdl,
            skip_start,
            pages[at].astype(np.int32),
            _round_up(best[np.searchsorted(cuts, at)]),
        )

    def save(self, folder: Path) -> None:
        """Written as a temporary file renamed into place."""
        tmp = folder / f".blocks-{secrets.token_hex(4)}.npz"
        np.savez_compressed(
            tmp,
            bound=self.bound,
            avgdl=np.float64(self.avgdl),
            skip_start=self.skip_start,
            skip_page=self.skip_page,
            skip_bound=self.skip_bound,
        )
        os.replace(tmp, folder / BLOCKS)

    @classmethod
    def load(cls, path: Path) -> Blocks:
        with np.load(path) as saved:
            return cls(
                saved["bound"],
                float(saved["avgdl"]),
                saved["skip_start"],
                saved["skip_page"],
                saved["skip_bound"],
            )


class SmallInts:
    """Reads what `_save_small` wrote: a memory-mapped array and its exceptions."""

    def __init__(self, folder: Path, name: str) -> None:
        self.values = np.load(folder / f"{name}.npy", mmap_mode="r")
        self.big_at, self.big = np.load(folder / f"{name}_big.npy")

    def slice(self, lo: int, hi: int, dtype: type = np.int64) -> np.ndarray:
        out: np.ndarray = np.asarray(self.values[lo:hi], dtype)
        a, b = np.searchsorted(self.big_at, [lo, hi])
        if b > a:
            out[self.big_at[a:b] - lo] = self.big[a:b]
        return out

    def parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The small values (memory-mapped, not read), exception positions and values."""
        return np.asarray(self.values), self.big_at, self.big

    def running_sum(self, lo: int, hi: int, dtype: type = np.int64) -> np.ndarray:
        """`np.cumsum(self.slice(lo, hi))` in one pass over the small values (the few large
        ones added after), as `dtype` (wide enough for the sum)."""
        out: np.ndarray = np.asarray(np.cumsum(self.values[lo:hi], dtype=dtype))
        a, b = np.searchsorted(self.big_at, [lo, hi])
        if b > a:
            extra: np.ndarray = np.zeros(hi - lo, dtype)
            extra[self.big_at[a:b] - lo] = self.big[a:b]
            out += np.cumsum(extra, dtype=dtype)
        return out


def posting_pages(gaps: SmallInts, offsets: np.ndarray) -> np.ndarray:
    """The local page of every posting, in stored order, from the gaps (each term's first
    page as it is) and each term's offsets."""
    running = np.cumsum(gaps.slice(0, int(offsets[-1])))
    before = np.concatenate([[0], running])[offsets[:-1]]
    return cast(np.ndarray, (running - np.repeat(before, np.diff(offsets))).astype(np.int32))


def write_segment(folder: Path, data: SegmentData, shard_ids: Sequence[str]) -> dict[str, Any]:
    """Write a segment's files into `folder` (a fresh folder); returns its summary."""
    folder.mkdir(parents=True, exist_ok=False)
    _write_ipc(folder / "docs.arrow", data.docs, DOC_BLOCK)
    _write_texts(folder, data.texts)
    np.savez_compressed(folder / "pages.npz", doc=data.page_doc, num=data.page_num, dl=data.page_dl)
    np.save(folder / "embeddings.npy", data.vectors)
    datasets = sorted(set(data.docs.column("dataset").to_pylist()))
    codes = {d: i for i, d in enumerate(datasets)}
    dates = data.docs.column("date").cast(pa.int32()).fill_null(NO_DATE)
    np.savez_compressed(
        folder / "docs.npz",
        ds=np.array([codes[d] for d in data.docs.column("dataset").to_pylist()], np.int16),
        day=np.asarray(dates.to_numpy(), np.int32),
        first=np.asarray(data.docs.column("first_page_id").to_numpy(), np.int32),
        count=np.asarray(data.docs.column("page_count").to_numpy(), np.int32),
    )
    terms, starts = np.unique(data.post_term, return_index=True)
    offsets = np.append(starts, data.post_term.size).astype(np.int64)
    np.save(folder / "post_terms.npy", terms.astype(np.int32))
    np.save(folder / "post_offsets.npy", offsets)
    gaps = np.diff(data.post_page.astype(np.int64), prepend=0)
    gaps[starts] = data.post_page[starts]  # each term's first page as it is
    _save_small(folder, "post_gaps", gaps, np.uint16)
    _save_small(folder, "post_tf", data.post_tf, np.uint8)
    Blocks.of(data.post_tf, data.post_page, offsets, data.page_dl).save(folder)
    if data.post_pos is not None and data.post_npos is not None:
        _write_positions(folder, data, offsets)
    con = text.connect(str(folder / "meta.duckdb"))
    try:
        docs = data.docs.select(["document_id", "dataset", "url"]).append_column(
            "doc_row", pa.array(np.arange(data.docs.num_rows, dtype=np.int32))
        )
        con.register("docs_in", docs)
        con.register("fields_in", data.fields)
        con.execute(
            "CREATE TABLE docs AS SELECT doc_row, document_id, dataset, url FROM docs_in ORDER BY doc_row"
        )
        con.execute("CREATE TABLE field_values AS SELECT * FROM fields_in")
        con.register("identifiers_in", data.identifiers)
        con.execute("CREATE TABLE identifiers AS SELECT * FROM identifiers_in ORDER BY doc_row")
        con.execute("CREATE INDEX docs_document_id ON docs (document_id)")
        con.execute("CHECKPOINT")
    finally:
        con.close()
    summary = {
        "pages": data.n_pages,
        "docs": data.docs.num_rows,
        "postings": int(data.post_term.size),
        "datasets": datasets,
        "shards": sorted(set(shard_ids)),
        "page_block": PAGE_BLOCK,
        "files": file_checksums(folder),  # read back from the page cache: about 1 GB/s
    }
    (folder / SUMMARY).write_text(json.dumps(summary), encoding="utf-8")
    for path in folder.iterdir():
        with open(path, "rb") as f:
            os.fsync(f.fileno())
    return summary


def _write_positions(folder: Path, data: SegmentData, offsets: np.ndarray) -> None:
    """The postings' positions (`regnb.index.positions`); ValueError unless each term's postings
    have either none or as many as their tf (how a reader finds each posting's)."""
    assert data.post_pos is not None and data.post_npos is not None
    npos = data.post_npos
    held = np.add.reduceat(npos, offsets[:-1]) > 0 if npos.size else np.zeros(0, bool)
    with_pos = np.repeat(held, np.diff(offsets))
    if (npos[with_pos] != data.post_tf[with_pos]).any() or npos[~with_pos].any():
        raise ValueError(f"{folder.name}: positions do not match the postings' tfs")
    write_positions(folder, data.post_pos, npos, offsets)
    if data.post_forms is not None:
        terms = data.post_term[offsets[:-1]].astype(np.int64)
        write_forms(folder, data.post_forms, npos, offsets, terms)


# --- reading ----------------------------------------------------------------------------------


class Segment:
    """A written segment, opened read-only; arrays are memory-mapped where they are large."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.summary = read_summary(folder)
        self.n_pages = int(self.summary["pages"])
        self.n_docs = int(self.summary["docs"])
        with np.load(folder / "pages.npz") as pages:
            self.page_doc = pages["doc"]
            self.page_num = pages["num"]
            self.page_dl = pages["dl"]
        with np.load(folder / "docs.npz") as docs:
            self.doc_ds = docs["ds"]
            self.doc_day = docs["day"]
            self.doc_first = docs["first"]
            self.doc_count = docs["count"]
        self.datasets: list[str] = list(self.summary["datasets"])
        self.page_block = int(self.summary.get("page_block", OLD_PAGE_BLOCK))
        self.terms = np.load(folder / "post_terms.npy")
        self.offsets = np.load(folder / "post_offsets.npy")
        self.post_gaps = SmallInts(folder, "post_gaps")
        self.post_tf = SmallInts(folder, "post_tf")
        self.embeddings = np.load(folder / "embeddings.npy", mmap_mode="r").view(np.ndarray)
        self._docs = pa.ipc.open_file(pa.memory_map(str(folder / "docs.arrow")))
        self._doc_names = self._docs.schema.names
        self._doc_batches: dict[int, list[pa.Array]] = {}  # `doc_rows`' blocks, as read
        # plain arrays over the maps (here and above): a memmap's own indexing costs a Python call
        text = np.memmap(folder / "texts.bin", np.uint8, "r") if self.n_pages else None
        self._text = None if text is None else text.view(np.ndarray)
        self._text_pages = np.load(folder / "text_pages.npy", mmap_mode="r").view(np.ndarray)
        self._text_blocks = np.load(folder / "text_blocks.npy")
        crc = folder / TEXT_CRC  # absent from segments written before it
        self._text_crc = np.load(crc, mmap_mode="r").view(np.ndarray) if crc.exists() else None
        self._codec = pa.Codec(CODEC)
        dictionary = folder / TEXT_DICT  # absent from segments written without one
        self._text_dict = (
            zstd.ZstdCompressionDict(dictionary.read_bytes()) if dictionary.exists() else None
        )
        self._decompressors = threading.local()  # one per thread: they are not thread-safe
        self._blocks: Blocks | None = None
        self._positions: Positions | None = None

    @property
    def has_positions(self) -> bool:
        """Whether the segment stores its terms' positions (`regnb.index.positions`)."""
        return Positions.there(self.folder)

    @property
    def has_forms(self) -> bool:
        """Whether it stores its words as written beside them (`regnb.index.positions.Forms`)."""
        return Segment.complete(self.folder)

    @staticmethod
    def complete(folder: Path) -> bool:
        """Whether the segment in `folder` has its positions and their words as written."""
        return Positions.there(folder) and Forms.there(folder)

    def positions(self) -> Positions | None:
        """Its positions (opened on first use, under the loading lock), or None where it has
        none (written before them, and not yet given them)."""
        if self._positions is None and self.has_positions:
            with _LOADING:
                if self._positions is None:
                    self._positions = Positions(self.folder)
        return self._positions

    def phrase_pages(
        self,
        local: np.ndarray,
        term_ids: Sequence[int],
        slop: int,
        words: Sequence[str] | None = None,
    ) -> tuple[np.ndarray, bool] | None:
        """Whether each page (local ids) holds the terms in order with at most `slop` other
        words between consecutive ones, read from the positions, and whether that holds the
        `words` as written too (the terms' words, `regnb.text.surface_words`; checked where the
        segment stores its forms); None where the segment has no positions, or a term has none
        (a citation)."""
        positions = self.positions()
        if positions is None:
            return None
        at, lo, hi = self.term_ranges(term_ids)
        lists = []
        for a, start, end in zip(at.tolist(), lo.tolist(), hi.tolist(), strict=True):
            if start == end:
                return np.zeros(local.size, bool), True
            if not positions.has(a):
                return None
            pages = self.post_gaps.running_sum(start, end, np.int64)
            lists.append((a, pages, self.post_tf.slice(start, end, np.int64)))
        pages = np.asarray(local, np.int64)
        forms = positions.forms
        if words is None or forms is None:
            return positions.phrase_pages(pages, lists, slop), words is None
        variants = [forms.variant(a, w) for (a, _, _), w in zip(lists, words, strict=True)]
        if None in variants:  # a word the segment never writes so
            return np.zeros(local.size, bool), True
        return positions.phrase_pages(pages, lists, slop, cast(list[int], variants)), True

    def postings(self, term_id: int) -> tuple[np.ndarray, np.ndarray]:
        """(local page ids, tf) of one term, int32; empty where the segment lacks it."""
        return self.postings_of([term_id])[0]

    def term_ranges(self, term_ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Where each term is in `terms` (meaningless where the segment lacks it), and where its
        postings start and end in the posting arrays (equal where the segment lacks it), int64."""
        wanted = np.asarray(term_ids, self.terms.dtype)
        if not self.terms.size:
            zeros = np.zeros(wanted.size, np.int64)
            return zeros, zeros, zeros
        at = np.minimum(np.searchsorted(self.terms, wanted), self.terms.size - 1)
        found = self.terms[at] == wanted
        lo = np.where(found, self.offsets[at], 0).astype(np.int64)
        return at, lo, np.where(found, self.offsets[at + 1], 0).astype(np.int64)

    def blocks(self) -> Blocks:
        """Its `Blocks`; derived from the postings and saved the first time a segment written
        without them is read (kept in memory only where the folder is read-only). Loaded under
        a lock: a search's segments are read by several threads, and `np.load` parses its
        headers with `ast`, which CPython 3.11 does not allow in two threads at once."""
        if self._blocks is None:
            with _LOADING:
                if self._blocks is None:
                    path = self.folder / BLOCKS
                    if path.exists():
                        self._blocks = Blocks.load(path)
                    else:
                        _, pages, tf = self.postings_all()
                        self._blocks = Blocks.of(tf, pages, self.offsets, self.page_dl)
                        with contextlib.suppress(OSError):
                            self._blocks.save(self.folder)
        return self._blocks

    def postings_of(self, term_ids: Sequence[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        """(local page ids, tf) of each of several terms, int32, empty where the segment lacks
        it (their positions found in one search)."""
        wanted = np.asarray(term_ids, self.terms.dtype)
        at = np.minimum(np.searchsorted(self.terms, wanted), max(self.terms.size - 1, 0))
        found = (self.terms[at] == wanted) if self.terms.size else np.zeros(wanted.size, bool)
        empty = np.empty(0, np.int32)
        out = []
        for i, ok in zip(at.tolist(), found.tolist(), strict=True):
            if not ok:
                out.append((empty, empty))
                continue
            lo, hi = int(self.offsets[i]), int(self.offsets[i + 1])
            out.append(
                (self.post_gaps.running_sum(lo, hi, np.int32), self.post_tf.slice(lo, hi, np.int32))
            )
        return out

    def texts(self, local: Sequence[int]) -> list[str]:
        """Page texts by local page id, decompressing only their blocks."""
        out: list[str] = [""] * len(local)
        by_block: dict[int, list[int]] = {}
        for i, page in enumerate(local):
            by_block.setdefault(int(page) // self.page_block, []).append(i)
        for block, positions in by_block.items():
            data = self._block(block)
            base = int(self._text_pages[block * self.page_block])
            for i in positions:
                page = int(local[i])
                lo, hi = int(self._text_pages[page]) - base, int(self._text_pages[page + 1]) - base
                out[i] = data[lo:hi].decode("utf-8")
        return out

    def _block(self, block: int) -> bytes:
        """One block of page texts, decompressed; IndexDamaged where its bytes are not as
        written (its CRC-32 differs) or cannot be decompressed."""
        assert self._text is not None
        lo, hi = int(self._text_blocks[block]), int(self._text_blocks[block + 1])
        first = block * self.page_block
        last = min(first + self.page_block, self.n_pages)
        size = int(self._text_pages[last] - self._text_pages[first])
        raw = pa.py_buffer(self._text[lo:hi])
        if self._text_crc is not None and zlib.crc32(raw) != int(self._text_crc[block]):
            raise IndexDamaged.of(self.folder.name, f"texts.bin corrupted (block {block})")
        try:
            data = self._decompress(raw, size)
        except (pa.ArrowException, zstd.ZstdError, ValueError, OSError) as exc:
            problem = f"texts.bin unreadable (block {block}: {exc})"
            raise IndexDamaged.of(self.folder.name, problem) from exc
        return data

    def _decompress(self, raw: pa.Buffer, size: int) -> bytes:
        if self._text_dict is None:
            return cast(bytes, self._codec.decompress(raw, size, asbytes=True))
        decompressor = getattr(self._decompressors, "zstd", None)
        if decompressor is None:
            decompressor = self._decompressors.zstd = zstd.ZstdDecompressor(
                dict_data=self._text_dict
            )
        if not size:
            return b""
        return cast(bytes, decompressor.decompress(raw, max_output_size=size))

    def doc_rows(self, local: Sequence[int]) -> list[dict[str, Any]]:
        """Document rows by local doc row: value by value for a few (a search reads about 20
        rows from as many blocks, where a `take` per block costs more than the values), one
        `take` over the memory-mapped table for many (a batch of every match)."""
        names = self._doc_names
        if len(local) > MANY_ROWS:
            table = self._docs.read_all().select(names)
            return cast(list[dict[str, Any]], table.take(pa.array(local, pa.int64())).to_pylist())
        out: list[dict[str, Any]] = []
        for row in local:
            block, i = divmod(int(row), DOC_BLOCK)
            columns = self._doc_batches.get(block)
            if columns is None:  # a batch's message read once: columns over the map
                columns = self._doc_batches[block] = self._docs.get_batch(block).columns
            out.append({n: c[i].as_py() for n, c in zip(names, columns, strict=True)})
        return out

    def doc_values(self, name: str, local: np.ndarray) -> list[Any]:
        """One column of the given document rows (one `take` over the memory-mapped table)."""
        column = self._docs.read_all().column(name)
        return cast(list[Any], column.take(pa.array(local, pa.int64())).to_pylist())

    def doc_column(self, name: str) -> pa.ChunkedArray:
        """One column of every document row (reads every block)."""
        return self._docs.read_all().column(name)

    def all_texts(self) -> pa.ChunkedArray:
        blocks = range((self.n_pages + self.page_block - 1) // self.page_block)
        data = b"".join(self._block(b) for b in blocks)
        offsets = np.asarray(self._text_pages, np.int64)
        texts = [data[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(self.n_pages)]
        return pa.chunked_array([pa.array(texts, pa.string())])

    def postings_all(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(term id, local page, tf) of every posting, in stored order."""
        counts = np.diff(self.offsets)
        return (
            np.repeat(self.terms, counts).astype(np.int32),
            self._all_pages(counts),
            self.post_tf.slice(0, int(self.offsets[-1])).astype(np.int32),
        )

    def _all_pages(self, counts: np.ndarray) -> np.ndarray:
        return posting_pages(self.post_gaps, self.offsets)

    def field_values(self) -> pa.Table:
        return self._meta("field_values", FIELD_SCHEMA)

    def identifiers(self) -> pa.Table:
        """Each document's identifiers (`regnb.index.identifiers.IDENTIFIER_SCHEMA`)."""
        return self._meta("identifiers", IDENTIFIER_SCHEMA)

    def _meta(self, table: str, schema: pa.Schema) -> pa.Table:
        con = text.connect(str(self.folder / "meta.duckdb"), read_only=True)
        try:
            return _table(con.execute(f"SELECT * FROM {table}").arrow().read_all(), schema)
        finally:
            con.close()


# --- merging ----------------------------------------------------------------------------------


def merge_data(parts: Sequence[tuple[Segment, np.ndarray]]) -> SegmentData:
    """One segment's data from segments and their live-document masks, deleted documents
    dropped, pages kept in order (segment by segment)."""
    docs, page_doc, page_num, page_dl, texts, vectors, fields = [], [], [], [], [], [], []
    identifiers = []
    terms, pages, tfs = [], [], []
    positions: list[np.ndarray] | None = []
    npos: list[np.ndarray] = []
    forms: list[tuple[np.ndarray, pa.Array]] | None = []
    doc_base = page_base = 0
    for seg, live_docs in parts:
        keep_page = live_docs[seg.page_doc]
        new_page = np.cumsum(keep_page) - 1 + page_base
        new_doc = np.cumsum(live_docs) - 1 + doc_base
        table = seg._docs.read_all().filter(pa.array(live_docs))
        first: np.ndarray | list[int] = (
            new_page[np.asarray(table.column("first_page_id").to_numpy(), np.int64)]
            if table.num_rows
            else []
        )
        docs.append(
            table.set_column(
                DOC_SCHEMA.get_field_index("first_page_id"),
                "first_page_id",
                pa.array(np.asarray(first, np.int32)),
            )
        )
        page_doc.append(new_doc[seg.page_doc[keep_page]].astype(np.int32))
        page_num.append(seg.page_num[keep_page])
        page_dl.append(seg.page_dl[keep_page])
        texts.append(seg.all_texts().filter(pa.array(keep_page)))
        vectors.append(np.asarray(seg.embeddings)[keep_page])
        fv = seg.field_values()
        fv_keep = (
            live_docs[np.asarray(fv.column("doc_row").to_numpy(), np.int64)]
            if fv.num_rows
            else np.zeros(0, bool)
        )
        fv = fv.filter(pa.array(fv_keep))
        fields.append(
            fv.set_column(
                0, "doc_row", pa.array(new_doc[fv.column("doc_row").to_numpy()].astype(np.int32))
            )
        )
        identifiers.append(_live_rows(seg.identifiers(), live_docs, new_doc))
        t, p, f = seg.postings_all()
        live_post = keep_page[p]
        terms.append(t[live_post])
        pages.append(new_page[p[live_post]].astype(np.int32))
        tfs.append(f[live_post])
        held = seg.positions()
        if held is None or positions is None:
            positions = None
        else:
            pos, counts = held.all(f, seg.offsets)
            live_pos = np.repeat(live_post, counts)
            positions.append(pos[live_pos].astype(np.int32))
            npos.append(counts[live_post])
            if held.forms is None or forms is None:
                forms = None
            else:
                form, strings = held.forms.all(held.terms)
                forms.append((form[live_pos], strings))
        doc_base += int(live_docs.sum())
        page_base += int(keep_page.sum())
    post_term, post_page, post_tf = (
        np.concatenate(terms),
        np.concatenate(pages),
        np.concatenate(tfs),
    )
    order = np.lexsort((post_page, post_term))
    post_pos = post_npos = post_forms = None
    if positions is not None:
        post_npos = np.concatenate(npos)
        post_pos = regroup(np.concatenate(positions), post_npos, order)
        if forms is not None:
            term_of = np.repeat(post_term, post_npos)
            post_forms = merged_forms(forms, term_of).regrouped(post_npos, order)
        post_npos = post_npos[order].astype(np.int32)
    all_fields = pa.concat_tables(fields)
    order_fields = pc.sort_indices(
        all_fields, [("dataset", "ascending"), ("field", "ascending"), ("doc_row", "ascending")]
    )
    return SegmentData(
        docs=pa.concat_tables(docs),
        page_doc=np.concatenate(page_doc),
        page_num=np.concatenate(page_num),
        page_dl=np.concatenate(page_dl),
        texts=pa.chunked_array([c for t in texts for c in t.chunks], pa.string()),
        vectors=np.concatenate(vectors),
        post_term=post_term[order],
        post_page=post_page[order],
        post_tf=post_tf[order],
        fields=all_fields.take(order_fields),
        identifiers=pa.concat_tables(identifiers),
        post_pos=post_pos,
        post_npos=post_npos,
        post_forms=post_forms,
    )


def _live_rows(table: pa.Table, live_docs: np.ndarray, new_doc: np.ndarray) -> pa.Table:
    """The rows of a table by `doc_row` (column 0) of the live documents, renumbered."""
    rows = np.asarray(table.column("doc_row").to_numpy(), np.int64)
    kept = table.filter(pa.array(live_docs[rows] if rows.size else np.zeros(0, bool)))
    renumbered = new_doc[np.asarray(kept.column("doc_row").to_numpy(), np.int64)]
    return kept.set_column(0, "doc_row", pa.array(renumbered.astype(np.int32)))


def shard_tables(
    corpus: shards.Corpus, entry: shards.ShardEntry, dim: int
) -> tuple[pa.Table, pa.Table, np.ndarray]:
    """One shard, checked, as segment document rows (first_page_id from 0), pages and vectors."""
    documents = shards.read_documents(corpus, entry)
    pages = shards.read_pages(corpus, entry, dim, documents)
    counts = documents.column("page_count").to_numpy()
    first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    n = documents.num_rows
    docs = pa.table(
        {
            "document_id": documents.column("document_id"),
            "dataset": pa.array([entry.dataset] * n, pa.string()),
            "title": documents.column("title"),
            "date": documents.column("date"),
            "url": documents.column("url"),
            "fields": documents.column("fields"),
            "page_count": documents.column("page_count"),
            "first_page_id": pa.array(first),
            "content_hash": documents.column("content_hash"),
            "shard_id": pa.array([entry.shard_id] * n, pa.string()),
        }
    )
    page_table = pa.table(
        {
            "doc_row": pa.array(np.repeat(np.arange(n, dtype=np.int32), counts)),
            "page_num": pages.column("page_num"),
            "text": pages.column("text"),
        }
    )
    return docs, page_table, shards.embeddings(pages, dim)


def concat_shards(
    parts: Sequence[tuple[pa.Table, pa.Table, np.ndarray]], dim: int
) -> tuple[pa.Table, pa.Table, np.ndarray]:
    """Several shards' tables as one batch, doc rows and first pages shifted."""
    docs, pages, vectors = [], [], []
    doc_base = page_base = 0
    for d, p, v in parts:
        first = np.asarray(d.column("first_page_id").to_numpy(), np.int32) + page_base
        docs.append(
            d.set_column(
                DOC_SCHEMA.get_field_index("first_page_id"), "first_page_id", pa.array(first)
            )
        )
        pages.append(
            p.set_column(
                0,
                "doc_row",
                pa.array(np.asarray(p.column("doc_row").to_numpy(), np.int32) + doc_base),
            )
        )
        vectors.append(v)
        doc_base += d.num_rows
        page_base += p.num_rows
    if not docs:
        return (
            DOC_SCHEMA.empty_table(),
            pa.table(
                {
                    "doc_row": pa.array([], pa.int32()),
                    "page_num": pa.array([], pa.int32()),
                    "text": pa.array([], pa.string()),
                }
            ),
            np.zeros((0, dim), np.float16),
        )
    # The pages as one chunk: their texts are read (tokenised, compressed) from one buffer.
    return pa.concat_tables(docs), pa.concat_tables(pages).combine_chunks(), np.concatenate(vectors)
