"""The index at scale: build speed and memory, size, incremental add, merge, v3 search latency and
the serving process's memory, on a corpus of N pages recombined from the real page texts of
`../shared/data/realcorpus`, with DuckDB's `fts` (`match_bm25`) over the same pages as the
reference in the same run.

    python benchmarks/bench_scale.py --pages 200000 [--queries 60] [--no-fts] [--previous ../main]
    python benchmarks/bench_scale.py --pages 10000000 --search-only [--previous ../main]

The add writes `--add` documents to fda_warning_letters (a tenth of them replacing documents of
its first shard, so that the merge rewrites a segment). Pages are halves of two real pages joined (seeded), grouped into documents of 1 to 8 pages and
written as shards directly (4,000 pages each); embeddings come from a pool of random unit vectors
picked by a hash of the text, so that embedding is not what is measured. Every measurement runs
in a child process of its own, so that its peak memory is its own. `--previous DIR` also builds
and searches with the checkout in DIR (the previous index), over the same corpus and queries.
`--search-only` searches the index an earlier run left as it is, twice with this checkout and
twice with `--previous DIR`'s, alternating (a checkout reads an index the other wrote).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pyarrow as pa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import BUILD_FTS, OUT, PEAK_GB, SHARED, page_query, table

REPO = Path(__file__).resolve().parents[1]
SHARD_PAGES = 4_000
ENCODER = "bench-pool-384"
DIM = 384


class PoolEncoder:
    """Unit vectors from a fixed pool of 4,096, picked by a CRC of the text: instant and
    deterministic, meaningless. For speed runs only."""

    name = ENCODER
    dim = DIM
    _pool: np.ndarray | None = None

    def encode(self, texts: list[str]) -> np.ndarray:
        if PoolEncoder._pool is None:
            rng = np.random.default_rng(0)
            pool = rng.standard_normal((4096, DIM)).astype(np.float32)
            PoolEncoder._pool = pool / np.linalg.norm(pool, axis=1, keepdims=True)
        picks = [zlib.crc32(t.encode()) % 4096 for t in texts]
        return PoolEncoder._pool[picks]


def real_pages() -> dict[str, tuple[list[str], list[str]]]:
    """Real page texts and titles per US dataset (other sources pooled into fda_guidance)."""
    from regnb.catalog import load_catalog

    catalog = load_catalog(None)
    out: dict[str, tuple[list[str], list[str]]] = {}
    for path in sorted((SHARED / "realcorpus").glob("*.jsonl.gz")):
        prefix = path.name.split("__")[0]
        dataset = prefix if prefix in catalog and catalog[prefix].available else "fda_guidance"
        pages, titles = out.setdefault(dataset, ([], []))
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                doc = json.loads(line)
                titles.append(doc.get("title") or "untitled")
                pages += [p for p in doc["pages"] if p.strip()]
    return out


def make_corpus(path: Path, n_pages: int, seed: int = 1) -> int:
    """Write a corpus of about `n_pages` recombined pages (reused when already there)."""
    from regnb.corpus import shards
    from regnb.corpus.write import document_id

    manifest = shards.Manifest.load(path)
    if manifest is not None:
        return sum(s.pages_count for s in manifest.shards)
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    rng = random.Random(seed)
    pool = real_pages()
    weights = {ds: len(p) for ds, (p, _) in pool.items()}
    total = sum(weights.values())
    manifest = shards.Manifest.new(ENCODER, DIM)
    encoder = PoolEncoder()
    written = 0
    for ds, (pages, titles) in pool.items():
        want = max(1, round(n_pages * weights[ds] / total))
        made = 0
        while made < want:
            docs, texts, doc_of, nums = [], [], [], []
            while len(texts) < SHARD_PAGES and made < want:
                count = min(rng.randint(1, 8), want - made)
                key = f"{ds}-{len(docs)}-{written + made}"
                doc_id = document_id(manifest.salt, ds, key)
                for num in range(1, count + 1):
                    a, b = rng.choice(pages), rng.choice(pages)
                    texts.append(a[: len(a) // 2] + " " + b[len(b) // 2 :])
                    doc_of.append(doc_id)
                    nums.append(num)
                year = rng.randint(2000, 2025)
                docs.append(
                    {
                        "document_id": doc_id,
                        "key": key,
                        "title": rng.choice(titles),
                        "date": f"{year}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
                        "url": None,
                        "fields": json.dumps({"company": rng.choice(titles)[:40]}),
                        "page_count": count,
                        "content_hash": f"{seed}:{key}",
                    }
                )
                made += count
            documents = pa.Table.from_pylist(docs).cast(shards.DOCUMENT_SCHEMA)
            flat = pa.array(encoder.encode(texts).astype(np.float16).ravel(), pa.float16())
            page_table = pa.table(
                {
                    "document_id": doc_of,
                    "page_num": pa.array(nums, pa.int32()),
                    "text": texts,
                    "embedding": pa.FixedSizeListArray.from_arrays(flat, DIM),
                }
            )
            manifest.shards.append(shards.write_shard(path, ds, documents, page_table))
        written += made
    shards.write_manifest(path, manifest)
    return written


def make_queries(n: int, seed: int = 7) -> list[tuple[list[str], str]]:
    """Keyword items of 1 to 3 words from random real pages, and a sentence as the query."""
    rng = random.Random(seed)
    pool = [p for pages, _ in real_pages().values() for p in pages]
    out: list[tuple[list[str], str]] = []
    while len(out) < n:
        query = page_query(rng.choice(pool), rng, min_words=12)
        if query is not None:
            out.append(query)
    return out


def child(code: str, *args: str, pythonpath: Path = REPO) -> dict:
    """Run code in a child process with `pythonpath` first; the JSON of its last line."""
    env = {**os.environ, "PYTHONPATH": f"{pythonpath}:{REPO / 'benchmarks'}", "REGNB_PROGRESS": "0"}
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=OUT
    )
    if proc.returncode:
        raise RuntimeError(f"child failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


BUILD = f"""
import json, sys, time
from pathlib import Path
from regnb import catalog, index
from regnb.corpus import shards
corpus, home = Path(sys.argv[1]), Path(sys.argv[2])
start = time.perf_counter()
index.ensure_index(corpus, catalog.load_catalog(corpus), home / "index", progress=False)
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb}}))
"""

ADD = f"""
import json, sys, time
from pathlib import Path
import regnb
from bench_scale import PoolEncoder, real_pages
from regnb import catalog, index
from regnb.corpus import shards
corpus, home, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
import random
rng = random.Random(99)
pool = real_pages()["fda_warning_letters"]
manifest = shards.Manifest.load(corpus)
first = next(s for s in manifest.shards if s.dataset == "fda_warning_letters")
old_keys = shards.read_keys(corpus, first)[0][: n // 10]  # a tenth replace documents
docs = []
for i in range(n):
    pages = [rng.choice(pool[0]) for _ in range(rng.randint(1, 8))]
    docs.append({{"title": rng.choice(pool[1]), "date": "2025-01-0" + str(1 + i % 9), "url": None,
                 "fields": {{"company": "Bench Co {{}}".format(i)}}, "pages": pages,
                 "key": old_keys[i] if i < len(old_keys) else "added-" + str(i)}})
start = time.perf_counter()
regnb.write_corpus(corpus, {{"fda_warning_letters": docs}}, encoder=PoolEncoder(), progress=False)
written = time.perf_counter() - start
start = time.perf_counter()
index.ensure_index(corpus, catalog.load_catalog(corpus), home / "index", progress=False)
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"write_s": written, "index_s": seconds, "peak_gb": peak_gb}}))
"""

MERGE = f"""
import json, sys, time
from pathlib import Path
from regnb import catalog, index
corpus, home = Path(sys.argv[1]), Path(sys.argv[2])
start = time.perf_counter()
files = index.merge_index(corpus, catalog.load_catalog(corpus), home / "index", progress=False)
seconds = time.perf_counter() - start
state = index.IndexState.load(files.folder)
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb, "segments": len(state.segments)}}))
"""

SERVE = """
import hashlib, json, sys, time
from pathlib import Path
import regnb
from bench_scale import PoolEncoder
from common import percentiles, timed
from regnb.settings import Settings
corpus, home, queries = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
settings = Settings(**{**Settings.from_env().__dict__, "home": home})
eng = regnb.Engine(corpus, encoder=PoolEncoder(), settings=settings, progress=False)
for items, q in queries:  # warm-up: one full pass
    eng.search(items, q)
ms = [timed(lambda items=items, q=q: eng.search(items, q)) for items, q in queries]
one = [timed(lambda items=items: eng.search(items, datasets=["fda_guidance"])) for items, _ in queries]
status = dict(l.split(":", 1) for l in Path("/proc/self/status").read_text().splitlines() if ":" in l)
kb = lambda k: int(status.get(k, "0 kB").split()[0])
totals = [eng.search(items, q).total for items, q in queries]
def answer(res):  # the whole response but its timings, as a digest
    body = {k: v for k, v in res.to_dict().items() if k != "timings"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
answers = [answer(eng.search(items, q)) for items, q in queries]
answers += [answer(eng.search(items, datasets=["fda_guidance"])) for items, _ in queries]
print(json.dumps({"p": percentiles(ms), "one": percentiles(one), "rss_gb": kb("VmRSS") / 1024**2,
                  "anon_gb": kb("RssAnon") / 1024**2, "file_gb": kb("RssFile") / 1024**2,
                  "totals": totals, "answers": answers}))
"""

PREVIOUS_BUILD = f"""
import json, sys, time
from pathlib import Path
from regnb import catalog, index
from regnb.corpus import shards
corpus, home = Path(sys.argv[1]), Path(sys.argv[2])
start = time.perf_counter()
files = index.ensure_index(corpus, catalog.load_catalog(corpus), home / "index", progress=False)
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb}}))
"""

FTS_SEARCH = """
import json, sys
import duckdb
from common import FTS_QUERY as SQL, percentiles, timed
from regnb import text
db, queries = sys.argv[1], json.loads(sys.argv[2])
con = duckdb.connect(db, read_only=True)
con.execute(f"LOAD '{text._fts_extension()}'")
for items, _ in queries:
    con.execute(SQL, [" ".join(items)]).fetchall()
ms = [timed(lambda items=items: con.execute(SQL, [" ".join(items)]).fetchall()) for items, _ in queries]
print(json.dumps({"p": percentiles(ms)}))
"""


def folder_bytes(path: Path, skip: str = "") -> int:
    return sum(
        p.stat().st_size for p in path.rglob("*") if p.is_file() and (not skip or p.name != skip)
    )


def raw_text_bytes(corpus: Path) -> int:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    total = 0
    for path in corpus.glob("*/pages-*.parquet"):
        texts = pq.read_table(path, columns=["text"]).column("text")
        total += int(pc.sum(pc.binary_length(texts)).as_py() or 0)
    return total


def search_only(corpus: Path, home: Path, qjson: str, previous: Path | None) -> None:
    """The queries over the index in `home` as it is, by this checkout and, where given, the
    previous one (which reads the same index), alternating, twice each."""
    if not (home / "index").is_dir():
        raise SystemExit(f"no index in {home}: run without --search-only first")
    ways = [("this checkout", REPO)] + ([("previous", previous)] if previous else [])
    lines, answers = [], {}
    for round_ in (1, 2):
        for name, path in ways:
            served = child(SERVE, str(corpus), str(home), qjson, pythonpath=path)
            answers[path] = served["answers"]
            print(
                name,
                round_,
                {k: v for k, v in served.items() if k not in ("totals", "answers")},
                flush=True,
            )
            lines.append(
                (
                    f"{name}, run {round_}",
                    f"{served['p'][0]:.1f} / {served['p'][1]:.1f}",
                    f"{served['one'][0]:.1f} / {served['one'][1]:.1f}",
                    f"{served['rss_gb']:.2f} ({served['anon_gb']:.2f} anon)",
                )
            )
    print(table(lines, ("", "v3 p50/p95 ms", "1 dataset bm25 p50/p95", "serving RSS GB")))
    if previous:
        same = sum(a == b for a, b in zip(answers[REPO], answers[previous], strict=True))
        print(
            f"\nsame responses (documents, pages, scores, statuses) from both: {same} of {len(answers[REPO])}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--add", type=int, default=1_000, help="documents added incrementally")
    parser.add_argument("--no-fts", action="store_true", help="skip DuckDB fts, the reference")
    parser.add_argument(
        "--previous", type=Path, default=None, help="checkout of the previous index"
    )
    parser.add_argument(
        "--build-only", action="store_true", help="stop after the build (keep it for --reuse-build)"
    )
    parser.add_argument(
        "--search-only",
        action="store_true",
        help="only search the index an earlier run left, with this checkout and --previous DIR's",
    )
    parser.add_argument(
        "--reuse-build",
        action="store_true",
        help="measure over the index a --build-only run left (its build figures as they were)",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    OUT.mkdir(parents=True, exist_ok=True)
    pristine = OUT / f"scale-{args.pages}"
    t0 = time.perf_counter()
    n_pages = make_corpus(pristine, args.pages)
    corpus = OUT / f"scale-{args.pages}-work"  # the incremental add changes it
    home = OUT / f"home-{args.pages}"
    record = OUT / f"build-{args.pages}.json"  # a --build-only run's figures, until the add
    reuse = args.reuse_build and record.exists()
    if args.reuse_build and not reuse:
        raise SystemExit(f"no build to reuse ({record}): run with --build-only first")
    if args.search_only:  # the corpus and index as an earlier run left them
        search_only(corpus, home, json.dumps(make_queries(args.queries)), args.previous)
        return
    if not reuse:
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.copytree(pristine, corpus, copy_function=os.link)  # shards are never rewritten
    print(f"corpus: {n_pages} pages in {corpus} ({time.perf_counter() - t0:.0f} s)", flush=True)
    queries = make_queries(args.queries)
    qjson = json.dumps(queries)
    rows = []

    if args.previous is not None:
        before = OUT / f"home-previous-{args.pages}"
        shutil.rmtree(before, ignore_errors=True)
        built = child(PREVIOUS_BUILD, str(corpus), str(before), pythonpath=args.previous)
        served = child(SERVE, str(corpus), str(before), qjson, pythonpath=args.previous)
        size = folder_bytes(before / "index", "embeddings.npy")
        rows.append(("previous (--previous DIR)", built, None, None, served, size))
        print(
            "previous:",
            built,
            {k: v for k, v in served.items() if k not in ("totals", "answers")},
            flush=True,
        )
        shutil.rmtree(before, ignore_errors=True)

    if reuse:
        built = json.loads(record.read_text())
        print("build (reused):", built, flush=True)
    else:
        record.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
        built = child(BUILD, str(corpus), str(home))
        record.write_text(json.dumps(built))
        print("build:", built, flush=True)
        if args.build_only:
            return
    size = folder_bytes(home / "index", "embeddings.npy")
    embeddings = sum(p.stat().st_size for p in (home / "index").rglob("embeddings.npy"))
    raw = raw_text_bytes(corpus)
    served = child(SERVE, str(corpus), str(home), qjson)
    print(
        "search:", {k: v for k, v in served.items() if k not in ("totals", "answers")}, flush=True
    )
    record.unlink(missing_ok=True)  # the add changes the corpus and the index
    added = child(ADD, str(corpus), str(home), str(args.add))
    print("add:", added, flush=True)
    merged = child(MERGE, str(corpus), str(home))
    print("merge:", merged, flush=True)
    rows.append(("this checkout", built, added, merged, served, size))

    fts = None
    if not args.no_fts:
        db = OUT / f"fts-{args.pages}.duckdb"
        db.unlink(missing_ok=True)
        fts_built = child(BUILD_FTS, str(corpus), str(db))
        fts = {**child(FTS_SEARCH, str(db), qjson), **fts_built}
        print("fts:", fts, flush=True)
        db.unlink(missing_ok=True)

    print()
    lines = []
    for name, b, a, m, s, nbytes in rows:
        lines.append(
            (
                name,
                f"{n_pages / b['seconds']:,.0f}",
                f"{b['peak_gb']:.2f}",
                f"{m['peak_gb']:.2f}" if m else "",
                f"{nbytes / raw:.2f} / {(nbytes + embeddings) / raw:.2f}",
                f"{a['index_s']:.1f}" if a else "full rebuild",
                f"{s['p'][0]:.1f} / {s['p'][1]:.1f}",
                f"{s['one'][0]:.1f} / {s['one'][1]:.1f}",
                f"{s['rss_gb']:.2f} ({s['anon_gb']:.2f} anon)",
            )
        )
    if fts:
        lines.append(
            (
                "DuckDB fts match_bm25 (reference)",
                f"{n_pages / fts['seconds']:,.0f}",
                f"{fts['peak_gb']:.2f}",
                "",
                "",
                "",
                f"{fts['p'][0]:.1f} / {fts['p'][1]:.1f}",
                "",
                "",
            )
        )
    header = (
        "",
        "build pages/s",
        "build peak GB",
        "merge peak GB",
        "index/raw (+emb)",
        f"add {args.add} docs s",
        "v3 p50/p95 ms",
        "1 dataset bm25 p50/p95",
        "serving RSS GB",
    )
    print(table(lines, header))
    if len(rows) == 2:  # the previous checkout's responses against this one's
        same = sum(a == b for a, b in zip(rows[0][4]["answers"], served["answers"], strict=True))
        print(
            f"\nsame responses (documents, pages, scores, statuses): {same} of {len(served['answers'])}"
        )
    print(
        f"\n{n_pages:,} pages, raw text {raw / 1e9:.2f} GB, {len(queries)} queries, "
        f"segments after merge {merged['segments']}; add: write_corpus {added['write_s']:.1f} s "
        f"(embedding with the pool encoder) + index {added['index_s']:.1f} s"
    )


if __name__ == "__main__":
    main()
