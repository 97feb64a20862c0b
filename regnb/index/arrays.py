"""Small helpers the store and its readers share: arrays joined, integer columns, dates as days."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["concat", "day_number", "int64s", "utf8_bytes"]


def concat(parts: Sequence[np.ndarray], dtype: Any) -> np.ndarray:
    """The parts joined, as `dtype` (an empty array of it where there are none)."""
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


def int64s(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """An integer column as int64 (the positions read back from SQL, list lengths, codes)."""
    return np.asarray(values.to_numpy(zero_copy_only=False), np.int64)


def day_number(value: str) -> int:
    """An ISO date as the segments keep it: days since 1970-01-01."""
    return cast(
        int, (np.datetime64(value, "D") - np.datetime64("1970-01-01", "D")).astype(int).item()
    )


def utf8_bytes(texts: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, np.ndarray]:
    """Strings (a null as empty) as their UTF-8 bytes one after another and where each starts
    (and the last ends), int64, without copying where they are one array."""
    if isinstance(texts, pa.ChunkedArray):
        texts = texts.combine_chunks() if texts.num_chunks != 1 else texts.chunk(0)
    if not (pa.types.is_string(texts.type) or pa.types.is_large_string(texts.type)):
        texts = texts.cast(pa.large_string())
    if not len(texts):
        return np.zeros(0, np.uint8), np.zeros(1, np.int64)
    if texts.null_count:
        texts = pc.fill_null(texts, "")
    _, offsets_buf, data_buf = texts.buffers()
    wide = pa.types.is_large_string(texts.type)
    offsets = np.frombuffer(offsets_buf, np.int64 if wide else np.int32)
    offsets = offsets[texts.offset : texts.offset + len(texts) + 1].astype(np.int64)
    data = np.frombuffer(data_buf, np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    base = int(offsets[0]) if offsets.size else 0
    end = int(offsets[-1]) if offsets.size else 0
    return data[base:end], (offsets - base).astype(np.int64)
