"""Firms across datasets: a firm's documents grouped by name variants and FEI, in date order,
with the links between them (the warning letter that followed a 483) and repeat findings.

    entities  firm entities: names, name keys and FEI numbers grouped
    links     references between documents ("your 483 of June 3, 2021")
    timeline  a firm's documents in date order, with findings and links (`Timeline`)
    lookup    `Firms`: the engine's part that finds firms and builds their timelines
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.firms.timeline import (
        EVENT_PAGES,
        FIRM_COLUMNS,
        FIRM_FIELDS,
        LINK_COLUMNS,
        REPEAT_COLUMNS,
        TIMELINE_COLUMNS,
        Link,
        Timeline,
        document_events,
        entity_id_of,
        firm_records,
        firms_frame,
        links_frame,
        repeat_findings,
        store_events,
        timeline_frame,
        timeline_records,
    )

__all__ = [
    "EVENT_PAGES",
    "FIRM_COLUMNS",
    "FIRM_FIELDS",
    "LINK_COLUMNS",
    "REPEAT_COLUMNS",
    "TIMELINE_COLUMNS",
    "Link",
    "Timeline",
    "document_events",
    "entity_id_of",
    "firm_records",
    "firms_frame",
    "links_frame",
    "repeat_findings",
    "store_events",
    "timeline_frame",
    "timeline_records",
]

__getattr__ = exports(__name__, dict.fromkeys(__all__, "timeline"))
