"""The leads that open an answer with the yes or no asked: mentions that only deny."""

from __future__ import annotations

from regnb.agent._leads import _only_denied

DENIED = {
    "a": "THE CUSTOMER REPORTED SIGNAL LOSS. THERE WAS NO REPORT OF DEATH, INJURY, OR CHANGE TO "
    "PATIENT TREATMENT AS A RESULT OF THIS EVENT.",
    "b": "The event did not result in serious injury or death.",
    "c": "Results were questionable. No harm was reported.",
}


def test_a_term_every_reading_document_mentions_only_after_a_denial_is_denied() -> None:
    assert _only_denied(DENIED, "deaths", 2)  # "death" in a and b, each after "no" / "not"
    assert _only_denied(DENIED, "injuries", 2)


def test_a_mention_without_a_denial_in_its_sentence_is_not_denied() -> None:
    texts = {**DENIED, "d": "There were no alarms. The patient died; death was reported."}
    assert not _only_denied(texts, "deaths", 3)  # "no" is in the sentence before


def test_documents_holding_the_term_that_were_not_read_leave_it_open() -> None:
    assert not _only_denied(DENIED, "deaths", 5)  # 5 hold it, 2 were read
    assert not _only_denied(DENIED, "", 0)
