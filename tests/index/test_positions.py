"""Term positions: the bit-packed codec round-trips; phrases answered from positions agree with
the page-reading check (over random phrases, slops and exclusions, in built, merged and upgraded
segments); an index written without positions gets them without a rebuild."""

from __future__ import annotations

import json
import random

import numpy as np
import pyarrow as pa
import pytest

import regnb
from regnb import text
from regnb.index import build, position_kernels, positions, segments
from regnb.index.checksums import SUMMARY
from regnb.index.positions import BLOCK, FILES
from regnb.index.rows import phrase_rows
from regnb.index.segments import Segment
from regnb.settings import Settings
from tests.conftest import doc
from tests.index.phrase_support import phrase_items, search_answers
from tests.index.test_rows import seeded_corpus


@pytest.mark.parametrize(
    "values",
    [
        [],
        [0],
        [0] * BLOCK,  # a block of width 0: no bytes
        list(range(BLOCK - 1)),
        list(range(BLOCK)),
        list(range(BLOCK + 1)),
        [1] * (2 * BLOCK) + [2**32 - 1],  # a large gap alone in the last block
        [2**31, 0, 5, 2**20] * 100,
    ],
    ids=["empty", "zero", "zero-block", "127", "128", "129", "large-gap", "mixed"],
)
def test_values_come_back_from_their_bit_packed_blocks(values):
    array = np.asarray(values, np.uint32)
    packed, blocks = positions.pack(array)
    assert blocks.size == -(-array.size // BLOCK) + 1
    assert positions.unpack(packed, blocks, 0, array.size).tolist() == values
    if array.size > 3:  # any stretch, from within a block
        assert positions.unpack(packed, blocks, 3, array.size - 3).tolist() == values[3:]


def test_a_block_is_as_wide_as_its_widest_value():
    values = np.asarray([1] * BLOCK + [7] * BLOCK + [0] * 5, np.uint32)
    _, blocks = positions.pack(values)
    assert np.diff(blocks).tolist() == [BLOCK // 8 * 1, BLOCK // 8 * 3, 0]


@pytest.mark.parametrize("seed", range(5))
def test_gaps_and_regrouping_round_trip(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 5, 200)
    pos = np.concatenate([np.sort(rng.choice(1000, c, replace=False)) for c in counts])
    gaps = positions.deltas(pos, counts)
    assert (gaps >= 0).all()
    assert positions.absolute(gaps, counts).tolist() == pos.tolist()
    order = rng.permutation(counts.size)
    starts = np.cumsum(counts) - counts
    expected = [p for o in order for p in pos[starts[o] : starts[o] + counts[o]]]
    assert positions.regroup(pos, counts, order).tolist() == expected


@pytest.mark.parametrize("seed", range(20))
def test_the_position_kernel_agrees_with_the_token_stream_check(seed):
    """`phrase_hits` over positions against `phrase_rows` over the same pages' token codes."""
    rng = np.random.default_rng(seed)
    n_pages, n_codes = 40, 4
    pages = [rng.integers(0, n_codes, rng.integers(0, 30)) for _ in range(n_pages)]
    for slop in (0, 1, 3):
        phrase = rng.integers(0, n_codes, rng.integers(2, 5)).tolist()
        codes = np.concatenate(pages)
        rows = np.repeat(np.arange(n_pages), [p.size for p in pages])
        expected = phrase_rows(codes, rows, n_pages, phrase, slop)
        values, starts, counts = [], np.zeros((len(phrase), n_pages), np.int64), []
        for j, code in enumerate(phrase):
            counts.append([int((p == code).sum()) for p in pages])
            for i, p in enumerate(pages):
                starts[j, i] = len(values)
                at = np.flatnonzero(p == code)
                values += positions.deltas(at, np.asarray([at.size])).tolist()
        packed, blocks = positions.pack(np.asarray(values, np.uint32))
        got = position_kernels.phrase_hits(
            packed, blocks, starts, np.asarray(counts, np.int64), slop
        )
        assert got.tolist() == expected.tolist(), (phrase, slop)


def test_positions_that_no_posting_holds_are_refused():
    with pytest.raises(ValueError, match="postings lack"):
        positions.posting_counts(
            np.array([1, 2]), np.array([0, 0]), np.array([1, 3]), np.array([0, 0])
        )


# --- in an index ------------------------------------------------------------------------------

WORDS = [
    "media",
    "fill",
    "aseptic",
    "process",
    "validation",
    "data",
    "integrity",
    "out",
    "of",
    "specification",
    "results",
    "the",
    "a",
    "of",
    "to",
    "in",
    "batch",
    "record",
    "sterile",
    "filling",
    "line",
    "operator",
    "gowning",
    "investigation",
    "laboratory",
    "control",
    "test",
    "method",
    "stability",
    "deviation",
    "cleaning",
]


def word_corpus(seed: int, n: int) -> list[dict[str, object]]:
    """Documents of words drawn from a small vocabulary (stop words among them), so that
    phrases, near misses and repeated words are all common."""
    rng = random.Random(seed)
    return [
        doc(
            " ".join(rng.choices(WORDS, k=rng.randint(1, 4))),
            [" ".join(rng.choices(WORDS, k=rng.randint(0, 40))) for _ in range(rng.randint(1, 3))],
            key=f"{seed}-{i}",
        )
        for i in range(n)
    ]


def random_phrases(store, rng: random.Random, n: int) -> list[tuple[list[str], int]]:
    """(terms, slop): 2 to 4 consecutive kept words of random pages, and pairs of words further
    apart, some with a slop."""
    out: list[tuple[list[str], int]] = []
    page_rows = store.rows.pages(list(range(store.n_pages)))
    while len(out) < n:
        row = rng.choice(page_rows)
        terms = text.terms(f"{row['title']} {row['text']}")
        if len(terms) < 5:
            continue
        start = rng.randrange(len(terms) - 4)
        kind = rng.random()
        if kind < 0.5:
            out.append((terms[start : start + rng.randint(2, 4)], rng.choice([0, 0, 1, 2])))
        else:
            out.append(([terms[start], terms[start + rng.randint(2, 4)]], rng.choice([0, 1, 3])))
    return out


def assert_positions_agree(store, phrases) -> None:
    """Every segment has positions, and each phrase finds what reading the pages finds."""
    assert all(seg.has_positions for seg in store.segments)
    ids = np.arange(store.n_pages)
    told_apart = 0
    for terms, slop in phrases:
        expected = store.rows.read_phrase_pages(ids, terms, slop)
        assert store.rows.phrase_pages(ids, terms, slop).tolist() == expected.tolist(), terms
        told_apart += 0 < expected.sum() < ids.size
    assert told_apart > len(phrases) // 2


def strip_positions(folder) -> None:
    """A segment as written before positions: without their files, its summary not naming them."""
    for name in FILES:
        (folder / name).unlink()
    summary = json.loads((folder / SUMMARY).read_text())
    summary["files"] = {k: v for k, v in summary["files"].items() if k not in FILES}
    (folder / SUMMARY).write_text(json.dumps(summary))


def test_phrases_from_positions_agree_with_reading_the_pages(make_engine):
    eng = make_engine({"fda_483": seeded_corpus(), "fda_warning_letters": word_corpus(1, 80)})
    rng = random.Random(5)
    tricky = [
        (text.terms(p), s) for p in ("media fill", "page pages", "media media") for s in (0, 2)
    ]
    assert_positions_agree(eng.store, tricky + random_phrases(eng.store, rng, 60))


def test_searches_with_phrases_answer_as_the_page_reading_check_does(make_engine, monkeypatch):
    """Random phrases, proximity and phrase exclusions: the same results and counts whether
    phrases are read from positions or checked on the pages."""
    eng = make_engine({"fda_483": word_corpus(2, 120), "fda_warning_letters": word_corpus(3, 60)})
    rng = random.Random(9)
    kept = [w for w in WORDS if text.terms(w)]
    items = phrase_items(random_phrases(eng.store, rng, 40), kept, rng)
    from_positions = search_answers(eng, items)
    monkeypatch.setattr(Segment, "phrase_pages", lambda self, local, ids, slop, words=None: None)
    assert search_answers(eng, items) == from_positions
    assert sum(bool(ids) for ids, _ in from_positions) > len(items) // 3


def test_merged_segments_carry_their_positions(tmp_path):
    corpus, home = tmp_path / "corpus", tmp_path / "home"
    docs = {"fda_483": word_corpus(4, 40), "fda_warning_letters": word_corpus(5, 40)}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": home, "index_batch_pages": 10, "merge_segments": 0})
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        folder = eng.store.files.folder
        assert len(eng.store.segments) > 1
        phrases = random_phrases(eng.store, random.Random(1), 30)
    assert build.merge_runs(folder, batch_pages=10**6) == 1
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        assert len(eng.store.segments) == 1
        assert_positions_agree(eng.store, phrases)


def test_an_index_written_without_positions_gets_them_when_next_opened(tmp_path):
    corpus, home = tmp_path / "corpus", tmp_path / "home"
    docs = {"fda_483": seeded_corpus(), "fda_warning_letters": word_corpus(6, 50)}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": home, "index_batch_pages": 50})
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        folders = [seg.folder for seg in eng.store.segments]
    written = {f / name: (f / name).read_bytes() for f in folders for name in FILES}
    for f in folders:
        strip_positions(f)
    assert not any(Segment(f).has_positions for f in folders)
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        assert [seg.folder for seg in eng.store.segments] == folders  # not rebuilt
        assert {path: path.read_bytes() for path in written} == written  # as a build writes them
        assert_positions_agree(eng.store, random_phrases(eng.store, random.Random(2), 30))


def test_a_segment_whose_pages_do_not_give_its_postings_is_left_without_positions(make_engine):
    store = make_engine({"fda_483": seeded_corpus()}).store
    seg = store.segments[0]
    strip_positions(seg.folder)
    dictionary = build._read_terms(store.files.folder / store.state.terms)
    ids = dictionary.column("term_id").to_numpy()[::-1].copy()
    wrong = dictionary.set_column(1, "term_id", pa.array(ids))
    assert not segments.add_segment_positions(Segment(seg.folder), wrong)
    assert not Segment(seg.folder).has_positions
