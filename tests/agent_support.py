"""A small corpus with known answers for the research agent's tests, and a recorder of a run's
steps. Built in code (no shared data), opened with the hashing encoder by `make_engine`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import regnb
from regnb.agent._stages import Plan
from regnb.agent.types import PriorTurn, Step, TurnRequest, TurnResult
from regnb.settings import Settings
from tests.conftest import doc

__all__ = [
    "Recorder",
    "agent_corpus",
    "flat_plan",
    "open_agent_corpus",
    "plan_fields",
    "prior",
    "request",
]

SECTIONS = ("topic", "scope", "follow_up", "ask")


def flat_plan(message: str = "m", query: str = "q", **fields: Any) -> Plan:
    """A plan from its fields by name, whatever their section (the flat form turns stored
    plans in before they had sections: `words=[...]`, `datasets=[...]`, `date_from=...`)."""
    return Plan.from_dict({"message": message, "query": query, **fields})


def plan_fields(plan: Plan) -> dict[str, Any]:
    """The plan's fields by name, whatever their section, as JSON; `date_from` and `date_to`
    are its dates' bounds."""
    data = plan.to_dict()
    out = {k: v for name in SECTIONS for k, v in data[name].items()}
    return {**out, "date_from": plan.scope.date_from, "date_to": plan.scope.date_to}


def _letter(firm: str, state: str, topic: str, date: str, number: str) -> dict[str, Any]:
    body = [
        f"WARNING LETTER CMS {number}\n\nDear Sir or Madam:\n\n"
        f"The U.S. Food and Drug Administration (FDA) inspected your drug manufacturing facility, "
        f"{firm}, in {state}. This warning letter summarizes significant violations of Current "
        "Good Manufacturing Practice (CGMP) regulations for finished pharmaceuticals.\n\n"
        f"1. Your firm failed to establish adequate controls: {topic}.\n\n"
        "In response to this letter, provide:\n"
        "- A comprehensive remediation plan.\n"
        "- A retrospective review of all affected batches.",
        "If you have any questions, contact the Office of Manufacturing Quality.\n\n"
        "Sincerely,\nDivision of Drug Quality",
    ]
    return doc(
        f"Warning Letter: {firm} ({number})",
        body,
        date=date,
        fields={"company": firm, "issuing_office": "CDER"},
    )


MEDIA_FILL = (
    "media fill runs failed and your firm continued to release sterile drug products made by "
    "aseptic processing after the media fill failures"
)
DATA_INTEGRITY = (
    "data integrity lapses: analysts deleted chromatography results and the audit trail was "
    "disabled on the laboratory systems"
)
CLEANING = "cleaning validation of shared equipment was not performed before campaign changes"


def agent_corpus() -> dict[str, list[dict[str, Any]]]:
    """Warning letters, 483s, complete response letters, guidance, MAUDE reports and recalls."""
    recalls = [
        doc(
            f"Recall: {product} by {firm}",
            [f"{firm} recalled {product} because of {reason}. The recall was voluntary."],
            date=f"20{10 + i}-03-0{1 + i % 8}",
            fields={"company": firm, "reason": reason},
        )
        for i, (firm, product, reason) in enumerate(
            [
                (f"Firm {chr(65 + i)} Foods", f"product {i}", reason)
                for i, reason in enumerate(
                    ["undeclared milk", "listeria", "salmonella", "mislabeling"] * 8
                )
            ]
        )
    ]
    return {
        "fda_warning_letters": [
            _letter("Acme Sterile Pharma Inc", "California", MEDIA_FILL, "2021-03-04", "612345"),
            _letter("Borealis Injectables LLC", "Ohio", MEDIA_FILL, "2019-06-10", "598765"),
            _letter("Cobalt Labs Inc", "California", DATA_INTEGRITY, "2022-09-01", "640001"),
            _letter("Delta Generics Ltd", "Texas", CLEANING, "2016-02-02", "480002"),
        ],
        "fda_483": [
            doc(
                "FDA Form 483 - Acme Sterile Pharma Inc (2020-11-20)",
                [
                    "OBSERVATION 1 Procedures designed to prevent microbiological contamination "
                    "of drug products purporting to be sterile were not established. "
                    "Specifically, smoke studies did not show unidirectional airflow at the "
                    "filling line. The media fill of lot 22 had three positive units.\n\n"
                    "OBSERVATION 2 Laboratory records did not include complete data. Audit "
                    "trails were not reviewed.",
                ],
                date="2020-11-20",
                fields={"facility_name": "Acme Sterile Pharma Inc", "fei_number": "3001234567"},
            ),
        ],
        "fda_crl": [
            doc(
                "Complete Response Letter - Zentavir (NDA 212345)",
                [
                    "NDA 212345\n\nCOMPLETE RESPONSE\n\nWe have completed our review of this "
                    "application and have determined that we cannot approve it in its present "
                    "form.\n\nPRODUCT QUALITY\n\n1. The drug product stability data do not "
                    "support the proposed 24-month expiration dating period.\n\n"
                    "2. The facility inspection of the drug substance manufacturer found "
                    "objectionable conditions.\n\nCLINICAL\n\n3. The single trial did not "
                    "show substantial evidence of effectiveness.",
                ],
                date="2021-05-05",
                fields={"application_number": "212345", "company": "Zentara Bio"},
            ),
        ],
        "fda_guidance": [
            doc(
                "Cybersecurity in Medical Devices: Premarket Submissions",
                [
                    "Contains Nonbinding Recommendations\n\nI. Introduction\n\nThis guidance "
                    "describes the cybersecurity information manufacturers should include in "
                    "premarket submissions.\n\nII. Recommendations\n\n"
                    "| Element | Recommendation |\n| Threat model | Provide a threat model of "
                    "the device system |\n| SBOM | Provide a software bill of materials |\n\n"
                    "FDA recommends that manufacturers monitor and address cybersecurity "
                    "vulnerabilities across the total product lifecycle.",
                ],
                date="2023-09-27",
                url="https://www.fda.gov/media/119933/download",
                fields={"topic": "cybersecurity"},
            ),
            doc(
                "Process Validation: General Principles and Practices",
                [
                    "This guidance outlines process validation activities in three stages: "
                    "process design, process qualification and continued process verification. "
                    "Manufacturers should use a lifecycle approach. Cleaning validation is "
                    "discussed elsewhere."
                ],
                date="2011-01-24",
            ),
        ],
        "fda_maude": [
            doc(
                "MAUDE MDR 1234567-2022-00001 - Vita Insulin Pump",
                [
                    "IT WAS REPORTED THAT THE INSULIN PUMP DELIVERED AN OCCLUSION ALARM. THE "
                    "PATIENT EXPERIENCED HYPERGLYCEMIA AND WAS HOSPITALIZED. THE DEVICE WAS "
                    "RETURNED FOR EVALUATION. A CRACKED CARTRIDGE WAS FOUND."
                ],
                date="2022-04-01",
                fields={"brand_name": "Vita Insulin Pump", "manufacturer": "Vita Medical"},
            ),
        ],
        "fda_recalls": recalls,
    }


def open_agent_corpus(root: Path) -> regnb.Engine:
    """The agent corpus written under `root` and opened with the hashing encoder (its index under
    `root` too, so a module-scoped engine does not depend on a test's REGNB_HOME)."""
    regnb.write_corpus(
        root / "corpus", agent_corpus(), encoder=regnb.HashingEncoder(), progress=False
    )
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    return regnb.Engine(
        root / "corpus", encoder=regnb.HashingEncoder(), settings=settings, progress=False
    )


def request(
    message: str,
    history: list[PriorTurn] | None = None,
    *,
    first: int = 1,
    plan: str = "enterprise",
) -> TurnRequest:
    import datetime as dt

    return TurnRequest(
        message=message,
        history=history or [],
        first_citation=first,
        plan=plan,
        today=dt.date(2025, 6, 1),
    )


def prior(message: str, result: TurnResult) -> PriorTurn:
    """The turn as the service would keep it."""
    return PriorTurn(
        message=message,
        status=result.status,
        answer=result.answer,
        citations=result.citations,
        question=result.question,
        state=result.state,
    )


@dataclass
class Recorder:
    """Collects the steps a run reports; `stop_after` stops the run at that many checks."""

    reports: list[list[Step]] = field(default_factory=list)
    checks: int = 0
    stop_after: int | None = None

    def report(self, steps: list[Step]) -> None:
        self.reports.append(list(steps))

    def stopped(self) -> bool:
        self.checks += 1
        return self.stop_after is not None and self.checks > self.stop_after

    @property
    def messages(self) -> list[str]:
        return [s.message for s in self.reports[-1]] if self.reports else []
