"""How a document is named in an answer: the firm or product it is about."""

from __future__ import annotations

import re

from regnb.agent._stages import Found
from regnb.agent._vocab import FIRM_FIELDS, PRODUCT_FIELDS
from regnb.documents.words import fold_spaces

__all__ = ["firm_of"]

_TITLE_PREFIX = re.compile(
    r"^(?:warning\s+letter|fda\s+form\s+483|complete\s+response\s+letter|maude\s+mdr\s+\S+)"
    r"\s*[:\-–]\s*",
    re.IGNORECASE,
)


# An address line where a firm's name should be ("Redwood City, CA 94063"): not a name.
_ADDRESS = re.compile(r"^[\w .'-]+,\s*[A-Z]{2}\s+\d{5}(?:-\d{4})?$|^\d+\s+\w+")


def firm_of(found: Found) -> str | None:
    """The firm or product a document is about: a catalog field (not an address line that a
    record holds there), else its title's subject."""
    for name in (*FIRM_FIELDS, *PRODUCT_FIELDS):
        value = found.fields.get(name)
        if isinstance(value, str) and value.strip() and not _ADDRESS.match(fold_spaces(value)):
            return fold_spaces(value)
    title = fold_spaces(found.title)
    stripped = _TITLE_PREFIX.sub("", title)
    if stripped != title:
        return re.sub(r"\s*\([^()]*\)\s*$", "", stripped) or None
    return None
