"""A document the question names that states one or two findings is listed with what else it
says (its background, the claims it objects to), never with its closing section or its notes
(regnb.agent._research.Researcher.subject_units)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from regnb.agent._plan import plan_message
from regnb.agent._research import Researcher
from regnb.agent._stages import Found
from regnb.catalog import load_catalog

CATALOG = load_catalog()

LETTER = """WARNING LETTER

Dear Ms. Doe:

Background
The product is indicated for the treatment of primary immunodeficiency in adults. Our reviewers
examined a television advertisement that the firm submitted for advisory comment last year.

Overstatement of Effectiveness
In the advertisement a woman walks through a market while animated germs cover every handle she
touches, which suggests the product protects her from any infection she might meet there.

Violation
Thus, the television advertisement misbrands the product and makes its distribution a violation
of the Federal Food, Drug, and Cosmetic Act under 21 CFR 202.1(e)(1).

Conclusion and Requested Action
Failure to adequately address any violation may lead to regulatory action without further notice.
"""


class _Source:
    def datasets(self) -> list[Any]:
        return list(CATALOG)

    def common_sentences(self, dataset: str) -> frozenset[str]:
        return frozenset()


def _units(text: str) -> list[str]:
    plan = plan_message(
        "Was the 2025 warning letter to Doe Biologics about manufacturing problems?",
        catalog=CATALOG,
        plan_name="enterprise",
        today=dt.date(2026, 12, 1),
        df=lambda ws: {},
    )
    doc = Found(
        "w1", "fda_warning_letters", "Doe Biologics", "2025-09-09", None, {}, 1.0, (1,), False
    )
    got = Researcher(_Source()).subject_units(plan, [doc], {("w1", 1): text})  # type: ignore[arg-type]
    return [p.unit.text for p in got["w1"]]


def test_a_letter_of_one_violation_is_listed_with_what_else_it_says() -> None:
    texts = _units(LETTER)
    assert any("misbrands the product" in t for t in texts)
    assert any("animated germs" in t for t in texts)  # the claim objected to
    assert not any("Failure to adequately address" in t for t in texts)  # its closing


def test_a_letter_of_many_violations_lists_them_alone() -> None:
    violations = "\n\n".join(
        f"{n}. Your firm failed to validate process {n}, in violation of 21 CFR 211.100(a)."
        for n in range(1, 4)
    )
    many = LETTER.replace("Conclusion and Requested Action", f"{violations}\n\nConclusion")
    texts = _units(many)
    assert any("process 3" in t for t in texts)
    assert not any("animated germs" in t for t in texts)


def test_a_forms_header_repeated_as_a_unit_is_not_a_finding() -> None:
    from regnb.agent._research import _names_only

    doc = Found(
        "f1", "fda_483", "FDA Form 483 - EHT Pharmacy LLC dba Curexa", "2020-10-10", None,
        {"facility_name": "EHT Pharmacy LLC dba Curexa"}, 1.0, (1,), False,
    )  # fmt: skip
    assert _names_only("EHT Pharmacy LLC dba Curexa", doc)
    assert not _names_only("Non-microbial contamination was observed at Curexa.", doc)
    assert not _names_only("", doc)
