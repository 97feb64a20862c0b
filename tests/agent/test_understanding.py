"""The question-understanding stage (`regnb.agent._understand`) against its table of analyst
questions (`tests/agent/understanding_cases.json`): each question's kind, firms (resolved against
the real corpus's firm entities, a place as the firm's qualifier), places, datasets, periods and
pointers, and the topic its plan searches.

The cases the stage reads otherwise than the table are listed in `DISAGREES`, each with why; they
are strict expected failures, so one that starts passing must leave the list."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import pytest

import regnb
from regnb.agent._firms import firm_lookup
from regnb.agent._plan import plan_message
from regnb.agent._understand import FirmLookup, Understanding, understand, understand_turn
from regnb.documents.places import Place
from tests.agent.understanding_cases import Case, load_table
from tests.research_benchmark import REAL, real_engine, shared_folder

TABLE = load_table()

# Why the stage reads these cases otherwise than the table (grouped by cause).
_TYPOS = "misspelt words are not corrected ('empowr', 'inspecton', 'recals', 'wht', 'guidnace')"
_CITY_STATE = "the place lists give a city outside the US no state (geonames' admin codes)"
_TOWN = "a town of under 100,000 people is found only before its state or country"
_KIND = "the kind is a judgement call the rules read the other way"
_NAME = "the name as written is not a firm's name key ('Red Cross', 'Dr. Reddy's', 'UCSF')"
_FOLLOW = "what a follow-up keeps of the turn before is read otherwise"
_TOPIC = "an enum value (OAI, Class I) is a filter, or the word is the question's own"
_PERIODS = "'in 2020 or 2021' is read as two periods; 'since its 2020 483' as one"
_POINTER = "a pointer without a cue word ('the testosterone pellets that ...') is not found"
DISAGREES: dict[str, str] = {
    **dict.fromkeys(
        [
            "typo-483s-compounding-tx",
            "typo-crl-ngenla-why",
            "typo-empowr-wls",
            "typo-inspecton-lilly",
            "typo-recal-sandoz",
            "ds-crl-typo-jatenzo",
        ],
        _TYPOS,
    ),
    **dict.fromkeys(
        [
            "place-cohance-hyderabad",
            "place-hyderabad-api-2026",
            "place-bangalore-labs",
            "doc-reliance-navi-mumbai",
            "cmp-intas-two-sites",
            "place-shanghai-absence",
        ],
        _CITY_STATE,
    ),
    **dict.fromkeys(["doc-osrx-missoula", "cmp-imclone-483s", "doc-nipro-lewisberry"], _TOWN),
    **dict.fromkeys(
        [
            "hist-red-cross-recalls",
            "hist-dr-reddys-crls",
            "id-nda-plus-firm",
        ],
        _NAME,
    ),
    **dict.fromkeys(
        [
            "fu-and-the-swiss",
            "fu-baxter-crl-no-period",
            "fu-crl-switch-firm",
            "fu-ema-same-product",
            "fu-exclude-canadian",
            "fu-hospira-what-for",
            "fu-lilly-better-since",
            "fu-maude-and-2025",
        ],
        _FOLLOW,
    ),
    **dict.fromkeys(
        [
            "abs-ingenia-injuries",
            "abs-lonza-oai",
            "count-class1-june-2012",
            "count-maude-linq-deaths",
            "doc-abr-hollywood-florida",
            "ds-483-catalog-fy2019",
            "ds-maude-malfunctions-linq",
            "ds-oai-classification-nephron",
            "ds-trials-exclusion",
            "ds-trials-lilly-phase3",
            "place-italian-footlong-trap",
            "place-nj-oai",
            "cmp-furoscix-crls",
        ],
        _TOPIC,
    ),
    **dict.fromkeys(
        [
            "place-chinese-api-not-medicine",
            "place-canadian-since-2022",
            "place-indiana-lions-recall",
            "ds-declined-vyalev",
            "ds-trials-abbott-crohns",
            "ds-ufa-pdufa",
            "ds-robotic-spine-adverse-events",
            "hist-azurity-crls",
            "id-pma-number",
            "id-fei-intas-2023",
            "sum-503a-vs-503b",
            "sum-ai-radiology-maude",
            "abs-zhejiang-novus-crl",
            "cmp-lumify-maude",
            "ptr-linq-migrated",
        ],
        _KIND,
    ),
    **dict.fromkeys(
        [
            "cmp-sca-two-sites",
            "cmp-alvotech-samsung",
            "which-brainlab-cranial",
            "doc-me-thompson-sandwiches",
            "abs-mazor-deaths",
        ],
        _NAME,
    ),
    **dict.fromkeys(["cmp-empower-better-since"], _PERIODS),
    **dict.fromkeys(["ptr-wells-testosterone", "ptr-soluprep-q3b"], _POINTER),
}


def norm(text: str) -> str:
    """Case, accents, punctuation and spacing folded; "&" read as "and"."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    text = text.lower().replace("&", " and ")
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def _place_key(place: Place | object) -> tuple[object, object, str]:
    country, state, city = (getattr(place, n, None) for n in ("country", "state", "city"))
    return country, state, norm(str(city or ""))


def disagreements(case: Case, got: Understanding, today: str) -> list[str]:
    """How `got` differs from the case's expected plan (an empty list: it agrees)."""
    want, out = case.expected, []
    if got.kind != want.kind:
        out.append(f"kind {got.kind} != {want.kind}")
    if want.checks("datasets"):
        have = None if got.datasets is None else set(got.datasets)
        if have != (None if want.datasets is None else set(want.datasets)):
            out.append(f"datasets {have} != {want.datasets}")
    if set(want.not_datasets) & set(got.datasets or ()):
        out.append(f"chose one of {want.not_datasets}")
    names = [(norm(f.name), [norm(a) for a in f.aliases], f.place) for f in got.firms]
    if want.checks("firms"):
        for firm in want.firms:
            key = norm(firm.name)
            same = [n for n in names if key in n[0] or n[0] in key or any(key in a for a in n[1])]
            if not same:
                out.append(f"no firm {firm.name}")
            elif firm.place is not None and (
                same[0][2] is None or _place_key(same[0][2]) != _place_key(firm.place)
            ):
                out.append(f"{firm.name} at {same[0][2]}, not {firm.place}")
        if len(got.firms) > len(want.firms):
            out.append(f"firms {[f.name for f in got.firms]}")
    for wrong in want.not_firms:
        if any(norm(wrong) == n[0] or norm(wrong) in n[1] for n in names):
            out.append(f"{wrong} read as a firm")
    if want.checks("places"):
        have_in = {_place_key(p) for p in got.places.include}
        have_out = {_place_key(p) for p in got.places.exclude}
        if have_in != {_place_key(p) for p in want.places.include} or have_out != {
            _place_key(p) for p in want.places.exclude
        }:
            out.append(f"places {have_in} / {have_out}")
    if want.checks("periods"):
        have = {(p.date_from, p.date_to or today) for p in got.periods}
        expected = {(p.start and p.start.isoformat(), p.end.isoformat()) for p in want.periods}
        if have != expected:
            out.append(f"periods {have} != {expected}")
    if want.checks("pointers"):
        for pointer in want.pointers:
            if not any(norm(pointer) in norm(p) or norm(p) in norm(pointer) for p in got.pointers):
                out.append(f"pointer {pointer!r} not in {got.pointers}")
    return out


def topic_disagreements(case: Case, terms: list[str]) -> list[str]:
    """The topic items the plan does not search, and the ones it must not that it does."""
    out = []
    joined = " | ".join(terms)
    for item in case.expected.topic:
        if not any(norm(a) in joined or any(t and t in norm(a) for t in terms) for a in item):
            out.append(f"topic {item} not searched")
    for wrong in case.expected.not_topic:
        if any(norm(wrong) == t or (len(t.split()) > 1 and t in norm(wrong)) for t in terms):
            out.append(f"{wrong!r} searched")
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[regnb.Engine, FirmLookup]]:
    if not REAL.exists():
        pytest.skip(f"real corpus not found at {REAL}")
    eng = real_engine(
        tmp_path_factory.mktemp("understanding"), shared=shared_folder(tmp_path_factory)
    )
    yield eng, firm_lookup(eng)
    eng.close()


def _cases() -> Iterator[object]:
    for case in TABLE.cases:
        marks = (
            [pytest.mark.xfail(strict=True, reason=DISAGREES[case.id])]
            if case.id in DISAGREES
            else []
        )
        yield pytest.param(case, id=case.id, marks=marks)


@pytest.mark.shared_data
@pytest.mark.parametrize("case", list(_cases()))
def test_a_question_is_understood_as_the_analyst_means_it(
    corpus: tuple[regnb.Engine, FirmLookup], case: Case
) -> None:
    eng, lookup = corpus
    datasets = [d.id for d in eng.datasets()]
    got = understand_turn([*case.prior, case.q], datasets=datasets, today=TABLE.today, firms=lookup)
    wrong = disagreements(case, got, TABLE.today.isoformat())
    if not case.prior and (case.expected.topic or case.expected.not_topic):
        plan = plan_message(
            case.q,
            catalog=eng.datasets(),
            plan_name="enterprise",
            today=TABLE.today,
            df=eng.document_frequency,
            firms=lookup,
        )
        wrong += topic_disagreements(
            case, [norm(t) for t in (*plan.topic.terms, *plan.topic.pairs)]
        )
    assert wrong == [], case.note


def test_the_table_holds_most_of_the_questions_the_stage_reads_as_meant() -> None:
    assert len(DISAGREES) <= len(TABLE.cases) * 3 // 10
    assert set(DISAGREES) <= {c.id for c in TABLE.cases}


@pytest.mark.parametrize(
    ("message", "firm", "place"),
    [
        (
            "What did FDA find at Acme Sterile's Houston plant?",
            "Acme Sterile",
            Place("US", "TX", "Houston"),
        ),
        ("What did the 483 at Acme Sterile in New Jersey cite?", "Acme Sterile", Place("US", "NJ")),
    ],
)
def test_a_place_beside_a_named_firm_qualifies_it(message: str, firm: str, place: Place) -> None:
    got = understand(
        message,
        datasets=["fda_483"],
        today=TABLE.today,
        firms=lambda n: n if n.startswith("Acme") else None,
    )
    assert [(f.name, f.place) for f in got.firms] == [(firm, place)]
    assert not got.places


def test_a_place_alone_is_a_filter_never_a_firm() -> None:
    got = understand(
        "What did the 2025 warning letter to the compounding pharmacy in Houston cite?",
        datasets=["fda_warning_letters"],
        today=TABLE.today,
        firms=lambda n: "Houston Compounding LLC" if n.startswith("Houston") else None,
    )
    assert got.firms == ()
    assert got.places.include == (Place("US", "TX", "Houston"),)
