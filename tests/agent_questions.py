"""Analyst questions about the real documents of ../shared/data/realcorpus, each with the documents
an analyst would expect the answer to cite. Documents are named by stable record fields (company,
FEI number, application number, device name, title words): never by their text."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FILES", "QUESTIONS", "Expect", "Question"]

# The realcorpus files of the six datasets the questions are about (the enforcement-report
# fixture is small: 72 one-page records).
FILES = [
    "fda_warning_letters__jev.jsonl.gz",
    "fda_483__ncruickshank.jsonl.gz",
    "fda_483_observation_catalog__fy2019.jsonl.gz",
    "fda_crl__gmpkit.jsonl.gz",
    "fda_guidance__cowork-ra.jsonl.gz",
    "fda_guidance__qbdvision.jsonl.gz",
    "fda_maude__narratives.jsonl.gz",
    "fda_recall_enforcement__openfda-fixture.jsonl.gz",
]


@dataclass(frozen=True)
class Expect:
    """Records of `file_prefix` whose `key` holds `value` (case-insensitive)."""

    file_prefix: str
    key: str
    value: str


@dataclass(frozen=True)
class Question:
    """A question and the documents it should cite: at least `need` of `expect` (each `Expect`
    may match several records, e.g. two variants of one letter; any of them counts)."""

    text: str
    expect: list[Expect] = field(default_factory=list)
    need: int = 1


def wl(company: str) -> Expect:
    return Expect("fda_warning_letters__", "company", company)


def f483(key: str, value: str) -> Expect:
    return Expect("fda_483", key, value)


def crl(key: str, value: str) -> Expect:
    return Expect("fda_crl__", key, value)


def guidance(title: str) -> Expect:
    return Expect("fda_guidance__", "title", title)


def maude(device: str) -> Expect:
    return Expect("fda_maude__", "device_name", device)


QUESTIONS = [
    # Warning letters: who was warned, and for what
    Question(
        "Which sterile drug makers got warning letters for media fill failures?",
        [wl("Kc Pharmaceuticals"), wl("Annovex Pharma"), wl("Staska"), wl("Empower Clinic")],
        need=2,
    ),
    Question(
        "Which firms were warned about inadequate smoke studies and unidirectional airflow?",
        [wl("Jubilant Hollisterstier"), wl("Jabil"), wl("Boothwyn"), wl("Pharmathen")],
        need=2,
    ),
    Question(
        "What did FDA's warning letter to Brenntag Great Lakes say about cleaning of equipment?",
        [wl("Brenntag Great Lakes")],
    ),
    Question(
        "Why did Abbott Diabetes Care receive a warning letter?", [wl("Abbott Diabetes Care")]
    ),
    Question(
        "Which hand sanitizer manufacturers received warning letters?",
        [wl("Atlanta Supersource"), wl("Enviroserve"), wl("Deqing Jiarou"), wl("Gasco")],
        need=2,
    ),
    Question(
        "Warning letters to compounders selling semaglutide or tirzepatide",
        [wl("Prorx"), wl("Nativemed"), wl("Royal Peptides"), wl("Glp 1 Solution")],
        need=1,
    ),
    Question(
        "Which device makers were cited for failing to submit medical device reports (MDRs)?",
        [wl("Beta Bionics"), wl("Biosensors Interventional"), wl("Unomedical")],
        need=1,
    ),
    Question(
        "Dietary supplement firms warned for not establishing product specifications",
        [wl("Anti Lage"), wl("Natures Elements"), wl("Meta Labs"), wl("Nupack")],
        need=2,
    ),
    Question(
        "What investigations failures did FDA cite at Baxter Healthcare?",
        [wl("Baxter Healthcare")],
    ),
    # Form 483s
    Question("What did the 483 for FEI 3010166491 cite?", [f483("fei_number", "3010166491")]),
    Question(
        "What observations did FDA make at ImClone Systems?",
        [f483("company", "ImClone Systems")],
    ),
    Question(
        "Which 483s cited disinfecting agents that were not sterile in ISO 5 aseptic areas?",
        [
            f483("company", "Banner Pharmacy"),
            f483("company", "John L. McClellan"),
            f483("company", "Surgery Pharmacy Services"),
            f483("company", "Abilene Nuclear"),
        ],
        need=1,
    ),
    Question(
        "Form 483 observations about hazardous drugs produced without adequate containment",
        [
            f483("company", "One Way Drug"),
            f483("company", "Healthy Choice Compounding"),
            f483("company", "Advanced Nutriceuticals"),
        ],
        need=1,
    ),
    Question(
        "Which food observations were cited most often on FY2019 483s?",
        [f483("title", "FY2019 - Foods")],
    ),
    Question(
        "What quality control unit problems were observed at Hospira?",
        [f483("company", "Hospira")],
    ),
    # Complete response letters
    Question(
        "Why did FDA issue a complete response letter for SoluPrep?",
        [crl("application_number", "208288")],
    ),
    Question(
        "What deficiencies did the complete response letter for Vyalev list?",
        [crl("title", "Vyalev")],
    ),
    Question("Complete response letter for NDA 209128", [crl("application_number", "209128")]),
    Question(
        "What did FDA tell Amgen about Repatha in its complete response letter?",
        [crl("title", "Repatha")],
    ),
    Question("Why was Kisunla not approved in the CRL?", [crl("title", "Kisunla")]),
    # Guidance
    Question(
        "What does FDA guidance say about cybersecurity in medical devices?",
        [guidance("Cybersecurity in Medical Devices")],
    ),
    Question(
        "What does FDA recommend for a predetermined change control plan for AI-enabled devices?",
        [guidance("Predetermined Change Control Plan for Artificial Intelligence")],
    ),
    Question(
        "How should sponsors conduct clinical trials with decentralized elements?",
        [guidance("Decentralized Elements")],
    ),
    Question(
        "What does the guidance say about off-the-shelf software use in medical devices?",
        [guidance("Off-The-Shelf Software")],
    ),
    Question(
        "Guidance on initiating voluntary recalls under 21 CFR Part 7",
        [guidance("Initiation of Voluntary Recalls")],
    ),
    # MAUDE
    Question(
        "What adverse events were reported for the LINQ II Insertable Cardiac Monitor?",
        [maude("LINQ II")],
    ),
    Question(
        "MAUDE reports of errors with the CARTO 3 EP navigation system",
        [maude("CARTO")],
    ),
    Question(
        "What malfunctions were reported in MAUDE for the Lumify ultrasound system?",
        [maude("Lumify")],
    ),
]
