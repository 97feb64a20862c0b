"""The index: a DuckDB file (documents, pages, field values, BM25 impact postings) and the page
embeddings beside it, derived from the shards, built once per corpus version and reused.

    <REGNB_HOME>/index/<corpus salt>/<corpus fingerprint>-v<INDEX_VERSION>/
        index.duckdb      docs, pages, field_values, terms, postings, meta
        embeddings.npy    float16 (pages, dim), row = page_id

Postings hold one row per (page, term) with its precomputed BM25 weight (k1 0.9, b 0.4, Lucene's
idf), sorted by term and page, so a query reads one contiguous range per term. A page is
indexed on its text together with its document's title.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from tqdm.auto import tqdm

from regnb import shards, text
from regnb.catalog import Catalog
from regnb.errors import CorpusError, NotFound
from regnb.settings import show_progress

__all__ = ["INDEX_VERSION", "IndexFiles", "bm25_weight", "build_index", "ensure_index"]

INDEX_VERSION = 6
K1 = 0.9
B = 0.4
BUILD_PREFIX = ".build-"
BUILD_LOCK = ".building"
ORPHAN_AGE_S = 3600.0


def bm25_weight(
    tf: float, df: float, n_pages: float, dl: float, avgdl: float, k1: float = K1, b: float = B
) -> float:
    """The BM25 impact of a term on a page (Lucene's idf), as the index stores it."""
    idf = math.log(1 + (n_pages - df + 0.5) / (df + 0.5))
    return idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl))


@dataclass(frozen=True)
class IndexFiles:
    """Where a built index lives."""

    folder: Path

    @property
    def database(self) -> Path:
        return self.folder / "index.duckdb"

    @property
    def embeddings(self) -> Path:
        return self.folder / "embeddings.npy"


def index_folder(home: Path, manifest: shards.Manifest) -> Path:
    """The folder of the index for this exact corpus version."""
    return home / manifest.salt[:16] / f"{manifest.fingerprint()}-v{INDEX_VERSION}"


def ensure_index(
    corpus: Path, catalog: Catalog, home: Path, *, progress: bool = True, threads: int = 0
) -> IndexFiles:
    """The index of the corpus's current version, built now if no process built it before."""
    manifest = shards.Manifest.load(corpus)
    if manifest is None:
        raise NotFound(f"no corpus at {corpus} (no manifest.json there)", field="corpus")
    folder = index_folder(home, manifest)
    files = IndexFiles(folder)
    if files.database.exists() and files.embeddings.exists():
        return files
    folder.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_builds(folder.parent)
    with _build_folder(folder.parent) as tmp:
        build_index(corpus, manifest, catalog, IndexFiles(tmp), progress=progress, threads=threads)
        (tmp / BUILD_LOCK).unlink()
        try:
            os.rename(tmp, folder)
        except OSError:
            if not files.database.exists():  # not another process's finished build
                raise
    for sibling in folder.parent.iterdir():
        if sibling != folder and not sibling.name.startswith(BUILD_PREFIX):
            shutil.rmtree(sibling, ignore_errors=True)
    return files


@contextlib.contextmanager
def _build_folder(parent: Path) -> Iterator[Path]:
    """A temporary build folder, locked while this process builds in it, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix=BUILD_PREFIX, dir=parent))
    try:
        with open(tmp / BUILD_LOCK, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def remove_stale_builds(parent: Path, *, orphan_age_s: float = ORPHAN_AGE_S) -> list[Path]:
    """Remove build folders that no live process is building in (a killed build leaves one).

    A build holds a lock on its folder's `.building` file for as long as it runs; a folder
    whose lock can be taken is stale. A folder without that file is only removed once it is
    older than `orphan_age_s` (a build that has just made its folder has not locked it yet).
    """
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
            continue  # a live build
        except OSError:
            continue  # gone meanwhile
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _load_shards(
    corpus: Path, manifest: shards.Manifest, catalog: Catalog, progress: bool
) -> tuple[pa.Table, pa.Table, np.ndarray]:
    """Every shard, checked, as one docs table, one pages table and the embedding matrix."""
    order = {ds: i for i, ds in enumerate(catalog.ids)}
    entries = sorted(manifest.shards, key=lambda s: (order.get(s.dataset, 1 << 15), s.shard_id))
    docs_parts, page_parts, vectors = [], [], []
    doc_row = page_id = 0
    for entry in tqdm(
        entries, desc="reading shards", unit="shard", disable=not show_progress(progress)
    ):
        if entry.dataset not in catalog:
            raise CorpusError(
                f"{corpus / entry.documents}: dataset {entry.dataset!r} is not in the catalog"
            )
        documents = shards.read_documents(corpus, entry)
        pages = shards.read_pages(corpus, entry, manifest.dim, documents)
        n_docs, n_pages = documents.num_rows, pages.num_rows
        counts = documents.column("page_count").to_numpy()
        first = page_id + np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        rows = np.arange(doc_row, doc_row + n_docs, dtype=np.int32)
        docs_parts.append(
            documents.drop_columns(["key", "content_hash"])
            .append_column("doc_row", pa.array(rows))
            .append_column("dataset", pa.array([entry.dataset] * n_docs))
            .append_column("ds", pa.array([order[entry.dataset]] * n_docs, pa.int16()))
            .append_column("first_page_id", pa.array(first.astype(np.int32)))
        )
        page_rows = np.repeat(rows, counts)
        page_parts.append(
            pa.table(
                {
                    "page_id": pa.array(np.arange(page_id, page_id + n_pages, dtype=np.int32)),
                    "doc_row": pa.array(page_rows),
                    "ds": pa.array(np.full(n_pages, order[entry.dataset], np.int16)),
                    "page_num": pages.column("page_num"),
                    "text": pages.column("text"),
                }
            )
        )
        vectors.append(shards.embeddings(pages, manifest.dim))
        doc_row += n_docs
        page_id += n_pages
    if not docs_parts:
        empty = np.zeros((0, manifest.dim), np.float16)
        return _empty_docs(), _empty_pages(), empty
    return pa.concat_tables(docs_parts), pa.concat_tables(page_parts), np.concatenate(vectors)


def _empty_docs() -> pa.Table:
    return (
        shards.DOCUMENT_SCHEMA.empty_table()
        .drop_columns(["key", "content_hash"])
        .append_column("doc_row", pa.array([], pa.int32()))
        .append_column("dataset", pa.array([], pa.string()))
        .append_column("ds", pa.array([], pa.int16()))
        .append_column("first_page_id", pa.array([], pa.int32()))
    )


def _empty_pages() -> pa.Table:
    return pa.table(
        {
            "page_id": pa.array([], pa.int32()),
            "doc_row": pa.array([], pa.int32()),
            "ds": pa.array([], pa.int16()),
            "page_num": pa.array([], pa.int32()),
            "text": pa.array([], pa.string()),
        }
    )


def _field_rows(docs: pa.Table) -> pa.Table:
    """One row per (document, field) with its value as text, for filters."""
    rows: dict[str, list[object]] = {"doc_row": [], "field": [], "value": [], "folded": []}
    for doc_row, raw in zip(
        docs.column("doc_row").to_pylist(), docs.column("fields").to_pylist(), strict=True
    ):
        for name, value in json.loads(raw).items():
            if value is None:
                continue
            if isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, list):
                value = "; ".join(str(v) for v in value)
            rows["doc_row"].append(doc_row)
            rows["field"].append(name)
            rows["value"].append(str(value))
            rows["folded"].append(text.fold(str(value)))
    return pa.table(
        {
            "doc_row": pa.array(rows["doc_row"], pa.int32()),
            "field": pa.array(rows["field"], pa.string()),
            "value": pa.array(rows["value"], pa.string()),
            "folded": pa.array(rows["folded"], pa.string()),
        }
    )


def _folded_pages(docs: pa.Table, pages: pa.Table) -> pa.Table:
    """`title + ' ' + text` folded (`text.fold`) for the pages where folding changes it; the
    index tokenises these, the rest as they are. Only non-ASCII pages can change."""
    counts = docs.column("page_count").to_numpy()
    title_ascii = np.repeat(pc.string_is_ascii(docs.column("title")).to_numpy(False), counts)
    page_ascii = pc.string_is_ascii(pages.column("text")).to_numpy(False)
    candidates = np.flatnonzero(~(title_ascii & page_ascii))
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


BUILD_SQL = [
    "CREATE TABLE docs AS SELECT doc_row, document_id, ds, dataset, title, date, url, fields, "
    "page_count, first_page_id FROM docs_in ORDER BY doc_row",
    "CREATE TABLE pages AS SELECT * FROM pages_in ORDER BY page_id",
    "CREATE TABLE field_values AS SELECT f.doc_row, d.ds, f.field, f.value, "
    "regexp_replace(upper(strip_accents(f.folded)), '[^A-Z0-9]', '', 'g') AS norm, "
    "list_distinct(regnb_terms(f.folded)) AS terms "
    "FROM fields_in f JOIN docs d USING (doc_row) ORDER BY d.ds, f.field",
    # words per page (title + text), stop words dropped
    "CREATE TEMP TABLE tok AS SELECT page_id, w, count(*)::INTEGER AS tf FROM ("
    " SELECT p.page_id, unnest(regnb_words(coalesce(f.text, d.title || ' ' || p.text))) AS w"
    " FROM pages p JOIN docs d USING (doc_row) LEFT JOIN folded_in f USING (page_id))"
    " WHERE regnb_keep(w) GROUP BY ALL",
    "CREATE TEMP TABLE vocab AS SELECT w, stem(w, 'english') AS term FROM (SELECT DISTINCT w FROM tok)",
    "CREATE TEMP TABLE pt AS SELECT t.page_id, v.term, sum(t.tf)::INTEGER AS tf "
    "FROM tok t JOIN vocab v USING (w) GROUP BY ALL",
    "DROP TABLE tok",
    "CREATE TEMP TABLE lens AS SELECT page_id, sum(tf)::INTEGER AS dl FROM pt GROUP BY page_id",
    "CREATE TABLE terms AS SELECT (row_number() OVER (ORDER BY term))::INTEGER AS term_id, term, df "
    "FROM (SELECT term, count(*)::INTEGER AS df FROM pt GROUP BY term)",
    "CREATE TABLE meta AS SELECT (SELECT count(*) FROM pages)::DOUBLE AS n_pages, "
    "coalesce((SELECT avg(dl) FROM lens), 1)::DOUBLE AS avgdl",
    f"CREATE TABLE postings AS SELECT p.ds, t.term_id, pt.page_id, p.doc_row, "
    f"(ln(1 + (m.n_pages - t.df + 0.5) / (t.df + 0.5)) * pt.tf * {K1 + 1} / "
    f"(pt.tf + {K1} * (1 - {B} + {B} * l.dl / m.avgdl)))::FLOAT AS weight "
    f"FROM pt JOIN terms t USING (term) JOIN pages p USING (page_id) JOIN lens l USING (page_id), "
    f"meta m ORDER BY t.term_id, pt.page_id",
    "DROP TABLE pt",
    "CREATE UNIQUE INDEX pages_page_id ON pages (page_id)",
    "CREATE UNIQUE INDEX docs_doc_row ON docs (doc_row)",
    "CREATE UNIQUE INDEX docs_document_id ON docs (document_id)",
    "CREATE UNIQUE INDEX terms_term ON terms (term)",
]


def build_index(
    corpus: Path,
    manifest: shards.Manifest,
    catalog: Catalog,
    files: IndexFiles,
    *,
    progress: bool = True,
    threads: int = 0,
) -> dict[str, float]:
    """Build the index into `files.folder`; returns seconds spent per step."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    docs_in, pages_in, vectors = _load_shards(corpus, manifest, catalog, progress)
    fields_in = _field_rows(docs_in)
    folded_in = _folded_pages(docs_in, pages_in)
    timings["read_shards"] = time.perf_counter() - start
    con = text.connect(str(files.database), persistent=True)
    try:
        if threads:
            con.execute(f"SET threads = {int(threads)}")
        con.execute("SET preserve_insertion_order = false")
        con.register("docs_in", docs_in)
        con.register("pages_in", pages_in)
        con.register("fields_in", fields_in)
        con.register("folded_in", folded_in)
        for sql in tqdm(
            BUILD_SQL, desc="building index", unit="step", disable=not show_progress(progress)
        ):
            t0 = time.perf_counter()
            con.execute(sql)
            timings[sql.split(" AS ")[0][-30:]] = time.perf_counter() - t0
        con.execute(
            "CREATE TABLE info AS SELECT ? AS fingerprint, ? AS version, ? AS encoder, ? AS dim",
            [manifest.fingerprint(), INDEX_VERSION, manifest.encoder["name"], manifest.dim],
        )
        con.execute("CHECKPOINT")
    finally:
        con.close()
    np.save(files.embeddings, vectors.astype(np.float16))
    timings["total"] = time.perf_counter() - start
    return timings
