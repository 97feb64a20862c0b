"""Writing corpora: validation, keys, replacement, failed and interrupted writes."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import regnb
from regnb.corpus import shards
from regnb.corpus.write import parse_date
from tests.conftest import doc


def write(path: Path, docs: dict[str, list[dict[str, Any]]], encoder: Any = None) -> Any:
    return regnb.write_corpus(path, docs, encoder=encoder or regnb.HashingEncoder(), progress=False)


def titles(path: Path) -> list[str]:
    with regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        res = eng.search(["alpha"], limit=50)
        return sorted(r["title"] for r in res.to_dict()["results"])


def test_write_then_read_back(tmp_path):
    summary = write(tmp_path, {"fda_483": [doc("A", ["alpha one", "alpha two"], url="u1")]})
    assert summary.to_dict("records") == [
        {"dataset": "fda_483", "written": 1, "replaced": 0, "skipped": 0, "pages": 2}
    ]
    manifest = shards.Manifest.load(tmp_path)
    assert manifest is not None and len(manifest.shards) == 1
    entry = manifest.shards[0]
    docs = shards.read_documents(tmp_path, entry)
    pages = shards.read_pages(tmp_path, entry, manifest.dim, docs)
    assert pages.column("text").to_pylist() == ["alpha one", "alpha two"]
    vectors = shards.embeddings(pages, manifest.dim).astype(np.float32)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-2)


def test_writing_the_same_documents_again_adds_nothing(tmp_path):
    docs = {"fda_483": [doc("A", ["alpha"], url="u1"), doc("B", ["alpha"], key="k2")]}
    write(tmp_path, docs)
    again = write(tmp_path, docs)
    assert again.to_dict("records")[0]["skipped"] == 2
    assert titles(tmp_path) == ["A", "B"]


def test_a_changed_document_replaces_the_old_one_and_keeps_its_id(tmp_path):
    write(tmp_path, {"fda_483": [doc("A", ["alpha"], url="u1"), doc("B", ["alpha"], url="u2")]})
    with regnb.Engine(tmp_path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        before = {r["title"]: r["document_id"] for r in eng.search(["alpha"]).to_dict()["results"]}
    summary = write(tmp_path, {"fda_483": [doc("A v2", ["alpha new"], url="u1")]})
    assert summary.to_dict("records")[0]["replaced"] == 1
    with regnb.Engine(tmp_path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        after = {r["title"]: r["document_id"] for r in eng.search(["alpha"]).to_dict()["results"]}
    assert after == {"A v2": before["A"], "B": before["B"]}


class Ticks:
    """A clock that moves a minute each time it is read."""

    def __init__(self) -> None:
        self.now = 1_790_000_000.0

    def __call__(self) -> float:
        self.now += 60
        return self.now


def commits(path: Path) -> dict[str, tuple[int, str | None]]:
    """Each committed document's title -> its shard's commit number and time."""
    manifest = shards.Manifest.load(path)
    assert manifest is not None
    out = {}
    for entry in manifest.shards:
        for title in shards.read_documents(path, entry).column("title").to_pylist():
            out[title] = (entry.commit, entry.committed)
    return out


def test_each_write_is_a_numbered_commit_stamped_by_the_clock(tmp_path):
    clock = Ticks()
    docs = {"fda_483": [doc("A", ["alpha"], url="u1"), doc("B", ["alpha"], url="u2")]}
    regnb.write_corpus(tmp_path, docs, encoder=regnb.HashingEncoder(), progress=False, clock=clock)
    regnb.write_corpus(
        tmp_path,
        {"fda_recalls": [doc("C", ["alpha"], url="u3")]},
        encoder=regnb.HashingEncoder(),
        progress=False,
        clock=clock,
    )
    assert commits(tmp_path) == {
        "A": (1, "2026-09-21T14:14:20.000+00:00"),
        "B": (1, "2026-09-21T14:14:20.000+00:00"),
        "C": (2, "2026-09-21T14:15:20.000+00:00"),
    }
    manifest = shards.Manifest.load(tmp_path)
    assert manifest is not None and manifest.commits == 2


def test_a_replaced_document_enters_again_and_its_old_shard_keeps_its_commit(tmp_path):
    clock = Ticks()
    docs = {"fda_483": [doc("A", ["alpha"], url="u1"), doc("B", ["alpha"], url="u2")]}
    regnb.write_corpus(tmp_path, docs, encoder=regnb.HashingEncoder(), progress=False, clock=clock)
    first = commits(tmp_path)["B"]
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("A v2", ["alpha new"], url="u1"), doc("B", ["alpha"], url="u2")]},
        encoder=regnb.HashingEncoder(),
        progress=False,
        clock=clock,
    )
    after = commits(tmp_path)
    assert after["B"] == first  # rewritten without A, B keeps the commit that brought it in
    assert after["A v2"][0] == 2 and set(after) == {"A v2", "B"}


def test_document_ids_are_opaque_and_url_safe(tmp_path):
    write(tmp_path, {"fda_483": [doc("Acme", ["alpha"], url="https://x.invalid/acme")]})
    with regnb.Engine(tmp_path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        did = eng.search(["alpha"]).to_dict()["results"][0]["document_id"]
    assert len(did) == 20 and did.replace("-", "").replace("_", "").isalnum()
    assert "acme" not in did.lower()


@pytest.mark.parametrize(
    ("docs", "error", "field"),
    [
        ({"fda_nope": [doc("A", ["x"])]}, regnb.UnknownDataset, "documents.fda_nope"),
        ({"ema_epar": [doc("A", ["x"])]}, regnb.InvalidRequest, "documents.ema_epar"),
        ({"fda_483": [doc("", ["x"])]}, regnb.InvalidRequest, "fda_483[0].title"),
        ({"fda_483": [doc("A", [])]}, regnb.InvalidRequest, "fda_483[0].pages"),
        ({"fda_483": [doc("A", ["x", 3])]}, regnb.InvalidRequest, "fda_483[0].pages"),  # type: ignore[list-item]
        (
            {"fda_483": [doc("A", ["x"], date="2020-02-31")]},
            regnb.InvalidRequest,
            "fda_483[0].date",
        ),
        (
            {"fda_483": [doc("A", ["x"], fields={"color": "red"})]},
            regnb.InvalidRequest,
            "fda_483[0].fields.color",
        ),
        (
            {"fda_guidance": [doc("A", ["x"], fields={"center": "NASA"})]},
            regnb.InvalidRequest,
            "fda_guidance[0].fields.center",
        ),
        (
            {"fda_faers": [doc("A", ["x"], fields={"serious": "yes"})]},
            regnb.InvalidRequest,
            "fda_faers[0].fields.serious",
        ),
        ({"fda_483": [doc("A", ["x"]), "not a dict"]}, regnb.InvalidRequest, "fda_483[1]"),
    ],
)
def test_bad_documents_are_rejected_before_anything_is_written(tmp_path, docs, error, field):
    write(tmp_path, {"fda_483": [doc("Kept", ["alpha"])]})
    manifest_before = (tmp_path / "manifest.json").read_text()
    with pytest.raises(error) as info:
        write(tmp_path, {"fda_recalls": [doc("also not written", ["alpha"])], **docs})
    assert info.value.field == field
    assert (tmp_path / "manifest.json").read_text() == manifest_before
    assert titles(tmp_path) == ["Kept"]


def test_a_different_encoder_cannot_be_mixed_in(tmp_path):
    write(tmp_path, {"fda_483": [doc("A", ["alpha"])]})
    with pytest.raises(regnb.InvalidRequest) as info:
        write(tmp_path, {"fda_483": [doc("B", ["alpha"])]}, encoder=regnb.HashingEncoder(dim=8))
    assert info.value.field == "encoder"


class FailingEncoder(regnb.HashingEncoder):
    """Fails after `ok` calls: an interrupted write."""

    def __init__(self, ok: int) -> None:
        super().__init__()
        self.ok = ok

    def encode(self, texts: list[str]) -> np.ndarray:
        if self.ok <= 0:
            raise KeyboardInterrupt
        self.ok -= 1
        return super().encode(texts)


def test_an_interrupted_write_keeps_finished_batches_and_resumes(tmp_path, monkeypatch):
    monkeypatch.setattr("regnb.corpus.write.BATCH_PAGES", 100)
    docs = {"fda_483": [doc(f"d{i}", ["alpha"] * 10, key=f"k{i}") for i in range(50)]}
    with pytest.raises(KeyboardInterrupt):
        write(tmp_path, docs, encoder=FailingEncoder(ok=5))
    done = len(titles(tmp_path))
    assert 0 < done < 50  # finished batches are committed and readable
    summary = write(tmp_path, docs).to_dict("records")[0]
    assert summary["skipped"] == done and summary["written"] == 50 - done
    assert len(titles(tmp_path)) == 50
    listed = {p for s in shards.Manifest.load(tmp_path).shards for p in (s.documents, s.pages)}
    on_disk = {p.relative_to(tmp_path).as_posix() for p in tmp_path.glob("*/*.parquet")}
    assert on_disk == listed  # files of the interrupted batch were cleaned up


def test_own_dataset_and_catalog_additions(tmp_path):
    regnb.add_datasets(
        tmp_path,
        [
            {
                "id": "acme_sops",
                "name": "ACME SOPs",
                "jurisdiction": "US · ACME",
                "available": True,
                "enterprise": False,
                "date_field": "effective",
                "fields": ["owner", "effective", "title"],
                "filters": {"owner": {"type": "string", "description": "keyword match on owner"}},
            }
        ],
    )
    write(tmp_path, {"acme_sops": [doc("SOP 1", ["alpha"], fields={"owner": "QA team"})]})
    with regnb.Engine(tmp_path, encoder=regnb.HashingEncoder(), progress=False) as eng:
        assert eng.datasets().get("acme_sops").available
        res = eng.search(["alpha"], datasets=["acme_sops"], filters={"acme_sops": {"owner": "qa"}})
        assert res.to_dict()["results"][0]["fields"] == {
            "owner": "QA team",
            "effective": "2020-01-01",
            "title": "SOP 1",
        }


def test_a_bad_catalog_addition_is_refused_and_nothing_changes(tmp_path):
    with pytest.raises(regnb.InvalidRequest, match="id must be"):
        regnb.add_datasets(tmp_path, [{"id": "Bad Id!"}])
    assert not (tmp_path / "catalog.json").exists()


def _corrupt(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("which", "damage", "problem"),
    [
        ("documents", _corrupt, "checksum"),
        ("pages", _corrupt, "checksum"),
        ("pages", lambda p: p.write_bytes(p.read_bytes()[:-10]), "truncated"),
        ("documents", lambda p: p.unlink(), "missing"),
    ],
)
def test_a_write_on_a_damaged_corpus_fails_and_writes_nothing(tmp_path, which, damage, problem):
    write(tmp_path, {"fda_483": [doc("Kept", ["alpha"], key="k")]})
    manifest = shards.Manifest.load(tmp_path)
    damaged = tmp_path / getattr(manifest.shards[0], which)
    damage(damaged)
    before = (tmp_path / "manifest.json").read_text()
    files_before = sorted(tmp_path.rglob("*.parquet"))
    with pytest.raises(regnb.CorpusError) as info:
        write(tmp_path, {"fda_483": [doc("New", ["beta"]), doc("Changed", ["gamma"], key="k")]})
    assert str(damaged) in info.value.message and problem in info.value.message
    assert (tmp_path / "manifest.json").read_text() == before
    assert sorted(tmp_path.rglob("*.parquet")) == files_before


def test_a_path_with_a_tilde_is_under_the_home_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    write(Path("~/regcorpus"), {"fda_483": [doc("A", ["alpha"])]})
    assert (tmp_path / "home" / "regcorpus" / "manifest.json").exists()
    assert not (tmp_path / "~").exists()


@pytest.mark.parametrize(
    ("value", "lenient", "expected"),
    [
        (None, False, None),
        ("2019-03-03", False, dt.date(2019, 3, 3)),
        (dt.date(2019, 3, 3), False, dt.date(2019, 3, 3)),
        (dt.datetime(2019, 3, 3, 12, 30), False, dt.date(2019, 3, 3)),
        ("2019-03-03", True, dt.date(2019, 3, 3)),
        ("2019-03-03T10:00:00Z", True, dt.date(2019, 3, 3)),
        ("20190303", True, dt.date(2019, 3, 3)),
        (20190303, True, dt.date(2019, 3, 3)),
        ("2019-03", True, dt.date(2019, 3, 1)),
        ("2019", True, dt.date(2019, 1, 1)),
        ("March 3, 2019", True, dt.date(2019, 3, 3)),
        ("Mar 3, 2019", True, dt.date(2019, 3, 3)),
        ("3 March 2019", True, dt.date(2019, 3, 3)),
        ("March 2019", True, dt.date(2019, 3, 1)),
        ("  ", True, None),
    ],
)
def test_parse_date_reads(value, lenient, expected):
    assert parse_date(value, lenient=lenient) == expected


@pytest.mark.parametrize(
    ("value", "lenient", "message"),
    [
        ("2019-03", False, "is not an ISO date YYYY-MM-DD"),
        ("20190303", False, "is not an ISO date YYYY-MM-DD"),
        ("2019-03-03T10:00", False, "is not an ISO date YYYY-MM-DD"),
        ("", False, "is not an ISO date YYYY-MM-DD"),
        (True, False, "is not an ISO date YYYY-MM-DD"),
        ("2015-02-30", False, "is not a day of the calendar"),
        ("2015-02-30", True, "is not a day of the calendar"),
        ("27/08/2015", True, "is not a date like 2019-03-03"),
        ("soon", True, "is not a date like 2019-03-03"),
        (True, True, "is not an ISO date"),
        (3.5, True, "is not an ISO date"),
    ],
)
def test_parse_date_refuses(value, lenient, message):
    with pytest.raises(ValueError, match=message):
        parse_date(value, lenient=lenient)


@pytest.mark.parametrize(
    ("value", "shown"), [(None, True), ("1", True), ("0", False), ("off", False)]
)
def test_regnb_progress_turns_the_progress_bars_off(tmp_path, monkeypatch, capsys, value, shown):
    if value is None:
        monkeypatch.delenv("REGNB_PROGRESS", raising=False)
    else:
        monkeypatch.setenv("REGNB_PROGRESS", value)
    regnb.write_corpus(
        tmp_path, {"fda_483": [{"title": "A", "pages": ["alpha"]}]}, encoder=regnb.HashingEncoder()
    )
    regnb.Engine(tmp_path, encoder=regnb.HashingEncoder()).close()
    err = capsys.readouterr().err
    assert ("embedding" in err and "building index" in err) is shown
    assert ("embedding" in err or "building index" in err) is shown


# --- a corpus on an object store (a moto S3 server on loopback) ---------------------------------

S3_DOCS = {
    "fda_483": [
        doc("Sterile lapses", ["aseptic filling", "media fill"]),
        doc("Labels", ["mixup"], key="labels"),
    ],
    "fda_warning_letters": [doc("Letter", ["cgmp violations", "data integrity", "ccc"])],
}


def _write(where: Any, docs: dict[str, Any], clock: float = 1e9) -> Any:
    return regnb.write_corpus(
        where, docs, encoder=regnb.HashingEncoder(), progress=False, clock=lambda: clock
    )


def test_a_corpus_written_to_s3_is_the_corpus_written_to_a_folder(tmp_path, s3_bucket, same_ids):
    from regnb.corpus.location import location

    _write(tmp_path / "local", S3_DOCS)
    same_ids.reset()
    url = f"{s3_bucket}/corpus"
    summary = _write(url, S3_DOCS)
    assert summary["written"].tolist() == [2, 1]
    remote, local = location(url), location(tmp_path / "local")
    assert remote.read_bytes("manifest.json") == local.read_bytes("manifest.json")
    assert [(f.rel, f.size) for f in remote.files()] == [
        (f.rel, f.size) for f in local.files() if not f.rel.startswith(".")
    ]
    for f in remote.files():
        assert remote.read_bytes(f.rel) == local.read_bytes(f.rel), f.rel


def test_an_s3_corpus_takes_incremental_adds_and_replacements(s3_bucket):
    url = f"{s3_bucket}/corpus"
    _write(url, S3_DOCS)
    fresh = [doc("Labels", ["mixup"], key="labels"), doc("New", ["novel finding"])]
    again = _write(url, {"fda_483": fresh}, 2e9)
    assert again.to_dict("records")[0] == {
        "dataset": "fda_483",
        "written": 1,
        "replaced": 0,
        "skipped": 1,
        "pages": 1,
    }
    changed = _write(url, {"fda_483": [doc("Labels", ["mixup", "p2"], key="labels")]}, 3e9)
    assert changed["replaced"].tolist() == [1]
    manifest = shards.Manifest.load(url)
    assert manifest is not None and manifest.commits == 4  # a commit per dataset and write
    assert sum(s.documents_count for s in manifest.shards) == 4
    listed = {p for s in manifest.shards for p in (s.documents, s.pages)}
    from regnb.corpus.location import location

    stored = {f.rel for f in location(url).files() if f.rel.endswith(".parquet")}
    assert stored == listed  # a replaced shard's objects are deleted after the commit


def test_a_second_writer_that_committed_meanwhile_is_detected_not_overwritten(s3_bucket):
    """No lock on an object store: the writer that commits second finds the manifest changed
    and raises, and the first writer's documents stay."""
    url = f"{s3_bucket}/corpus"
    _write(url, S3_DOCS)

    class Meddling(regnb.HashingEncoder):
        def encode(self, texts: Any) -> Any:
            _write(url, {"fda_483": [doc("Other writer", ["their page"])]}, 2e9)
            return super().encode(texts)

    with pytest.raises(regnb.errors.CorpusError, match="another writer committed") as err:
        regnb.write_corpus(
            url, {"fda_483": [doc("Mine", ["my page"])]}, encoder=Meddling(), progress=False
        )
    assert "commit 3; this write started from commit 2" in str(err.value)
    manifest = shards.Manifest.load(url)
    assert manifest is not None and manifest.commits == 3
    titles = [
        t
        for s in manifest.shards
        for t in shards.read_documents(url, s).column("title").to_pylist()
    ]
    assert "Other writer" in titles and "Mine" not in titles


def test_an_unlisted_object_is_removed_only_when_older_than_a_writer_could_be(s3_bucket):
    from regnb.corpus import write as corpus
    from regnb.corpus.location import location

    url = f"{s3_bucket}/corpus"
    _write(url, S3_DOCS)
    loc = location(url)
    loc.write_bytes("fda_483/pages-orphan.parquet", b"left by a killed writer")
    manifest = shards.Manifest.load(loc)
    assert manifest is not None
    corpus._remove_unreferenced(loc, manifest)
    assert loc.exists("fda_483/pages-orphan.parquet")  # perhaps a running writer's
    corpus._remove_unreferenced(loc, manifest, now=2e10)
    assert not loc.exists("fda_483/pages-orphan.parquet")
    assert shards.verify(loc, manifest) is None


def test_a_catalog_addition_is_kept_in_the_s3_corpus(s3_bucket):
    url = f"{s3_bucket}/corpus"
    regnb.add_datasets(
        url,
        [
            {
                "id": "own_notes",
                "name": "Own notes",
                "jurisdiction": "US",
                "date_field": "date",
                "filters": {},
                "fields": ["date", "title"],
            }
        ],
    )
    _write(url, {"own_notes": [doc("A note", ["text"])]})
    from regnb.catalog import load_catalog

    catalog = load_catalog(url)
    assert "own_notes" in catalog and catalog.get("own_notes").available


@pytest.mark.parametrize(
    ("runner", "ray_address", "field"),
    [("spark", None, "runner"), ("", None, "runner"), ("local", "ray://head:10001", "ray_address")],
)
def test_a_runner_is_local_or_ray_and_an_address_goes_with_ray(
    tmp_path, runner, ray_address, field
):
    docs = {"fda_483": [doc("A", ["alpha"])]}
    with pytest.raises(regnb.InvalidRequest) as info:
        regnb.write_corpus(
            tmp_path, docs, encoder=regnb.HashingEncoder(), runner=runner, ray_address=ray_address
        )
    assert info.value.field == field
    assert not (tmp_path / "manifest.json").exists()
