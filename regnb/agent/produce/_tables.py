"""The workbook's tables as plain rows: one per document, one per finding, one per source, and for
a "which…" answer one per matching document listed. A cell that links holds a `Link` (regnb's
one Excel writer writes them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from regnb.agent.types import Answer, DataRow, KeyDocument, SourcedCitation
from regnb.present.excel import Link

from ._answer import (
    Placed,
    document_of,
    key_documents,
    passage_of,
    placed_findings,
    role_label,
    see_also,
)
from ._common import finding_numbers, markers, statement, strip_markers

DOCUMENT_COLUMNS = (
    "Document", "Dataset", "Date", "Firm or product", "Role", "Cited for", "Key findings",
    "CFR sections cited", "SourcedCitation", "URL",
)  # fmt: skip
FINDING_COLUMNS = (
    "Theme", "No.", "Heading", "Kind", "Document", "Firm or product", "Date", "CFR sections",
    "Finding", "Short statement", "Citations", "Passage",
)  # fmt: skip
MATCH_COLUMNS = ("Firm or product", "Date", "Document", "CFR sections cited", "Cited as", "URL")
SOURCE_COLUMNS = (
    "index", "name", "dataset", "date", "page", "block_id", "parent_index", "passage", "url",
)  # fmt: skip


@dataclass(frozen=True)
class Table:
    """A sheet's header and rows."""

    header: tuple[str, ...]
    rows: list[list[Any]]


def documents_table(answer: Answer) -> Table:
    """One row per document, key documents first, then the union of their catalog fields."""
    documents = [*key_documents(answer), *see_also(answer)]
    fields = field_names(documents)
    rows = [_document_row(d, fields) for d in documents]
    return Table((*DOCUMENT_COLUMNS, *fields), rows)


def findings_table(answer: Answer) -> Table:
    """One row per finding of every theme."""
    return Table(FINDING_COLUMNS, [_finding_row(answer, p) for p in placed_findings(answer)])


def matches_table(answer: Answer) -> Table | None:
    """Every matching document a "which…" answer lists (firm, date, title, CFR sections, the
    citation of those it quotes, address); None when it lists none."""
    listed = next((t for t in answer.tables if t.kind == "matches"), None)
    if listed is None:
        return None
    cited = {d.document_id: d.citation for d in answer.documents}
    return Table(MATCH_COLUMNS, [_match_row(r, cited) for r in listed.rows])


def sources_table(answer: Answer) -> Table:
    """One row per citation, in the order of their numbers."""
    ordered = sorted(answer.citations, key=lambda c: c.index)
    return Table(SOURCE_COLUMNS, [_source_row(c) for c in ordered])


def field_names(documents: Sequence[KeyDocument]) -> list[str]:
    """The union of the documents' catalog fields, in the order they first appear."""
    return list(dict.fromkeys(name for d in documents for name in d.fields))


def _linked(text: str, url: str | None) -> str | Link:
    return Link(text, url) if url else text


def _joined(values: list[str]) -> str | None:
    return "; ".join(values) or None


def _document_row(document: KeyDocument, fields: list[str]) -> list[Any]:
    head = [
        _linked(document.title, document.url),
        document.dataset,
        document.date,
        document.firm_or_product,
        role_label(document),
        _joined(document.cited_for),
        "\n".join(document.findings) or None,
        _joined(document.cfr),
        document.citation,
        _linked(document.url, document.url) if document.url else None,
    ]
    return head + [document.fields.get(name) for name in fields]


def _match_row(row: DataRow, cited: dict[str, int]) -> list[Any]:
    firm, date, title, cfr = row.cells
    marker = cited.get(row.document_id or "")
    return [
        firm or None,
        date or None,
        _linked(title, row.url),
        cfr or None,
        markers([marker]) if marker is not None else None,
        _linked(row.url, row.url) if row.url else None,
    ]


def _finding_row(answer: Answer, placed: Placed) -> list[Any]:
    finding = placed.finding
    document = document_of(answer, finding)
    return [
        placed.theme.label,
        placed.number,
        finding.heading,
        finding.kind,
        _linked(document.title, document.url) if document is not None else None,
        document.firm_or_product if document is not None else None,
        document.date if document is not None else None,
        _joined(finding.cfr),
        strip_markers(finding.text),
        statement(finding),
        markers(finding_numbers(finding)) or None,
        passage_of(answer, finding),
    ]


def _source_row(citation: SourcedCitation) -> list[Any]:
    return [
        citation.index,
        citation.name,
        citation.dataset,
        citation.date,
        citation.page_num,
        citation.block_id,
        citation.parent_index,
        " ".join(citation.passage.split()) if citation.passage else None,
        _linked(citation.url, citation.url) if citation.url else None,
    ]
