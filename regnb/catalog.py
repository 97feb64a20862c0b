"""The dataset catalog: the package's own list, plus what a corpus folder adds or changes."""

from __future__ import annotations

import copy
import json
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from regnb.errors import CorpusError

__all__ = ["Catalog", "Dataset", "load_catalog"]

DATASET_ID = re.compile(r"^[a-z][a-z0-9_]{1,63}$")
FILTER_TYPES = {"string", "boolean", "integer", "number"}


@dataclass(frozen=True)
class Dataset:
    """One catalog entry, shaped like the spec's dataset list item."""

    id: str
    name: str
    jurisdiction: str
    available: bool
    enterprise: bool
    date_field: str | None = None
    filters: dict[str, dict[str, Any]] = field(default_factory=dict)
    fields: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The spec's dataset item; `date_field`, `filters`, `fields` only when available."""
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "jurisdiction": self.jurisdiction,
            "available": self.available,
            "enterprise": self.enterprise,
        }
        if self.available:
            out["date_field"] = self.date_field
            out["filters"] = copy.deepcopy(self.filters)
            out["fields"] = list(self.fields)
        return out

    def filter_kind(self, name: str) -> str:
        """How a filter matches: `date_from`/`date_to`, `enum`, `boolean`, `exact` or `keyword`."""
        spec = self.filters[name]
        if name in ("date_from", "date_to"):
            return name
        if "enum" in spec:
            return "enum"
        if spec.get("type") == "boolean":
            return "boolean"
        if spec.get("type") in ("integer", "number"):
            return "number"
        return "exact" if "exact" in spec.get("description", "").lower() else "keyword"

    def filter_field(self, name: str) -> str:
        """The document field a filter reads (`condition` reads `conditions` when that is the field)."""
        if name in self.fields or name == "title":
            return name
        plural = name + "s"
        return plural if plural in self.fields else name


class Catalog:
    """Datasets by id, in catalog order."""

    def __init__(self, datasets: list[Dataset]) -> None:
        self._by_id = {d.id: d for d in datasets}

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._by_id.values())

    def __len__(self) -> int:
        return len(self._by_id)

    def __contains__(self, dataset_id: object) -> bool:
        return dataset_id in self._by_id

    def __getitem__(self, dataset_id: str) -> Dataset:
        return self._by_id[dataset_id]

    def get(self, dataset_id: str) -> Dataset | None:
        return self._by_id.get(dataset_id)

    @property
    def ids(self) -> list[str]:
        return list(self._by_id)

    def to_dict(self) -> dict[str, Any]:
        """The spec's dataset list response."""
        return {"datasets": [d.to_dict() for d in self]}

    def to_frame(self) -> pd.DataFrame:
        """One row per dataset; filters as a list of names."""
        rows = []
        for d in self:
            rows.append(
                {
                    "id": d.id,
                    "name": d.name,
                    "jurisdiction": d.jurisdiction,
                    "available": d.available,
                    "enterprise": d.enterprise,
                    "date_field": d.date_field,
                    "filters": sorted(d.filters) if d.available else None,
                    "fields": list(d.fields) if d.available else None,
                }
            )
        return pd.DataFrame(rows)


def _package_entries() -> list[dict[str, Any]]:
    text = resources.files("regnb").joinpath("catalog.json").read_text(encoding="utf-8")
    return json.loads(text)["datasets"]


def _parse_entry(raw: dict[str, Any], source: str) -> Dataset:
    """Check one catalog entry; a bad one raises CorpusError naming the file and the problem."""
    try:
        ds_id = raw["id"]
        if not isinstance(ds_id, str) or not DATASET_ID.match(ds_id):
            raise ValueError(f"id {ds_id!r} must be lower-case letters, digits and underscores")
        filters = raw.get("filters") or {}
        for name, spec in filters.items():
            if not isinstance(spec, dict) or spec.get("type") not in FILTER_TYPES:
                raise ValueError(f"filter {name!r} needs a type among {sorted(FILTER_TYPES)}")
        date_field = raw.get("date_field")
        fields_ = list(raw.get("fields") or [])
        if date_field is not None and date_field not in fields_:
            raise ValueError(f"date_field {date_field!r} is not among its fields")
        return Dataset(
            id=ds_id,
            name=str(raw.get("name") or ds_id),
            jurisdiction=str(raw.get("jurisdiction") or ""),
            available=bool(raw.get("available", False)),
            enterprise=bool(raw.get("enterprise", False)),
            date_field=date_field,
            filters={k: dict(v) for k, v in filters.items()},
            fields=fields_,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise CorpusError(f"{source}: bad catalog entry {raw.get('id', '?')!r}: {exc}") from exc


def merge_entries(
    base: list[dict[str, Any]], additions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Entries of `additions` replace the keys they name in `base` by id; new ids come last."""
    merged = {e["id"]: dict(e) for e in base}
    for entry in additions:
        merged.setdefault(entry["id"], {}).update(entry)
    return list(merged.values())


def load_catalog(corpus: Path | None = None) -> Catalog:
    """The package catalog with the corpus folder's `catalog.json` additions applied."""
    entries = _package_entries()
    source = "regnb/catalog.json"
    if corpus is not None and (Path(corpus) / "catalog.json").exists():
        entries = merge_entries(entries, _corpus_additions(Path(corpus)))
        source = str(Path(corpus) / "catalog.json")
    return Catalog([_parse_entry(e, source) for e in entries])


def _corpus_additions(corpus: Path) -> list[dict[str, Any]]:
    """The entries of a corpus folder's `catalog.json` (none when it has no such file)."""
    path = corpus / "catalog.json"
    if not path.exists():
        return []
    try:
        return list(json.loads(path.read_text(encoding="utf-8"))["datasets"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CorpusError(f"{path}: cannot read the corpus catalog: {exc}") from exc


def add_datasets(corpus: Path, entries: list[dict[str, Any]]) -> Catalog:
    """Add or change datasets in the corpus folder's `catalog.json` (checked before it is saved).

    An entry with a new id adds a dataset (give it `name`, `jurisdiction`, `date_field`,
    `filters`, `fields`); an entry with a known id changes the keys it names, for example
    `{"id": "ema_epar", "available": true, "date_field": ..., "filters": ..., "fields": ...}`.
    """
    corpus = Path(corpus)
    path = corpus / "catalog.json"
    additions = merge_entries(_corpus_additions(corpus), entries)
    catalog = Catalog(
        [_parse_entry(e, str(path)) for e in merge_entries(_package_entries(), additions)]
    )
    corpus.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(".catalog.json.tmp")
    tmp.write_text(json.dumps({"datasets": additions}, indent=1, ensure_ascii=False), "utf-8")
    os.replace(tmp, path)
    return catalog
