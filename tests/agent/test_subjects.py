"""Which of the documents a question names are listed first: what the user points at, and every
letter of the application the question is about."""

from __future__ import annotations

from regnb.agent._stages import Found
from regnb.agent.agent import _same_application, pointed_order


def _crl(doc_id: str, title: str, number: str, date: str) -> Found:
    fields = {"application_number": number, "company": "Marius"}
    return Found(doc_id, "fda_crl", title, date, None, fields, 1.0, (1,), False)


LATER = _crl("a", "Complete Response Letter - Testosterone Undecanoate", "213953", "2021-10-22")
EARLIER = _crl("b", "Complete Response Letter - Kyzatrex", "213953", "2020-12-31")
OTHER = _crl("c", "Complete Response Letter - Jatenzo", "206089", "2017-09-05")


def test_the_document_a_search_for_the_pointer_ranks_first_comes_first() -> None:
    assert pointed_order([LATER, EARLIER, OTHER], ["b", "a"]) == [EARLIER, LATER, OTHER]


def test_documents_the_pointer_search_did_not_find_keep_their_order_after() -> None:
    assert pointed_order([LATER, OTHER, EARLIER], []) == [LATER, OTHER, EARLIER]


def test_a_letter_of_the_same_application_is_kept_beside_the_one_whose_title_fits() -> None:
    """The NDA's two letters are titled by the drug and by its brand: both are its letters."""
    assert _same_application(EARLIER, [LATER])
    assert not _same_application(OTHER, [LATER])
    assert not _same_application(
        Found("d", "fda_483", "483", None, None, {}, 1.0, (1,), False), [LATER]
    )
