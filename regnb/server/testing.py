"""Test doubles for the server: a small fixed corpus and a clock the test moves by hand."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

__all__ = ["FakeClock", "make_keys", "open_sample", "sample_documents"]


class FakeClock:
    """A monotonic clock in seconds that only moves when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _doc(
    title: str, date: str, url: str, fields: dict[str, Any], pages: list[str]
) -> dict[str, Any]:
    return {"title": title, "date": date, "url": url, "fields": fields, "pages": pages}


def sample_documents() -> dict[str, list[dict[str, Any]]]:
    """Form 483s, warning letters, guidance and one enterprise-only letter (fda_crl)."""
    f483 = [
        _doc(
            f"Form 483 for Acme Sterile plant {i}",
            f"2021-0{i + 1}-15",
            f"https://example.test/483/{i}",
            {"facility_name": f"Acme Sterile {i}", "fei_number": f"300{i}00{i}"},
            [
                f"Observation {i}: sterility assurance failures in aseptic processing line {i}.",
                "Cleaning validation records were incomplete for the filling room.",
                "Environmental monitoring excursions were not investigated.",
            ],
        )
        for i in range(5)
    ]
    f483.append(
        _doc(
            "Form 483 long record",
            "2019-05-01",
            "https://example.test/483/long",
            {"facility_name": "Long Works", "fei_number": "3999999"},
            [f"Page {n} of the long record mentions sterility review {n}." for n in range(1, 8)],
        )
    )
    letters = [
        _doc(
            f"Warning letter to Beta Pharma {i}",
            f"2022-0{i + 1}-10",
            f"https://example.test/wl/{i}",
            {"company": "Beta Pharma", "subject": "CGMP/Sterility"},
            [f"Your firm failed sterility testing of lot {i}; contamination was found."],
        )
        for i in range(3)
    ]
    guidance = [
        _doc(
            "Sterile drug products produced by aseptic processing",
            "2004-09-01",
            "https://example.test/guidance/aseptic",
            {"center": "CDER", "status": "final"},
            ["This guidance covers aseptic processing and sterility assurance.", "Annex."],
        )
    ]
    crl = [
        _doc(
            "Complete response letter to Gamma Bio",
            "2020-03-03",
            "https://example.test/crl/1",
            {"company": "Gamma Bio"},
            ["The application cannot be approved: sterility assurance data are missing."],
        )
    ]
    return {
        "fda_483": f483,
        "fda_warning_letters": letters,
        "fda_guidance": guidance,
        "fda_crl": crl,
    }


def open_sample(folder: Path, home: Path, **settings: Any) -> Any:
    """Write the sample corpus into `folder` and open it with the hashing encoder."""
    import regnb
    from regnb.settings import Settings

    regnb.write_corpus(folder, sample_documents(), encoder=regnb.HashingEncoder(), progress=False)
    base = dataclasses.replace(Settings.from_env(), home=Path(home), **settings)
    return regnb.Engine(folder, encoder=regnb.HashingEncoder(), settings=base, progress=False)


KEY_NAMES = {
    "ent": ("acme", "enterprise"),
    "ent2": ("acme", "enterprise"),
    "paid": ("beta", "paid"),
    "free": ("gamma", "free"),
    "other": ("delta", "enterprise"),
}


def make_keys(accounts: Any) -> dict[str, str]:
    """Keys by role: `ent` and `ent2` share one enterprise account; `paid`, `free`, `other`
    (enterprise) each have their own."""
    return {role: accounts.create_key(*KEY_NAMES[role]).key for role in KEY_NAMES}
