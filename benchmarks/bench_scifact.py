"""Ranking quality on BEIR SciFact (train queries) through the public API: nDCG@10 and Recall@100
for bm25 ranking (one dataset, no query) and similarity ranking (the claim as `query`).

    python benchmarks/bench_scifact.py [--weights 0.3,0.5,0.7] [--queries N]

Each abstract is one document of one dataset, its title and text the page; each claim is sent as
keyword items = its distinct content words (one word per item, at most 20). The corpus is embedded
once with the real MiniLM model (about 10 minutes on 2 cores) and kept in benchmarks/out/.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import OUT, SHARED, table

import regnb
from regnb.corpus import shards
from regnb.settings import Settings
from regnb.text import STOP_WORDS

DATASET = "fda_guidance"
SCIFACT = SHARED / "scifact"


def load_corpus() -> list[dict]:
    with open(SCIFACT / "corpus.jsonl", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return [
        {
            "key": r["_id"],
            "title": r["title"] or r["_id"],
            "date": None,
            "url": None,
            "fields": {},
            "pages": [r["text"] or r["title"]],
        }
        for r in rows
    ]


def load_queries() -> tuple[dict[str, str], dict[str, set[str]]]:
    with open(SCIFACT / "queries.jsonl", encoding="utf-8") as f:
        queries = {q["_id"]: q["text"] for q in map(json.loads, f)}
    qrels: dict[str, set[str]] = {}
    with open(SCIFACT / "qrels" / "train.tsv", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            if int(row["score"]) > 0:
                qrels.setdefault(row["query-id"], set()).add(row["corpus-id"])
    return {k: v for k, v in queries.items() if k in qrels}, qrels


def keyword_items(claim: str) -> list[str]:
    """The claim's distinct content words, one per item, at most 20."""
    seen: list[str] = []
    for word in re.findall(r"[^\W_]+", claim.lower()):
        if word not in STOP_WORDS and word not in seen:
            seen.append(word)
    return seen[:20]


def ndcg_at_10(ranked: list[str], relevant: set[str]) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, d in enumerate(ranked[:10]) if d in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(10, len(relevant))))
    return dcg / ideal


def top_100(
    eng: regnb.Engine, items: list[str], query: str | None, key_of: dict[str, str]
) -> list[str]:
    out: list[str] = []
    offset: int | None = 0
    while offset is not None and len(out) < 100:
        res = eng.search(items, query, datasets=[DATASET], limit=50, offset=offset).to_dict()
        out += [key_of[r["document_id"]] for r in res["results"]]
        offset = res["next_offset"]
    return out[:100]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--weights", default="0.5", help="similarity weights of the cosine to try")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N queries")
    args = parser.parse_args()
    if not SCIFACT.exists():
        sys.exit(f"SciFact not found at {SCIFACT}")
    corpus = OUT / "scifact-corpus"
    if shards.Manifest.load(corpus) is None:
        start = time.perf_counter()
        regnb.write_corpus(corpus, {DATASET: load_corpus()})
        print(f"embedded SciFact in {time.perf_counter() - start:.0f} s")
    queries, qrels = load_queries()
    ids = sorted(queries, key=int)[: args.queries or None]

    base = Settings.from_env()
    rows = []
    engines = {}
    for weight in [float(w) for w in args.weights.split(",")]:
        settings = Settings(**{**base.__dict__, "similarity_weight": weight})
        engines[weight] = regnb.Engine(corpus, settings=settings, progress=False)
    any_engine = next(iter(engines.values()))
    key_of = _key_map(corpus)

    def evaluate(eng: regnb.Engine, with_query: bool) -> tuple[float, float, float]:
        ndcg, recall, ms = [], [], []
        for qid in ids:
            claim = queries[qid]
            start = time.perf_counter()
            ranked = top_100(eng, keyword_items(claim), claim if with_query else None, key_of)
            ms.append((time.perf_counter() - start) * 1000)
            ndcg.append(ndcg_at_10(ranked, qrels[qid]))
            recall.append(len(set(ranked) & qrels[qid]) / len(qrels[qid]))
        return sum(ndcg) / len(ndcg), sum(recall) / len(recall), sorted(ms)[len(ms) // 2]

    n, r, ms = evaluate(any_engine, with_query=False)
    rows.append(("bm25 ranking (one dataset, no query)", f"{n:.3f}", f"{r:.3f}", f"{ms:.0f}"))
    for weight, eng in engines.items():
        n, r, ms = evaluate(eng, with_query=True)
        rows.append(
            (f"similarity ranking, cosine weight {weight}", f"{n:.3f}", f"{r:.3f}", f"{ms:.0f}")
        )
    print(table(rows, ("SciFact train", "nDCG@10", "Recall@100", "p50 ms (2 calls)")))
    print(
        f"{len(ids)} queries, {sum(len(v) for v in qrels.values())} relevant pairs; "
        "targets: bm25 >= 0.68, similarity >= 0.73"
    )


def _key_map(corpus: Path) -> dict[str, str]:
    """document_id -> SciFact corpus id, from the shards."""
    manifest = shards.Manifest.load(corpus)
    out: dict[str, str] = {}
    for entry in manifest.shards:
        docs = shards.read_documents(corpus, entry)
        out.update(
            zip(docs.column("document_id").to_pylist(), docs.column("key").to_pylist(), strict=True)
        )
    return out


if __name__ == "__main__":
    main()
