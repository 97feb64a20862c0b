"""Texts to vectors with the encoder a corpus was embedded with."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from regnb._storage import Location
from regnb.encoder import Encoder, MiniLMEncoder, bulk_encoder, default_encoder
from regnb.errors import InvalidRequest

__all__ = ["Embedder"]


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
