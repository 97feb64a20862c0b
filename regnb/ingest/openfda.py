"""openFDA bulk download files (`{"meta": ..., "results": [...]}`, JSON, .json.zip or .json.gz):
drug labels, drug events (FAERS), device events (MAUDE), 510(k), PMA, device recalls and
enforcement reports, each to its catalog dataset with a readable page text per record."""

from __future__ import annotations

import gzip
import json
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest._docs import build_document
from regnb.ingest._driver import Opened, Reader, ReadError, Record, Source, run_ingest
from regnb.ingest._fields import fit_fields
from regnb.ingest._openfda_records import ENDPOINTS, Endpoint, endpoint_for_record
from regnb.ingest._run import IngestRun, failure_reason, iter_files

__all__ = ["openfda", "read_bulk_file"]

SUFFIXES = (".json", ".json.zip", ".json.gz", ".zip")
_NAME = re.compile(r"(drug|device|food|animalandveterinary|tobacco|other|cosmetic)-([a-z0-9]+)")


def endpoint_for_file(path: Path) -> Endpoint | str | None:
    """The endpoint a bulk file's name names (`device-event-0001-of-0010.json.zip`), the name
    of an endpoint this connector does not read, or None when the name says nothing."""
    match = _NAME.search(path.name.lower())
    if not match:
        return None
    category, kind = match.groups()
    name = f"{category}-{kind}"
    if kind == "enforcement":
        return ENDPOINTS["food-enforcement"]
    return ENDPOINTS.get(name, name)


def read_bulk_file(path: str | Path) -> list[dict[str, Any]]:
    """The `results` of one bulk file (plain, zipped or gzipped JSON)."""
    path = Path(path)
    with open(path, "rb") as probe:
        magic = probe.read(4)
    if magic.startswith(b"PK"):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.lower().endswith(".json")]
            if not names:
                raise ValueError("the zip file holds no .json file")
            results: list[dict[str, Any]] = []
            for name in names:
                with archive.open(name) as handle:
                    results.extend(_results(json.load(handle)))
            return results
    if magic.startswith(b"\x1f\x8b"):
        with gzip.open(path, "rb") as handle:
            return _results(json.load(handle))
    with open(path, "rb") as handle:
        return _results(json.load(handle))


def _results(body: object) -> list[dict[str, Any]]:
    if isinstance(body, dict) and isinstance(body.get("results"), list):
        return [r for r in body["results"] if isinstance(r, dict)]
    if isinstance(body, list):
        return [r for r in body if isinstance(r, dict)]
    raise ValueError('not an openFDA file: no "results" list')


def _is_schema(path: Path, source: object) -> bool:
    """openFDA's JSON schemas sit beside the samples; a folder's are passed over."""
    return "schema" in path.name.lower() and path != Path(str(source)).expanduser()


def _document(run: IngestRun, endpoint: Endpoint, record: dict[str, Any], where: str) -> Record:
    raw = endpoint.document(record)
    dataset = run.dataset(endpoint.dataset)
    problems: list[str] = []
    doc = build_document(
        key=raw["key"],
        title=raw["title"],
        pages=raw["pages"],
        date=raw["date"],
        fields=fit_fields(dataset, raw["fields"], None, run.dropped_fields),
        headers=False,
        problems=problems,
    )
    return Record(where, doc, problems=tuple(problems))


class OpenFdaReader(Reader):
    """openFDA bulk files: the endpoint (so the dataset) per file, a document per record."""

    suffixes = SUFFIXES

    def files(self, source: Source) -> list[Path]:
        return [p for p in iter_files(source, SUFFIXES) if not _is_schema(p, source)]

    def open(self, path: Path, run: IngestRun) -> Opened:
        named = endpoint_for_file(path)
        if isinstance(named, str):
            supported = ", ".join(sorted(ENDPOINTS))
            raise ReadError(f"openFDA endpoint {named!r} is not supported ({supported})")
        try:
            records = read_bulk_file(path)
        except Exception as exc:  # zip, gzip, JSON and file errors alike
            dataset = named.dataset if named else None
            raise ReadError(f"cannot read the file: {failure_reason(exc)}", dataset) from exc
        endpoint = named or next((e for r in records[:20] if (e := endpoint_for_record(r))), None)
        if endpoint is None:
            raise ReadError("cannot tell which openFDA endpoint the records come from")
        run.prepare(endpoint.dataset)
        return Opened(
            endpoint.dataset,
            (
                _document(run, endpoint, record, f"{path}#results[{index}]")
                for index, record in enumerate(records)
            ),
        )


def openfda(
    source: str | Path | Iterable[str | Path],
    *,
    corpus: str | Path,
    encoder: Encoder | None = None,
    device: str | None = None,
    progress: bool = True,
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Ingest openFDA bulk files (a file, a folder searched for *.json[.zip|.gz], or a list).

    The endpoint, and so the dataset, comes from the file name (`drug-label-0001-of-0012.json.zip`
    -> fda_drug) or else from the records' own fields. Records are keyed by their openFDA id
    (set_id, safetyreportid, mdr_report_key, k_number, ...), so a newer file replaces older
    versions of the same record and a re-run adds nothing.
    """
    return run_ingest(
        source,
        OpenFdaReader(),
        corpus=corpus,
        encoder=encoder,
        device=device,
        progress=progress,
        runner=runner,
        ray_address=ray_address,
    )
