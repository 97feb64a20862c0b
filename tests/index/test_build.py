"""The index is built once per corpus version, reused by later opens, rebuilt when shards change."""

from __future__ import annotations

import fcntl
import math
import subprocess
import sys

import pytest

import regnb
from regnb.index import build as index
from tests.conftest import doc


def open_(path):
    return regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False)


def test_built_once_and_reused(tmp_path, monkeypatch):
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(tmp_path) as eng:
        first = eng.store.files.folder

    def no_rebuild(*args, **kwargs):
        raise AssertionError("the index was rebuilt")

    monkeypatch.setattr(index, "build_index", no_rebuild)
    with open_(tmp_path) as eng:
        assert eng.store.files.folder == first
        assert eng.search(["alpha"]).total == 1


def test_updated_in_place_when_the_shards_change(tmp_path):
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(tmp_path) as eng:
        old = eng.store.files.folder
        first = [s.id for s in eng.store.state.segments]
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("B", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(tmp_path) as eng:
        assert eng.store.files.folder == old
        assert [s.id for s in eng.store.state.segments][:1] == first  # only a segment added
        assert len(eng.store.state.segments) == 2
        assert eng.search(["alpha"]).total == 2


def _weights(eng, terms):
    out = {}
    for term, term_id in eng.store.term_ids(terms).items():
        pages, weights = eng.store.postings.weights(term_id)
        for page, weight in zip(pages.tolist(), weights.tolist(), strict=True):
            out[(term, eng.store.rows.pages([page])[0]["title"])] = weight
    return out


def test_postings_are_impact_scored_bm25(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("T", ["alpha alpha beta"]), doc("U", ["alpha " + "x " * 30])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with open_(tmp_path) as eng:
        weights = _weights(eng, ["alpha", "beta", "the", "of"])
        assert eng.store.term_df(["alpha", "beta", "the"]) == {"alpha": 2, "beta": 1}
    assert set(weights) == {("alpha", "T"), ("alpha", "U"), ("beta", "T")}
    assert all(w > 0 for w in weights.values())


def test_an_empty_corpus_folder_is_not_found(tmp_path):
    with pytest.raises(regnb.NotFound) as info:
        open_(tmp_path / "nothing-here")
    assert info.value.field == "corpus"
    assert "no corpus at" in info.value.message and "manifest.json" in info.value.message


@pytest.mark.parametrize(
    ("tf", "df", "n_pages", "dl", "avgdl", "expected"),
    [
        (1, 1, 2, 4, 18, 0.8129503969530222),  # ln(2) * 1.9 / (1 + 0.9 * (0.6 + 0.4 * 4/18))
        (2, 2, 2, 4, 18, 0.2644358457316899),
        (1, 2, 2, 32, 18, 0.15890410913234576),
        (3, 10, 1000, 100, 100, math.log(1 + 990.5 / 10.5) * 3 * 1.9 / (3 + 0.9)),
    ],
)
def test_bm25_impact_weight_for_known_k1_b_and_lengths(tf, df, n_pages, dl, avgdl, expected):
    assert index.bm25_weight(tf, df, n_pages, dl, avgdl) == pytest.approx(expected, rel=1e-12)


def test_the_index_scores_exactly_those_weights(tmp_path):
    # page T: "t alpha alpha beta" (4 words), page U: "u alpha" + 30 x (32 words); avgdl 18
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("T", ["alpha alpha beta"]), doc("U", ["alpha " + "x " * 30])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with open_(tmp_path) as eng:
        weights = _weights(eng, ["alpha", "beta"])
    assert weights == pytest.approx(
        {
            ("beta", "T"): index.bm25_weight(1, 1, 2, 4, 18),
            ("alpha", "T"): index.bm25_weight(2, 2, 2, 4, 18),
            ("alpha", "U"): index.bm25_weight(1, 2, 2, 32, 18),
        },
        rel=1e-6,
    )


def _killed_build(parent, name=".build-killed"):
    folder = parent / name
    folder.mkdir(parents=True)
    (folder / "index.duckdb").write_bytes(b"x" * 1000)
    (folder / index.BUILD_LOCK).touch()
    return folder


def test_a_killed_build_folder_is_removed_by_the_next_open(tmp_path):
    corpus = tmp_path / "corpus"
    regnb.write_corpus(
        corpus, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(corpus) as eng:
        parent = eng.store.files.folder.parent
    stale = _killed_build(parent)
    regnb.write_corpus(
        corpus, {"fda_483": [doc("B", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(corpus) as eng:
        assert eng.search(["alpha"]).total == 2
    assert not stale.exists()
    assert not list(parent.glob(".build-*"))


def test_a_build_in_progress_is_left_alone(tmp_path):
    stale = _killed_build(tmp_path, ".build-stale")
    live = _killed_build(tmp_path, ".build-live")
    with open(live / index.BUILD_LOCK) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # a live build holds its lock (another process)
        script = (
            "import sys; from pathlib import Path; from regnb.index import build as index; "
            "print([p.name for p in index.remove_stale_builds(Path(sys.argv[1]))])"
        )
        out = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    assert out.strip() == "['.build-stale']"
    assert live.exists() and not stale.exists()


def test_a_fresh_build_folder_without_its_lock_file_is_left_alone(tmp_path):
    young = tmp_path / ".build-young"
    young.mkdir()
    assert index.remove_stale_builds(tmp_path) == []
    assert index.remove_stale_builds(tmp_path, orphan_age_s=0) == [young]


def test_prefix_terms_lists_the_live_terms_that_start_with_a_prefix_and_says_when_cut(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("P", ["sterile sterility steroid stamp"])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with open_(tmp_path) as eng:
        found, cut = eng.store.prefix_terms("ster", 10)
        assert sorted(found) == sorted(eng.store.term_ids(["steril", "steroid"]))
        assert not cut
        some, cut = eng.store.prefix_terms("ster", 1)
        assert len(some) == 1 and cut
        assert eng.store.prefix_terms("zzz", 5) == ({}, False)


# --- corpora on an object store (a moto S3 server on loopback) ----------------------------------

TWIN_DOCS = {
    "fda_483": [
        doc("Aseptic lapses", ["aseptic filling line", "media fill failures aseptic"]),
        doc("Label mixup", ["label mixup on line two", "aseptic gowning"], key="labels"),
    ],
    "fda_warning_letters": [doc("Warning", ["cgmp violations", "data integrity lapses"])],
}
QUERIES = [["aseptic"], ["label", "line"], ["lapses"], ["integrity"]]


def _twins(tmp_path, s3_bucket, same_ids):
    """The same corpus written to a folder and to S3 (same salt, ids, bytes)."""
    written = []
    for where in (tmp_path / "local", f"{s3_bucket}/corpus"):
        same_ids.reset()
        regnb.write_corpus(
            where, TWIN_DOCS, encoder=regnb.HashingEncoder(), progress=False, clock=lambda: 1e9
        )
        written.append(where)
    return written


def _answers(eng):
    out = []
    for keywords in QUERIES:
        result = eng.search(keywords, "aseptic processing")
        out.append(result.to_dict())
        for doc_id in [d["document_id"] for d in result.to_dict()["results"]]:
            out.append(eng.read(doc_id).to_dict())
    return out


def test_an_s3_corpus_searches_and_reads_as_the_same_corpus_in_a_folder(
    tmp_path, s3_bucket, same_ids
):
    local, remote = _twins(tmp_path, s3_bucket, same_ids)
    with open_(local) as a, open_(remote) as b:
        assert str(b.path) == remote
        assert _answers(a) == _answers(b)
        assert a.counts().equals(b.counts())
        assert a.index_path != b.index_path  # the remote corpus's cache is keyed by its URL too
        assert a.index_path.parent.name in b.index_path.parent.name


def test_an_open_s3_corpus_indexes_documents_written_after_the_poll(s3_bucket):
    url = f"{s3_bucket}/corpus"
    regnb.write_corpus(url, TWIN_DOCS, encoder=regnb.HashingEncoder(), progress=False)
    with open_(url) as eng:
        assert eng.search(["novel"]).total == 0
        regnb.write_corpus(
            url, {"fda_483": [doc("N", ["novel"])]}, encoder=regnb.HashingEncoder(), progress=False
        )
        eng.index.location.poll_s = 0.0  # the manifest is read again at the next call
        assert eng.search(["novel"]).total == 1


def test_regnb_index_takes_an_s3_corpus(s3_bucket, capsys):
    from regnb.cli import main

    url = f"{s3_bucket}/corpus"
    regnb.write_corpus(url, TWIN_DOCS, encoder=regnb.HashingEncoder(), progress=False)
    assert main(["index", "--corpus", url, "--fast-encoder"]) == 0
    assert "3 documents, 6 pages in 2 datasets" in capsys.readouterr().out
