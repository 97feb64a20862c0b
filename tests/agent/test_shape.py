"""The shape of answer a message asks for."""

from __future__ import annotations

import pytest

from regnb.agent._shape import SHAPES, question_shape


@pytest.mark.parametrize(
    ("message", "shape"),
    [
        ("Why did FDA not approve Barhemsys?", "declined"),
        ("What deficiencies did the complete response letter for NDA 209510 list?", "declined"),
        ("Why was the application declined?", "declined"),
        ("What did FDA find at BSO LLC?", "findings"),
        ("What observations did the 483 for FEI 3010166491 cite?", "findings"),
        ("Why did Abbott Diabetes Care receive a warning letter?", "findings"),
        ("Which firms were warned about smoke studies?", "which"),
        ("Which device makers were cited for failing to submit MDRs?", "which"),
        ("List the compounders that received warning letters", "which"),
        ("Which websites were warned for selling peptides for research use only?", "which"),
        # whatever is named, "which … got / received / were sent" a document is a list of them
        ("Which insulin biosimilars (Lantus copies) got CRLs, and why?", "which"),
        ("Which blood banks received untitled letters?", "which"),
        ("Which sterilization methods does FDA treat as established?", "general"),
        # an inspection's deficiencies are its findings; an application's, why it was declined
        (
            "Aseptic problems on 2020 483s: what deficiencies did investigators write up?",
            "findings",
        ),
        ("What deficiencies did the CRL list after the pre-approval inspection?", "declined"),
        (
            "What does FDA guidance recommend for cybersecurity in premarket submissions?",
            "recommend",
        ),
        ("What should a 510(k) include about biocompatibility?", "recommend"),
        ("Compare the warning letters to Baxter and Abbott", "compare"),
        ("How do media fill findings differ between 483s and warning letters?", "compare"),
        ("How many warning letters cited 21 CFR 211.113(b)?", "count"),
        ("Warning letters about data integrity per year", "count"),
        ("Which firms got the most warning letters, how many each?", "count"),
        ("How common are noise reports for the LINQ II in MAUDE?", "count"),
        ("How often is map shift reported?", "count"),
        ("battery failures in infusion pumps", "general"),
    ],
)
def test_a_message_gets_the_shape_an_analyst_would_expect(message: str, shape: str) -> None:
    assert question_shape(message) == shape


def test_every_shape_is_named_once() -> None:
    assert len(set(SHAPES)) == len(SHAPES)
