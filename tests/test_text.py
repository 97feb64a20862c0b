"""The one word normalisation shared by index and queries."""

from __future__ import annotations

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
