"""Notebook widgets over any engine (local `regnb.Engine` or the remote client): they call only
the public `regnb.interface.EngineAPI` methods, so the same widgets work over HTTP.

    from regnb.widgets import SearchPanel, DocumentViewer, ResearchChat
    panel = SearchPanel()          # the default engine; SearchPanel(eng) for another
    panel.result                   # the last SearchResult, to go on in code
    panel.selected                 # the rows ticked, as a DataFrame
    DocumentViewer(eng, doc_id, page=3, highlight="media fills did not simulate")
    ResearchChat(eng)              # ask, watch the steps, open the cited pages
    FirmTimeline(eng, "Hospira")   # a firm's documents across datasets, each opening its page

Each takes the engine first (None: the default engine). A notebook exported to HTML (nbconvert,
nbviewer, GitHub) shows each widget's state when it was saved, as static HTML (`.to_html()`): a
displayed widget updates its output once a search, an answer or a page is drawn.

Needs ipywidgets: `pip install 'regnb[notebook]'`. `import regnb` does not import this package.
"""

from __future__ import annotations

try:
    import ipywidgets  # noqa: F401
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError(
        "regnb.widgets needs ipywidgets: pip install 'regnb[notebook]' (or pip install ipywidgets)"
    ) from exc

from regnb.widgets._chat import ResearchChat
from regnb.widgets._search_panel import SearchPanel
from regnb.widgets._timeline import FirmTimeline
from regnb.widgets._viewer import DocumentViewer

__all__ = ["DocumentViewer", "FirmTimeline", "ResearchChat", "SearchPanel"]
