"""ClinicalTrials.gov connector: API v2 JSON, classic XML, zips, enum mapping, bad files."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from regnb import ingest
from regnb.encoder import HashingEncoder
from regnb.ingest._mapping import trial_phase, trial_status
from tests import paths
from tests.fixtures.ingest.support import documents, pages

FIXTURES = paths.FIXTURES / "ingest"
STUDIES = ["study_v2.json", "studies_v2_search.json", "NCT09000004.xml"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["PHASE2", "PHASE3"], "phase3"),
        ("Phase 1/Phase 2", "phase2"),
        ("phase 3", "phase3"),
        (["EARLY_PHASE1"], "early_phase1"),
        ("Early Phase 1", "early_phase1"),
        (["NA"], "na"),
        ("N/A", "na"),
        ([], None),
    ],
)
def test_trial_phase(value: object, expected: str | None) -> None:
    assert trial_phase(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("ACTIVE_NOT_RECRUITING", "active_not_recruiting"),
        ("Active, not recruiting", "active_not_recruiting"),
        ("NOT_YET_RECRUITING", "recruiting"),
        ("Completed", "completed"),
        ("WITHHELD", "unknown"),
        (None, None),
    ],
)
def test_trial_status(value: object, expected: str | None) -> None:
    assert trial_status(value) == expected


def test_v2_json_and_classic_xml(tmp_path: Path) -> None:
    folder = tmp_path / "trials"
    folder.mkdir()
    for name in STUDIES:
        shutil.copy(FIXTURES / name, folder)
    summary = ingest.clinicaltrials(
        folder, corpus=tmp_path / "c", encoder=HashingEncoder(), progress=False
    )
    row = summary.iloc[0]
    assert (row.dataset, row.files, row.written, row.rejected) == ("fda_clinical_trials", 3, 4, 0)
    docs = documents(tmp_path / "c").set_index("key")
    first = docs.loc["nct:NCT09000001"]
    assert first["title"] == "Zorvatide for Moderate Plaque Psoriasis"
    assert str(first["date"]) == "2021-03-01"
    assert first["url"] == "https://clinicaltrials.gov/study/NCT09000001"
    assert first["fields"] == {
        "nct_id": "NCT09000001",
        "sponsor": "Quillfeather Therapeutics",
        "phase": "phase3",
        "overall_status": "active_not_recruiting",
        "conditions": ["Plaque Psoriasis"],
        "start_date": "2021-03-01",
        "title": "Zorvatide for Moderate Plaque Psoriasis",
        "url": "https://clinicaltrials.gov/study/NCT09000001",
    }
    text = pages(tmp_path / "c")["nct:NCT09000001"][0]
    for part in (
        "Official title:",
        "Eligibility criteria:",
        "Prior biologic therapy",
        "DRUG: Zorvatide",
    ):
        assert part in text
    xml = docs.loc["nct:NCT09000004"]
    assert str(xml["date"]) == "2018-03-15"
    assert xml["fields"]["phase"] == "phase3" and xml["fields"]["overall_status"] == "completed"
    assert xml["fields"]["sponsor"] == "Marrowgate Pharma"
    assert "Nasal polyps" in pages(tmp_path / "c")["nct:NCT09000004"][0]
    assert docs.loc["nct:NCT09000003", "fields"]["overall_status"] == "unknown"


def test_zip_of_studies_and_bad_files(tmp_path: Path) -> None:
    archive = tmp_path / "ctg-studies.json.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.write(FIXTURES / "study_v2.json", "NCT09000001.json")
        out.write(FIXTURES / "NCT09000004.xml", "NCT09000004.xml")
    (tmp_path / "broken.xml").write_text("<clinical_study><id_info>")
    (tmp_path / "other.json").write_text('{"hello": "world"}')
    summary = ingest.clinicaltrials(
        [archive, tmp_path / "broken.xml", tmp_path / "other.json"],
        corpus=tmp_path / "c",
        encoder=HashingEncoder(),
        progress=False,
    )
    row = summary.iloc[0]
    assert (row.files, row.files_failed, row.written) == (3, 2, 2)
    reasons = summary.attrs["problems"].set_index("file")["reason"]
    assert "ParseError" in reasons[str(tmp_path / "broken.xml")]
    assert "no protocolSection" in reasons[str(tmp_path / "other.json")]
