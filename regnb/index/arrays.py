"""Small helpers the store and its readers share: arrays joined, integer columns, dates as days."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import pyarrow as pa

__all__ = ["concat", "day_number", "int64s"]


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
