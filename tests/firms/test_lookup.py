"""The firms part: entities grouped once per index snapshot from what the index holds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import regnb
from regnb.firms import timeline as firms
from regnb.firms.lookup import EventCache, mentions
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


def test_the_event_cache_keeps_the_last_used_rows() -> None:
    cache = EventCache(size=2)
    cache["a"], cache["b"] = {"n": 1}, {"n": 2}
    assert cache["a"] == {"n": 1}  # a is now the last used
    cache["c"] = {"n": 3}
    assert sorted(cache) == ["a", "c"] and len(cache) == 2
    assert cache.get("b") is None
    del cache["a"]
    assert list(cache) == ["c"]


def test_a_documents_timeline_row_is_parsed_once(
    make_engine: Callable[..., regnb.Engine], monkeypatch: pytest.MonkeyPatch
) -> None:
    eng = make_engine(
        {
            "fda_483": [
                doc("483 one", ["OBSERVATION 1\nNo procedures."], fields={"facility_name": "Acme"}),
                doc("483 two", ["OBSERVATION 1\nNo records."], fields={"facility_name": "Acme"}),
            ]
        }
    )
    parsed: list[str] = []
    real = firms._event

    def counting(document: dict[str, Any], pages: dict[int, str]) -> dict[str, Any]:
        parsed.append(document["title"])
        return real(document, pages)

    monkeypatch.setattr(firms, "_event", counting)
    firm = eng.firm("Acme").iloc[0]
    first = eng.timeline(firm)
    first.loc[0, "findings"].append("changed by the caller")
    again = eng.timeline(firm)
    assert sorted(parsed) == ["483 one", "483 two"]
    assert again.drop(columns="findings").equals(first.drop(columns="findings"))
    assert "changed by the caller" not in again.loc[0, "findings"]
    assert len(eng.firms.events) == 2
    assert set(eng.firms.events) == set(eng.store.rows.document_keys([0, 1]))
