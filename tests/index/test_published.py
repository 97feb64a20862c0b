"""An index published inside its corpus (on a moto S3 server on loopback): a fresh REGNB_HOME
downloads it instead of building, a killed download leaves nothing trusted, and a published
index that fails its checks is built instead."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import regnb
from regnb.corpus.location import StoreFolder, location
from regnb.index import build as index
from regnb.index import published as _published
from tests.conftest import doc

DOCS = {
    "fda_483": [doc("Aseptic lapses", ["aseptic filling", "media fill"]), doc("B", ["label"])],
    "fda_warning_letters": [doc("Warning", ["cgmp violations aseptic"])],
}


def _open(where: Any) -> regnb.Engine:
    return regnb.Engine(where, encoder=regnb.HashingEncoder(), progress=False)


def _answers(eng: regnb.Engine) -> list[Any]:
    return [eng.search([k], "aseptic").to_dict() for k in ("aseptic", "label", "cgmp")]


@pytest.fixture
def corpus(s3_bucket: str) -> str:
    url = f"{s3_bucket}/corpus"
    regnb.write_corpus(url, DOCS, encoder=regnb.HashingEncoder(), progress=False)
    return url


@pytest.fixture
def fresh_home(tmp_path: Path) -> Path:
    """Another machine: a REGNB_HOME with no index in it (set it after publishing)."""
    return tmp_path / "replica"


def _no_build(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    built: list[int] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        built.append(1)
        raise AssertionError("the index was built, not downloaded")

    monkeypatch.setattr(index, "_add_shards", refuse)
    return built


def test_a_published_index_is_downloaded_by_a_fresh_home_not_built(
    corpus: str, fresh_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    from regnb.cli import main

    assert main(["index", "--corpus", corpus, "--publish", "--fast-encoder"]) == 0
    out = capsys.readouterr().out
    assert f"index published: {corpus}/_index/v{index.INDEX_VERSION}/" in out
    with _open(corpus) as eng:
        expected = _answers(eng)
    monkeypatch.setenv("REGNB_HOME", str(fresh_home))
    built = _no_build(monkeypatch)
    with _open(corpus) as eng:
        assert _answers(eng) == expected
        assert str(fresh_home) in str(eng.index_path)
    assert built == []


def test_publishing_writes_the_listing_last_with_every_file_checked(corpus: str) -> None:
    where = index.publish(corpus, progress=False)
    loc = location(corpus)
    manifest = regnb.corpus.shards.Manifest.load(loc)
    assert manifest is not None
    prefix = _published.published_prefix(manifest.fingerprint())
    assert where == loc.where(prefix)
    listing = json.loads(loc.read_bytes(f"{prefix}/published.json"))
    stored = {f.rel[len(prefix) + 1 :]: f.size for f in loc.files(prefix)}
    assert stored.pop("published.json") > 0
    assert stored == {name: meta["size"] for name, meta in listing["files"].items()}
    assert listing["index"]["fingerprint"] == manifest.fingerprint()


class Killed(BaseException):
    """A download stopped from outside (the process killed, ^C)."""


def test_a_killed_download_leaves_the_cache_usable(
    corpus: str, fresh_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish(corpus, progress=False)
    monkeypatch.setenv("REGNB_HOME", str(fresh_home))
    real = StoreFolder.download
    calls = []

    def dies_on_the_third(self: StoreFolder, rel: str, target: Path, progress: Any) -> str:
        calls.append(rel)
        if len(calls) == 3:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(b"half a file")
            raise Killed
        return real(self, rel, target, progress)

    monkeypatch.setattr(StoreFolder, "download", dies_on_the_third)
    with pytest.raises(Killed):
        _open(corpus)
    folders = list(fresh_home.glob("index/*/v*"))
    assert len(folders) == 1
    assert sorted(p.name for p in folders[0].iterdir()) == [".lock"]  # nothing of it survives

    monkeypatch.setattr(StoreFolder, "download", real)
    built = _no_build(monkeypatch)
    with _open(corpus) as eng:
        assert eng.search(["aseptic"]).total == 2
    assert built == []


def test_what_a_killed_process_left_is_removed_and_not_trusted(
    corpus: str, fresh_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index.publish(corpus, progress=False)
    monkeypatch.setenv("REGNB_HOME", str(fresh_home))
    manifest = regnb.corpus.shards.Manifest.load(corpus)
    assert manifest is not None
    folder = index.index_folder(fresh_home / "index", manifest, corpus)
    (folder / ".download-dead" / "seg-x").mkdir(parents=True)
    (folder / ".download-dead" / "seg-x" / "part").write_bytes(b"partial")
    (folder / "terms-7.arrow").write_bytes(b"moved before the kill, never named")
    with _open(corpus) as eng:
        assert eng.search(["aseptic"]).total == 2
    names = {p.name for p in folder.iterdir()}
    assert ".download-dead" not in names and "terms-7.arrow" not in names


def _flip_a_byte(loc: Any, prefix: str, listing: dict[str, Any]) -> str:
    name = next(n for n in listing["files"] if n.startswith("terms-"))
    data = bytearray(loc.read_bytes(f"{prefix}/{name}"))
    data[-1] ^= 0xFF
    loc.write_bytes(f"{prefix}/{name}", bytes(data))
    return f"{name} differs from its listing"


def _drop_a_segment(loc: Any, prefix: str, listing: dict[str, Any]) -> str:
    segment = listing["index"]["segments"][0]["id"]
    listing["files"] = {n: m for n, m in listing["files"].items() if not n.startswith(segment)}
    loc.write_bytes(f"{prefix}/published.json", json.dumps(listing).encode())
    return f"lists no files of ['{segment}']"


def _escape_the_folder(loc: Any, prefix: str, listing: dict[str, Any]) -> str:
    listing["files"]["../../manifest.json"] = {"size": 1, "sha256": "0"}
    loc.write_bytes(f"{prefix}/published.json", json.dumps(listing).encode())
    return "names a file outside the index"


def _another_version(loc: Any, prefix: str, listing: dict[str, Any]) -> str:
    listing["index"]["version"] = 1
    loc.write_bytes(f"{prefix}/published.json", json.dumps(listing).encode())
    return "index version 1"


@pytest.mark.parametrize(
    "damage", [_flip_a_byte, _drop_a_segment, _escape_the_folder, _another_version]
)
def test_a_published_index_that_fails_its_checks_is_built_instead(
    corpus: str,
    fresh_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    damage: Any,
) -> None:
    where = index.publish(corpus, progress=False)
    loc = location(corpus)
    prefix = where[len(corpus) + 1 :]
    problem = damage(loc, prefix, json.loads(loc.read_bytes(f"{prefix}/published.json")))
    monkeypatch.setenv("REGNB_HOME", str(fresh_home))
    with _open(corpus) as eng:
        assert eng.search(["aseptic"]).total == 2  # built from the shards
    assert problem in caplog.text


def test_a_replica_with_an_older_index_updates_it_rather_than_downloading(
    corpus: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _open(corpus) as eng:
        folder = eng.index_path
    monkeypatch.setenv("REGNB_HOME", str(tmp_path / "publisher"))
    new = {"fda_483": [doc("New", ["aseptic too"])]}
    regnb.write_corpus(corpus, new, encoder=regnb.HashingEncoder(), progress=False)
    index.publish(corpus, progress=False)
    monkeypatch.setenv("REGNB_HOME", str(folder.parents[2]))
    downloads: list[str] = []
    monkeypatch.setattr(StoreFolder, "download", lambda *a: downloads.append(a[1]))
    with _open(corpus) as eng:
        assert eng.search(["aseptic"]).total == 3
        assert eng.index_path == folder
    assert downloads == []


def test_a_download_over_an_older_index_leaves_its_files_for_open_snapshots(
    corpus: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(Another process may have built an older index meanwhile.) The downloaded files get new
    names; the old ones stay named as the previous generation, for snapshots still open."""
    with _open(corpus) as eng:
        folder = eng.index_path
    old = index.IndexState.load(folder)
    assert old is not None
    monkeypatch.setenv("REGNB_HOME", str(tmp_path / "publisher"))
    new = {"fda_483": [doc("New", ["aseptic too"])]}
    regnb.write_corpus(corpus, new, encoder=regnb.HashingEncoder(), progress=False)
    index.publish(corpus, progress=False)
    loc = location(corpus)
    manifest = regnb.corpus.shards.Manifest.load(loc)
    assert manifest is not None
    assert _published.download_index(loc, folder, manifest, progress=False)
    state = index.IndexState.load(folder)
    assert state is not None and state.fingerprint == manifest.fingerprint()
    assert state.generation > old.generation
    assert set(state.previous) == set(old.files())
    assert not set(old.files()) & set(state.files())
    assert all((folder / name).exists() for name in state.files() + state.previous)
    built = _no_build(monkeypatch)
    monkeypatch.setenv("REGNB_HOME", str(folder.parents[2]))
    with _open(corpus) as eng:
        assert eng.search(["aseptic"]).total == 3
    assert built == []
