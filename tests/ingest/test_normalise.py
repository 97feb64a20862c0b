"""Text normalisation: NFC, hyphenation, running headers and footers, page splitting."""

from __future__ import annotations

import unicodedata

import pytest

from regnb.ingest.normalise import (
    normalise_pages,
    normalise_text,
    remove_page_marks,
    remove_repeated_lines,
    split_pages,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("The manufac-\nturing site", "The manufacturing site"),
        ("The manufac-\r\nturing site", "The manufacturing site"),
        ("pdfium marks manufac\x02turing so", "pdfium marks manufacturing so"),
        ("soft hy\u00ad\nphen", "soft hyphen"),
        ("the COVID-\n19 pandemic", "the COVID-19 pandemic"),
        ("Anti-\nInflammatory drugs", "Anti-Inflammatory drugs"),
        (
            "a short-\nterm study; short and term are words",
            "a short-term study; short and term are words",
        ),
        ("21 CFR 211-\n113", "21 CFR 211-\n113"),
        ("a list -\nnext line", "a list -\nnext line"),
        ("Cafe\u0301 cre\u0300me", "Café crème"),
        ("too   many\u00a0 spaces \t here", "too many spaces here"),
        ("line one  \n   line two", "line one\nline two"),
        ("a\n\n\n\n\nb", "a\n\nb"),
        ("nul\x00 and bell\x07 gone", "nul and bell gone"),
    ],
)
def test_normalise_text(raw: str, expected: str) -> None:
    assert normalise_text(raw) == expected


def test_hyphenation_follows_the_document_s_own_words() -> None:
    pages = normalise_pages(["we will re-\nevaluate it", "then re-evaluate it again"])
    assert pages[0] == "we will re-evaluate it"
    pages = normalise_pages(["the stabil-\nity data", "stability is shown"])
    assert pages[0] == "the stability data"


def test_korean_text_is_intact() -> None:
    text = (
        "의료기기의 생물학적 안전에 관한 공통기준 및 시험방법\n제조업자는 품목허가를 받아야 한다."
    )
    decomposed = unicodedata.normalize("NFD", text)
    assert normalise_text(text) == text
    assert normalise_text(decomposed) == text


def test_running_headers_and_footers_are_removed_but_kept_once() -> None:
    pages = [
        f"NDA 012345/S-001\nReference body {i}\nmore text {i}\nReference ID: 4000{i}\n{i + 1}"
        for i in range(5)
    ]
    pages = [
        p.replace(f"Reference ID: 4000{i}", "Reference ID: 4000000") for i, p in enumerate(pages)
    ]
    out = remove_repeated_lines(pages)
    assert out[0] == "NDA 012345/S-001\nReference body 0\nmore text 0\nReference ID: 4000000"
    for i, page in enumerate(out[1:], start=1):
        assert page == f"Reference body {i}\nmore text {i}"


def test_page_number_lines_are_removed() -> None:
    pages = [f"Page {i} of 4\nbody {i}" for i in range(1, 5)]
    assert remove_repeated_lines(pages) == [f"body {i}" for i in range(1, 5)]


def test_short_documents_and_distinct_lines_are_unchanged() -> None:
    assert remove_repeated_lines(["a\nb", "a\nc"]) == ["a\nb", "a\nc"]
    pages = ["OBSERVATION 1\nx", "OBSERVATION 2\ny", "OBSERVATION 3\nz"]
    assert remove_repeated_lines(pages) == pages


def test_split_pages_cuts_at_paragraph_breaks() -> None:
    paragraphs = [f"Paragraph {i} " + "word " * 100 for i in range(30)]
    pages = split_pages("\n\n".join(paragraphs))
    assert len(pages) > 5
    assert all(len(p) <= 3_000 for p in pages)
    assert all(p.startswith("Paragraph ") for p in pages)
    assert "\n\n".join(pages).split("\n\n") == [p.strip() for p in paragraphs]


def test_split_pages_cuts_a_very_long_paragraph() -> None:
    text = "A sentence that goes on. " * 500
    pages = split_pages(text)
    assert all(len(p) <= 3_000 for p in pages)
    assert " ".join(pages).split() == text.split()
    assert split_pages("") == [""]


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("NDA 209128\nPage 2\nTo address this deficiency:", "To address this deficiency:"),
        ("BLA 125522/ Original 2\nPage 3\nAll future submissions", "All future submissions"),
        ("NDA 22-075\nPage 2\nA more important problem", "A more important problem"),
        ("NDA 018680/S-074\nPage 2\nU.S. Food and Drug", "U.S. Food and Drug"),
        ("ANDA 076543 Page 4\nbody", "body"),
        ("Page 2\nNDA 211150/Original 2\nbody", "body"),
        ("body\nmore\nReference ID: 4165764", "body\nmore"),
        ("body\nReference ID: 3812463\nReference ID: 4772571", "body"),
        ("body\n(b) (4) Reference ID: 4601440", "body\n(b) (4)"),
        (
            "body\nReference ID: 3453258 12 Page(s) of Draft Labeling",
            "body\n12 Page(s) of Draft Labeling",
        ),
        ("Page 2 of 9\nbody\nmore\nPage 2 of 9", "body\nmore"),
        ("body\nPage 3\nfooter line", "body\nfooter line"),
    ],
)
def test_page_marks_are_removed(page: str, expected: str) -> None:
    assert remove_page_marks(page) == expected


@pytest.mark.parametrize(
    "page",
    [
        "DEPARTMENT OF HEALTH\nNDA 209128\nCOMPLETE RESPONSE\nAcme Pharma",  # the letter's heading
        "one\ntwo\nthree\nsee Page 3 of the report\nfour\nfive\nsix",
        "one\ntwo\nthree\nPage 3\nfour\nfive\nsix",  # not among the first or last lines
        "We refer to NDA 209128.\nPage 2 of the submission lists the sites.",
        "The reference ID: 4165764 was assigned to the file.",
    ],
)
def test_content_that_looks_like_a_page_mark_stays(page: str) -> None:
    assert remove_page_marks(page) == page


def test_a_stamp_does_not_glue_itself_to_a_hyphenated_word() -> None:
    pages = ["greater with the product than for a non\x02Reference ID: 3453258", "next page"]
    assert normalise_pages(pages)[0] == "greater with the product than for a non-"
