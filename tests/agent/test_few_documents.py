"""A question about one document is answered from it and at most three others."""

from __future__ import annotations

from regnb.agent._research import _few_documents
from regnb.agent._stages import Found, Passage, Unit


def _passage(doc: str, n: int) -> Passage:
    found = Found(doc, "fda_crl", f"CRL {doc}", "2017-02-17", None, {}, 1.0, (1,), False)
    unit = Unit(1, n, n, f"deficiency {n} of {doc}", "deficiency", "", None, ())
    return Passage(found, 1, unit, keyword=1.0, prior=1.0)


def test_the_passages_of_the_first_documents_ranked_are_kept_in_rank_order() -> None:
    ranked = [_passage(d, n) for n, d in enumerate("aabcdeafg")]
    kept = _few_documents(ranked, 4)
    assert [p.found.document_id for p in kept] == list("aabcda")


def test_fewer_documents_than_the_most_are_all_kept() -> None:
    ranked = [_passage("a", 1), _passage("b", 2)]
    assert _few_documents(ranked, 4) == ranked
