"""The damaged segments of an index, and their repair. `check_index` hashes every segment's files
against the checksums written with them (`regnb.index.checksums`): what `regnb index --check`
reports. `repair_index` rebuilds the damaged segments from the corpus shards they were built from,
leaving the sound ones as they are: what `regnb index` does first.

A repair takes the damaged segments out of the index under its lock: the documents of their
shards are marked deleted in any other segment holding some (a shard changed since may have its
documents there), the corpus statistics lose the segments' live pages (read from their own files
where these are sound, else counted again over the other segments), and the manifest is committed
without them and without their shards. The index is then brought up to the corpus as after any
change: the shards it lacks are indexed again into new segments (`update_index`), which take the
place of the first damaged one. Every page scores what it scored before the damage; where one
segment was built from a batch of shards and never merged, pages keep their order too.

A segment written before checksums were recorded is checked by opening it, and gets its
checksums (of its files as they are then) from the repair.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import numpy as np
from tqdm.auto import tqdm

from regnb.catalog import load_catalog
from regnb.corpus import shards
from regnb.corpus.location import location
from regnb.index import build, segments
from regnb.index.checksums import (
    FILES,
    SUMMARY,
    Damage,
    check_segment,
    damage_of,
    file_checksums,
    found_damage,
    read_summary,
)
from regnb.settings import Settings, show_progress

__all__ = ["Damage", "check_index", "check_segment", "corpus_index", "repair_index"]

STATISTICS = (
    "pages.npz",
    "post_terms.npy",
    "post_offsets.npy",
    "post_gaps.npy",
    "post_gaps_big.npy",
)


def corpus_index(corpus: shards.Corpus | None = None) -> Path | None:
    """The folder of a corpus's index under REGNB_HOME (default: the demo corpus), None where
    it has none (or there is no corpus)."""
    from regnb.corpus.demo import demo_corpus_path

    loc = location(corpus if corpus is not None else demo_corpus_path())
    manifest = shards.Manifest.load(loc)
    if manifest is None:
        return None
    folder = build.index_folder(Settings.from_env().index_dir, manifest, loc)
    return folder if build.IndexState.load(folder) is not None else None


def check_index(folder: Path, *, progress: bool = False) -> list[Damage]:
    """The damaged segments of the index in `folder`, every file hashed (a segment without
    checksums: opened)."""
    state = build.IndexState.load(folder)
    found: list[Damage] = []
    if state is None:
        return found
    for entry in tqdm(
        state.segments, desc="checking index", unit="segment", disable=not show_progress(progress)
    ):
        damage = _check(folder / entry.id)
        if damage is not None:
            found.append(damage)
    return found


def _check(folder: Path) -> Damage | None:
    damage = damage_of(folder, full=True)
    if damage is not None or _checksummed(folder):
        return damage
    try:
        segments.Segment(folder)
    except Exception as exc:
        return found_damage(folder, [f"cannot be opened ({exc})"])
    return None


def _checksummed(folder: Path) -> bool:
    try:
        return isinstance(read_summary(folder).get(FILES), dict)
    except Exception:
        return False


def repair_index(corpus: shards.Corpus | None = None, *, progress: bool = True) -> list[str]:
    """Rebuild the damaged segments of a corpus's index (default: the demo corpus) under
    REGNB_HOME from the corpus's shards, and record checksums for the segments written before
    them; returns the segments rebuilt. An index not built yet is left to be built."""
    from regnb.corpus.demo import demo_corpus_path

    loc = location(corpus if corpus is not None else demo_corpus_path())
    folder = corpus_index(loc)
    if folder is None:
        return []
    with build.locked(folder):
        state = build.IndexState.load(folder)
        if state is None:
            return []
        damaged = check_index(folder, progress=progress)
        add_checksums(folder, state, skip={d.segment for d in damaged})
        if not damaged:
            return []
        out = {d.segment for d in damaged}
        at = next(i for i, e in enumerate(state.segments) if e.id in out)
        sound = [e.id for e in state.segments if e.id not in out]
        _take_out(folder, state, damaged)
    settings = Settings.from_env()
    build.update_index(
        loc,
        load_catalog(loc),
        folder,
        progress=progress,
        threads=settings.threads,
        batch_pages=settings.index_batch_pages,
    )
    _put_back(folder, at, set(sound))
    return [d.segment for d in damaged]


def _put_back(folder: Path, at: int, sound: set[str]) -> None:
    """Move the segments rebuilt (those not `sound`) to where the first damaged one was, so
    that pages keep their order (and documents of equal score theirs)."""
    with build.locked(folder):
        state = build.IndexState.load(folder)
        if state is None:
            return
        kept = [e for e in state.segments if e.id in sound]
        new = [e for e in state.segments if e.id not in sound]
        state.segments = kept[:at] + new + kept[at:]
        build.SegmentWriter(folder, state).commit()


def add_checksums(folder: Path, state: build.IndexState, *, skip: set[str]) -> None:
    """Give each segment written before checksums (but those in `skip`) its skip entries and
    the checksums of its files as they are, its summary replaced in one rename. Call under the
    lock."""
    for entry in state.segments:
        seg_folder = folder / entry.id
        if entry.id in skip or _checksummed(seg_folder) or not os.access(seg_folder, os.W_OK):
            continue
        segments.Segment(seg_folder).blocks()  # saved: the checksums cover them
        summary = read_summary(seg_folder)
        summary[FILES] = file_checksums(seg_folder)
        tmp = seg_folder / f".{SUMMARY}.{secrets.token_hex(4)}.tmp"
        tmp.write_text(json.dumps(summary), encoding="utf-8")
        os.replace(tmp, seg_folder / SUMMARY)


def _take_out(folder: Path, state: build.IndexState, damaged: list[Damage]) -> None:
    """Commit the index without the damaged segments and their shards' documents (see the
    module's docstring). Call under the lock."""
    writer = build.SegmentWriter(folder, state)
    out = {d.segment: d for d in damaged}
    out_shards = {s for e in state.segments if e.id in out for s in e.shards}
    recount = False
    for entry in state.segments:
        if entry.id in out:
            own = _own_statistics(folder / entry.id, out[entry.id], writer.deleted.get(entry.id))
            if own is None:
                recount = True
            else:
                writer.forget(*own)
    for i, entry in enumerate(state.segments):
        if entry.id in out or out_shards.isdisjoint(entry.shards):
            continue
        seg = segments.Segment(folder / entry.id)
        shard_of = seg.doc_column("shard_id").to_numpy(zero_copy_only=False)
        writer.delete(i, np.flatnonzero(np.isin(shard_of, list(out_shards))).astype(np.int32))
    state.segments = [e for e in state.segments if e.id not in out]
    for seg_id in out:
        writer.deleted.pop(seg_id, None)
    for shard_id in out_shards:
        state.shards.pop(shard_id, None)
    if recount:
        writer.recount()
    writer.dirty_terms = True
    state.fingerprint = ""  # the shards taken out are indexed again by the next update
    writer.commit()


def _own_statistics(
    folder: Path, damage: Damage, deleted: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """What a damaged segment's live pages count in the statistics (their terms' ids, pages per
    term, lengths), read from its own files; None unless those files are checked sound."""
    if not _checksummed(folder) or any(p.split(" ")[0] in STATISTICS for p in damage.problems):
        return None
    with np.load(folder / "pages.npz") as pages:
        page_doc, page_dl = pages["doc"], pages["dl"]
    terms = np.load(folder / "post_terms.npy")
    offsets = np.load(folder / "post_offsets.npy")
    on_page = segments.posting_pages(segments.SmallInts(folder, "post_gaps"), offsets)
    live = np.ones(int(read_summary(folder)["docs"]), bool)
    if deleted is not None:
        live[deleted] = False
    page_live = live[page_doc]
    ids, counts = np.unique(
        np.repeat(terms, np.diff(offsets))[page_live[on_page]], return_counts=True
    )
    return ids.astype(np.int64), counts.astype(np.int64), page_dl[page_live]
