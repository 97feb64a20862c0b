"""The regulatory research benchmark (benchmarks/research/questions.json): loading its questions,
running them through the research agent as real conversations, and scoring the answers the way an
analyst would, against passage-level gold evidence.

Shared by benchmarks/bench_research.py (timings, tables) and tests/test_research_benchmark.py
(data checks, floors). The documents are read from ../shared/data/realcorpus at run time: the
questions name them by stable record fields and hold only short verbatim phrases of their text.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import gzip
import hashlib
import json
import os
import re
import shutil
import statistics
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from regnb.agent.types import Agent, PriorTurn, SourcedCitation, TurnRequest, TurnResult
from regnb.documents.blocks import block_text
from tests.agent_questions import FILES as AGENT_FILES

if TYPE_CHECKING:
    import pytest

__all__ = [
    "FILES",
    "HALVES",
    "KINDS",
    "QUESTIONS_PATH",
    "REAL",
    "TARGETS",
    "TODAY",
    "BenchQuestion",
    "EngineReader",
    "Expect",
    "Reader",
    "Records",
    "Score",
    "by_half",
    "by_kind",
    "contains",
    "conversation",
    "first_paragraph",
    "is_salutation",
    "load_questions",
    "meets",
    "score_answer",
    "summarise",
    "title_key",
    "weakest",
]

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS_PATH = ROOT / "benchmarks" / "research" / "questions.json"
REAL = ROOT.parent / "shared" / "data" / "realcorpus"

# The realcorpus files the questions are about: those of tests/agent_questions.py.
FILES = list(AGENT_FILES)
KINDS = (
    "single",
    "multi",
    "which",
    "guidance",
    "compare",
    "count",
    "followup",
    "history",
    "absence",
)
# The two halves: `dev` may be looked at while the agent is tuned; `sealed` is only ever run to
# report figures (benchmarks/research/README.md).
HALVES = ("dev", "sealed")

# The date every turn is asked on (the service uses the clock's date; a fixed one keeps the
# benchmark's answers the same from one day to the next).
TODAY = dt.date(2026, 11, 26)

# Where the agent should be: (figure, comparison, target).
TARGETS: dict[str, tuple[str, float]] = {
    "gold_recall": (">=", 0.80),
    "expected_cited": (">=", 0.95),
    "boilerplate_cited": ("<=", 0),
    "verified": (">=", 1.0),
    "single_extra_max": ("<=", 3),
    "turn_p95_s": ("<=", 10.0),
    "lead_ok": (">=", 1.0),
    "answer_words_p50": ("<=", 600),
}


# --------------------------------------------------------------------------- questions


@dataclass(frozen=True)
class Expect:
    """The records of the realcorpus file starting with `file` whose field `key` holds `value`
    (case-insensitive): one answering document (two variants of a letter both count)."""

    file: str
    key: str
    value: str

    def matches(self, file_name: str, record: dict[str, Any]) -> bool:
        return file_name.startswith(self.file) and (
            self.value.casefold() in str(record.get(self.key) or "").casefold()
        )


@dataclass(frozen=True)
class BenchQuestion:
    """One benchmark question: the conversation's messages (the last one is scored), the
    documents a good answer cites (at least `need` of `expect`), the gold facts (each a list of
    alternative verbatim phrases) and the letter furniture that must never be cited as evidence.
    `lead`: facts (each a list of alternative phrases) the answer's first paragraph must hold,
    for questions whose honest answer leads with "no" or "the documents do not hold that";
    `half`: `dev` or `sealed` (benchmarks/research/README.md)."""

    id: str
    kind: str
    turns: list[str]
    expect: list[Expect]
    need: int
    gold: list[list[str]]
    boilerplate: list[str]
    note: str = ""
    half: str = "dev"
    lead: list[list[str]] = field(default_factory=list)

    @property
    def single_document(self) -> bool:
        """A question one document answers: kind `single`, or one expected document."""
        return self.kind == "single" or (len(self.expect) == 1 and self.need == 1)


def load_questions(path: Path = QUESTIONS_PATH) -> list[BenchQuestion]:
    """The benchmark's questions, in file order."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    return [
        BenchQuestion(
            id=q["id"],
            kind=q["kind"],
            turns=list(q["turns"]),
            expect=[Expect(e["file"], e["key"], e["value"]) for e in q["expect"]],
            need=int(q.get("need", 1)),
            gold=[list(alternatives) for alternatives in q["gold"]],
            boilerplate=list(q.get("boilerplate", [])),
            note=q.get("note", ""),
            half=q.get("half", "dev"),
            lead=[list(alternatives) for alternatives in q.get("lead", [])],
        )
        for q in raw["questions"]
    ]


class Records:
    """The realcorpus records the questions name, read from the gzip JSON lines once."""

    def __init__(self, folder: Path = REAL, files: Sequence[str] = FILES) -> None:
        self.rows: list[tuple[str, dict[str, Any]]] = []
        for name in files:
            with gzip.open(folder / name, "rt", encoding="utf-8") as handle:
                self.rows.extend((name, json.loads(line)) for line in handle)

    def matching(self, expect: Expect) -> list[dict[str, Any]]:
        return [r for name, r in self.rows if expect.matches(name, r)]

    def titles(self, expect: Expect) -> set[str]:
        """Title keys of the records an expectation names."""
        return {title_key(r["title"]) for r in self.matching(expect)}

    def pages(self, question: BenchQuestion) -> list[str]:
        """Every page of every document the question expects."""
        return [p for e in question.expect for r in self.matching(e) for p in r["pages"]]


def real_engine(root: Path, files: Sequence[str] = FILES, shared: Path | None = None) -> Any:
    """An engine over the realcorpus files, its index and caches under `root`, with the hashing
    encoder; the caller closes it. The files are ingested (about 20 s on 2 cores) under
    `shared` once for every module and worker of the test session that asks (`shared_folder`),
    else under `root`."""
    import regnb
    from regnb.settings import Settings

    corpus = real_corpus(shared or root, files)
    settings = Settings(**{**Settings.from_env().__dict__, "home": root / "home"})
    return regnb.Engine(corpus, encoder=regnb.HashingEncoder(), settings=settings, progress=False)


def shared_folder(factory: pytest.TempPathFactory) -> Path:
    """The test session's folder that all its xdist workers share (each has its own below it)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def real_corpus(folder: Path, files: Sequence[str]) -> Path:
    """The realcorpus `files` ingested under `folder` once: the first caller ingests while it
    holds the lock, the others wait and open what it wrote."""
    import regnb
    import regnb.ingest

    key = hashlib.sha1("\n".join(sorted(files)).encode()).hexdigest()[:12]
    corpus, done = folder / f"realcorpus-{key}", folder / f"realcorpus-{key}.done"
    with open(folder / f"realcorpus-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(corpus, ignore_errors=True)  # a caller that failed part-way
            regnb.ingest.jsonl(
                [REAL / f for f in files],
                corpus=corpus,
                encoder=regnb.HashingEncoder(),
                progress=False,
            )
            done.touch()
    return corpus


def title_key(title: str) -> str:
    """A title reduced to its letters and digits, for matching cited documents to records."""
    return re.sub(r"[^0-9a-z]+", "", unicodedata.normalize("NFKC", title).casefold())


# --------------------------------------------------------------------------- text matching

_QUOTES = str.maketrans({"‘": "'", "’": "'", "‚": "'", "“": '"', "”": '"', "„": '"'})
_DASHES = re.compile(r"[‐‑‒–—―]")
_WS = re.compile(r"\s+")
_PUNCT = re.compile(r"[^0-9a-z]+")


def norm(text: str) -> str:
    """Case, Unicode forms, curly quotes, dashes and runs of whitespace folded."""
    text = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    return _WS.sub(" ", _DASHES.sub("-", text)).strip().casefold()


def loose(text: str) -> str:
    """`norm`, with every run of punctuation and whitespace as one space."""
    return " " + _PUNCT.sub(" ", norm(text)).strip() + " "


_NUMBER = re.compile(r"(?<= )\d{1,4}(?= )")


def contains(haystack: str, phrase: str) -> bool:
    """Whether `phrase` occurs in `haystack`, whitespace and case folded; failing that,
    punctuation-insensitive (whole words at the phrase's ends); failing that, with the
    haystack's standalone numbers that the phrase does not hold left out (a draft guidance's
    line numbers fall between its words: "systems that were 45 operational")."""
    if norm(phrase) in norm(haystack):
        return True
    needle = loose(phrase)
    if needle.strip() == "":
        return False
    text = loose(haystack)
    if needle in text:
        return True
    own = set(_NUMBER.findall(needle))
    text = _NUMBER.sub(lambda m: m.group() if m.group() in own else "", text)
    return needle in _WS.sub(" ", text)


_SALUTATION = re.compile(r"^(dear|hello|greetings|to whom it may concern)\b")


def is_salutation(text: str) -> bool:
    return bool(_SALUTATION.match(norm(text)))


# --------------------------------------------------------------------------- running


def conversation(
    agent: Agent, turns: Sequence[str], *, plan: str = "enterprise", today: dt.date = TODAY
) -> Iterator[TurnResult]:
    """The turns asked one after the other in one conversation, as the conversation service
    does: each request carries every earlier turn (message, status, answer, citations, clarifying
    question, the agent's state) and continues the citation numbers. Yields each turn's result."""
    history: list[PriorTurn] = []
    for message in turns:
        first = max((c.index for t in history for c in t.citations), default=0) + 1
        request = TurnRequest(message, list(history), first, plan, today)
        result = agent.run(request, lambda steps: None, lambda: False)
        yield result
        history.append(
            PriorTurn(
                message=message,
                status=result.status,
                answer=result.answer,
                citations=list(result.citations),
                question=result.question,
                state=result.state,
            )
        )


class Reader(Protocol):
    """What scoring reads: a page's text and a document's title, as the engine returns them."""

    def page(self, document_id: str, page_num: int) -> str: ...

    def title(self, document_id: str) -> str: ...


class EngineReader:
    """`Reader` over an engine's document reader (`Engine.read`), cached."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self._pages: dict[tuple[str, int], str] = {}
        self._titles: dict[str, str] = {}

    def page(self, document_id: str, page_num: int) -> str:
        key = (document_id, page_num)
        if key not in self._pages:
            read = self.engine.read(document_id, page_num, page_num)
            self._titles[document_id] = read.title
            self._pages[key] = read.page_list[0]["text"] if read.page_list else ""
        return self._pages[key]

    def title(self, document_id: str) -> str:
        if document_id not in self._titles:
            self.page(document_id, 1)
        return self._titles[document_id]


# --------------------------------------------------------------------------- scoring


@dataclass
class Score:
    """How one answer (the last turn of a question) fares."""

    id: str
    kind: str
    status: str
    need: int
    expected_found: int  # expected documents cited
    facts: list[bool]  # per gold fact: found in the answer or in a cited passage
    boilerplate: list[str]  # the cited passages that are letter furniture (their block ids)
    documents: int  # distinct documents cited
    extra_documents: int  # cited documents that are none of the expected ones
    passages: int  # passage citations
    verified: int  # passage citations whose text is their block's text on the page read
    single_document: bool
    seconds: list[float] = field(default_factory=list)  # per turn, when timed
    half: str = "dev"
    lead_ok: bool | None = None  # the first paragraph holds every lead fact (None: no lead)
    words: int = 0  # words in the answer's markdown

    @property
    def expected_ok(self) -> bool:
        return self.expected_found >= self.need

    @property
    def recall(self) -> float:
        return sum(self.facts) / len(self.facts) if self.facts else 1.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "expected_ok": self.expected_ok, "recall": self.recall}


def _passage_text(reader: Reader, citation: SourcedCitation) -> str | None:
    """The cited block's text recomputed from the page the reader returns (None: no such block)."""
    if citation.block_id is None or citation.page_num is None:
        return None
    try:
        return block_text(reader.page(citation.document_id, citation.page_num), citation.block_id)
    except (ValueError, LookupError):
        return None


_IN_SHORT = re.compile(r"^\*\*\s*in short\s*:?\s*\*\*\s*:?", re.IGNORECASE)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def first_paragraph(answer: str) -> str:
    """The answer's first paragraph: its markdown before the first blank line, after a leading
    `**In short:**` marker is stripped."""
    text = _IN_SHORT.sub("", answer.strip(), count=1).strip()
    return _BLANK_LINE.split(text, maxsplit=1)[0]


def score_answer(
    question: BenchQuestion,
    result: TurnResult,
    reader: Reader,
    expected_titles: Sequence[set[str]],
) -> Score:
    """Score `result` (the question's last turn). `expected_titles[i]` holds the title keys of the
    records `question.expect[i]` names (`Records.titles`)."""
    answer = (result.answer or "") if result.status == "completed" else ""
    citations = result.citations if result.status == "completed" else []
    passages = [c for c in citations if c.block_id is not None]
    texts = [_passage_text(reader, c) for c in passages]
    verified = sum(
        1
        for c, text in zip(passages, texts, strict=True)
        if text is not None and norm(text) == norm(c.passage or "")
    )
    evidence = [answer, *(t for t in texts if t)]
    facts = [any(contains(e, alt) for e in evidence for alt in fact) for fact in question.gold]
    furniture = [
        f"{c.document_id} p{c.page_num} {c.block_id}"
        for c, text in zip(passages, texts, strict=True)
        if text is not None
        and (is_salutation(text) or any(contains(text, b) for b in question.boilerplate))
    ]
    lead = first_paragraph(answer)
    lead_ok = (
        all(any(contains(lead, alt) for alt in fact) for fact in question.lead)
        if question.lead
        else None
    )
    cited = {c.document_id: title_key(reader.title(c.document_id)) for c in citations}
    found = sum(1 for titles in expected_titles if titles & set(cited.values()))
    wanted = set().union(*expected_titles) if expected_titles else set()
    return Score(
        id=question.id,
        kind=question.kind,
        status=result.status,
        need=question.need,
        expected_found=found,
        facts=facts,
        boilerplate=furniture,
        documents=len(cited),
        extra_documents=sum(1 for key in cited.values() if key not in wanted),
        passages=len(passages),
        verified=verified,
        single_document=question.single_document,
        half=question.half,
        lead_ok=lead_ok,
        words=len(answer.split()),
    )


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))] if ordered else 0.0


def summarise(scores: Iterable[Score]) -> dict[str, float]:
    """The overall figures: mean gold-fact recall per question, share of questions citing their
    expected documents, boilerplate passages cited, share of passage citations verified, documents
    cited per answer, other documents cited by single-document answers (mean and most), share of
    the questions with a `lead` whose first paragraph holds it (1.0 when none has one), words per
    completed answer (median), and seconds per turn (p50, p95) when the turns were timed."""
    scores = list(scores)
    if not scores:
        return {}
    single = [s.extra_documents for s in scores if s.single_document]
    passages = sum(s.passages for s in scores)
    seconds = [t for s in scores for t in s.seconds]
    leads = [s.lead_ok for s in scores if s.lead_ok is not None]
    words = [s.words for s in scores if s.status == "completed"]
    return {
        "questions": len(scores),
        "gold_recall": statistics.fmean(s.recall for s in scores),
        "facts_found": sum(sum(s.facts) for s in scores),
        "facts": sum(len(s.facts) for s in scores),
        "expected_cited": sum(s.expected_ok for s in scores) / len(scores),
        "boilerplate_cited": sum(len(s.boilerplate) for s in scores),
        "verified": sum(s.verified for s in scores) / passages if passages else 1.0,
        "passages": passages,
        "documents_per_answer": statistics.fmean(s.documents for s in scores),
        "single_extra_mean": statistics.fmean(single) if single else 0.0,
        "single_extra_max": max(single, default=0),
        "completed": sum(s.status == "completed" for s in scores) / len(scores),
        "lead_questions": len(leads),
        "lead_ok": sum(leads) / len(leads) if leads else 1.0,
        "answer_words_p50": statistics.median(words) if words else 0.0,
        "turns": len(seconds),
        "turn_p50_s": statistics.median(seconds) if seconds else 0.0,
        "turn_p95_s": _p95(seconds),
    }


def by_kind(scores: Iterable[Score]) -> dict[str, dict[str, float]]:
    """`summarise` per question kind."""
    groups: dict[str, list[Score]] = {}
    for s in scores:
        groups.setdefault(s.kind, []).append(s)
    return {kind: summarise(groups[kind]) for kind in KINDS if kind in groups}


def by_half(scores: Iterable[Score]) -> dict[str, dict[str, float]]:
    """`summarise` per half (`dev`, `sealed`), for the halves present."""
    groups: dict[str, list[Score]] = {}
    for s in scores:
        groups.setdefault(s.half, []).append(s)
    return {half: summarise(groups[half]) for half in HALVES if half in groups}


def meets(figure: str, value: float) -> bool:
    """Whether an overall figure meets its target (`TARGETS`)."""
    op, target = TARGETS[figure]
    return value >= target if op == ">=" else value <= target


def weakest(scores: Iterable[Score], n: int = 5) -> list[Score]:
    """The `n` answers furthest from right: recall first, then expected documents, a missed
    lead, boilerplate."""
    return sorted(
        scores,
        key=lambda s: (
            s.recall,
            s.expected_ok,
            s.lead_ok is not False,
            -len(s.boilerplate),
            -s.extra_documents,
        ),
    )[:n]
