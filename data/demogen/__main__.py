"""`python data/demogen --out data/demo [--seed N] [--scale X] [--fast-encoder]`.

Run as a folder, Python puts `data/demogen` itself first on `sys.path`; its parent goes there
instead, so that `demogen` imports as a package and its modules shadow nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

if not __package__:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

from demogen.cli import main

main()
