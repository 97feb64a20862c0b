"""The two older endpoints: page-level BM25 search and the page-wise document reader."""

from __future__ import annotations

import html
import re
from typing import Any

from regnb.text import Normaliser

__all__ = ["COMPANY_FIELDS", "company_of", "highlight", "legacy_doc_id", "parse_doc_id"]

COMPANY_FIELDS = (
    "company",
    "sponsor",
    "applicant",
    "firm_name",
    "recalling_firm",
    "manufacturer",
    "facility_name",
)
WORD = re.compile(r"[^\W_]+")
SNIPPET_CHARS = 300


def company_of(fields: dict[str, Any]) -> str | None:
    """The firm a document is about, from the first company-like field it has."""
    for name in COMPANY_FIELDS:
        if fields.get(name):
            return str(fields[name])
    return None


def legacy_doc_id(dataset: str, document_id: str) -> str:
    """The relative path form of a legacy `doc_id`."""
    return f"{dataset}/{document_id}"


def parse_doc_id(doc_id: str) -> tuple[str | None, str]:
    """(dataset or None, document_id) from the relative path form or a URL ending in it."""
    path = re.sub(r"^[a-z][a-z0-9+.-]*://[^/]+", "", doc_id.strip()).split("?")[0].strip("/")
    parts = [p for p in path.split("/") if p]
    if len(parts) >= 2:
        return parts[-2], parts[-1]
    return None, parts[-1] if parts else ""


def highlight(text: str, terms: set[str], normaliser: Normaliser) -> str:
    """A snippet of the page around its first matched word, matched words in `<b>` tags."""
    words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]
    mapping = normaliser.word_terms([w for _, _, w in words])
    hits = [(s, e) for s, e, w in words if mapping.get(w.lower()) in terms]
    if not hits:
        return html.escape(text[:SNIPPET_CHARS])
    start = max(0, hits[0][0] - SNIPPET_CHARS // 3)
    end = min(len(text), start + SNIPPET_CHARS)
    parts, pos = [], start
    for s, e in hits:
        if s < start or e > end:
            continue
        parts += [html.escape(text[pos:s]), "<b>", html.escape(text[s:e]), "</b>"]
        pos = e
    parts.append(html.escape(text[pos:end]))
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(text) else ""
    return prefix + "".join(parts).strip() + suffix
