"""PDFs: one corpus page per PDF page (pypdfium2), scanned pages read by Tesseract where it is
installed, metadata from a sidecar file, else title and date from the document itself."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest import _ocr
from regnb.ingest._docs import build_document, clean_title, has_text
from regnb.ingest._driver import (
    Opened,
    ReadError,
    Record,
    SidecarReader,
    run_ingest,
)
from regnb.ingest._fields import fit_fields, load_sidecar, read_date, sidecar_record
from regnb.ingest._letters import read_letter, top_date
from regnb.ingest._run import IngestRun, failure_reason, source_key
from regnb.ingest.normalise import normalise_pages

__all__ = ["extract_pdf", "pdf"]

_USELESS_TITLE = re.compile(
    r"^(untitled|microsoft word\b.*|.*\.(docx?|pdf|rtf|odt|wpd)|document\d*|slide \d+"
    r"|(other )?action letters?( ?\(s\))?|review|letter|memorandum)$",
    re.IGNORECASE,
)


def _pdfium() -> Any:
    try:
        import pypdfium2
    except ImportError as exc:  # pragma: no cover - a dependency of regnb
        raise ImportError("reading PDFs needs pypdfium2: pip install pypdfium2") from exc
    return pypdfium2


@dataclass
class PdfText:
    """A PDF's page texts (OCR'd where a page is a scanned image and Tesseract is at hand)."""

    pages: list[str]
    metadata: dict[str, str]
    image_pages: list[int] = field(default_factory=list)  # 1-based, no text layer
    ocr_failed: dict[int, str] = field(default_factory=dict)


def _has_image(page: Any, pdfium: Any) -> bool:
    kind = pdfium.raw.FPDF_PAGEOBJ_IMAGE
    return any(obj.type == kind for obj in page.get_objects())


def read_pdf(path: str | Path, tesseract: str | None = None) -> PdfText:
    """The text of each page; a page with no text but an image is OCR'd with `tesseract`
    (the program's path), or left empty and listed in `image_pages` without it."""
    pdfium = _pdfium()
    document = pdfium.PdfDocument(str(path))
    try:
        metadata = {k: v for k, v in document.get_metadata_dict().items() if v}
        result = PdfText([], metadata)
        for index in range(len(document)):
            page = document[index]
            try:
                text = _page_text(page)
                if not text.strip() and _has_image(page, pdfium):
                    result.image_pages.append(index + 1)
                    text = _ocr_text(page, tesseract, index + 1, result)
                result.pages.append(text)
            finally:
                page.close()
        return result
    finally:
        document.close()


def _page_text(page: Any) -> str:
    textpage = page.get_textpage()
    try:
        return str(textpage.get_text_bounded())
    finally:
        textpage.close()


def _ocr_text(page: Any, tesseract: str | None, number: int, result: PdfText) -> str:
    if tesseract is None:
        return ""
    try:
        return _ocr.ocr_page(page, tesseract)
    except _ocr.OcrError as exc:
        result.ocr_failed[number] = str(exc)
        return ""


def extract_pdf(path: str | Path) -> tuple[list[str], dict[str, str]]:
    """The text layer of each page (raw, as pdfium gives it) and the document's metadata."""
    text = read_pdf(path)
    return text.pages, text.metadata


def _metadata_title(metadata: dict[str, str]) -> str:
    title = clean_title(metadata.get("Title", ""))
    if len(title.split()) < 2 or _USELESS_TITLE.match(title):
        return ""
    return title


def _page_list(numbers: Iterable[int]) -> str:
    numbers = list(numbers)
    return f"page{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def _scan_problems(text: PdfText, tesseract: str | None) -> list[str]:
    """What went wrong with the scanned pages: no Tesseract, or OCR that failed."""
    problems = []
    if text.image_pages and tesseract is None:
        problems.append(
            f"image-only {_page_list(text.image_pages)} (no text layer) went in without "
            f"text: {_ocr.INSTALL_HINT}"
        )
    for number, reason in text.ocr_failed.items():
        problems.append(f"OCR of page {number} failed: {reason}")
    return problems


class PdfReader(SidecarReader):
    """PDF files: one document per file, one page per PDF page."""

    suffixes = (".pdf",)

    tesseract: str | None = None

    def prepare(self, run: IngestRun) -> None:
        super().prepare(run)
        self.tesseract = _ocr.find_tesseract()

    def open(self, path: Path, run: IngestRun) -> Opened:
        try:
            text = read_pdf(path, self.tesseract)
        except Exception as exc:  # pdfium raises PdfiumError, OSError, ...
            raise ReadError(f"cannot read the PDF: {failure_reason(exc)}", self.dataset) from exc
        problems = _scan_problems(text, self.tesseract)
        if not has_text(text.pages):
            raise ReadError("; ".join(["no text layer", *problems]), self.dataset)
        key = source_key(path, self.source)
        extra = sidecar_record(self.sidecar, key, path)
        doc = self._document(run, key, path, text, extra, problems)
        return Opened(self.dataset, [Record(str(path), doc, problems=tuple(problems))])

    def _document(
        self,
        run: IngestRun,
        key: str,
        path: Path,
        text: PdfText,
        extra: dict[str, Any],
        problems: list[str],
    ) -> dict[str, Any]:
        """Sidecar metadata first; else the letter's own title and date, the PDF's title."""
        normalised = normalise_pages(text.pages)
        letter = read_letter(normalised)
        date, problem = read_date(extra.get("date"))
        if problem:
            problems.append(f"metadata {problem}")
        fields = fit_fields(
            run.dataset(self.dataset), extra, None, run.dropped_fields, problems=problems
        )
        return build_document(
            key=f"pdf:{key}",
            title=extra.get("title")
            or (letter.title if letter else "")
            or _metadata_title(text.metadata),
            pages=text.pages,
            date=date or (letter.date if letter else None) or top_date(normalised),
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
    runner: str = "local",
    ray_address: str | None = None,
) -> pd.DataFrame:
    """Ingest PDFs (a file, a folder searched for *.pdf, or a list): one page per PDF page.

    `metadata` is a CSV (a `file` column) or JSON file of title, date, url and fields per file
    name. Without it, a regulatory letter's title and date come from the letter itself (action,
    product, firm, application number; the date line or the signature's date), else the title
    from the PDF's metadata or its first line. The PDF's own creation date is not used (it is
    rarely the date that matters). Scanned pages are read by Tesseract where it is installed,
    and reported where it is not. A file that cannot be read or has no text is reported and
    skipped; a metadata date that cannot be read is reported and left out.
    """
    sidecar = load_sidecar(metadata) if metadata is not None else {}
    reader = PdfReader(source, dataset, sidecar, create_dataset, jurisdiction)
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
