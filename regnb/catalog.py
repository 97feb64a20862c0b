"""The dataset catalog: the package's own list, plus what a corpus folder adds or changes."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, cast

import pandas as pd

from regnb.corpus.location import Location, location
from regnb.documents.place_fields import FIRM_DATASETS, PLACE_FIELDS
from regnb.errors import CorpusError, InvalidRequest

__all__ = ["Catalog", "Dataset", "load_catalog"]

CORPUS_CATALOG = "catalog.json"  # a corpus's own additions to the catalog
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

    @property
    def place_fields(self) -> tuple[str, ...]:
        """The fields of its firm's place (`country`, `state`, `city`) that the index reads for
        each document of a firm-facing dataset (`regnb.documents.places`): an extension, not in
        `fields` or `filters`, searched as `country:IN` and counted as facets; none for the
        other datasets."""
        return PLACE_FIELDS if self.id in FIRM_DATASETS else ()

    def open_to(self, plan: str) -> bool:
        """Whether an account on `plan` may search and read this dataset."""
        return plan == "enterprise" or not self.enterprise

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

    def __repr__(self) -> str:
        state = "available" if self.available else "not available"
        plan = ", enterprise" if self.enterprise else ""
        return f"<Dataset {self.id}: {self.name!r}, {state}{plan}, {len(self.filters)} filters>"

    def _repr_html_(self) -> str:
        from regnb.present.html import dataset_html

        return dataset_html(self)


class Catalog:
    """Datasets by id, in catalog order."""

    def __init__(self, datasets: list[Dataset]) -> None:
        self._by_id = {d.id: d for d in datasets}

    def __iter__(self) -> Iterator[Dataset]:
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

    def __repr__(self) -> str:
        available = sum(d.available for d in self)
        return f"<Catalog: {len(self)} datasets, {available} available>"

    def _repr_html_(self) -> str:
        from regnb.present.html import catalog_html

        return catalog_html(self)

    def to_dict(self) -> dict[str, Any]:
        """The spec's dataset list response."""
        return {"datasets": [d.to_dict() for d in self]}

    @classmethod
    def from_dict(cls, body: dict[str, Any]) -> Catalog:
        """The catalog a dataset list response describes (what a remote client receives)."""
        return cls(
            [
                Dataset(
                    id=d["id"],
                    name=d["name"],
                    jurisdiction=d.get("jurisdiction", ""),
                    available=bool(d["available"]),
                    enterprise=bool(d.get("enterprise", False)),
                    date_field=d.get("date_field"),
                    filters=copy.deepcopy(d.get("filters") or {}),
                    fields=list(d.get("fields") or []),
                )
                for d in body["datasets"]
            ]
        )

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
    return cast(list[dict[str, Any]], json.loads(text)["datasets"])


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


def _with_additions(
    package: list[dict[str, Any]], additions: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The package entries with a corpus's additions; the corpus's own datasets are available
    unless their entry says otherwise."""
    known = {e["id"] for e in package}
    own = [e if e["id"] in known else {"available": True, **e} for e in additions]
    return merge_entries(package, own)


def load_catalog(corpus: str | Path | Location | None = None) -> Catalog:
    """The package catalog with the corpus's `catalog.json` additions applied (a folder or an
    object store, `regnb.corpus.location`)."""
    entries = _package_entries()
    source = "regnb/catalog.json"
    if corpus is not None:
        loc = location(corpus)
        additions = _corpus_additions(loc)
        if additions is not None:
            entries = _with_additions(entries, additions)
            source = loc.where(CORPUS_CATALOG)
    return Catalog([_parse_entry(e, source) for e in entries])


def _corpus_additions(loc: Location) -> list[dict[str, Any]] | None:
    """The entries of a corpus's `catalog.json` (None when it has no such file)."""
    path = loc.where(CORPUS_CATALOG)
    try:
        raw = loc.read_bytes(CORPUS_CATALOG)
    except FileNotFoundError:
        return None
    try:
        entries = list(json.loads(raw.decode("utf-8"))["datasets"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise CorpusError(f"{path}: cannot read the corpus catalog: {exc}") from exc
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise CorpusError(f"{path}: datasets[{i}] is not an object with a string id")
    return entries


ENTRY_KEYS = (
    "id",
    "name",
    "jurisdiction",
    "available",
    "enterprise",
    "date_field",
    "filters",
    "fields",
)
FILTER_KEYS = ("type", "description", "enum", "format")
DATE_FILTERS = ("date_from", "date_to")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")


def _kind(value: object) -> str:
    """A value's JSON type, for messages."""
    if value is None:
        return "null"
    names = {bool: "a boolean", str: "a string", dict: "an object", list: "a list"}
    return next((n for t, n in names.items() if isinstance(value, t)), type(value).__name__)


class _Entry:
    """One entry of an `add_datasets` call, with where it sits (`datasets[2]`) for every error."""

    def __init__(self, raw: dict[str, Any], where: str) -> None:
        self.raw, self.where = raw, where

    def fail(self, key: str, problem: str) -> InvalidRequest:
        name = f" ({self.raw['id']!r})" if isinstance(self.raw.get("id"), str) else ""
        return InvalidRequest(f"{self.where}{name}: {key} {problem}", field=f"{self.where}.{key}")

    def require(self, key: str, kind: type, what: str) -> None:
        value = self.raw[key]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise self.fail(key, f"must be {what}, not {_kind(value)}")


def _check_types(entry: _Entry) -> None:
    """Every key of the entry is known and of its type; `id` is a dataset id."""
    raw = entry.raw
    for key in raw:
        if key not in ENTRY_KEYS:
            raise entry.fail(str(key), f"is not a catalog key (keys: {', '.join(ENTRY_KEYS)})")
    if "id" not in raw:
        raise entry.fail("id", "is required")
    entry.require("id", str, "a string")
    if not DATASET_ID.match(raw["id"]):
        raise entry.fail("id", "must be 2-64 lower-case letters, digits and underscores")
    for key, kind, what in (
        ("name", str, "a string"),
        ("jurisdiction", str, "a string"),
        ("available", bool, "true or false"),
        ("enterprise", bool, "true or false"),
        ("filters", dict, "an object of filters"),
        ("fields", list, "a list of field names"),
    ):
        if key in raw:
            entry.require(key, kind, what)
    if "name" in raw and not raw["name"].strip():
        raise entry.fail("name", "must not be empty")
    if raw.get("date_field") is not None:
        entry.require("date_field", str, "a field name or null")
    _check_fields(entry)
    for name, spec in raw.get("filters", {}).items():
        _check_filter(entry, name, spec)


def _check_fields(entry: _Entry) -> None:
    """`fields` is a list of unique identifier-like names."""
    seen: set[str] = set()
    for i, name in enumerate(entry.raw.get("fields", [])):
        if not isinstance(name, str) or not IDENTIFIER.match(name):
            raise entry.fail(
                f"fields[{i}]", f"must be a field name (letters, digits, _), not {name!r}"
            )
        if name in seen:
            raise entry.fail(f"fields[{i}]", f"repeats {name!r}")
        seen.add(name)


def _check_filter(entry: _Entry, name: str, spec: object) -> None:
    """One filter: a JSON Schema property with a type, an optional enum, `format: date` on dates."""
    key = f"filters.{name}"
    if not IDENTIFIER.match(name):
        raise entry.fail(key, "is not a filter name (letters, digits, _)")
    if not isinstance(spec, dict):
        raise entry.fail(key, f"must be an object with a type, not {_kind(spec)}")
    for prop in spec:
        if prop not in FILTER_KEYS:
            raise entry.fail(f"{key}.{prop}", f"is not allowed (keys: {', '.join(FILTER_KEYS)})")
    kind = spec.get("type")
    if kind not in FILTER_TYPES:
        raise entry.fail(f"{key}.type", f"must be one of {', '.join(sorted(FILTER_TYPES))}")
    if not isinstance(spec.get("description", ""), str):
        raise entry.fail(f"{key}.description", "must be a string")
    if "enum" in spec:
        _check_enum(entry, f"{key}.enum", kind, spec["enum"])
    dated = name in DATE_FILTERS
    if dated and (kind != "string" or spec.get("format") != "date"):
        raise entry.fail(key, 'must be {"type": "string", "format": "date"}')
    if not dated and "format" in spec:
        raise entry.fail(f"{key}.format", "is only for date_from and date_to")


def _check_enum(entry: _Entry, key: str, kind: str, values: object) -> None:
    """An enum is a non-empty list of distinct strings (the engine compares enum values as text)."""
    if kind != "string":
        raise entry.fail(key, f"is only for string filters, not {kind}")
    if not isinstance(values, list) or not values:
        raise entry.fail(key, "must be a non-empty list of strings")
    if not all(isinstance(v, str) and v.strip() for v in values):
        raise entry.fail(key, "must hold non-empty strings only")
    if len(set(values)) != len(values):
        raise entry.fail(key, "repeats a value")


def _check_builtin(entry: _Entry, packaged: dict[str, Any]) -> None:
    """A built-in dataset is only made available; it keeps its name, plan and existing filters."""
    fixed = ["name", "jurisdiction", "enterprise"]
    if packaged.get("fields") or packaged.get("filters"):
        fixed += ["date_field", "filters", "fields"]
    for key in fixed:
        if key in entry.raw and entry.raw[key] != packaged.get(key):
            raise entry.fail(key, "of a built-in dataset cannot be changed")
    if entry.raw.get("available") is False and packaged.get("available"):
        raise entry.fail("available", "of a built-in dataset cannot be turned off")


def _check_consistent(entry: _Entry, merged: dict[str, Any]) -> None:
    """The dataset as it will be: its date field and every filter read one of its fields."""
    fields = merged.get("fields") or []
    date_field = merged.get("date_field")
    if date_field is not None and date_field not in fields:
        raise entry.fail("date_field", f"{date_field!r} is not among its fields")
    for name in merged.get("filters") or {}:
        if name in DATE_FILTERS:
            if date_field is None:
                raise entry.fail(f"filters.{name}", "needs a date_field")
        elif name != "title" and name not in fields and name + "s" not in fields:
            raise entry.fail(f"filters.{name}", f"reads no field ({name!r} is not in fields)")


def _check_entries(
    entries: object, package: dict[str, dict[str, Any]], current: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Checked copies of `add_datasets` entries; a new dataset id is `available` unless it says not.

    `package` and `current` are the package's entries and the corpus's additions, by id.
    """
    if not isinstance(entries, list | tuple):
        raise InvalidRequest(
            f"datasets must be a list of entries, not {_kind(entries)}", field="datasets"
        )
    checked: dict[str, dict[str, Any]] = {}
    for i, raw in enumerate(entries):
        where = f"datasets[{i}]"
        if not isinstance(raw, dict):
            raise InvalidRequest(
                f"{where} must be an object with an id, not {_kind(raw)}", field=where
            )
        entry = _Entry(raw, where)
        _check_types(entry)
        ds_id = raw["id"]
        if ds_id in checked:
            raise entry.fail("id", "appears twice in this call")
        packaged = package.get(ds_id)
        if packaged is not None:
            _check_builtin(entry, packaged)
        entry_out = copy.deepcopy(raw)
        if packaged is None and ds_id not in current:
            entry_out = {"available": True, **entry_out}
        _check_consistent(entry, {**(packaged or {}), **current.get(ds_id, {}), **entry_out})
        checked[ds_id] = entry_out
    return list(checked.values())


def add_datasets(corpus: str | Path | Location, entries: list[dict[str, Any]]) -> Catalog:
    """Add or change datasets in the corpus folder's `catalog.json` (checked before it is saved).

    An entry with a new id adds a dataset of the user's own, available unless it says
    `available: false` (give it `name`, `jurisdiction`, `date_field`, `filters`, `fields`); an
    entry with an id of the corpus's own changes the keys it names. A built-in dataset is only
    made available, with fields and filters where the package gives it none, for example
    `{"id": "ema_epar", "available": true, "date_field": ..., "filters": ..., "fields": ...}`.
    A bad entry raises `InvalidRequest` naming it (`datasets[2].fields`); nothing is saved then.
    """
    loc = location(corpus)
    path = loc.where(CORPUS_CATALOG)
    package = _package_entries()
    current = _corpus_additions(loc) or []
    checked = _check_entries(entries, {e["id"]: e for e in package}, {e["id"]: e for e in current})
    additions = merge_entries(current, checked)
    catalog = Catalog([_parse_entry(e, path) for e in _with_additions(package, additions)])
    body = json.dumps({"datasets": additions}, indent=1, ensure_ascii=False)
    loc.write_bytes(CORPUS_CATALOG, body.encode("utf-8"))
    return catalog
