"""The corpus: documents written as Parquet shards under a manifest, where they live, and the
demo corpus.

    write     documents checked, embedded and written as shards (`write_corpus`)
    shards    the shards' format and manifest, read and replaced in one rename
    location  a corpus folder or object-store URL (`Location`)
    demo      where the embedded demo corpus is
    ray       shards written on a Ray cluster
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from regnb._compat import exports

if TYPE_CHECKING:
    from regnb.corpus.write import (
        parse_date,
        validate_document,
        write_corpus,
    )

__all__ = ["parse_date", "validate_document", "write_corpus"]

__getattr__ = exports(__name__, dict.fromkeys(__all__, "write"))
