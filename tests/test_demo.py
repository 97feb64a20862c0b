"""The synthetic demo corpus: deterministic, complete, valid against the catalog, and buildable.

The generator is a build tool under `data/demogen`, outside the installed package; the corpus it
built ships as `data/demo`.
"""

from __future__ import annotations

import collections
import datetime as dt
import importlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from regnb.catalog import load_catalog
from regnb.corpus import shards
from regnb.corpus.write import validate_document
from regnb.encoder import HashingEncoder

Documents = dict[str, list[dict[str, Any]]]
DATA = Path(__file__).resolve().parents[1] / "data"


def _import_demogen() -> ModuleType:
    """The generator, imported from `data/` (it is not installed with regnb)."""
    if str(DATA) not in sys.path:
        sys.path.insert(0, str(DATA))
    return importlib.import_module("demogen")


demo = _import_demogen()


@pytest.fixture(scope="module")
def documents() -> Documents:
    return demo.generate_documents()


@pytest.fixture(scope="module")
def us_datasets() -> list[str]:
    return [d.id for d in load_catalog() if d.available and d.jurisdiction.startswith("US")]


def _all(documents: Documents) -> list[dict[str, Any]]:
    return [doc for docs in documents.values() for doc in docs]


def test_same_seed_gives_the_same_documents() -> None:
    assert demo.generate_documents(seed=7, scale=0.05) == demo.generate_documents(
        seed=7, scale=0.05
    )


def test_output_does_not_depend_on_string_hashing() -> None:
    code = (
        "import hashlib, json; from demogen import generate_documents; "
        "print(hashlib.sha256(json.dumps(generate_documents(scale=0.05)).encode()).hexdigest())"
    )
    digests = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(DATA)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1


def test_another_seed_gives_other_documents() -> None:
    assert demo.generate_documents(seed=7, scale=0.05) != demo.generate_documents(
        seed=8, scale=0.05
    )


def test_scale_one_has_every_us_dataset_and_enough_pages(
    documents: Documents, us_datasets: list[str]
) -> None:
    assert sorted(documents) == sorted(us_datasets)
    assert len(us_datasets) == 15
    assert all(documents[ds] for ds in us_datasets)
    assert len(_all(documents)) >= 2_000
    assert sum(len(doc["pages"]) for doc in _all(documents)) >= 6_000


def test_the_mix_favours_inspections_and_adverse_events(documents: Documents) -> None:
    counts = {ds: len(docs) for ds, docs in documents.items()}
    for frequent in ("fda_483", "fda_warning_letters", "fda_maude", "fda_faers"):
        assert counts[frequent] > 4 * counts["fda_ufa"]


def test_most_documents_have_several_pages(documents: Documents) -> None:
    page_counts = [len(doc["pages"]) for doc in _all(documents)]
    assert sum(n > 1 for n in page_counts) > 0.7 * len(page_counts)
    assert max(page_counts) <= 8


def test_pages_are_about_120_to_250_words(documents: Documents) -> None:
    words = [len(page.split()) for doc in _all(documents) for page in doc["pages"]]
    assert sum(80 <= n <= 280 for n in words) > 0.95 * len(words)
    assert max(words) <= 350


def test_every_document_validates_and_fills_every_catalog_field(documents: Documents) -> None:
    catalog = load_catalog()
    for dataset_id, docs in documents.items():
        dataset = catalog[dataset_id]
        for i, doc in enumerate(docs):
            checked = validate_document(dataset, doc, f"{dataset_id}[{i}]")
            assert set(doc["fields"]) == set(dataset.fields), dataset_id
            assert all(value not in (None, "", []) for value in doc["fields"].values())
            assert checked["fields"] == doc["fields"]
            assert doc["fields"][dataset.date_field] == doc["date"]
            assert doc["fields"]["title"] == doc["title"]
            assert doc["fields"]["url"] == doc["url"]


def test_field_slots_cover_the_catalog_fields() -> None:
    for dataset in load_catalog():
        if dataset.id in demo.COUNTS:
            named = set(demo.FIELD_SLOTS[dataset.id]) | {"title", "url"}
            assert named | {demo.DATE_FIELDS[dataset.id]} == set(dataset.fields)


def test_field_types_follow_the_catalog(documents: Documents) -> None:
    assert all(isinstance(d["fields"]["serious"], bool) for d in documents["fda_faers"])
    assert {d["fields"]["serious"] for d in documents["fda_faers"]} == {True, False}
    for doc in documents["fda_clinical_trials"]:
        conditions = doc["fields"]["conditions"]
        assert isinstance(conditions, list)
        assert conditions
        assert all(isinstance(c, str) for c in conditions)


def test_enum_fields_use_several_catalog_values(documents: Documents) -> None:
    catalog = load_catalog()
    for dataset_id, docs in documents.items():
        for name, spec in catalog[dataset_id].filters.items():
            if "enum" in spec and name in catalog[dataset_id].fields:
                seen = {doc["fields"][name] for doc in docs}
                assert seen <= set(spec["enum"])
                assert len(seen) >= min(2, len(spec["enum"])), (dataset_id, name)


def test_dates_lie_between_2000_and_october_2026(documents: Documents) -> None:
    dates = [dt.date.fromisoformat(doc["date"]) for doc in _all(documents)]
    assert min(dates) >= dt.date(2000, 1, 1)
    assert max(dates) <= dt.date(2026, 10, 31)
    years = collections.Counter(d.year for d in dates)
    assert all(years[y] > 20 for y in range(2000, 2027))


def test_every_first_page_says_the_record_is_synthetic(documents: Documents) -> None:
    for doc in _all(documents):
        assert doc["pages"][0].startswith(demo.MARKER)


def test_keys_are_unique_and_urls_use_the_synthetic_host(documents: Documents) -> None:
    for dataset_id, docs in documents.items():
        keys = [doc["key"] for doc in docs]
        assert len(set(keys)) == len(keys), dataset_id
        for doc in docs:
            assert doc["url"] == f"https://demo.regnb.invalid/{dataset_id}/{doc['key']}"


def test_no_template_slot_is_left_unfilled(documents: Documents) -> None:
    for doc in _all(documents):
        assert not any("{" in page or "}" in page for page in doc["pages"]), doc["title"]


@pytest.mark.parametrize(
    ("dataset", "field", "pattern"),
    [
        ("fda_drug", "application_number", r"^(NDA|ANDA)\d{6}$"),
        ("fda_biologic", "bla_number", r"^BLA(125|761)\d{3}$"),
        ("fda_denovo_or_510k", "submission_number", r"^(K\d{6}|DEN\d{6})$"),
        ("fda_pma", "pma_number", r"^P\d{6}$"),
        ("fda_483", "fei_number", r"^(100|300)\d{7}$"),
        ("fda_clinical_trials", "nct_id", r"^NCT\d{8}$"),
        ("fda_recall_enforcement", "recall_number", r"^[DZBFVT]-\d{4}-\d{4}$"),
        ("fda_guidance", "docket_number", r"^FDA-\d{4}-D-\d{4}$"),
        ("fda_faers", "safety_report_id", r"^\d{8}$"),
        ("fda_maude", "product_code", r"^[A-Z]{3}$"),
    ],
)
def test_identifiers_have_realistic_formats(
    documents: Documents, dataset: str, field: str, pattern: str
) -> None:
    assert all(re.match(pattern, doc["fields"][field]) for doc in documents[dataset])


def test_firms_recur_across_datasets(documents: Documents) -> None:
    def names(dataset: str, field: str) -> set[str]:
        return {doc["fields"][field] for doc in documents[dataset]}

    inspected = names("fda_483", "facility_name")
    warned = names("fda_warning_letters", "company")
    recalled = names("fda_recalls", "company") | names("fda_recall_enforcement", "recalling_firm")
    assert len(inspected & warned & recalled) >= 5
    assert len(names("fda_drug", "sponsor") & names("fda_clinical_trials", "sponsor")) >= 5


def test_titles_name_the_firm_product_or_application(documents: Documents) -> None:
    for dataset_id, docs in documents.items():
        if dataset_id == "fda_guidance":  # guidance titles are their topics
            continue
        named = 0
        for doc in docs:
            values = [v for v in doc["fields"].values() if isinstance(v, str) and len(v) > 3]
            named += any(v in doc["title"] for v in values if v not in (doc["title"], doc["url"]))
        assert named >= 0.8 * len(docs), dataset_id


def _text(doc: dict[str, Any]) -> str:
    return "\n\n".join(doc["pages"])


def _day(text: str) -> dt.date:
    return dt.datetime.strptime(text, "%B %d, %Y").date()


def test_form_483s_number_their_observations_and_end_every_page_with_the_form(
    documents: Documents,
) -> None:
    texts = []
    for doc in documents["fda_483"]:
        text = _text(doc)
        numbers = [int(n) for n in re.findall(r"^OBSERVATION (\d+)$", text, re.M)]
        assert numbers == list(range(1, len(numbers) + 1)), doc["title"]
        assert numbers
        assert text.count("\nSpecifically") == len(numbers)
        assert doc["fields"]["fei_number"] in doc["pages"][0].split("OBSERVATION 1")[0]
        for i, page in enumerate(doc["pages"], 1):
            assert page.endswith(f"PAGE {i} of {len(doc['pages'])} PAGES")
        texts.append(text)
    assert sum(bool(re.search(r"^A\. .+\nB\. ", t, re.M)) for t in texts) > 0.2 * len(texts)
    statements = {m for t in texts for m in re.findall(r"^OBSERVATION \d+\n(.+)$", t, re.M)}
    assert len(statements) >= 40


def test_a_repeat_observation_repeats_one_of_the_firms_earlier_form_483s(
    documents: Documents,
) -> None:
    by_fei = collections.defaultdict(list)
    for doc in documents["fda_483"]:
        by_fei[doc["fields"]["fei_number"]].append(doc)
    repeats = 0
    for doc in documents["fda_483"]:
        earlier = [d for d in by_fei[doc["fields"]["fei_number"]] if d["date"] <= doc["date"]]
        earlier_text = " ".join(_text(d) for d in earlier if d is not doc)
        for observation in re.split(r"^OBSERVATION \d+\n", _text(doc), flags=re.M)[1:]:
            if "This is a repeat observation from the inspection dated" in observation:
                repeats += 1
                assert observation.split("\n")[0] in earlier_text, doc["title"]
    assert repeats > 30


def _cited_findings() -> dict[str, tuple[str, set[str]]]:
    """Warning-letter violation sentence -> (its section, the citations it may carry)."""
    vocab = importlib.import_module("demogen.vocab.findings")
    out: dict[str, tuple[str, set[str]]] = {}
    for pool in vocab.FINDINGS.values():
        for f in pool:
            older = {c for cfr, (_, c) in vocab.ERA_CITATIONS.items() if cfr == f.cfr}
            out.setdefault(f.violation, (f.section, set()))[1].update({f.cfr, *older})
    return out


def test_warning_letter_violations_cite_their_finding_under_its_section_heading(
    documents: Documents,
) -> None:
    findings = _cited_findings()
    headings = {section for section, _ in findings.values()}
    cited = 0
    for doc in documents["fda_warning_letters"]:
        lines = _text(doc).split("\n")
        numbers = [int(m.group(1)) for line in lines if (m := re.match(r"(\d+)\. ", line))]
        assert numbers == list(range(1, len(numbers) + 1)), doc["title"]
        heading = ""
        for line in lines:
            heading = line if line in headings else heading
            violation = re.sub(r"^\d+\. ", "", line)
            match = max((v for v in findings if violation.startswith(v)), key=len, default="")
            if match and line != violation:
                section, citations = findings[match]
                rest = violation.removeprefix(match)
                assert rest in {f" ({c})." for c in citations} | {
                    f", as required by {c}." for c in citations
                }, line
                assert heading == section, line
                cited += 1
    assert cited > 400


def test_warning_letters_ask_for_what_each_violation_needs(documents: Documents) -> None:
    requests: collections.Counter[str] = collections.Counter()
    for doc in documents["fda_warning_letters"]:
        for paragraph in _text(doc).split("\n\n"):
            if paragraph.startswith("In response to this letter, provide"):
                items = paragraph.split("\n")[1:]
                assert 1 <= len(items) <= 3
                assert all(item.startswith("• ") for item in items)
                requests.update(items)
    assert len(requests) >= 150
    assert requests.most_common(1)[0][1] < 0.03 * sum(requests.values())


def test_complete_responses_number_deficiencies_under_headings_each_with_a_recommendation(
    documents: Documents,
) -> None:
    sections = importlib.import_module("demogen.vocab.crl").SECTION_ORDER
    for doc in documents["fda_crl"]:
        text = _text(doc)
        submitted = re.search(r"dated (\w+ \d+, \d{4}) and received (\w+ \d+, \d{4})", text)
        assert submitted
        assert (
            _day(submitted.group(1))
            <= _day(submitted.group(2))
            < dt.date.fromisoformat(doc["date"])
        )
        body = re.split(r"^(?:PRESCRIBING INFORMATION|OTHER)$", text, flags=re.M)[0]
        numbers = [int(n) for n in re.findall(r"^(\d+)\. ", body, re.M)]
        assert numbers == list(range(1, len(numbers) + 1))
        assert numbers
        advice = re.findall(r"^(?:Recommendation|Information needed|To address this)", body, re.M)
        assert len(advice) == len(numbers)
        headings = re.findall(r"^([A-Z][A-Z ]+)$", body, re.M)
        assert set(headings) - {
            "COMPLETE RESPONSE",
            "DEPARTMENT OF HEALTH AND HUMAN SERVICES",
        } <= set(sections)
        assert "\nOTHER\nWithin one year after the date of this letter" in text


def test_maude_reports_separate_the_event_from_the_manufacturers_narrative(
    documents: Documents,
) -> None:
    for doc in documents["fda_maude"]:
        text = _text(doc)
        event = text.index("Event Description:\nIt was reported that")
        narrative = text.index("Manufacturer Narrative:\nEvaluation: ")
        assert event < narrative
        assert "\nRoot cause: " in text[narrative:]
        assert "\nCorrective action: " in text[narrative:]


def test_guidance_lists_follow_their_lead_in(documents: Documents) -> None:
    for doc in documents["fda_guidance"]:
        text = _text(doc)
        assert "\nIII. RECOMMENDATIONS\nA. " in text
        assert "FDA recommends" in text or "FDA intends" in text
        lists = re.findall(r"the following:((?:\n• [^\n]+)*)", text)
        assert lists
        assert all(item.count("\n• ") >= 2 for item in lists)


def test_a_recall_reason_always_carries_the_same_class(documents: Documents) -> None:
    classes = collections.defaultdict(set)
    for doc in documents["fda_recall_enforcement"]:
        reason = re.search(r"^Reason for Recall: (.+)$", _text(doc), re.M)
        assert reason
        classes[reason.group(1)].add(doc["fields"]["classification"])
    assert all(len(c) == 1 for c in classes.values())
    assert len(classes) >= 25


def test_a_small_scale_keeps_every_dataset() -> None:
    small = demo.generate_documents(scale=0.02)
    assert all(small.values())
    assert 30 <= sum(len(docs) for docs in small.values()) <= 80


def test_scale_multiplies_the_document_counts(documents: Documents) -> None:
    larger = demo.generate_documents(scale=3)
    for dataset_id, docs in documents.items():
        assert len(larger[dataset_id]) == 3 * len(docs)


def test_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="scale"):
        demo.generate_documents(scale=0)


def test_build_writes_a_readable_corpus_with_a_readme(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    summary = demo.build(out, encoder=HashingEncoder(), scale=0.02, progress=False)
    documents = demo.generate_documents(scale=0.02)
    manifest = shards.Manifest.load(out)
    assert manifest is not None
    assert manifest.encoder["name"] == "hashing-384"
    assert {s.dataset for s in manifest.shards} == set(documents)
    assert sum(s.documents_count for s in manifest.shards) == sum(map(len, documents.values()))
    assert summary["written"].sum() == sum(map(len, documents.values()))
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "synthetic" in readme
    assert f"--seed {demo.SEED}" in readme
    for dataset_id, docs in documents.items():
        pages = sum(len(d["pages"]) for d in docs)
        assert f"| {dataset_id} | {len(docs):,} | {pages:,} |" in readme
    again = demo.build(out, encoder=HashingEncoder(), scale=0.02, progress=False)
    assert again["written"].sum() == 0
    assert again["skipped"].sum() == sum(map(len, documents.values()))


def test_the_command_line_builds_with_the_fast_encoder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    demo.main(["--out", str(tmp_path / "cli"), "--scale", "0.01", "--seed", "3", "--fast-encoder"])
    assert "fda_483" in capsys.readouterr().out
    assert "--scale 0.01 --fast-encoder" in (tmp_path / "cli" / "README.md").read_text()


def _shipped_documents(corpus: Path) -> Documents:
    """The documents of a corpus folder, back in `generate_documents` shape (keyed order)."""
    manifest = shards.Manifest.load(corpus)
    assert manifest is not None
    out: Documents = {}
    for entry in manifest.shards:
        table = shards.read_documents(corpus, entry)
        pages = shards.read_pages(corpus, entry, manifest.dim, table)
        texts: dict[str, list[str]] = collections.defaultdict(list)
        for doc_id, text in zip(
            pages.column("document_id").to_pylist(), pages.column("text").to_pylist(), strict=True
        ):
            texts[doc_id].append(text)
        for row in table.to_pylist():
            out.setdefault(entry.dataset, []).append(
                {
                    "key": row["key"],
                    "title": row["title"],
                    "date": row["date"].isoformat(),
                    "url": row["url"],
                    "fields": json.loads(row["fields"]),
                    "pages": texts[row["document_id"]],
                }
            )
    return {ds: sorted(docs, key=lambda d: d["key"]) for ds, docs in out.items()}


def test_the_shipped_corpus_holds_exactly_the_generated_documents(documents: Documents) -> None:
    generated = {ds: sorted(docs, key=lambda d: d["key"]) for ds, docs in documents.items()}
    assert _shipped_documents(DATA / "demo") == generated


def test_the_shipped_readme_is_the_one_the_generator_writes(documents: Documents) -> None:
    manifest = shards.Manifest.load(DATA / "demo")
    assert manifest is not None
    expected = demo.readme_text(
        documents, Path("data/demo"), demo.SEED, 1.0, str(manifest.encoder["name"])
    )
    assert (DATA / "demo" / "README.md").read_text(encoding="utf-8") == expected
    assert "python data/demogen --out data/demo" in expected


def test_the_documented_command_runs_the_generator_folder(tmp_path: Path) -> None:
    out = tmp_path / "corpus"
    done = subprocess.run(
        [
            sys.executable,
            str(DATA / "demogen"),
            "--out",
            str(out),
            "--scale=0.01",
            "--fast-encoder",
        ],
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "fda_483" in done.stdout
    assert shards.Manifest.load(out) is not None


def test_the_generator_is_not_part_of_the_installed_package() -> None:
    assert importlib.util.find_spec("regnb.demo") is None
