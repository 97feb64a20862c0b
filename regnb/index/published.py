"""An index published inside its corpus, so that serving replicas and notebooks download it
rather than build it (`regnb index --publish`).

    <corpus>/_index/v<INDEX_VERSION>/<corpus fingerprint>/
        published.json    written last: the index manifest and each file's size and SHA-256
        seg-<id>/...      the files the index manifest names, as in the local index folder
        terms-<gen>.arrow, df-<gen>.npy, deleted-<gen>-<segment>.npy

A download goes to a hidden folder inside the local index folder, under the index's lock; each
file's checksum is checked; the files are then renamed into the folder under names no current
file has, and the local manifest is replaced last. A download killed at any point leaves files
that no manifest names, which the next writer removes: the old index, or none, is what an engine
finds. A published index that fails its checks is not used: the index is built instead.
"""

from __future__ import annotations

import json
import logging
import secrets
import shutil
from dataclasses import asdict, replace
from pathlib import Path, PurePosixPath
from typing import Any

from tqdm.auto import tqdm

from regnb.corpus import shards
from regnb.corpus.location import Location, file_sha256
from regnb.errors import CorpusError
from regnb.index import segments
from regnb.index.build import INDEX_VERSION, IndexState, SegmentEntry, locked, remove_unnamed
from regnb.settings import show_progress

__all__ = ["PUBLISHED", "download_index", "publish_index", "published_prefix"]

PUBLISHED = "published.json"
DOWNLOAD_PREFIX = ".download-"

log = logging.getLogger("regnb.index.build")


def published_prefix(fingerprint: str) -> str:
    """Where in the corpus the index of the corpus version `fingerprint` is published."""
    return f"_index/v{INDEX_VERSION}/{fingerprint}"


def _named_files(folder: Path, state: IndexState) -> list[str]:
    """Every file the index manifest names (a segment is a folder of files), relative."""
    out = []
    for name in state.files():
        path = folder / name
        if path.is_dir():
            out += [
                p.relative_to(folder).as_posix() for p in sorted(path.rglob("*")) if p.is_file()
            ]
        else:
            out.append(name)
    return out


def publish_index(loc: Location, folder: Path, *, progress: bool = True) -> str:
    """Copy the index in `folder` into the corpus at `loc`, `published.json` last; returns the
    URL (or path) of the published index."""
    state = IndexState.load(folder)
    if state is None or not state.fingerprint:
        raise CorpusError(f"{folder}: there is no index to publish")
    prefix = published_prefix(state.fingerprint)
    names = _named_files(folder, state)
    listing: dict[str, dict[str, Any]] = {}
    bar = tqdm(
        total=sum((folder / n).stat().st_size for n in names),
        unit="B",
        unit_scale=True,
        desc="publishing index",
        disable=not show_progress(progress),
    )
    try:
        for name in names:
            path = folder / name
            listing[name] = {"size": path.stat().st_size, "sha256": file_sha256(path)}
            loc.upload(path, f"{prefix}/{name}")
            bar.update(listing[name]["size"])
    finally:
        bar.close()
    body = {"index": asdict(state), "files": listing}
    loc.write_bytes(f"{prefix}/{PUBLISHED}", json.dumps(body, indent=1).encode("utf-8"))
    return loc.where(prefix)


def _read_published(loc: Location, manifest: shards.Manifest) -> tuple[IndexState, dict[str, Any]]:
    """The published index of the corpus's current version and its file list (ValueError
    where it is not usable; FileNotFoundError where there is none)."""
    where = f"{published_prefix(manifest.fingerprint())}/{PUBLISHED}"
    raw = json.loads(loc.read_bytes(where).decode("utf-8"))
    index, files = raw["index"], raw["files"]
    if index.get("version") != INDEX_VERSION:
        raise ValueError(f"index version {index.get('version')}, this regnb reads {INDEX_VERSION}")
    index["segments"] = [SegmentEntry(**s) for s in index["segments"]]
    state = IndexState(**index)
    if state.fingerprint != manifest.fingerprint():
        raise ValueError("it is the index of another version of the corpus")
    if (state.encoder, state.dim) != (manifest.encoder["name"], manifest.dim):
        raise ValueError("it was built with another encoder")
    for name, meta in files.items():
        rel = PurePosixPath(name)
        if rel.is_absolute() or ".." in rel.parts or rel.parts[0] not in state.files():
            raise ValueError(f"it names a file outside the index: {name!r}")
        if not isinstance(meta.get("size"), int) or not isinstance(meta.get("sha256"), str):
            raise ValueError(f"{name}: size and sha256 are missing")
    missing = set(state.files()) - {PurePosixPath(name).parts[0] for name in files}
    if missing:
        raise ValueError(f"it lists no files of {sorted(missing)}")
    return state, files


def download_index(
    loc: Location, folder: Path, manifest: shards.Manifest, *, progress: bool = True
) -> bool:
    """Download the corpus's published index of its current version into `folder` (whether
    there was one to download). A published index that fails its checks is logged and left."""
    try:
        published, files = _read_published(loc, manifest)
    except FileNotFoundError:
        return False
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("%s: the published index is not used: %s", loc, exc)
        return False
    with locked(folder):
        current = IndexState.load(folder)
        if current is not None and current.fingerprint == published.fingerprint:
            return True  # another process downloaded it meanwhile
        remove_unnamed(folder, current)
        staging = folder / f"{DOWNLOAD_PREFIX}{secrets.token_hex(4)}"
        try:
            if not _fetch(loc, published, files, staging, progress):
                return False
            _install(folder, staging, published, current)
        except BaseException:
            remove_unnamed(folder, IndexState.load(folder))  # nothing of it survives
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return True


def _fetch(
    loc: Location,
    published: IndexState,
    files: dict[str, Any],
    staging: Path,
    progress: bool,
) -> bool:
    """Download the files into `staging`, each checked (whether all were as listed)."""
    prefix = published_prefix(published.fingerprint)
    bar = tqdm(
        total=sum(m["size"] for m in files.values()),
        unit="B",
        unit_scale=True,
        desc="downloading index",
        disable=not show_progress(progress),
    )
    try:
        for name, meta in files.items():
            target = staging / name
            digest = loc.download(f"{prefix}/{name}", target, bar.update)
            if digest != meta["sha256"] or target.stat().st_size != meta["size"]:
                log.warning("%s: %s differs from its listing; building instead", loc, name)
                return False
    finally:
        bar.close()
    return True


def _install(
    folder: Path, staging: Path, published: IndexState, current: IndexState | None
) -> None:
    """Rename the downloaded files into `folder` under names no current file has (a new
    generation), then replace the manifest: the commit point."""
    generation = max(published.generation, current.generation if current else 0) + 1
    moves: dict[str, str] = {}
    entries = []
    for entry in published.segments:
        seg_id = entry.id if not (folder / entry.id).exists() else segments.new_segment_id()
        moves[entry.id] = seg_id
        deleted = None
        if entry.deleted:
            deleted = f"deleted-{generation}-{seg_id}.npy"
            moves[entry.deleted] = deleted
        entries.append(replace(entry, id=seg_id, deleted=deleted))
    terms = f"terms-{generation}.arrow" if published.terms else None
    df = f"df-{generation}.npy" if published.df else None
    if published.terms and terms:
        moves[published.terms] = terms
    if published.df and df:
        moves[published.df] = df
    for old, new in moves.items():
        (staging / old).replace(folder / new)
    state = replace(
        published,
        generation=generation,
        segments=entries,
        terms=terms,
        df=df,
        previous=sorted(current.files()) if current else [],
    )
    state.save(folder)
    remove_unnamed(folder, state)
