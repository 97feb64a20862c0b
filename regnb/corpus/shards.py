"""The corpus on disk: a manifest and Parquet shards (zstd), the system of record.

    corpus/
      manifest.json                 the committed shards; a shard not listed here does not exist
      catalog.json                  optional catalog additions (own datasets, `available: true`)
      <dataset>/documents-<id>.parquet
      <dataset>/pages-<id>.parquet

A write lands new files first and then replaces `manifest.json` in one rename, so a reader sees
the old corpus or the new one, never a half-written shard. On an object store (`regnb.corpus.location`)
each file is one PUT and the manifest's PUT comes last: the same guarantee without a rename. Every read checks size, checksum,
schema and values, and names the file, the column and the problem when one is off.

Each write is a numbered commit (`commits` counts them); a shard records the number and the time
of the commit that brought its documents in (`commit`, `committed`), and a shard rewritten
without some of its documents keeps both: a document's ingest time is its shard's. A manifest
written before commits were recorded reads as commit 0 at an unknown time.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias, cast

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from regnb.corpus.location import Location, location
from regnb.errors import CorpusError

Corpus: TypeAlias = str | os.PathLike[str] | Location  # a folder, a URL, or a location

__all__ = [
    "DOCUMENT_SCHEMA",
    "FORMAT_VERSION",
    "Corpus",
    "Manifest",
    "ShardEntry",
    "commit_stamp",
    "page_schema",
    "read_document_ids",
    "read_documents",
    "read_keys",
    "read_pages",
    "verify",
    "write_manifest",
    "write_shard",
]

FORMAT_VERSION = 1
MANIFEST = "manifest.json"

DOCUMENT_SCHEMA = pa.schema(
    [
        pa.field("document_id", pa.string(), nullable=False),
        pa.field("key", pa.string(), nullable=False),
        pa.field("title", pa.string(), nullable=False),
        pa.field("date", pa.date32()),
        pa.field("url", pa.string()),
        pa.field("fields", pa.string(), nullable=False),
        pa.field("page_count", pa.int32(), nullable=False),
        pa.field("content_hash", pa.string(), nullable=False),
    ]
)


def page_schema(dim: int) -> pa.Schema:
    """Pages: one row per page, page 1 first, with its embedding (float16, L2-normalised)."""
    return pa.schema(
        [
            pa.field("document_id", pa.string(), nullable=False),
            pa.field("page_num", pa.int32(), nullable=False),
            pa.field("text", pa.string(), nullable=False),
            pa.field("embedding", pa.list_(pa.float16(), dim), nullable=False),
        ]
    )


@dataclass(frozen=True)
class ShardEntry:
    """One committed shard: a documents file and a pages file of one dataset, and the commit
    (number, ISO time) that brought its documents in (0 and None: before commits were recorded)."""

    dataset: str
    shard_id: str
    documents: str
    pages: str
    documents_count: int
    pages_count: int
    checksums: dict[str, str]
    sizes: dict[str, int]
    commit: int = 0
    committed: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def commit_stamp(seconds: float) -> str:
    """The ISO 8601 UTC time a shard records for a commit at epoch `seconds`."""
    return dt.datetime.fromtimestamp(seconds, dt.UTC).isoformat(timespec="milliseconds")


@dataclass
class Manifest:
    """The list of committed shards and what the corpus was embedded with."""

    salt: str
    encoder: dict[str, Any]
    shards: list[ShardEntry]
    commits: int = 0  # the number of the last commit

    @classmethod
    def new(cls, encoder_name: str, dim: int) -> Manifest:
        return cls(secrets.token_hex(16), {"name": encoder_name, "dim": dim}, [])

    @property
    def dim(self) -> int:
        return int(self.encoder["dim"])

    def fingerprint(self) -> str:
        """Changes whenever a committed shard does."""
        text = json.dumps([s.checksums for s in self.shards], sort_keys=True)
        return hashlib.sha256((self.salt + text).encode()).hexdigest()[:20]

    @classmethod
    def load(cls, corpus: Corpus) -> Manifest | None:
        """The corpus's manifest, or None for a folder that holds no corpus yet."""
        loc = location(corpus)
        try:
            raw = loc.read_bytes(MANIFEST)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise CorpusError(f"{loc.where(MANIFEST)}: cannot read the manifest: {exc}") from exc
        try:
            return _parse_manifest(json.loads(raw.decode("utf-8")))
        except ValueError as exc:
            raise CorpusError(f"{loc.where(MANIFEST)}: cannot read the manifest: {exc}") from exc


_SALT = re.compile(r"(?:[0-9a-fA-F]{2}){1,64}")
_JSON_TYPES = {dict: "an object", list: "a list", str: "a string", int: "an integer"}


def _require(raw: dict[str, Any], name: str, kind: type, where: str) -> Any:
    """`raw[name]`, which must be of `kind` (a bool is not an integer here)."""
    if name not in raw:
        raise ValueError(f"{where}{name} is missing")
    value = raw[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ValueError(f"{where}{name} must be {_JSON_TYPES[kind]}, got {_json_type(value)}")
    return value


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    return next((n for t, n in _JSON_TYPES.items() if isinstance(value, t)), "a number")


def _parse_shard(raw: object, where: str) -> ShardEntry:
    if not isinstance(raw, dict):
        raise ValueError(f"{where} must be an object, got {_json_type(raw)}")
    where = f"{where}."
    values: dict[str, Any] = {
        name: _require(raw, name, str, where) for name in ("dataset", "shard_id")
    }
    for name in ("documents", "pages"):
        rel = _require(raw, name, str, where)
        if Path(rel).is_absolute() or ".." in Path(rel).parts or not rel.endswith(".parquet"):
            raise ValueError(f"{where}{name} {rel!r} is not a Parquet file inside the corpus")
        values[name] = rel
    for name in ("documents_count", "pages_count"):
        values[name] = _require(raw, name, int, where)
        if values[name] < 0:
            raise ValueError(f"{where}{name} is negative")
    checksums = _require(raw, "checksums", dict, where)
    sizes = _require(raw, "sizes", dict, where)
    for which in ("documents", "pages"):
        _require(checksums, which, str, f"{where}checksums.")
        _require(sizes, which, int, f"{where}sizes.")
    if "commit" in raw and _require(raw, "commit", int, where) < 0:
        raise ValueError(f"{where}commit is negative")
    if "committed" in raw:
        _check_time(_require(raw, "committed", str, where), f"{where}committed")
    extra = set(raw) - set(ShardEntry.__dataclass_fields__)
    if extra:
        raise ValueError(f"{where[:-1]} has unknown keys {sorted(extra)}")
    return ShardEntry(
        **values,
        checksums=dict(checksums),
        sizes=dict(sizes),
        commit=raw.get("commit", 0),
        committed=raw.get("committed"),
    )


def _check_time(text: str, where: str) -> None:
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{where} {text!r} is not an ISO 8601 time") from None
    if when.tzinfo is None:
        raise ValueError(f"{where} {text!r} has no time zone")


def _parse_manifest(raw: object) -> Manifest:
    """A manifest from its JSON; ValueError naming the first key that is missing or wrong."""
    if not isinstance(raw, dict):
        raise ValueError(f"expected a JSON object, got {_json_type(raw)}")
    version = _require(raw, "format_version", int, "")
    if version != FORMAT_VERSION:
        raise ValueError(f"format_version {version} is not supported")
    if not _SALT.fullmatch(_require(raw, "salt", str, "")):
        raise ValueError("salt must be 1 to 64 bytes in hex")
    encoder = _require(raw, "encoder", dict, "")
    _require(encoder, "name", str, "encoder.")
    if _require(encoder, "dim", int, "encoder.") < 1:
        raise ValueError("encoder.dim must be positive")
    shard_list = _require(raw, "shards", list, "")
    entries = [_parse_shard(s, f"shards[{i}]") for i, s in enumerate(shard_list)]
    last = max((e.commit for e in entries), default=0)
    commits = _require(raw, "commits", int, "") if "commits" in raw else last
    if commits < last:
        raise ValueError(f"commits is {commits}, below a shard's commit {last}")
    return Manifest(raw["salt"], dict(encoder), entries, commits)


def write_manifest(corpus: Corpus, manifest: Manifest, *, previous: int | None = None) -> None:
    """Replace the manifest whole (the commit point of every write): one rename in a folder,
    one PUT on an object store. With `previous` (the commit number the writer read), a manifest
    that another writer committed meanwhile is not overwritten: a CorpusError says so."""
    loc = location(corpus)
    if previous is not None:
        _check_unchanged(loc, previous)
    body = {
        "format_version": FORMAT_VERSION,
        "salt": manifest.salt,
        "encoder": manifest.encoder,
        "commits": manifest.commits,
        "shards": [s.to_dict() for s in manifest.shards],
    }
    loc.write_bytes(MANIFEST, json.dumps(body, indent=1).encode("utf-8"))


def _check_unchanged(loc: Location, previous: int) -> None:
    """A corpus on an object store has no lock: a write checks, just before its manifest PUT,
    that the corpus is still at the commit it started from."""
    current = Manifest.load(loc)
    found = current.commits if current is not None else 0
    if found != previous:
        raise CorpusError(
            f"{loc.where(MANIFEST)}: another writer committed to the corpus meanwhile (commit "
            f"{found}; this write started from commit {previous}); nothing of this write was "
            "committed. A corpus on object storage takes one writer at a time: write again."
        )


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", compression_level=9)
    return bytes(sink.getvalue().to_pybytes())


def write_shard(corpus: Corpus, dataset: str, documents: pa.Table, pages: pa.Table) -> ShardEntry:
    """Write a shard's two files (not yet visible: the caller commits the manifest)."""
    loc = location(corpus)
    shard_id = secrets.token_hex(6)
    names = {
        "documents": f"{dataset}/documents-{shard_id}.parquet",
        "pages": f"{dataset}/pages-{shard_id}.parquet",
    }
    dim = pages.schema.field("embedding").type.list_size
    tables = {"documents": documents.cast(DOCUMENT_SCHEMA), "pages": pages.cast(page_schema(dim))}
    checksums, sizes = {}, {}
    for which, table in tables.items():
        data = _parquet_bytes(table)
        loc.write_bytes(names[which], data)
        checksums[which], sizes[which] = hashlib.sha256(data).hexdigest(), len(data)
    return ShardEntry(
        dataset=dataset,
        shard_id=shard_id,
        documents=names["documents"],
        pages=names["pages"],
        documents_count=documents.num_rows,
        pages_count=pages.num_rows,
        checksums=checksums,
        sizes=sizes,
    )


def _check_file(loc: Location, entry: ShardEntry, which: str) -> Path | pa.BufferReader:
    """A shard file that exists and has the manifest's size and checksum: its path in a
    folder; on an object store the bytes read and checked (so that they are what is parsed)."""
    rel: str = getattr(entry, which)
    where = loc.where(rel)
    size = loc.size(rel)
    if size is None:
        raise CorpusError(f"{where}: shard file is missing")
    if size != entry.sizes[which]:
        raise CorpusError(
            f"{where}: file is {size} bytes, the manifest says {entry.sizes[which]} (truncated?)"
        )
    if loc.local is not None:
        path = loc.local / rel
        if loc.sha256(rel) != entry.checksums[which]:
            raise CorpusError(f"{where}: checksum does not match the manifest (file corrupted)")
        return path
    data = loc.read_bytes(rel)
    if hashlib.sha256(data).hexdigest() != entry.checksums[which]:
        raise CorpusError(f"{where}: checksum does not match the manifest (file corrupted)")
    return pa.BufferReader(data)


def verify(corpus: Corpus, manifest: Manifest) -> None:
    """Check that every committed shard file exists with the manifest's size and checksum
    (a CorpusError names the first that does not). On an object store only the sizes: reading
    every shard before each write would cost the whole corpus; a read checks the checksum."""
    loc = location(corpus)
    listed: dict[str, int] = {}
    if loc.local is None:  # one listing per dataset folder rather than a request per file
        for dataset in sorted({e.dataset for e in manifest.shards}):
            listed.update((f.rel, f.size) for f in loc.files(dataset))
    for entry in manifest.shards:
        for which in ("documents", "pages"):
            if loc.local is None:
                _check_sized(loc, entry, which, listed.get(getattr(entry, which)))
            else:
                _check_file(loc, entry, which)


def _check_sized(loc: Location, entry: ShardEntry, which: str, size: int | None) -> None:
    """A store's shard object as one listing saw it (checksums are checked as it is read)."""
    rel: str = getattr(entry, which)
    if size is None:
        raise CorpusError(f"{loc.where(rel)}: shard file is missing")
    if size != entry.sizes[which]:
        raise CorpusError(
            f"{loc.where(rel)}: file is {size} bytes, the manifest says {entry.sizes[which]} "
            "(truncated?)"
        )


def _read_checked(loc: Location, entry: ShardEntry, which: str, schema: pa.Schema) -> pa.Table:
    path = loc.where(getattr(entry, which))
    source = _check_file(loc, entry, which)
    try:
        table = pq.read_table(source)
    except (pa.ArrowException, OSError) as exc:
        raise CorpusError(f"{path}: not a readable Parquet file: {exc}") from exc
    for fld in schema:
        if fld.name not in table.column_names:
            raise CorpusError(f"{path}: column {fld.name!r} is missing")
        actual = table.schema.field(fld.name).type
        if actual != fld.type:
            raise CorpusError(f"{path}: column {fld.name!r} has type {actual}, expected {fld.type}")
        if not fld.nullable and table.column(fld.name).null_count:
            raise CorpusError(f"{path}: column {fld.name!r} has null values")
    expected_rows = entry.documents_count if which == "documents" else entry.pages_count
    if table.num_rows != expected_rows:
        raise CorpusError(f"{path}: {table.num_rows} rows, the manifest says {expected_rows}")
    return table.select(schema.names)


def read_documents(corpus: Corpus, entry: ShardEntry) -> pa.Table:
    """A shard's documents, fully checked."""
    loc = location(corpus)
    table = _read_checked(loc, entry, "documents", DOCUMENT_SCHEMA)
    path = loc.where(entry.documents)
    counts = table.column("page_count").to_numpy()
    if (counts < 1).any():
        raise CorpusError(f"{path}: column 'page_count' has a value below 1")
    for value in table.column("fields").to_pylist():
        try:
            if not isinstance(json.loads(value), dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            raise CorpusError(f"{path}: column 'fields' holds invalid JSON: {exc}") from exc
    return table


def read_keys(corpus: Corpus, entry: ShardEntry) -> tuple[list[str], list[str]]:
    """A shard's document keys and content hashes only (a cheap read, for deduplication)."""
    loc = location(corpus)
    path = loc.where(entry.documents)
    try:
        table = loc.read_parquet(entry.documents, columns=["key", "content_hash"])
    except (pa.ArrowException, OSError, KeyError) as exc:
        raise CorpusError(f"{path}: cannot read columns 'key', 'content_hash': {exc}") from exc
    if table.num_rows != entry.documents_count:
        raise CorpusError(
            f"{path}: {table.num_rows} rows, the manifest says {entry.documents_count}"
        )
    return table.column("key").to_pylist(), table.column("content_hash").to_pylist()


def read_document_ids(corpus: Corpus, entry: ShardEntry) -> list[str]:
    """A shard's document ids only (a cheap read)."""
    loc = location(corpus)
    path = loc.where(entry.documents)
    try:
        table = loc.read_parquet(entry.documents, columns=["document_id"])
    except (pa.ArrowException, OSError, KeyError) as exc:
        raise CorpusError(f"{path}: cannot read column 'document_id': {exc}") from exc
    if table.num_rows != entry.documents_count:
        raise CorpusError(
            f"{path}: {table.num_rows} rows, the manifest says {entry.documents_count}"
        )
    return cast(list[str], table.column("document_id").to_pylist())


def read_pages(corpus: Corpus, entry: ShardEntry, dim: int, documents: pa.Table) -> pa.Table:
    """A shard's pages, checked against its documents: pages 1..page_count, in order, finite vectors."""
    loc = location(corpus)
    table = _read_checked(loc, entry, "pages", page_schema(dim))
    path = loc.where(entry.pages)
    ids = table.column("document_id").to_pylist()
    nums = table.column("page_num").to_pylist()
    expected = dict(
        zip(
            documents.column("document_id").to_pylist(),
            documents.column("page_count").to_pylist(),
            strict=True,
        )
    )
    seen: dict[str, int] = {}
    for doc_id, num in zip(ids, nums, strict=True):
        if doc_id not in expected:
            raise CorpusError(f"{path}: column 'document_id' names unknown document {doc_id!r}")
        want = seen.get(doc_id, 0) + 1
        if num != want:
            raise CorpusError(f"{path}: column 'page_num' is {num} for {doc_id!r}, expected {want}")
        seen[doc_id] = num
    for doc_id, count in expected.items():
        if seen.get(doc_id, 0) != count:
            raise CorpusError(
                f"{path}: column 'page_num': {doc_id!r} has {seen.get(doc_id, 0)} pages, "
                f"its document says {count}"
            )
    vectors = embeddings(table, dim)
    if not np.isfinite(vectors).all():
        raise CorpusError(f"{path}: column 'embedding' holds values that are not finite")
    return table


def embeddings(pages: pa.Table, dim: int) -> np.ndarray:
    """The pages' embeddings as an (n, dim) float16 array."""
    flat = pages.column("embedding").combine_chunks().flatten()
    return cast(np.ndarray, flat.to_numpy(zero_copy_only=False).reshape(-1, dim))
