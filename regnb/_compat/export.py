"""Moved to `regnb.present.export`. Importing `regnb.export` warns
(DeprecationWarning): it goes in regnb 0.3."""

from __future__ import annotations

import warnings

from regnb.present.export import *  # noqa: F403
from regnb.present.export import __all__ as __all__

warnings.warn(
    "regnb.export is deprecated and goes in regnb 0.3: import regnb.present.export instead",
    DeprecationWarning,
    stacklevel=2,
)
