"""The one ingest loop: a per-format `Reader` turns each file into records, the driver does
the rest (files, read errors, empty records, progress, counting and reporting).

A reader's `open` raises `ReadError` for a file it cannot read (reported, skipped, the run goes
on); its records may raise `ReadError` part-way (records before the break stay in). Any other
exception ends the run: it is a bug, or a problem with the corpus, not with one file.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest._docs import has_text
from regnb.ingest._run import IngestRun, iter_files, resolve_encoder

__all__ = ["Opened", "ReadError", "Reader", "Record", "run_ingest"]

Source = str | Path | Iterable[str | Path]


class ReadError(Exception):
    """A file (or the rest of one) that cannot be read: `reason` goes in the problems."""

    def __init__(self, reason: str, dataset: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.dataset = dataset


@dataclass(frozen=True)
class Record:
    """One document read from a file (`doc`, in write_corpus's shape), or the `reason` it
    cannot be one; `problems` are notes on a document that still goes in."""

    where: str
    doc: dict[str, Any] | None = None
    reason: str | None = None
    problems: tuple[str, ...] = ()


@dataclass
class Opened:
    """A file that could be opened: the dataset it goes to and its records."""

    dataset: str
    records: Iterable[Record] = field(default_factory=list)


class Reader:
    """One format: which files it reads, how the corpus is made ready, how a file is read."""

    suffixes: tuple[str, ...] = ()
    empty = "the record has no text"

    def files(self, source: Source) -> list[Path]:
        """The files of `source` this reader reads."""
        return iter_files(source, self.suffixes)

    def prepare(self, run: IngestRun) -> None:
        """Make the datasets ready before the first file (create, make available, check)."""

    def open(self, path: Path, run: IngestRun) -> Opened:
        """Read one file; ReadError where it cannot be read."""
        raise NotImplementedError


class SidecarReader(Reader):
    """A format of one document per file, into one dataset, with metadata from a sidecar file
    (keyed by the file's path in the source)."""

    def __init__(
        self,
        source: Source,
        dataset: str,
        sidecar: dict[str, dict[str, Any]],
        create_dataset: str | None,
        jurisdiction: str | None,
    ) -> None:
        self.source = source
        self.dataset = dataset
        self.sidecar = sidecar
        self.create_dataset = create_dataset
        self.jurisdiction = jurisdiction

    def prepare(self, run: IngestRun) -> None:
        records = list(self.sidecar.values())
        run.prepare(self.dataset, self.create_dataset, self.jurisdiction, records)


def run_ingest(
    source: Source,
    reader: Reader,
    *,
    corpus: str | Path,
    encoder: Encoder | None = None,
    device: str | None = None,
    progress: bool = True,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Read every file of `source` with `reader` into `corpus`; returns the run's summary.
    `runner="ray"` embeds and writes the shards on Ray (`regnb.write_corpus`)."""
    files = reader.files(source)
    run = IngestRun(
        corpus,
        resolve_encoder(encoder, device if runner == "local" else None),  # actors pick theirs
        progress=progress,
        runner=runner,
        ray_address=ray_address,
    )
    try:
        reader.prepare(run)
        for number, path in enumerate(files, start=1):
            run.reading(path, number, len(files))
            _ingest_file(run, reader, path)
        return run.finish()
    finally:
        run.close()


def _ingest_file(run: IngestRun, reader: Reader, path: Path) -> None:
    try:
        opened = reader.open(path, run)
    except ReadError as exc:
        run.file_failed(path, exc.reason, exc.dataset)
        return
    run.file_read(path, opened.dataset)
    records: Iterator[Record] = iter(opened.records)
    while True:
        try:
            record = next(records, None)
        except ReadError as exc:
            run.file_failed(path, exc.reason, exc.dataset or opened.dataset)
            return
        if record is None:
            return
        _take(run, reader, opened.dataset, record)


def _take(run: IngestRun, reader: Reader, dataset: str, record: Record) -> None:
    for problem in record.problems:
        run.problem(record.where, problem, dataset)
    if record.doc is None:
        run.reject(record.where, record.reason or reader.empty, dataset)
    elif not has_text(record.doc["pages"]):
        run.reject(record.where, reader.empty, dataset)
    else:
        run.add(dataset, record.doc, record.where)
