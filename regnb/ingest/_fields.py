"""Metadata to catalog fields: dates, enums, booleans, lists, and sidecar metadata files."""

from __future__ import annotations

import ast
import csv
import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from regnb.catalog import Dataset
from regnb.dates import parse_date
from regnb.errors import InvalidRequest

__all__ = ["fit_fields", "fit_value", "iso_date", "load_sidecar", "read_date", "sidecar_record"]

RESERVED = {"title", "date", "url", "pages", "text", "key", "fields"}
SIDECAR_FILE_COLUMNS = ("file", "filename", "file_name", "path", "name")

_TRUE = {"true", "yes", "y", "1", "t"}
_FALSE = {"false", "no", "n", "0", "f"}


def read_date(value: object) -> tuple[str | None, str | None]:
    """(ISO date, None) for metadata in any form `parse_date(lenient=True)` reads (or none),
    (None, why it was left out) for one it cannot."""
    try:
        parsed = parse_date(value, lenient=True)
    except ValueError as exc:
        return None, f"date left out: {exc}"
    return (parsed.isoformat() if parsed else None), None


def iso_date(value: object) -> str | None:
    """The ISO date of metadata, None where there is none or it cannot be read."""
    return read_date(value)[0]


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
        return iso_date(value)
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
    problems: list[str] | None = None,
) -> dict[str, Any]:
    """The record's metadata that is a field of `dataset`, renamed by `aliases`, passed through
    `fix(name, value)` and shaped; the names left out are added to `dropped`, a date field that
    cannot be read is said in `problems`."""
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
        elif fitted is None and name == dataset.date_field and problems is not None:
            _, problem = read_date(value)
            if problem:
                problems.append(f"{name}: {problem}")
    return fields


def load_sidecar(path: str | Path) -> dict[str, dict[str, Any]]:
    """Metadata by file name from a CSV (a `file` column) or JSON file (a mapping or a list)."""
    path = Path(path).expanduser()
    try:
        if path.suffix.lower() == ".csv":
            rows: Any = _read_csv(path)
        else:
            rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, csv.Error) as exc:
        raise InvalidRequest(
            f"{path}: cannot read the metadata file: {exc}", field="metadata"
        ) from exc
    if isinstance(rows, dict):
        return {str(k): dict(v) for k, v in rows.items() if isinstance(v, dict)}
    if not isinstance(rows, list):
        raise InvalidRequest(
            f"{path}: metadata must be an object keyed by file name or a list of rows, "
            f"got {type(rows).__name__}",
            field="metadata",
        )
    out: dict[str, dict[str, Any]] = {}
    for number, row in enumerate(rows, start=1):
        name = _file_name(row)
        if name is None:
            raise InvalidRequest(
                f"{path}: row {number} has no file name (a `file` column; also read: "
                f"{', '.join(SIDECAR_FILE_COLUMNS[1:])})",
                field="metadata",
            )
        out[name] = {
            k: v for k, v in row.items() if k and k not in SIDECAR_FILE_COLUMNS and v != ""
        }
    return out


def _read_csv(path: Path) -> list[dict[str, str]]:
    """The rows of a metadata CSV, column names in lower case; it must have a file column."""
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        columns = [(c or "").strip().lower() for c in reader.fieldnames or []]
        if not set(columns) & set(SIDECAR_FILE_COLUMNS):
            found = ", ".join(c for c in columns if c) or "none"
            raise InvalidRequest(
                f"{path}: the metadata CSV has no `file` column naming each row's file "
                f"(also read: {', '.join(SIDECAR_FILE_COLUMNS[1:])}; columns found: {found})",
                field="metadata",
            )
        reader.fieldnames = columns
        return list(reader)


def _file_name(row: object) -> str | None:
    if not isinstance(row, dict):
        return None
    for column in SIDECAR_FILE_COLUMNS:
        value = row.get(column)
        if value is not None and str(value).strip():
            return str(value).strip()
    return None


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
