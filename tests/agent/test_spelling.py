"""regnb.agent._spelling: the question's vocabulary put right before it is read, nothing else."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from regnb.agent._spelling import spelled


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("Did Edge Pharma get a warning leter?", "Did Edge Pharma get a warning letter?"),
        ("warnig letter to intas", "warning letter to intas"),
        ("complete respnse letter for jatenzo", "complete response letter for jatenzo"),
        ("eli lily inspecton 2021 observatons", "eli lily inspection 2021 observations"),
        ("guidnace on eCopy", "guidance on eCopy"),  # a transposition is one edit
        ("Guidence on eCopy", "Guidance on eCopy"),  # the capital kept
        ("sandoz recals 2012", "sandoz recall 2012"),
        ("enforcment reports of listeria", "enforcement reports of listeria"),
        ("compouding pharmacies in Texas", "compounding pharmacies in Texas"),
    ],
)
def test_a_misspelt_word_of_the_questions_vocabulary_is_put_right(typed: str, read: str) -> None:
    assert spelled(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "Which letters were issued in 2021?",  # another form of "issues"
        "devices reported to MAUDE",  # of "report"
        "the 483 form and the firm",  # short words: one edit reaches a real one
        "Trail Pharma",  # one edit from "trial", but four letters
        'the phrase "warning leter" as typed',  # quotes as typed
        "What did the 2019 inspection find?",  # spelled right
    ],
)
def test_other_words_are_left_as_typed(typed: str) -> None:
    assert spelled(typed) == typed


def test_a_word_the_corpus_uses_is_not_corrected() -> None:
    """ "audit trails" is one edit from "trials", but the corpus's letters use it: not a typo."""

    def df(words: Sequence[str]) -> dict[str, float]:
        shares = {"trails": 0.01, "trials": 0.02, "leter": 0.0, "letter": 0.3}
        return {w: shares.get(w, 0.0) for w in words}

    assert spelled("audit trails in the warning leter", df) == (
        "audit trails in the warning letter"
    )
    assert spelled("audit trails in the warning leter") == "audit trials in the warning letter"
