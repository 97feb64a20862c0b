"""PDFs with a text layer: one corpus page per PDF page (pypdfium2), metadata from a sidecar file."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest._docs import build_document, clean_title, has_text
from regnb.ingest._fields import fit_fields, load_sidecar, sidecar_record
from regnb.ingest._run import (
    IngestRun,
    failure_reason,
    iter_files,
    resolve_encoder,
    source_key,
)

__all__ = ["extract_pdf", "pdf"]

_USELESS_TITLE = re.compile(
    r"^(untitled|microsoft word\b.*|.*\.(docx?|pdf|rtf|odt|wpd)|document\d*|slide \d+)$",
    re.IGNORECASE,
)


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:  # pragma: no cover - a dependency of regnb
        raise ImportError("reading PDFs needs pypdfium2: pip install pypdfium2") from exc
    return pypdfium2


def extract_pdf(path: str | Path) -> tuple[list[str], dict[str, str]]:
    """The text of each page (raw, as pdfium gives it) and the document's metadata."""
    pdfium = _pdfium()
    document = pdfium.PdfDocument(str(path))
    try:
        metadata = {k: v for k, v in document.get_metadata_dict().items() if v}
        texts = []
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            try:
                texts.append(textpage.get_text_bounded())
            finally:
                textpage.close()
                page.close()
        return texts, metadata
    finally:
        document.close()


def _metadata_title(metadata: dict[str, str]) -> str:
    title = clean_title(metadata.get("Title", ""))
    if len(title.split()) < 2 or _USELESS_TITLE.match(title):
        return ""
    return title


def _document(
    run: IngestRun,
    dataset_id: str,
    key: str,
    path: Path,
    texts: list[str],
    metadata: dict[str, str],
    extra: dict[str, Any],
) -> dict[str, Any]:
    dataset = run.dataset(dataset_id)
    fields = fit_fields(dataset, extra, None, run.dropped_fields)
    return build_document(
        key=f"pdf:{key}",
        title=extra.get("title") or _metadata_title(metadata),
        pages=texts,
        date=extra.get("date"),
        url=extra.get("url"),
        fields=fields,
        fallback_title=path.stem,
    )


def pdf(
    source: str | Path | Iterable[str | Path],
    *,
    dataset: str,
    corpus: str | Path,
    metadata: str | Path | None = None,
    create_dataset: str | None = None,
    jurisdiction: str | None = None,
    encoder: Encoder | None = None,
    device: str | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Ingest PDFs (a file, a folder searched for *.pdf, or a list): one page per PDF page.

    `metadata` is a CSV (a `file` column) or JSON file of title, date, url and fields per file
    name; without it the title comes from the PDF's metadata or its first line. The PDF's own
    creation date is not used as the document's date (it is rarely the date that matters).
    A file that cannot be read or has no text layer is reported and skipped.
    """
    files = iter_files(source, (".pdf",))
    sidecar = load_sidecar(metadata) if metadata is not None else {}
    run = IngestRun(corpus, resolve_encoder(encoder, device), progress=progress)
    try:
        run.prepare(dataset, create_dataset, jurisdiction, list(sidecar.values()))
        for path in files:
            key = source_key(path, source)
            try:
                texts, meta = extract_pdf(path)
            except Exception as exc:  # pdfium raises PdfiumError, OSError, ...
                run.file_failed(path, f"cannot read the PDF: {failure_reason(exc)}", dataset)
                continue
            if not has_text(texts):
                run.file_failed(path, "no text layer (a scanned PDF? run OCR first)", dataset)
                continue
            run.file_read(path, dataset)
            extra = sidecar_record(sidecar, key, path)
            doc = _document(run, dataset, key, path, texts, meta, extra)
            run.add(dataset, doc, path)
        return run.finish()
    finally:
        run.close()
