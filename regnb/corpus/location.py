"""Where a corpus lives: a local folder, or a prefix on an object store (`s3://bucket/prefix`, or
any fsspec URL), with the few file operations the corpus code needs.

    location(x)     a `Location` from a path, a `file://` URL or an object-store URL
    LocalFolder     a folder: a write is a temporary file and one rename, as it always was
    StoreFolder     a prefix on a pyarrow FileSystem (S3 natively, other schemes through fsspec):
                    a write is one PUT, atomic on its own; there is no rename and no lock

S3 takes its options from the environment, as pyarrow and boto read them (AWS_ENDPOINT_URL,
AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_PROFILE). An unknown scheme, a missing
bucket and denied access are errors naming the corpus (`field="corpus"`).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from regnb.errors import CorpusError, Forbidden, InvalidRequest, NotFound

__all__ = [
    "POLL_S",
    "FileStat",
    "LocalFolder",
    "Location",
    "StoreFolder",
    "corpus_argument",
    "corpus_options",
    "file_sha256",
    "is_url",
    "location",
    "storage_error",
]

POLL_S = 2.0  # an object store's manifest is read again at most this often to see a change
CHUNK = 1 << 20
_DENIED = ("ACCESS_DENIED", "AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch")


@dataclass(frozen=True)
class FileStat:
    """A file of a location: its path relative to the location, size, and time (epoch s)."""

    rel: str
    size: int
    mtime: float


class Location(ABC):
    """A corpus's folder: local, or a prefix on an object store. Paths are relative, with `/`."""

    url: str

    def __str__(self) -> str:
        return self.url

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"

    @property
    def local(self) -> Path | None:
        """The folder, for a local location; None on an object store."""
        return None

    @abstractmethod
    def where(self, rel: str) -> str:
        """A file's name for messages: its path, or its URL."""

    @abstractmethod
    def size(self, rel: str) -> int | None:
        """A file's size; None where there is no such file."""

    @abstractmethod
    def read_bytes(self, rel: str) -> bytes:
        """A file's content (FileNotFoundError where there is none)."""

    @abstractmethod
    def read_parquet(self, rel: str, columns: list[str] | None = None) -> pa.Table:
        """A Parquet file's columns (only those read, where the store allows ranges)."""

    @abstractmethod
    def write_bytes(self, rel: str, data: bytes) -> None:
        """Write a file whole: a reader sees the old content or the new, never a part."""

    @abstractmethod
    def files(self, under: str = "") -> list[FileStat]:
        """The files under a folder of the location, at any depth (none where it is missing)."""

    @abstractmethod
    def delete(self, rel: str) -> None:
        """Delete a file (nothing where it is missing)."""

    @abstractmethod
    def download(self, rel: str, target: Path, progress: Callable[[int], object]) -> str:
        """Copy a file to a local path, calling `progress` with each block's size; returns its
        SHA-256."""

    @abstractmethod
    def upload(self, source: Path, rel: str) -> None:
        """Copy a local file to the location (a whole write, as `write_bytes`)."""

    @abstractmethod
    def stamp(self, rel: str, *, fresh: bool = False) -> Hashable | None:
        """What tells one version of a file from the next (None where there is none); `fresh`:
        read now, whatever a store's poll interval says."""

    def exists(self, rel: str) -> bool:
        return self.size(rel) is not None

    def sha256(self, rel: str) -> str:
        return hashlib.sha256(self.read_bytes(rel)).hexdigest()


class LocalFolder(Location):
    """A corpus folder on this machine's disks."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.url = str(folder)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LocalFolder) and other.folder == self.folder

    def __hash__(self) -> int:
        return hash(self.folder)

    @property
    def local(self) -> Path:
        return self.folder

    def where(self, rel: str) -> str:
        return str(self.folder / rel)

    def size(self, rel: str) -> int | None:
        path = self.folder / rel
        return path.stat().st_size if path.is_file() else None

    def read_bytes(self, rel: str) -> bytes:
        return (self.folder / rel).read_bytes()

    def sha256(self, rel: str) -> str:
        return file_sha256(self.folder / rel)

    def read_parquet(self, rel: str, columns: list[str] | None = None) -> pa.Table:
        return pq.read_table(self.folder / rel, columns=columns)

    def write_bytes(self, rel: str, data: bytes) -> None:
        """A temporary file beside the target, flushed to disk, then one rename."""
        path = self.folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)

    def files(self, under: str = "") -> list[FileStat]:
        root = self.folder / under
        if not root.is_dir():
            return []
        out = []
        for path in sorted(root.rglob("*")):
            if path.is_file():
                st = path.stat()
                rel = path.relative_to(self.folder).as_posix()
                out.append(FileStat(rel, st.st_size, st.st_mtime))
        return out

    def delete(self, rel: str) -> None:
        (self.folder / rel).unlink(missing_ok=True)

    def download(self, rel: str, target: Path, progress: Callable[[int], object]) -> str:
        with open(self.folder / rel, "rb") as source:
            return _copy(iter(lambda: source.read(CHUNK), b""), target, progress)

    def upload(self, source: Path, rel: str) -> None:
        self.write_bytes(rel, source.read_bytes())

    def stamp(self, rel: str, *, fresh: bool = False) -> Hashable | None:
        """Inode, modification time, size (each version is a new file renamed over the old)."""
        try:
            st = os.stat(self.folder / rel)
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)


class StoreFolder(Location):
    """A prefix on a pyarrow FileSystem: `base` is the path under it (`bucket/prefix` on S3)."""

    def __init__(
        self,
        url: str,
        fs: pafs.FileSystem,
        base: str,
        *,
        poll_s: float = POLL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url.rstrip("/")
        self.fs = fs
        self.base = base.rstrip("/")
        self.poll_s, self.clock = poll_s, clock
        self._stamps: dict[str, tuple[float, Hashable | None]] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StoreFolder) and other.url == self.url

    def __hash__(self) -> int:
        return hash(self.url)

    def _key(self, rel: str) -> str:
        return f"{self.base}/{rel}" if rel else self.base

    def where(self, rel: str) -> str:
        return f"{self.url}/{rel}"

    def size(self, rel: str) -> int | None:
        with storage_error(self.url):
            info = self.fs.get_file_info(self._key(rel))
        return info.size if info.type == pafs.FileType.File else None

    def read_bytes(self, rel: str) -> bytes:
        with storage_error(self.url), self.fs.open_input_stream(self._key(rel)) as f:
            return bytes(f.read())

    def read_parquet(self, rel: str, columns: list[str] | None = None) -> pa.Table:
        with storage_error(self.url):
            return pq.read_table(self._key(rel), columns=columns, filesystem=self.fs)

    def write_bytes(self, rel: str, data: bytes) -> None:
        with storage_error(self.url), self.fs.open_output_stream(self._key(rel)) as f:
            f.write(data)

    def files(self, under: str = "") -> list[FileStat]:
        selector = pafs.FileSelector(self._key(under), recursive=True, allow_not_found=True)
        with storage_error(self.url):
            infos = self.fs.get_file_info(selector)
        return sorted(
            (
                FileStat(
                    i.path[len(self.base) + 1 :],
                    i.size or 0,
                    i.mtime.timestamp() if i.mtime is not None else 0.0,
                )
                for i in infos
                if i.type == pafs.FileType.File
            ),
            key=lambda s: s.rel,
        )

    def delete(self, rel: str) -> None:
        try:
            with storage_error(self.url):
                self.fs.delete_file(self._key(rel))
        except FileNotFoundError:
            pass

    def download(self, rel: str, target: Path, progress: Callable[[int], object]) -> str:
        with storage_error(self.url), self.fs.open_input_stream(self._key(rel)) as source:
            return _copy(iter(lambda: bytes(source.read(CHUNK)), b""), target, progress)

    def upload(self, source: Path, rel: str) -> None:
        with (
            storage_error(self.url),
            self.fs.open_output_stream(self._key(rel)) as sink,
            open(source, "rb") as f,
        ):
            for block in iter(lambda: f.read(CHUNK), b""):
                sink.write(block)

    def stamp(self, rel: str, *, fresh: bool = False) -> Hashable | None:
        """The content's checksum, read again at most every `poll_s` seconds unless `fresh` (a
        store's times are whole seconds: two commits in one second would look alike)."""
        now = self.clock()
        seen = self._stamps.get(rel)
        if seen is not None and now - seen[0] < self.poll_s and not fresh:
            return seen[1]
        try:
            stamp: Hashable | None = hashlib.sha256(self.read_bytes(rel)).hexdigest()
        except FileNotFoundError:
            stamp = None
        self._stamps[rel] = (now, stamp)
        return stamp


def file_sha256(path: Path) -> str:
    """A file's SHA-256, read a block at a time."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _copy(blocks: Iterator[bytes], target: Path, progress: Callable[[int], object]) -> str:
    digest = hashlib.sha256()
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as out:
        for block in blocks:
            out.write(block)
            digest.update(block)
            progress(len(block))
        out.flush()
        os.fsync(out.fileno())
    return digest.hexdigest()


@contextlib.contextmanager
def storage_error(url: str) -> Iterator[None]:
    """Turn an object store's refusal of access into `Forbidden` naming the corpus and the
    variables that hold credentials (other errors pass through)."""
    try:
        yield
    except FileNotFoundError:
        raise
    except OSError as exc:
        if not any(word in str(exc) for word in _DENIED):
            raise
        raise Forbidden(
            f"access to {url} was denied: check the credentials (AWS_ACCESS_KEY_ID and "
            "AWS_SECRET_ACCESS_KEY, or AWS_PROFILE) and the endpoint (AWS_ENDPOINT_URL); "
            f"the store said: {exc}",
            field="corpus",
        ) from exc


def is_url(text: str) -> bool:
    """Whether a corpus argument names an object store rather than a folder."""
    scheme = urlparse(text).scheme
    return "://" in text and len(scheme) > 1 and scheme != "file"


def location(corpus: str | os.PathLike[str] | Location) -> Location:
    """The location of a corpus argument: a Location as it is, a path or `file://` URL as a
    folder, any other URL as an object store (its bucket must exist)."""
    if isinstance(corpus, Location):
        return corpus
    text = os.fspath(corpus)
    if text.startswith("file://"):
        return LocalFolder(Path(urlparse(text).path).expanduser())
    if not is_url(text):
        return LocalFolder(Path(text).expanduser())
    scheme = urlparse(text).scheme
    if scheme == "s3":
        return _s3(text)
    return _fsspec(text, scheme)


def _s3(url: str) -> StoreFolder:
    parsed = urlparse(url)
    if parsed.username or parsed.password:  # they would show in every message and log line
        raise InvalidRequest(
            "s3://: put credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not the URL",
            field="corpus",
        )
    bucket = parsed.netloc
    if not bucket:
        raise InvalidRequest(f"{url}: an S3 URL names a bucket: s3://bucket/prefix", field="corpus")
    endpoint = os.environ.get("AWS_ENDPOINT_URL", "AWS")
    try:
        with storage_error(url):
            fs, _ = pafs.FileSystem.from_uri(f"s3://{bucket}")
            info = fs.get_file_info(bucket)
    except OSError as exc:
        raise CorpusError(f"{url}: cannot reach the object store at {endpoint}: {exc}") from exc
    if info.type == pafs.FileType.NotFound:
        raise NotFound(f"{url}: there is no bucket {bucket!r} at {endpoint}", field="corpus")
    return StoreFolder(url, fs, f"{bucket}/{parsed.path.strip('/')}".rstrip("/"))


def _fsspec(url: str, scheme: str) -> StoreFolder:
    try:
        import fsspec  # type: ignore[import-untyped]
    except ImportError:
        raise InvalidRequest(
            f"{url}: a corpus on {scheme}:// needs fsspec: pip install 'regnb[s3]'",
            field="corpus",
        ) from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except ImportError as exc:
        raise InvalidRequest(f"{url}: {exc}", field="corpus") from None
    except ValueError as exc:
        raise InvalidRequest(
            f"{url}: unknown storage scheme {scheme!r} ({exc}); a corpus is a folder, "
            "s3://bucket/prefix, or a URL of an installed fsspec filesystem",
            field="corpus",
        ) from None
    return StoreFolder(url, pafs.PyFileSystem(pafs.FSSpecHandler(fs)), path)


def corpus_argument(text: str) -> str | Path:
    """A command line's `--corpus`: a URL as given (a Path would fold its `//`), else a path."""
    return text if is_url(text) else Path(text)


def corpus_options(parser: argparse.ArgumentParser) -> None:
    """A command's `--corpus` and `--fast-encoder` (`regnb search`, `serve`, `mcp` …)."""
    parser.add_argument(
        "--corpus",
        type=corpus_argument,
        default=None,
        metavar="DIR|URL",
        help="corpus folder or s3://bucket/prefix (default: the demo corpus)",
    )
    parser.add_argument(
        "--fast-encoder", action="store_true", help="corpus embedded with the hashing encoder"
    )
