"""Corpora embedded and indexed on Ray: the expensive part runs on the cluster, the driver keeps
validation, deduplication, commits and the manifests (`runner="ray"`).

Embedding: each batch of documents becomes one row of a Ray dataset; `map_batches` over an
actor pool (one GPU per actor where the cluster has GPUs, else CPUs) embeds it with the corpus's
encoder, rebuilt once per actor from an `EncoderSpec`, and writes its shard with the local
writer's own function (`corpus.write_batch_shard`). The driver commits each shard as it comes
back, so an interrupted run resumes from the shards committed, as locally.

Indexing: one task per batch of shards tokenises it against the index's dictionary; the driver
gives the batch's new terms their ids in the order a build here gives them (batch by batch,
each batch's new terms in term order), and a second task writes the segment with those ids. The
index is then the one a local build writes, term ids and document frequencies included; the
driver commits its manifest once, at the end.

Workers read and write the corpus and the index folder by path: on a cluster of several
machines, both live on storage every node mounts at the same path.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import pickle
import warnings
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa

from regnb import _segments as segments
from regnb import shards
from regnb._storage import Location, location
from regnb.encoder import Encoder, HashingEncoder, MiniLMEncoder
from regnb.errors import InvalidRequest
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.corpus import Job, ShardsOf
    from regnb.index import _Writer

__all__ = [
    "EncoderSpec",
    "Placement",
    "build_segments",
    "connected",
    "encoder_spec",
    "placement",
    "renumber_terms",
    "shard_writer",
    "store_env",
    "write_shards",
]

INSTALL = "Ray is not installed: pip install 'regnb[ray]'"
CPU_ENCODE_BATCH = 32  # texts per model run on a CPU actor, as MiniLM's default
STEP = 64  # texts per encode call at least, as the local writer
SETTLE_S = 600.0  # at most, the wait for a failed build's tasks in flight


def _ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ImportError(INSTALL) from exc
    return ray


@contextlib.contextmanager
def connected(address: str | None = None) -> Iterator[Any]:
    """The `ray` module, connected: to the process's Ray session, else to the cluster at
    `address` (None: $RAY_ADDRESS, else a new local instance, shut down on leaving)."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, logging_level=logging.WARNING)
    try:
        import ray.data

        with warnings.catch_warnings():  # Ray Data's own defaults set a deprecated option
            warnings.simplefilter("ignore", DeprecationWarning)
            context = ray.data.DataContext.get_current()
        context.enable_progress_bars = False  # the driver shows its own, over pages committed
        context.print_on_execution_start = False
        logging.getLogger("ray.data").setLevel(logging.WARNING)
        yield ray
    finally:
        if started:
            ray.shutdown()


# --- the encoder, rebuilt in each actor -------------------------------------------------------


@dataclass(frozen=True)
class EncoderSpec:
    """How a worker rebuilds the corpus's encoder (an ONNX session does not travel): MiniLM and
    the hashing encoder by name, any other encoder pickled."""

    kind: str  # "minilm" | "hashing" | "pickled"
    dim: int = 384
    max_tokens: int = 256
    pickled: bytes = b""

    def build(self, *, device: str = "cpu", batch_size: int = 32, threads: int = 0) -> Encoder:
        if self.kind == "minilm":
            return MiniLMEncoder(
                max_tokens=self.max_tokens, batch_size=batch_size, device=device, threads=threads
            )
        if self.kind == "hashing":
            return HashingEncoder(self.dim)
        encoder: Encoder = pickle.loads(self.pickled)
        return encoder


def encoder_spec(encoder: Encoder) -> EncoderSpec:
    """The spec that rebuilds `encoder` on a worker; InvalidRequest for one that cannot travel."""
    if isinstance(encoder, MiniLMEncoder):
        return EncoderSpec("minilm", encoder.dim, encoder.max_tokens)
    if type(encoder) is HashingEncoder:
        return EncoderSpec("hashing", encoder.dim)
    try:  # Ray's cloudpickle: a class defined in a notebook travels too
        return EncoderSpec("pickled", encoder.dim, pickled=_ray().cloudpickle.dumps(encoder))
    except Exception as exc:
        raise InvalidRequest(
            f"the encoder {encoder.name} cannot be sent to Ray workers ({exc}); "
            "use MiniLMEncoder, HashingEncoder or an encoder that pickles",
            field="encoder",
        ) from None


@dataclass(frozen=True)
class Placement:
    """Where embedding runs: `actors` actors of `gpus` GPUs (0 or 1) and `cpus` CPUs each,
    `batch_pages` pages per shard, `encode_batch` texts per model run."""

    actors: int
    gpus: int
    cpus: int
    batch_pages: int
    encode_batch: int

    @property
    def device(self) -> str:
        return "cuda" if self.gpus else "cpu"


def placement(resources: dict[str, float], settings: Settings) -> Placement:
    """GPU actors, one per GPU, where the cluster has GPUs; else CPU actors over its CPUs."""
    gpus = int(resources.get("GPU", 0))
    per = max(settings.ray_cpus_per_worker, 1)
    if gpus:
        return Placement(
            settings.ray_actors or gpus,
            1,
            per,
            settings.ray_gpu_batch_pages,
            settings.ray_gpu_encode_batch,
        )
    actors = settings.ray_actors or max(int(resources.get("CPU", 1)) // per, 1)
    return Placement(actors, 0, per, settings.ray_batch_pages, CPU_ENCODE_BATCH)


class _ShardWriter:
    """A Ray actor: the encoder, loaded once; embeds and writes one shard per row."""

    def __init__(self, corpus: str, salt: str, spec: EncoderSpec, where: Placement) -> None:
        threads = where.cpus if where.device == "cpu" else 0
        self.corpus, self.salt, self.step = location(corpus), salt, max(where.encode_batch, STEP)
        self.encoder = spec.build(
            device=where.device, batch_size=where.encode_batch, threads=threads
        )

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, list[Any]]:
        from regnb.corpus import write_batch_shard

        entries = []
        for dataset_id, docs in zip(batch["dataset"], batch["docs"], strict=True):
            written = write_batch_shard(
                self.corpus, self.salt, str(dataset_id), pickle.loads(docs), self.encoder,
                step=self.step,
            )  # fmt: skip
            entries.append(pickle.dumps(written))
        return {"job": list(batch["job"]), "entry": entries}


@contextlib.contextmanager
def shard_writer(
    ray_address: str | None = None, settings: Settings | None = None
) -> Iterator[tuple[ShardsOf, int]]:
    """`write_shards` on the cluster at `ray_address` (connected meanwhile), placed after its
    resources, and the pages per shard that suit its actors."""
    with connected(ray_address) as ray:
        where = placement(ray.cluster_resources(), settings or Settings.from_env())
        yield functools.partial(write_shards, where=where), where.batch_pages


def write_shards(
    corpus: Location, salt: str, jobs: list[Job], encoder: Encoder, bar: Any, *, where: Placement
) -> Iterator[tuple[int, shards.ShardEntry]]:
    """Each job's shard, embedded and written by an actor pool placed `where`, as they come
    back (job number, entry); the bar moves by a job's pages once the caller has committed it."""
    if not jobs:
        return
    ray = _ray()
    rows = [{"job": i, "dataset": d, "docs": pickle.dumps(b)} for i, (d, b) in enumerate(jobs)]
    dataset = ray.data.from_items(rows, override_num_blocks=len(rows)).map_batches(
        _ShardWriter,
        fn_constructor_kwargs={
            "corpus": _where(corpus),
            "salt": salt,
            "spec": encoder_spec(encoder),
            "where": where,
        },
        batch_size=1,
        compute=ray.data.ActorPoolStrategy(size=min(where.actors, len(rows))),
        num_gpus=where.gpus,
        num_cpus=where.cpus,
        runtime_env=store_env(),
    )
    del rows
    for row in dataset.iter_rows():
        job = int(row["job"])
        yield job, pickle.loads(row["entry"])
        bar.update(sum(len(d["pages"]) for d in jobs[job][1]))


def store_env() -> dict[str, Any] | None:
    """The driver's object-store settings (AWS_*, as pyarrow reads them) for the workers, which
    read and write a corpus on a store with the driver's access; None where there are none."""
    env = {k: v for k, v in os.environ.items() if k.startswith("AWS_")}
    return {"env_vars": env} if env else None


def _where(corpus: Location) -> str:
    """The corpus as a worker opens it: a folder's absolute path (every node mounts it there),
    or the object store's URL."""
    return str(corpus.local.resolve()) if corpus.local is not None else corpus.url


# --- index segments --------------------------------------------------------------------------


def renumber_terms(data: segments.SegmentData, base: int, ids: np.ndarray) -> segments.SegmentData:
    """A segment tokenised with new terms numbered from `base` (in term order), its postings
    given the index's ids for those terms (`ids[local - base]`) and sorted again (term, page)."""
    terms = data.post_term.astype(np.int64)
    fresh = terms >= base
    terms[fresh] = ids[terms[fresh] - base]
    order = np.argsort(terms, kind="stable")  # pages stay ascending within a term
    return replace(
        data,
        post_term=terms[order].astype(np.int32),
        post_page=data.post_page[order],
        post_tf=data.post_tf[order],
    )


def _tokenise(
    corpus: str, dim: int, batch: list[shards.ShardEntry], dictionary: pa.Table, base: int,
    threads: int, temp_dir: str,
) -> tuple[pa.Table, segments.SegmentData]:  # fmt: skip
    """A Ray task: one batch of shards as segment data, new terms numbered from `base`."""
    parts = [segments.shard_tables(location(corpus), e, dim) for e in batch]
    docs, pages, vectors = segments.concat_shards(parts, dim)
    data, new_terms = segments.from_tables(
        docs, pages, vectors, dictionary, base, threads=threads, temp_dir=Path(temp_dir)
    )
    return new_terms, data


def _write(
    folder: str, data: segments.SegmentData, base: int, ids: np.ndarray, shard_ids: list[str]
) -> tuple[str, dict[str, Any], np.ndarray, np.ndarray, np.ndarray]:
    """A Ray task: write the segment with the index's term ids; returns what the driver
    records (segment id, summary, term ids and their page counts, page lengths)."""
    data = renumber_terms(data, base, ids)
    seg_id = segments.new_segment_id()
    summary = segments.write_segment(Path(folder) / seg_id, data, shard_ids)
    term_ids, counts = data.term_df()
    return seg_id, summary, term_ids, counts, data.page_dl


class _Terms:
    """The ids a local build gives new terms: batch by batch, each batch's new terms in term
    order, from the index's next id on."""

    def __init__(self, next_id: int) -> None:
        self.next_id = next_id
        self.given: dict[str, int] = {}

    def number(self, new_terms: pa.Table) -> tuple[np.ndarray, pa.Table]:
        """Ids for a batch's new terms (sorted by term), and those that no earlier batch had."""
        ids = np.empty(new_terms.num_rows, np.int64)
        fresh: list[str] = []
        for i, term in enumerate(new_terms.column("term").to_pylist()):
            if term not in self.given:
                self.given[term] = self.next_id
                self.next_id += 1
                fresh.append(term)
            ids[i] = self.given[term]
        first = self.next_id - len(fresh)
        table = pa.table(
            {
                "term": pa.array(fresh, pa.string()),
                "term_id": pa.array(np.arange(first, self.next_id, dtype=np.int32)),
            }
        )
        return ids, table


def build_segments(
    corpus: Location,
    dim: int,
    writer: _Writer,
    batches: list[list[shards.ShardEntry]],
    done: Callable[[list[shards.ShardEntry]], None],
    *,
    ray_address: str | None = None,
    settings: Settings | None = None,
) -> None:
    """Build a segment per batch of shards on Ray and record each in `writer`, in batch order
    (`done(batch)` after each); at most a few batches are in flight at once, so memory stays
    bounded. On failure, the tasks in flight finish before the error goes on."""
    with connected(ray_address) as ray:
        _build(ray, corpus, dim, writer, batches, done, settings or Settings.from_env())


def _build(
    ray: Any,
    corpus: Location,
    dim: int,
    writer: _Writer,
    batches: list[list[shards.ShardEntry]],
    done: Callable[[list[shards.ShardEntry]], None],
    settings: Settings,
) -> None:
    cpus = max(settings.ray_cpus_per_worker, 1)
    window = max(int(ray.cluster_resources().get("CPU", 1)) // cpus, 1) + 1
    env = store_env()
    tokenise = ray.remote(num_cpus=cpus, num_returns=2, runtime_env=env)(_tokenise)
    write = ray.remote(num_cpus=cpus, runtime_env=env)(_write)
    dictionary = ray.put(writer.dictionary)
    base = writer.state.next_term_id
    terms = _Terms(base)
    folder = str(writer.folder.resolve())
    tokenising: deque[tuple[list[shards.ShardEntry], Any, Any]] = deque()
    writing: deque[tuple[list[shards.ShardEntry], pa.Table, Any]] = deque()

    def start_write() -> None:
        batch, new_ref, data_ref = tokenising.popleft()
        ids, fresh = terms.number(ray.get(new_ref))
        shard_ids = [e.shard_id for e in batch]
        writing.append((batch, fresh, write.remote(folder, data_ref, base, ids, shard_ids)))

    def record() -> None:
        batch, fresh, ref = writing.popleft()
        seg_id, summary, term_ids, counts, page_dl = ray.get(ref)
        writer.record_segment(seg_id, summary, fresh, term_ids, counts, page_dl)
        done(batch)

    try:
        for batch in batches:
            new_ref, data_ref = tokenise.remote(
                _where(corpus), dim, batch, dictionary, base, cpus, folder
            )
            tokenising.append((batch, new_ref, data_ref))
            if len(tokenising) >= window:
                start_write()
            if len(writing) >= window:
                record()
        while tokenising:
            start_write()
        while writing:
            record()
    except BaseException:
        _settle(ray, [r for _, a, b in tokenising for r in (a, b)] + [r for *_, r in writing])
        raise


def _settle(ray: Any, refs: list[Any]) -> None:
    """Wait until the tasks in flight are done, so that none still writes into the index folder
    when the failed build's files are removed. Not cancelled: cancelling a task whose inputs are
    still being resolved aborts the driver (a failed check in Ray 2.60's reference counter, seen
    in this project's CI), and at most a few batches are in flight."""
    if refs:
        ray.wait(refs, num_returns=len(refs), timeout=SETTLE_S)
