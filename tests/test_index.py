"""The index is built once per corpus version, reused by later opens, rebuilt when shards change."""

from __future__ import annotations

import pytest

import regnb
from regnb import index

from .conftest import doc


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


def test_rebuilt_when_the_shards_change(tmp_path):
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("A", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(tmp_path) as eng:
        old = eng.store.files.folder
    regnb.write_corpus(
        tmp_path, {"fda_483": [doc("B", ["alpha"])]}, encoder=regnb.HashingEncoder(), progress=False
    )
    with open_(tmp_path) as eng:
        assert eng.store.files.folder != old
        assert eng.search(["alpha"]).total == 2
    assert not old.exists()  # the stale version was removed


def test_postings_are_impact_scored_bm25(tmp_path):
    regnb.write_corpus(
        tmp_path,
        {"fda_483": [doc("T", ["alpha alpha beta"]), doc("U", ["alpha " + "x " * 30])]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    with open_(tmp_path) as eng:
        rows = (
            eng.store.cursor()
            .execute(
                "SELECT t.term, count(*), min(p.weight) > 0 FROM postings p JOIN terms t USING (term_id) "
                "GROUP BY t.term ORDER BY t.term"
            )
            .fetchall()
        )
    assert ("alpha", 2, True) in rows and ("beta", 1, True) in rows
    assert not any(term in ("the", "of") for term, *_ in rows)


def test_an_empty_corpus_folder_is_an_error(tmp_path):
    with pytest.raises(regnb.CorpusError) as info:
        open_(tmp_path)
    assert "manifest.json" in info.value.message
