"""The Excel workbook (.xlsx): "Documents" (one row per document, its key findings, CFR sections
and catalog fields), "Findings" (one row per finding), for a "which…" answer "Matches" (every
matching document listed) and "Sources", written by regnb's one Excel writer
(`regnb.present.excel`)."""

from __future__ import annotations

import datetime as dt

from regnb.agent.types import Answer
from regnb.present.excel import Sheet, workbook_bytes

from ._tables import documents_table, findings_table, matches_table, sources_table

__all__ = ["excel_workbook"]


def excel_workbook(answer: Answer, title: str, now: dt.datetime) -> bytes:
    """The documents, the findings, the matches listed and the sources as filterable sheets."""
    matches = matches_table(answer)
    tables = {
        "Documents": documents_table(answer),
        "Findings": findings_table(answer),
        **({"Matches": matches} if matches is not None else {}),
        "Sources": sources_table(answer),
    }
    sheets = [Sheet(name, t.header, t.rows) for name, t in tables.items()]
    return workbook_bytes(sheets, title=title, now=now)
