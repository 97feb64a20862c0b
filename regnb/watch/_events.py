"""A stand-in for `regnb.firms.document_events` until the firms module is merged: the same
signature and columns, with no findings, CFR sections or links (FIRM's reads them from the
document structure). The lead switches `regnb.watch` to `regnb.firms` on merge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import pandas as pd

from regnb.watch._ingested import documents_by_id

if TYPE_CHECKING:
    from regnb.engine import Engine

__all__ = ["TIMELINE_COLUMNS", "document_events"]

TIMELINE_COLUMNS = (
    "dataset",
    "date",
    "title",
    "url",
    "document_id",
    "findings",
    "cfr",
    "page_num",
    "passage",
    "links",
    "repeat",
)


def document_events(engine: Engine, document_ids: Sequence[str]) -> pd.DataFrame:
    """One timeline row per document of `document_ids` in the engine's corpus, in date order
    (undated last): page 1 with no passage, no findings."""
    rows = documents_by_id(engine.path, engine.datasets(), document_ids)
    rows.sort(key=lambda r: (r["date"] is None, r["date"] or "", r["document_id"]))
    events = [
        {
            "dataset": r["dataset"],
            "date": r["date"],
            "title": r["title"],
            "url": r["url"],
            "document_id": r["document_id"],
            "findings": [],
            "cfr": [],
            "page_num": 1,
            "passage": "",
            "links": [],
            "repeat": False,
        }
        for r in rows
    ]
    frame = pd.DataFrame(events, columns=list(TIMELINE_COLUMNS))
    frame["date"] = pd.to_datetime(frame["date"])
    return frame
