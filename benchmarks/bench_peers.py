"""regnb beside its peers on the same pages and queries: tantivy (and `bm25s` and DuckDB's
`fts` where they fit), over the recombined real pages of `bench_scale.make_corpus`, with
`bench_scale.make_queries`'s keyword items.

    python benchmarks/bench_peers.py --pages 200000 [--queries 60] [--rounds 2]
        [--phrase-rounds 5] [--no-bm25s] [--no-fts] [--reuse]

Each engine builds its index in a child process of its own (build pages/s, the child's peak
memory, index size ÷ raw text), over `title + ' ' + text` of every page. The searches then run
in one warm process, the engines alternating query by query (their order turning each query),
after a warm-up pass of every query on every engine:

- regnb v3: `Engine.search(items, query)` over every available dataset (15): each dataset's
  500 best pages and its count, the budget shared, ranked, documents grouped and shown.
- tantivy, the per-dataset equivalent: 15 searches, each the items (`(+a +b) (+c)`) filtered
  by one dataset, top 500 with the count (hits only: no stored text read).
- one dataset, BM25: `Engine.search(items, datasets=["fda_guidance"])` beside one filtered
  tantivy top-500 with the count (and the same with the stored texts of its 60 best hits
  read, as many page texts as a regnb response shows), `bm25s` (every page scored, the dataset's 500 best and the
  pages with a score counted) and DuckDB `fts` (`match_bm25`, 500 best of the dataset).
- DuckDB `fts` per dataset: `common.FTS_QUERY` (each dataset's 500 best in one statement).

Phrases (`common.PHRASES`: the analyst's phrases, proximity and phrase exclusions), the same way
after the keyword queries, regnb and tantivy alternating: regnb's v3 search over every dataset
and its one-dataset BM25 search of the item, beside tantivy's own phrase queries (`"media
fill"~3`, `+sterility -"media fill"` through `parse_query`, over its positions) as 15 filtered
top-500 searches with counts, as one filtered top-500, and as one top-500 over every page. The
two do not mean quite the same by a phrase: regnb matches the words as written and drops stop
words (`"out of specification"` is the word `specification`), tantivy matches stems and keeps
every word; the pages each matches are printed beside the times.

Agreement: of regnb's first 20 documents of a one-dataset BM25 search, how many are among the
first 20 distinct documents of tantivy's hits (and the same for bm25s). The engines differ in
what they call a match (regnb: every word of an item; bm25s and DuckDB: any word), in BM25's
constants (tantivy: k1 1.2, b 0.75; the others 0.9 / 0.4 as regnb), stemming (regnb and DuckDB
Snowball English with stop words dropped; tantivy `en_stem`, no stop list; bm25s, without
PyStemmer, no stemmer) and in how they tokenise, so agreement below 1 is expected.
The load average is printed with every figure: the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import re
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scale import BUILD, child, folder_bytes, make_corpus, make_queries, raw_text_bytes
from common import BUILD_FTS, OUT, PEAK_GB, PHRASES, SHARED, table

ONE_DATASET = "fda_guidance"
TOP = 500  # each dataset's best pages, as regnb's budget
AGREE = 20  # documents compared
SHOWN = 60  # page texts a regnb response shows (20 documents, up to 3 pages each)


def load() -> str:
    """The 1, 5 and 15 minute load averages, as printed beside each figure."""
    return "load {:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg())


def corpus_pages(corpus: Path) -> Iterator[tuple[str, list[str], list[int], list[str]]]:
    """Each shard's pages: its dataset, each page's document id, page number and
    `title + ' ' + text` (what regnb indexes)."""
    import pyarrow.parquet as pq

    from regnb.corpus import shards

    manifest = shards.Manifest.load(corpus)
    assert manifest is not None, f"no corpus in {corpus}"
    for entry in manifest.shards:
        docs = pq.read_table(corpus / entry.documents, columns=["document_id", "title"])
        titles = dict(
            zip(
                docs.column("document_id").to_pylist(),
                docs.column("title").to_pylist(),
                strict=True,
            )
        )
        pages = pq.read_table(corpus / entry.pages, columns=["document_id", "page_num", "text"])
        ids = pages.column("document_id").to_pylist()
        bodies = [
            f"{titles[d]} {t}" for d, t in zip(ids, pages.column("text").to_pylist(), strict=True)
        ]
        yield entry.dataset, ids, pages.column("page_num").to_pylist(), bodies


def build_tantivy(corpus: Path, folder: Path) -> None:
    """A tantivy index of the pages: `body` (en_stem, positions, stored: a response shows page
    texts), `dataset` (raw, indexed and fast: the filter), `doc` and `page` (stored)."""
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", stored=True, tokenizer_name="en_stem", index_option="position")
    builder.add_text_field("dataset", fast=True, tokenizer_name="raw", index_option="basic")
    builder.add_text_field("doc", stored=True, tokenizer_name="raw", index_option="basic")
    builder.add_unsigned_field("page", stored=True)
    folder.mkdir(parents=True)
    index = tantivy.Index(builder.build(), path=str(folder))
    writer = index.writer(heap_size=512 * 2**20, num_threads=2)
    for dataset, ids, nums, bodies in corpus_pages(corpus):
        for doc, num, body in zip(ids, nums, bodies, strict=True):
            writer.add_document(tantivy.Document(body=body, dataset=dataset, doc=doc, page=num))
    writer.commit()
    writer.wait_merging_threads()


def build_bm25s(corpus: Path, folder: Path) -> None:
    """A bm25s index of the pages (k1 0.9, b 0.4 as regnb; English stop words, no stemmer),
    with each page's dataset and document beside it."""
    import bm25s
    import numpy as np

    datasets, docs, bodies = [], [], []
    for dataset, ids, _, texts in corpus_pages(corpus):
        datasets += [dataset] * len(ids)
        docs += ids
        bodies += texts
    tokens = bm25s.tokenize(bodies, stopwords="en", show_progress=False)
    del bodies
    model = bm25s.BM25(k1=0.9, b=0.4)
    model.index(tokens, show_progress=False)
    model.save(str(folder))
    names = sorted(set(datasets))
    codes = np.array([names.index(d) for d in datasets], np.int16)
    np.save(folder / "datasets.npy", codes)
    (folder / "pages.json").write_text(json.dumps({"datasets": names, "docs": docs}))


BUILD_PEER = f"""
import json, sys, time
from pathlib import Path
import bench_peers
kind, corpus, folder = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
start = time.perf_counter()
getattr(bench_peers, "build_" + kind)(corpus, folder)
seconds = time.perf_counter() - start
{PEAK_GB}
print(json.dumps({{"seconds": seconds, "peak_gb": peak_gb}}))
"""


SEARCH = """
import json, sys
from pathlib import Path
import bench_peers
out = bench_peers.search_all(Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3]),
                             int(sys.argv[4]), json.loads(sys.argv[5]), int(sys.argv[6]))
print(json.dumps(out))
"""


def tantivy_syntax(item: str) -> str:
    """A regnb item of words, quoted phrases (`"a b"~2`) and exclusions (`-"a b"`) in tantivy's
    query language: every word and phrase required, exclusions as they are."""
    parts = re.findall(r'-?"[^"]*"(?:~\d+)?|\S+', item)
    return " ".join(p if p.startswith("-") else f"+{p}" for p in parts)


class Peers:
    """The engines of one search process, each as `name -> (items, query) -> documents`."""

    def __init__(self, corpus: Path, out: Path, home: Path) -> None:
        from bench_scale import PoolEncoder

        import regnb
        from regnb.settings import Settings

        settings = Settings(**{**Settings.from_env().__dict__, "home": home})
        self.eng = regnb.Engine(corpus, encoder=PoolEncoder(), settings=settings, progress=False)
        self.datasets = [d.id for d in self.eng.catalog if d.available]
        self.ways: dict[str, Callable[[list[str], str], object]] = {
            "regnb v3 (15 datasets)": lambda items, q: self.eng.search(items, q),
            "regnb 1 dataset bm25": lambda items, q: self.eng.search(items, datasets=[ONE_DATASET]),
        }
        if (out / "tantivy").is_dir():
            import tantivy

            self.tantivy = tantivy.Index.open(str(out / "tantivy"))
            self.tantivy.reload()
            self.searcher = self.tantivy.searcher()
            self.ways["tantivy 15 filtered top-500"] = lambda items, q: [
                self.tantivy_top(items, ds) for ds in self.datasets
            ]
            self.ways["tantivy 1 dataset top-500"] = lambda items, q: self.tantivy_top(
                items, ONE_DATASET
            )
            self.ways["tantivy 1 dataset top-500 + 60 texts"] = lambda items, q: [
                self.searcher.doc(addr)["body"]
                for _, addr in self.tantivy_top(items, ONE_DATASET).hits[:SHOWN]
            ]
        self.phrase_ways: dict[str, Callable[[str], object]] = {
            "regnb phrase v3 (15 datasets)": lambda item: self.eng.search([item]),
            "regnb phrase 1 dataset bm25": lambda item: self.eng.search(
                [item], datasets=[ONE_DATASET]
            ),
        }
        if hasattr(self, "tantivy"):
            self.phrase_ways["tantivy phrase 15 filtered top-500"] = lambda item: [
                self.tantivy_phrase(item, ds) for ds in self.datasets
            ]
            self.phrase_ways["tantivy phrase 1 dataset top-500"] = lambda item: self.tantivy_phrase(
                item, ONE_DATASET
            )
            self.phrase_ways["tantivy phrase top-500 (every page)"] = lambda item: (
                self.tantivy_phrase(item, None)
            )
        if (out / "bm25s").is_dir():
            import bm25s
            import numpy as np

            self.bm25s = bm25s.BM25.load(str(out / "bm25s"))
            pages = json.loads((out / "bm25s" / "pages.json").read_text())
            self.bm25s_docs = pages["docs"]
            codes = np.load(out / "bm25s" / "datasets.npy")
            names = pages["datasets"]
            self.bm25s_mask = codes == (names.index(ONE_DATASET) if ONE_DATASET in names else -1)
            self.ways["bm25s 1 dataset top-500"] = lambda items, q: self.bm25s_top(items)
        if (out / "fts.duckdb").is_file():
            import duckdb
            from common import FTS_QUERY

            from regnb import text

            self.con = duckdb.connect(str(out / "fts.duckdb"), read_only=True)
            self.con.execute(f"LOAD '{text._fts_extension()}'")
            one = FTS_QUERY.replace("FROM pages_fts", "FROM pages_fts WHERE ds = ?")
            self.ways["DuckDB fts per dataset top-500"] = lambda items, q: self.con.execute(
                FTS_QUERY, [" ".join(items)]
            ).fetchall()
            self.ways["DuckDB fts 1 dataset top-500"] = lambda items, q: self.con.execute(
                one, [" ".join(items), ONE_DATASET]
            ).fetchall()

    def tantivy_top(self, items: list[str], dataset: str) -> object:
        """One dataset's 500 best pages with the count: the items (every word of one) filtered
        by the dataset."""
        words = " ".join("(" + " ".join(f"+{w}" for w in item.split()) + ")" for item in items)
        return self.tantivy_search(words, dataset)

    def tantivy_phrase(self, item: str, dataset: str | None) -> object:
        """An item with phrases as tantivy's own query (its phrase queries over its positions):
        the 500 best pages with the count, of one dataset or (None) of every page."""
        return self.tantivy_search(tantivy_syntax(item), dataset)

    def tantivy_search(self, text: str, dataset: str | None) -> object:
        """The 500 best pages of a query in tantivy's language, with the count, filtered by a
        dataset unless it is None."""
        import tantivy

        query = self.tantivy.parse_query(text, ["body"])
        if dataset is not None:
            query = tantivy.Query.boolean_query(
                [
                    (tantivy.Occur.Must, query),
                    (
                        tantivy.Occur.Must,
                        tantivy.Query.const_score_query(
                            tantivy.Query.term_query(self.tantivy.schema, "dataset", dataset),
                            0.0,
                        ),
                    ),
                ]
            )
        return self.searcher.search(query, limit=TOP, count=True)

    def bm25s_top(self, items: list[str]) -> tuple[object, int]:
        """Every page scored, the dataset's 500 best, and its pages with a score counted."""
        import bm25s
        import numpy as np

        words = bm25s.tokenize(" ".join(items), stopwords="en", return_ids=False)[0]
        scores = np.where(self.bm25s_mask, self.bm25s.get_scores(words), 0.0)
        top = np.argpartition(-scores, TOP)[:TOP]
        return top[np.argsort(-scores[top], kind="stable")], int(np.count_nonzero(scores))

    def documents(self, name: str, items: list[str]) -> list[str]:
        """The first 20 distinct documents of a one-dataset search's answer."""
        if name == "regnb":
            res = self.eng.search(items, datasets=[ONE_DATASET])
            return [r["document_id"] for r in res.results][:AGREE]
        if name == "tantivy":
            hits = self.tantivy_top(items, ONE_DATASET).hits  # type: ignore[attr-defined]
            ids = [self.searcher.doc(addr)["doc"][0] for _, addr in hits]
        else:
            ranked, _ = self.bm25s_top(items)
            ids = [self.bm25s_docs[i] for i in ranked.tolist()]
        return list(dict.fromkeys(ids))[:AGREE]


def search_all(
    corpus: Path,
    out: Path,
    queries: list,
    rounds: int,
    phrases: list[str] | None = None,
    phrase_rounds: int = 0,
) -> dict:
    """Every engine over every query: a warm-up pass, then `rounds` rounds alternating the
    engines query by query; milliseconds per engine, and the agreement with tantivy. Then the
    same for `phrases` (`phrase_rounds` rounds), with the pages each engine matches."""
    from common import timed

    peers = Peers(corpus, out, out / "home")
    names = list(peers.ways)
    for items, q in queries:  # warm-up
        for name in names:
            peers.ways[name](items, q)
    ms: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        for k, (items, q) in enumerate(queries):
            turn = (r + k) % len(names)
            for name in names[turn:] + names[:turn]:
                ms[name].append(timed(functools.partial(peers.ways[name], items, q)))
    phrase_ms, matched = search_phrases(peers, phrases or [], phrase_rounds)
    agreement: dict[str, list[float]] = {}
    if hasattr(peers, "tantivy"):
        for items, _ in queries:
            theirs = peers.documents("tantivy", items)
            for name in ("regnb", "bm25s"):
                if name == "bm25s" and not hasattr(peers, "bm25s"):
                    continue
                mine = peers.documents(name, items)
                if theirs or mine:
                    agreement.setdefault(name, []).append(
                        len(set(mine) & set(theirs)) / max(len(mine), len(theirs))
                    )
    return {
        "ms": ms,
        "agreement": agreement,
        "load": os.getloadavg(),
        "phrase_ms": phrase_ms,
        "phrase_matches": matched,
        "phrase_load": os.getloadavg(),
    }


def _kept(into: list[object], way: Callable[[str], object], item: str) -> None:
    into.append(way(item))


def search_phrases(
    peers: Peers, phrases: list[str], rounds: int
) -> tuple[dict[str, list[float]], dict[str, dict[str, int]]]:
    """The phrases on every engine, as `search_all` runs the queries (warm-up, then `rounds`
    rounds alternating the engines phrase by phrase): milliseconds per engine, and the pages
    each phrase matches (regnb: over every dataset; tantivy: every page)."""
    from common import timed

    names = list(peers.phrase_ways)
    matched: dict[str, dict[str, int]] = {}
    for item in phrases:  # warm-up, and the pages matched
        for name in names:
            peers.phrase_ways[name](item)
        res = peers.eng.search([item])
        matched[item] = {"regnb": sum(s.get("matches", 0) for s in res.dataset_statuses.values())}
        if hasattr(peers, "tantivy"):
            matched[item]["tantivy"] = peers.tantivy_phrase(item, None).count  # type: ignore[attr-defined]
    ms: dict[str, list[float]] = {n: [] for n in names}
    checks: list[float] = []
    with phrase_checks_timed(checks):
        for r in range(rounds):
            for k, item in enumerate(phrases):
                turn = (r + k) % len(names)
                for name in names[turn:] + names[:turn]:
                    got: list[object] = []
                    checks.clear()
                    way = functools.partial(_kept, got, peers.phrase_ways[name], item)
                    ms[name].append(timed(way))
                    timings = getattr(got[0], "timings", None)  # regnb's: its shares
                    if timings:
                        ms.setdefault(f"{name}: its matching (match_ms)", []).append(
                            timings["match_ms"]
                        )
                        ms.setdefault(f"{name}: its phrase checks", []).append(sum(checks))
    return ms, matched


@contextlib.contextmanager
def phrase_checks_timed(spent: list[float]) -> Iterator[None]:
    """Each phrase check of regnb's searches (`RowReader.phrase_pages`: a phrase's or
    exclusion's candidate pages checked from the positions) timed into `spent`, ms."""
    from regnb.index.rows import RowReader

    plain = RowReader.phrase_pages

    def timed_check(self: RowReader, *args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return plain(self, *args, **kwargs)
        finally:
            spent.append((time.perf_counter() - start) * 1000)

    RowReader.phrase_pages = timed_check  # type: ignore[method-assign]
    try:
        yield
    finally:
        RowReader.phrase_pages = plain  # type: ignore[method-assign]


def quantiles(values: list[float]) -> str:
    """p50 / p95 / max of milliseconds."""
    from common import percentiles

    p50, p95 = percentiles(values)
    return f"{p50:.1f} / {p95:.1f} / {max(values):.1f}"


def build(kind: str, corpus: Path, out: Path, reuse: bool) -> dict | None:
    """One engine's index built in a child process (or the figures of an earlier build)."""
    record = out / f"{kind}.json"
    if reuse and record.exists():
        return json.loads(record.read_text())
    folder = {"regnb": out / "home", "fts": out / "fts.duckdb"}.get(kind, out / kind)
    if folder.is_dir():
        shutil.rmtree(folder)
    folder.unlink(missing_ok=True)
    print(f"building {kind} ({load()})", flush=True)
    if kind == "regnb":
        built = child(BUILD, str(corpus), str(folder))
        size = folder_bytes(folder / "index", "embeddings.npy")
        whole = folder_bytes(folder / "index")
    elif kind == "fts":
        built = child(BUILD_FTS, str(corpus), str(folder))
        size = whole = folder.stat().st_size
    else:
        built = child(BUILD_PEER, kind, str(corpus), str(folder))
        size = whole = folder_bytes(folder)
    built.update(bytes=size, whole=whole, load=os.getloadavg())
    record.write_text(json.dumps(built))
    print(f"built {kind}: {built}", flush=True)
    return built


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pages", type=int, default=200_000)
    parser.add_argument("--queries", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--phrase-rounds", type=int, default=5, help="0: no phrases")
    parser.add_argument("--no-bm25s", action="store_true", help="leave bm25s out")
    parser.add_argument("--no-fts", action="store_true", help="leave DuckDB fts out")
    parser.add_argument(
        "--reuse", action="store_true", help="search the indexes an earlier run built"
    )
    parser.add_argument("--out", type=Path, default=None, help="default benchmarks/out/peers-N")
    args = parser.parse_args()
    print(f"start ({load()})", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = OUT / f"scale-{args.pages}"
    n_pages = make_corpus(corpus, args.pages)
    if not n_pages:
        shutil.rmtree(corpus)
        raise SystemExit(f"no pages: the real pages ({SHARED / 'realcorpus'}) are not there")
    raw = raw_text_bytes(corpus)
    out = args.out or OUT / f"peers-{args.pages}"
    out.mkdir(parents=True, exist_ok=True)
    kinds = ["regnb", "tantivy", *([] if args.no_bm25s else ["bm25s"])]
    kinds += [] if args.no_fts else ["fts"]
    built = {kind: build(kind, corpus, out, args.reuse) for kind in kinds}
    if args.no_bm25s:  # an earlier run's indexes left out of this one
        shutil.rmtree(out / "bm25s", ignore_errors=True)
    if args.no_fts:
        (out / "fts.duckdb").unlink(missing_ok=True)
    queries = make_queries(args.queries)
    print(f"searching ({load()})", flush=True)
    found = child(
        SEARCH,
        str(corpus),
        str(out),
        json.dumps(queries),
        str(args.rounds),
        json.dumps(PHRASES),
        str(args.phrase_rounds),
    )
    print(f"searched ({load()})", flush=True)

    rows = []
    for kind, b in built.items():
        if b is None:
            continue
        size = f"{b['bytes'] / raw:.2f}"
        if b["whole"] != b["bytes"]:
            size += f" ({b['whole'] / raw:.2f} with embeddings)"
        rows.append(
            (
                kind,
                f"{n_pages / b['seconds']:,.0f}",
                f"{b['peak_gb']:.2f}",
                size,
                "{:.1f}".format(b["load"][0]),
            )
        )
    print(f"\n{n_pages:,} pages, raw text {raw / 1e9:.2f} GB")
    print(table(rows, ("index", "build pages/s", "build peak GB", "size ÷ raw text", "load")))
    lines = [(name, quantiles(v), str(len(v))) for name, v in found["ms"].items()]
    print()
    print(table(lines, ("search", "p50 / p95 / max ms", "searches")))
    for name, values in found["agreement"].items():
        print(
            f"top-{AGREE} documents agreeing with tantivy's, 1 dataset bm25, {name}: "
            f"{sum(values) / len(values):.2f} on average over {len(values)} queries"
        )
    print(
        f"\n{len(queries)} queries x {args.rounds} rounds; load average after the searches "
        "{:.1f} / {:.1f} / {:.1f}".format(*found["load"])
    )
    if found["phrase_ms"]:
        print()
        lines = [(name, quantiles(v), str(len(v))) for name, v in found["phrase_ms"].items()]
        print(table(lines, ("phrase search", "p50 / p95 / max ms", "searches")))
        pages = [
            (f"`{item}`", f"{m['regnb']:,}", f"{m['tantivy']:,}" if "tantivy" in m else "")
            for item, m in found["phrase_matches"].items()
        ]
        print(table(pages, ("phrase", "regnb pages (every dataset)", "tantivy pages")))
        print(
            f"\n{len(PHRASES)} phrases x {args.phrase_rounds} rounds; load average after "
            "the phrases {:.1f} / {:.1f} / {:.1f}".format(*found["phrase_load"])
        )


if __name__ == "__main__":
    main()
