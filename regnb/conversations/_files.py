"""Produced files on disk: written private to the account that runs the server, read back with a
clear `not_found` when one was deleted, and marked in a listing when they are gone.

The store's databases and the signing secret are mode 0600; a produced Word, Excel, PowerPoint
or PNG file holds the same account's research, so it is 0600 too, in a run folder of mode 0700.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from regnb.errors import NotFound

__all__ = ["FILE_MODE", "FOLDER_MODE", "mark_gone", "read_produced", "write_produced"]

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def write_produced(folder: Path, name: str, data: bytes) -> Path:
    """`folder/name` holding `data`, mode 0600, in place at once (a temporary name, then a
    rename); `folder` is made with mode 0700 if it is new."""
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    final = folder / name
    tmp = folder / f".{name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, final)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return final


def _gone(row: dict[str, Any]) -> NotFound:
    return NotFound(
        f"the file of document {row['document_id']!r} ({row.get('filename') or row['title']}) "
        "is no longer on the server: it was deleted from disk; ask for it again in a new message"
    )


def read_produced(root: Path, row: dict[str, Any]) -> bytes:
    """The bytes of a produced file or image; NotFound when its file was deleted."""
    path: Path = root / row["path"]
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise _gone(row) from None


def mark_gone(root: Path, rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Document rows, a file or image whose file is missing with `available` False."""
    out = []
    for row in rows:
        path = row.get("path")
        if row.get("type") != "text" and path and not (root / path).is_file():
            row = {**row, "available": False}
        out.append(row)
    return out
