"""Metadata to catalog fields: dates, enums, booleans, lists, and sidecar metadata files."""

from __future__ import annotations

import ast
import csv
import datetime as dt
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from regnb.catalog import Dataset
from regnb.errors import InvalidRequest

__all__ = ["fit_fields", "fit_value", "load_sidecar", "parse_date", "sidecar_record"]

RESERVED = {"title", "date", "url", "pages", "text", "key", "fields"}
SIDECAR_FILE_COLUMNS = ("file", "filename", "file_name", "path", "name")

_ISO = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$")
_YEAR = re.compile(r"^(\d{4})$")
_TEXT_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%B %Y", "%b %Y")
_TRUE = {"true", "yes", "y", "1", "t"}
_FALSE = {"false", "no", "n", "0", "f"}


def parse_date(value: object) -> str | None:
    """An ISO date from ISO, compact (20120613), partial ('2019-03', '2019' -> first day) or
    written ('March 15, 2019') dates; None where there is no date or it cannot be read."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    text = str(value).strip()
    for pattern in (_ISO, _COMPACT):
        if match := pattern.match(text):
            return _make(int(match[1]), int(match[2]), int(match[3]))
    if match := _MONTH.match(text):
        return _make(int(match[1]), int(match[2]), 1)
    if match := _YEAR.match(text):
        return _make(int(match[1]), 1, 1)
    for fmt in _TEXT_FORMATS:
        try:
            return dt.datetime.strptime(text, fmt).date().isoformat()
        except ValueError:
            continue
    return None


def _make(year: int, month: int, day: int) -> str | None:
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _as_list(value: object) -> list[str] | None:
    if isinstance(value, list | tuple):
        items = [str(v).strip() for v in value if v is not None and str(v).strip()]
        return items or None
    if isinstance(value, str) and value.startswith("[") and value.endswith("]"):
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return None
        return _as_list(parsed) if isinstance(parsed, list) else None
    return None


def fit_value(dataset: Dataset, name: str, value: object) -> object:
    """`value` shaped for field `name` of `dataset`, or None where it does not fit."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if name == dataset.date_field:
        return parse_date(value)
    spec = dataset.filters.get(name) or dataset.filters.get(name.rstrip("s"), {})
    if "enum" in spec:
        wanted = _squash(str(value))
        return next((e for e in spec["enum"] if _squash(e) == wanted), None)
    if spec.get("type") == "boolean" or isinstance(value, bool):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        return True if text in _TRUE else False if text in _FALSE else None
    if spec.get("type") in ("integer", "number"):
        try:
            number = float(str(value))
        except ValueError:
            return None
        return int(number) if spec["type"] == "integer" and number.is_integer() else number
    as_list = _as_list(value)
    if as_list is not None:
        return as_list
    if isinstance(value, int | float):
        return value
    if isinstance(value, dict | list | tuple):
        return None
    return str(value).strip()


def fit_fields(
    dataset: Dataset,
    record: Mapping[str, Any],
    aliases: Mapping[str, str] | None = None,
    dropped: set[str] | None = None,
    fix: Callable[[str, object], object] | None = None,
) -> dict[str, Any]:
    """The record's metadata that is a field of `dataset`, renamed by `aliases`, passed through
    `fix(name, value)` and shaped; the names left out are added to `dropped`."""
    aliases = aliases or {}
    fields: dict[str, Any] = {}
    for key, value in record.items():
        if key in RESERVED:
            continue
        name = aliases.get(key, key)
        if name not in dataset.fields or name in ("title", "url"):
            if dropped is not None and value is not None:
                dropped.add(key)
            continue
        if fix is not None:
            value = fix(name, value)
        fitted = fit_value(dataset, name, value)
        if fitted is not None and fields.get(name) is None:
            fields[name] = fitted
    return fields


def load_sidecar(path: str | Path) -> dict[str, dict[str, Any]]:
    """Metadata by file name from a CSV (a `file` column) or JSON file (a mapping or a list)."""
    path = Path(path).expanduser()
    try:
        if path.suffix.lower() == ".csv":
            with open(path, encoding="utf-8-sig", newline="") as handle:
                rows: Any = list(csv.DictReader(handle))
        else:
            rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, csv.Error) as exc:
        raise InvalidRequest(
            f"{path}: cannot read the metadata file: {exc}", field="metadata"
        ) from exc
    if isinstance(rows, dict):
        return {str(k): dict(v) for k, v in rows.items() if isinstance(v, dict)}
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        name = next(
            (row[c] for c in SIDECAR_FILE_COLUMNS if isinstance(row, dict) and row.get(c)), None
        )
        if name is None:
            raise InvalidRequest(
                f"{path}: every row needs a file name column ({', '.join(SIDECAR_FILE_COLUMNS)})",
                field="metadata",
            )
        out[str(name)] = {k: v for k, v in row.items() if k not in SIDECAR_FILE_COLUMNS and v != ""}
    return out


def sidecar_record(sidecar: Mapping[str, dict[str, Any]], key: str, path: Path) -> dict[str, Any]:
    """The metadata of one file, looked up by its key, its name or its name without suffix."""
    for name in (key, path.name, path.stem):
        if name in sidecar:
            record = dict(sidecar[name])
            nested = record.pop("fields", None)
            if isinstance(nested, dict):
                record.update(nested)
            return record
    return {}
