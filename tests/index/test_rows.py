"""A snapshot's rows: phrases verified on the pages' words agree with the index's own SQL
(`regnb_terms` joined by spaces, matched by `phrase_pattern`); document keys name a segment."""

from __future__ import annotations

import random

import numpy as np
import pytest

import regnb
from regnb import text
from regnb.index import rows as _rows
from regnb.search.matching import phrase_pattern
from regnb.settings import Settings
from tests.conftest import doc

# Stop words, accents, compatibility forms (a ligature, full-width letters), a zero-width space,
# words over the index's length limit (dropped), and words that stem alike.
WORDS = [
    "media",
    "médias",
    "ＭＥＤＩＡ",
    "me\u200bdia",
    "fill",
    "ﬁlls",
    "filling",
    "page",
    "pages",
    "paging",
    "the",
    "of",
    "a" * 41,
    "fill" * 10,
    "other",
    "x",
]
PHRASES = [
    "media fill",
    "fill media",
    "page pages",
    "media media",
    "media fill page",
    "the media of fill",
]
OLD_SQL = "SELECT regexp_matches(array_to_string(regnb_terms(?), ' '), ?)"


def seeded_corpus(seed: int = 11, n: int = 60) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [
        doc(
            " ".join(rng.choices(WORDS, k=rng.randint(1, 3))),
            [" ".join(rng.choices(WORDS, k=rng.randint(0, 12))) for _ in range(rng.randint(1, 3))],
        )
        for _ in range(n)
    ]


@pytest.mark.parametrize("slop", [0, 1, 3])
def test_phrase_pages_agree_with_the_sql_over_each_pages_terms(make_engine, monkeypatch, slop):
    monkeypatch.setattr(_rows, "PHRASE_BATCH", 7)  # several batches
    store = make_engine({"fda_483": seeded_corpus()}).store
    ids = np.arange(store.n_pages)
    pages = [text.fold(f"{p['title']} {p['text']}") for p in store.rows.pages(ids.tolist())]
    con = text.connect()
    for phrase in PHRASES:
        terms = text.terms(phrase)
        pattern = phrase_pattern(terms, slop)
        expected = [bool(con.execute(OLD_SQL, [p, pattern]).fetchone()[0]) for p in pages]
        assert 0 < sum(expected) < ids.size, phrase  # the case tells pages apart
        assert store.rows.phrase_pages(ids, terms, slop).tolist() == expected, phrase
        assert store.rows.phrase_pages(ids[::3], terms, slop).tolist() == expected[::3], phrase
    con.close()


def test_document_keys_name_a_segment_and_a_row_in_it(tmp_path):
    corpus = tmp_path / "corpus"

    def write(batch: int) -> None:
        docs = {"fda_483": [doc(f"d{batch}{i}", ["text"], key=f"{batch}-{i}") for i in range(3)]}
        regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)

    write(0)
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": tmp_path / "h", "merge_segments": 0})
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        write(1)  # a second segment, added when the engine next looks
        store = eng.store
        names = [s.folder.name for s in store.segments]
        assert len(names) == 2
        assert store.rows.document_keys([0, 2, 3, 5]) == [
            f"{names[0]}:0",
            f"{names[0]}:2",
            f"{names[1]}:0",
            f"{names[1]}:2",
        ]
