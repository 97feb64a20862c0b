"""Where the demo corpus is: shipped inside the wheel, or `data/demo` of a source checkout."""

from __future__ import annotations

from pathlib import Path

from regnb.corpus import shards
from regnb.errors import CorpusError

__all__ = ["demo_corpus_path"]


def demo_corpus_path() -> Path:
    """The demo corpus: shipped inside the wheel, or `data/demo` of a source checkout."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "_demo_corpus", package.parent / "data" / "demo"):
        if (candidate / shards.MANIFEST).exists():
            return candidate
    raise CorpusError(
        "the demo corpus is not installed; build it with: python data/demogen --out data/demo"
    )
