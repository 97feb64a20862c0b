"""Moved to `regnb.present.html`. Importing `regnb.display` warns
(DeprecationWarning): it goes in regnb 0.3."""

from __future__ import annotations

import warnings

from regnb.present.html import *  # noqa: F403
from regnb.present.html import __all__ as _moved
from regnb.present.names import package_names

__all__ = sorted([*_moved, "dataset_name"])


def dataset_name(dataset_id: str) -> str:
    """The package catalog's name of a dataset (its id where that catalog lacks it); a result
    shows the names of its own engine's catalog (`result.names`)."""
    return package_names()(dataset_id)


warnings.warn(
    "regnb.display is deprecated and goes in regnb 0.3: import regnb.present.html instead",
    DeprecationWarning,
    stacklevel=2,
)
