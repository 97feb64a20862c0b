"""Which datasets face firms, so that the index reads where each of their documents' firm is,
and the names of the fields it stores the place under. A light module (no place lists), read by
the catalog, the checks of a search and the index build; `regnb.documents.places` reads the
places themselves."""

from __future__ import annotations

__all__ = ["ADDRESS_PAGES", "FIRM_DATASETS", "FIRM_NAME_FIELDS", "PLACE_FIELDS"]

PLACE_FIELDS = ("country", "state", "city")
"""The fields of a document's place: ISO 3166-1 alpha-2 country, subdivision code, city."""

FIRM_DATASETS = frozenset(
    {
        "fda_483",
        "fda_warning_letters",
        "fda_inspections",
        "fda_recalls",
        "fda_recall_enforcement",
        "fda_crl",
    }
)
"""The datasets whose documents are about one firm's site: inspections' forms and records,
warning letters, recalls and enforcement reports, complete response letters."""

ADDRESS_PAGES = {"fda_crl": 2}
"""Pages read for a document's address where it is not on the first (a CRL's first page is
often a cover sheet); every other dataset: 1."""

FIRM_NAME_FIELDS = (
    "company",
    "facility_name",
    "firm_name",
    "recalling_firm",
    "applicant",
    "sponsor",
    "manufacturer",
)
"""Fields that name a document's firm, blanked from its page before its address is read (so
that "Texas Pharma Inc" is not a firm in Texas)."""
