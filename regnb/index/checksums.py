"""A segment's files as they were written: each file's size and sha256 in its `segment.json`
(`files`), checked in two ways. `check_segment(folder)` is cheap (a `stat` per file: each there,
of its size) and runs whenever an index is opened; `check_segment(folder, full=True)` hashes
every byte and runs for `regnb index --check`, before `regnb index` repairs, and when a read
of the segment fails. Page texts also carry a CRC-32 per compressed block (`TEXT_CRC`), checked
as each block is read, so that overwritten bytes fail the read instead of showing garbage.

A segment written before checksums were recorded (no `files`) has nothing to compare and
passes; `regnb index` records them (`regnb.index.health.add_checksums`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from regnb import text
from regnb.corpus.location import file_sha256
from regnb.errors import IndexDamaged

__all__ = [
    "REPAIR",
    "SUMMARY",
    "TEXT_CRC",
    "Damage",
    "check_segment",
    "damage_of",
    "file_checksums",
    "found_damage",
    "read_summary",
    "segment_datasets",
]

SUMMARY = "segment.json"
FILES = "files"  # the summary's key: {name: {"size": bytes, "sha256": hex}}
TEXT_CRC = "text_crc.npy"  # CRC-32 of each compressed block of texts.bin
REPAIR = "run `regnb index` to repair"


def file_checksums(folder: Path) -> dict[str, dict[str, Any]]:
    """Size and sha256 of each file of a written segment but its summary."""
    return {
        p.name: {"size": p.stat().st_size, "sha256": file_sha256(p)}
        for p in sorted(folder.iterdir())
        if p.is_file() and p.name != SUMMARY
    }


def read_summary(folder: Path) -> dict[str, Any]:
    """A segment's `segment.json`; IndexDamaged where it is missing or unreadable."""
    try:
        summary = json.loads((folder / SUMMARY).read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise IndexDamaged.of(folder.name, f"{SUMMARY} missing") from exc
    except (OSError, ValueError) as exc:
        raise IndexDamaged.of(folder.name, f"{SUMMARY} unreadable ({exc})") from exc
    if not isinstance(summary, dict):
        raise IndexDamaged.of(folder.name, f"{SUMMARY} unreadable (not an object)")
    return summary


def check_segment(folder: Path, *, full: bool = False) -> list[str]:
    """What is wrong with a segment's files, one problem per file (`texts.bin truncated`);
    empty where nothing is found. `full`: every file hashed, else only its presence and
    size checked."""
    try:
        summary = read_summary(folder)
    except IndexDamaged as exc:
        return [exc.problem]
    files = summary.get(FILES)
    if not isinstance(files, dict):
        return []  # written before checksums: nothing to compare
    problems = []
    for name, want in sorted(files.items()):
        problem = _check_file(folder / name, want, full)
        if problem:
            problems.append(f"{name} {problem}")
    return problems


def _check_file(path: Path, want: dict[str, Any], full: bool) -> str | None:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    if size < want["size"]:
        return "truncated"
    if size > want["size"]:
        return "of the wrong size"
    if full:
        try:
            digest = file_sha256(path)
        except OSError as exc:
            return f"unreadable ({exc.strerror})"
        if digest != want["sha256"]:
            return "corrupted"
    return None


def segment_datasets(folder: Path) -> list[str] | None:
    """The datasets a segment holds documents of: from its summary, else from its metadata
    database; None where neither can be read."""
    try:
        return [str(d) for d in read_summary(folder)["datasets"]]
    except (IndexDamaged, KeyError, TypeError):
        pass
    try:
        con = text.connect(str(folder / "meta.duckdb"), read_only=True)
    except Exception:
        return None
    try:
        rows = con.execute("SELECT DISTINCT dataset FROM docs ORDER BY dataset").fetchall()
        return [str(r[0]) for r in rows]
    except Exception:
        return None
    finally:
        con.close()


@dataclass(frozen=True)
class Damage:
    """A damaged segment: what is wrong with its files, and the datasets it holds documents of
    (None where they cannot be read: then any dataset may be incomplete)."""

    segment: str
    problems: tuple[str, ...]
    datasets: tuple[str, ...] | None

    @property
    def error(self) -> IndexDamaged:
        return IndexDamaged.of(self.segment, ", ".join(self.problems))

    @property
    def reason(self) -> str:
        """What a dataset's status says: the segment, its problems and the repair."""
        return self.error.message

    def holds(self, dataset: str) -> bool:
        return self.datasets is None or dataset in self.datasets


def damage_of(folder: Path, *, full: bool = False) -> Damage | None:
    """The segment's damage (`check_segment`), or None where none is found."""
    problems = check_segment(folder, full=full)
    if not problems:
        return None
    return found_damage(folder, problems)


def found_damage(folder: Path, problems: list[str]) -> Damage:
    """A segment's damage from its problems, with the datasets it holds."""
    datasets = segment_datasets(folder)
    return Damage(folder.name, tuple(problems), None if datasets is None else tuple(datasets))
