"""Saved watchlists: one JSON file per name under `REGNB_HOME/watchlists/`, replaced in one
rename, so a reader sees the old watchlist or the new one.

A watchlist holds its definition (the search or firms it watches), when it was created, the time
from which a corpus it has not marked yet reports documents (`since`), and a mark per corpus
(keyed by the corpus's salt): the number of the last commit seen there, and when it was marked.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from regnb.errors import InvalidRequest, NotFound
from regnb.validate import did_you_mean

__all__ = ["NAME", "Mark", "Saved", "WatchDefinition", "WatchlistStore", "check_name"]

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
FORMAT = 1


def check_name(name: object) -> str:
    """A watchlist's name: 1 to 64 letters, digits, `_`, `-` or `.`, starting with a letter or
    digit (it names a file)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InvalidRequest(
            f"a watchlist name is 1 to 64 letters, digits, '_', '-' or '.', starting with a "
            f"letter or digit; got {name!r}",
            field="name",
        )
    return name


def _strings(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise InvalidRequest(f"{where} must be a list of strings", field=where)
    return tuple(value)


@dataclass(frozen=True)
class WatchDefinition:
    """What a watchlist watches: a search (`keywords`, with `query`, `datasets`, `filters`,
    `date_from`, `date_to` as `Engine.search` takes them) and/or `firms` (names or identifiers);
    with both, a document must match the search and be about one of the firms."""

    keywords: tuple[str, ...] = ()
    query: str | None = None
    datasets: tuple[str, ...] | None = None
    filters: Mapping[str, Mapping[str, Any]] | None = None
    firms: tuple[str, ...] = ()
    date_from: str | None = None
    date_to: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The definition as JSON values; empty parts left out."""
        out: dict[str, Any] = {
            "keywords": list(self.keywords),
            "query": self.query,
            "datasets": list(self.datasets) if self.datasets is not None else None,
            "filters": json.loads(json.dumps(self.filters)) if self.filters else None,
            "firms": list(self.firms),
            "date_from": self.date_from,
            "date_to": self.date_to,
        }
        return {k: v for k, v in out.items() if v not in (None, [])}

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> WatchDefinition:
        unknown = set(raw) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        datasets = raw.get("datasets")
        filters = raw.get("filters")
        if filters is not None and not isinstance(filters, dict):
            raise ValueError("filters must be an object")
        for name in ("query", "date_from", "date_to"):
            if raw.get(name) is not None and not isinstance(raw[name], str):
                raise ValueError(f"{name} must be a string")
        return cls(
            keywords=_strings(raw.get("keywords", []), "keywords"),
            query=raw.get("query"),
            datasets=_strings(datasets, "datasets") if datasets is not None else None,
            filters=filters,
            firms=_strings(raw.get("firms", []), "firms"),
            date_from=raw.get("date_from"),
            date_to=raw.get("date_to"),
        )

    def describe(self) -> str:
        """One line: `keywords "media fill" | firms Hospira | datasets fda_483`."""
        parts = []
        if self.keywords:
            parts.append("keywords " + ", ".join(json.dumps(k) for k in self.keywords))
        if self.query:
            parts.append(f"query {json.dumps(self.query)}")
        if self.firms:
            parts.append("firms " + ", ".join(self.firms))
        if self.datasets:
            parts.append("datasets " + ", ".join(self.datasets))
        if self.filters:
            parts.append("filters " + json.dumps(self.filters, sort_keys=True))
        if self.date_from or self.date_to:
            parts.append(f"dates {self.date_from or '…'} to {self.date_to or '…'}")
        return " | ".join(parts)


@dataclass(frozen=True)
class Mark:
    """A corpus marked seen: the number of its last commit then, and when (ISO 8601 UTC)."""

    commit: int
    at: str


@dataclass(frozen=True)
class Saved:
    """A watchlist as saved: name, definition, `created` and `since` (ISO 8601 UTC), and the
    mark of each corpus it has marked seen, by the corpus's salt."""

    name: str
    definition: WatchDefinition
    created: str
    since: str
    marks: Mapping[str, Mark] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "name": self.name,
            "definition": self.definition.to_dict(),
            "created": self.created,
            "since": self.since,
            "seen": {salt: {"commit": m.commit, "at": m.at} for salt, m in self.marks.items()},
        }

    @classmethod
    def from_dict(cls, raw: Any) -> Saved:
        if not isinstance(raw, dict) or raw.get("format") != FORMAT:
            raise ValueError(f"not a watchlist of format {FORMAT}")
        seen = raw.get("seen", {})
        if not isinstance(seen, dict):
            raise ValueError("seen must be an object")
        marks = {}
        for salt, mark in seen.items():
            if not isinstance(mark, dict) or not isinstance(mark.get("commit"), int):
                raise ValueError(f"seen.{salt} must hold an integer commit")
            marks[salt] = Mark(mark["commit"], str(mark.get("at", "")))
        for name in ("name", "created", "since"):
            if not isinstance(raw.get(name), str):
                raise ValueError(f"{name} must be a string")
        definition = raw.get("definition")
        if not isinstance(definition, dict):
            raise ValueError("definition must be an object")
        return cls(
            raw["name"],
            WatchDefinition.from_dict(definition),
            raw["created"],
            raw["since"],
            marks,
        )


class WatchlistStore:
    """The watchlists saved in one folder (`REGNB_HOME/watchlists`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def path(self, name: str) -> Path:
        return self.folder / f"{check_name(name)}.json"

    def names(self) -> list[str]:
        """The saved names, sorted."""
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.json") if NAME.fullmatch(p.stem))

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    def load(self, name: str) -> Saved:
        """The saved watchlist; NotFound lists the saved names."""
        path = self.path(name)
        if not path.is_file():
            raise NotFound(self._unknown(name), field="name")
        try:
            return Saved.from_dict(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, InvalidRequest) as exc:
            reason = exc.message if isinstance(exc, InvalidRequest) else str(exc)
            raise InvalidRequest(
                f"{path} is not a readable watchlist ({reason}); save it again or remove it",
                field="name",
            ) from None

    def save(self, saved: Saved) -> None:
        """Write the watchlist in one rename."""
        path = self.path(saved.name)
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f".{saved.name}.{secrets.token_hex(4)}.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            json.dump(saved.to_dict(), handle, indent=1, ensure_ascii=False)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)

    def remove(self, name: str) -> None:
        path = self.path(name)
        if not path.is_file():
            raise NotFound(self._unknown(name), field="name")
        path.unlink()

    def _unknown(self, name: str) -> str:
        names: Sequence[str] = self.names()
        if not names:
            return f"no watchlist {name!r}; none is saved yet (create one with Engine.watch)"
        hint = did_you_mean(name, names)
        return f"no watchlist {name!r}{hint}; saved: {', '.join(names)}"
