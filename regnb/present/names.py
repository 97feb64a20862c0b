"""Dataset names as a person reads them, from one catalog: the engine's own (a corpus can add
datasets to the package's list), handed to each result by the engine or client that made it."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from regnb.catalog import Dataset

__all__ = ["DatasetNames", "names_or_package", "package_names"]


class DatasetNames:
    """`names(dataset_id)`: the catalog's display name, the id itself where the catalog lacks it.

    Built from a catalog (`DatasetNames.of(catalog)`), a mapping, or a `load` function called
    once, on first use (a remote client's catalog is fetched only when something is shown)."""

    def __init__(
        self,
        names: Mapping[str, str] | None = None,
        *,
        load: Callable[[], Mapping[str, str]] | None = None,
    ) -> None:
        self._names = dict(names) if names is not None else None
        self._load = load
        self._lock = threading.Lock()

    @classmethod
    def of(cls, catalog: Iterable[Dataset]) -> DatasetNames:
        """The names of a catalog's datasets."""
        return cls({d.id: d.name for d in catalog})

    def mapping(self) -> dict[str, str]:
        """Every name known, by dataset id."""
        with self._lock:
            if self._names is None:
                self._names = dict(self._load() if self._load is not None else {})
            return dict(self._names)

    def __call__(self, dataset_id: str) -> str:
        return self.mapping().get(dataset_id, dataset_id)

    def __repr__(self) -> str:
        known = "not loaded" if self._names is None else f"{len(self._names)} datasets"
        return f"<DatasetNames: {known}>"


@functools.cache
def package_names() -> DatasetNames:
    """The package catalog's names: for a result built from JSON by hand, which no engine made."""
    from regnb.catalog import load_catalog

    return DatasetNames.of(load_catalog())


def names_or_package(names: DatasetNames | None) -> DatasetNames:
    """`names`, or the package catalog's where a result came without any."""
    return names if names is not None else package_names()
