"""Which processes are alive: each store handle holds an exclusive lock on its own file.

A run records the id of the handle that runs it. The operating system releases a process's locks
when it dies, however it dies (SIGKILL included), so a lock that can be taken belongs to a
process that is gone, and its running turns were interrupted. Process ids are not used: they are
reused, and several live processes may share one store.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: only a cleanly closed owner reads as gone
    fcntl = None  # type: ignore[assignment]

__all__ = ["OwnerLock", "owner_alive"]


def _path(folder: Path, owner: str) -> Path:
    return folder / f"{owner}.lock"


class OwnerLock:
    """This handle's liveness lock, held from creation until `release()` or process exit."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.id = "own_" + secrets.token_hex(8)
        self.path = _path(folder, self.id)
        self._fd: int | None = os.open(self.path, os.O_CREAT | os.O_RDWR, 0o600)
        if fcntl is not None:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.write(self._fd, f"{os.getpid()}\n".encode())

    def release(self) -> None:
        """Give the lock up: this owner reads as gone from now on."""
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None


def owner_alive(folder: Path, owner: str) -> bool:
    """Whether the handle `owner` is still held by a live process (this one included)."""
    path = _path(folder, owner)
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        if fcntl is None:  # pragma: no cover
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        path.unlink(missing_ok=True)
        return False
    finally:
        os.close(fd)
