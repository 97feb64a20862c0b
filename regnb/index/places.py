"""The place of each document's firm, read once when the index is built: the documents of a
firm-facing dataset (`FIRM_DATASETS`: 483s, warning letters, inspections, recalls, CRLs) get
`country`, `state` and `city` among their fields, read from their fields or their first
page's address (`regnb.documents.places.document_place`). The index's copy of the fields holds
them, so that its field rows (filters, `country:IN`, facets) and its document rows (results)
have them, and a merge carries them with the rest; the corpus's shards stay as written."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyarrow as pa

from regnb.documents.place_fields import ADDRESS_PAGES, FIRM_DATASETS

__all__ = ["address_pages", "placed_fields"]


def placed_fields(docs: pa.Table, texts: pa.ChunkedArray) -> pa.Array | None:
    """The documents' `fields` (JSON), those of `FIRM_DATASETS` with their firm's place added
    (the parts known); None where no document is of such a dataset. `docs`: `dataset`,
    `fields`, `first_page_id` (a row of `texts`, the pages' texts) and `page_count`."""
    firm = np.isin(docs.column("dataset").to_numpy(zero_copy_only=False), list(FIRM_DATASETS))
    if not firm.any():
        return None
    from regnb.documents.places import document_place  # the place lists: read on first use

    out: list[Any] = docs.column("fields").to_pylist()
    addresses = address_pages(docs, texts).to_pylist()
    for i in np.flatnonzero(firm).tolist():
        fields = json.loads(out[i])
        place = document_place(fields, addresses[i])
        if place is not None:
            fields.update(place.as_fields())
            out[i] = json.dumps(fields, ensure_ascii=False)
    return pa.array(out, pa.string())


def address_pages(docs: pa.Table, texts: pa.ChunkedArray) -> pa.Array:
    """The text of each firm-facing document's first pages, where its address is (`ADDRESS_PAGES`
    of its dataset; one by default), null for the others. `docs` has `dataset`,
    `first_page_id` (a row of `texts`) and `page_count`."""
    datasets = docs.column("dataset").to_pylist()
    first = docs.column("first_page_id").to_pylist()
    counts = docs.column("page_count").to_pylist()
    ids: list[int] = []
    spans: list[tuple[int, int] | None] = []
    for ds, start, count in zip(datasets, first, counts, strict=True):
        if ds not in FIRM_DATASETS or not count:
            spans.append(None)
            continue
        n = min(ADDRESS_PAGES.get(ds, 1), int(count))
        spans.append((len(ids), len(ids) + n))
        ids.extend(range(int(start), int(start) + n))
    read = texts.take(pa.array(ids, pa.int64())).to_pylist() if ids else []
    return pa.array(
        [None if s is None else "\n".join(read[s[0] : s[1]]) for s in spans], pa.string()
    )
