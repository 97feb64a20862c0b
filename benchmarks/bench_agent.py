"""Seconds per research-agent turn (p50, p95) on the demo corpus (real MiniLM encoder) and on a
corpus of the real documents of ../shared/data/realcorpus (the five datasets of the agent's
quality test).

    python benchmarks/bench_agent.py [--repeat 1] [--real-encoder hashing|minilm] [--skip-real]
                                     [--load-searches 60] [--load-conversations 3]

Each question is one turn with no history, run after one warm-up turn (model load, imports).
The real corpus is ingested once into benchmarks/out/agent-realcorpus-<encoder> and reused; with
`--real-encoder hashing` (the default: MiniLM would embed its 13,500 pages for about 20 minutes on
2 cores) its passages are embedded by the hashing encoder, so only the demo figures include
MiniLM's cost of embedding passages. `one_turn(agent, message)` runs and times one turn, for other
benchmarks.

The last part measures v3 search latency (`Engine.search` on the demo corpus, query embeddings
cached) idle, then while N research conversations run through the conversation service (its
worker pool sized to N, so all N really run), side by side in the same process; the target is a
ratio within 2x.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from common import OUT, SHARED, percentiles, table, timed

import regnb
import regnb.ingest
from regnb.agent.agent import ExtractiveAgent, run_turn
from regnb.agent.types import TurnResult
from regnb.corpus.shards import MANIFEST
from regnb.settings import Settings

DEMO_QUESTIONS = [
    "Which sterile drug makers got warning letters for media fill failures since 2018?",
    "What did complete response letters say about nitrosamine impurities?",
    "Which devices had adverse events involving battery failures?",
    "What do 483 observations say about computer system controls?",
    "Which firms recalled infusion pumps and why?",
    "What does FDA guidance say about adaptive designs for clinical trials?",
    "Phase 3 trials in obesity",
    "Warning letters about data integrity at API manufacturers in the last 5 years",
    "What were the reasons for Class I recalls of BP monitors?",
    "Which inspections were classified OAI and what was found?",
    "What did the PDUFA VII commitment letter say about regulatory science?",
    "FAERS reports of drug dependence with oxycodone",
    "What pediatric assessments do approval letters require?",
    "510(k) clearances for infusion pumps",
    "Which PMA approvals were for drug-eluting coronary stents?",
    "cleaning validation failures between 2019 and 2023",
    "What did FDA find at Castlegate Life Sciences?",
    "Which outsourcing facilities were warned about sterility assurance? Put them in an Excel table.",
    "MAUDE reports for the KineticCore Plus MR System",
    "What contraindications do biologic package inserts list?",
]
REAL_QUESTIONS = [
    "Which sterile drug makers got warning letters for media fill failures?",
    "Why did FDA issue a complete response letter for SoluPrep?",
    "What did the 483 for FEI 3010166491 cite?",
    "What does FDA guidance say about cybersecurity in medical devices?",
    "What adverse events were reported for the LINQ II Insertable Cardiac Monitor?",
    "Which hand sanitizer manufacturers received warning letters?",
    "What observations did FDA make at ImClone Systems?",
    "What deficiencies did the complete response letter for Vyalev list?",
    "How should sponsors conduct clinical trials with decentralized elements?",
    "Which firms were warned about inadequate smoke studies and unidirectional airflow?",
    "What malfunctions were reported in MAUDE for the Lumify ultrasound system?",
    "Dietary supplement firms warned for not establishing product specifications",
    "Guidance on initiating voluntary recalls under 21 CFR Part 7",
    "Which 483s cited disinfecting agents that were not sterile in ISO 5 aseptic areas?",
    "What did FDA tell Amgen about Repatha in its complete response letter?",
]
WARM_UP = "What does FDA say about sterility assurance and aseptic processing?"
REAL_FILES = [
    "fda_warning_letters__jev.jsonl.gz",
    "fda_483__ncruickshank.jsonl.gz",
    "fda_483_observation_catalog__fy2019.jsonl.gz",
    "fda_crl__gmpkit.jsonl.gz",
    "fda_guidance__cowork-ra.jsonl.gz",
    "fda_guidance__qbdvision.jsonl.gz",
    "fda_maude__narratives.jsonl.gz",
]


def one_turn(agent: ExtractiveAgent, message: str) -> tuple[float, TurnResult]:
    """Seconds one turn takes (no history, no pause), and its result."""
    start = time.perf_counter()
    result = run_turn(agent, message)
    return time.perf_counter() - start, result


def demo_agent(home: Path) -> ExtractiveAgent:
    """The agent over the demo corpus, with the real MiniLM encoder for queries and passages."""
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    engine = regnb.Engine(settings=settings, progress=False)
    return ExtractiveAgent(engine, producer=lambda answer, formats: [])


def real_agent(home: Path, encoder_name: str) -> ExtractiveAgent:
    """The agent over the real documents (ingested once, then reused)."""
    encoder = regnb.HashingEncoder() if encoder_name == "hashing" else None
    corpus = OUT / f"agent-realcorpus-{encoder_name}"
    if not (corpus / MANIFEST).exists():
        started = time.perf_counter()
        regnb.ingest.jsonl(
            [SHARED / "realcorpus" / f for f in REAL_FILES],
            corpus=corpus,
            encoder=encoder,
            progress=False,
        )
        print(f"ingested the real corpus in {time.perf_counter() - started:.0f} s")
    settings = Settings(**{**Settings.from_env().__dict__, "home": home})
    engine = regnb.Engine(corpus, encoder=encoder, settings=settings, progress=False)
    return ExtractiveAgent(engine, producer=lambda answer, formats: [])


def measure(agent: ExtractiveAgent, questions: list[str], repeat: int) -> list[float]:
    """Seconds per turn; one warm-up turn first (a question of its own), not counted."""
    one_turn(agent, WARM_UP)
    seconds = []
    for _ in range(repeat):
        for question in questions:
            elapsed, result = one_turn(agent, question)
            seconds.append(elapsed)
            print(f"  {elapsed:6.2f} s  {result.status:<11} {question}")
    return seconds


LOAD_SEARCHES = [
    (["sterility"], "Which manufacturers were warned about sterility assurance failures?"),
    (["media fill"], "aseptic process simulation failures"),
    (["data integrity"], "audit trails disabled on laboratory systems"),
    (["recall", "contamination"], "microbial contamination recalls"),
    (["complete response"], "deficiencies in the application"),
    (["infusion pump"], "battery failures during infusion"),
]


def _searches(engine: regnb.Engine, n: int) -> list[float]:
    return [
        timed(lambda k=k, q=q: engine.search(k, q))
        for k, q in (LOAD_SEARCHES[i % len(LOAD_SEARCHES)] for i in range(n))
    ]


def search_under_load(home: Path, n: int, conversations: int) -> tuple[list[float], list[float]]:
    """Search milliseconds idle, then while `conversations` research runs go on (each one asks
    again as soon as it ends, so that they all run for the whole measurement)."""
    base = Settings.from_env().__dict__
    settings = Settings(**{**base, "home": home, "agent_workers": conversations})
    engine = regnb.Engine(settings=settings, progress=False)
    _searches(engine, len(LOAD_SEARCHES))  # warm: query embeddings cached, pages in memory
    engine.ask(WARM_UP).wait(progress=False)  # models loaded
    idle = _searches(engine, n)
    done = threading.Event()
    running: list[int] = []

    def keep_asking(slot: int) -> None:
        while not done.is_set():
            conv = engine.ask(DEMO_QUESTIONS[(slot * 7 + len(running)) % len(DEMO_QUESTIONS)])
            running.append(slot)
            conv.wait(progress=False)

    workers = [threading.Thread(target=keep_asking, args=(i,)) for i in range(conversations)]
    for worker in workers:
        worker.start()
    time.sleep(1.0)  # every run under way
    loaded = _searches(engine, n)
    live = int(engine.conversations(status="running").attrs["total"])
    done.set()
    for worker in workers:
        worker.join()
    engine.close()
    print(f"  {live} conversations were running at the end of the loaded searches")
    return idle, loaded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="rounds over the questions")
    parser.add_argument("--real-encoder", choices=["hashing", "minilm"], default="hashing")
    parser.add_argument("--skip-real", action="store_true", help="the demo corpus only")
    parser.add_argument("--load-searches", type=int, default=60, help="searches timed per side")
    parser.add_argument(
        "--load-conversations", type=int, default=3, help="conversations running meanwhile"
    )
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("REGNB_HOME", tmp)
        print("demo corpus (MiniLM):")
        demo = measure(demo_agent(Path(tmp) / "demo"), DEMO_QUESTIONS, args.repeat)
        p50, p95 = percentiles(demo)
        rows.append(("demo corpus, MiniLM", str(len(demo)), f"{p50:.2f}", f"{p95:.2f}"))
        if not args.skip_real and (SHARED / "realcorpus").exists():
            print(f"real corpus ({args.real_encoder}):")
            real = measure(
                real_agent(Path(tmp) / "real", args.real_encoder), REAL_QUESTIONS, args.repeat
            )
            p50, p95 = percentiles(real)
            label = f"real corpus, {args.real_encoder}"
            rows.append((label, str(len(real)), f"{p50:.2f}", f"{p95:.2f}"))
        print(f"v3 search, idle and while {args.load_conversations} conversations run:")
        idle, loaded = search_under_load(
            Path(tmp) / "load", args.load_searches, args.load_conversations
        )
    print()
    print(table(rows, ("corpus, encoder", "turns", "p50 s", "p95 s")))
    (i50, i95), (l50, l95) = percentiles(idle), percentiles(loaded)
    print()
    print(
        table(
            [
                ("idle", str(len(idle)), f"{i50:.1f}", f"{i95:.1f}"),
                (f"{args.load_conversations} conversations running", str(len(loaded)),
                 f"{l50:.1f}", f"{l95:.1f}"),
                ("ratio", "", f"{l50 / i50:.2f}x", f"{l95 / i95:.2f}x"),
            ],
            ("v3 search (demo corpus)", "searches", "p50 ms", "p95 ms"),
        )
    )  # fmt: skip


if __name__ == "__main__":
    main()
