"""Firm entities from documents' mentions: names grouped by key, merged by a shared FEI and kept
apart otherwise, stable ids, and queries resolved to candidates."""

from __future__ import annotations

import re

import pytest

from regnb.firms.entities import Entity, Mention, entity_id, group, identifier_label, resolve


def m(row: int, *names: str, ids: tuple[tuple[str, str, int], ...] = ()) -> Mention:
    return Mention(row, names, ids)


def grouped(mentions: list[Mention]) -> list[tuple[str, tuple[int, ...]]]:
    return [(e.name, e.doc_rows) for e in group(mentions)]


@pytest.mark.parametrize(
    ("mentions", "expected"),
    [
        # the variants of one name are one entity; its most written name names it
        (
            [m(0, "Hospira, Inc."), m(1, "Hospira Inc"), m(2, "HOSPIRA INC."), m(3, "Hospira Inc")],
            [("Hospira Inc", (0, 1, 2, 3))],
        ),
        # alike but different keys stay apart
        (
            [m(0, "Hospira Inc"), m(1, "Hospira Worldwide"), m(2, "Hospira Worldwide")],
            [("Hospira Worldwide", (1, 2)), ("Hospira Inc", (0,))],
        ),
        # a shared FEI (a field, or the one FEI a first page names) merges two names
        (
            [
                m(0, "Pfizer Inc", ids=(("fei", "3002806560", 0),)),
                m(1, "Hospira Inc", ids=(("fei", "3002806560", 1),)),
                m(2, "Hospira Inc"),
            ],
            [("Hospira Inc", (0, 1, 2))],
        ),
        # two FEIs on a first page tie nothing; an FEI on a later page ties nothing
        (
            [
                m(0, "Pfizer Inc", ids=(("fei", "3002806560", 0),)),
                m(1, "Hospira Inc", ids=(("fei", "3002806560", 1), ("fei", "1234567", 1))),
                m(2, "Acme Labs", ids=(("fei", "3002806560", 2),)),
            ],
            [("Acme Labs", (2,)), ("Hospira Inc", (1,)), ("Pfizer Inc", (0,))],
        ),
        # a dba name joins the legal name; an address line is no name
        (
            [m(0, "Nubratori, Inc dba Nubratori Rx"), m(1, "Nubratori Rx"), m(2, "Cary, NC 27518")],
            [("Nubratori, Inc dba Nubratori Rx", (0, 1))],
        ),
        # a document without a name joins its FEI's firm, or an entity of its own
        (
            [m(0, "Acme Labs", ids=(("fei", "1234567", 0),)), m(1, ids=(("fei", "1234567", 0),))],
            [("Acme Labs", (0, 1))],
        ),
        ([m(0, ids=(("fei", "1234567", 0),)), m(1)], [("FEI 1234567", (0,))]),
        # a place after the name and a label before it are not part of it
        (
            [m(0, "Recalling Firm: Harris Teeter, Greensboro, NC"), m(1, "Harris Teeter LLC")],
            [("Harris Teeter", (0, 1))],
        ),
        # a document naming two firms belongs to both, and merges neither
        (
            [m(0, "Acme Labs", "Beta Pharma", ids=(("fei", "1234567", 0),)), m(1, "Beta Pharma")],
            [("Beta Pharma", (0, 1)), ("Acme Labs", (0,))],
        ),
    ],
)
def test_documents_group_into_entities(
    mentions: list[Mention], expected: list[tuple[str, tuple[int, ...]]]
) -> None:
    assert grouped(mentions) == expected


def test_an_entity_lists_its_names_keys_and_identifiers() -> None:
    [entity] = group(
        [
            m(0, "Hospira, Inc.", ids=(("fei", "3002806560", 0), ("application", "021164", 0))),
            m(1, "Hospira Inc", ids=(("application", "NDA 021164/S-003", 1),)),
            m(2, "Hospira Inc", ids=(("510k", "K123456", 2), ("product_code", "LLZ", 0))),
            m(3, "Hospira Inc dba Hospira Worldwide", ids=(("nct", "NCT01234567", 0),)),
        ]
    )
    assert entity.name == "Hospira Inc"
    assert entity.key == "hospira"
    assert entity.keys == ("hospira", "hospira worldwide")
    assert entity.variants == ("Hospira Inc", "Hospira Inc dba Hospira Worldwide", "Hospira, Inc.")
    assert entity.identifiers == ("FEI 3002806560", "NDA 021164", "NCT01234567")
    assert entity.id == entity_id("hospira")


@pytest.mark.parametrize("key", ["hospira", "baxter healthcare", "a" * 80, "fei 3002806560", "3m"])
def test_an_entity_id_is_short_url_safe_and_the_same_every_time(key: str) -> None:
    found = entity_id(key)
    assert found == entity_id(key)
    assert re.fullmatch(r"[a-z0-9-]{1,31}", found)
    assert found != entity_id(key + " x")


def test_ids_stay_the_same_however_the_mentions_are_ordered() -> None:
    mentions = [m(i, name) for i, name in enumerate(["Acme Labs", "Beta", "Acme Labs", "Gamma"])]
    assert group(mentions) == group(list(reversed(mentions)))


@pytest.mark.parametrize(
    ("kind", "value", "label"),
    [
        ("fei", "3002806560", "FEI 3002806560"),
        ("application", "NDA 217225/S-001", "NDA 217225"),
        ("application", "208288", "Application 208288"),
        ("510k", "K123456", "K123456"),
        ("pma", "P123456/S012", "P123456"),
        ("denovo", "DEN200031", "DEN200031"),
        ("nct", "NCT01234567", "NCT01234567"),
        ("product_code", "LLZ", None),
    ],
)
def test_identifier_labels(kind: str, value: str, label: str | None) -> None:
    assert identifier_label(kind, value) == label


def entities() -> list[Entity]:
    return group(
        [
            m(0, "Hospira, Inc.", ids=(("fei", "3002806560", 0), ("application", "NDA 021164", 0))),
            m(1, "Hospira Worldwide", ids=(("application", "208288", 0),)),
            m(2, "Baxter Healthcare Corporation", ids=(("510k", "K123456", 0),)),
            m(3, "Pfizer Inc"),
        ]
    )


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Hospira", {("Hospira, Inc.", "name"), ("Hospira Worldwide", "prefix")}),
        ("HOSPIRA, INC", {("Hospira, Inc.", "name"), ("Hospira Worldwide", "prefix")}),
        ("hosp", {("Hospira, Inc.", "prefix"), ("Hospira Worldwide", "prefix")}),
        ("worldwide hosp", {("Hospira Worldwide", "words")}),
        ("Baxter", {("Baxter Healthcare Corporation", "prefix")}),
        ("healthcare", {("Baxter Healthcare Corporation", "words")}),
        ("FEI 3002806560", {("Hospira, Inc.", "identifier")}),
        ("3002806560", {("Hospira, Inc.", "identifier")}),
        ("NDA 021164", {("Hospira, Inc.", "identifier")}),
        ("021164", {("Hospira, Inc.", "identifier")}),
        ("NDA 208288", {("Hospira Worldwide", "identifier")}),
        ("BLA 208288", {("Hospira Worldwide", "identifier")}),
        ("BLA 021164", set()),
        ("K123456", {("Baxter Healthcare Corporation", "identifier")}),
        ("1234567", set()),
        ("Inc.", set()),
        ("Moderna", set()),
    ],
)
def test_a_query_resolves_to_every_entity_it_may_mean(
    query: str, expected: set[tuple[str, str]]
) -> None:
    assert {(f.entity.name, f.how) for f in resolve(entities(), query)} == expected


def test_an_id_resolves_to_its_entity_alone() -> None:
    hospira = next(e for e in entities() if e.name == "Hospira, Inc.")
    assert [(f.entity, f.how) for f in resolve(entities(), hospira.id)] == [(hospira, "id")]
