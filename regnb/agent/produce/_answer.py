"""What the formats read from an answer beyond its fields: a finding's document and passage, the
key documents apart from those to see also, and how a finding is labelled."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from regnb.agent.types import Answer, Finding, KeyDocument, SourcedCitation, Theme

from ._common import finding_numbers

SEE_ALSO = "see_also"


@dataclass(frozen=True)
class Placed:
    """A theme's finding with its number in a numbered theme (None in a bulleted one)."""

    theme: Theme
    number: int | None
    finding: Finding


def placed_findings(answer: Answer) -> Iterator[Placed]:
    """Every theme's findings in order, numbered from 1 within a numbered theme."""
    for theme in answer.themes:
        for number, finding in enumerate(theme.findings, start=1):
            yield Placed(theme, number if theme.numbered else None, finding)


def key_documents(answer: Answer) -> list[KeyDocument]:
    """The documents the answer rests on (every role but "see_also")."""
    return [d for d in answer.documents if d.role != SEE_ALSO]


def see_also(answer: Answer) -> list[KeyDocument]:
    """Related documents the answer shows apart."""
    return [d for d in answer.documents if d.role == SEE_ALSO]


def role_label(document: KeyDocument) -> str:
    """ "Key" or "See also", as a column shows a document's role."""
    return "See also" if document.role == SEE_ALSO else "Key"


def _citations(answer: Answer) -> dict[int, SourcedCitation]:
    return {c.index: c for c in answer.citations}


def document_of(answer: Answer, finding: Finding) -> KeyDocument | None:
    """The document a finding is from: its `document_id`, else the one its first marker cites."""
    by_id = {d.document_id: d for d in answer.documents}
    if finding.document_id is not None:
        return by_id.get(finding.document_id)
    cited = _citations(answer)
    for number in finding_numbers(finding):
        citation = cited.get(number)
        if citation is not None and citation.document_id in by_id:
            return by_id[citation.document_id]
    return None


def passage_of(answer: Answer, finding: Finding) -> str | None:
    """The text of the first passage a finding cites, whitespace collapsed."""
    cited = _citations(answer)
    for number in finding_numbers(finding):
        citation = cited.get(number)
        if citation is not None and citation.passage:
            return " ".join(citation.passage.split())
    return None


def lead_of(answer: Answer, finding: Finding) -> str | None:
    """What a finding's line starts with in bold: its heading, else its document's firm."""
    if finding.heading:
        return " ".join(finding.heading.split())
    document = document_of(answer, finding)
    return document.firm_or_product if document is not None else None
