"""The firms part: entities grouped once per index snapshot from what the index holds."""

from __future__ import annotations

from collections.abc import Callable

import regnb
from regnb.parts._firms import mentions
from tests.conftest import doc


def test_entities_are_grouped_once_per_snapshot_and_again_after_a_change(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    eng = make_engine(
        {"fda_warning_letters": [doc("Letter", ["text"], fields={"company": "Acme Labs"})]}
    )
    first = eng.firms.table()
    assert eng.firms.table() is first
    assert [e.name for e in first.entities] == ["Acme Labs"]
    regnb.write_corpus(
        eng.path,
        {"fda_483": [doc("483", ["FEI 1234567"], fields={"facility_name": "Beta Pharma"})]},
        encoder=regnb.HashingEncoder(),
        progress=False,
    )
    assert [e.name for e in eng.firms.table().entities] == ["Acme Labs", "Beta Pharma"]


def test_mentions_hold_the_firm_fields_and_the_fields_and_first_pages_identifiers(
    make_engine: Callable[..., regnb.Engine],
) -> None:
    eng = make_engine(
        {
            "fda_483": [
                doc(
                    "483",
                    ["FEI 1234567", "NDA 021164 on page two"],
                    fields={"facility_name": "Acme Labs", "fei_number": "3002806560"},
                )
            ],
            "fda_guidance": [doc("Guidance", ["K123456"])],
        }
    )
    found, guidance = sorted(mentions(eng.store), key=lambda m: m.names, reverse=True)
    assert found.names == ("Acme Labs",)
    assert sorted(found.identifiers) == [("fei", "1234567", 1), ("fei", "3002806560", 0)]
    assert (guidance.names, guidance.identifiers) == ((), (("510k", "K123456", 1),))
