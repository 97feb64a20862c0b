"""Corpora embedded on Ray: the expensive part runs on the cluster, the driver keeps
validation, deduplication, commits and the manifests (`runner="ray"`).

Embedding: each batch of documents becomes one row of a Ray dataset; `map_batches` over an
actor pool (one GPU per actor where the cluster has GPUs, else CPUs) embeds it with the corpus's
encoder, rebuilt once per actor from an `EncoderSpec`, and writes its shard with the local
writer's own function (`corpus.write_batch_shard`). The driver commits each shard as it comes
back, so an interrupted run resumes from the shards committed, as locally.

Indexing on Ray is `regnb.index.ray`, with the connection and placement of this module.

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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from regnb.corpus import shards
from regnb.corpus.location import Location, location
from regnb.encoder import Encoder, HashingEncoder, MiniLMEncoder
from regnb.errors import InvalidRequest
from regnb.settings import Settings

if TYPE_CHECKING:
    from regnb.corpus.write import Job, ShardsOf

__all__ = [
    "EncoderSpec",
    "Placement",
    "connected",
    "encoder_spec",
    "placement",
    "shard_writer",
    "store_env",
    "worker_path",
    "write_shards",
]

INSTALL = "Ray is not installed: pip install 'regnb[ray]'"
CPU_ENCODE_BATCH = 32  # texts per model run on a CPU actor, as MiniLM's default
STEP = 64  # texts per encode call at least, as the local writer


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
        from regnb.corpus.write import write_batch_shard

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
            "corpus": worker_path(corpus),
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


def worker_path(corpus: Location) -> str:
    """The corpus as a worker opens it: a folder's absolute path (every node mounts it there),
    or the object store's URL."""
    return str(corpus.local.resolve()) if corpus.local is not None else corpus.url
