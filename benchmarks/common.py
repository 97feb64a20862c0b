"""Shared helpers of the benchmark scripts: a fast encoder, timing, memory."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parent / "out"

# The analyst's phrases, proximity and phrase exclusions (bench_phrases.py, bench_peers.py)
PHRASES = [
    '"media fill"',
    '"data integrity"',
    '"out of specification"',
    '"aseptic processing"',
    '"environmental monitoring"',
    '"corrective and preventive action"',
    '"batch production records"',
    '"quality control unit"',
    '"media fill"~3',
    '"data integrity"~2',
    'sterility -"media fill"',
    'validation -"data integrity"',
]

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


class RandomEncoder:
    """Unit vectors seeded by the text: instant, deterministic, meaningless. For speed runs only."""

    name = "bench-random-384"
    dim = 384

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            out[i] = np.random.default_rng(zlib.crc32(t.encode())).standard_normal(self.dim)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def percentiles(values_ms: Sequence[float]) -> tuple[float, float]:
    """(p50, p95) of a list of milliseconds."""
    ordered = sorted(values_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def timed(fn: Callable[[], object]) -> float:
    """Milliseconds one call takes."""
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def run_child(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    """Run Python code in a child process (so that its peak memory is its own); its stdout."""
    import os

    proc = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    return proc.stdout


# A child process's peak memory in GB: its own high-water mark (VmHWM). `ru_maxrss` would do
# elsewhere, but on Linux a child's starts from its parent's size when it was forked.
PEAK_GB = (
    "import resource, re; from pathlib import Path; "
    "hwm = re.search(r'VmHWM:\\s+(\\d+)', Path('/proc/self/status').read_text()); "
    "peak_gb = (int(hwm.group(1)) if hwm else "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024**2"
)


def page_query(text: str, rng: random.Random, min_words: int = 11) -> tuple[list[str], str] | None:
    """From a page: 1 to 3 keyword items of 1 to 3 of its words, and 10 words of it as the
    query; None when the page has fewer than `min_words` indexable words."""
    from regnb import text as regnb_text

    words = [w for w in text.split() if w.isalpha() and len(w) > 3 and regnb_text.terms(w)]
    if len(words) < max(min_words, 11):
        return None
    items = []
    for _ in range(rng.randint(1, 3)):
        start = rng.randrange(len(words) - 3)
        items.append(" ".join(words[start : start + rng.randint(1, 3)]))
    start = rng.randrange(len(words) - 10)
    return items, " ".join(words[start : start + 10])


# DuckDB's full-text index over every page of a corpus (title + text), built in a child process:
# the reference the search benchmarks compare against. Prints seconds and peak memory as JSON.
BUILD_FTS = f"""
import json, sys, time
from pathlib import Path
import duckdb, pyarrow as pa
from regnb import text
from regnb.corpus import shards
corpus, db = Path(sys.argv[1]), sys.argv[2]
manifest = shards.Manifest.load(corpus)
start = time.perf_counter()
con = duckdb.connect(db)
con.execute("SET enable_progress_bar = false")
con.execute(f"LOAD '{{text._fts_extension()}}'")
con.execute("CREATE TABLE pages_fts (page_id INTEGER, ds VARCHAR, body VARCHAR)")
next_id = 0
for entry in manifest.shards:
    docs = shards.read_documents(corpus, entry)
    pages = shards.read_pages(corpus, entry, manifest.dim, docs)
    titles = dict(zip(docs.column("document_id").to_pylist(), docs.column("title").to_pylist()))
    body = [titles[d] + " " + t for d, t in zip(pages.column("document_id").to_pylist(),
                                               pages.column("text").to_pylist())]
    part = pa.table({{"page_id": list(range(next_id, next_id + len(body))),
                      "ds": [entry.dataset] * len(body), "body": body}})
    next_id += len(body)
    con.register("part", part)
    con.execute("INSERT INTO pages_fts SELECT * FROM part")
    con.unregister("part")
con.execute("PRAGMA create_fts_index('pages_fts', 'page_id', 'body', stemmer='english', "
            "stopwords='english', ignore='(\\\\.|[^a-z0-9])+', strip_accents=1, lower=1)")
con.execute("CHECKPOINT")
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb}}))
"""

FTS_QUERY = """
SELECT ds, page_id, score FROM (
  SELECT ds, page_id, fts_main_pages_fts.match_bm25(page_id, ?) AS score FROM pages_fts
) WHERE score IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY ds ORDER BY score DESC) <= 500
"""


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    """A plain text table."""
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True))  # noqa: E731
    return "\n".join([line(header), line(tuple("-" * w for w in widths)), *map(line, rows)])
