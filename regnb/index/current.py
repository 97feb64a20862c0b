"""The corpus folder, its catalog, and the store of its current version's index.

An open index follows the corpus: before each operation `current()` compares two file stamps
(the corpus manifest's and the index manifest's: a `stat` each; on an object store the corpus
manifest's checksum, read again at most every `regnb.corpus.location.POLL_S` seconds). Documents written to the corpus
since are indexed then (incrementally, by the call that sees them first; calls on other threads
go on with the snapshot they have), and a newer index manifest (another process's update or a
merge) is opened. An update that fails (a full disk, a shard unreadable) is logged and tried
again after a back-off (`RETRY_FIRST_S`, doubling up to `RETRY_MAX_S`), while searches go on
over the snapshot held. Every operation reads one snapshot from start to end. When incremental adds
have left more than `merge_segments` small segments, a thread merges them in the background:
searches go on over the snapshot they hold and see the merged segments once it commits.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from pathlib import Path

import pandas as pd

from regnb.catalog import Catalog, load_catalog
from regnb.corpus import shards
from regnb.corpus.location import Location, location
from regnb.index.build import AUTO_DELETED_SHARE, ensure_index, merge_runs, needs_merge
from regnb.index.store import IndexStore, manifest_stamp
from regnb.settings import Settings

__all__ = ["CorpusIndex"]

log = logging.getLogger("regnb.index.build")

RETRY_FIRST_S = 5.0  # a failed update (disk full, a shard unreadable) is tried again after this,
RETRY_MAX_S = 300.0  # doubling at each failure up to this


class CorpusIndex:
    """A corpus and its index, open for reading. `open` builds the index of the corpus's current
    version the first time any process opens it (under REGNB_HOME/index/)."""

    def __init__(
        self,
        path: Path | Location,
        catalog: Catalog,
        store: IndexStore,
        settings: Settings | None = None,
        *,
        corpus_stamp: Hashable | None = None,
    ) -> None:
        self.location = location(path)
        self.path = path
        self.catalog = catalog
        self.settings = settings
        self._store = store
        self._corpus_stamp = (
            corpus_stamp if corpus_stamp is not None else self.location.stamp(shards.MANIFEST)
        )
        self._refreshing = threading.Lock()
        self.clock: Callable[[], float] = time.monotonic  # the retries' time (tests replace it)
        self.failures = 0  # updates failed in a row since the last one that succeeded
        self._retry_at = 0.0
        self._merging: threading.Thread | None = None
        self._stop = threading.Event()
        self.merges = 0  # runs merged in the background (for tests and logs)

    @classmethod
    def open(
        cls, path: Path | Location, settings: Settings, *, progress: bool = True
    ) -> CorpusIndex:
        loc = location(path)
        catalog = load_catalog(loc)
        stamp = loc.stamp(shards.MANIFEST)  # before: a write meanwhile is seen later
        files = ensure_index(
            loc,
            catalog,
            settings.index_dir,
            progress=progress,
            threads=settings.threads,
            batch_pages=settings.index_batch_pages,
        )
        opened = cls(
            path, catalog, IndexStore(files, threads=settings.threads), settings, corpus_stamp=stamp
        )
        opened.merge_in_background()
        return opened

    @property
    def store(self) -> IndexStore:
        """The index's current snapshot (see `current`)."""
        return self.current()

    def current(self, *, fresh: bool = False) -> IndexStore:
        """The current snapshot: the one held, unless the corpus or the index manifest changed
        since it was opened (two `stat`s). Then the corpus's new documents are indexed and the
        new manifest opened, by this call; calls on other threads meanwhile get the snapshot
        held. A failure is logged and the snapshot held is kept. `fresh`: the corpus manifest
        is read now, even on an object store within its poll interval."""
        store = self._store
        corpus = self.location.stamp(shards.MANIFEST, fresh=fresh)
        index_moved = manifest_stamp(store.files.manifest) != store.stamp
        if corpus == self._corpus_stamp and not index_moved:
            return store
        if not index_moved and self.failures and self.clock() < self._retry_at:
            return store  # the last update failed: tried again after its back-off
        if not self._refreshing.acquire(blocking=False):
            return store
        try:
            return self._refresh(corpus)
        finally:
            self._refreshing.release()

    def _refresh(self, corpus: Hashable | None) -> IndexStore:
        store = self._store
        files = store.files
        threads = self.settings.threads if self.settings else 0
        if corpus != self._corpus_stamp and self.settings is not None:
            try:
                files = ensure_index(
                    self.location,
                    self.catalog,
                    self.settings.index_dir,
                    progress=False,
                    threads=threads,
                    batch_pages=self.settings.index_batch_pages,
                )
            except Exception:
                self.failures += 1
                wait = min(RETRY_MAX_S, RETRY_FIRST_S * 2 ** (self.failures - 1))
                self._retry_at = self.clock() + wait
                log.exception(
                    "%s: the index could not be brought up to date (failure %d; tried again "
                    "in %.0f s, the documents added meanwhile not searchable until then)",
                    self.path,
                    self.failures,
                    wait,
                )
            else:
                if self.failures:
                    log.warning(
                        "%s: the index is up to date again after %d failed tries",
                        self.path,
                        self.failures,
                    )
                self.failures = 0
                self._corpus_stamp = corpus
        if files != store.files or manifest_stamp(files.manifest) != store.stamp:
            try:
                store = IndexStore(files, threads=threads)
            except Exception:
                log.exception("%s: the index's new version could not be opened", files.folder)
                return self._store
            self._store = store  # the snapshot replaced is closed when its last reader is done
            self.merge_in_background()
        return store

    # --- background merging ---

    def merge_in_background(self) -> bool:
        """Start merging the index's small segments in a thread when there are more than
        `merge_segments` of them (and no merge runs already); whether one started."""
        settings = self.settings
        if settings is None or settings.merge_segments <= 0 or self._stop.is_set():
            return False
        if self._merging is not None and self._merging.is_alive():
            return False
        folder = self._store.files.folder
        if not needs_merge(folder, settings.index_batch_pages, settings.merge_segments):
            return False
        self._merging = threading.Thread(
            target=self._merge, args=(folder, settings.index_batch_pages), daemon=True
        )
        self._merging.name = "regnb-merge"
        self._merging.start()
        return True

    def _merge(self, folder: Path, batch_pages: int) -> None:
        try:
            self.merges += merge_runs(
                folder, batch_pages, deleted_share=AUTO_DELETED_SHARE, stop=self._stop
            )
        except Exception:
            log.exception("%s: background merge failed (the index is as it was)", folder)

    def wait_merged(self, timeout: float | None = None) -> bool:
        """Wait for a background merge to end; whether none runs now."""
        thread = self._merging
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    # --- reading ---

    @property
    def folder(self) -> Path:
        """The folder of this corpus version's index."""
        return self._store.files.folder

    def counts(self) -> pd.DataFrame:
        """Documents and pages per dataset of the corpus, in catalog order."""
        found = self.store.rows.counts()
        rows = [(d, *found[d]) for d in self.catalog.ids if d in found]
        frame = pd.DataFrame(rows, columns=["dataset", "documents", "pages"])
        return frame.astype({"documents": "Int64", "pages": "Int64"})

    def close(self) -> None:
        """Stop a background merge after its current run, then close the snapshot held."""
        self._stop.set()
        self.wait_merged()
        self._store.close()
