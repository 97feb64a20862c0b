"""Moved to `regnb.present.plots`. Importing `regnb.plot` warns
(DeprecationWarning): it goes in regnb 0.3."""

from __future__ import annotations

import warnings

from regnb.present.plots import *  # noqa: F403
from regnb.present.plots import __all__ as __all__

warnings.warn(
    "regnb.plot is deprecated and goes in regnb 0.3: import regnb.present.plots instead",
    DeprecationWarning,
    stacklevel=2,
)
