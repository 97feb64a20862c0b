"""Quoted words as written, from the index: each term's forms and each position's variant
(`regnb.index.positions.Forms`) answer exactly what re-reading the pages answered (over random
phrases and near misses with case, accents, hyphens, slop and exclusions, in built, merged and
upgraded segments), and a segment without them still reads its pages."""

from __future__ import annotations

import json
import random

import numpy as np
import pyarrow as pa
import pytest

import regnb
from regnb import text
from regnb.index import build, position_kernels, positions, segments
from regnb.index import ray as index_ray
from regnb.index.checksums import SUMMARY
from regnb.index.positions import ANY, FORM_FILES
from regnb.index.segments import Segment
from regnb.settings import Settings
from tests.conftest import doc
from tests.index.phrase_support import phrase_items, search_answers

# Words of a few terms in several written forms: case, accents, hyphens, a ligature, stop words,
# an over-long word (dropped), and words that share a stem ("integrity", "integration").
WRITTEN = [
    "data",
    "Data",
    "DATA",
    "datum",
    "integrity",
    "Integrity",
    "intégrity",
    "integration",
    "INTEGRATION",
    "integrated",
    "media",
    "Média",
    "media-fill",
    "fill",
    "filled",
    "filling",
    "Fills",
    "ﬁll",
    "out",
    "of",
    "specification",
    "Specifications",
    "the",
    "a",
    "to",
    "test",
    "tests",
    "Tested",
    "testing",
    "non-sterile",
    "sterile",
    "sterility",
    "x" * 45,
    "process",
    "processes",
]
SEPARATORS = [" ", " ", " ", ", ", ". ", " - ", "/", "\n", " (", ") "]


def written_text(rng: random.Random, n: int) -> str:
    out = []
    for _ in range(n):
        out += [rng.choice(WRITTEN), rng.choice(SEPARATORS)]
    return "".join(out)


def written_corpus(seed: int, n: int) -> list[dict[str, object]]:
    rng = random.Random(seed)
    return [
        doc(
            written_text(rng, rng.randint(1, 3)),
            [written_text(rng, rng.randint(0, 30)) for _ in range(rng.randint(1, 3))],
            key=f"w{seed}-{i}",
        )
        for i in range(n)
    ]


def near_misses() -> dict[str, list[str]]:
    """Each term's written forms (folded) among `WRITTEN`."""
    out: dict[str, set[str]] = {}
    for w in WRITTEN:
        for word, term in zip(text.surface_words(w), text.terms(w), strict=True):
            out.setdefault(term, set()).add(word)
    return {t: sorted(ws) for t, ws in out.items()}


def random_quoted(store, rng: random.Random, n: int) -> list[tuple[list[str], list[str], int]]:
    """(terms, words, slop): 1 to 4 consecutive words of random pages as written, or two words
    further apart, some with a slop, some with a word swapped for another form of its term."""
    forms = near_misses()
    page_rows = store.rows.pages(list(range(store.n_pages)))
    out: list[tuple[list[str], list[str], int]] = []
    while len(out) < n:
        row = rng.choice(page_rows)
        page = f"{row['title']} {row['text']}"
        words, terms = list(text.surface_words(page)), text.terms(page)
        if len(terms) < 6:
            continue
        start = rng.randrange(len(terms) - 5)
        if rng.random() < 0.6:
            picked = list(range(start, start + rng.randint(1, 4)))
            slop = rng.choice([0, 0, 1, 2])
        else:
            picked = [start, start + rng.randint(2, 4)]
            slop = rng.choice([0, 1, 3])
        chosen = [words[i] for i in picked]
        if rng.random() < 0.4:
            j = rng.randrange(len(picked))
            chosen[j] = rng.choice(forms.get(terms[picked[j]], [chosen[j]]))
        out.append(([terms[i] for i in picked], chosen, slop))
    return out


def read_as_written(store, ids, terms, words, slop) -> np.ndarray:
    """What the pages say: the terms in order, then the words as written, each page read."""
    out = store.rows.read_phrase_pages(ids, terms, slop)
    at = np.flatnonzero(out)
    out[at] = store.rows.surface_pages(ids[at], words, slop)
    return out


def assert_forms_agree(store, quoted) -> None:
    """Every segment has its forms, and each quoted phrase finds what reading the pages finds."""
    assert all(seg.has_forms for seg in store.segments)
    ids = np.arange(store.n_pages)
    told_apart = by_words = 0
    for terms, words, slop in quoted:
        expected = read_as_written(store, ids, terms, words, slop)
        got = store.rows.phrase_pages(ids, terms, slop, words=words)
        assert got.tolist() == expected.tolist(), (terms, words, slop)
        told_apart += 0 < expected.sum() < ids.size
        by_words += (expected != store.rows.read_phrase_pages(ids, terms, slop)).any()
    assert told_apart > len(quoted) // 2
    assert by_words > len(quoted) // 5  # the words tell pages apart that the terms do not


# --- the parts ----------------------------------------------------------------------------------


def test_a_terms_forms_come_most_written_first_then_in_string_order():
    words = pa.array(["tests", "test", "tested", "fill", "filled"])
    term = np.array([7, 7, 7, 3, 7, 7, 3, 3, 3])
    word = np.array([0, 1, 1, 3, 2, 0, 4, 3, 3])  # "test" and "tests" twice each: string order
    got = positions.written_forms(term, word, words)
    assert got.forms.column("term_id").to_pylist() == [3, 3, 7, 7, 7]
    assert got.forms.column("form").to_pylist() == ["fill", "filled", "test", "tests", "tested"]
    assert got.variants.tolist() == [1, 0, 0, 0, 2, 1, 1, 0, 0]


def test_forms_and_variants_come_back_from_their_files(tmp_path):
    """Terms with no forms, one, several (accented, multi-byte); an empty segment too."""
    words = pa.array(["tests", "test", "médïa", "media", "fill", "tested"])
    #                      term 4: media médïa; 6: fill; 7: tests test tested; 9: none
    term = np.array([7, 7, 4, 4, 4, 6, 7, 7, 7])
    word = np.array([0, 1, 2, 3, 3, 4, 5, 0, 1])
    written = positions.written_forms(term, word, words)
    terms = np.array([2, 4, 6, 7, 9])
    offsets = np.array([0, 1, 2, 3, 5, 6])  # postings per term: 1, 1, 1, 2, 1
    counts = np.array([0, 3, 1, 3, 2, 0])  # positions per posting (term 2, 9: none)
    order = np.lexsort((np.arange(term.size), term))  # positions in term order, as stored
    written = positions.WrittenForms(written.variants[order], written.forms)
    positions.write_forms(tmp_path, written, counts, offsets, terms)
    positions.write_positions(tmp_path, np.arange(term.size), counts, offsets)
    held = positions.Positions(tmp_path)
    forms = held.forms
    assert forms is not None
    assert [forms.of(a) for a in range(5)] == [
        [],
        ["media", "médïa"],
        ["fill"],
        ["test", "tests", "tested"],
        [],
    ]
    assert [forms.variant(1, "médïa"), forms.variant(2, "fill"), forms.variant(2, "fills")] == [
        1,
        ANY,
        None,
    ]
    form, strings = forms.all(held.terms)
    got = [strings[int(f)].as_py() for f in form]
    assert got == [words[int(w)].as_py() for w in word[order]]
    empty = tmp_path / "empty"
    empty.mkdir()
    none = positions.written_forms(np.zeros(0, int), np.zeros(0, int), pa.array([], pa.string()))
    positions.write_forms(empty, none, np.zeros(0, int), np.zeros(1, int), np.zeros(0, int))
    positions.write_positions(empty, np.zeros(0, int), np.zeros(0, int), np.zeros(1, int))
    assert positions.Positions(empty).forms.all(np.zeros(1, np.int64))[0].size == 0


def brute_hits(pages, phrase, slop) -> list[bool]:
    """Each page (a list of (term, variant) words) holds the phrase ((term, variant or ANY)
    words) in order with at most `slop` words between consecutive ones."""

    def fits(word, want) -> bool:
        return word[0] == want[0] and want[1] in (ANY, word[1])

    out = []
    for page in pages:
        reach = {p for p, w in enumerate(page) if fits(w, phrase[0])}
        for want in phrase[1:]:
            reach = {
                p
                for p, w in enumerate(page)
                if fits(w, want) and any(p - slop - 1 <= q < p for q in reach)
            }
        out.append(bool(reach))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_the_kernel_checks_order_slop_and_each_words_variant_in_one_pass(seed):
    rng = np.random.default_rng(seed)
    n_pages, n_terms, n_variants = 30, 3, 3
    pages = [
        list(
            zip(
                rng.integers(0, n_terms, n).tolist(),
                rng.integers(0, n_variants, n).tolist(),
                strict=True,
            )
        )
        for n in rng.integers(0, 25, n_pages)
    ]
    for slop in (0, 1, 3):
        k = int(rng.integers(1, 5))
        phrase = [
            (int(rng.integers(0, n_terms)), int(rng.choice([ANY, 0, 1, 2]))) for _ in range(k)
        ]
        pos_values: list[int] = []
        var_values: list[int] = []
        starts = np.zeros((k, n_pages), np.int64)
        v_starts = np.zeros((k, n_pages), np.int64)
        counts = np.zeros((k, n_pages), np.int64)
        for j, (t, _) in enumerate(phrase):
            for i, page in enumerate(pages):
                at = [p for p, w in enumerate(page) if w[0] == t]
                starts[j, i], v_starts[j, i], counts[j, i] = (
                    len(pos_values),
                    len(var_values),
                    len(at),
                )
                pos_values += positions.deltas(np.asarray(at), np.asarray([len(at)])).tolist()
                var_values += [page[p][1] for p in at]
        packed, blocks = positions.pack(np.asarray(pos_values, np.uint32))
        v_packed, v_blocks = positions.pack(np.asarray(var_values, np.uint32))
        want = np.asarray([v for _, v in phrase], np.int64)
        got = position_kernels.written_hits(
            packed, blocks, starts, counts, slop, v_packed, v_blocks, v_starts, want
        )
        assert got.tolist() == brute_hits(pages, phrase, slop), (phrase, slop)


def test_renumbered_terms_keep_their_forms_and_variants():
    words = pa.array(["tests", "test", "fill"])
    term = np.array([5, 5, 5, 6])  # 5, 6: new terms, numbered from 5
    forms = positions.written_forms(term, np.array([0, 1, 0, 2]), words)
    empty = pa.table({"x": pa.array([], pa.int32())})
    data = segments.SegmentData(
        docs=empty, page_doc=np.zeros(2, np.int32), page_num=np.ones(2, np.int32),
        page_dl=np.ones(2, np.int32), texts=pa.chunked_array([["a", "b"]]),
        vectors=np.zeros((2, 2), np.float16),
        post_term=np.array([5, 5, 6], np.int32), post_page=np.array([0, 1, 0], np.int32),
        post_tf=np.array([2, 1, 1], np.int32), fields=empty, identifiers=empty,
        post_pos=np.array([0, 3, 0, 1], np.int32), post_npos=np.array([2, 1, 1], np.int32),
        post_forms=forms,
    )  # fmt: skip
    out = index_ray.renumber_terms(data, 5, np.array([9, 2]))
    assert out.post_term.tolist() == [2, 9, 9]
    assert out.post_forms is not None
    assert out.post_forms.variants.tolist() == [0, 0, 1, 0]  # fill; tests, test; tests
    table = out.post_forms.forms
    assert list(zip(table["term_id"].to_pylist(), table["form"].to_pylist(), strict=True)) == [
        (9, "tests"),
        (9, "test"),
        (2, "fill"),
    ]


# --- in an index --------------------------------------------------------------------------------


def test_quoted_words_from_the_index_agree_with_reading_the_pages(make_engine):
    eng = make_engine(
        {"fda_483": written_corpus(1, 70), "fda_warning_letters": written_corpus(2, 40)}
    )
    store = eng.store
    tricky = [
        (text.terms(p), list(text.surface_words(p)), s)
        for p in (
            "data integrity",
            "data integration",
            "Média fill",
            "ﬁll",
            "INTEGRITY",
            "tests tests",
        )
        for s in (0, 2)
    ]
    assert_forms_agree(store, tricky + random_quoted(store, random.Random(3), 80))


def test_a_segment_without_forms_reads_its_pages_as_before(make_engine):
    store = make_engine({"fda_483": written_corpus(3, 60)}).store
    quoted = random_quoted(store, random.Random(4), 40)
    ids = np.arange(store.n_pages)
    expected = [store.rows.phrase_pages(ids, t, s, words=w).tolist() for t, w, s in quoted]
    for seg in store.segments:
        held = seg.positions()
        assert held is not None and held.forms is not None
        held.forms = None  # as a segment written before forms
    got = [store.rows.phrase_pages(ids, t, s, words=w).tolist() for t, w, s in quoted]
    assert got == expected


def test_searches_with_quoted_words_answer_as_reading_the_pages_does(make_engine):
    """Random quoted phrases, proximity and phrase exclusions: the same results and counts
    whether the words are checked from the index or on the pages."""
    eng = make_engine(
        {"fda_483": written_corpus(5, 100), "fda_warning_letters": written_corpus(6, 50)}
    )
    rng = random.Random(9)
    quoted = ((words, slop) for _, words, slop in random_quoted(eng.store, rng, 40))
    items = phrase_items(quoted, ["data", "test", "fill", "sterile"], rng)
    from_forms = search_answers(eng, items)
    for seg in eng.store.segments:
        held = seg.positions()
        assert held is not None
        held.forms = None
    assert search_answers(eng, items) == from_forms
    assert sum(bool(ids) for ids, _ in from_forms) > len(items) // 3


def engine_settings(tmp_path, batch_pages: int, merge: int | None = None) -> Settings:
    base = Settings.from_env().__dict__
    extra = {} if merge is None else {"merge_segments": merge}
    return Settings(
        **{**base, "home": tmp_path / "home", "index_batch_pages": batch_pages, **extra}
    )


def test_merged_segments_carry_their_forms(tmp_path):
    corpus = tmp_path / "corpus"
    docs = {"fda_483": written_corpus(7, 40), "fda_warning_letters": written_corpus(8, 40)}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    settings = engine_settings(tmp_path, 10, merge=0)
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        folder = eng.store.files.folder
        assert len(eng.store.segments) > 1
        quoted = random_quoted(eng.store, random.Random(1), 50)
    assert build.merge_runs(folder, batch_pages=10**6) == 1
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        assert len(eng.store.segments) == 1
        assert_forms_agree(eng.store, quoted)


def strip_forms(folder) -> None:
    """A segment as written with positions but before forms."""
    for name in FORM_FILES:
        (folder / name).unlink()
    summary = json.loads((folder / SUMMARY).read_text())
    summary["files"] = {k: v for k, v in summary["files"].items() if k not in FORM_FILES}
    (folder / SUMMARY).write_text(json.dumps(summary))


def test_an_index_with_positions_but_no_forms_gets_them_when_next_opened(tmp_path):
    corpus = tmp_path / "corpus"
    docs = {"fda_483": written_corpus(9, 50), "fda_warning_letters": written_corpus(10, 30)}
    regnb.write_corpus(corpus, docs, encoder=regnb.HashingEncoder(), progress=False)
    settings = engine_settings(tmp_path, 30)
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        folders = [seg.folder for seg in eng.store.segments]
    names = positions.FILES + FORM_FILES
    written = {f / name: (f / name).read_bytes() for f in folders for name in names}
    stamps = {f / name: (f / name).stat().st_mtime_ns for f in folders for name in positions.FILES}
    for f in folders:
        strip_forms(f)
    assert not any(Segment(f).has_forms for f in folders)
    assert all(Segment(f).has_positions for f in folders)
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as eng:
        assert [seg.folder for seg in eng.store.segments] == folders  # not rebuilt
        assert {path: path.read_bytes() for path in written} == written  # as a build writes them
        assert {p: p.stat().st_mtime_ns for p in stamps} == stamps  # positions left as they were
        assert_forms_agree(eng.store, random_quoted(eng.store, random.Random(2), 40))
