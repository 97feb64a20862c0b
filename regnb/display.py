"""Moved to `regnb.present.html`; this name stays for code that imports it."""

from __future__ import annotations

from regnb.present.html import *  # noqa: F403
from regnb.present.html import __all__ as _moved
from regnb.present.names import package_names

__all__ = sorted([*_moved, "dataset_name"])


def dataset_name(dataset_id: str) -> str:
    """The package catalog's name of a dataset (its id where that catalog lacks it); a result
    shows the names of its own engine's catalog (`result.names`)."""
    return package_names()(dataset_id)
