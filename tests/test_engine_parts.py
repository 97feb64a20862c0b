"""The engine's parts on their own: made once on first use, and the encoder check."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from regnb.encoder import Embedder, HashingEncoder, MiniLMEncoder
from regnb.engine import Lazy
from regnb.errors import InvalidRequest


class Part:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_lazy_makes_nothing_until_first_use_then_one_part_for_every_thread() -> None:
    made: list[Part] = []

    def make() -> Part:
        made.append(Part())
        return made[-1]

    lazy = Lazy(make)
    assert made == []
    got: list[Part] = []
    threads = [threading.Thread(target=lambda: got.append(lazy.get())) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(made) == 1
    assert all(part is made[0] for part in got)


def test_lazy_close_closes_the_part_and_the_next_use_makes_a_new_one() -> None:
    lazy = Lazy(Part)
    lazy.close()  # nothing made: nothing to close
    first = lazy.get()
    lazy.close()
    assert first.closed
    second = lazy.get()
    assert second is not first
    assert not second.closed


def test_embedder_refuses_an_encoder_the_corpus_was_not_embedded_with() -> None:
    with pytest.raises(InvalidRequest, match="embedded with hashing-384") as err:
        Embedder("hashing-384", 384, where=Path("corpus"), encoder=HashingEncoder(16))
    assert err.value.field == "encoder"
    with pytest.raises(InvalidRequest, match=f"cannot be searched with {MiniLMEncoder.name}"):
        Embedder("hashing-384", 384, where=Path("corpus"))  # the default model, not loaded


def test_embedder_caches_queries_up_to_its_size() -> None:
    calls: list[list[str]] = []

    class Counting(HashingEncoder):
        def encode(self, texts: list[str]) -> np.ndarray:
            calls.append(texts)
            return super().encode(texts)

    embedder = Embedder("hashing-384", 384, where=Path("c"), encoder=Counting(), cache_size=2)
    first = embedder.query("sterility")
    assert embedder.query("sterility") is first
    embedder.query("media fill")
    embedder.query("cleaning")  # "sterility" leaves the cache
    embedder.query("sterility")
    assert [t for [t] in calls] == ["sterility", "media fill", "cleaning", "sterility"]
    assert embedder.texts([]).shape == (0, 384)
