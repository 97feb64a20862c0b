"""JSON Lines (plain or gzip): records in `write_corpus`'s document shape, or flat metadata records
such as the realcorpus exports (file prefix -> dataset, metadata keys -> fields; see _mapping)."""

from __future__ import annotations

import contextlib
import gzip
import json
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.documents.labels import is_label, label_pages, sections_of_text
from regnb.encoder import Encoder
from regnb.errors import InvalidRequest
from regnb.ingest._docs import build_document, has_text
from regnb.ingest._driver import Opened, Reader, ReadError, Record, run_ingest
from regnb.ingest._fields import fit_fields, iso_date
from regnb.ingest._mapping import (
    ALIASES,
    CUSTOM_NAMES,
    PREFIX_CONSTANTS,
    dataset_for_file,
    file_prefix,
    fixer,
    record_key,
)
from regnb.ingest._run import IngestRun
from regnb.ingest.datasets import ensure_available, ensure_created
from regnb.ingest.normalise import split_pages

__all__ = ["jsonl"]

SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")
SAMPLE_RECORDS = 2_000
_READ_ERRORS = (OSError, EOFError, UnicodeDecodeError, zlib.error)


def _open(path: Path) -> Any:
    with open(path, "rb") as probe:
        gzipped = probe.read(2) == b"\x1f\x8b"
    if gzipped:
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """(line, record) per line, (line, why it is no record) for a bad line; ReadError where
    the file cannot be read on (the records before stay good)."""
    line_no = 0
    try:
        with _open(path) as handle:
            for line_no, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError as exc:
                    yield line_no, f"invalid JSON: {exc}"
                    continue
                if not isinstance(record, dict):
                    yield line_no, f"not a JSON object but {type(record).__name__}"
                    continue
                yield line_no, record
    except _READ_ERRORS as exc:
        where = f" after line {line_no}" if line_no else ""
        raise ReadError(f"cannot read the file{where}: {type(exc).__name__}: {exc}") from exc


def _sample(path: Path) -> Iterator[dict[str, Any]]:
    """The file's first records (read lazily: only when a dataset's fields must be inferred)."""

    def records() -> Iterator[dict[str, Any]]:
        with contextlib.suppress(ReadError):
            yield from (obj for _, obj in read_records(path) if isinstance(obj, dict))

    return islice(records(), SAMPLE_RECORDS)


def _document(
    run: IngestRun, target: str, prefix: str, record: dict[str, Any], key: str, where: str
) -> Record:
    """The document of one record, or the reason it cannot be one."""
    dataset = run.dataset(target)
    if isinstance(record.get("fields"), dict):
        fields = dict(record["fields"])
        if dataset.date_field in fields:
            fields[dataset.date_field] = iso_date(fields[dataset.date_field])
    else:
        flat = {**PREFIX_CONSTANTS.get(prefix, {}), **record}
        fields = fit_fields(dataset, flat, ALIASES.get(target), run.dropped_fields, fixer(target))
    pages = record.get("pages")
    if pages is None and isinstance(record.get("text"), str):
        pages = split_pages(record["text"])
    if isinstance(pages, str):
        pages = [pages]
    if not isinstance(pages, list) or not has_text([p for p in pages if isinstance(p, str)]):
        return Record(where, reason=JsonlReader.empty)
    labelled = is_label(target, fields)
    if labelled:  # a label is read by section: its pages cut where a section starts
        text = "\n\n".join(p for p in pages if isinstance(p, str))
        pages = label_pages(sections_of_text(text), split_pages)
    problems: list[str] = []
    doc = build_document(
        key=key,
        title=record.get("title"),
        pages=pages,
        date=record.get("date"),
        url=record.get("url"),
        fields=fields,
        headers=not labelled,
        problems=problems,
    )
    return Record(where, doc, problems=tuple(problems))


def _prepare(
    run: IngestRun,
    path: Path,
    target: str,
    create_dataset: str | None,
    jurisdiction: str | None,
) -> str | None:
    """Make `target` ready to receive the file's records; the reason where it cannot be."""
    own = create_dataset is not None or target.startswith("custom_")
    if own:
        name = create_dataset or CUSTOM_NAMES.get(target) or target.replace("_", " ").title()
        try:
            ensure_created(run.corpus, target, name, _sample(path), jurisdiction)
        except InvalidRequest as exc:
            if create_dataset is not None:
                raise
            return exc.message
    elif target in run.catalog:
        ensure_available(run.corpus, target, _sample(path))
    else:
        return (
            f"the file name names no catalog dataset ({target!r}); "
            "give dataset= (--dataset) or create_dataset= (--create-dataset)"
        )
    run.refresh_catalog()
    return None


class JsonlReader(Reader):
    """JSON Lines: a dataset per file (given, or named by the file), a document per line."""

    suffixes = SUFFIXES
    empty = "no page text (`pages` list or `text`)"

    def __init__(
        self, dataset: str | None, create_dataset: str | None, jurisdiction: str | None
    ) -> None:
        self.dataset = dataset
        self.create_dataset = create_dataset
        self.jurisdiction = jurisdiction

    def prepare(self, run: IngestRun) -> None:
        """A dataset given without create_dataset must be in the catalog."""
        given = self.dataset is not None and self.create_dataset is None
        if given and self.dataset not in run.catalog:
            run.dataset(str(self.dataset))

    def open(self, path: Path, run: IngestRun) -> Opened:
        target = self.dataset or dataset_for_file(path)
        reason = _prepare(run, path, target, self.create_dataset, self.jurisdiction)
        if reason is not None:
            raise ReadError(reason)
        return Opened(target, self._records(run, path, target))

    def _records(self, run: IngestRun, path: Path, target: str) -> Iterator[Record]:
        prefix = file_prefix(path)
        seen: Counter[str] = Counter()
        for line, obj in read_records(path):
            where = f"{path}:{line}"
            if isinstance(obj, str):
                yield Record(where, reason=obj)
                continue
            key = record_key(obj, path, line)
            seen[key] += 1
            if seen[key] > 1 and not obj.get("key"):
                key = f"{key}#{seen[key]}"  # records that share a source path stay apart
            yield _document(run, target, prefix, obj, key, where)


def jsonl(
    source: str | Path | Iterable[str | Path],
    *,
    corpus: str | Path,
    dataset: str | None = None,
    create_dataset: str | None = None,
    jurisdiction: str | None = None,
    encoder: Encoder | None = None,
    device: str | None = None,
    progress: bool = True,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Ingest JSON Lines files (plain or .gz; a folder is searched for *.jsonl[.gz]).

    Without `dataset`, each file's name up to `__` names its dataset (`fda_crl__x.jsonl.gz`);
    `create_dataset="Name"` adds `dataset` to the corpus catalog with fields inferred from the
    records (`custom_*` files get one of their own). Returns the summary, one row per dataset.
    """
    reader = JsonlReader(dataset, create_dataset, jurisdiction)
    return run_ingest(
        source,
        reader,
        corpus=corpus,
        encoder=encoder,
        device=device,
        progress=progress,
        runner=runner,
        ray_address=ray_address,
    )
