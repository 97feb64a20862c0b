"""The search panel's inputs: keyword items (added and removed) and the dataset picker, where a
dataset that cannot be searched is shown but cannot be ticked, and says why."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ipywidgets as w

from regnb.validate import PLANS
from regnb.widgets._common import ErrorSlots

if TYPE_CHECKING:
    from regnb.catalog import Catalog, Dataset

__all__ = ["DatasetPicker", "KeywordItems", "unavailable_reason"]

KEYWORD_RULE = (
    "Each item is an alternative: a page matches an item when it holds <b>every word</b> of it "
    "(<i>media fill</i> needs both words); a page matching any item is found."
)
ALL_RULE = "None ticked: every dataset your plan can search."
NOT_AVAILABLE = "not available yet"
NEEDS_ENTERPRISE = "needs an enterprise plan"


class KeywordItem(w.HBox):  # type: ignore[misc]  # ipywidgets ships no types
    """One keyword item: its text box, a remove button and its error label."""

    def __init__(self, text: str, on_remove: Callable[[KeywordItem], None]) -> None:
        self.text = w.Text(value=text, placeholder="words that must all be on the page")
        self.text.layout.width = "26em"
        self.remove = w.Button(icon="times", tooltip="remove this item")
        self.remove.layout.width = "2.6em"
        self.remove.on_click(lambda _: on_remove(self))
        self.error = ErrorSlots._label()
        super().__init__([self.text, self.remove, self.error])


class KeywordItems(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """Keyword items; `values()` gives the non-empty ones, in order."""

    def __init__(self, errors: ErrorSlots, items: Sequence[str] = ("",)) -> None:
        self.errors = errors
        self.items: list[KeywordItem] = []
        self.add_button = w.Button(description="Add item", icon="plus", tooltip="another item")
        self.add_button.on_click(lambda _: self.add())
        self.rule = w.HTML(f'<span style="opacity:0.75">{KEYWORD_RULE}</span>')
        self.list = w.VBox()
        super().__init__([self.list, w.HBox([self.add_button, errors.slot("keywords")]), self.rule])
        self.set(items)

    def add(self, text: str = "") -> KeywordItem:
        item = KeywordItem(text, self.remove)
        self.items.append(item)
        self.list.children = tuple(self.items)
        return item

    def remove(self, item: KeywordItem) -> None:
        self.items.remove(item)
        if not self.items:
            self.items.append(KeywordItem("", self.remove))
        self.list.children = tuple(self.items)

    def set(self, items: Sequence[str] | str) -> None:
        """Replace the items (a string is one item)."""
        texts = [items] if isinstance(items, str) else list(items) or [""]
        self.items = [KeywordItem(t, self.remove) for t in texts]
        self.list.children = tuple(self.items)

    def values(self) -> list[str]:
        """The non-empty items, in order; each one's errors (`keywords[i]`) show beside it."""
        self.errors.unbind("keywords[")
        sent = [item for item in self.items if item.text.value.strip()]
        for i, item in enumerate(sent):
            self.errors.bind(f"keywords[{i}]", item.error)
        return [item.text.value.strip() for item in sent]


def unavailable_reason(dataset: Dataset, plan: str) -> str | None:
    """Why the dataset cannot be ticked, or None when it can. A plan the engine does not know
    (a remote client's "unknown": its key decides) disables nothing; the server reports
    `forbidden` datasets in the result."""
    if not dataset.available:
        return NOT_AVAILABLE
    if plan in PLANS and not dataset.open_to(plan):  # a remote client's key decides its plan
        return NEEDS_ENTERPRISE
    return None


class DatasetPicker(w.VBox):  # type: ignore[misc]  # ipywidgets ships no types
    """A checkbox per catalog dataset; those that cannot be searched are disabled with the reason
    in their label and tooltip. `selected()` lists the ticked ids."""

    def __init__(self, catalog: Catalog, plan: str, errors: ErrorSlots) -> None:
        self.boxes: dict[str, w.Checkbox] = {}
        self.reasons: dict[str, str | None] = {}
        for d in catalog:
            reason = unavailable_reason(d, plan)
            label = d.name if reason is None else f"{d.name} ({reason})"
            box = w.Checkbox(
                value=False,
                description=label,
                disabled=reason is not None,
                indent=False,
                tooltip=f"{d.id}: {reason}" if reason else f"{d.id} · {d.jurisdiction}",
            )
            box.layout.width = "auto"
            self.boxes[d.id], self.reasons[d.id] = box, reason
        grid = w.GridBox(
            list(self.boxes.values()),
            layout=w.Layout(grid_template_columns="repeat(3, minmax(0, 1fr))", width="100%"),
        )
        hint = w.HTML(f'<span style="opacity:0.75">{ALL_RULE}</span>')
        super().__init__([grid, hint, errors.slot("datasets")])

    def selected(self) -> list[str]:
        return [ds for ds, box in self.boxes.items() if box.value and not box.disabled]

    def select(self, ids: Sequence[str]) -> None:
        """Tick exactly `ids` (a dataset that cannot be searched stays unticked)."""
        for ds, box in self.boxes.items():
            box.value = ds in ids and not box.disabled
