"""Corpus locations: a folder, a prefix on S3 (a moto server on loopback), or any fsspec URL
(`memory://` here); the operations the corpus code needs, and clear errors for a location that
cannot be used."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

import regnb
from regnb.corpus.location import (
    LocalFolder,
    Location,
    StoreFolder,
    corpus_argument,
    is_url,
    location,
)
from regnb.errors import CorpusError, Forbidden, InvalidRequest, NotFound

_MEMORY = itertools.count()


@pytest.fixture
def memory() -> Location:
    """A fresh prefix of fsspec's in-memory filesystem."""
    return location(f"memory://regnb-test-{next(_MEMORY)}/corpus")


@pytest.fixture(params=["folder", "memory", "s3"])
def any_location(request: pytest.FixtureRequest, tmp_path: Path) -> Location:
    if request.param == "folder":
        return location(tmp_path / "corpus")
    if request.param == "memory":
        return location(f"memory://regnb-test-{next(_MEMORY)}/corpus")
    return location(f"{request.getfixturevalue('s3_bucket')}/corpus")


@pytest.mark.parametrize(
    ("text", "url"),
    [
        ("corpus", False),
        ("/data/corpus", False),
        ("file:///data/corpus", False),
        ("C:/corpus", False),  # one letter: a drive, not a scheme
        ("s3://bucket/corpus", True),
        ("memory://x/corpus", True),
        ("gs://bucket", True),
    ],
)
def test_a_url_names_an_object_store_and_a_path_or_file_url_a_folder(text: str, url: bool) -> None:
    assert is_url(text) is url
    assert isinstance(corpus_argument(text), str if url else Path)


def test_a_folder_and_a_file_url_are_local_folders(tmp_path: Path) -> None:
    assert location(tmp_path) == LocalFolder(tmp_path)
    assert location(f"file://{tmp_path}") == LocalFolder(tmp_path)
    assert location(str(tmp_path)).local == tmp_path
    assert location("~/corpus").local == Path.home() / "corpus"


def test_a_location_is_returned_as_it_is(memory: Location) -> None:
    assert location(memory) is memory


def test_the_operations_agree_on_every_kind_of_location(any_location: Location) -> None:
    loc = any_location
    assert loc.size("a/b.json") is None and not loc.exists("a/b.json")
    assert loc.files() == []
    loc.write_bytes("a/b.json", b"one")
    loc.write_bytes("a/c/d.bin", b"three")
    loc.write_bytes("a/b.json", b"four")  # replaced whole
    assert loc.read_bytes("a/b.json") == b"four"
    assert loc.size("a/b.json") == 4
    assert [(f.rel, f.size) for f in loc.files()] == [("a/b.json", 4), ("a/c/d.bin", 5)]
    assert [f.rel for f in loc.files("a/c")] == ["a/c/d.bin"]
    loc.delete("a/b.json")
    loc.delete("a/b.json")  # a missing file: nothing
    assert not loc.exists("a/b.json")
    with pytest.raises(FileNotFoundError):
        loc.read_bytes("a/b.json")
    assert loc.where("x.json").endswith("corpus/x.json")


def test_upload_and_download_copy_files_whole(any_location: Location, tmp_path: Path) -> None:
    source = tmp_path / "source.bin"
    source.write_bytes(b"x" * 3_000_000)
    any_location.upload(source, "up/file.bin")
    seen: list[int] = []
    digest = any_location.download("up/file.bin", tmp_path / "down" / "file.bin", seen.append)
    assert (tmp_path / "down" / "file.bin").read_bytes() == source.read_bytes()
    assert digest == any_location.sha256("up/file.bin")
    assert sum(seen) == 3_000_000 and len(seen) > 1


def test_an_object_store_stamp_is_read_again_only_after_the_poll_interval() -> None:
    loc = location(f"memory://regnb-test-{next(_MEMORY)}/corpus")
    assert isinstance(loc, StoreFolder)
    now = [0.0]
    loc.clock, loc.poll_s = (lambda: now[0]), 2.0
    assert loc.stamp("manifest.json") is None
    loc.write_bytes("manifest.json", b"{}")
    assert loc.stamp("manifest.json") is None  # within the interval: the stamp held
    now[0] = 2.0
    first = loc.stamp("manifest.json")
    assert first is not None
    loc.write_bytes("manifest.json", b"{ }")
    now[0] = 4.0
    assert loc.stamp("manifest.json") not in (None, first)


def test_a_folder_stamp_changes_with_each_version(tmp_path: Path) -> None:
    loc = location(tmp_path)
    loc.write_bytes("manifest.json", b"{}")
    first = loc.stamp("manifest.json")
    loc.write_bytes("manifest.json", b"{}")
    assert loc.stamp("manifest.json") != first  # a new file renamed over the old


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nosuchscheme://bucket/corpus", "unknown storage scheme 'nosuchscheme'"),
        ("s3:///corpus", "names a bucket"),
        ("s3://AKIA:secret@bucket/corpus", "not the URL"),
    ],
)
def test_an_unusable_url_is_an_invalid_request_naming_the_corpus(url: str, words: str) -> None:
    with pytest.raises(InvalidRequest, match=words) as err:
        location(url)
    assert err.value.field == "corpus"
    assert "secret" not in str(err.value)


def test_a_corpus_may_be_a_whole_bucket(s3_bucket: str) -> None:
    loc = location(s3_bucket)
    loc.write_bytes("manifest.json", b"{}")
    assert [f.rel for f in loc.files()] == ["manifest.json"]
    assert loc.where("manifest.json") == f"{s3_bucket}/manifest.json"


def test_a_missing_bucket_is_not_found(s3_bucket: str) -> None:
    with pytest.raises(NotFound, match="there is no bucket 'regnb-missing'") as err:
        location("s3://regnb-missing/corpus")
    assert err.value.field == "corpus"


def test_an_unreachable_endpoint_is_a_corpus_error_naming_it(
    s3_bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # discard: nothing listens
    with pytest.raises(
        CorpusError, match=r"cannot reach the object store at http://127\.0\.0\.1:9"
    ):
        location(f"{s3_bucket}/corpus")


def test_opening_a_prefix_that_holds_no_corpus_is_not_found(s3_bucket: str) -> None:
    with pytest.raises(NotFound, match="no corpus at s3://") as err:
        regnb.open(f"{s3_bucket}/empty")
    assert err.value.field == "corpus"


def test_refused_credentials_are_forbidden_and_name_the_variables(
    s3_bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import moto.settings

    monkeypatch.setattr(moto.settings, "INITIAL_NO_AUTH_ACTION_COUNT", 0)  # check signatures
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "not-a-key")
    with pytest.raises(Forbidden, match="AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY") as err:
        regnb.open(f"{s3_bucket}/corpus")
    assert err.value.field == "corpus"
    assert s3_bucket in str(err.value)


def test_import_regnb_loads_no_object_store_client() -> None:
    """S3 is pyarrow's own; fsspec (other schemes), boto3 and moto (the tests') are not loaded
    by `import regnb` or by opening a folder."""
    code = (
        "import sys, regnb, regnb.corpus.location as s; s.location('.')\n"
        "print(sorted(m for m in ('fsspec', 'boto3', 'botocore', 'moto', 's3fs') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
