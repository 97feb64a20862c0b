"""Reading an FDA document as its kind is written: the agent, the firms and the index use it.

structure   a page's units: 483 observations, warning-letter violations, CRL deficiencies,
            a guidance's sections (`parse_document`, `Unit`, `document_kind`)
furniture   letter furniture: salutations, response deadlines, signature blocks...
blocks      a page's numbered blocks (paragraphs, list items, table rows)
words       words, sentences and stems of a text
statements  a finding's short statement
cfr         21 CFR and FD&C Act citations in a text
"""

from __future__ import annotations

__all__: list[str] = []
