"""Datasets an ingest adds to a corpus's catalog: the user's own, and catalog datasets made available.

`create_dataset` infers fields and filters from the records: strings become keyword filters,
`*_number` / `*_id` fields exact filters, booleans boolean filters, numbers number filters and
a date a `document_date` field with `date_from` / `date_to`. Non-US catalog datasets (EMA, MDCG,
ICH...) are `available: false` in the package catalog; a corpus that holds their documents
marks them available in its own `catalog.json` with the fields below.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from regnb.catalog import DATASET_ID, add_datasets, load_catalog
from regnb.corpus.location import Location
from regnb.errors import InvalidRequest
from regnb.ingest._fields import RESERVED, iso_date

__all__ = ["AVAILABLE_ENTRIES", "create_dataset_entry", "ensure_available", "ensure_created"]

PROVENANCE = {
    "source_repo",
    "source_commit",
    "source_blob",
    "source_path",
    "source_file",
    "pdf_path",
    "license",
    "markdown_text",
    "page_source",
    "text_quality",
    "conversion_method",
    "original_pdf",
    "pdf_page_count",
}
USER_DATE_FIELD = "document_date"
MAX_FILTER_CHARS = 200


def _date_filters(what: str) -> dict[str, dict[str, Any]]:
    return {
        "date_from": {
            "type": "string",
            "description": f"inclusive lower bound on {what}",
            "format": "date",
        },
        "date_to": {
            "type": "string",
            "description": f"inclusive upper bound on {what}",
            "format": "date",
        },
    }


def _keyword(what: str) -> dict[str, Any]:
    return {"type": "string", "description": f"keyword match on {what}"}


def _exact(what: str) -> dict[str, Any]:
    return {"type": "string", "description": f"exact match on {what}"}


AVAILABLE_ENTRIES: dict[str, dict[str, Any]] = {
    "ema_epar": {
        "date_field": "document_date",
        "fields": [
            "eu_number",
            "brand_name",
            "active_substance",
            "company",
            "document_type",
            "medicine_kind",
            "document_date",
            "title",
            "url",
        ],
        "filters": {
            "eu_number": _exact("EU product number, e.g. EU/1/00/129"),
            "brand_name": _keyword("medicine name"),
            "active_substance": _keyword("active substance"),
            "company": _keyword("marketing authorisation holder"),
            "document_type": _keyword("EPAR document type"),
            **_date_filters("document date"),
        },
    },
    "ema_mdcg_guidance": {
        "date_field": "issue_date",
        "fields": ["document_type", "topic", "issue_date", "title", "url"],
        "filters": {
            "topic": _keyword("topic"),
            "title": _keyword("title"),
            **_date_filters("issue date"),
        },
    },
    "ich_guidelines": {
        "date_field": "issue_date",
        "fields": ["issue_date", "title", "url"],
        "filters": {"title": _keyword("title"), **_date_filters("issue date")},
    },
}
GENERIC_ENTRY: dict[str, Any] = {
    "date_field": USER_DATE_FIELD,
    "fields": [USER_DATE_FIELD, "title", "url"],
    "filters": {"title": _keyword("title"), **_date_filters("document date")},
}


def record_metadata(record: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata of a record: its `fields`, or its own keys less text and provenance."""
    if isinstance(record.get("fields"), Mapping):
        return dict(record["fields"])
    return {
        k: v
        for k, v in record.items()
        if k not in RESERVED and k not in PROVENANCE and not k.startswith("source_")
    }


def _filter_for(name: str, values: list[Any]) -> dict[str, Any] | None:
    first = values[0]
    what = name.replace("_", " ")
    if isinstance(first, bool):
        return {"type": "boolean", "description": f"whether {what}"}
    if isinstance(first, int | float):
        return {"type": "number", "description": f"{what}"}
    if isinstance(first, dict):
        return None
    texts = [" ".join(map(str, v)) if isinstance(v, list) else str(v) for v in values]
    if sum(len(t) for t in texts) / len(texts) > MAX_FILTER_CHARS:
        return None
    if name.endswith(("_number", "_id")) or name == "id":
        return _exact(what)
    return _keyword(what)


def create_dataset_entry(
    dataset_id: str,
    name: str,
    records: Iterable[Mapping[str, Any]],
    jurisdiction: str | None = None,
) -> dict[str, Any]:
    """A catalog entry for a user's dataset, its fields and filters inferred from `records`."""
    if not DATASET_ID.match(dataset_id):
        raise InvalidRequest(
            f"dataset id {dataset_id!r} must be 2-64 lower-case letters, digits and underscores, "
            "starting with a letter",
            field="dataset",
        )
    values: dict[str, list[Any]] = {}
    agencies: Counter[str] = Counter()
    dated = False
    for record in records:
        dated = dated or iso_date(record.get("date")) is not None
        if isinstance(record.get("agency"), str):
            agencies[record["agency"]] += 1
        for key, value in record_metadata(record).items():
            if value is not None and value != "" and value != []:
                values.setdefault(key, []).append(value)
    fields = [k for k in values if k not in ("title", "url", USER_DATE_FIELD)]
    filters = {k: f for k in fields if (f := _filter_for(k, values[k])) is not None}
    filters["title"] = _keyword("title")
    entry: dict[str, Any] = {
        "id": dataset_id,
        "name": name,
        "jurisdiction": jurisdiction or (agencies.most_common(1)[0][0] if agencies else "Own"),
        "available": True,
        "enterprise": False,
        "date_field": USER_DATE_FIELD if dated else None,
        "fields": [*fields, *([USER_DATE_FIELD] if dated else []), "title", "url"],
        "filters": {**filters, **(_date_filters("document date") if dated else {})},
    }
    return entry


def _merge(old: Mapping[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """A re-created dataset keeps what it had and gains the fields new records bring."""
    fields = list(old.get("fields") or [])
    fields += [f for f in new["fields"] if f not in fields]
    return {
        **new,
        "name": new["name"] or old.get("name"),
        "date_field": old.get("date_field") or new["date_field"],
        "fields": fields,
        "filters": {**new["filters"], **(old.get("filters") or {})},
    }


def ensure_created(
    corpus: Path | Location,
    dataset_id: str,
    name: str,
    records: Iterable[Mapping[str, Any]],
    jurisdiction: str | None = None,
) -> None:
    """Add (or widen) the user's dataset `dataset_id` in the corpus catalog."""
    catalog = load_catalog(corpus)
    current = catalog.get(dataset_id)
    packaged = load_catalog(None).get(dataset_id)
    if packaged is not None and packaged.available:
        raise InvalidRequest(
            f"{dataset_id!r} is a catalog dataset already; ingest into it without create_dataset",
            field="create_dataset",
        )
    entry = create_dataset_entry(dataset_id, name, records, jurisdiction)
    if current is not None and current.fields:
        entry = _merge(current.to_dict() | {"date_field": current.date_field}, entry)
    add_datasets(corpus, [entry])


def ensure_available(
    corpus: Path | Location, dataset_id: str, records: Iterable[Mapping[str, Any]] = ()
) -> bool:
    """Mark a catalog dataset that is not available yet available, with its fields; True if so."""
    current = load_catalog(corpus).get(dataset_id)
    if current is None or (current.available and current.fields):
        return False
    entry = dict(AVAILABLE_ENTRIES.get(dataset_id) or GENERIC_ENTRY)
    if dataset_id not in AVAILABLE_ENTRIES:
        inferred = create_dataset_entry(dataset_id, current.name, records, current.jurisdiction)
        entry = _merge(entry, inferred)
        entry["name"], entry["jurisdiction"] = current.name, current.jurisdiction
    add_datasets(corpus, [{**entry, "id": dataset_id, "available": True}])
    return True
