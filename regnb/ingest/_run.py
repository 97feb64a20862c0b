"""The ingest run every connector shares: check documents, write them in batches, count, report.

The driver (`_driver.run_ingest`) hands each document to `IngestRun.add`; the run validates it
against its dataset once (a bad record is reported, not fatal), buffers the checked documents
and commits a batch every `BATCH_PAGES` pages or `BATCH_DOCS` documents, so an interrupted
ingest keeps what it committed and a re-run skips it (documents are keyed by their source).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from regnb.catalog import Catalog, Dataset, load_catalog
from regnb.corpus.location import Location, location
from regnb.corpus.write import _write_validated, check_runner, validate_document
from regnb.encoder import Encoder, MiniLMEncoder, default_encoder
from regnb.errors import InvalidRequest, RegnbError
from regnb.ingest.datasets import ensure_available, ensure_created
from regnb.settings import show_progress

__all__ = ["BATCH_DOCS", "BATCH_PAGES", "IngestRun", "iter_files", "resolve_encoder"]

BATCH_PAGES = 2_000
BATCH_DOCS = 500
RAY_BATCH_PAGES = 50_000  # on Ray a commit is a dataset of many shards, spread over the actors
RAY_BATCH_DOCS = 12_500
SUMMARY_COLUMNS = [
    "dataset",
    "files",
    "files_failed",
    "documents",
    "written",
    "replaced",
    "skipped",
    "rejected",
    "pages",
]


def resolve_encoder(encoder: Encoder | None, device: str | None = None) -> Encoder:
    """The encoder to embed with: the one given, else MiniLM on `device` (cpu or cuda)."""
    if encoder is not None:
        return encoder
    if device not in (None, "cpu", "cuda"):
        raise InvalidRequest(f"device must be 'cpu' or 'cuda', got {device!r}", field="device")
    if device == "cuda":
        return MiniLMEncoder(device="cuda")
    return default_encoder()


def iter_files(source: str | Path | Iterable[str | Path], suffixes: tuple[str, ...]) -> list[Path]:
    """The files of `source` (a file, a folder searched recursively, or a list of either)."""
    items = [source] if isinstance(source, str | Path) else list(source)
    files: list[Path] = []
    for item in items:
        path = Path(item).expanduser()
        if path.is_dir():
            found = [
                p
                for p in path.rglob("*")
                if not p.is_dir()
                and p.name.lower().endswith(suffixes)
                and not p.name.startswith(".")
            ]
            files.extend(sorted(found))
        else:
            files.append(path)
    return files


def source_key(path: Path, source: str | Path | Iterable[str | Path]) -> str:
    """A document key for a file: its path inside the folder given, or its name."""
    roots = [source] if isinstance(source, str | Path) else list(source)
    for root in roots:
        root_path = Path(root).expanduser()
        if root_path.is_dir():
            try:
                return path.relative_to(root_path).as_posix()
            except ValueError:
                continue
    return path.name


@dataclass
class _Counts:
    files: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    documents: int = 0
    written: int = 0
    replaced: int = 0
    skipped: int = 0
    rejected: int = 0
    pages: int = 0


class _CountingEncoder:
    """Passes through to the real encoder and moves the progress bar by the texts embedded."""

    def __init__(self, inner: Encoder, bar: Any) -> None:
        self._inner = inner
        self._bar = bar
        self.name = inner.name
        self.dim = inner.dim

    def encode(self, texts: list[str]) -> np.ndarray:
        vectors = self._inner.encode(texts)
        self._bar.update(len(texts))
        return vectors


class IngestRun:
    """One ingest into one corpus: validation, batching, counts and problems."""

    def __init__(
        self,
        corpus: str | Path | Location,
        encoder: Encoder,
        *,
        progress: bool = True,
        runner: str = "local",
        ray_address: str | None = None,
    ) -> None:
        check_runner(runner, ray_address)
        self.runner, self.ray_address = runner, ray_address
        self._limits = (
            (BATCH_PAGES, BATCH_DOCS) if runner == "local" else (RAY_BATCH_PAGES, RAY_BATCH_DOCS)
        )
        self.corpus = location(corpus)
        if self.corpus.local is not None:
            self.corpus.local.mkdir(parents=True, exist_ok=True)
        self._encoder = encoder
        self._catalog: Catalog | None = None
        self._buffer: dict[str, list[dict[str, Any]]] = {}
        self._buffered_pages = 0
        self._buffered_docs = 0
        self._counts: dict[str | None, _Counts] = {}
        self._problems: list[dict[str, Any]] = []
        self._seen: dict[tuple[str, str], tuple[str, str]] = {}
        self.dropped_fields: set[str] = set()
        self._started = time.monotonic()
        self._bar = tqdm(
            unit="page", desc="ingest", disable=not show_progress(progress), smoothing=0.1
        )

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = load_catalog(self.corpus)
        return self._catalog

    def refresh_catalog(self) -> None:
        """Re-read the corpus catalog (after a connector added or changed a dataset)."""
        self._catalog = None

    def prepare(
        self,
        dataset_id: str,
        create_dataset: str | None = None,
        jurisdiction: str | None = None,
        records: Iterable[Mapping[str, Any]] = (),
    ) -> Dataset:
        """Create the user's dataset (`create_dataset`: its name) or make a catalog dataset
        available, then return it ready to write into."""
        if create_dataset is not None:
            ensure_created(self.corpus, dataset_id, create_dataset, records, jurisdiction)
        elif dataset_id in self.catalog:
            ensure_available(self.corpus, dataset_id, records)
        self.refresh_catalog()
        return self.dataset(dataset_id)

    def dataset(self, dataset_id: str) -> Dataset:
        """The dataset to write into; it must be in the catalog and have fields."""
        found = self.catalog.get(dataset_id)
        if found is None:
            raise InvalidRequest(
                f"unknown dataset {dataset_id!r}: give a catalog id or create it with "
                "create_dataset (--create-dataset NAME)",
                field="dataset",
            )
        if not found.fields:
            raise InvalidRequest(
                f"dataset {dataset_id!r} has no fields in this corpus's catalog",
                field="dataset",
            )
        return found

    def reading(self, path: Path, number: int, total: int) -> None:
        """Show which file is being read (file `number` of `total`)."""
        self._bar.set_postfix_str(f"file {number}/{total}: {path.name}", refresh=False)

    def _row(self, dataset: str | None) -> _Counts:
        return self._counts.setdefault(dataset, _Counts())

    def file_read(self, file: str | Path, dataset: str | None) -> None:
        self._row(dataset).files.add(str(file))

    def problem(self, file: str | Path, reason: str, dataset: str | None = None) -> None:
        """A file (or `file:line`) that could not be read, or a record that was rejected."""
        self._problems.append({"dataset": dataset, "file": str(file), "reason": reason})

    def file_failed(self, file: str | Path, reason: str, dataset: str | None = None) -> None:
        row = self._row(dataset)
        row.files.add(str(file))
        row.failed.add(str(file))
        self.problem(file, reason, dataset)

    def reject(self, file: str | Path, reason: str, dataset: str) -> None:
        """A record that cannot become a document (counted, reported, skipped)."""
        row = self._row(dataset)
        row.documents += 1
        row.rejected += 1
        self.problem(file, f"record rejected: {reason}", dataset)

    def add(self, dataset_id: str, doc: Mapping[str, Any], file: str | Path) -> None:
        """Check one document and queue it; a batch is committed once enough pages wait."""
        row = self._row(dataset_id)
        row.documents += 1
        try:
            checked = validate_document(self.dataset(dataset_id), doc, dataset_id)
        except InvalidRequest as exc:
            if exc.field == "dataset":
                raise
            row.rejected += 1
            self.problem(file, f"record rejected: {exc.message}", dataset_id)
            return
        seen = self._seen.get((dataset_id, checked["key"]))
        if seen and seen[0] != checked["content_hash"]:
            row.rejected += 1
            self.problem(
                file,
                f"record rejected: key {checked['key']!r} was already read from {seen[1]} "
                "with other content",
                dataset_id,
            )
            return
        self._seen[(dataset_id, checked["key"])] = (checked["content_hash"], str(file))
        self._buffer.setdefault(dataset_id, []).append(checked)
        self._buffered_pages += len(checked["pages"])
        self._buffered_docs += 1
        if self._buffered_pages >= self._limits[0] or self._buffered_docs >= self._limits[1]:
            self.flush()

    def flush(self) -> None:
        """Commit what waits in the buffer (checked documents: not validated again)."""
        if not self._buffer:
            return
        batch, self._buffer = self._buffer, {}
        pages = self._buffered_pages
        self._buffered_pages = self._buffered_docs = 0
        if self.runner == "ray":  # the pages embedded are counted once they are committed
            result = _write_validated(
                self.corpus,
                batch,
                encoder=self._encoder,
                progress=False,
                runner="ray",
                ray_address=self.ray_address,
            )
            self._bar.update(pages)
        else:
            encoder = _CountingEncoder(self._encoder, self._bar)
            result = _write_validated(self.corpus, batch, encoder=encoder, progress=False)
        written_pages = 0
        for rec in result.to_dict("records"):
            row = self._row(rec["dataset"])
            row.written += int(rec["written"])
            row.replaced += int(rec["replaced"])
            row.skipped += int(rec["skipped"])
            row.pages += int(rec["pages"])
            written_pages += int(rec["pages"])
        if self.runner == "local":
            self._bar.update(max(pages - written_pages, 0))

    def finish(self) -> pd.DataFrame:
        """Commit the rest and return the summary (problems in `summary.attrs['problems']`)."""
        try:
            self.flush()
        finally:
            self._bar.close()
        rows = [
            {
                "dataset": dataset,
                "files": len(c.files),
                "files_failed": len(c.failed),
                "documents": c.documents,
                "written": c.written,
                "replaced": c.replaced,
                "skipped": c.skipped,
                "rejected": c.rejected,
                "pages": c.pages,
            }
            for dataset, c in self._counts.items()
        ]
        summary = pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
        seconds = time.monotonic() - self._started
        summary.attrs["problems"] = pd.DataFrame(
            self._problems, columns=["dataset", "file", "reason"]
        )
        summary.attrs["dropped_fields"] = sorted(self.dropped_fields)
        summary.attrs["seconds"] = round(seconds, 3)
        summary.attrs["pages_per_second"] = round(
            float(summary["pages"].sum()) / seconds if seconds > 0 else 0.0, 1
        )
        return summary

    def close(self) -> None:
        self._bar.close()


def failure_reason(exc: BaseException) -> str:
    """A one-line reason for a file that could not be read."""
    if isinstance(exc, RegnbError):
        return exc.message
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
