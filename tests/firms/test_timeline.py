"""Firms across datasets: `Engine.firm` resolves names and identifiers to entities (ambiguity
returned), `Engine.timeline` lists an entity's documents in date order with findings and a
citation, and `regnb.firms.timeline.document_events` does the same for any documents."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

import regnb
from regnb.errors import InvalidRequest, NotFound, UnknownDataset
from regnb.firms import timeline as firms
from regnb.firms.timeline import FIRM_COLUMNS, TIMELINE_COLUMNS, Timeline
from regnb.settings import Settings
from tests import paths
from tests.firm_corpus import FEI, firm_documents, linked_documents
from tests.research_benchmark import real_engine, shared_folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("firms") / "corpus"
    regnb.write_corpus(path, firm_documents(), encoder=regnb.HashingEncoder(), progress=False)
    return path


@pytest.fixture(scope="module")
def eng(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> regnb.Engine:
    home = tmp_path_factory.mktemp("home")
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    with regnb.Engine(
        corpus, encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as engine:
        yield engine


def names(frame: pd.DataFrame) -> list[tuple[str, str]]:
    return list(zip(frame["name"], frame["match"], strict=True))


def test_a_firm_frame_has_the_agreed_columns_and_types(eng: regnb.Engine) -> None:
    found = eng.firm("Hospira")
    assert tuple(found.columns) == FIRM_COLUMNS
    first = found.iloc[0]
    assert first["name"] == "Hospira Inc."
    assert first["documents"] == 6
    assert first["datasets"] == {
        "fda_warning_letters": 1,
        "fda_483": 3,
        "fda_crl": 1,
        "fda_recall_enforcement": 1,
    }
    assert first["identifiers"] == [f"FEI {FEI}", "NDA 021164"]
    assert set(first["variants"]) >= {"Hospira, Inc.", "HSP Sterile Site LLC", "Hospira Inc"}
    assert str(found["documents"].dtype) == "int64"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Hospira", [("Hospira Inc.", "name"), ("Hospira Worldwide", "prefix")]),
        ("hospira inc.", [("Hospira Inc.", "name"), ("Hospira Worldwide", "prefix")]),
        ("HSP Sterile Site", [("Hospira Inc.", "name")]),
        ("Hosp", [("Hospira Inc.", "prefix"), ("Hospira Worldwide", "prefix")]),
        ("worldwide", [("Hospira Worldwide", "words")]),
        (f"FEI {FEI}", [("Hospira Inc.", "identifier")]),
        (FEI, [("Hospira Inc.", "identifier")]),
        ("NDA 021164", [("Hospira Inc.", "identifier")]),
        ("021164", [("Hospira Inc.", "identifier")]),
        ("K123456", [("Baxter Healthcare Corp.", "identifier")]),
        ("baxter healthcare corporation", [("Baxter Healthcare Corp.", "name")]),
        ("Moderna", []),
        ("1234567", []),
    ],
)
def test_a_name_or_identifier_resolves_to_candidates_best_first(
    eng: regnb.Engine, query: str, expected: list[tuple[str, str]]
) -> None:
    assert names(eng.firm(query)) == expected


def test_an_id_resolves_to_its_firm_and_ids_are_the_same_after_a_rebuild(
    eng: regnb.Engine, corpus: Path, tmp_path: Path
) -> None:
    ids = sorted(eng.firm("Hospira")["id"])
    settings = Settings(**{**Settings.from_env().__dict__, "home": tmp_path / "other"})
    with regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings) as again:
        assert sorted(again.firm("Hospira")["id"]) == ids
    assert names(eng.firm(ids[0])) in ([("Hospira Inc.", "id")], [("Hospira Worldwide", "id")])


def test_datasets_count_and_narrow_the_candidates(eng: regnb.Engine) -> None:
    found = eng.firm("Hospira", datasets=["fda_warning_letters"])
    assert names(found) == [("Hospira Worldwide", "prefix"), ("Hospira Inc.", "name")][::-1]
    assert list(found["documents"]) == [1, 1]
    assert names(eng.firm("Hospira", datasets=["fda_guidance"])) == []


def test_a_plan_counts_only_the_datasets_it_may_read(eng: regnb.Engine) -> None:
    free = eng.firm("Hospira", plan="free").iloc[0]
    assert "fda_crl" not in free["datasets"] and free["documents"] == 5
    assert "fda_crl" not in set(eng.timeline(free["id"], plan="free")["dataset"])


def test_limit_keeps_the_best(eng: regnb.Engine) -> None:
    assert names(eng.firm("Hospira", limit=1)) == [("Hospira Inc.", "name")]


@pytest.mark.parametrize(
    ("call", "error", "field"),
    [
        (lambda e: e.firm(""), InvalidRequest, "name_or_id"),
        (lambda e: e.firm("   "), InvalidRequest, "name_or_id"),
        (lambda e: e.firm(None), InvalidRequest, "name_or_id"),
        (lambda e: e.firm("Hospira", limit=0), InvalidRequest, "limit"),
        (lambda e: e.firm("Hospira", limit=101), InvalidRequest, "limit"),
        (lambda e: e.firm("Hospira", datasets="fda_483"), InvalidRequest, "datasets"),
        (lambda e: e.firm("Hospira", datasets=["fda_nope"]), UnknownDataset, "datasets[0]"),
        (lambda e: e.firm("Hospira", plan="gold"), InvalidRequest, "plan"),
        (lambda e: e.firm("Hospira", dataset=["fda_483"]), InvalidRequest, "dataset"),
        (lambda e: e.timeline("no-such-firm-000000"), NotFound, "entity"),
        (lambda e: e.timeline(""), InvalidRequest, "entity"),
        (lambda e: e.timeline(42), InvalidRequest, "entity"),
        (lambda e: e.timeline(e.firm("Hospira")), InvalidRequest, "entity"),
    ],
)
def test_bad_arguments_raise_the_spec_errors(
    eng: regnb.Engine, call: Callable[[regnb.Engine], object], error: type, field: str
) -> None:
    with pytest.raises(error) as caught:
        call(eng)
    assert caught.value.field == field


def test_a_timeline_lists_every_document_of_the_firm_in_date_order(eng: regnb.Engine) -> None:
    firm = eng.firm("Hospira").iloc[0]
    timeline = eng.timeline(firm)
    assert isinstance(timeline, Timeline)
    assert tuple(timeline.columns) == TIMELINE_COLUMNS
    dates = [None if pd.isna(d) else d.date().isoformat() for d in timeline["date"]]
    assert list(zip(timeline["dataset"], dates, strict=True)) == [
        ("fda_483", "2019-03-01"),
        ("fda_crl", "2020-01-15"),
        ("fda_483", "2021-06-01"),
        ("fda_warning_letters", "2021-10-01"),
        ("fda_483", "2022-02-01"),
        ("fda_recall_enforcement", None),
    ]
    assert timeline.firm is not None and timeline.firm["id"] == firm["id"]
    assert eng.timeline(firm["id"]).equals(timeline)
    assert eng.timeline(eng.firm("Hospira").head(1)).equals(timeline)


def test_each_event_has_its_findings_sections_and_a_citation(eng: regnb.Engine) -> None:
    timeline = eng.timeline(eng.firm("Hospira").iloc[0]).set_index("title")
    first = timeline.loc["Form 483 - Hospira, Inc."]
    assert first["findings"] == [
        "Observation 1: Procedures designed to prevent microbiological contamination of drug "
        "products purporting to be sterile are not established and followed, as required by 21 "
        "CFR 211.113(b).",
        "Observation 2: The quality control unit lacks written procedures for the review of "
        "batch production records.",
    ]
    assert first["cfr"] == ["21 CFR 211.113"]
    assert first["page_num"] == 1 and first["passage"].startswith("OBSERVATION 1\nProcedures")
    assert not first["repeat"] and first["links"] == []
    assert timeline.loc["Form 483 - Hospira Inc (Lake Forest)", "repeat"]
    letter = timeline.loc["Warning Letter: Hospira Inc."]
    assert [f.split(":")[0] for f in letter["findings"]] == ["Violation 1", "Violation 2"]
    assert letter["cfr"] == ["21 CFR 211.113", "21 CFR 211.67"]
    crl = timeline.loc["Complete Response Letter - NDA 021164"]
    assert crl["findings"][0].startswith("Product quality 1: The drug product specification")
    recall = timeline.loc["Enforcement report - Hospira"]
    assert recall["findings"] == [] and recall["page_num"] == 1
    assert recall["passage"] == "Reason for recall: particulate matter found in vials."


def test_document_events_give_the_timeline_rows_of_any_documents(eng: regnb.Engine) -> None:
    timeline = eng.timeline(eng.firm("Hospira").iloc[0])
    ids = list(timeline["document_id"])
    events = firms.document_events(eng, [*reversed(ids), ids[0], "no-such-document"])
    assert isinstance(events, Timeline) and events.firm is None
    assert events["links"].map(len).sum() == 0  # links are a timeline's: they need its documents
    unlinked = pd.DataFrame(timeline).drop(columns="links").reset_index(drop=True)
    assert events.drop(columns="links").reset_index(drop=True).equals(unlinked)
    assert list(firms.document_events(eng, []).columns) == list(TIMELINE_COLUMNS)


def test_a_timeline_survives_its_wire_form(eng: regnb.Engine) -> None:
    timeline = eng.timeline(eng.firm("Hospira").iloc[0])
    records = firms.timeline_records(timeline)
    assert records[0]["date"] == "2019-03-01" and records[-1]["date"] is None
    assert isinstance(records[0]["page_num"], int) and isinstance(records[0]["repeat"], bool)
    again = firms.timeline_frame(records, firm=timeline.firm)
    assert again.equals(timeline) and again.firm == timeline.firm


def test_a_firm_frame_survives_its_wire_form(eng: regnb.Engine) -> None:
    found = eng.firm("Hospira")
    assert firms.firms_frame(firms.firm_records(found)).equals(found)
    assert list(firms.firms_frame([]).columns) == list(FIRM_COLUMNS)


def test_a_slice_of_a_timeline_is_a_timeline_and_plots(eng: regnb.Engine) -> None:
    timeline = eng.timeline(eng.firm("Hospira").iloc[0])
    inspections = timeline[timeline["dataset"] == "fda_483"]
    assert isinstance(inspections, Timeline) and inspections.firm == timeline.firm
    figure = timeline.plot()
    ax = figure.axes[0]
    assert "Hospira Inc.: 6 documents, 1 without a date" in ax.get_title().replace("\n", " ")
    labels = [t.get_text().replace("\n", " ") for t in ax.get_yticklabels()]
    assert len(labels) == 4
    assert ax.get_legend() is not None  # the repeat finding
    assert figure._repr_png_()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    ("entity", "expected"),
    [
        ("acme-1a2b3c", "acme-1a2b3c"),
        (" acme-1a2b3c ", "acme-1a2b3c"),
        (pd.Series({"id": "acme-1a2b3c", "name": "Acme"}), "acme-1a2b3c"),
        ({"id": "acme-1a2b3c"}, "acme-1a2b3c"),
        (pd.DataFrame({"id": ["acme-1a2b3c"], "name": ["Acme"]}), "acme-1a2b3c"),
    ],
)
def test_an_entity_is_named_by_its_id_or_a_row(entity: object, expected: str) -> None:
    assert firms.entity_id_of(entity) == expected


@pytest.mark.parametrize(
    "entity",
    ["", None, 3, pd.Series({"name": "Acme"}), pd.DataFrame({"id": ["a", "b"]}), pd.DataFrame()],
)
def test_anything_else_is_an_invalid_entity(entity: object) -> None:
    with pytest.raises(InvalidRequest) as caught:
        firms.entity_id_of(entity)
    assert caught.value.field == "entity"


# --- links between a firm's documents ---------------------------------------------------------


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    path = tmp_path_factory.mktemp("links")
    regnb.write_corpus(
        path / "corpus", linked_documents(), encoder=regnb.HashingEncoder(), progress=False
    )
    settings = Settings(**{**Settings.from_env().__dict__, "home": path / "home"})
    with regnb.Engine(
        path / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    ) as engine:
        yield engine


@pytest.fixture(scope="module")
def acme(linked: regnb.Engine) -> Timeline:
    return linked.timeline(linked.firm("Acme Sterile").iloc[0])


def by_title(timeline: pd.DataFrame) -> dict[str, str]:
    return dict(zip(timeline["title"], timeline["document_id"], strict=True))


def test_a_483_and_the_warning_letter_that_followed_it_link_both_ways(acme: Timeline) -> None:
    ids = by_title(acme)
    links = dict(zip(acme["title"], acme["links"], strict=True))
    assert links["Letter Acme 2021"] == [f"follows Form 483 2021-06-01 ({ids['483 Acme 2021']})"]
    assert links["483 Acme 2021"][-1] == (
        f"followed by warning letter 2021-10-04 ({ids['Letter Acme 2021']})"
    )


def test_a_crl_links_to_the_next_crl_and_the_approval_of_its_application(
    linked: regnb.Engine, acme: Timeline
) -> None:
    ids = by_title(acme)
    links = dict(zip(acme["title"], acme["links"], strict=True))
    assert links["CRL Acme 2020 NDA 021164"] == [
        f"followed by complete response letter 2020-09-01 ({ids['CRL Acme 2020 resubmission']})"
    ]
    approval = linked.search(["Approval Letter"], datasets=["fda_drug"]).results[0]
    assert links["CRL Acme 2020 resubmission"] == [
        f"follows complete response letter 2020-01-15 ({ids['CRL Acme 2020 NDA 021164']})",
        f"followed by approval 2021-05-03 ({approval['document_id']})",  # written to another name
    ]
    holdings = linked.timeline(linked.firm("Acme Holdings").iloc[0])
    assert holdings["links"].tolist() == [
        [f"follows complete response letter 2020-09-01 ({ids['CRL Acme 2020 resubmission']})"]
    ]


@pytest.mark.parametrize(
    "title",
    [
        "Letter Acme 2018",  # before any 483
        "Letter Acme 2025",  # four years after the 2021 inspection
        "CRL Acme other application",
        "483 Acme 2019",  # followed by no letter within 24 months, repeating nothing
    ],
)
def test_near_misses_link_nothing(acme: Timeline, title: str) -> None:
    event = acme.set_index("title").loc[title]
    assert event["links"] == [] and not event["repeat"]


def test_another_firms_483_links_nothing_of_this_one(linked: regnb.Engine, acme: Timeline) -> None:
    beta = linked.timeline(linked.firm("Beta Labs").iloc[0])
    assert beta["links"].tolist() == [[]]
    assert not any(beta["document_id"].iloc[0] in k for k in acme["links"].sum())


def test_a_483_repeating_the_site_s_previous_findings_is_a_repeat(acme: Timeline) -> None:
    ids = by_title(acme)
    event = acme.set_index("title").loc["483 Acme 2021"]
    assert event["repeat"]
    assert event["links"][:2] == [
        f"repeats 21 CFR 211.113 (Observation 2, page 2) of Form 483 2019-03-04, page 1 "
        f"({ids['483 Acme 2019']})",
        f"repeats Observation 2 (Observation 3, page 2) of Form 483 2019-03-04, page 1 "
        f"({ids['483 Acme 2019']})",
    ]


def test_repeat_findings_give_the_pages_to_cite(linked: regnb.Engine, acme: Timeline) -> None:
    found = firms.repeat_findings(acme)
    assert tuple(found.columns) == firms.REPEAT_COLUMNS
    assert found[["section", "title", "finding", "earlier_finding"]].astype(object).fillna(
        "-"
    ).values.tolist() == [
        ["21 CFR 211.113", "Control of microbiological contamination", "Observation 2", "-"],
        ["-", "-", "Observation 3", "Observation 2"],
    ]

    def page(document_id: str, page_num: int) -> str:
        return str(linked.read(document_id, int(page_num), int(page_num)).page_list[0]["text"])

    for row in found.itertuples():
        said = "211.113" if isinstance(row.section, str) else "Cleaning of equipment"
        assert said in page(row.document_id, row.page_num)
        assert said in page(row.earlier_document_id, row.earlier_page_num)
    assert list(firms.repeat_findings(acme.iloc[:0]).columns) == list(firms.REPEAT_COLUMNS)


def test_a_timelines_links_as_a_frame(acme: Timeline) -> None:
    frame = firms.links_frame(acme)
    assert tuple(frame.columns) == firms.LINK_COLUMNS
    assert frame.groupby(["relation", "kind"]).size().to_dict() == {
        ("followed by", "approval"): 1,
        ("followed by", "complete response letter"): 1,
        ("followed by", "warning letter"): 1,
        ("follows", "Form 483"): 1,
        ("follows", "complete response letter"): 1,
        ("repeats", "Form 483"): 2,
    }
    dates = dict(zip(acme["document_id"], acme["date"], strict=True))
    assert all(
        dates[d] == date for d, date in zip(frame["document_id"], frame["date"], strict=True)
    )
    assert str(frame["other_date"].dtype) == "datetime64[ns]"
    assert str(frame["page_num"].dtype) == "Int64"


def test_a_link_that_is_not_one_is_an_error(acme: Timeline) -> None:
    broken = acme.copy()
    broken.loc[broken.index[0], "links"] = ["see also the recall"]
    with pytest.raises(ValueError, match="not a timeline link"):
        firms.links_frame(broken)


def test_links_survive_the_wire_form_and_are_drawn(acme: Timeline) -> None:
    again = firms.timeline_frame(firms.timeline_records(acme), firm=acme.firm)
    assert again.equals(acme)
    ax = acme.plot().axes[0]
    drawn = [line for line in ax.get_lines() if line.get_gid() == "link"]
    assert len(drawn) == 3  # 483 -> letter, CRL -> CRL, 483 -> 483 (the approval is not here)
    labels = {t.get_text() for t in ax.get_legend().get_texts()}
    assert {"repeat finding", "link", "repeat of"} <= labels


# --- the real documents of ../shared/data/realcorpus --------------------------------------

REAL_FILES = (
    "fda_483__ncruickshank.jsonl.gz",
    "fda_warning_letters__jev.jsonl.gz",
    "fda_crl__gmpkit.jsonl.gz",
    "fda_recall_enforcement__openfda-fixture.jsonl.gz",
)


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[regnb.Engine]:
    if not (paths.SHARED_DATA / "realcorpus").exists():
        pytest.skip(f"real corpus not found at {paths.SHARED_DATA / 'realcorpus'}")
    eng = real_engine(
        tmp_path_factory.mktemp("real"), REAL_FILES, shared=shared_folder(tmp_path_factory)
    )
    yield eng
    eng.close()


def _in_page(eng: regnb.Engine, document_id: str, page_num: int, passage: str) -> bool:
    text = eng.read(document_id, page_num, page_num).page_list[0]["text"]
    return " ".join(passage.split()) in " ".join(text.split())


@pytest.mark.shared_data
@pytest.mark.parametrize(
    ("name", "datasets"),
    [
        ("Empower Clinic Services", {"fda_483", "fda_warning_letters"}),
        ("Nubratori", {"fda_483", "fda_warning_letters"}),
        ("Eli Lilly", {"fda_483", "fda_crl"}),
        ("Baxter Healthcare", {"fda_warning_letters", "fda_crl"}),
    ],
)
def test_a_real_firms_documents_across_datasets_cite_their_pages(
    real: regnb.Engine, name: str, datasets: set[str]
) -> None:
    firm = real.firm(name).iloc[0]
    assert set(firm["datasets"]) >= datasets
    timeline = real.timeline(firm)
    assert len(timeline) == firm["documents"]
    dates = timeline["date"].dropna()
    assert dates.is_monotonic_increasing
    for event in timeline.itertuples():
        assert event.passage and _in_page(real, event.document_id, event.page_num, event.passage)
        if event.dataset == "fda_483" and event.findings:
            assert all(f.startswith("Observation ") for f in event.findings)
    assert timeline["findings"].map(len).sum() > 0


@pytest.mark.shared_data
def test_a_real_firms_fei_finds_it_and_its_pages(real: regnb.Engine) -> None:
    firm = real.firm("Empower Clinic Services").iloc[0]
    fei = next(i for i in firm["identifiers"] if i.startswith("FEI "))
    assert real.firm(fei)["id"].tolist() == [firm["id"]]
    found = real.search([f"fei:{fei.split()[1]}"])
    assert found.total >= 1
    assert {d["document_id"] for d in found.results} <= set(real.timeline(firm)["document_id"])


@pytest.mark.shared_data
def test_a_real_crl_links_to_the_next_crl_of_its_application(real: regnb.Engine) -> None:
    timeline = real.timeline(real.firm("Sedor Pharmaceuticals").iloc[0])
    links = firms.links_frame(timeline)
    crls = timeline[timeline["dataset"] == "fda_crl"].set_index("document_id")
    assert len(links) == 2
    first = links[links["relation"] == "followed by"].iloc[0]
    assert first["kind"] == "complete response letter"
    assert first["other_date"] > first["date"]
    titles = crls.loc[[first["document_id"], first["other_document_id"]], "title"]
    assert all("210864" in t for t in titles)  # the same application, resubmitted


@pytest.mark.shared_data
@pytest.mark.parametrize(
    "name",
    [
        "Sun Pharmaceutical Industries",  # two copies of one CRL, a day apart
        "Empower Clinic Services",  # a 483 of 2020, warning letters of 2025
        "Nubratori",  # a 483 of 2019, a warning letter of 2025
    ],
)
def test_real_documents_that_must_not_link(real: regnb.Engine, name: str) -> None:
    timeline = real.timeline(real.firm(name).iloc[0])
    assert timeline["links"].map(len).sum() == 0
