"""The one word normalisation shared by index and queries."""

from __future__ import annotations

import re

import pytest

from regnb import text


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Inspections of the facility", ["inspect", "facil"]),
        ("21 CFR 211.113(b)", ["21", "cfr", "211", "113", "b"]),
        ("K123456 NCT01234567", ["k123456", "nct01234567"]),
        ("Café Ångström", ["cafe", "angstrom"]),
        ("한국어 문서", ["한국어", "문서"]),
        ("the of and", []),
        ("ｓｔｅｒｉｌｉｔｙ ＦＤＡ", ["steril", "fda"]),  # full-width forms
        ("ste\u200brility", ["steril"]),  # zero-width space inside a word
        ("sterili\u00adty re\u200d\u2060call", ["steril", "recal"]),  # soft hyphen, joiners
        ("ﬁlling", ["fill"]),  # ligature
        ("SoluPrep™ and Foo℠ Bar®", ["soluprep", "foo", "bar"]),  # marks do not glue on
        ("\u200b", []),
        ("", []),
    ],
)
def test_terms(given, expected):
    assert text.terms(given) == expected


def test_word_terms_maps_words_and_stop_words():
    mapping = text.Normaliser().word_terms(["Sterility", "the", "Inspections"])
    assert mapping == {"sterility": "steril", "the": None, "inspections": "inspect"}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("plain ascii", "plain ascii"),
        ("ｓｔｅｒｉｌｉｔｙ", "sterility"),
        ("ste\u200brility", "sterility"),
        ("Café", "Café"),
        ("한국어", "한국어"),
        ("\ufeffBOM", "BOM"),
    ],
)
def test_fold_maps_compatibility_forms_and_drops_format_characters(given, expected):
    assert text.fold(given) == expected


def test_word_terms_fold_like_terms():
    mapping = text.Normaliser().word_terms(["ｓｔｅｒｉｌｉｔｙ", "ste\u200brility"])
    assert set(mapping.values()) == {"steril"}


def _stable_chars() -> list[str]:
    """The characters of `fold_stable_class` beyond ASCII (its ranges, in RE2's syntax)."""
    import re

    ranges = re.findall(r"\\x\{([0-9a-f]+)\}-\\x\{([0-9a-f]+)\}", text.fold_stable_class())
    return [chr(c) for lo, hi in ranges[1:] for c in range(int(lo, 16), int(hi, 16) + 1)]


def test_text_made_of_the_fold_stable_characters_is_what_fold_leaves_as_it_is():
    import random

    stable = _stable_chars()
    assert "é" in stable and "’" in stable and "\uf0b7" in stable  # common in FDA pages
    for changed in ["µ", "™", "®", "ﬁ", "\u00ad", "\u200b", "\u0301", "２", "²"]:
        assert changed not in stable
    rng = random.Random(3)
    # each character alone, then random runs of them after letters that accents compose with
    assert [c for c in stable if text.fold(c) != c] == []
    for _ in range(2_000):
        s = "".join(rng.choice(stable + list("eEaoAnc ")) for _ in range(rng.randint(1, 12)))
        assert text.fold(s) == s, repr(s)


def test_unchanged_by_fold_flags_only_texts_fold_leaves_alone():
    import random

    import pyarrow as pa

    rng = random.Random(4)
    pool = _stable_chars()[::7] + list("abc e") + ["µ", "™", "ﬁ", "\u200b", "e\u0301", "Ｆ"]
    texts = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 8))) for _ in range(3_000)]
    texts += ["plain ASCII", "Café – “quoted” § 211.113", "10 µg", "Drug™", None]
    flags = text.unchanged_by_fold(pa.array(texts, pa.string()))
    for s, flag in zip(texts, flags.tolist(), strict=True):
        if flag:
            assert text.fold(s) == s, repr(s)
    assert flags[-5:].tolist() == [True, True, False, False, False]
    assert flags.sum() > 100  # the fast path is taken


@pytest.mark.parametrize(
    ("phrase", "slop", "page", "found"),
    [
        ("data integrity", 0, "Lapses of DATA INTEGRITY here", True),
        ("data integrity", 0, "the data integration of systems", False),
        ("data integrity", 0, "metadata integrity", False),  # whole words only
        ("data integrity", 0, "data integrityx", False),
        ("data integrity", 0, "data_integrity", True),  # `_` parts words, as the index reads
        ("data integrity", 0, "data of the integrity", True),  # stop words are skipped
        ("fill the media", 0, "fill media", True),
        ("data integrity", 0, "data system integrity", False),
        ("data integrity", 1, "data system integrity", True),
        ("data integrity", 1, "data big system integrity", False),
        ("integrite", 0, "Intégrité des données", True),  # accents folded
        ("211.113(b)", 0, "under 211.113 (b) of", True),
    ],
)
def test_a_quoted_phrase_matches_its_words_as_written(phrase, slop, page, found):
    pattern = text.surface_pattern(text.surface_words(phrase), slop)
    assert (pattern.search(text.surface_text(page)) is not None) is found


@pytest.mark.parametrize(
    "page",
    [
        "Lapses of DATA INTEGRITY",
        "x\u200bdata integrity",  # a format character folded away joins the words
        "ﬁll media",  # a ligature
        "ＤＡＴＡ integrity",  # full-width letters
        "the data’s “integrity” • §211.68 ≥ 5",
        "Drug™X",
        "Intégrité des données",
        "5 µg of naïve café",
        "의약품 제조 및 품질관리",
    ],
)
def test_a_page_s_surface_words_are_the_index_s_words_unstemmed(page):
    found = [w for w in re.findall(r"[^\W_]+", text.surface_text(page)) if w not in text.STOP_WORDS]
    assert found == list(text.surface_words(page))
