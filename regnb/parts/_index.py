"""The corpus folder, its catalog, and the store of its current version's index."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from regnb.catalog import Catalog, load_catalog
from regnb.index import ensure_index
from regnb.settings import Settings
from regnb.store import IndexStore

__all__ = ["CorpusIndex"]


class CorpusIndex:
    """A corpus and its index, open for reading. `open` builds the index of the corpus's current
    version the first time any process opens it (under REGNB_HOME/index/)."""

    def __init__(self, path: Path, catalog: Catalog, store: IndexStore) -> None:
        self.path = path
        self.catalog = catalog
        self.store = store

    @classmethod
    def open(cls, path: Path, settings: Settings, *, progress: bool = True) -> CorpusIndex:
        catalog = load_catalog(path)
        files = ensure_index(
            path,
            catalog,
            settings.index_dir,
            progress=progress,
            threads=settings.threads,
            batch_pages=settings.index_batch_pages,
        )
        return cls(path, catalog, IndexStore(files, threads=settings.threads))

    @property
    def folder(self) -> Path:
        """The folder of this corpus version's index."""
        return self.store.files.folder

    def counts(self) -> pd.DataFrame:
        """Documents and pages per dataset of the corpus, in catalog order."""
        found = self.store.counts()
        rows = [(d, *found[d]) for d in self.catalog.ids if d in found]
        frame = pd.DataFrame(rows, columns=["dataset", "documents", "pages"])
        return frame.astype({"documents": "Int64", "pages": "Int64"})

    def close(self) -> None:
        self.store.close()
