"""Writing a corpus: validate documents against the catalog, embed their pages, commit shards.

Documents are keyed by dataset and `key` (or `url`): a document written again with the same
content is skipped, with changed content it replaces the old one. Work is committed in batches,
so an interrupted write keeps every batch already done and a re-run picks up where it stopped.
Each batch is a numbered commit stamped with the clock's time (`regnb.corpus.shards`): when each
document entered the corpus.

A corpus in a folder takes one writer at a time by a file lock. A corpus on an object store
(`s3://bucket/prefix`) has no lock: run one writer at a time; a second writer that committed
meanwhile is detected before a commit, which then raises a CorpusError instead of losing
either's documents.
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import fcntl
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from tqdm.auto import tqdm

from regnb.catalog import Catalog, Dataset, load_catalog
from regnb.corpus import shards
from regnb.corpus.location import Location, location
from regnb.dates import parse_date
from regnb.encoder import Encoder, default_encoder
from regnb.errors import InvalidRequest, UnknownDataset
from regnb.settings import show_progress

__all__ = ["parse_date", "validate_document", "write_corpus"]

BATCH_PAGES = 4_000
RUNNERS = ("local", "ray")


def document_id(salt: str, dataset: str, key: str) -> str:
    """Opaque, URL-safe, stable for the same corpus, dataset and key; not derivable without salt."""
    digest = hashlib.blake2b(f"{dataset}\0{key}".encode(), key=bytes.fromhex(salt), digest_size=15)
    return base64.urlsafe_b64encode(digest.digest()).decode()


def _check_date(value: object, where: str) -> dt.date | None:
    try:
        return parse_date(value)
    except ValueError:
        raise InvalidRequest(
            f"{where} must be an ISO date YYYY-MM-DD or None, got {value!r}", field=where
        ) from None


def _check_field_value(dataset: Dataset, name: str, value: object, where: str) -> object:
    if value is None:
        return None
    spec = dataset.filters.get(name, {})
    if name == dataset.date_field:
        parsed = _check_date(value, where)
        return parsed.isoformat() if parsed else None
    if spec.get("type") == "boolean" or isinstance(value, bool):
        if not isinstance(value, bool):
            raise InvalidRequest(f"{where} must be true or false, got {value!r}", field=where)
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value if math.isfinite(value) else None
    if isinstance(value, list):
        return [str(v) for v in value]
    if not isinstance(value, str):
        raise InvalidRequest(f"{where} must be a string, got {type(value).__name__}", field=where)
    if "enum" in spec and value not in spec["enum"]:
        raise InvalidRequest(f"{where} must be one of {spec['enum']}, got {value!r}", field=where)
    return value


def validate_document(dataset: Dataset, doc: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Check one document against its dataset; the result is normalised and ready to store."""
    if not isinstance(doc, Mapping):
        raise InvalidRequest(f"{where} must be a dict, got {type(doc).__name__}", field=where)
    title = doc.get("title")
    if not isinstance(title, str) or not title.strip():
        raise InvalidRequest(f"{where}.title must be a non-empty string", field=f"{where}.title")
    pages = doc.get("pages")
    if not isinstance(pages, list) or not pages or not all(isinstance(p, str) for p in pages):
        raise InvalidRequest(
            f"{where}.pages must be a non-empty list of page texts", field=f"{where}.pages"
        )
    url = doc.get("url")
    if url is not None and not isinstance(url, str):
        raise InvalidRequest(f"{where}.url must be a string or None", field=f"{where}.url")
    date = _check_date(doc.get("date"), f"{where}.date")
    raw_fields = doc.get("fields") or {}
    if not isinstance(raw_fields, Mapping):
        raise InvalidRequest(f"{where}.fields must be a dict", field=f"{where}.fields")
    fields: dict[str, Any] = {}
    for name, value in raw_fields.items():
        if name not in dataset.fields:
            raise InvalidRequest(
                f"{where}.fields.{name} is not a field of {dataset.id} "
                f"(fields: {', '.join(dataset.fields)})",
                field=f"{where}.fields.{name}",
            )
        fields[name] = _check_field_value(dataset, name, value, f"{where}.fields.{name}")
    if dataset.date_field:
        fields.setdefault(dataset.date_field, date.isoformat() if date else None)
    if "title" in dataset.fields:
        fields.setdefault("title", title)
    if "url" in dataset.fields:
        fields.setdefault("url", url)
    key = doc.get("key")
    if key is not None and not isinstance(key, str):
        raise InvalidRequest(f"{where}.key must be a string", field=f"{where}.key")
    content = json.dumps([title, date and date.isoformat(), url, fields, pages], sort_keys=True)
    content_hash = hashlib.sha256(content.encode()).hexdigest()
    return {
        "key": key or url or f"content:{content_hash}",
        "title": title.strip(),
        "date": date,
        "url": url,
        "fields": fields,
        "pages": [p.replace("\x00", "") for p in pages],
        "content_hash": content_hash,
    }


ORPHAN_AGE_S = 3600.0  # an unlisted object younger than this may be another writer's


@contextlib.contextmanager
def _locked(loc: Location) -> Iterator[None]:
    """One writer at a time per corpus folder (an object store has no lock: see above)."""
    if loc.local is None:
        yield
        return
    with open(loc.local / ".write.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _existing(
    corpus: Location, manifest: shards.Manifest
) -> dict[tuple[str, str], tuple[str, str]]:
    """(dataset, key) -> (content_hash, shard_id) of every committed document."""
    out: dict[tuple[str, str], tuple[str, str]] = {}
    for entry in manifest.shards:
        keys, hashes = shards.read_keys(corpus, entry)
        for key, chash in zip(keys, hashes, strict=True):
            out[(entry.dataset, key)] = (chash, entry.shard_id)
    return out


def _remove_unreferenced(
    loc: Location, manifest: shards.Manifest, *, now: float | None = None
) -> None:
    """Delete shard files that no committed manifest lists (left by an interrupted write); on
    an object store only those older than ORPHAN_AGE_S (a younger one may be a running
    writer's, not yet committed)."""
    listed = {p for s in manifest.shards for p in (s.documents, s.pages)}
    if loc.local is None:
        cutoff = (time.time() if now is None else now) - ORPHAN_AGE_S
        for stat in loc.files():
            rel = stat.rel
            shard_file = rel.count("/") == 1 and rel.endswith(".parquet")
            if shard_file and rel not in listed and stat.mtime < cutoff:
                loc.delete(rel)
        return
    corpus = loc.local
    for path in corpus.glob("*/*.parquet"):
        if path.relative_to(corpus).as_posix() not in listed:
            path.unlink(missing_ok=True)
    for path in corpus.glob("*/.*.tmp"):
        path.unlink(missing_ok=True)


def _shard_tables(
    dataset: str, salt: str, docs: list[dict[str, Any]], vectors: np.ndarray
) -> tuple[pa.Table, pa.Table]:
    doc_ids = [document_id(salt, dataset, d["key"]) for d in docs]
    documents = pa.table(
        {
            "document_id": doc_ids,
            "key": [d["key"] for d in docs],
            "title": [d["title"] for d in docs],
            "date": pa.array([d["date"] for d in docs], pa.date32()),
            "url": [d["url"] for d in docs],
            "fields": [json.dumps(d["fields"], ensure_ascii=False) for d in docs],
            "page_count": pa.array([len(d["pages"]) for d in docs], pa.int32()),
            "content_hash": [d["content_hash"] for d in docs],
        }
    )
    page_doc = [i for i, d in zip(doc_ids, docs, strict=True) for _ in d["pages"]]
    page_num = [n for d in docs for n in range(1, len(d["pages"]) + 1)]
    texts = [p for d in docs for p in d["pages"]]
    dim = vectors.shape[1]
    flat = pa.array(vectors.astype(np.float16).ravel(), pa.float16())
    pages = pa.table(
        {
            "document_id": page_doc,
            "page_num": pa.array(page_num, pa.int32()),
            "text": texts,
            "embedding": pa.FixedSizeListArray.from_arrays(flat, dim),
        }
    )
    return documents, pages


def _drop_documents(
    corpus: Location, manifest: shards.Manifest, shard_id: str, keys: set[str]
) -> list[shards.ShardEntry]:
    """Rewrite one shard without the documents whose keys are being replaced."""
    entry = next(s for s in manifest.shards if s.shard_id == shard_id)
    documents = shards.read_documents(corpus, entry)
    pages = shards.read_pages(corpus, entry, manifest.dim, documents)
    keep = pa.array([k not in keys for k in documents.column("key").to_pylist()])
    documents = documents.filter(keep)
    kept_ids = set(documents.column("document_id").to_pylist())
    pages = pages.filter(pa.array([d in kept_ids for d in pages.column("document_id").to_pylist()]))
    if documents.num_rows == 0:
        return []
    rewritten = shards.write_shard(corpus, entry.dataset, documents, pages)
    return [replace(rewritten, commit=entry.commit, committed=entry.committed)]


def _embed_texts(docs: list[dict[str, Any]]) -> list[str]:
    return [f"{d['title']}\n{p}" for d in docs for p in d["pages"]]


def _batches(
    docs: list[dict[str, Any]], pages_per_batch: int = 0
) -> Iterator[list[dict[str, Any]]]:
    """Documents in batches of about `pages_per_batch` pages (0: BATCH_PAGES), one shard each."""
    limit = pages_per_batch or BATCH_PAGES
    batch: list[dict[str, Any]] = []
    pages = 0
    for doc in docs:
        batch.append(doc)
        pages += len(doc["pages"])
        if pages >= limit:
            yield batch
            batch, pages = [], 0
    if batch:
        yield batch


def write_corpus(
    path: str | Path,
    documents: Mapping[str, Iterable[Mapping[str, Any]]],
    *,
    encoder: Encoder | None = None,
    progress: bool = True,
    clock: Callable[[], float] = time.time,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Add documents to the corpus at `path` (created if needed); returns one row per dataset.

    `documents` maps a dataset id to dicts with `title`, `date`, `url`, `fields`, `pages` and an
    optional `key`. Every document is validated before anything is written. `clock` (epoch
    seconds) stamps each commit: the time its documents entered the corpus. `runner="ray"`
    embeds and writes the shards on Ray (the cluster at `ray_address`, else a local one; the
    corpus folder must be one the cluster's nodes share): same documents, same format.
    """
    check_runner(runner, ray_address)
    corpus = location(path)
    if not isinstance(documents, Mapping):
        raise InvalidRequest(
            "documents must map dataset ids to lists of documents", field="documents"
        )
    if corpus.local is not None:
        corpus.local.mkdir(parents=True, exist_ok=True)
    checked = _validate_all(load_catalog(corpus), documents)
    return _write_validated(
        corpus,
        checked,
        encoder=encoder,
        progress=progress,
        clock=clock,
        runner=runner,
        ray_address=ray_address,
    )


def check_runner(runner: str, ray_address: str | None) -> None:
    """`runner` is "local" or "ray", and a Ray address goes with "ray" only."""
    if runner not in RUNNERS:
        raise InvalidRequest(f"runner must be 'local' or 'ray', got {runner!r}", field="runner")
    if ray_address is not None and runner != "ray":
        raise InvalidRequest("ray_address needs runner='ray'", field="ray_address")


def _write_validated(
    corpus: str | Path | Location,
    checked: Mapping[str, list[dict[str, Any]]],
    *,
    encoder: Encoder | None = None,
    progress: bool = True,
    clock: Callable[[], float] = time.time,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Write documents already checked by `validate_document` (the ingest connectors check
    each one as they read it) on top of the committed corpus, after verifying its shards."""
    corpus = location(corpus)
    with _locked(corpus):
        encoder = encoder or default_encoder()
        manifest = shards.Manifest.load(corpus) or shards.Manifest.new(encoder.name, encoder.dim)
        if (manifest.encoder["name"], manifest.dim) != (encoder.name, encoder.dim):
            raise InvalidRequest(
                f"the corpus was embedded with {manifest.encoder['name']} ({manifest.dim} dims); "
                f"cannot add pages embedded with {encoder.name} ({encoder.dim} dims)",
                field="encoder",
            )
        shards.verify(corpus, manifest)
        _remove_unreferenced(corpus, manifest)
        with _runner(runner, ray_address) as (shards_of, per_shard):
            return _write_checked(
                corpus, manifest, checked, encoder, progress, clock, shards_of, per_shard
            )


def _validate_all(
    catalog: Catalog, documents: Mapping[str, Iterable[Mapping[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    checked: dict[str, list[dict[str, Any]]] = {}
    for dataset_id, docs in documents.items():
        dataset = catalog.get(dataset_id)
        if dataset is None:
            raise UnknownDataset(
                f"unknown dataset {dataset_id!r}; add it to the corpus catalog first",
                field=f"documents.{dataset_id}",
            )
        if not dataset.fields:
            raise InvalidRequest(
                f"dataset {dataset_id!r} has no fields in the catalog; "
                "give it fields in the corpus's catalog.json",
                field=f"documents.{dataset_id}",
            )
        checked[dataset_id] = [
            validate_document(dataset, doc, f"{dataset_id}[{i}]") for i, doc in enumerate(docs)
        ]
    return checked


Job = tuple[str, list[dict[str, Any]]]  # a dataset and a batch of its documents: one shard
ShardsOf = Callable[
    [Location, str, list[Job], Encoder, Any], Iterator[tuple[int, shards.ShardEntry]]
]


def _write_checked(
    corpus: Location,
    manifest: shards.Manifest,
    checked: Mapping[str, list[dict[str, Any]]],
    encoder: Encoder,
    progress: bool,
    clock: Callable[[], float],
    shards_of: ShardsOf | None = None,
    pages_per_shard: int = 0,
) -> pd.DataFrame:
    """Skip what the corpus holds, write a shard per batch of the rest (`pages_per_shard`
    pages, 0: BATCH_PAGES; `shards_of`: here, or on Ray) and commit each as it comes,
    replacing the documents it holds new versions of."""
    existing = _existing(corpus, manifest)
    rows: dict[str, dict[str, Any]] = {
        ds: {"dataset": ds, "written": 0, "replaced": 0, "skipped": 0, "pages": 0} for ds in checked
    }
    total_pages = sum(len(d["pages"]) for docs in checked.values() for d in docs)
    bar = tqdm(
        total=total_pages, unit="page", desc="embedding", disable=not show_progress(progress)
    )
    try:
        jobs = list(_jobs(checked, existing, rows, bar, pages_per_shard))
        for number, written in (shards_of or _local_shards)(
            corpus, manifest.salt, jobs, encoder, bar
        ):
            dataset_id, batch = jobs[number]
            replaced = _commit_shard(corpus, manifest, written, batch, existing, clock)
            row = rows[dataset_id]
            row["written"] += len(batch) - replaced
            row["replaced"] += replaced
            row["pages"] += sum(len(d["pages"]) for d in batch)
    finally:
        bar.close()
    return pd.DataFrame(
        list(rows.values()), columns=["dataset", "written", "replaced", "skipped", "pages"]
    )


def _jobs(
    checked: Mapping[str, list[dict[str, Any]]],
    existing: dict[tuple[str, str], tuple[str, str]],
    rows: dict[str, dict[str, Any]],
    bar: Any,
    pages_per_batch: int = 0,
) -> Iterator[Job]:
    """The batches to write: documents the corpus lacks or holds with other content (the last
    of a key read twice), counting the rest as skipped."""
    for dataset_id, docs in checked.items():
        fresh: dict[str, dict[str, Any]] = {}
        for doc in docs:
            old = existing.get((dataset_id, doc["key"]))
            if (old and old[0] == doc["content_hash"]) or (
                doc["key"] in fresh and fresh[doc["key"]]["content_hash"] == doc["content_hash"]
            ):
                rows[dataset_id]["skipped"] += 1
                bar.update(len(doc["pages"]))
                continue
            fresh[doc["key"]] = doc
        for batch in _batches(list(fresh.values()), pages_per_batch):
            yield dataset_id, batch


def _local_shards(
    corpus: Location, salt: str, jobs: list[Job], encoder: Encoder, bar: Any
) -> Iterator[tuple[int, shards.ShardEntry]]:
    """Embed and write each job's shard here, in order."""
    for number, (dataset_id, batch) in enumerate(jobs):
        yield number, write_batch_shard(corpus, salt, dataset_id, batch, encoder, bar.update)


@contextlib.contextmanager
def _runner(runner: str, ray_address: str | None) -> Iterator[tuple[ShardsOf, int]]:
    """Where shards are written, and their pages (0: BATCH_PAGES): here, or by Ray's actors
    in shards that suit them (connected to Ray meanwhile)."""
    if runner == "local":
        yield _local_shards, 0
        return
    from regnb.corpus import ray as _ray

    with _ray.shard_writer(ray_address) as on_ray:
        yield on_ray


def write_batch_shard(
    corpus: Location,
    salt: str,
    dataset_id: str,
    batch: list[dict[str, Any]],
    encoder: Encoder,
    embedded: Callable[[int], object] | None = None,
    step: int = 64,
) -> shards.ShardEntry:
    """Embed a batch's pages (`step` texts at a time, `embedded(n)` after each) and write its
    shard, not yet committed: what a Ray worker runs too."""
    texts = _embed_texts(batch)
    vectors = np.zeros((len(texts), encoder.dim), dtype=np.float32)
    for start in range(0, len(texts), step):
        vectors[start : start + step] = encoder.encode(texts[start : start + step])
        if embedded is not None:
            embedded(min(step, len(texts) - start))
    documents, pages = _shard_tables(dataset_id, salt, batch, vectors)
    return shards.write_shard(corpus, dataset_id, documents, pages)


def _commit_shard(
    corpus: Location,
    manifest: shards.Manifest,
    written: shards.ShardEntry,
    batch: list[dict[str, Any]],
    existing: dict[tuple[str, str], tuple[str, str]],
    clock: Callable[[], float],
) -> int:
    """Commit a batch's written shard (the manifest's next commit, stamped with the clock's
    time), dropping the documents it replaces from their shards; returns how many it replaced."""
    dataset_id = written.dataset
    number = manifest.commits + 1
    new_entries = [replace(written, commit=number, committed=shards.commit_stamp(clock()))]
    replaced_by_shard: dict[str, set[str]] = {}
    for doc in batch:
        old = existing.get((dataset_id, doc["key"]))
        if old:
            replaced_by_shard.setdefault(old[1], set()).add(doc["key"])
    for shard_id, keys in replaced_by_shard.items():
        new_entries += _drop_documents(corpus, manifest, shard_id, keys)
    old_files = [
        p
        for s in manifest.shards
        if s.shard_id in replaced_by_shard
        for p in (s.documents, s.pages)
    ]
    manifest.shards = [s for s in manifest.shards if s.shard_id not in replaced_by_shard]
    manifest.shards += new_entries
    manifest.commits = number
    shards.write_manifest(corpus, manifest, previous=number - 1)
    for rel in old_files:
        corpus.delete(rel)
    _refresh_existing(corpus, new_entries, existing)
    return sum(len(k) for k in replaced_by_shard.values())


def _refresh_existing(
    corpus: Location,
    entries: list[shards.ShardEntry],
    existing: dict[tuple[str, str], tuple[str, str]],
) -> None:
    for entry in entries:
        keys, hashes = shards.read_keys(corpus, entry)
        for key, chash in zip(keys, hashes, strict=True):
            existing[(entry.dataset, key)] = (chash, entry.shard_id)
