"""The code of what a SearchPanel shows: the exact `eng.search(...)` and `eng.facets(...)` calls
for its state, as text a notebook can take over (the "Code" button)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LINE_CHARS", "SearchState", "search_code"]

LINE_CHARS = 88
DEFAULT_LIMIT = 20


@dataclass(frozen=True)
class SearchState:
    """A search as the panel has it: the arguments of `engine.search` and the facets shown."""

    keywords: tuple[str, ...]
    query: str | None = None
    datasets: tuple[str, ...] | None = None
    filters: Mapping[str, Mapping[str, Any]] | None = None
    date_from: str | None = None
    date_to: str | None = None
    sort: str = "relevance"
    limit: int = DEFAULT_LIMIT
    facets: tuple[str | Mapping[str, Any], ...] = field(default=())

    @classmethod
    def of(
        cls,
        request: Mapping[str, Any],
        *,
        sort: str = "relevance",
        limit: int = DEFAULT_LIMIT,
        facets: Sequence[str | Mapping[str, Any]] = (),
    ) -> SearchState:
        """The state of a panel's `request()` (keyword arguments of `engine.search`)."""
        datasets = request.get("datasets")
        return cls(
            keywords=tuple(request["keywords"]),
            query=request.get("query"),
            datasets=None if datasets is None else tuple(datasets),
            filters=request.get("filters"),
            date_from=request.get("date_from"),
            date_to=request.get("date_to"),
            sort=sort,
            limit=limit,
            facets=tuple(facets),
        )


def _plain(value: Any) -> Any:
    """Tuples as lists and mappings as dicts, so that the code reads as a user writes it."""
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def _call(target: str, positional: list[Any], named: list[tuple[str, Any]]) -> str:
    """`target(...)` on one line when it fits, else one argument a line."""
    args = [repr(_plain(v)) for v in positional] + [f"{k}={_plain(v)!r}" for k, v in named]
    line = f"{target}({', '.join(args)})"
    if len(line) <= LINE_CHARS:
        return line
    return target + "(\n" + "".join(f"    {a},\n" for a in args) + ")"


def _where(state: SearchState) -> list[tuple[str, Any]]:
    """The arguments that say where to search, those left at their defaults left out."""
    named: list[tuple[str, Any]] = [("datasets", state.datasets), ("filters", state.filters)]
    named += [("date_from", state.date_from), ("date_to", state.date_to)]
    return [(k, v) for k, v in named if v]


def _facet_names(facets: Sequence[str | Mapping[str, Any]]) -> tuple[list[str], int | None]:
    """The facets by name, and the one size they share where one is given."""
    names = [f if isinstance(f, str) else str(f["name"]) for f in facets]
    sizes = [int(f["size"]) for f in facets if isinstance(f, Mapping) and "size" in f]
    return names, (max(sizes) if sizes else None)


def search_code(state: SearchState) -> str:
    """`res = eng.search(...)` for the state (and `counts = eng.facets(...)` when facets are
    shown): valid Python, defaults left out, values as Python literals."""
    positional: list[Any] = [list(state.keywords)]
    if state.query:
        positional.append(state.query)
    named = _where(state)
    if state.sort != "relevance":
        named.append(("sort", state.sort))
    if state.limit != DEFAULT_LIMIT:
        named.append(("limit", state.limit))
    lines = [_call("res = eng.search", positional, named)]
    if state.facets:
        names, size = _facet_names(state.facets)
        by = [("by", names), *_where(state)]
        if size is not None:
            by.append(("size", size))
        lines.append(_call("counts = eng.facets", positional, by))
    return "\n".join(lines) + "\n"
