"""The regulatory research benchmark: analyst questions over the real documents of
../shared/data/realcorpus with passage-level gold evidence (benchmarks/research/questions.json,
format in benchmarks/research/README.md), answered by the research agent and scored the way an
analyst would.

    python benchmarks/bench_research.py [--encoder hashing|minilm] [--half dev|sealed|all]
                                        [--only ID ...] [--json out.json] [--show]

The realcorpus files (tests/agent_questions.py FILES) are ingested once into
benchmarks/out/research-<encoder> and reused (ingested again when the list of files changes).
Every question is a fresh conversation (multi-turn questions are asked turn by turn, each turn
carrying the earlier ones as the conversation service does); the last turn is scored. Prints one
row per question, the figures per question kind, and the overall figures beside their targets;
with `--half all` (the default) the figures of the dev and the sealed half side by side. `--show`
also prints each answer and the gold facts it missed. Tune on the dev half only: the sealed half
is run to report figures (benchmarks/research/README.md).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import OUT, table

import regnb
import regnb.ingest
from regnb.agent.agent import ExtractiveAgent
from regnb.agent.types import TurnResult
from regnb.corpus.shards import MANIFEST
from regnb.settings import Settings
from tests.research_benchmark import (
    FILES,
    HALVES,
    QUESTIONS_PATH,
    REAL,
    TARGETS,
    BenchQuestion,
    EngineReader,
    Records,
    Score,
    by_half,
    by_kind,
    conversation,
    load_questions,
    meets,
    score_answer,
    summarise,
    weakest,
)

LABELS = {
    "gold_recall": "gold-fact recall (mean per question)",
    "expected_cited": "expected documents cited (share of questions)",
    "boilerplate_cited": "boilerplate passages cited",
    "verified": "passages verified",
    "single_extra_max": "other documents, single-document questions (most)",
    "turn_p95_s": "seconds per turn, p95",
    "lead_ok": "answer leads with the honest no (share of questions with a lead)",
    "answer_words_p50": "words per answer, median",
}


def encoder_for(name: str) -> regnb.Encoder:
    return regnb.HashingEncoder() if name == "hashing" else regnb.MiniLMEncoder()


def corpus_for(name: str) -> Path:
    """The realcorpus files ingested with encoder `name` (once; written aside, then renamed; again
    when FILES is not the list the copy was ingested from)."""
    corpus = OUT / f"research-{name}"
    listed = corpus / "research-files.json"
    if (corpus / MANIFEST).exists() and (
        not listed.exists() or json.loads(listed.read_text()) != list(FILES)
    ):
        shutil.rmtree(corpus)  # ingested from another list of files
    if not (corpus / MANIFEST).exists():
        partial = OUT / f"research-{name}.partial"
        if partial.exists():
            shutil.rmtree(partial)
        started = time.perf_counter()
        regnb.ingest.jsonl(
            [REAL / f for f in FILES], corpus=partial, encoder=encoder_for(name), progress=True
        )
        (partial / "research-files.json").write_text(json.dumps(list(FILES)))
        partial.rename(corpus)
        print(f"ingested the real corpus ({name}) in {time.perf_counter() - started:.0f} s")
    return corpus


def run(
    agent: ExtractiveAgent, reader: EngineReader, records: Records, question: BenchQuestion
) -> tuple[Score, TurnResult]:
    """Ask the question's turns in one conversation, timing each; score the last."""
    seconds: list[float] = []
    turns = conversation(agent, question.turns)
    for _ in question.turns:
        start = time.perf_counter()
        result = next(turns)
        seconds.append(time.perf_counter() - start)
    titles = [records.titles(e) for e in question.expect]
    score = score_answer(question, result, reader, titles)
    score.seconds = seconds
    return score, result


def fmt(value: float, figure: str) -> str:
    if figure in ("gold_recall", "expected_cited", "verified", "lead_ok"):
        return f"{value:.2f}"
    if figure.endswith("_s"):
        return f"{value:.2f}"
    return f"{value:g}"


def print_report(scores: list[Score], encoder: str) -> None:
    rows = [
        (
            s.id,
            s.kind,
            s.half,
            f"{sum(s.facts)}/{len(s.facts)}",
            f"{s.expected_found}/{s.need}" + ("" if s.expected_ok else " !"),
            "" if s.status == "completed" else s.status,
            str(len(s.boilerplate)),
            str(s.documents),
            str(s.extra_documents) if s.single_document else "",
            f"{s.verified}/{s.passages}",
            {None: "", True: "ok", False: "MISS"}[s.lead_ok],
            str(s.words),
            " ".join(f"{t:.1f}" for t in s.seconds),
        )
        for s in scores
    ]
    header = (
        "question",
        "kind",
        "half",
        "facts",
        "expected",
        "status",
        "boiler",
        "docs",
        "extra",
        "verified",
        "lead",
        "words",
    )
    header += ("s per turn",)
    print(table(rows, header))
    print()
    kinds = by_kind(scores)
    print(
        table(
            [
                (
                    kind,
                    f"{f['questions']:g}",
                    f"{f['gold_recall']:.2f}",
                    f"{f['expected_cited']:.2f}",
                    f"{f['boilerplate_cited']:g}",
                    f"{f['documents_per_answer']:.1f}",
                    f"{f['turn_p50_s']:.2f}",
                )
                for kind, f in kinds.items()
            ],
            ("kind", "questions", "recall", "expected", "boiler", "docs/answer", "p50 s"),
        )
    )
    print()
    overall = summarise(scores)
    halves = by_half(scores)
    # the dev and the sealed half side by side when both were run (quote the sealed half's)
    columns = [("all", overall), *(halves.items() if len(halves) > 1 else [])]

    def row(
        label: str, show: Callable[[dict[str, float]], str], target: str = "", status: str = ""
    ):
        return (label, *(show(figures) for _, figures in columns), target, status)

    rows = []
    for figure, (op, target) in TARGETS.items():
        missed = [name for name, figures in columns if not meets(figure, figures[figure])]
        status = f"MISS ({', '.join(missed)})" if missed else "ok"
        rows.append(
            row(LABELS[figure], lambda f, x=figure: fmt(f[x], x), f"{op} {target:g}", status)
        )
    rows += [
        row("questions with a lead", lambda f: f"{f['lead_questions']:g}"),
        row("documents cited per answer", lambda f: f"{f['documents_per_answer']:.1f}"),
        row("other documents, single-document (mean)", lambda f: f"{f['single_extra_mean']:.1f}"),
        row("seconds per turn, p50", lambda f: f"{f['turn_p50_s']:.2f}"),
        row("facts found", lambda f: f"{f['facts_found']:g} of {f['facts']:g}"),
    ]
    names = [f"{name} ({figures['questions']:g})" for name, figures in columns]
    title = f"overall ({encoder}, {len(scores)} questions)"
    print(table(rows, (title, *(names if len(columns) > 1 else ["value"]), "target", "")))
    print()
    print("weakest answers:")
    for s in weakest(scores):
        print(f"  {s.id}: recall {s.recall:.2f}, expected {s.expected_found}/{s.need}, "
              f"boilerplate {len(s.boilerplate)}, other documents {s.extra_documents}")  # fmt: skip


def show(question: BenchQuestion, score: Score, result: TurnResult) -> None:
    print(f"=== {question.id} ({question.kind}): {' / '.join(question.turns)}")
    print(result.answer or f"[{result.status}]")
    missed = [fact[0] for fact, found in zip(question.gold, score.facts, strict=True) if not found]
    print(f"--- missed: {missed}  boilerplate cited: {score.boilerplate}")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoder", choices=["hashing", "minilm"], default="hashing")
    parser.add_argument(
        "--half",
        choices=[*HALVES, "all"],
        default="all",
        help="run one half's questions (dev: tune on these; sealed: report these) or all",
    )
    parser.add_argument("--only", nargs="+", metavar="ID", help="run these questions only")
    parser.add_argument(
        "--questions",
        type=Path,
        default=QUESTIONS_PATH,
        help="another question file in the same format (e.g. questions written since the split)",
    )
    parser.add_argument("--json", type=Path, help="write every score and figure here")
    parser.add_argument("--show", action="store_true", help="print each answer and its misses")
    args = parser.parse_args()
    if not REAL.exists():
        sys.exit(f"the real corpus is not at {REAL}")
    questions = load_questions(args.questions)
    if args.half != "all":
        questions = [q for q in questions if q.half == args.half]
    if args.only:
        unknown = set(args.only) - {q.id for q in questions}
        if unknown:
            sys.exit(f"no such questions: {sorted(unknown)}")
        questions = [q for q in questions if q.id in args.only]
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = corpus_for(args.encoder)
    records = Records()
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(**{**Settings.from_env().__dict__, "home": Path(home)})
        encoder = encoder_for(args.encoder)
        engine = regnb.Engine(corpus, encoder=encoder, settings=settings, progress=False)
        agent = ExtractiveAgent(engine, producer=lambda answer, formats: [])
        reader = EngineReader(engine)
        next(conversation(agent, ["What does FDA say about sterility assurance?"]))  # warm-up
        scores = []
        for question in questions:
            score, result = run(agent, reader, records, question)
            scores.append(score)
            if args.show:
                show(question, score, result)
        engine.close()
    print_report(scores, args.encoder)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "encoder": args.encoder,
                    "half": args.half,
                    "overall": summarise(scores),
                    "by_half": by_half(scores),
                    "by_kind": by_kind(scores),
                    "targets": {k: list(v) for k, v in TARGETS.items()},
                    "questions": [s.to_dict() for s in scores],
                },
                indent=1,
            )
        )
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
