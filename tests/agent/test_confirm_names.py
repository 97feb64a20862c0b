"""regnb.agent._searching.confirm_names: the firm and product names a probe finds in a catalog
filter field, kept as filters only where they choose one side."""

from __future__ import annotations

from typing import Any

from regnb.agent._searching import confirm_names
from regnb.agent._stages import Ask, Plan, Topic
from regnb.results import SearchResult


def _probe(*companies: str) -> SearchResult:
    results = [
        {"dataset": "fda_crl", "document_id": f"d{i}", "fields": {"company": c}}
        for i, c in enumerate(companies)
    ]
    return SearchResult(results, {}, len(results), None, "bm25")


def _plan(kind: str, *names: str) -> Plan:
    return Plan("m", "q", topic=Topic(names=names), ask=Ask(kind=kind))


def _filters(ds: str) -> dict[str, Any]:
    return {"company": {"type": "string"}}


def test_one_firm_found_filters_its_documents() -> None:
    assert confirm_names(_plan("document", "Sandoz"), _probe("Sandoz Inc."), _filters) == {
        "fda_crl": {"company": "Sandoz"}
    }


def test_a_comparison_is_never_narrowed_to_the_one_side_the_probe_found() -> None:
    """ "Compare Sandoz's LA-EP2006 and Coherus's CHS-1701": the probe found Sandoz's letter
    in the company field, not Coherus's; filtering on Sandoz would lose the other side."""
    plan = _plan("comparison", "Sandoz", "LA-EP2006", "Coherus", "CHS-1701")
    assert confirm_names(plan, _probe("Sandoz Inc."), _filters) == {}
