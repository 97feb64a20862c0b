"""A build reads each page's words once, outside SQL (`regnb.index.tokens`): the postings,
lengths, positions and words as written (forms) are those that tokenising every page in SQL
(`regnb_words`, as segments written before positions or forms are tokenised again) gives, over texts made to be awkward: accents,
capitals that lower to other letters, scripts without spaces, punctuation inside words, stop
words, over-long words, NUL bytes, empty and missing texts."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from regnb import text
from regnb.index import segments, tokens
from regnb.index.build import TERM_SCHEMA
from regnb.index.positions import WrittenForms

PIECES = [
    "Sterility",
    "STERILE",
    "Integrity",  # case variants of one form, and another form of the same term (integr)
    "integrity",
    "INTEGRITY",
    "integration",
    "the",
    "and",
    "of",
    "Résumé",
    "naïve",
    "café",
    "İstanbul",
    "Straße",
    "ﬁlling",  # a ligature (folded)
    "\u212a",  # the Kelvin sign lowers to an ASCII k
    "Ｆｕｌｌ",  # full width (folded)
    "제조소",
    "의약품의",
    "don’t",
    "21 CFR 211.113",
    "e.g.",
    "x" * 45,  # over-long: dropped
    "a" * 40,
    "ab\u0301c",  # a combining accent inside a word
    "=\u0338",  # a combining mark after punctuation
    "\u200bzero\u200bwidth",
    "—",
    "•",
    "\x00",
    "\n",
    "  ",
    "12",
    "3.5mg",
    "μg",
    "ΑΒΓ",
]


def random_text(rng: random.Random) -> str:
    return " ".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30))).replace(
        "  ", rng.choice([" ", "", "-", "/"])
    )


def tables(seed: int) -> tuple[pa.Table, pa.Table]:
    rng = random.Random(seed)
    titles, counts, texts = [], [], []
    for _ in range(40):
        titles.append(None if rng.random() < 0.05 else random_text(rng))
        counts.append(rng.randint(1, 4))
        texts += [random_text(rng) for _ in range(counts[-1])]
    n = len(titles)
    first = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int32)
    docs = pa.table(
        {
            "document_id": [f"d{i}" for i in range(n)],
            "dataset": ["fda_483"] * n,
            "title": pa.array(titles, pa.string()),
            "date": pa.array([None] * n, pa.date32()),
            "url": [""] * n,
            "fields": ["{}"] * n,
            "page_count": pa.array(counts, pa.int32()),
            "first_page_id": pa.array(first),
            "content_hash": [""] * n,
            "shard_id": ["s"] * n,
        }
    )
    pages = pa.table(
        {
            "doc_row": pa.array(np.repeat(np.arange(n, dtype=np.int32), counts)),
            "page_num": pa.array(np.concatenate([np.arange(c) for c in counts]).astype(np.int32)),
            "text": pa.array(texts, pa.string()),
        }
    )
    return docs, pages


def tokenised_in_sql(
    docs: pa.Table, pages: pa.Table, new_terms: pa.Table
) -> tuple[np.ndarray, np.ndarray, np.ndarray, WrittenForms]:
    """(term, page, position) of every kept word and their forms, as the SQL of
    `segments.TOKENISE_SQL` and `segments.word_positions` give them."""
    con = text.connect()
    try:
        con.register(
            "docs_in",
            docs.append_column("doc_row", pa.array(np.arange(docs.num_rows, dtype=np.int32))),
        )
        con.register(
            "pages_in",
            pa.table(
                {
                    "page_id": pa.array(np.arange(pages.num_rows, dtype=np.int32)),
                    "doc_row": pages.column("doc_row"),
                    "text": pages.column("text"),
                }
            ),
        )
        con.register("folded_in", segments._folded_pages(docs, pages))
        con.register("dict_in", TERM_SCHEMA.empty_table())
        con.register("new_terms", new_terms)
        for sql in segments.TOKENISE_SQL:
            con.execute(sql)
        return segments.word_positions(con)
    finally:
        con.close()


@pytest.mark.parametrize("seed", range(6))
def test_a_build_reads_the_words_sql_reads(seed):
    docs, pages = tables(seed)
    data, new_terms = segments.from_tables(
        docs, pages, np.zeros((pages.num_rows, 4), np.float16), TERM_SCHEMA.empty_table(), 1
    )
    term, page, pos, _ = tokenised_in_sql(docs, pages, new_terms)
    assert term.size > 100
    words = data.post_npos > 0  # a citation's or first page's posting has no positions
    assert data.post_npos[words].tolist() == data.post_tf[words].tolist()
    key = term.astype(np.int64) * pages.num_rows + page
    held, counts = np.unique(key, return_counts=True)
    assert (
        data.post_term[words].astype(np.int64) * pages.num_rows + data.post_page[words]
    ).tolist() == held.tolist()
    assert data.post_tf[words].tolist() == counts.tolist()
    assert data.post_pos is not None and data.post_pos.tolist() == pos.tolist()
    assert data.page_dl.tolist() == np.bincount(page, minlength=pages.num_rows).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_a_build_writes_the_forms_sql_gives(seed):
    docs, pages = tables(seed)
    data, new_terms = segments.from_tables(
        docs, pages, np.zeros((pages.num_rows, 4), np.float16), TERM_SCHEMA.empty_table(), 1
    )
    *_, forms = tokenised_in_sql(docs, pages, new_terms)
    assert data.post_forms is not None
    assert data.post_forms.forms.equals(forms.forms)
    assert data.post_forms.variants.tolist() == forms.variants.tolist()
    ids = dict(zip(*new_terms.to_pydict().values(), strict=True))
    held = forms.forms.filter(pc.equal(forms.forms["term_id"], ids["integr"]))
    assert set(held["form"].to_pylist()) == {"integrity", "integration"}  # case folded
    assert forms.variants.max() > 0  # some positions are not their term's first form


@pytest.mark.parametrize(
    ("page", "words"),
    [
        ("Sterile FILLING, e.g. 3.5mg", ["sterile", "filling", "e", "g", "3", "5mg"]),
        ("Résumé café—naïve", ["resume", "cafe", "naive"]),
        ("don’t 제조소의", ["don", "t", "제조소의"]),
        ("end\x00after", ["end", "after"]),  # ASCII: a NUL is a space
        ("é\x00after", ["e"]),  # DuckDB's strip_accents stops at a NUL once a page is not ASCII
        ("", []),
    ],
)
def test_a_page_is_cut_into_the_words_regnb_words_gives(page, words):
    con = text.connect()
    try:
        assert con.execute("SELECT regnb_words(?)", [page]).fetchone() == (words,)
        read = tokens.page_words(con, tokens.PageText.of(pa.array([page])))
    finally:
        con.close()
    got = [
        read.words[int(w)].as_py()
        for r in read.runs
        for w in read.run_word[read.run_start[r] : read.run_start[r + 1]]
    ]
    assert got == words
