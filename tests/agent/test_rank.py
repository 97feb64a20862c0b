"""Ranking passages: keyword evidence, the blend, MMR without near-duplicates, themes and their
labels, and which documents get read."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from regnb.agent._compose import theme_key
from regnb.agent._evidence import BlockVectors, block_quality, choose_documents
from regnb.agent._rank import (
    Term,
    blend,
    document_terms,
    keyword_score,
    mmr,
    part_terms,
    plan_terms,
    question_parts,
)
from regnb.agent._research import block_query, drop_form_text
from regnb.agent._searching import FALLBACK_ITEMS, items_for
from regnb.agent._stages import Found, Passage, Plan, Topic
from regnb.documents.structure import parse_document
from regnb.documents.words import sentences, stem
from tests.agent_support import flat_plan


def a_plan(**kwargs: object) -> Plan:
    return flat_plan(**kwargs)


def found(
    doc: str, dataset: str = "fda_warning_letters", score: float = 1.0, weak: bool = False
) -> Found:
    return Found(doc, dataset, f"Title {doc}", "2021-01-01", None, {}, score, (1,), weak)


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("failures", "failur"),
        ("failed", "fail"),
        ("failing", "fail"),
        ("validation", "validate"),
        ("investigations", "investigate"),
        ("fda", "fda"),
        ("211", "211"),
    ],
)
def test_a_light_stemmer_brings_word_forms_together(word: str, expected: str) -> None:
    assert stem(word).startswith(expected[:4])


def test_stems_of_related_forms_are_equal() -> None:
    assert stem("failures") == stem("failure")
    assert stem("investigations") == stem("investigation")


@pytest.mark.parametrize(
    "forms",
    [
        ("preparations", "prepare", "prepared", "preparing"),
        ("recommendations", "recommend", "recommended"),
        ("validation", "validated", "validate"),
        ("initiation", "initiate", "initiated"),
        ("update", "updated"),
        ("creation", "create", "created"),
    ],
)
def test_a_noun_in_ation_meets_its_verb(forms: tuple[str, ...]) -> None:
    assert len({stem(w) for w in forms}) == 1, [stem(w) for w in forms]


def test_short_words_ending_in_at_keep_it() -> None:
    assert stem("format") == stem("formats") == "format"
    assert stem("threat") == "threat"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The media fill failed. The firm, Acme Inc. of Ohio, did not act.", 2),
        ("See 21 CFR 211.113(b). Then stop.", 2),
        ("One sentence without an end", 1),
        ("Dr. Smith wrote it. U.S. law applies.", 2),
        ("2. Your firm failed to clean the tanks. It was bad.", 2),
    ],
)
def test_sentences_split_at_stops_but_not_at_abbreviations(text: str, expected: int) -> None:
    assert len(sentences(text)) == expected


def test_keyword_evidence_weighs_identifiers_phrases_and_words() -> None:
    plan = a_plan(
        identifiers=["21 CFR 211.113(b)"],
        phrases=["media fill"],
        words=["sterile"],
        weights={"21 CFR 211.113(b)": 8.0, "media fill": 2.0, "sterile": 1.0},
    )
    terms = plan_terms(plan)
    everything = "Media fills for sterile products failed (21 CFR 211.113(b))."
    assert keyword_score(everything, terms) == pytest.approx(1.0)
    assert keyword_score("The fill of media was late.", terms) == 0.0
    only_phrase = keyword_score("Media-fill runs failed.", terms)
    assert only_phrase == pytest.approx(2.4 / (8 + 2.4 + 1))
    assert keyword_score("cites 21 cfr 211.113 (b) here", terms) > only_phrase


def test_a_name_in_the_document_title_counts_for_every_block() -> None:
    plan = a_plan(names=["Acme Pharma"], words=["sterility"], weights={"Acme Pharma": 5.0})
    terms = plan_terms(plan)
    given = document_terms(terms, "Warning Letter: Acme Pharma Inc", {})
    assert [t.text for t in given] == ["Acme Pharma"]
    assert keyword_score("sterility failures", terms, given) == pytest.approx(1.0)
    assert keyword_score("sterility failures", terms) == pytest.approx(1 / 6)


def test_loosened_matches_are_weaker_evidence() -> None:
    scores = blend(
        np.array([0.5, 0.5]), np.array([1.0, 1.0]), np.array([1.0, 1.0]), np.array([False, True])
    )
    assert scores[1] < scores[0]


def test_mmr_drops_near_duplicates_and_spreads_over_documents() -> None:
    vectors = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.6, 0.8]], dtype=np.float32)
    scores = np.array([0.9, 0.89, 0.5, 0.4])
    assert mmr(scores, vectors, 4) == [0, 2, 3]
    assert mmr(scores, vectors, 4, groups=["a", "b", "a", "a"], per_group=1) == [0]


def test_mmr_prefers_a_different_passage_over_a_similar_better_one() -> None:
    vectors = np.array([[1.0, 0.0], [0.9, 0.436], [0.0, 1.0]], dtype=np.float32)
    scores = np.array([1.0, 0.95, 0.8])
    assert mmr(scores, vectors, 2) == [0, 2]


@pytest.mark.parametrize(
    ("dataset", "text", "theme"),
    [
        (
            "fda_warning_letters",
            "1. Your firm failed to establish procedures to prevent microbiological contamination "
            "of sterile drugs (21 CFR 211.113(b)).",
            "21 CFR 211.113: Control of microbiological contamination",
        ),
        (
            "fda_crl",
            "PRODUCT QUALITY\n\n1. The drug product stability data do not support the proposed "
            "24-month expiration dating period for the product.",
            "Product quality",
        ),
        ("fda_maude", "THE PUMP STOPPED DURING INFUSION AND ALARMED; NO INJURY.", "FDA MAUDE"),
    ],
)
def test_a_theme_is_a_cfr_section_with_its_title_a_heading_or_the_dataset(
    dataset: str, text: str, theme: str
) -> None:
    unit = next(u for u in parse_document(dataset, {1: text}) if u.kind != "furniture")
    passage = Passage(found("d1", dataset), 1, unit, 0.5, 1.0)
    assert theme_key(passage, lambda ds: "FDA MAUDE" if ds == "fda_maude" else ds) == theme


def test_a_guidance_passage_is_themed_by_its_guidance() -> None:
    unit = parse_document("fda_guidance", {1: "FDA recommends a threat model of the system."})[0]
    title = "Cybersecurity in Medical Devices: Guidance for Industry"
    doc = replace(found("g1", "fda_guidance"), title=title)
    assert theme_key(Passage(doc, 1, unit, 0.5, 1.0), str) == "Cybersecurity in Medical Devices"


def test_documents_to_read_take_the_best_of_each_dataset_then_the_rest() -> None:
    docs = [
        found("w1", score=1.0),
        found("w2", score=0.95),
        found("w3", score=0.9),
        found("g1", "fda_guidance", score=0.85),
        found("m1", "fda_maude", score=0.2),
        found("l1", "fda_483", score=0.99, weak=True),
    ]
    weights = {d.document_id: d.score for d in docs}
    chosen = [d.document_id for d in choose_documents(docs, 3, weights)]
    assert chosen == ["w1", "w2", "g1"]
    everything = [d.document_id for d in choose_documents(docs, 6, weights)]
    assert everything == ["w1", "w2", "w3", "g1", "m1", "l1"]
    assert choose_documents([], 4, {}) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("too short to cite", 0.0),
        ("Your firm failed to investigate the media fill failures of the filling line", 0.75),
        (" ".join(["word"] * 30), 1.0),
        (
            "This document lists observations made; they do not represent a final agency "
            "determination regarding your compliance",
            0.9 * 0.4,
        ),
        (
            "8/26/2019 8/27/2019 8/28/2019 8/29/2019 8/30/2019 9/23/2019 9/24/2019 9/25/2019 "
            "9/26/2019 9/27/2019 dates of inspection were these many days in total",
            0.75 * 0.6,
        ),
    ],
)
def test_block_quality(text: str, expected: float) -> None:
    assert block_quality(text) == pytest.approx(expected)


def test_block_vectors_are_cached_and_bounded() -> None:
    cache = BlockVectors(size=2)
    for i in range(3):
        cache.put(("d", 1, f"¶{i}"), np.full(2, i, dtype=np.float32))
    assert len(cache) == 2
    assert cache.get(("d", 1, "¶0")) is None
    assert cache.get(("d", 1, "¶2")) is not None


@pytest.mark.parametrize(
    ("plan", "filtered", "loosen", "expected"),
    [
        (
            a_plan(phrases=["media fill"], words=["sterile", "failures"]),
            {},
            False,
            ["media fill", "sterile failures"],
        ),
        (
            a_plan(phrases=["media fill"], words=["sterile", "failures"]),
            {},
            True,
            ["media", "fill", "sterile", "failures"],
        ),
        (
            a_plan(phrases=["stability data"], weights={"stability": 3.4, "data": 1.0}),
            {},
            True,
            ["stability"],
        ),
        (
            a_plan(identifiers=["212345"], names=["Acme"], words=["stability"]),
            {},
            False,
            ["212345", "Acme stability", "Acme"],
        ),
        (
            a_plan(names=["Acme"], words=["stability"]),
            {"company": "Acme"},
            False,
            ["stability", *FALLBACK_ITEMS],
        ),
        (a_plan(names=["Acme"]), {}, False, ["Acme"]),
    ],
)
def test_keyword_items_for_a_dataset(
    plan: Plan, filtered: dict[str, str], loosen: bool, expected: list[str]
) -> None:
    assert items_for(plan, filtered, loosen) == expected


def test_a_filter_with_nothing_else_to_search_lists_everything_it_allows() -> None:
    items = items_for(a_plan(identifiers=["3001234567"]), {"fei_number": "3001234567"}, False)
    assert "fda" in items and "observation" in items


def passage(doc: str, text: str, topic: float = 0.0) -> Passage:
    unit = parse_document("fda_warning_letters", {1: text})[0]
    return Passage(found(doc), 1, unit, 0.5, 1.0, topic=topic)


FORM = "Failure to address any violations may also cause FDA to withhold issuance of certificates."


def test_paragraphs_standard_in_a_kind_of_document_are_dropped_unless_they_answer() -> None:
    kept = drop_form_text(
        [
            passage("a", FORM),
            passage("b", FORM),
            passage("c", FORM),
            passage("a", "Media fill runs failed on line 3 and the firm released the batches."),
            passage("a", FORM.replace("violations", "nitrosamine impurities"), topic=1.0),
            passage("b", FORM.replace("violations", "nitrosamine impurities"), topic=1.0),
            passage("c", FORM.replace("violations", "nitrosamine impurities"), topic=1.0),
        ]
    )
    assert [p.unit.text[:10] for p in kept] == ["Media fill"] + ["Failure to"] * 3
    assert drop_form_text([passage("a", FORM), passage("b", FORM)]) != []


@pytest.mark.parametrize(
    ("plan", "expected"),
    [
        (
            Plan(
                "m",
                "What did FDA find at Castlegate Life Sciences?",
                topic=Topic(names=("Castlegate Life Sciences",)),
            ),
            "What did FDA find at ?",
        ),
        (
            Plan("m", "CRL for NDA 212345 stability", topic=Topic(identifiers=("212345",))),
            "CRL for NDA stability",
        ),
        (Plan("m", "Acme", topic=Topic(names=("Acme",))), "Acme"),
    ],
)
def test_passages_are_ranked_against_the_question_without_its_names(
    plan: Plan, expected: str
) -> None:
    assert block_query(plan) == expected


@pytest.mark.parametrize(
    ("message", "parts"),
    [
        (
            "endotoxin testing: can we pool units for the BET, and if we switch methods what "
            "submission do we need?",
            [
                "endotoxin testing: can we pool units for the BET",
                "endotoxin testing: if we switch methods what submission do we need",
            ],
        ),
        (
            "Can we bundle the tool with the lead in one PMA - and which user fee applies? also "
            "can several indications go in one PMA?",
            [
                "Can we bundle the tool with the lead in one PMA",
                "and which user fee applies",
                "can several indications go in one PMA",
            ],
        ),
        (
            "What did FDA find at Acme Sterile in 2023?",
            ["What did FDA find at Acme Sterile in 2023"],
        ),
        # "and" between two nouns is not a second question
        (
            "What do 483s say about cleaning and disinfection?",
            ["What do 483s say about cleaning and disinfection"],
        ),
    ],
)
def test_a_question_of_several_parts_is_split_at_each_question(
    message: str, parts: list[str]
) -> None:
    assert question_parts(message) == parts


def test_each_part_gets_the_terms_its_words_hold_and_every_part_the_unplaced_ones() -> None:
    def term(text: str, weight: float) -> Term:
        return Term(text, weight, stems=frozenset(stem(w) for w in text.split()))

    pool, submission = term("pool", 4.0), term("submission", 2.0)
    spelled = term("bacterial endotoxins test", 3.0)  # "BET" spelled out: no part's words
    message = "can we pool units, and what submission do we need?"
    got = part_terms([pool, submission, spelled], message)
    assert [[t.text for t in part] for part in got] == [
        ["pool", "bacterial endotoxins test"],
        ["submission", "bacterial endotoxins test"],
    ]
    assert part_terms([pool, submission], "can we pool units?") == [[pool, submission]]
