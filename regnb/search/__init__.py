"""The search: the v3 procedure over one index snapshot, its counts, and the legacy endpoints.

    procedure    `Searcher`: match, loosen, rank, blend and group a search's pages
    matching     which candidate pages match (`match_mask`), the loosening walk, and pruning
    budget       the spec's per-dataset result budget
    facets       exact counts over every match
    match_rows   every matching document, one row each
    date_order   every match in date order
    passages     a page's best passage for a query
    searches     `Searches`: searches checked against the catalog and run (the engine's part)
    reader       `DocumentReader`: the pages of a document, v3 and legacy
    legacy       the legacy BM25 search and contents endpoints

The search imports the index, never the engine or a front end (`.importlinter`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.search.procedure import (
        LOOSEN_FRACTION,
        PAGES_PER_DOCUMENT,
        DocumentGroup,
        FullMatches,
        RankedPage,
        Searcher,
        blend,
        dataset_statuses,
        document_entry,
        field_filter,
        group_documents,
        loosen_needs,
        match_levels,
        missing_field_notices,
    )

__all__ = [
    "LOOSEN_FRACTION",
    "PAGES_PER_DOCUMENT",
    "DocumentGroup",
    "FullMatches",
    "RankedPage",
    "Searcher",
    "blend",
    "dataset_statuses",
    "document_entry",
    "field_filter",
    "group_documents",
    "loosen_needs",
    "match_levels",
    "missing_field_notices",
]

__getattr__ = exports(__name__, dict.fromkeys(__all__, "procedure"))
