"""Saved web pages (warning letters, guidance pages...) to clean text, split into ~3,000-character
pages at paragraph breaks (selectolax's lexbor parser)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.encoder import Encoder
from regnb.ingest._docs import build_document, clean_title, has_text
from regnb.ingest._driver import (
    Opened,
    ReadError,
    Record,
    SidecarReader,
    run_ingest,
)
from regnb.ingest._fields import fit_fields, iso_date, load_sidecar, sidecar_record
from regnb.ingest._run import IngestRun, failure_reason, source_key
from regnb.ingest.normalise import split_pages

__all__ = ["extract_html", "html"]

SUFFIXES = (".html", ".htm", ".xhtml")
MAIN = ("main", "article", "[role=main]", "#main-content", "#content", ".content")
SKIP = {
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "button",
    "svg",
    "iframe",
    "select",
    "head",
}
BLOCK = {
    "p",
    "div",
    "section",
    "article",
    "main",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "tr",
    "blockquote",
    "pre",
    "address",
    "figure",
    "figcaption",
    "hr",
    "body",
}
DATE_META = (
    "article:published_time",
    "dcterms.date",
    "dc.date",
    "dcterms.issued",
    "date",
    "citation_date",
    "article:modified_time",
)


def _parser(text: str) -> Any:
    try:
        from selectolax.lexbor import LexborHTMLParser
    except ImportError as exc:  # pragma: no cover - a dependency of regnb
        raise ImportError("reading HTML needs selectolax: pip install selectolax") from exc
    return LexborHTMLParser(text)


def _paragraphs(root: Any) -> list[str]:
    """Text of each block element, inline text joined, whitespace collapsed, <br> kept."""
    paragraphs: list[str] = []
    lines: list[str] = []
    words: list[str] = []

    def end_line() -> None:
        line = " ".join("".join(words).split())
        if line:
            lines.append(line)
        words.clear()

    def end_block() -> None:
        end_line()
        if lines:
            paragraphs.append("\n".join(lines))
        lines.clear()

    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, closing = stack.pop()
        tag = node.tag
        if closing:
            if tag in ("td", "th"):
                words.append(" ")
            elif tag in BLOCK:
                end_block()
            continue
        if tag == "-text":
            words.append(node.text_content or "")
            continue
        if tag in SKIP or tag in ("-comment", "_comment"):
            continue
        if tag == "br":
            end_line()
            continue
        if tag in BLOCK:
            end_block()
        stack.append((node, True))
        children = list(node.iter(include_text=True))
        stack.extend((child, False) for child in reversed(children))
    end_block()
    return paragraphs


def _meta(tree: Any, *names: str) -> str:
    for name in names:
        for attr in ("property", "name"):
            node = tree.css_first(f'meta[{attr}="{name}" i]')
            if node is not None and (node.attributes.get("content") or "").strip():
                return str(node.attributes["content"]).strip()
    return ""


def _title(tree: Any) -> str:
    title = _meta(tree, "og:title", "dc.title", "citation_title")
    if not title and tree.css_first("title") is not None:
        title = tree.css_first("title").text() or ""
        title = title.split(" | ")[0]
    if not title and tree.css_first("h1") is not None:
        title = tree.css_first("h1").text() or ""
    return clean_title(title)


def extract_html(text: str) -> dict[str, Any]:
    """Title, date, url and the main content's paragraphs of one web page."""
    tree = _parser(text)
    root = next((n for sel in MAIN if (n := tree.css_first(sel)) is not None), None)
    root = root or tree.body or tree.root
    canonical = tree.css_first('link[rel="canonical"]')
    time_node = tree.css_first("time[datetime]")
    date = iso_date(_meta(tree, *DATE_META)) or (
        iso_date(time_node.attributes.get("datetime")) if time_node is not None else None
    )
    url = _meta(tree, "og:url") or (
        str(canonical.attributes.get("href") or "") if canonical is not None else ""
    )
    return {
        "title": _title(tree),
        "date": date,
        "url": url or None,
        "paragraphs": _paragraphs(root) if root is not None else [],
    }


def _read(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


class HtmlReader(SidecarReader):
    """Saved web pages: one document per page, metadata from a sidecar file."""

    suffixes = SUFFIXES

    def open(self, path: Path, run: IngestRun) -> Opened:
        try:
            page = extract_html(_read(path))
        except Exception as exc:  # selectolax and file errors alike
            raise ReadError(f"cannot read the page: {failure_reason(exc)}", self.dataset) from exc
        if not has_text(page["paragraphs"]):
            raise ReadError("no text in the page", self.dataset)
        extra = sidecar_record(self.sidecar, source_key(path, self.source), path)
        problems: list[str] = []
        doc = build_document(
            key=f"html:{source_key(path, self.source)}",
            title=extra.get("title") or page["title"],
            pages=split_pages("\n\n".join(page["paragraphs"])),
            date=extra.get("date") or page["date"],
            url=extra.get("url") or page["url"],
            fields=fit_fields(run.dataset(self.dataset), extra, None, run.dropped_fields),
            fallback_title=path.stem,
            headers=False,
            problems=problems,
        )
        return Opened(self.dataset, [Record(str(path), doc, problems=tuple(problems))])


def html(
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
    """Ingest saved web pages (a file, a folder searched for *.html/*.htm, or a list).

    The page's main content (<main>, <article>, else <body>, less navigation, headers, footers
    and scripts) becomes text split into ~3,000-character pages at paragraph breaks. Title,
    date and url come from `metadata` (CSV/JSON per file name), else the page's own tags.
    """
    sidecar = load_sidecar(metadata) if metadata is not None else {}
    reader = HtmlReader(source, dataset, sidecar, create_dataset, jurisdiction)
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
