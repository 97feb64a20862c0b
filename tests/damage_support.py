"""An index of two segments to damage: fda_483 and fda_warning_letters in the first, fda_guidance
in the second, each page holding "sterility" a few times among seeded random words (so that
scores differ and the page texts are many kilobytes)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import regnb
from regnb.index.build import IndexState

from .conftest import doc

FIRST = ("fda_483", "fda_warning_letters")  # the datasets of the segment damaged
SECOND = "fda_guidance"
DATASETS = [*FIRST, SECOND]


def _docs(rng: random.Random, dataset: str, n: int = 12) -> list[dict[str, Any]]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    out = []
    for i in range(n):
        pages = []
        for _ in range(3):
            words = [
                "".join(rng.choice(letters) for _ in range(rng.randint(4, 9))) for _ in range(140)
            ]
            for _ in range(rng.randint(1, 5)):
                words.insert(rng.randrange(len(words)), "sterility")
            pages.append(" ".join(words))
        out.append(doc(f"{dataset} record {i}", pages, url=f"https://example.test/{dataset}/{i}"))
    return out


def open_engine(path: Path) -> regnb.Engine:
    return regnb.Engine(path, encoder=regnb.HashingEncoder(), progress=False)


def write_corpus(path: Path) -> None:
    """The corpus, and its index of two segments (the second added to the first)."""
    rng = random.Random(29)
    first = {ds: _docs(rng, ds) for ds in FIRST}
    regnb.write_corpus(path, first, encoder=regnb.HashingEncoder(), progress=False)
    open_engine(path).close()
    second = {SECOND: _docs(rng, SECOND)}
    regnb.write_corpus(path, second, encoder=regnb.HashingEncoder(), progress=False)
    open_engine(path).close()


def index_folder() -> Path:
    """The one index under REGNB_HOME."""
    (manifest,) = Path(os.environ["REGNB_HOME"]).glob("index/*/v*/index.json")
    return manifest.parent


def first_segment() -> Path:
    """The folder of the segment holding FIRST."""
    folder = index_folder()
    state = IndexState.load(folder)
    assert state is not None and len(state.segments) == 2
    return folder / state.segments[0].id


def search(eng: regnb.Engine) -> dict[str, Any]:
    return eng.search(["sterility"], datasets=DATASETS, limit=50).to_dict()


def truncate(path: Path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)


def overwrite(path: Path, at: int = 100, size: int = 2000) -> None:
    """`size` bytes from `at` replaced by seeded random bytes (the file keeps its size)."""
    assert path.stat().st_size > at + size, "the file is too small to damage"
    with open(path, "r+b") as f:
        f.seek(at)
        f.write(random.Random(2000).randbytes(size))
